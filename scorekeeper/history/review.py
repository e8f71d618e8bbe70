"""A game's review: every deal with its cards and score lines, the totals table and the chart."""

from __future__ import annotations

from typing import Any

from django.db.models import Count

from scorekeeper.history.charts import running_totals_svg
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.table import engine, present
from scorekeeper.table.models import Game


def review(game: Game) -> dict[str, Any]:
    """Everything the review page shows. Queries: the deals (2) and the change counts (1)."""
    names = game.player_names()
    rules, rule_errors = engine.rules_of(game)
    changes = dict(game.changes.exclude(deal_id=None).values_list("deal_id").annotate(n=Count("id")).order_by())
    base: dict[str, Any] = {"game": game, "names": names, "rules": rules, "changes": changes}
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
    stored = list(game.deals.order_by("number").values_list("pk", "cards"))
    deals = []
    for (deal_id, cards), d in zip(stored, result.deals, strict=False):
        view = present.deal_view(game, result, d.number, cards)
        assert view is not None
        view["id"] = deal_id
        view["changes"] = changes.get(deal_id, 0)
        deals.append(view)
    chart = running_totals_svg(
        names,
        [d.totals for d in result.deals],
        target=rules.target,
        title=f"Running totals, game #{game.pk}",
        penalty=rules.penalty,
        chart_id=f"chart-{game.pk}",
    )
    return {
        **base,
        "result": result,
        "deals": deals,
        "chart": chart,
        "errors": rule_errors,
        "final": present.final_table(result, names, rules.penalty),
        "penalty": rules.penalty,
        "side": [result.side.get(n, 0) for n in names] if any(result.side.values()) else None,
    }
