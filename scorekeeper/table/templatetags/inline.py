"""The stylesheet inlined in each page: on a slow link a linked stylesheet costs a second round trip
before anything is painted (Slow 3G: 4.4-4.7 s to the first paint, 2.2 s inlined; see
``python -m benchmarks first_paint``). The page carries it, compressed with the page (GZip, about
5 KB). The Content-Security-Policy allows it by its hash (``settings.INLINE_STYLE_HASH``), not by a
nonce: a page kept in the cache and served again, or the 500 page rendered without its request,
carries the very same stylesheet."""

from __future__ import annotations

from pathlib import Path

from django import template
from django.contrib.staticfiles import finders
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


def stylesheet_text(path: str) -> str:
    found = finders.find(path)
    if not isinstance(found, str):
        raise template.TemplateSyntaxError(f"no static file {path!r} to inline")
    text = Path(found).read_text(encoding="utf-8")
    if "</" in text:
        raise template.TemplateSyntaxError(f"{path} holds '</': it cannot be inlined as it is")
    return text


@register.simple_tag
def stylesheet(path: str) -> SafeString:
    return format_html("<style>{}</style>", mark_safe(stylesheet_text(path)))
