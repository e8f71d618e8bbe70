"""The games list and the players list of the tables this phone is at."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, QuerySet
from django.utils.translation import gettext, ngettext

from scorekeeper.table.models import Deal, Game, GameKind, GameState, Player, Seat, Table, name_key
from scorekeeper.table.pages import url_by_id
from scorekeeper.table.text import number_text, profile_title

# What a row of the games list reads of a game (``rows``).
LISTED = ("pk", "kind", "profile", "created", "state", "winner")


def games_list(*, tables: QuerySet[Table], player: str = "", kind: str = "", state: str = "") -> QuerySet[Game]:
    """The tables' games newest first, optionally only a player's (by name, any case), a game's, a state's."""
    qs = Game.objects.of_tables(tables).order_by("-created", "-id")
    if player.strip():
        qs = qs.filter(seats__player__key=name_key(player))
    if kind in GameKind.values:
        qs = qs.filter(kind=kind)
    if state in GameState.values:
        qs = qs.filter(state=state)
    return qs


def rows(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A list page's games (their ``LISTED`` values) as the list prints them: each player's current
    total (the final tally once it ended), how many deals, who won, when it started (``at``: the
    page writes it in the phone's zone, ``templatetags/when.py``). Two queries,
    whatever the page's size; no model is made. Made per request: nothing here is cached."""
    ids = [g["pk"] for g in games]
    players = _players(ids)
    deals = dict(Deal.objects.filter(game_id__in=ids).order_by().values_list("game_id").annotate(n=Count("id")))
    href = url_by_id("history:review")
    kinds = dict(GameKind.choices)
    return [_row(g, players[g["pk"]], deals.get(g["pk"], 0), href(g["pk"]), kinds) for g in games]


def _players(ids: list[int]) -> dict[int, list[tuple[str, int]]]:
    """Each game's players in seat order, each with the total (the final tally once it ended)."""
    seats: dict[int, list[tuple[int, str, int]]] = {pk: [] for pk in ids}
    for gid, position, name, total, final in (
        Seat.objects.filter(game_id__in=ids)
        .order_by()
        .values_list("game_id", "position", "player__name", "total", "final")
    ):
        seats[gid].append((position, name, final if final is not None else total))
    return {pk: [(name, value) for _, name, value in sorted(rows)] for pk, rows in seats.items()}


def _row(g: dict[str, Any], players: list[tuple[str, int]], n: int, href: str, kinds: dict[str, str]) -> dict[str, Any]:
    """One game of the list (``rows``): its players with their totals, ``n`` deals."""
    names = [name for name, _ in players]
    winner = names[g["winner"]] if g["winner"] is not None and g["winner"] < len(names) else ""
    return {
        "pk": g["pk"],
        "href": href,
        "title": f"{kinds.get(g['kind'], g['kind'])} #{g['pk']}",
        "players": ", ".join(f"{name} {number_text(value)}" for name, value in players),
        "profile": profile_title(g["kind"], g["profile"]),
        "deals": ngettext("{n} deal", "{n} deals", n).format(n=n),
        "status": gettext("won by {winner}").format(winner=winner)
        if g["state"] == GameState.FINISHED
        else gettext("in progress"),
        "at": g["created"],
    }


def players_list(tables: QuerySet[Table]) -> QuerySet[Player]:
    return Player.objects.filter(table__in=tables).annotate(games=Count("seats")).order_by("key")


def player_names(tables: QuerySet[Table]) -> list[str]:
    """The tables' players' names (for a name field's suggestions), without counting their games."""
    return list(Player.objects.filter(table__in=tables).order_by("key").values_list("name", flat=True))
