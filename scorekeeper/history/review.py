"""A game's review: every deal with its cards and score lines, the totals table and the chart.

The heavy part of the page (chart, totals table, final tally, every deal) is a fragment cached by
the game's version (``present.version_key``), so its parts here are read only when the template
renders that fragment: a warm page costs the game's result from the per-process cache and nothing
per deal. On a miss the result is rebuilt deal by deal from the stored standings
(``engine.game_result``): a save re-plays only the deals it changed."""

from __future__ import annotations

from typing import Any

from django.db.models import Count
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString

from scorekeeper.history.charts import running_totals_svg
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.profiles import Rules
from scorekeeper.rules.results import GameResult
from scorekeeper.table import engine, present
from scorekeeper.table.models import Game


def review(game: Game) -> dict[str, Any]:
    """Everything the review page shows. Queries: the game's version (the result cache's key);
    when the cached fragment misses, the deals (1) and the change counts (1)."""
    names = game.player_names()
    rules, rule_errors = engine.rules_of(game)
    base: dict[str, Any] = {"game": game, "names": names, "rules": rules, "version_key": present.version_key(game)}
    try:
        result = engine.game_result(game)
    except RecordInvalid as exc:
        return {
            **base,
            "errors": [str(e) for e in exc.errors] + rule_errors,
            "deals": [],
            "chart": None,
            "result": None,
        }
    return {
        **base,
        "result": result,
        "deals": SimpleLazyObject(lambda: _deals(game, result)),
        "chart": SimpleLazyObject(lambda: _chart(game, names, rules, result)),
        "errors": rule_errors,
        "final": present.final_table(result, names, rules.penalty),
        "penalty": rules.penalty,
        "side": [result.side.get(n, 0) for n in names] if any(result.side.values()) else None,
    }


def _deals(game: Game, result: GameResult) -> list[dict[str, Any]]:
    changes = dict(game.changes.exclude(deal_id=None).values_list("deal_id").annotate(n=Count("id")).order_by())
    stored = list(game.deals.order_by("number").values_list("pk", "cards"))
    deals = []
    for (deal_id, cards), d in zip(stored, result.deals, strict=False):
        view = present.deal_view(game, result, d.number, cards)
        assert view is not None
        view["id"] = deal_id
        view["changes"] = changes.get(deal_id, 0)
        deals.append(view)
    return deals


def _chart(game: Game, names: list[str], rules: Rules, result: GameResult) -> SafeString:
    return running_totals_svg(
        names,
        [d.totals for d in result.deals],
        target=rules.target,
        title=f"Running totals, game #{game.pk}",
        penalty=rules.penalty,
        chart_id=f"chart-{game.pk}",
    )
