"""The games list and the players list of the tables this phone is at."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, QuerySet

from scorekeeper.table.models import Game, GameKind, GameState, Player, Table, name_key


def games_list(*, tables: QuerySet[Table], player: str = "", kind: str = "", state: str = "") -> QuerySet[Game]:
    """The tables' games newest first, optionally only a player's (by name, any case), a game's, a state's."""
    qs = Game.objects.of_tables(tables).listed()
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
