"""The two games behind one written interface (``Game``): begin a game, play one deal onto where
it stands, conclude it, score a whole game at once, and the checks the deal entry asks for while
a deal is typed (one meld, a player's melded cards, the pack the picker offers).

``play`` scores one deal from the ``Standing`` after the deals before it, so an app that keeps
each deal's standing scores one deal when a deal is added and re-scores only from an edited or
deleted deal on. Folding ``play`` from ``begin`` gives exactly the deals ``score_game`` gives.

Each game is one object (``OKLAHOMA_GAME``, ``GIN_GAME``) calling its engine module's public
functions; ``game(kind)`` finds it. A third game is one engine module and one entry in ``GAMES``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from . import gin, oklahoma, points
from .cards import PACK_52, Token
from .errors import RecordError
from .messages import Msg
from .profiles import GIN, OKLAHOMA, GinRules, OklahomaRules, Rules
from .results import DealResult, GameResult, Standing, fold_deals


@dataclass(frozen=True, kw_only=True)
class MeldVerdict:
    """What the engine makes of one meld as typed: legal or not, its kind, what it scores (None:
    melds of this game score nothing of their own), its cards as shown (each wild with what it
    stands for) and what is wrong with it."""

    ok: bool | None  # None: not a meld yet, and nothing wrong with it
    kind: str = ""
    points: int | None = None
    labels: tuple[str, ...] = ()
    codes: tuple[str, ...] = ()  # the cards in the record's notation, each wild with what it stands for
    meaning: tuple[str, ...] = ()  # what each card counts as ("7♥", "a 7"), where a wild asks
    errors: tuple[RecordError, ...] = ()


@dataclass(frozen=True, kw_only=True)
class SplitVerdict:
    """What the engine makes of a player's melded cards typed as one list: the melds it splits
    them into (each a ``MeldVerdict``), what they score and which split was taken, or why none."""

    ok: bool
    melds: tuple[MeldVerdict, ...] = ()
    points: int = 0
    note: str = ""
    errors: tuple[RecordError, ...] = ()


class Game(Protocol):
    """What the app asks of a game. ``rules`` are the game's own (``profiles.resolve``)."""

    kind: str  # the record's "game"
    wilds: bool  # a card may name the card it stands for (``2C=7H``)

    def begin(self, rules: Any, players: Sequence[str], first_dealer: str | None = None) -> Standing:
        """Where a game stands before its first deal."""
        ...

    def play(
        self, rules: Any, players: Sequence[str], standing: Standing, deal: Any, number: int
    ) -> tuple[DealResult, Standing]:
        """Check and score deal ``number`` from ``standing``; raise RecordInvalid with every error."""
        ...

    def conclude(
        self, rules: Any, players: Sequence[str], standing: Standing, deals: Sequence[DealResult]
    ) -> GameResult:
        """The game's result from its scored deals and where it stands after them."""
        ...

    def score_game(self, rules: Any, players: Sequence[str], deals: Any, first_dealer: str | None) -> GameResult:
        """Check and score a whole game; raise RecordInvalid with every error of every deal."""
        ...

    def pack(self, rules: Any) -> Mapping[str, int]:
        """How many of each card (by code) the pack holds."""
        ...

    def check_meld(self, tokens: Sequence[Token], rules: Any) -> MeldVerdict:
        """The live check of one meld as typed."""
        ...

    def check_split(self, tokens: Sequence[Token], rules: Any) -> SplitVerdict | None:
        """The live check of a player's melded cards as one list (None: the game takes no such list)."""
        ...

    def game_end(self, rules: Any, players: tuple[str, ...], totals: tuple[int, ...]) -> tuple[int | None, list[Msg]]:
        """Whether the game ends with these totals (by seat): the winner's seat (None: it goes on),
        and what was decided (a tie at the top)."""
        ...


