"""The two games behind one written interface (``Game``): begin a game, play one deal onto where
it stands, conclude it, score a whole game at once, and the checks the deal entry asks for while
a deal is typed (one meld, a player's melded cards, the pack the picker offers).

``play`` scores one deal from the ``Standing`` after the deals before it, so an app that keeps
each deal's standing scores one deal when a deal is added and re-scores only from an edited or
deleted deal on. Folding ``play`` from ``begin`` gives exactly the deals ``score_game`` gives.

Each game is one object (``OklahomaGame``, ``GinGame``) calling its engine module's public
functions and saying the deal's shape (its facts, which are given once, whether melds come as one
list); ``game(kind)`` finds it. A third game is one engine module and one entry in ``GAMES``.

``check_partial`` checks a deal as it comes together (each player entering his own hand): what
is wrong with the hands in and the facts given so far, by seat.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from . import gin, oklahoma, points
from .cards import PACK_52, CardError, Token, cards_text, parse_token
from .errors import RecordError, RecordInvalid
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


type RecordDeal = object  # a deal as a record gives it (RECORD.md): the engine checks its shape


class Game(Protocol):
    """What the app asks of a game. ``rules`` are the game's own (``profiles.resolve``): a game
    given another game's rules raises TypeError."""

    kind: str  # the record's "game"
    wilds: bool  # a card may name the card it stands for (``2C=7H``)
    splits: bool  # a player's melds may be given as one list of the cards laid down (``check_split``)
    knocks: bool  # a hand ends by a knock: knocks and undercuts are counted (else: by going out)
    # The deal's own facts (not a player's hand), as the record names them; of those, the ones a
    # complete deal has given (the others default: an Oklahoma deal's flags).
    facts: tuple[str, ...]
    given_once: tuple[str, ...]
    # The deal as a form enters it: the fact naming who ended the deal (its value when nobody did),
    # a hand's card fields.
    actor: str
    no_actor: str
    hand_fields: tuple[str, ...]
    card_facts: tuple[str, ...]  # the facts that are a card (Gin's upcard)

    def hand_of(self, fields: Mapping[str, object]) -> dict[str, object]:
        """A player's hand (RECORD.md) from his form's fields: each card field's cards (codes; the
        melds a list of lists) and the hand's flags (Oklahoma ``split_given``: the melds typed are
        the split; Gin ``big_gin``)."""
        ...

    def facts_of(self, actor: str | None, fields: Mapping[str, object]) -> dict[str, object]:
        """The deal's own facts (RECORD.md) from a form: who ended the deal (``actor``: None for
        nobody) and the facts' fields (Oklahoma's flags, Gin's upcard)."""
        ...

    def fields_of(self, hand: Mapping[str, object]) -> dict[str, object]:
        """A player's hand (RECORD.md) as his form's fields show it: each card field's text (as
        typed: ``QS QH / 5S 6S 7S``) and the hand's flags; ``hand_of``'s other way."""
        ...

    def begin(self, rules: Rules, players: Sequence[str], first_dealer: str | None = None) -> Standing:
        """Where a game stands before its first deal."""
        ...

    def play(
        self, rules: Rules, players: Sequence[str], standing: Standing, deal: RecordDeal, number: int
    ) -> tuple[DealResult, Standing]:
        """Check and score deal ``number`` from ``standing``; raise RecordInvalid with every error."""
        ...

    def conclude(
        self, rules: Rules, players: Sequence[str], standing: Standing, deals: Sequence[DealResult]
    ) -> GameResult:
        """The game's result from its scored deals and where it stands after them."""
        ...

    def score_game(
        self, rules: Rules, players: Sequence[str], deals: Sequence[RecordDeal], first_dealer: str | None
    ) -> GameResult:
        """Check and score a whole game; raise RecordInvalid with every error of every deal."""
        ...

    def pack(self, rules: Rules) -> Mapping[str, int]:
        """How many of each card (by code) the pack holds."""
        ...

    def check_meld(self, tokens: Sequence[Token], rules: Rules) -> MeldVerdict:
        """The live check of one meld as typed."""
        ...

    def check_split(self, tokens: Sequence[Token], rules: Rules) -> SplitVerdict | None:
        """The live check of a player's melded cards as one list (None: the game takes no such list)."""
        ...

    def game_end(self, rules: Rules, players: Sequence[str], totals: tuple[int, ...]) -> tuple[int | None, list[Msg]]:
        """Whether the game ends with these totals (by seat): the winner's seat (None: it goes on),
        and what was decided (a tie at the top)."""
        ...


def _oklahoma(rules: Rules) -> OklahomaRules:
    if not isinstance(rules, OklahomaRules):
        raise TypeError(f"Oklahoma is played under Oklahoma rules, not {type(rules).__name__}")
    return rules


