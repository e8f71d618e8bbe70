"""What the engine returns: values only (frozen dataclasses), printed cards as strings."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import RecordError, RecordInvalid
from .messages import Msg


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a score explanation: what scored, its points, the rule and where it comes from.

    ``basis`` is "source" when the value is in the source text, "ruling" when it is this
    project's reading where the sources are silent or disagree, "option" for a house option.
    """

    label: Msg  # what scored, as a message: str(label) is its English text
    points: int
    rule: str
    source: str
    basis: str = "source"

    def as_dict(self) -> dict:
        return {
            "label": str(self.label),
            "points": self.points,
            "rule": self.rule,
            "source": self.source,
            "basis": self.basis,
        }


@dataclass(frozen=True, slots=True)
class PlayerDeal:
    """One player's result for one deal. ``lines`` add up to ``points``."""

    points: int
    lines: tuple[Line, ...]
    melds: tuple[tuple[str, ...], ...] = ()
    held: tuple[str, ...] = ()  # Oklahoma: cards left in hand
    deadwood: tuple[str, ...] = ()  # Gin: unmatched cards after layoffs
    layoffs: tuple[str, ...] = ()  # Gin: cards laid off on the knocker's melds
    deadwood_points: int | None = None  # Gin
    discard: str | None = None  # Gin: the knocker's discard when the app chose it
    side_points: int = 0  # Oklahoma: concealed bonus, kept outside the race
    side_lines: tuple[Line, ...] = ()


@dataclass(frozen=True, slots=True)
class DealResult:
    number: int
    outcome: str  # out, stock_out; knock, undercut, gin, big_gin, void
    multiplier: int
    players: Mapping[str, PlayerDeal]
    totals_before: Mapping[str, int]
    totals: Mapping[str, int]
    side: Mapping[str, int]
    dealer: str | None
    next_dealer: str | None
    notes: tuple[Msg, ...] = ()  # e.g. "knock limit 7 (upcard 7♠)"
    actor: str | None = None  # who went out (Oklahoma) or knocked (Gin)
    winner: str | None = None  # who won the hand: out, knocker, or the undercutter
    columns: tuple[int, ...] = ()  # Gin, Hollywood: the columns (1, 2, 3) the hand was entered in


@dataclass(frozen=True, slots=True)
class ColumnResult:
    """Gin, Hollywood: one of the three games scored at once, settled as a game of its own."""

    number: int  # 1, 2, 3
    totals: Mapping[str, int]
    boxes: Mapping[str, int]  # hands entered in this column, by player
    state: str  # in_progress or finished (closed)
    winner: str | None
    ended_on: int | None = None  # the deal that closed the column
    final: Mapping[str, int] | None = None
    final_lines: Mapping[str, tuple[Line, ...]] | None = None


@dataclass(frozen=True, slots=True)
class GameResult:
    game: str
    profile: str
    players: tuple[str, ...]
    deals: tuple[DealResult, ...]
    totals: Mapping[str, int]
    side: Mapping[str, int]
    state: str  # in_progress or finished
    winner: str | None
    final: Mapping[str, int] | None = None
    final_lines: Mapping[str, tuple[Line, ...]] | None = None
    target: int = 0
    notes: tuple[Msg, ...] = field(default_factory=tuple)
    columns: tuple[ColumnResult, ...] = ()  # Gin, Hollywood: the three columns


@dataclass(frozen=True, slots=True)
class ColumnStanding:
    """Gin, Hollywood: where one column stands, by seat."""

    totals: tuple[int, ...] = ()
    boxes: tuple[int, ...] = ()  # hands entered in this column: a seat with a box has an entry
    ended_on: int | None = None  # the deal that closed it
    winner: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "totals": list(self.totals),
            "boxes": list(self.boxes),
            "ended_on": self.ended_on,
            "winner": self.winner,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ColumnStanding:
        return cls(
            totals=tuple(int(x) for x in data["totals"]),
            boxes=tuple(int(x) for x in data["boxes"]),
            ended_on=data["ended_on"],
            winner=data["winner"],
        )


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a game stands after some deals: all that scoring the next deal needs.

    Seats, not names: every per-player value is a tuple in seat order and a player is named by
    his seat (an index into the players), so a stored standing stays true when a player is
    renamed. ``to_json`` gives plain JSON and ``from_json`` reads it back exactly.
    """

    deals: int = 0  # deals played, void hands included
    totals: tuple[int, ...] = ()  # running totals by seat
    side: tuple[int, ...] = ()  # Oklahoma: the concealed bonuses, kept outside the race
    boxes: tuple[int, ...] = ()  # Gin: hands won by seat
    dealer: int | None = None  # the seat that deals the next deal (None: not known)
    ended_on: int | None = None  # the deal the game ended on
    winner: int | None = None  # the seat that won the game, once it ended
    columns: tuple[ColumnStanding, ...] = ()  # Gin, Hollywood: the three columns (else none)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "deals": self.deals,
            "totals": list(self.totals),
            "side": list(self.side),
            "boxes": list(self.boxes),
            "dealer": self.dealer,
            "ended_on": self.ended_on,
            "winner": self.winner,
        }
        if self.columns:
            out["columns"] = [c.to_json() for c in self.columns]
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Standing:
        return cls(
            deals=int(data["deals"]),
            totals=tuple(int(x) for x in data["totals"]),
            side=tuple(int(x) for x in data["side"]),
            boxes=tuple(int(x) for x in data["boxes"]),
            dealer=data["dealer"],
            ended_on=data["ended_on"],
            winner=data["winner"],
            columns=tuple(ColumnStanding.from_json(c) for c in data.get("columns", ())),
        )


def fold_deals(
    play: Callable[[Any, tuple[str, ...], Standing, Any, int], tuple[DealResult, Standing]],
    conclude: Callable[[Any, tuple[str, ...], Standing, list[DealResult]], GameResult],
    rules: Any,
    players: tuple[str, ...],
    standing: Standing,
    deals: Sequence[Any],
) -> GameResult:
    """A whole game: ``play`` each deal from where the game stands, then ``conclude``. Raises
    RecordInvalid with every error of every deal: after a deal in error the later deals are still
    checked (from where the game stood before it), not scored."""
    errors: list[RecordError] = []
    results: list[DealResult] = []
    for number, deal in enumerate(deals, 1):
        try:
            result, after = play(rules, players, standing, deal, number)
        except RecordInvalid as exc:
            errors += exc.errors
            continue
        if not errors:
            results.append(result)
            standing = after
    if errors:
        raise RecordInvalid(errors)
    return conclude(rules, players, standing, results)
