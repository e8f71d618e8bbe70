"""Storing a deal: play → store → tally → notify, in the write's transaction.

``rescore`` plays the game's deals from one deal on (from the standing stored before it); ``store``
writes what the engine made of them — each deal's result and the standing after it, the game's
state, each seat's figures, what the game adds to its players' figures (``figures.Tally``) — bumps
the game's version and tells the phones watching it (``live.signals``). ``log_change`` adds the
change to the game's append-only history. The deal writes (``scoring.deals``, ``hands.services``,
``games.services``) are made of these.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import F, QuerySet
from django.utils import timezone

from scorekeeper.rules.games import RecordDeal
from scorekeeper.rules.results import DealResult, GameResult, Standing
from scorekeeper.table.live import signals
from scorekeeper.table.models import Change, Deal, Device, Game, GameState
from scorekeeper.table.scoring import engine
from scorekeeper.table.scoring.figures import Tally, seat_values

Actor = Device | str | None  # who made a change: a phone, or a name ("import")


def actor(by: Actor) -> tuple[Device | None, str]:
    """The phone that made a change (if a phone did), and the name the history shows."""
    if isinstance(by, Device):
        return by, by.name
    return None, by or ""


def log_change(
    game: Game,
    action: str,
    *,
    by: Actor,
    deal: Deal | None = None,
    number: int | None = None,
    before: Any = None,
    after: Any = None,
    undoes: Change | None = None,
    hands_by: list[str] | None = None,
) -> Change:
    """Add a change to the game's append-only history: what it did, to which deal (its stable id and
    its number then), the cards before and after, when and by whom (``hands_by``: by seat, the phone
    that entered each hand of a deal the players entered)."""
    device, name = actor(by)
    return Change.objects.create(
        game=game,
        deal_id=deal.pk if deal is not None else None,
        number=number,
        action=action,
        before=before,
        after=after,
        by=device,
        by_name=name,
        undoes=undoes,
        hands_by=hands_by,
    )


def rescore(game: Game, deals: Sequence[RecordDeal], start: int = 1) -> engine.Played:
    """Play the game as it would be with ``deals`` (RECORD.md: by the players' names) as its deals
    from deal ``start`` on: from the standing stored with deal ``start - 1`` when the stored results
    are the current engine's (the deals before it are not read), else from the first deal (the
    stored deals before ``start`` played again). Raise RecordInvalid (the errors of the first deal
    that is not valid). With no ``deals``: where the game stands before deal ``start`` (``end``)."""
    standing = None
    if start > 1 and game.scored_with == engine.RESULTS_VERSION:
        stored = game.deals.filter(number=start - 1).values_list("standing", flat=True).first()
        if stored:
            standing = Standing.from_json(stored)
    if standing is None and start > 1:
        deals = [*stored_deals(game, game.deals.filter(number__lt=start)), *deals]
    return engine.play_from(game, deals, start=start if standing is not None else 1, standing=standing)


def stored_deals(game: Game, rows: QuerySet[Deal]) -> list[dict[str, Any]]:
    """These stored deals of the game, in order, as RECORD.md deals by the players' names now (they
    are stored by seat: a renamed player keeps his deals)."""
    names = game.player_names()
    return [engine.record_deal(cards, names) for cards in rows.order_by("number").values_list("cards", flat=True)]


SEAT_FIGURES = (
    "total",
    "final",
    "won",
    "deals",
    "points",
    "outs",
    "knocks",
    "undercuts_given",
    "undercuts_suffered",
    "best_points",
    "best_deal",
    "worst_points",
    "worst_deal",
    "best_value",
    "worst_value",
)


DEAL_RESULTS = ("outcome", "dealer", "actor", "winner", "multiplier", "points", "totals", "standing")


def result_fields(
    deal: DealResult, standing: Standing, names: Sequence[str], seats: Mapping[str, int] | None = None
) -> dict[str, Any]:
    """The engine's result of one deal as a ``Deal`` stores it (``DEAL_RESULTS``), by seat
    (``seats``: ``engine.seats_of(names)``, for many deals of a game)."""
    seat = engine.seats_of(names) if seats is None else seats
    return {
        "outcome": deal.outcome,
        "dealer": seat.get(deal.dealer) if deal.dealer else None,
        "actor": seat.get(deal.actor) if deal.actor else None,
        "winner": seat.get(deal.winner) if deal.winner else None,
        "multiplier": deal.multiplier,
        "points": [deal.players[n].points if n in deal.players else 0 for n in names],
        "totals": [deal.totals.get(n, 0) for n in names],
        "standing": standing.to_json(),
    }


def store(game: Game, played: engine.Played) -> None:
    """Store the engine's results from deal ``played.start`` on, the game's state and the seats'
    figures. Expects the deals to hold their new numbers already. Reads and writes the deals from
    ``played.start`` on; of the deals before, only what the seats' figures are made of."""
    result = played.result
    names = list(result.players)  # in seat order, as the record named them
    seat = engine.seats_of(names)
    changed = list(game.deals.filter(number__gte=played.start).order_by("number").only("pk", "number"))
    rows = [
        ScoredRow(*values)
        for values in game.deals.filter(number__lt=played.start)
        .order_by("number")
        .values_list("number", "outcome", "actor", "winner", "points")
    ]
    for row, dr, standing in zip(changed, played.deals, played.standings, strict=True):
        fields = result_fields(dr, standing, names, seat)
        for name, value in fields.items():
            setattr(row, name, value)
        rows.append(ScoredRow.of(row.number, fields))
        row.save(update_fields=DEAL_RESULTS)
    tally = Tally()
    tally.remove(game.kind, game.finished, [seat_values(s) for s in game.seated()])
    game.state = GameState.FINISHED if result.state == "finished" else GameState.IN_PROGRESS
    game.winner = seat.get(result.winner) if result.winner else None
    game.version = F("version") + 1
    game.updated = timezone.now()
    game.scored_with = engine.RESULTS_VERSION
    game.save(update_fields=["state", "winner", "version", "updated", "scored_with"])
    game.refresh_from_db(fields=["version"])
    signals.games_changed([game.pk])
    _store_seats(game, result, rows)
    tally.add(game.kind, game.finished, [seat_values(s) for s in game.seated()])
    tally.write()


