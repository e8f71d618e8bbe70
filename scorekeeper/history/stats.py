"""A player's page: games played and won, average points per deal, times out or gin, undercuts
given and suffered, best and worst deal, head-to-head — from the per-seat figures the writes keep
(``table.models.Seat``), summed by the database: the page costs a fixed number of queries, and
rows only for its few groups, whatever the history."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, F, Max, Min, Q, Sum

from scorekeeper.history.lists import LISTED, rows
from scorekeeper.rules import profiles
from scorekeeper.table import present
from scorekeeper.table.engine import rules_of
from scorekeeper.table.models import Deal, Game, GameState, Player, Seat

GAMES_SHOWN = 50  # the newest games listed on the page (the games list has them all)


@dataclass
class GameKindStats:
    game: str
    name: Any  # the game's name, a message (rendered in the request's language)
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


def _sign(kind: str, profile: str, options: Any) -> int:
    """-1 where penalty points are scored (lower is better), else 1: by the game's rules (``rules_of``
    caches them by the same key)."""
    game = Game(kind=kind, profile=profile, options=options if isinstance(options, dict) else {})
    return -1 if rules_of(game)[0].penalty else 1


def player_stats(player: Player) -> PlayerStats:
    """Points are what a deal added to the player's total; in penalty-scored games (party) a deal's
    penalty points count as negative for the average, best and worst (lower is better there).
    Queries: the player's figures summed by rule set (1), the best and worst deals (one for each
    game and best or worst: at most 4), head to head (2), the newest games with their players and
    deals (3). Head to head's names tell whether the table has another player (the merge form)."""
    seats = Seat.objects.filter(player=player)
    kinds = {g: GameKindStats(g, profiles.GAME_NAME_MESSAGES[g]) for g in profiles.GAMES}
    stats = PlayerStats(player)
    best: dict[str, int] = {}  # by kind: the best value (points, signed)
    worst: dict[str, int] = {}
    for g in _figures_by_rules(seats):
        if g["game__kind"] in kinds:
            _add_figures(stats, kinds[g["game__kind"]], g, best, worst)
    _best_and_worst(seats, kinds, best, worst)
    stats.kinds = [k for k in kinds.values() if k.games]
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


def _figures_by_rules(seats: Any) -> Any:
    """The seats' figures summed by the database for each rule set (one query)."""
    return (
        seats.values("game__kind", "game__profile", "game__options")
        .annotate(
            n_games=Count("id"),
            n_won=Count("id", filter=Q(won=True)),
            n_finished=Count("id", filter=Q(game__state=GameState.FINISHED)),
            n_deals=Sum("deals"),
            n_points=Sum("points"),
            n_outs=Sum("outs"),
            n_knocks=Sum("knocks"),
            n_given=Sum("undercuts_given"),
            n_suffered=Sum("undercuts_suffered"),
            best_max=Max("best_points"),
            best_min=Min("best_points"),
            worst_max=Max("worst_points"),
            worst_min=Min("worst_points"),
        )
        .order_by()
    )


def _add_figures(
    stats: PlayerStats, k: GameKindStats, g: dict[str, Any], best: dict[str, int], worst: dict[str, int]
) -> None:
    """Add one rule set's sums to its game's figures; its best and worst deal values, signed by the
    rules (penalty points: lower is better), to ``best`` and ``worst``."""
    kind = k.game
    k.games += g["n_games"]
    k.won += g["n_won"]
    k.finished += g["n_finished"]
    k.deals += g["n_deals"] or 0
    k.points += g["n_points"] or 0
    k.out += g["n_outs"] or 0
    k.knocks += g["n_knocks"] or 0
    k.undercuts_given += g["n_given"] or 0
    k.undercuts_suffered += g["n_suffered"] or 0
    stats.played += g["n_games"]
    stats.won += g["n_won"]
    sign = _sign(kind, g["game__profile"], g["game__options"])
    high = g["best_max"] if sign > 0 else g["best_min"]
    if high is not None and (kind not in best or sign * high > best[kind]):
        best[kind] = sign * high
    low = g["worst_min"] if sign > 0 else g["worst_max"]
    if low is not None and (kind not in worst or sign * low < worst[kind]):
        worst[kind] = sign * low


def _best_and_worst(seats: Any, kinds: dict[str, GameKindStats], best: dict[str, int], worst: dict[str, int]) -> None:
    """The deals that hold each kind's best and worst value: the newest game's where several do.
    One query for each kind and best or worst (the database sorts the seats holding the value: a
    common value, such as a Gin hand's 0, may be held in thousands of games), one for the outcomes."""
    found = []
    for which, values, points, deal in (
        ("best", best, "best_points", "best_deal"),
        ("worst", worst, "worst_points", "worst_deal"),
    ):
        for kind, value in values.items():
            rows = (
                seats.filter(**{"game__kind": kind, f"{points}__in": {value, -value}})
                .order_by("-game__created", "-game__id")
                .values_list("game_id", "game__profile", "game__options", points, deal)
            )
            hit = None
            for limit in (20, None):  # the first few hold it, unless the value's sign is another rule set's
                hit = next((r for r in rows[:limit] if _sign(kind, r[1], r[2]) * r[3] == value), None)
                if hit is not None:
                    break
            if hit is not None:
                found.append((kind, which, {"game": hit[0], "deal": hit[4], "points": hit[3], "value": value}))
    wanted = Q()
    for _, _, f in found:
        wanted |= Q(game_id=f["game"], number=f["deal"])
    outcomes = (
        {(g, n): o for g, n, o in Deal.objects.filter(wanted).values_list("game_id", "number", "outcome")}
        if found
        else {}
    )
    for kind, which, f in found:
        f["outcome"] = outcomes.get((f["game"], f["deal"]), "")
        f["outcome_text"] = present.outcome_text(f["outcome"])
        setattr(kinds[kind], which, f)


def _head_to_head(player: Player) -> tuple[list[dict[str, Any]], bool]:
    """Each player met at the table: games together, won by this player, won by that one (the
    seat that won a game is the game's winner's), the others of those that ended; and whether the
    table has another player (someone to merge into)."""
    rows = list(
        Seat.objects.filter(player=player)
        .values(other=F("game__seats__player_id"))
        .exclude(**{"other": player.pk})  # the player himself (an alias: keyword by name)
        .annotate(
            n_games=Count("game_id"),
            n_won=Count("game_id", filter=Q(won=True)),
            n_lost=Count("game_id", filter=Q(game__seats__won=True)),  # the other seat won the game
            n_finished=Count("game_id", filter=Q(game__state=GameState.FINISHED)),
        )
        .order_by()
    )
    names = dict(Player.objects.filter(table_id=player.table_id).values_list("pk", "name"))
    out = [
        {
            "name": names.get(r["other"], ""),
            "player": Player(pk=r["other"], name=names.get(r["other"], ""), table_id=player.table_id),
            "games": r["n_games"],
            "won": r["n_won"],
            "lost": r["n_lost"],
            "other": r["n_finished"] - r["n_won"] - r["n_lost"],
        }
        for r in rows
        if r["other"] is not None
    ]
    return sorted(out, key=lambda r: (-r["games"], r["name"].casefold())), len(names) > 1
