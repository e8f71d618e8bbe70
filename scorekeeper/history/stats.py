"""A player's page: games played and won, average points per deal, times out or gin, undercuts
given and suffered, best and worst deal, head-to-head — from the per-seat figures the writes keep
(``table.models.Seat``), so the page costs a fixed number of queries whatever the history."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.rules import profiles
from scorekeeper.table.engine import rules_of
from scorekeeper.table.models import Deal, Game, GameState, Player, Seat


@dataclass
class GameKindStats:
    game: str
    name: str
    games: int = 0
    won: int = 0
    finished: int = 0
    deals: int = 0
    points: int = 0
    out: int = 0  # Oklahoma: went out; Gin: gin or big gin
    knocks: int = 0
    undercuts_given: int = 0
    undercuts_suffered: int = 0
    best: dict[str, Any] | None = None
    worst: dict[str, Any] | None = None

    @property
    def average(self) -> float | None:
        return round(self.points / self.deals, 1) if self.deals else None


@dataclass
class PlayerStats:
    player: Player
    kinds: list[GameKindStats] = field(default_factory=list)
    opponents: list[dict[str, Any]] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)
    played: int = 0
    won: int = 0


_SIGN: dict[tuple[str, str, str], int] = {}


def _sign(game: Game) -> int:
    """-1 where penalty points are scored (lower is better), else 1."""
    key = (game.kind, game.profile, json.dumps(game.options, sort_keys=True))
    if key not in _SIGN:
        _SIGN[key] = -1 if rules_of(game)[0].penalty else 1
    return _SIGN[key]


def player_stats(player: Player) -> PlayerStats:
    """Points are what a deal added to the player's total; in penalty-scored games (party) a deal's
    penalty points count as negative for the average, best and worst (lower is better there)."""
    seats = list(Seat.objects.filter(player=player).select_related("game").order_by("-game__created", "-game__id"))
    games = [s.game for s in seats]
    kinds = {g: GameKindStats(g, profiles.GAME_NAMES[g]) for g in profiles.GAMES}
    stats = PlayerStats(player, games=games)
    best_of: dict[str, tuple[int, Seat]] = {}
    worst_of: dict[str, tuple[int, Seat]] = {}
    for seat in seats:
        g = seat.game
        k = kinds[g.kind]
        k.games += 1
        stats.played += 1
        finished = g.state == GameState.FINISHED
        k.finished += finished
        if seat.won:
            k.won += 1
            stats.won += 1
        k.deals += seat.deals
        k.points += seat.points
        k.out += seat.outs
        k.knocks += seat.knocks
        k.undercuts_given += seat.undercuts_given
        k.undercuts_suffered += seat.undercuts_suffered
        sign = _sign(g)
        if seat.best_points is not None and (g.kind not in best_of or sign * seat.best_points > best_of[g.kind][0]):
            best_of[g.kind] = (sign * seat.best_points, seat)
        if seat.worst_points is not None and (g.kind not in worst_of or sign * seat.worst_points < worst_of[g.kind][0]):
            worst_of[g.kind] = (sign * seat.worst_points, seat)
    wanted = [(s.game_id, s.best_deal) for _, s in best_of.values()] + [
        (s.game_id, s.worst_deal) for _, s in worst_of.values()
    ]
    outcomes: dict[tuple[int, int | None], str] = {
        (gid, n): o
        for gid, n, o in Deal.objects.filter(game_id__in=[g for g, _ in wanted]).values_list(
            "game_id", "number", "outcome"
        )
        if (gid, n) in wanted
    }
    for kind, (value, s) in best_of.items():
        kinds[kind].best = {
            "game": s.game_id,
            "deal": s.best_deal,
            "points": s.best_points,
            "value": value,
            "outcome": outcomes.get((s.game_id, s.best_deal), ""),
        }
    for kind, (value, s) in worst_of.items():
        kinds[kind].worst = {
            "game": s.game_id,
            "deal": s.worst_deal,
            "points": s.worst_points,
            "value": value,
            "outcome": outcomes.get((s.game_id, s.worst_deal), ""),
        }
    stats.kinds = [k for k in kinds.values() if k.games]
    stats.opponents = _head_to_head(player, {s.game_id: s for s in seats})
    return stats


def _head_to_head(player: Player, mine: dict[int, Seat]) -> list[dict[str, Any]]:
    rows: dict[int, dict[str, Any]] = {}
    others = Seat.objects.filter(game_id__in=list(mine)).exclude(player=player).select_related("player")
    for other in others:
        me = mine[other.game_id]
        row = rows.setdefault(
            other.player_id,
            {"name": other.player.name, "player": other.player, "games": 0, "won": 0, "lost": 0, "other": 0},
        )
        row["games"] += 1
        if me.game.state == GameState.FINISHED:
            if me.won:
                row["won"] += 1
            elif other.position == me.game.winner:
                row["lost"] += 1
            else:
                row["other"] += 1
    return sorted(rows.values(), key=lambda r: (-r["games"], r["name"].casefold()))
