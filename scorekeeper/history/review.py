"""A game's review: every deal with its cards and score lines, the totals table and the chart.

The heavy part of the page (chart, totals table, final tally, every deal) is a fragment cached by
the game's version (``present.version_key``), so its parts here are read only when the template
renders that fragment: a warm page costs the game's result from the per-process cache and nothing
per deal. Inside it each deal is a fragment of its own, cached by a digest of all that decides its
result (``engine.reviewed``): after a save the page renders the changed deals alone. On a miss the
game's result is rebuilt deal by deal from the stored standings: a save re-plays only the deals it
changed. Both fragments hold words, so the template keys them by the page's language too
(``LANGUAGE_CODE``); they hold no time of day, so not by the phone's zone."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django.db.models import Count
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString
from django.utils.translation import gettext

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
    version_key = present.version_key(game)
    base: dict[str, Any] = {"game": game, "names": names, "rules": rules, "version_key": version_key}
    try:
        result, digests = engine.reviewed(game)
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
        "deals": SimpleLazyObject(lambda: _deals(game, result, digests, version_key)),
        "chart": SimpleLazyObject(lambda: _chart(game, names, rules, result)),
        "errors": rule_errors,
        "final": present.final_table(result, names, rules.penalty),
        "penalty": rules.penalty,
        "side": [result.side.get(n, 0) for n in names] if any(result.side.values()) else None,
    }


class DealView:
    """One deal of the review (``present.deal_view`` with its id and how many changes it had),
    made when the template first reads more than its number, id, key or totals: a deal whose
    fragment is cached (by ``key``) costs nothing more."""

    def __init__(self, game: Game, result: GameResult, number: int, deal_id: int, cards: Any, changes: int, key: str):
        self.game, self.result, self.cards, self.number = game, result, cards, number
        self.eager: dict[str, Any] = {"number": number, "id": deal_id, "changes": changes, "key": key}

    @cached_property
    def view(self) -> dict[str, Any]:
        view = present.deal_view(self.game, self.result, self.number, self.cards)
        assert view is not None
        return {**view, **self.eager}

    def __getitem__(self, name: str) -> Any:
        if name in self.eager:
            return self.eager[name]
        if name == "totals":
            deal = self.result.deals[self.number - 1]
            return [deal.totals.get(n, 0) for n in self.result.players]
        return self.view[name]


def _deals(game: Game, result: GameResult, digests: list[str] | None, version_key: str) -> list[DealView]:
    changes = dict(game.changes.exclude(deal_id=None).values_list("deal_id").annotate(n=Count("id")).order_by())
    stored = list(game.deals.order_by("number").values_list("pk", "number", "cards"))
    deals = []
    for deal_id, number, cards in stored[: len(result.deals)]:
        n = changes.get(deal_id, 0)
        # A deal's fragment shows its result (the digest), its links (the game, the deal) and its changes.
        key = (
            f"{present.FRAGMENTS}.{digests[number - 1]}.{game.pk}.{deal_id}.{n}"
            if digests is not None
            else f"{version_key}.{number}.{deal_id}.{n}"
        )
        deals.append(DealView(game, result, number, deal_id, cards, n, key))
    return deals


def _chart(game: Game, names: list[str], rules: Rules, result: GameResult) -> SafeString:
    return running_totals_svg(
        names,
        [d.totals for d in result.deals],
        target=rules.target,
        title=gettext("Running totals, game #{n}").format(n=game.pk),
        penalty=rules.penalty,
        chart_id=f"chart-{game.pk}",
    )
