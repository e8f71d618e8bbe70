"""Template helpers for the rules, checker and history pages: printed cards with their suit colour."""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.utils.html import format_html, format_html_join

from scorekeeper.tables import chip

register = template.Library()


def _cls(label: str) -> str:
    c = chip(label)
    return "hx-card hx-joker" if c["joker"] else "hx-card hx-red" if c["red"] else "hx-card"


@register.filter
def card(label: str):
    """One printed card ('10♥') as a span coloured by suit; the symbol is always shown."""
    return format_html('<span class="{}">{}</span>', _cls(str(label)), label)


@register.filter
def cards(labels: Iterable[str]):
    return format_html_join(" ", '<span class="{}">{}</span>', ((_cls(str(x)), x) for x in labels or ()))


@register.filter
def signed(value) -> str:
    try:
        return f"{int(value):+d}".replace("-", "−")
    except (TypeError, ValueError):
        return str(value)


@register.inclusion_tag("history/_changes.html")
def deal_changes(game, number=None):
    """The change history of a game's deals (one deal when ``number`` is given), newest first:
    ``{% load history_tags %}{% deal_changes game deal.number %}`` on the deal page."""
    from scorekeeper.history import change_history

    rows = change_history(game)
    if number is not None:
        rows = [r for r in rows if r["number"] == number]
    return {"rows": rows, "game": game, "number": number}
