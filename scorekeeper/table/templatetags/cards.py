"""``{% load cards %}``: THE rendering of a printed card and THE formatter of a signed value.

``{{ cards|chips }}`` prints cards as chips coloured by suit (the suit symbol always shown, so
colour is never the only cue); ``{{ card|chip }}`` one card; ``{{ points|signed }}`` +5, −20, 0;
``{{ line|cite_text }}`` a score line's rule and source, ``{{ line|cite_class }}`` its classes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

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


def signed_text(value: Any) -> str:
    """+5, −20 (a true minus sign), 0."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return str(value)
    return f"{number:+d}".replace("-", "−") if number else "0"


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
    text = str(rule if rule is not None else "")
    if source:
        text += f" — {source}"
    if basis == "ruling" and source != "ruling":
        text += " (ruling)"
    elif basis == "option" and source != "house option":
        text += " (house option)"
    return text


@register.filter
def cite_class(line: Any) -> str:
    """The classes of a score line's citation: ``cite``, marked ``ruling`` or ``option``."""
    basis = line.get("basis") if isinstance(line, dict) else getattr(line, "basis", None)
    return f"cite {basis}" if basis in ("ruling", "option") else "cite"


def value_text(value: Any) -> str:
    """A rule's value as players read it: yes/no, 1,000, text as it is."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)
