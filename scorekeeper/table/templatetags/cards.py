"""``{% load cards %}``: THE rendering of a printed card and THE formatter of a signed value.

``{{ cards|chips }}`` prints cards as chips coloured by suit (the suit symbol always shown, so
colour is never the only cue); ``{{ card|chip }}`` one card; ``{{ points|signed }}`` +5, −20, 0;
``{{ total|number }}`` 1075 (German 1.075); ``{{ line|cite_text }}`` a score line's rule and source,
``{{ line|cite_class }}`` its classes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils import formats
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext, pgettext

from scorekeeper.rules.messages import outcome_words, source_words

register = template.Library()

_RED = frozenset("♥♦")


def chip_class(label: str) -> str:
    """The chip's classes: ``card``, plus ``red`` for hearts and diamonds, ``joker`` for the Joker."""
    if label.startswith("JK"):
        return "card joker"
    if next((ch for ch in label if ch in "♠♥♦♣"), "") in _RED:
        return "card red"
    return "card"


@register.filter
def chip(label: Any) -> SafeString:
    """One printed card ('10♥', 'JK', '2♣=7♥')."""
    text = str(label)
    return format_html('<span class="{}">{}</span>', chip_class(text), text)


@register.filter
def chips(labels: Iterable[Any] | None) -> SafeString:
    """Printed cards, one chip each."""
    return format_html_join(" ", '<span class="{}">{}</span>', ((chip_class(str(x)), x) for x in labels or ()))


def number_text(value: Any) -> str:
    """A whole number as the page's language writes it: 1075 on an English page (as it always was),
    1.075 on a German one (``NUMBER_GROUPING`` and ``THOUSAND_SEPARATOR`` of ``scorekeeper/formats``)."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return str(value)
    if not formats.get_format("NUMBER_GROUPING"):
        return str(number)
    return formats.number_format(number, force_grouping=True)


@register.filter
def number(value: Any) -> str:
    return number_text(value)


def signed_text(value: Any) -> str:
    """+5, −20 (a true minus sign), 0; +1.075 on a German page."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return str(value)
    if not number:
        return "0"
    return ("+" if number > 0 else "−") + number_text(abs(number))


@register.filter
def signed(value: Any) -> str:
    return signed_text(value)


@register.filter
def cite_text(line: Any) -> str:
    """A score line's rule and source as cited beside it ("knock — S2, Scoring 1"), marked
    "(ruling)" or "(house option)" where its value is the app's reading or the table's choice
    (unless the source says so already). ``line``: an engine Line or its dict."""
    rule, source, basis = (
        (line.get(k) for k in ("rule", "source", "basis"))
        if isinstance(line, dict)
        else (getattr(line, k, None) for k in ("rule", "source", "basis"))
    )
    text = _rule_text(rule)
    if source:
        text += f" — {_source_text(source)}"
    if basis == "ruling" and str(source) != "ruling":
        text += f" ({_source_text('ruling')})"
    elif basis == "option" and str(source) != "house option":
        text += f" ({_source_text('house option')})"
    return text


@register.filter
def error_cite(error: Any) -> str:
    """The rule and source an engine error cites ("knock limit, S2, Gameplay 1"), in the reader's
    language. ``error``: a RecordError or its dict."""
    rule, source = (
        (error.get(k) for k in ("rule", "source"))
        if isinstance(error, dict)
        else (getattr(error, k, None) for k in ("rule", "source"))
    )
    return ", ".join(x for x in (_rule_text(rule), _source_text(source) if source else "") if x)


def _rule_text(rule: Any) -> str:
    """A rule as the engine names it, translated (its words are marked N_: its catalog has them)."""
    return gettext(rule) if isinstance(rule, str) and rule else str(rule if rule is not None else "")


def _source_text(source: Any) -> str:
    """A source as cited ("S2, Scoring 4", as the sources name themselves; "S1 law 12" says its law in
    the reader's language, ``source_words``), or the engine's own "ruling" or "house option", translated."""
    if str(source) == "ruling":
        return pgettext("a value that is this app's reading where the sources are silent", "ruling")
    if str(source) == "house option":
        return gettext("house option")
    return str(source_words(str(source)))


@register.filter
def outcome(code: Any) -> str:
    """How a deal ended, as its code names it ("knock"), in the reader's language."""
    return str(outcome_words(str(code)))


@register.filter
def cite_class(line: Any) -> str:
    """The classes of a score line's citation: ``cite``, marked ``ruling`` or ``option``."""
    basis = line.get("basis") if isinstance(line, dict) else getattr(line, "basis", None)
    return f"cite {basis}" if basis in ("ruling", "option") else "cite"


def value_text(value: Any) -> str:
    """A rule's value as players read it: yes/no, 1,000 (German: ja/nein, 1.000), text as it is."""
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, int):
        return f"{value:,}".replace(",", str(formats.get_format("THOUSAND_SEPARATOR")))
    return str(value)
