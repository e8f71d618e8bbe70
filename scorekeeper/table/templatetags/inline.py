"""The stylesheet inlined in each page: on a slow link a linked stylesheet costs a second round trip
before anything is painted (``python -m benchmarks first_paint``; benchmarks/README.md). The page
carries it, compressed with the page (GZip, about 5 KB). The text is read once as the process starts
(``settings.INLINE_STYLESHEET``), and the Content-Security-Policy allows it by its hash
(``settings.INLINE_STYLE_HASH``), not by a nonce: a page kept in the cache and served again, or the
500 page rendered without its request, carries the very same stylesheet."""

from __future__ import annotations

from django import template
from django.conf import settings
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag
def stylesheet() -> SafeString:
    return format_html("<style>{}</style>", mark_safe(settings.INLINE_STYLESHEET))
