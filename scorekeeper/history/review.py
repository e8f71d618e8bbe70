"""A game's review: its deals with their cards and score lines, a page of ``PER_PAGE`` deals at a
time, the running totals (chart and table) and the final tally.

A page costs its own deals, however long the game: each deal of the page is played from the standing
stored with the deal before it (``engine.played_deals``), the chart reads the running totals the
writes store (one small list per deal), and where the game stands (totals, winner, final tally,
Hollywood's columns) comes from the standing stored with its last deal (``engine.concluded``). The
heavy part of the page is a fragment cached by the game's version and the page
(``present.version_key``); inside it each deal is a fragment of its own, cached by a digest of all
that decides its result: after a save the page renders the changed deals alone. A game whose stored
results cannot be used (another version of the engine) is scored whole (``engine.reviewed``), and
any error is shown. The fragments hold words, so the template keys them by the page's language too
(``LANGUAGE_CODE``); they hold no time of day, so not by the phone's zone."""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cached_property
from typing import Any

from django.db.models import Count
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from scorekeeper.history.charts import running_totals_svg, sampled
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.profiles import Rules
from scorekeeper.rules.results import DealResult, GameResult
from scorekeeper.table import present
from scorekeeper.table.models import Game
from scorekeeper.table.scoring import engine

PER_PAGE = 10  # deals on a page of the review
CHART_POINTS = 60  # the most deals the chart is drawn at (a longer game: every k-th and the last)
PAGE_LINKS = 2  # the pager links the pages this near the page shown, and the first and the last


def page_number(text: str | None, pages: int) -> int:
    """The page a request asks for (``?page=``), within 1..pages; the first when it names none."""
    number = int(text) if text and text.isascii() and text.isdigit() and len(text) < 9 else 1
    return min(max(1, number), pages)


def review(game: Game, page: str | None = None) -> dict[str, Any]:
    """Everything a page of the review shows. Queries: the last deal; when the cached fragment
    misses, the page's deals with the one before (1), their change counts (1), every deal's
    running totals for the chart (1)."""
    names = game.player_names()
    rules, rule_errors = engine.rules_of(game)
    count, standing = game.deals.order_by("-number").values_list("number", "standing").first() or (0, None)
    pages = max(1, math.ceil(count / PER_PAGE))
    number = page_number(page, pages)
    first, last = (number - 1) * PER_PAGE + 1, min(count, number * PER_PAGE)
    base: dict[str, Any] = {
        "game": game,
        "names": names,
        "rules": rules,
        "version_key": f"{present.version_key(game)}.p{number}",
        "pager": _pager(number, pages, count),
        "count": count,
    }
    try:
        whole, page_deals, digests = _page_deals(game, first, last, count, standing)
    except RecordInvalid as exc:
        refused = present.Refused(exc.errors)
        return {**base, **_refused(game, rules, refused, first, last, count), "errors": refused.lines() + rule_errors}
    result = whole if whole is not None else engine.concluded(game, standing)
    hollywood = bool(result is not None and result.columns)
    return {
        **base,
        "result": result,
        "deals": SimpleLazyObject(
            lambda: _deals(game, names, page_deals, digests, base["version_key"], count, hollywood)
        ),
        "chart": SimpleLazyObject(lambda: _chart(game, names, rules, whole, count)) if count else None,
        "errors": rule_errors,
        "final": present.final_table(result, names, rules.penalty),
        "penalty": rules.penalty,
        "side": _side(result, names),
    }


def _page_deals(
    game: Game, first: int, last: int, count: int, standing: Mapping[str, Any] | None
) -> tuple[GameResult | None, list[DealResult], list[str] | None]:
    """Deals ``first`` to ``last`` with their digests, each played from the standing stored with the
    deal before it: (None, deals, digests). Where the stored results cannot be used, the game scored
    whole (raises RecordInvalid) and its deals, without digests: (the game, deals, None)."""
    played = engine.played_deals(game, first, last) if count else ([], [])
    if played is not None and (not count or standing):
        page_deals, digests = played
        return None, page_deals, digests
    whole, _ = engine.reviewed(game)
    return whole, list(whole.deals[first - 1 : last]), None


def _refused(game: Game, rules: Rules, refused: present.Refused, first: int, last: int, count: int) -> dict[str, Any]:
    """A page of a game today's rules refuse: its deals as an earlier version stored them
    (``stored``), each with its refusal, and the running totals stored then (no chart when no
    deal holds any: a game of the release before results were stored)."""
    names = game.player_names()
    page = game.deals.filter(number__gte=first, number__lte=last).order_by("number")
    scored = game.deals.exclude(outcome="").exists()
    return {
        "deals": [],
        "stored": present.stored_rows(game, page, refused),
        "chart": _chart(game, names, rules, None, count) if scored else None,
    }


