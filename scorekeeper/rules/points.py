"""A points-only deal: each player's points as the table counted them on paper, no cards.

Not part of RECORD.md's deal (which is the cards): this project's extension, documented in
docs/record.md. A points-only deal is ``{"points": {"Ann": 120, "Ben": -35}, "winner": "Ann"}``:
``points`` what the deal adds to each player's running total (every player, whole numbers),
``winner`` (optional) who went out or won the hand — he deals next, as after a deal with cards
(Gin: his box); without it the dealer deals again, as after a stock-out or a void hand. Nothing
of it can be checked: its one line per player says so ("not checked"), its outcome is
``points``. The game ends as after any deal (each game's own end: ``game_end``). A Hollywood game
scores each deal in three columns from its cards: a points-only deal is refused there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .errors import RecordError, RecordInvalid
from .messages import N_, Msg, msg
from .results import DealResult, Line, PlayerDeal, Standing

OUTCOME = "points"
KEYS = ("points", "winner")
RULE = N_("points only, not checked")
SOURCE = "ruling"
FORM, FORMAT = "RECORD.md", N_("format")  # a fault in the deal's form (RULES.md §3; this deal: docs/record.md)
MOST = 100_000  # no deal of either game comes near it
END = N_("end of the game")  # the rule a deal after the game's end breaks, in both games

# A game's end after a deal: (the winner's seat or None, notes), from the totals by seat.
GameEnd = Callable[[Any, tuple[str, ...], tuple[int, ...]], tuple[int | None, list[Msg]]]


def is_points_only(deal: object) -> bool:
    """Whether a deal is a points-only deal (it gives ``points``)."""
    return isinstance(deal, Mapping) and "points" in deal


def _errors(
    rules: Any, players: tuple[str, ...], standing: Standing, deal: Mapping[Any, Any], number: int
) -> list[RecordError]:
    errors: list[RecordError] = []

    def add(
        message: Msg, field: str | None = None, player: str | None = None, source: str = FORM, rule: str = FORMAT
    ) -> None:
        errors.append(RecordError(message, rule=rule, source=source, deal=number, player=player, field=field))

    for key in deal:
        if key not in KEYS:
            add(msg("unknown key '{key}': a points-only deal has 'points' and 'winner'", key=str(key)), str(key))
    if getattr(rules, "hollywood", False):
        add(
            msg("a Hollywood game scores each deal in three columns from its cards: enter the cards"),
            "points",
            source=SOURCE,  # RULES.md §2, Hollywood's rulings
            rule=N_("hollywood"),
        )
    points = deal.get("points")
    if not isinstance(points, Mapping):
        add(msg("'points' gives each player's points: an object with one number per player"), "points")
    else:
        for name in points:
            if name not in players:
                add(msg("'{name}' is not one of the players", name=str(name)), f"points.{name}", str(name))
        for name in players:
            value = points.get(name)
            if name not in points:
                add(msg("{name} has no points in this deal", name=name), f"points.{name}", name)
            elif isinstance(value, bool) or not isinstance(value, int) or abs(value) > MOST:
                add(
                    msg("{name}'s points must be a whole number (up to {most:,} either way)", name=name, most=MOST),
                    f"points.{name}",
                    name,
                )
    winner = deal.get("winner")
    if winner is not None and winner not in players:
        add(msg("'winner' is {value}, not one of the players", value=repr(winner)), "winner")
    if standing.ended_on is not None:
        add(
            msg("the game ended on deal {deal}: no deal follows it", deal=standing.ended_on),
            source=rules.cite("target").source,  # as each game cites a deal after its end
            rule=END,
        )
    return errors


def play(
    rules: Any, players: Sequence[str], standing: Standing, deal: Any, number: int, game_end: GameEnd
) -> tuple[DealResult, Standing]:
    """Score a points-only deal onto ``standing``; raise RecordInvalid with every error."""
    players = tuple(players)
    errors = _errors(rules, players, standing, deal, number)
    if errors:
        raise RecordInvalid(errors)
    typed: Mapping[str, int] = deal["points"]
    winner = deal.get("winner")
    before = dict(zip(players, standing.totals, strict=True))
    totals = tuple(standing.totals[i] + typed[p] for i, p in enumerate(players))
    boxes = list(standing.boxes)
    if winner is not None and boxes:
        boxes[players.index(winner)] += 1
    next_dealer = players.index(winner) if winner is not None else standing.dealer
    ended, notes = game_end(rules, players, totals)
    notes = [msg("points typed as the table counted them, without the cards: not checked"), *notes]
    line = msg("points typed, not checked")
    result = DealResult(
        number=number,
        outcome=OUTCOME,
        multiplier=1,
        players={
            p: PlayerDeal(points=typed[p], lines=(Line(line, typed[p], RULE, SOURCE, "ruling"),)) for p in players
        },
        totals_before=before,
        totals=dict(zip(players, totals, strict=True)),
        side=dict.fromkeys(players, 0),
        dealer=players[standing.dealer] if standing.dealer is not None else None,
        next_dealer=players[next_dealer] if next_dealer is not None else None,
        notes=tuple(notes),
        actor=None,
        winner=winner,
    )
    after = Standing(
        deals=standing.deals + 1,
        totals=totals,
        side=standing.side,
        boxes=tuple(boxes),
        dealer=next_dealer,
        ended_on=number if ended is not None else None,
        winner=ended,
        columns=standing.columns,
    )
    return result, after