class OklahomaGame:
    """Oklahoma (``rules.oklahoma``): melds score, a player's melds may be typed as one list."""

    kind = OKLAHOMA
    wilds = True

    def begin(self, rules: OklahomaRules, players: Sequence[str], first_dealer: str | None = None) -> Standing:
        return oklahoma.begin(rules, tuple(players), first_dealer)

    def play(
        self, rules: OklahomaRules, players: Sequence[str], standing: Standing, deal: Any, number: int
    ) -> tuple[DealResult, Standing]:
        return oklahoma.play(rules, tuple(players), standing, deal, number)

    def conclude(
        self, rules: OklahomaRules, players: Sequence[str], standing: Standing, deals: Sequence[DealResult]
    ) -> GameResult:
        return oklahoma.conclude(rules, tuple(players), standing, tuple(deals))

    def score_game(
        self, rules: OklahomaRules, players: Sequence[str], deals: Any, first_dealer: str | None
    ) -> GameResult:
        return oklahoma.score_game(rules, tuple(players), deals, first_dealer)

    def pack(self, rules: OklahomaRules) -> Mapping[str, int]:
        return {card.code: n for card, n in oklahoma.pack_counts(rules).items()}

    def game_end(
        self, rules: OklahomaRules, players: tuple[str, ...], totals: tuple[int, ...]
    ) -> tuple[int | None, list[Msg]]:
        return oklahoma.game_end(rules, players, totals)

    def check_meld(self, tokens: Sequence[Token], rules: OklahomaRules) -> MeldVerdict:
        return self._verdict(oklahoma.check_meld(list(tokens), rules), tokens)

    def check_split(self, tokens: Sequence[Token], rules: OklahomaRules) -> SplitVerdict:
        split = oklahoma.check_melded(list(tokens), rules)
        return SplitVerdict(
            ok=split.ok,
            melds=tuple(self._verdict(m, m.cards) for m in split.melds),
            points=split.points,
            note=str(split.note),
            errors=split.errors,
        )

    @staticmethod
    def _verdict(check: oklahoma.MeldCheck, tokens: Sequence[Token]) -> MeldVerdict:
        return MeldVerdict(
            ok=check.ok,
            kind=str(check.kind or ""),
            points=check.points,
            labels=tuple(check.labels) or tuple(t.label for t in tokens),
            codes=tuple(t.code for t in check.cards),
            meaning=tuple(str(m) for m in check.meaning) if any(t.card.is_wild for t in tokens) else (),
            errors=check.errors,
        )


class GinGame:
    """Oklahoma Gin (``rules.gin``): one pack of 52, melds score nothing of their own."""

    kind = GIN
    wilds = False

    def begin(self, rules: GinRules, players: Sequence[str], first_dealer: str | None = None) -> Standing:
        return gin.begin(rules, tuple(players), first_dealer)

    def play(
        self, rules: GinRules, players: Sequence[str], standing: Standing, deal: Any, number: int
    ) -> tuple[DealResult, Standing]:
        return gin.play(rules, tuple(players), standing, deal, number)

    def conclude(
        self, rules: GinRules, players: Sequence[str], standing: Standing, deals: Sequence[DealResult]
    ) -> GameResult:
        return gin.conclude(rules, tuple(players), standing, tuple(deals))

    def score_game(self, rules: GinRules, players: Sequence[str], deals: Any, first_dealer: str | None) -> GameResult:
        return gin.score_game(rules, tuple(players), deals, first_dealer)

    def pack(self, rules: GinRules) -> Mapping[str, int]:
        return {card.code: 1 for card in PACK_52}

    def check_meld(self, tokens: Sequence[Token], rules: GinRules) -> MeldVerdict:
        kind, problem = gin.check_meld([t.card for t in tokens])
        labels = tuple(t.card.label for t in tokens)
        if problem:
            return MeldVerdict(ok=False, labels=labels, errors=(problem,))
        return MeldVerdict(ok=True if kind else None, kind=kind or "", labels=labels)

    def check_split(self, tokens: Sequence[Token], rules: GinRules) -> None:
        return None

    def game_end(
        self, rules: GinRules, players: tuple[str, ...], totals: tuple[int, ...]
    ) -> tuple[int | None, list[Msg]]:
        return gin.game_end(rules, players, totals)


GAMES: dict[str, Game] = {OKLAHOMA: OklahomaGame(), GIN: GinGame()}


def game(kind: str) -> Game:
    """The game of this kind (the record's "game")."""
    return GAMES[kind]


def begin(rules: Rules, players: Sequence[str], first_dealer: str | None = None) -> Standing:
    """Where a game stands before its first deal."""
    return GAMES[rules.game].begin(rules, players, first_dealer)


def play(
    rules: Rules, players: Sequence[str], standing: Standing, deal: Any, number: int
) -> tuple[DealResult, Standing]:
    """Check and score deal ``number`` from ``standing``; raise RecordInvalid with every error of the deal.
    A points-only deal (``points``: typed without cards, not checked) is scored the same way for
    both games, each game saying when it ends."""
    if points.is_points_only(deal):
        return points.play(rules, players, standing, deal, number, GAMES[rules.game].game_end)
    return GAMES[rules.game].play(rules, players, standing, deal, number)


def conclude(rules: Rules, players: Sequence[str], standing: Standing, deals: Sequence[DealResult]) -> GameResult:
    """The game's result from its scored deals and where it stands after them."""
    return GAMES[rules.game].conclude(rules, players, standing, deals)


def score_game(rules: Rules, players: Sequence[str], deals: Sequence[Any], first_dealer: str | None) -> GameResult:
    """Check and score a whole game; raise RecordInvalid with every error found in every deal.
    A game with a points-only deal is ``play`` folded from ``begin``, as each game's own is: after
    a deal in error the later deals are still checked (from where the game stood), not scored."""
    if not isinstance(deals, (list, tuple)) or not any(points.is_points_only(d) for d in deals):
        return GAMES[rules.game].score_game(rules, players, deals, first_dealer)
    return fold_deals(play, conclude, rules, tuple(players), begin(rules, players, first_dealer), deals)
