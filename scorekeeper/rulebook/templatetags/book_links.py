"""``{% load book_links %}``: from a score line to the rule book.

``{% rule_href l as href %}`` gives the link to the paragraph that explains the line ``l`` (a Line
or its dict) in the book named by the context's ``book_link`` (a ``links.BookLink``), or else in the
book of the context's ``game`` (a Game); "" when there is neither. ``{% book_for rules as b %}``
gives the BookLink of other rules (the re-score page's other side). ``{% checker_href game as href %}``
(or ``{% checker_href game cards="QS QH QD" as href %}``): the ruling checker on the game's first
question under its rules and house options. ``{% refused_options game
form as refused %}``: the engine's refusals of a re-score form's house options, by field.
"""

from __future__ import annotations

from typing import Any

from django import template

from scorekeeper.rulebook import links
from scorekeeper.rules import gin, profiles
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.profiles import GinRules, Rules
from scorekeeper.table.models import Game
from scorekeeper.table.scoring import engine

register = template.Library()


def context_book(context: template.Context) -> links.BookLink | None:
    book = context.get("book_link")
    if isinstance(book, links.BookLink):
        return book
    game = context.get("game")
    if isinstance(game, Game):
        return links.for_game(game)
    return None


@register.simple_tag(takes_context=True)
def rule_href(context: template.Context, line: Any) -> str:
    book = context_book(context)
    if book is None or line is None:
        return ""
    return book.href(line) or ""


@register.simple_tag
def book_for(rules: Rules | None) -> links.BookLink | None:
    return links.for_rules(rules) if isinstance(rules, Rules) else None


@register.simple_tag
def checker_href(game: Any, cards: Any = "") -> str:
    """The ruling checker under a game's rules (a Game, or Rules), on its first question; "" for anything else."""
    if isinstance(game, Game):
        rules, _ = engine.rules_of(game)
    elif isinstance(game, Rules):
        rules = game
    else:
        return ""
    if isinstance(cards, (list, tuple)):
        cards = " ".join(str(c) for c in cards)
    return links.checker_for(rules, str(cards or ""))


@register.simple_tag
def refused_options(game: Any, form: Any, prefix: str = "o_") -> list[tuple[str, str]]:
    """What the engine refuses of the house options a form asks for a game's players (Hollywood
    with three players, or with penalty points): (the option's field name, the engine's message),
    to show next to the option."""
    if not isinstance(game, Game) or not getattr(form, "is_bound", False) or not form.is_valid():
        return []
    try:
        rules = profiles.resolve(game.kind, form.profile(), form.options())
    except RecordInvalid:
        return []
    if not isinstance(rules, GinRules):
        return []
    out = []
    for e in gin.setup_errors(rules, game.player_names()):
        if e.field and e.field.startswith("rules.options."):
            out.append((prefix + e.field.removeprefix("rules.options."), str(e.message)))
    return out
