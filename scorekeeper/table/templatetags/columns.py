"""``{% load columns %}``: Hollywood's three columns for ``components/columns.html``.

``{% hollywood result=… after=… as hw %}`` gives ``table.present.columns_view`` of a game's
result: ``result``, or when it is not given, the scored game of the context's ``game`` (the
engine's cached result). With ``after`` (a Deal), the columns as they stood after that deal (the standing
stored with it) and the columns its hand went in. None for a game without columns.
``{{ numbers|columns_text }}`` says which columns a hand went in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import template

from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.results import GameResult, Standing
from scorekeeper.table import present
from scorekeeper.table.models import Deal, Game
from scorekeeper.table.scoring import engine

register = template.Library()


@register.simple_tag(takes_context=True)
def hollywood(context: template.Context, result: Any = "", after: Any = None) -> dict[str, Any] | None:
    """``result`` None: the game has no result (nothing shows); not given (""): the game's."""
    game = context.get("game")
    if result == "" and isinstance(game, Game) and (game.options or {}).get("hollywood"):
        try:
            result = engine.game_result(game)
        except RecordInvalid:
            return None
    if not isinstance(result, GameResult) or not result.columns:
        return None
    if isinstance(after, Deal):
        standing = Standing.from_json(after.standing) if after.standing else None
        return present.columns_view(result, number=after.number, standing=standing)
    return present.columns_view(result)


@register.filter
def columns_text(numbers: Sequence[int] | None) -> str:
    return present.columns_text(numbers or ())
