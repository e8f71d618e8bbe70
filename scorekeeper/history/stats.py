"""A player's page: games played and won, average points per deal, times out or gin, undercuts
given and suffered, best and worst deal, head-to-head — read from the figures the writes keep
(``table.models.PlayerFigures`` and ``HeadToHead``, ``table.figures``) and, for the best and worst
deals, from the first entry of the seats' indexes: a fixed number of queries, each reading a few
rows, whatever the history (issue 23)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from scorekeeper.history.lists import LISTED, rows
from scorekeeper.rules import games, profiles
from scorekeeper.table import text
from scorekeeper.table.models import Deal, Game, HeadToHead, Player, PlayerFigures, Seat

GAMES_SHOWN = 50  # the newest games listed on the page (the games list has them all)


@dataclass
class GameKindStats:
    game: str
    name: Any  # the game's name, a message (rendered in the request's language)
    knocks_counted: bool  # the game's hands end by a knock (``rules.games.Game.knocks``)
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
    games: list[dict[str, Any]] = field(default_factory=list)  # the newest GAMES_SHOWN (``lists.rows``)
    played: int = 0
    won: int = 0
    others: bool = False  # the table has another player


def player_stats(player: Player) -> PlayerStats:
    """Points are what a deal added to the player's total; in penalty-scored games (party) a deal's
    penalty points count as negative for the average, best and worst (lower is better there).
    Queries: the player's figures (1), the best and worst deals (one for each game and best or
    worst: at most 4) with their outcomes (1), head to head (2), the newest games with their
    players and deals (3). Head to head's names tell whether the table has another player (the
    merge form)."""
    kinds = {g: GameKindStats(g, profiles.GAME_NAME_MESSAGES[g], games.game(g).knocks) for g in profiles.GAMES}
    stats = PlayerStats(player)
    for f in PlayerFigures.objects.filter(player=player, games__gt=0):
        if f.kind in kinds:
            _add_figures(stats, kinds[f.kind], f)
    stats.kinds = [k for k in kinds.values() if k.games]
    _best_and_worst(player, stats.kinds)
    stats.opponents, stats.others = _head_to_head(player)
    # The table's games newest first, those with the player: the database walks the games' index
    # by date and stops at the 50th (the player's seats alone would all be read and sorted).
    newest = (
        Game.objects.filter(table_id=player.table_id, seats__player=player)
        .order_by("-created", "-id")
        .values(*LISTED)[:GAMES_SHOWN]
    )
    stats.games = rows(list(newest))
    return stats


def _add_figures(stats: PlayerStats, k: GameKindStats, f: PlayerFigures) -> None:
    """A game's figures (its stored row) on the page."""
    k.games, k.won, k.finished, k.deals, k.points = f.games, f.won, f.finished, f.deals, f.points
    k.out, k.knocks, k.undercuts_given, k.undercuts_suffered = f.outs, f.knocks, f.undercuts_given, f.undercuts_suffered
    stats.played += f.games
    stats.won += f.won


def _best_and_worst(player: Player, kinds: list[GameKindStats]) -> None:
    """Each game's best and worst deal: the first entry of the seats' index by player, game, value
    (signed: penalty points count negative) and game, the latest game first where several hold the
    value (a common value, such as a Gin hand's 0, may be held in thousands). One query for each
    game and best or worst, one for the outcomes."""
    found = []
    for k in kinds:
        seats = Seat.objects.filter(player=player, kind=k.game)
        for which, value, points, deal, order in (
            ("best", "best_value", "best_points", "best_deal", "-best_value"),
            ("worst", "worst_value", "worst_points", "worst_deal", "worst_value"),
        ):
            hit = (
                seats.filter(**{f"{value}__isnull": False})
                .order_by(order, "-game_id")
                .values_list("game_id", deal, points, value)
                .first()
            )
            if hit is not None:
                found.append((k, which, {"game": hit[0], "deal": hit[1], "points": hit[2], "value": hit[3]}))
    wanted = Q()
    for _, _, f in found:
        wanted |= Q(game_id=f["game"], number=f["deal"])
    outcomes = (
        {(g, n): o for g, n, o in Deal.objects.filter(wanted).order_by().values_list("game_id", "number", "outcome")}
        if found
        else {}
    )
    for k, which, f in found:
        f["outcome"] = outcomes.get((f["game"], f["deal"]), "")
        f["outcome_text"] = text.outcome_text(f["outcome"])
        setattr(k, which, f)


def _head_to_head(player: Player) -> tuple[list[dict[str, Any]], bool]:
    """Each player met at the table: games together, won by this player, won by that one, the
    others of those that ended; and whether the table has another player (someone to merge into)."""
    met = HeadToHead.objects.filter(player=player, games__gt=0).values_list(
        "other_id", "games", "won", "lost", "finished"
    )
    names = dict(Player.objects.filter(table_id=player.table_id).values_list("pk", "name"))
    out = [
        {
            "name": names.get(other, ""),
            "player": Player(pk=other, name=names.get(other, ""), table_id=player.table_id),
            "games": games,
            "won": won,
            "lost": lost,
            "other": finished - won - lost,
        }
        for other, games, won, lost, finished in met
    ]
    return sorted(out, key=lambda r: (-r["games"], r["name"].casefold())), len(names) > 1
