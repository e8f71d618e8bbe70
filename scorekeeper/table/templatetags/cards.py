"""``{% load cards %}``: THE rendering of a printed card, and the filters of ``table.text``.

``{{ cards|chips }}`` prints cards as chips coloured by suit (the suit symbol always shown, so
colour is never the only cue), in the reader's rank letters (``rules.messages.card_text``: German
D♠); ``{{ card|chip }}`` one card; ``{{ points|signed }}`` +5, −20, 0; ``{{ total|number }}`` 1075
(German 1.075); ``{{ line|cite_text }}`` a score line's rule and source, ``{{ line|cite_class }}`` its
classes; ``{{ code|outcome }}`` how a deal ended.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from scorekeeper.rules.messages import card_text
from scorekeeper.table import text

register = template.Library()


@register.filter
def chip(label: Any) -> SafeString:
    """One printed card ('10♥', 'JK', '2♣=7♥'), in the reader's letters (German 'D♠')."""
    shown = card_text(str(label))
    return format_html('<span class="{}">{}</span>', text.chip_class(shown), shown)


@register.filter
def chips(labels: Iterable[Any] | None) -> SafeString:
    """Printed cards, one chip each."""
    return format_html_join(" ", "{}", ((chip(x),) for x in labels or ()))


@register.filter
def outcome(code: Any) -> str:
    """How a deal ended, as its code names it ("knock"), in the reader's language."""
    return str(text.outcome_text(str(code)))


@register.filter
def house_options(rules: Any) -> str:
    """The house options a game's rules set, by name and value ("going-out bonus 150"; German
    "Ausmachbonus 150"), the target apart (the page says it already): "" when there are none."""
    options = {name: value for name, value in rules.options().items() if name != "target"}
    return text.options_text(rules.game, options) if options else ""


register.filter("number", text.number_text)
register.filter("signed", text.signed_text)
register.filter("cite_text", text.cite_text)
register.filter("cite_class", text.cite_class)
register.filter("error_cite", text.error_cite)
