"""The players' figures the player page reads (``PlayerFigures``: by player and game, the sums of
his seats' figures; ``HeadToHead``: by two players, their games together), kept by the writes.

A write that changes what a game adds to its players' figures — its seats' figures, its state,
the game itself — adds the difference: a ``Tally`` of what the game added before (``remove``) and
what it adds now (``add``), then ``write``, in the write's transaction. Each row changed is one
``UPDATE … SET n = n + d`` (``update()`` with ``F``): no write reads or sums the player's other
games, and the page reads a row for each game and opponent, whatever the history.

The calculation from scratch is the spec: tests/history/test_player_figures.py proves the rows
equal it after every kind of write (saving, editing, deleting and restoring a deal, a game's end,
a rules switch, the players' own hands, an import, a rename, a merge, a game deleted).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db.models import F, Q

from scorekeeper.table.models import HeadToHead, PlayerFigures, Seat

# What a seat adds to its player's figures, besides the game itself and whether it ended.
SEAT_SUMS = ("won", "deals", "points", "outs", "knocks", "undercuts_given", "undercuts_suffered")
# The sums of a ``PlayerFigures`` row and of a ``HeadToHead`` row, in the order a tally keeps them.
PLAYER_SUMS = ("games", "finished", *SEAT_SUMS)
PAIR_SUMS = ("games", "won", "lost", "finished")


def seat_values(seat: Seat) -> dict[str, Any]:
    """What a seat adds (``Tally.add``), as it stands."""
    return {"player_id": seat.player_id, **{name: getattr(seat, name) for name in SEAT_SUMS}}


class Tally:
    """What some games add to their players' figures (or take away), by row."""

    def __init__(self) -> None:
        self.players: dict[tuple[int, str], list[int]] = {}  # (player, kind): PLAYER_SUMS
        self.pairs: dict[tuple[int, int], list[int]] = {}  # (player, other): PAIR_SUMS

    def add(self, kind: str, finished: bool, seats: Sequence[Mapping[str, Any]], times: int = 1) -> None:
        """Add a game of ``kind`` with these seats (``seat_values``, or an import's rows of them)."""
        for seat in seats:
            mine = (1, finished, *(seat[name] for name in SEAT_SUMS))
            _add(self.players, (seat["player_id"], kind), mine, times)
            for other in seats:
                if other["player_id"] != seat["player_id"]:
                    pair = (1, seat["won"], other["won"], finished)
                    _add(self.pairs, (seat["player_id"], other["player_id"]), pair, times)

    def remove(self, kind: str, finished: bool, seats: Sequence[Mapping[str, Any]]) -> None:
        """Take away what a game of ``kind`` with these seats added."""
        self.add(kind, finished, seats, times=-1)

    def write(self) -> None:
        """Add the tally to the stored rows: a row a game adds its player to is made when there is
        none yet; only the rows that change are written, in the order of their keys (two writes at
        once, at games of the same players, lock their rows in the same order: no deadlock)."""
        players, pairs = _changed(self.players), _changed(self.pairs)
        made = [PlayerFigures(player_id=p, kind=k) for (p, k), sums in players.items() if sums[0] > 0]
        PlayerFigures.objects.bulk_create(made, ignore_conflicts=True)
        met = [HeadToHead(player_id=p, other_id=o) for (p, o), sums in pairs.items() if sums[0] > 0]
        HeadToHead.objects.bulk_create(met, ignore_conflicts=True)
        for (player, kind), sums in players.items():
            PlayerFigures.objects.filter(player_id=player, kind=kind).update(**_added(PLAYER_SUMS, sums))
        for (player, other), sums in pairs.items():
            HeadToHead.objects.filter(player_id=player, other_id=other).update(**_added(PAIR_SUMS, sums))

    def moved(self, ids: Mapping[int, int]) -> Tally:
        """The tally with each player ``ids`` maps counted as the player it maps him to (an
        import's players found at the table: ``history.imports``)."""
        out = Tally()
        for (player, kind), sums in self.players.items():
            _add(out.players, (ids.get(player, player), kind), sums, 1)
        for (player, other), sums in self.pairs.items():
            _add(out.pairs, (ids.get(player, player), ids.get(other, other)), sums, 1)
        return out


def merged(*, source: int, into: int) -> Tally:
    """What a merge of player ``source`` into player ``into`` adds: ``source``'s rows as ``into``'s,
    and the others' rows against ``source`` as against ``into`` (``source``'s own rows go with him;
    the two never played together: a merge is refused then)."""
    tally = Tally()
    for f in PlayerFigures.objects.filter(player_id=source):
        _add(tally.players, (into, f.kind), [getattr(f, name) for name in PLAYER_SUMS], 1)
    for h in HeadToHead.objects.filter(Q(player_id=source) | Q(other_id=source)):
        key = (into, h.other_id) if h.player_id == source else (h.player_id, into)
        _add(tally.pairs, key, [getattr(h, name) for name in PAIR_SUMS], 1)
    return tally


def _changed[K](rows: dict[K, list[int]]) -> dict[K, list[int]]:
    """The rows whose sums change, in the order of their keys."""
    return {key: sums for key, sums in sorted(rows.items()) if any(sums)}


def _added(names: Sequence[str], sums: Sequence[int]) -> dict[str, Any]:
    """``n = n + d`` for each sum that changes (what another transaction added meanwhile is kept)."""
    return {name: F(name) + d for name, d in zip(names, sums, strict=True) if d}


def _add(into: dict[Any, list[int]], key: Any, values: Sequence[Any], times: int) -> None:
    sums = into.get(key)
    if sums is None:
        sums = into[key] = [0] * len(values)
    for i, value in enumerate(values):
        sums[i] += times * int(value or 0)