def _side(result: GameResult | None, names: list[str]) -> list[int] | None:
    """Each player's side points (Oklahoma's concealed bonuses, kept outside the race), in seat
    order; None when nobody has any."""
    if result and any(result.side.values()):
        return [result.side.get(n, 0) for n in names]
    return None


def _pager(number: int, pages: int, count: int) -> dict[str, Any] | None:
    """The links to the other pages of a game of more than one page: each page's deals."""
    if pages < 2:
        return None
    near = {1, pages, *range(max(1, number - PAGE_LINKS), min(pages, number + PAGE_LINKS) + 1)}
    links: list[dict[str, Any]] = []
    for p in sorted(near):
        if links and p > links[-1]["page"] + 1:
            links.append({"page": None})  # a gap: "…"
        links.append(
            {"page": p, "first": (p - 1) * PER_PAGE + 1, "last": min(count, p * PER_PAGE), "current": p == number}
        )
    return {
        "links": links,
        "previous": number - 1 if number > 1 else None,
        "next": number + 1 if number < pages else None,
        "first": (number - 1) * PER_PAGE + 1,
        "last": min(count, number * PER_PAGE),
    }


class DealView:
    """One deal of the page (``present.played_view`` with its id and how many changes it had),
    made when the template first reads more than its number, id, key, totals or columns: a deal
    whose fragment is cached (by ``key``) costs nothing more."""

    def __init__(
        self, deal: DealResult, names: list[str], deal_id: int, cards: Any, changes: int, key: str, last: bool
    ):
        self.deal, self.names, self.cards, self.last = deal, names, cards, last
        self.hollywood = False
        self.eager: dict[str, Any] = {"number": deal.number, "id": deal_id, "changes": changes, "key": key}

    @cached_property
    def view(self) -> dict[str, Any]:
        return {**present.played_view(self.deal, self.names, self.cards, last=self.last), **self.eager}

    def __getitem__(self, name: str) -> Any:
        if name in self.eager:
            return self.eager[name]
        if name == "totals":
            return [self.deal.totals.get(n, 0) for n in self.names]
        if name == "entered":  # Hollywood: the columns its hand went in (None: a game without)
            return self.deal.columns if self.hollywood else None
        return self.view[name]


def _deals(
    game: Game,
    names: list[str],
    deals: list[DealResult],
    digests: list[str] | None,
    version_key: str,
    count: int,
    hollywood: bool,
) -> list[DealView]:
    if not deals:
        return []
    stored = list(
        game.deals.filter(number__gte=deals[0].number, number__lte=deals[-1].number)
        .order_by("number")
        .values_list("pk", "number", "cards")
    )
    ids = [pk for pk, _, _ in stored]
    changes = dict(game.changes.filter(deal_id__in=ids).values_list("deal_id").annotate(n=Count("id")).order_by())
    out = []
    for i, (deal, (deal_id, number, cards)) in enumerate(zip(deals, stored, strict=True)):
        n = changes.get(deal_id, 0)
        # A deal's fragment shows its result (the digest), its links (the game, the deal) and its changes.
        key = (
            f"{present.FRAGMENTS}.{digests[i]}.{game.pk}.{deal_id}.{n}"
            if digests is not None
            else f"{version_key}.{number}.{deal_id}.{n}"
        )
        view = DealView(deal, names, deal_id, cards, n, key, last=number == count)
        view.hollywood = hollywood
        out.append(view)
    return out


def _chart(game: Game, names: list[str], rules: Rules, whole: GameResult | None, count: int) -> SafeString:
    """The running totals (those the writes store, a list in seat order per deal, or the scored
    game's) at the deals the chart is drawn at (``charts.sampled``: a fixed number at most)."""
    numbers = sampled(count, CHART_POINTS)
    if whole is not None:
        totals = [dict(whole.deals[n - 1].totals) for n in numbers]
    else:
        rows = game.deals.filter(number__in=numbers).order_by("number").values_list("totals", flat=True)
        totals = [dict(zip(names, t or (), strict=False)) for t in rows]
    return running_totals_svg(
        names,
        totals,
        numbers=numbers,
        target=rules.target,
        title=gettext("Running totals, game #{n}").format(n=game.pk),
        penalty=rules.penalty,
        chart_id=f"chart-{game.pk}",
    )
