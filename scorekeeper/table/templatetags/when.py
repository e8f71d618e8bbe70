"""``{% load when %}{{ at|when:"SHORT_DATETIME_FORMAT" }}``: a time on a page, in the phone's own zone
even on the first page it opens, with no reload (``scorekeeper/i18n.py``).

The server writes the time in the zone it knows (the phone's, from the ``tz`` cookie; else its own)
as ``<time datetime="…" data-format="…">``, the format the page's language writes it in beside it;
``static/app.js`` writes it again in the phone's zone when that is another one (the first page a
phone opens, before its zone is said). ``when:"DATE_FORMAT,TIME_FORMAT"``: several of Django's
formats, joined by ", "."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import dateformat, formats
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


@register.filter(expects_localtime=True)
def when(value: datetime | None, names: str) -> SafeString | str:
    if not value:
        return ""
    pattern = ", ".join(str(formats.get_format(name.strip())) for name in names.split(","))
    return format_html(
        '<time datetime="{}" data-format="{}">{}</time>',
        dateformat.format(value, "c"),
        pattern,
        dateformat.format(value, pattern),
    )
