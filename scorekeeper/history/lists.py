"""The games list and the players list of the tables this phone is at."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Prefetch, QuerySet

from scorekeeper.table.models import Game, GameKind, GameState, Player, Seat, Table, name_key


def games_list(*, tables: QuerySet[Table], player: str = "", kind: str = "", state: str = "") -> QuerySet[Game]:
    """The tables' games newest first, optionally only a player's (by name, any case), a game's, a
    state's; with their seats and players (two queries for a page, whatever the history)."""
    seats = Seat.objects.select_related("player").order_by("position")
    qs = Game.objects.of_tables(tables).order_by("-created", "-id").prefetch_related(Prefetch("seats", seats))
    if player.strip():
        qs = qs.filter(seats__player__key=name_key(player))
    if kind in GameKind.values:
        qs = qs.filter(kind=kind)
    if state in GameState.values:
        qs = qs.filter(state=state)
    return qs


def rows(games: list[Game]) -> list[dict[str, Any]]:
    """A list page's games with each player's current total (the final tally once it ended)."""
    deals = dict(Game.objects.filter(pk__in=[g.pk for g in games]).annotate(n=Count("deals")).values_list("pk", "n"))
    return [
        {
            "game": g,
            "players": [(s.player.name, s.final if s.final is not None else s.total) for s in g.seated()],
            "deals": deals.get(g.pk, 0),
            "winner": g.winner_name(),
        }
        for g in games
    ]


def players_list(tables: QuerySet[Table]) -> QuerySet[Player]:
    return Player.objects.filter(table__in=tables).annotate(games=Count("seats")).order_by("key")


def player_names(tables: QuerySet[Table]) -> list[str]:
    """The tables' players' names (for a name field's suggestions), without counting their games."""
    return list(Player.objects.filter(table__in=tables).order_by("key").values_list("name", flat=True))