@dataclass(frozen=True, slots=True)
class ScoredRow:
    """What a seat's figures are made of, for one deal (``seat_figures``): its number and, by seat,
    its stored result."""

    number: int
    outcome: str
    actor: int | None
    winner: int | None
    points: list[int]

    @classmethod
    def of(cls, number: int, fields: Mapping[str, Any]) -> ScoredRow:
        """From a deal's ``result_fields``."""
        return cls(number, fields["outcome"], fields["actor"], fields["winner"], fields["points"])


def seat_figures(position: int, result: GameResult, rows: Sequence[ScoredRow], penalty: bool) -> dict[str, Any]:
    """The figures of the seat at ``position`` in a game (``SEAT_FIGURES``), from its deals'
    stored results (``rows``, in order) and the game's result: what the history pages read. Penalty
    points (``penalty``) count negative for the sums and for which deal was best."""
    counted = [row for row in rows if row.outcome != "void" and position < len(row.points)]
    values = [(-1 if penalty else 1) * row.points[position] for row in counted]
    figures: dict[str, Any] = {
        "deals": len(counted),
        "points": sum(values),
        **_ends(position, counted),
        **_extreme("best", counted, values, position, max),
        **_extreme("worst", counted, values, position, min),
    }
    name = result.players[position]
    figures["total"] = result.totals.get(name, 0)
    figures["final"] = result.final.get(name) if result.final is not None else None
    figures["won"] = result.state == "finished" and result.winner == name
    return figures


def _ends(position: int, rows: Sequence[ScoredRow]) -> dict[str, int]:
    """How often the seat ended a deal — going out (or gin), knocking, undercut — or undercut a knocker."""
    mine = [row.outcome for row in rows if row.actor == position]
    return {
        "outs": sum(outcome in ("out", "gin", "big_gin") for outcome in mine),
        "knocks": sum(outcome in ("knock", "undercut") for outcome in mine),
        "undercuts_suffered": mine.count("undercut"),
        "undercuts_given": sum(row.outcome == "undercut" and row.winner == position for row in rows),
    }


def _extreme(
    which: str, rows: Sequence[ScoredRow], values: list[int], position: int, pick: Callable[..., int]
) -> dict[str, Any]:
    """The seat's best (``max``) or worst (``min``) deal: its points as stored, its number and its
    value as compared (the first such deal where several hold it); None each without a deal."""
    if not rows:
        return {f"{which}_points": None, f"{which}_deal": None, f"{which}_value": None}
    value = pick(values)
    row = rows[values.index(value)]
    return {f"{which}_points": row.points[position], f"{which}_deal": row.number, f"{which}_value": value}


def _store_seats(game: Game, result: GameResult, rows: list[ScoredRow]) -> None:
    """Each seat's figures in this game, from the stored deals (what the history pages read)."""
    rules, _ = engine.rules_of(game)
    seats = game.seated()
    for seat in seats:
        for name, value in seat_figures(seat.position, result, rows, rules.penalty).items():
            setattr(seat, name, value)
        seat.save(update_fields=SEAT_FIGURES)