def _gin(rules: Rules) -> GinRules:
    if not isinstance(rules, GinRules):
        raise TypeError(f"Oklahoma Gin is played under Gin rules, not {type(rules).__name__}")
    return rules


class OklahomaGame:
    """Oklahoma (``rules.oklahoma``): melds score, a player's melds may be typed as one list."""

    kind = OKLAHOMA
    wilds = True
    splits = True
    knocks = False
    facts: tuple[str, ...] = ("out", "first_turn", "concealed", "late_misdeal")
    given_once: tuple[str, ...] = ("out",)
    actor = "out"
    no_actor = "stock"  # nobody went out: the stock ran out
    hand_fields: tuple[str, ...] = ("melded", "held", "melds")
    card_facts: tuple[str, ...] = ()

    def fields_of(self, hand: Mapping[str, object]) -> dict[str, object]:
        raw = hand.get("melds")
        melds = raw if isinstance(raw, list) else []
        flat = [c for m in melds if isinstance(m, list) for c in m]
        return {
            "melded": cards_text(hand.get("melded") or flat),
            "melds": cards_text(melds) if melds else "",
            "held": cards_text(hand.get("held")),
        }

    def hand_of(self, fields: Mapping[str, object]) -> dict[str, object]:
        held = fields.get("held") or []
        if fields.get("split_given"):
            return {"melds": fields.get("melds") or [], "held": held}
        if fields.get("melded"):
            return {"melded": fields["melded"], "held": held}
        return {"melds": [], "held": held}

    def facts_of(self, actor: str | None, fields: Mapping[str, object]) -> dict[str, object]:
        deal: dict[str, object] = {
            "out": actor,
            "first_turn": bool(fields.get("first_turn")),
            "concealed": bool(fields.get("concealed")),
        }
        if fields.get("late_misdeal"):
            deal["late_misdeal"] = True
        return deal

    def begin(self, rules: Rules, players: Sequence[str], first_dealer: str | None = None) -> Standing:
        return oklahoma.begin(_oklahoma(rules), tuple(players), first_dealer)

    def play(
        self, rules: Rules, players: Sequence[str], standing: Standing, deal: RecordDeal, number: int
    ) -> tuple[DealResult, Standing]:
        return oklahoma.play(_oklahoma(rules), tuple(players), standing, deal, number)

    def conclude(
        self, rules: Rules, players: Sequence[str], standing: Standing, deals: Sequence[DealResult]
    ) -> GameResult:
        return oklahoma.conclude(_oklahoma(rules), tuple(players), standing, tuple(deals))

    def score_game(
        self, rules: Rules, players: Sequence[str], deals: Sequence[RecordDeal], first_dealer: str | None
    ) -> GameResult:
        return oklahoma.score_game(_oklahoma(rules), tuple(players), deals, first_dealer)

    def pack(self, rules: Rules) -> Mapping[str, int]:
        return {card.code: n for card, n in oklahoma.pack_counts(_oklahoma(rules)).items()}

    def game_end(self, rules: Rules, players: Sequence[str], totals: tuple[int, ...]) -> tuple[int | None, list[Msg]]:
        return oklahoma.game_end(_oklahoma(rules), tuple(players), totals)

    def check_meld(self, tokens: Sequence[Token], rules: Rules) -> MeldVerdict:
        return self._verdict(oklahoma.check_meld(list(tokens), _oklahoma(rules)), tokens)

    def check_split(self, tokens: Sequence[Token], rules: Rules) -> SplitVerdict:
        split = oklahoma.check_melded(list(tokens), _oklahoma(rules))
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
    splits = False
    knocks = True
    facts: tuple[str, ...] = ("upcard", "knocker")
    given_once: tuple[str, ...] = ("upcard", "knocker")
    actor = "knocker"
    no_actor = "void"  # nobody knocked: a void hand
    hand_fields: tuple[str, ...] = ("cards", "melds", "deadwood")
    card_facts: tuple[str, ...] = ("upcard",)

    def fields_of(self, hand: Mapping[str, object]) -> dict[str, object]:
        return {name: cards_text(hand.get(name)) for name in self.hand_fields} | {"big_gin": bool(hand.get("big_gin"))}

    def hand_of(self, fields: Mapping[str, object]) -> dict[str, object]:
        hand: dict[str, object] = {}
        if fields.get("cards"):
            hand["cards"] = fields["cards"]
        if fields.get("melds") or fields.get("deadwood"):
            hand["melds"] = fields.get("melds") or []
            hand["deadwood"] = fields.get("deadwood") or []
        if not hand:
            hand["cards"] = []
        if fields.get("big_gin"):
            hand["big_gin"] = True
        return hand

    def facts_of(self, actor: str | None, fields: Mapping[str, object]) -> dict[str, object]:
        return {"upcard": fields.get("upcard"), "knocker": actor}

    def begin(self, rules: Rules, players: Sequence[str], first_dealer: str | None = None) -> Standing:
        return gin.begin(_gin(rules), tuple(players), first_dealer)

    def play(
        self, rules: Rules, players: Sequence[str], standing: Standing, deal: RecordDeal, number: int
    ) -> tuple[DealResult, Standing]:
        return gin.play(_gin(rules), tuple(players), standing, deal, number)

    def conclude(
        self, rules: Rules, players: Sequence[str], standing: Standing, deals: Sequence[DealResult]
    ) -> GameResult:
        return gin.conclude(_gin(rules), tuple(players), standing, tuple(deals))

    def score_game(
        self, rules: Rules, players: Sequence[str], deals: Sequence[RecordDeal], first_dealer: str | None
    ) -> GameResult:
        return gin.score_game(_gin(rules), tuple(players), deals, first_dealer)

    def pack(self, rules: Rules) -> Mapping[str, int]:
        _gin(rules)
        return {card.code: 1 for card in PACK_52}

    def check_meld(self, tokens: Sequence[Token], rules: Rules) -> MeldVerdict:
        _gin(rules)
        kind, problem = gin.check_meld([t.card for t in tokens])
        labels = tuple(t.card.label for t in tokens)
        if problem:
            return MeldVerdict(ok=False, labels=labels, errors=(problem,))
        return MeldVerdict(ok=True if kind else None, kind=kind or "", labels=labels)

    def check_split(self, tokens: Sequence[Token], rules: Rules) -> None:
        return None

    def game_end(self, rules: Rules, players: Sequence[str], totals: tuple[int, ...]) -> tuple[int | None, list[Msg]]:
        return gin.game_end(_gin(rules), tuple(players), totals)


