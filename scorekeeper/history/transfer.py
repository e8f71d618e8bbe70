"""Games out of the app and into it: game records (RECORD.md, JSON) and CSV."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from typing import Any

from scorekeeper.rules.errors import RecordError, RecordInvalid
from scorekeeper.rules.record import parse_json
from scorekeeper.table import engine
from scorekeeper.table.models import Deal, Game


def export_records(games: Iterable[Game]) -> list[dict[str, Any]]:
    """Games as records, oldest first, with a fixed number of queries."""
    games = list(
        Game.objects.filter(pk__in=[g.pk for g in games]).order_by("created", "id").prefetch_related("seats__player")
    )
    cards: dict[int, list[Any]] = {g.pk: [] for g in games}
    for gid, data in (
        Deal.objects.filter(game_id__in=list(cards)).order_by("game_id", "number").values_list("game_id", "cards")
    ):
        cards[gid].append(data)
    return [engine.game_record(g, cards[g.pk]) for g in games]


CSV_COLUMNS = (
    "game_id",
    "game",
    "profile",
    "options",
    "deal",
    "outcome",
    "player",
    "seat",
    "points",
    "total",
    "state",
    "winner",
)


def export_csv(games: Iterable[Game]) -> str:
    """One row per player per deal, with the deal's points and the running total after it."""
    games = list(
        Game.objects.filter(pk__in=[g.pk for g in games]).order_by("created", "id").prefetch_related("seats__player")
    )
    deals: dict[int, list[tuple[int, str, list[int], list[int]]]] = {g.pk: [] for g in games}
    for gid, number, outcome, points, totals in (
        Deal.objects.filter(game_id__in=list(deals))
        .order_by("game_id", "number")
        .values_list("game_id", "number", "outcome", "points", "totals")
    ):
        deals[gid].append((number, outcome, points, totals))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for g in games:
        names = g.player_names()
        opts = json.dumps(g.options or {}, sort_keys=True) if g.options else ""
        winner = _csv_safe(g.winner_name())
        for number, outcome, points, totals in deals[g.pk]:
            for seat, name in enumerate(names):
                w.writerow(
                    [
                        g.pk,
                        g.kind,
                        g.profile,
                        opts,
                        number,
                        outcome,
                        _csv_safe(name),
                        seat + 1,
                        points[seat] if seat < len(points) else 0,
                        totals[seat] if seat < len(totals) else 0,
                        g.state,
                        winner,
                    ]
                )
    return buf.getvalue()


def _csv_safe(text: str) -> str:
    """Keep a spreadsheet from reading a name as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def read_records(text: str | bytes) -> list[Any]:
    """A file holds one record (an object) or many (a list of objects)."""
    data = parse_json(text)
    if isinstance(data, list):
        if not data:
            raise RecordInvalid([RecordError("the file holds an empty list: no game to import", rule="format")])
        return data
    return [data]