GAMES: dict[str, Game] = {OKLAHOMA: OklahomaGame(), GIN: GinGame()}


def game(kind: str) -> Game:
    """The game of this kind (the record's "game")."""
    return GAMES[kind]


def begin(rules: Rules, players: Sequence[str], first_dealer: str | None = None) -> Standing:
    """Where a game stands before its first deal."""
    return GAMES[rules.game].begin(rules, players, first_dealer)


def play(
    rules: Rules, players: Sequence[str], standing: Standing, deal: RecordDeal, number: int
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


def score_game(
    rules: Rules, players: Sequence[str], deals: Sequence[RecordDeal], first_dealer: str | None
) -> GameResult:
    """Check and score a whole game; raise RecordInvalid with every error found in every deal.
    A game with a points-only deal is ``play`` folded from ``begin``, as each game's own is: after
    a deal in error the later deals are still checked (from where the game stood), not scored."""
    if not isinstance(deals, (list, tuple)) or not any(points.is_points_only(d) for d in deals):
        return GAMES[rules.game].score_game(rules, players, deals, first_dealer)
    return fold_deals(play, conclude, rules, tuple(players), begin(rules, players, first_dealer), deals)


@dataclass(frozen=True, kw_only=True)
class PartialCheck:
    """A deal checked as it comes together (``check_partial``): what is wrong with the hands in and
    the facts given so far — ``hands`` by seat, ``errors`` the deal's own — leaving out what only
    says a hand is not in or a fact not given yet; and, once it is complete and valid, its result."""

    hands: tuple[tuple[RecordError, ...], ...]
    errors: tuple[RecordError, ...] = ()
    result: DealResult | None = None


def check_partial(
    rules: Rules, players: Sequence[str], standing: Standing, deal: Mapping[str, object], number: int
) -> PartialCheck:
    """Check ``deal`` (RECORD.md: the facts given and the hands in so far, by name) as deal
    ``number`` from ``standing``. An error about the pack's counts (``whole_pack``) concerns every
    hand holding its card: each of them gets it (as its own, without the other's field)."""
    players = tuple(players)
    try:
        result, _ = play(rules, players, standing, deal, number)
    except RecordInvalid as exc:
        errors = exc.errors
    else:
        return PartialCheck(hands=((),) * len(players), result=result)
    hands = _hands(deal)
    absent = {k for k in GAMES[rules.game].facts if k not in deal}
    said = [e for e in errors if not _not_yet(e, players, hands, absent)]
    by_seat = tuple(_errors_of(p, said, players, hands) for p in players)
    return PartialCheck(hands=by_seat, errors=tuple(e for e in said if not _concerned(e, players, hands)))


def _errors_of(
    player: str, errors: list[RecordError], players: tuple[str, ...], hands: Mapping[object, object]
) -> tuple[RecordError, ...]:
    """The errors that concern ``player``'s hand, each as his own (another's field left out)."""
    mine = [e for e in errors if player in _concerned(e, players, hands)]
    return tuple(e if player == e.player else replace(e, player=player, field=None) for e in mine)


def _hands(deal: Mapping[str, object]) -> Mapping[object, object]:
    """The deal's hands in so far, by name."""
    raw = deal.get("hands")
    return raw if isinstance(raw, Mapping) else {}


def _not_yet(e: RecordError, players: tuple[str, ...], hands: Mapping[object, object], absent: set[str]) -> bool:
    """Whether an error only says a fact is not given, or a hand is not in, yet."""
    player, rest = e.in_hand(players)
    if player is None:
        return rest in absent
    return player not in hands and not rest


def _concerned(e: RecordError, players: tuple[str, ...], hands: Mapping[object, object]) -> list[str]:
    """The players an error concerns: its player and, for the pack's counts, every player whose hand
    holds its card."""
    holders = [p for p in players if p == e.player]
    if e.whole_pack:
        holders += [p for p in players if p != e.player and _cards_of(hands.get(p)) & set(e.cards)]
    return holders


# A hand's card lists, as the two games' hands name them.
_HAND_PARTS = ("melds", "melded", "held", "cards", "deadwood")


def _cards_of(hand: object) -> set[str]:
    """The cards a hand (RECORD.md) holds, by label (``Q♠``; a wild card as itself)."""
    out: set[str] = set()
    if not isinstance(hand, Mapping):
        return out
    for key in _HAND_PARTS:
        value = hand.get(key)
        for item in value if isinstance(value, list) else []:
            for code in item if isinstance(item, list) else [item]:
                with contextlib.suppress(CardError):
                    out.add(parse_token(code).card.label)
    return out


def facts_fields(game: Game, deal: Mapping[str, object], players: Sequence[str]) -> dict[str, object]:
    """A deal's own facts (RECORD.md) as a form's fields show them: who ended it (the seat as text,
    ``no_actor`` for nobody; absent while not given), its flags, its cards as typed (the upcard)."""
    fields: dict[str, object] = {}
    if game.actor in deal:
        who = deal[game.actor]
        fields[game.actor] = game.no_actor if who is None else str(players.index(who)) if who in players else ""
    for name in game.facts:
        if name != game.actor:
            fields[name] = (
                cards_text([deal.get(name)]) if name in game.card_facts and deal.get(name) else deal.get(name)
            )
    return fields


def place(game: Game, e: RecordError, players: Sequence[str], deal: Mapping[str, object]) -> tuple[str | None, str]:
    """Where in a deal form an error of ``deal`` (RECORD.md, as the form made it) goes: the player
    whose hand it concerns (None: the deal as a whole) and the field — a hand's card field (the
    one the error's path names, else the one holding its cards), a fact, or "" (the hand, or the
    deal, as a whole)."""
    player, key = _whose(e, players)
    if player is None:
        return None, key if key in game.facts else ""
    hand = _hands(deal).get(player)
    return player, _card_field(game, e, key, hand if isinstance(hand, Mapping) else {})


def _whose(e: RecordError, players: Sequence[str]) -> tuple[str | None, str]:
    """The player an error concerns (by its path, else by its player, whatever the case) and the
    first part of the rest of its path ("melds" of "hands.Ann.melds[1]")."""
    player, rest = e.in_hand(players)
    if player is None and e.player is not None:
        return next((p for p in players if p.casefold() == str(e.player).casefold()), None), ""
    return player, rest.split(".")[0].split("[")[0]


def _card_field(game: Game, e: RecordError, key: str, hand: Mapping[str, object]) -> str:
    """The card field of a hand an error goes beside: the one it names, else the one holding its cards."""
    if key == "melds" and "melded" in game.hand_fields and not hand.get("melds"):
        key = "melded"  # the melds as one list, split by the engine: its field is the list's
    if key in game.hand_fields:
        return key
    wanted = {c.replace(" ", "") for c in e.cards}
    return next((name for name in game.hand_fields if wanted and wanted <= _labels(hand.get(name))), "")


def _labels(cards: object) -> set[str]:
    """A hand's part (a list of cards, or of melds) by every name a card goes by: its code as typed
    (``2C=7H``), its card's code (``2C``) and label (``2♣``)."""
    out: set[str] = set()
    for item in cards if isinstance(cards, list) else []:
        for code in item if isinstance(item, list) else [item]:
            with contextlib.suppress(CardError):
                token = parse_token(code)
                out.update({str(code), token.code, token.label, token.card.code, token.card.label})
    return out
