"""One Oklahoma meld: is it a legal set or sequence, what each wild card stands for, what it scores.

``check_meld`` is usable alone (the web app checks each meld while a player types it). A set is
3–4 cards of one rank, wilds included (S0; S1 law 7); a sequence 3–14 cards of one suit in order,
ace high or low, never round the corner (S0; S1 laws 7, 11). Every 2 and the Joker are wild
(S0; S1 laws 8, 9) and may name their card after '='.

Card text is parsed once per distinct token into an ``Entered`` card of plain ints and strings,
so checking a meld never parses, prints or hashes a card again; verdicts are values and are cached.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from operator import attrgetter
from typing import Protocol

from .caches import cached
from .cards import ACE, QUEEN, SUITS, Card, CardError, Suit, Token, parse_token
from .errors import Fix, RecordError
from .messages import N_, Msg, Param, a_rank, either, msg, nmsg, ranks
from .oklahoma_values import (
    JOKER_MELDED,
    TWO_AS_QUEEN_OF_SPADES,
    TWO_AS_RANK,
    TWO_AS_TWO,
    CardValue,
    held_whatever_the_rules,
    natural_melded,
)
from .profiles import OklahomaRules
from .results import Line

# Sources of the fixed rules (knob values are cited through rules.cite).
SRC_MELD = "S0; S1 law 7"
SRC_SET = "S0; S1 law 7"
SRC_SEQUENCE = "S0; S1 laws 7, 11"
SRC_CORNER = "S0; S1 law 11"
SRC_WILD = "S0; S1 laws 8, 9"
SRC_WILD_SEQ = "S0"
SRC_JOKER_NAME = "S0; S1 law 9"
SRC_READINGS = "ruling"  # RULES.md §1, readings: name the wild cards where the readings score differently
SRC_NOTATION = "RECORD.md"

SPADES = 0  # suit index of spades (cards.SUITS order)
LOW_ACE, HIGH_ACE = 1, 14  # the places an ace can take in a sequence

# A sequence's places 1..14 (1 and 14 are the ace) as cards, printed labels and codes, by suit index.
PLACE_CARD: tuple[tuple[Card, ...], ...] = tuple(
    tuple(Card(ACE if place == HIGH_ACE else max(place, 1), suit) for place in range(15)) for suit in SUITS
)
PLACE_LABEL: tuple[tuple[str, ...], ...] = tuple(tuple(card.label for card in row) for row in PLACE_CARD)
PLACE_CODE: tuple[tuple[str, ...], ...] = tuple(tuple(card.code for card in row) for row in PLACE_CARD)


# --------------------------------------------------------------------------------------------
# Entered cards, parsed once per distinct token text.


class Entered:
    """One card as entered (``'2C=7H'``): the Token and what the checks need of it, as plain values."""

    __slots__ = (
        "token",
        "label",
        "card_label",
        "card_code",
        "rank",
        "suit",
        "wild",
        "joker",
        "named_rank",
        "named_suit",
        "named_label",
        "value",
        "held_value",
        "free",
        "place_rank",
        "place_suit",
        "shown",
        "melded",
    )

    def __init__(self, token: Token) -> None:
        card, named = token.card, token.stands_for
        self.token = token
        self.label = token.label  # '2♣=7♥'
        self.card_label = card.label  # '2♣'
        self.card_code = card.code  # '2C'
        self.rank = card.rank  # 0 for the Joker
        self.suit = card.suit.index if card.suit is not None else -1
        self.wild = card.is_wild
        self.joker = card.is_joker
        self.named_rank = named.rank if named is not None else 0  # 0: not named
        self.named_suit = named.suit.index if named is not None and named.suit is not None else -1
        self.named_label = named.label if named is not None else ""
        self.value: CardValue | None = None if self.wild else natural_melded(card)
        self.held_value = held_whatever_the_rules(card)  # None: K–8, priced by a knob
        self.free = self.wild and not self.named_rank  # a wild card that names nothing
        self.place_rank = self.named_rank or self.rank  # the rank it holds in a meld (a free wild: 0 or 2)
        self.place_suit = self.named_suit if self.wild else self.suit
        # How it shows in a score line and what it scores melded, where that does not hang on a
        # reading: a natural card as itself, a named wild as what it names (a free wild: None).
        self.shown: Msg | str = self.label
        self.melded: CardValue | None = self.value
        if self.wild and self.named_rank:
            self.shown = wild_as(self.card_label, self.named_label)
            self.melded = _named_wild_value(self.joker, self.named_rank, self.named_suit)


def _named_wild_value(joker: bool, rank: int, suit: int) -> CardValue:
    """What a wild card named as a card of ``rank`` and ``suit`` scores, in a set or a sequence
    (as ``wild_value_at`` at its place, and ``_laid_set`` for a set of its rank)."""
    if joker:
        return JOKER_MELDED
    if rank == QUEEN and suit == SPADES:
        return TWO_AS_QUEEN_OF_SPADES
    if rank == 2:
        return TWO_AS_TWO
    return TWO_AS_RANK[rank]


def entered(raw: object) -> Entered:
    """The parsed card of a token (``'2C=7H'``, a Token or a Card); raise CardError."""
    if type(raw) is str:
        return _entered_text(raw)
    if isinstance(raw, Token):
        return Entered(raw)
    if isinstance(raw, Card):
        return Entered(Token(raw))
    return Entered(parse_token(raw))  # not text: parse_token raises the CardError that says so


@cached(maxsize=16384)
def _entered_text(text: str) -> Entered:
    """A card's text parsed once (an import meets the same texts in every game)."""
    return Entered(parse_token(text))


def labels_of(cards: Sequence[Entered]) -> list[str]:
    return [e.label for e in cards]


# --------------------------------------------------------------------------------------------
# The verdict.


class Laid(Protocol):
    """A card as a meld lays it out: its token (with what it stands for) and how it prints."""

    @property
    def token(self) -> Token: ...

    @property
    def label(self) -> str: ...


@dataclass(frozen=True, slots=True)
class MeldCheck:
    """The verdict on one meld.

    ``cards`` are the tokens as resolved: sorted by position in a sequence (each wild with the
    card it stands for), naturals then wilds in a set (a wild in a set stands for the set's
    rank; its suit is not named unless the player named it). ``meaning`` prints what each card
    counts as ("7♥", "a 7"). ``lines`` add up to ``points``. ``errors`` carry no deal or player:
    the deal check adds them.
    """

    ok: bool
    kind: str | None
    cards: tuple[Token, ...] = ()
    points: int = 0
    lines: tuple[Line, ...] = ()
    errors: tuple[RecordError, ...] = ()
    rank: int | None = None
    suit: Suit | None = None
    meaning: tuple[str | Msg, ...] = ()  # a word as a message ("a 7"), said in the reader's language
    labels: tuple[str, ...] = ()  # ``cards`` printed ('2♣=7♥')
    note: Msg | str = ""  # which reading was taken, where the cards allow several that score the same
    card_labels: tuple[str, ...] = ()  # the cards entered, as printed without what they stand for ('2♣')


def laid_out(
    kind: str,
    ordered: Sequence[Entered | Laid],
    scored: Sequence[tuple[Msg | str, CardValue]],
    *,
    rank: int | None = None,
    suit: Suit | None = None,
    meaning: tuple[str | Msg, ...],
    entered: Sequence[Entered],
    note: Msg | str = "",
) -> MeldCheck:
    """A legal meld laid out as ``ordered`` (its tokens and printed cards in that order), each card
    shown and scored as ``scored`` says; ``entered``: its cards as the player entered them."""
    points, lines = score_lines(scored)
    return MeldCheck(
        ok=True,
        kind=kind,
        cards=tuple([e.token for e in ordered]),
        points=points,
        lines=lines,
        rank=rank,
        suit=suit,
        meaning=meaning,
        labels=tuple([e.label for e in ordered]),
        note=note,
        card_labels=tuple([e.card_label for e in entered]),
    )


def _error(message: Msg, rule: str, source: str, cards: Sequence[str] = ()) -> RecordError:
    return RecordError(message, rule=rule, source=source, cards=tuple(cards))


def _rejected(errors: list[RecordError], kind: str | None = None, cards: Sequence[Entered] = ()) -> MeldCheck:
    return MeldCheck(
        ok=False,
        kind=kind,
        cards=tuple(e.token for e in cards),
        errors=tuple(errors),
        labels=tuple(e.label for e in cards),
        card_labels=tuple(e.card_label for e in cards),
    )


def score_lines(scored: Sequence[tuple[Msg | str, CardValue]]) -> tuple[int, tuple[Line, ...]]:
    """Group (shown as, value) pairs into cited lines, in order of first appearance."""
    groups: dict[CardValue, list[Msg | str]] = {}
    for shown, value in scored:
        groups.setdefault(value, []).append(shown)
    lines = tuple([_melded_line(tuple(shown), value) for value, shown in groups.items()])
    return sum([line.points for line in lines]), lines


@cached(maxsize=16384)
def _melded_line(shown: tuple[Msg | str, ...], value: CardValue) -> Line:
    """ "7♥ melded"; several cards that score by one rule: "Q♥ Q♦ melded (2 × 10)"."""
    n = len(shown)
    if n == 1:
        label = msg("{cards} melded", cards=shown[0])
    else:
        label = msg("{cards} melded ({n} × {unit})", cards=listed(shown), n=n, unit=value.points)
    return Line(label=label, points=value.points * n, rule=value.rule, source=value.source, basis=value.basis)


def listed(items: Sequence[Msg | str]) -> Msg | str:
    """Cards in a row: printed cards apart by spaces ("Q♥ Q♦"), wild cards shown with what they stand
    for apart by commas ("2♣ as a 7, JK as a 7")."""
    if all(isinstance(item, str) for item in items):
        return " ".join(str(item) for item in items)
    head: Msg | str = items[0]
    for item in items[1:]:
        head = msg("{first}, {next}", first=head, next=item)
    return head


def wild_as(card: str, stands_for: Param) -> Msg:
    """A wild card with what it stands for: "2♣ as 7♥", "JK as a 7"."""
    return msg("{card} as {stands_for}", card=card, stands_for=stands_for)


# --------------------------------------------------------------------------------------------
# check_meld: parse, find every legal reading, take it when they all score the same.
#
# A reading says what each unnamed wild card stands for: the meld as a set of one rank, or as a
# sequence with each card at a place 1..14 (an ace at 1 or 14). RULES.md §1 (readings, a ruling):
# the wild cards must be named only when the legal readings score differently; otherwise the
# first reading in a fixed order is taken (a set before a sequence; an unnamed 2 of the
# sequence's suit in its own place; ace low; lowest first; the Joker at the highest open place),
# and the verdict's ``note`` says which was taken.


def without_joker(rules: OklahomaRules) -> str:
    """What of the rules a meld's verdict depends on: "" when the game has the Joker, else the
    source of the rule without it (its error cites it)."""
    return "" if rules.joker else rules.cite("joker").source


def check_meld_searched(tokens: Sequence[str | Token | Card], rules: OklahomaRules) -> MeldCheck:
    """Check one meld as entered (any order) and score it as melded, through the search of every
    reading: the spec of ``oklahoma_meld_shortcut.check_meld``, which every caller uses."""
    cards = prechecked(tokens, without_joker(rules))
    return cards if isinstance(cards, MeldCheck) else searched(cards)


def _parse_meld(tokens: Sequence[object]) -> tuple[list[Entered], list[RecordError]]:
    cards: list[Entered] = []
    errors: list[RecordError] = []
    for raw in tokens:
        try:
            cards.append(entered(raw))
        except CardError as exc:
            errors.append(_error(exc.message, N_("card notation"), SRC_NOTATION, [exc.token]))
    return cards, errors


@dataclass(frozen=True, slots=True)
class _Parts:
    """A meld's cards sorted out: natural cards, wild cards named, wild cards free (unnamed)."""

    cards: tuple[Entered, ...]
    naturals: tuple[Entered, ...]
    named: tuple[Entered, ...]
    free: tuple[Entered, ...]

    @staticmethod
    def of(cards: Sequence[Entered]) -> _Parts:
        return _Parts(
            tuple(cards),
            tuple(e for e in cards if not e.wild),
            tuple(e for e in cards if e.wild and e.named_rank),
            tuple(e for e in cards if e.wild and not e.named_rank),
        )

    @property
    def ranks(self) -> set[int]:
        """The ranks the natural and named cards hold: one, for a set."""
        return {e.rank for e in self.naturals} | {e.named_rank for e in self.named}

    @property
    def suits(self) -> set[int]:
        """The suits the natural and named cards hold: one, for a sequence."""
        return {e.suit for e in self.naturals} | {e.named_suit for e in self.named}


def prechecked(tokens: Sequence[object], no_joker: str) -> list[Entered] | MeldCheck:
    """The meld's cards parsed, or the verdict when they are not cards, too few or a Joker unplayed
    (``no_joker``: ``without_joker(rules)``)."""
    cards, errors = _parse_meld(tokens)
    if errors:
        return _rejected(errors)
    if not cards:
        return _rejected([_error(msg("an empty meld: a meld is 3 or more cards"), N_("meld"), SRC_MELD)])
    if no_joker:
        jokers = [e for e in cards if e.joker]
        if jokers:
            message = msg("this game is played without the Joker")
            return _rejected([_error(message, N_("no Joker"), no_joker, labels_of(jokers))])
    if len(cards) < 3:
        message = msg("a meld needs at least 3 cards, not {n}", n=len(cards))
        return _rejected([_error(message, N_("meld"), SRC_MELD, labels_of(cards))])
    return cards


def searched(cards: list[Entered]) -> MeldCheck:
    """The verdict from every legal reading of the meld: taken when they all score the same."""
    parts = _Parts.of(cards)
    if not parts.naturals and parts.free:
        message = msg("a meld of wild cards only must name what each card stands for (like 2C=7H)")
        return _rejected([_error(message, N_("wild cards"), SRC_WILD, labels_of(parts.free))], cards=cards)
    readings = _set_readings(parts) + _sequence_readings(parts)
    if not readings:
        return _no_reading(parts)
    if len({r.points for r in readings}) > 1:
        return _rejected([_name_the_wilds(parts, readings)], _kind_of(readings), cards)
    best = min(readings, key=_canonical)
    note = _reading_note(parts, readings, best)
    return _laid_set(cards, best.rank, note) if best.is_set else _laid_sequence(parts, best, note)


# --------------------------------------------------------------------------------------------
# Readings.


@dataclass(frozen=True, slots=True)
class _Reading:
    """One legal reading of a meld and what it scores.

    A set has its ``rank``; a sequence its ``suit`` (>= 0), the places its fixed aces take, its
    lowest place, and the places its free Jokers take (its free 2s fill the other open places)."""

    points: int
    order: int
    rank: int = 0
    suit: int = -1
    aces: tuple[int, ...] = ()
    low: int = 0
    n: int = 0
    held: frozenset[int] = frozenset()
    jokers: tuple[int, ...] = ()
    own_two: bool = False  # an unnamed 2 of the suit can stand for itself in this reading

    @property
    def is_set(self) -> bool:
        return self.suit < 0

    @property
    def open_places(self) -> list[int]:
        """The places the free wild cards fill."""
        return [p for p in range(self.low, self.low + self.n) if p not in self.held]

    @property
    def meaning(self) -> tuple[object, ...]:
        """What the free wild cards stand for (an ace at either end counts as the same card)."""
        if self.is_set:
            return ("set", self.rank)
        return (_as_cards(self.open_places), _as_cards(self.jokers))


def _as_cards(places: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted(ACE if p == HIGH_ACE else p for p in places))


def _canonical(reading: _Reading) -> tuple[bool, bool, int]:
    return (not reading.is_set, not reading.own_two, reading.order)


def _kind_of(readings: list[_Reading]) -> str | None:
    kinds = {"set" if r.is_set else "sequence" for r in readings}
    return kinds.pop() if len(kinds) == 1 else None


def _wild_points(e: Entered, rank: int) -> int:
    """What a wild card scores standing for a card of ``rank`` (a named Q♠ included: 10 either way)."""
    if e.joker:
        return JOKER_MELDED.points
    return 5 if rank == 2 else two_points_at(rank)


def _set_readings(parts: _Parts) -> list[_Reading]:
    """The set reading, when the natural and named cards are of one rank and there are at most 4."""
    ranks = parts.ranks
    if len(ranks) != 1 or len(parts.cards) > 4:
        return []
    rank = next(iter(ranks))
    points = sum(_natural_value(e).points for e in parts.naturals)
    points += sum(_wild_points(e, rank) for e in parts.named + parts.free)
    return [_Reading(points, 0, rank=rank)]


@dataclass(frozen=True, slots=True)
class _SequenceCards:
    """A sequence's fixed cards (naturals and named wilds, with the rank each holds) by place."""

    fixed: list[tuple[Entered, int]]
    aces: list[Entered]
    by_rank: dict[int, list[Entered]]

    @staticmethod
    def of(parts: _Parts) -> _SequenceCards:
        fixed = [(e, e.named_rank or e.rank) for e in parts.naturals + parts.named]
        aces = [e for e, r in fixed if r == ACE]
        by_rank: dict[int, list[Entered]] = {}
        for e, r in fixed:
            if r != ACE:
                by_rank.setdefault(r, []).append(e)
        return _SequenceCards(fixed, aces, by_rank)

    @property
    def others(self) -> list[int]:
        """The places the fixed cards other than aces hold, in order."""
        return sorted(self.by_rank)

    def ace_options(self) -> list[tuple[int, ...]]:
        if not self.aces:
            return [()]
        return [(LOW_ACE,), (HIGH_ACE,)] if len(self.aces) == 1 else [(LOW_ACE, HIGH_ACE)]

    def ranks_held(self) -> set[int]:
        return set(self.by_rank) | ({ACE} if self.aces else set())

    def clash(self) -> bool:
        """Two fixed cards for one place, or more than two aces."""
        return len(self.by_rank) + len(self.aces) < len(self.fixed) or len(self.aces) > 2

    def points(self) -> int:
        return sum(_natural_value(e).points if not e.wild else _wild_points(e, r) for e, r in self.fixed)


def _sequence_readings(parts: _Parts) -> list[_Reading]:
    """Every way to lay the cards as a sequence of one suit, and what each scores."""
    suits = parts.suits
    n = len(parts.cards)
    if len(suits) != 1 or n > 14:
        return []
    suit = next(iter(suits))
    seq = _SequenceCards.of(parts)
    if seq.clash():
        return []
    fixed_points = seq.points()
    jokers = sum(1 for e in parts.free if e.joker)
    suited_two = any(e.suit == suit and not e.joker for e in parts.free)
    readings: list[_Reading] = []
    for aces in seq.ace_options():
        places = sorted(seq.others + list(aces))
        held = frozenset(places)
        for low in range(max(1, places[-1] - n + 1), min(places[0], 15 - n) + 1):
            open_places = [p for p in range(low, low + n) if p not in held]
            base = fixed_points + sum(two_points_at(p) for p in open_places)
            for joker_places in combinations(sorted(open_places, reverse=True), jokers):
                points = base + sum(JOKER_MELDED.points - two_points_at(p) for p in joker_places)
                own_two = suited_two and 2 in open_places and 2 not in joker_places
                readings.append(
                    _Reading(
                        points,
                        len(readings) + 1,
                        suit=suit,
                        aces=aces,
                        low=low,
                        n=n,
                        held=held,
                        jokers=tuple(sorted(joker_places)),
                        own_two=own_two,
                    )
                )
    return readings


# --------------------------------------------------------------------------------------------
# A meld laid out at its reading.


def _laid_set(cards: Sequence[Entered], rank: int, note: Msg | str) -> MeldCheck:
    """The set laid out: its natural cards by suit, then its wild cards as entered."""
    naturals = sorted((e for e in cards if not e.wild), key=_by_suit)
    wilds = [e for e in cards if e.wild]
    scored: list[tuple[Msg | str, CardValue]] = [(e.label, _natural_value(e)) for e in naturals]
    meaning: list[str | Msg] = [e.label for e in naturals]
    two_value = TWO_AS_TWO if rank == 2 else TWO_AS_RANK[rank]
    for e in wilds:
        if e.joker:
            value = JOKER_MELDED
        elif e.named_rank == QUEEN and e.named_suit == SPADES:
            value = TWO_AS_QUEEN_OF_SPADES
        else:
            value = two_value
        if e.named_rank:
            scored.append((wild_as(e.card_label, e.named_label), value))
            meaning.append(e.named_label)
        else:
            scored.append((wild_as(e.card_label, a_rank(rank)), value))
            meaning.append(a_rank(rank))
    ordered = naturals + wilds
    return laid_out("set", ordered, scored, rank=rank, meaning=tuple(meaning), entered=cards, note=note)


_by_suit = attrgetter("suit")


def _natural_value(e: Entered) -> CardValue:
    assert e.value is not None, "a natural card has its value"
    return e.value


def _free_places(parts: _Parts, reading: _Reading) -> list[tuple[Entered, int]]:
    """Where each free wild card stands in a sequence reading: the Jokers at their places, an
    unnamed 2 of the suit in its own place when it is open, the other 2s in order."""
    placed = list(zip((e for e in parts.free if e.joker), reading.jokers, strict=True))
    rest = [p for p in reading.open_places if p not in reading.jokers]
    twos = [e for e in parts.free if not e.joker]
    if reading.own_two:
        own = next(e for e in twos if e.suit == reading.suit)
        placed.append((own, 2))
        rest.remove(2)
        twos.remove(own)
    placed += zip(twos, rest, strict=True)
    return placed


def _laid_sequence(parts: _Parts, reading: _Reading, note: Msg | str) -> MeldCheck:
    """The sequence laid out at its reading: every wild at its place, scored in order."""
    suit = reading.suit
    labels = PLACE_LABEL[suit]
    laid: dict[int, tuple[_AtItsPlace, CardValue]] = {}  # place -> the card there, what it scores
    for e, place in _free_places(parts, reading):
        token = Token(e.token.card, PLACE_CARD[suit][place])
        shown = wild_as(e.card_label, labels[place])
        laid[place] = (_AtItsPlace(token, f"{e.card_label}={labels[place]}", shown), wild_value_at(e, place, suit))
    ace_places = list(reading.aces)
    # Two aces (a 14-card sequence): a natural ace takes the low end, a wild one the high end.
    for e, rank in sorted(_SequenceCards.of(parts).fixed, key=lambda item: item[1] == ACE and item[0].wild):
        place = ace_places.pop(0) if rank == ACE else rank
        value = wild_value_at(e, place, suit) if e.wild else _natural_value(e)
        laid[place] = (
            _AtItsPlace(e.token, e.label, wild_as(e.card_label, e.named_label) if e.wild else e.label),
            value,
        )
    order = sorted(laid)
    ordered = [laid[p][0] for p in order]
    scored = [(laid[p][0].shown, laid[p][1]) for p in order]
    meaning = tuple(labels[p] for p in order)
    return laid_out("sequence", ordered, scored, suit=SUITS[suit], meaning=meaning, entered=parts.cards, note=note)


@dataclass(frozen=True, slots=True)
class _AtItsPlace:
    """A card of a sequence at its place: its token, how it prints, how it shows in a score line."""

    token: Token
    label: str
    shown: Msg | str


def two_points_at(place: int) -> int:
    """What a 2 scores standing at a sequence place (14 = high ace; the Q♠ too scores 10)."""
    if place in (LOW_ACE, HIGH_ACE):
        return 20
    if place >= 8:
        return 10
    return 5


def wild_value_at(e: Entered, place: int, suit: int) -> CardValue:
    """What a wild card scores standing at a sequence place of ``suit``."""
    if e.joker:
        return JOKER_MELDED
    return wild_value_at_place(place, suit)


def wild_value_at_place(place: int, suit: int) -> CardValue:
    """What a 2 scores standing at a sequence place of ``suit``."""
    if place == QUEEN and suit == SPADES:
        return TWO_AS_QUEEN_OF_SPADES
    if place == 2:
        return TWO_AS_TWO
    return TWO_AS_RANK[ACE if place == HIGH_ACE else place]


# --------------------------------------------------------------------------------------------
# What the explanation says of the reading taken, and the errors.


def _describe(parts: _Parts, reading: _Reading, mixed: bool) -> Msg:
    """A reading in words: "as a set of kings"; "with JK as J♠" (what each free wild stands for) or,
    beside a set reading, "as the sequence J♠–K♠"."""
    if reading.is_set:
        return msg("as a set of {ranks}", ranks=ranks(reading.rank))
    if mixed:
        return msg("as the sequence {span}", span=_span(reading))
    return msg("with {wilds}", wilds=_wilds_placed(parts, reading))


def _described(parts: _Parts, reading: _Reading, mixed: bool) -> Msg | str:
    """``_describe`` without its "as" or "with": "a set of kings", "the sequence J♠–K♠", "JK as J♠"."""
    if reading.is_set:
        return msg("a set of {ranks}", ranks=ranks(reading.rank))
    if mixed:
        return msg("the sequence {span}", span=_span(reading))
    return _wilds_placed(parts, reading)


def _span(reading: _Reading) -> str:
    """A sequence reading's first and last cards: "J♠–K♠"."""
    labels = PLACE_LABEL[reading.suit]
    return f"{labels[reading.low]}–{labels[reading.low + reading.n - 1]}"


def _wilds_placed(parts: _Parts, reading: _Reading) -> Msg | str:
    """What each free wild stands for in a sequence reading: "2♥ as itself, JK as J♠"; where only
    the end an ace takes differs, "the ace high" or "the ace low"."""
    labels = PLACE_LABEL[reading.suit]
    wilds = [
        msg("{card} as itself", card=e.card_label)
        if place == 2 and e.suit == reading.suit
        else wild_as(e.card_label, labels[place])
        for e, place in sorted(_free_places(parts, reading), key=lambda item: item[1])
    ]
    if wilds:
        return listed(wilds)
    return msg("the ace high") if HIGH_ACE in reading.aces else msg("the ace low")


def _distinct(readings: list[_Reading]) -> list[_Reading]:
    """One reading for each meaning, in canonical order."""
    seen: dict[tuple[object, ...], _Reading] = {}
    for r in sorted(readings, key=_canonical):
        seen.setdefault(r.meaning, r)
    return list(seen.values())


def _mixed(readings: list[_Reading]) -> bool:
    return any(r.is_set for r in readings) and not all(r.is_set for r in readings)


def _reading_note(parts: _Parts, readings: list[_Reading], best: _Reading) -> Msg | str:
    """Which reading was taken: where the cards allow several that score the same, or where an
    unnamed 2 of a sequence's suit stands for another card (""  when the labels say it all)."""
    distinct = _distinct(readings)
    cards = " ".join(labels_of(parts.cards))
    if len(distinct) == 1:
        return _two_not_itself(parts, best)
    mixed = _mixed(distinct)
    others = [r for r in distinct if r.meaning != best.meaning]
    shown: list[Param]
    if mixed:  # a set and sequences: the sequences by their span
        spans: list[Param] = [_span(r) for r in others if not r.is_set]
        shown = [_describe(parts, r, True) for r in others if r.is_set]
        if spans:
            shown.append(msg("as the sequence {span}", span=either(spans[:3] + (["…"] if len(spans) > 3 else []))))
    else:
        shown = [_describe(parts, r, False) for r in others[:2]]
        if len(others) > 2:
            shown.append(nmsg("{n} other way", "{n} other ways", len(others) - 2))
    return msg(
        "{cards}: taken {taken}; {others} it scores the same ({points})",
        cards=cards,
        taken=_describe(parts, best, mixed),
        others=either(shown),
        points=best.points,
    )


def _two_not_itself(parts: _Parts, reading: _Reading) -> Msg | str:
    """An unnamed 2 of the sequence's suit that can only stand for another card, next to K-A."""
    if reading.is_set:
        return ""
    for e, place in _free_places(parts, reading):
        if e.suit == reading.suit and place != 2 and HIGH_ACE in reading.aces:
            return two_not_itself_note(parts.cards, e, PLACE_LABEL[reading.suit][place])
    return ""


def two_not_itself_note(cards: Sequence[Entered], two: Entered, stands_for: str) -> Msg:
    """The note of a sequence where an unnamed 2 of its suit stands for another card, next to K-A."""
    return msg(
        "{cards}: the {two} stands for {card}, the only card it can be here "
        "(as itself it would go round the corner, K-A-2)",
        cards=" ".join(labels_of(cards)),
        two=two.card_label,
        card=stands_for,
    )


def _name_the_wilds(parts: _Parts, readings: list[_Reading]) -> RecordError:
    """The legal readings score differently: the wild cards must be named (RULES.md §1, readings)."""
    by_points: dict[int, _Reading] = {}
    for r in sorted(readings, key=_canonical):
        by_points.setdefault(r.points, r)
    shown = list(by_points.values())
    ordered = sorted(readings, key=_canonical)
    example = _naming_example(parts, next(r for r in ordered if not r.is_set))  # a set has one reading
    cards = labels_of(parts.cards)
    fixes = tuple(Fix(names=_named(parts, r), points=r.points) for r in shown)
    if any(r.is_set for r in shown):
        options = [_scoring(_described(parts, r, True), r) for r in shown]
        message = msg(
            "{cards} could be {options}: these score differently, so name the wild cards (like {example})",
            cards=" ".join(cards),
            options=either(options),
            example=example,
        )
        return replace(_error(message, N_("wild cards: name the card"), SRC_READINGS, cards), fixes=fixes)
    if len({(r.aces, r.low) for r in shown}) == 1:
        return _joker_must_be_named(parts, shown[0])
    free = parts.free
    jokers = sum(1 for e in free if e.joker)
    if jokers and len(free) > 1:  # say where the Joker stands in each
        options = [_scoring(_described(parts, r, False), r) for r in shown]
    else:
        options = [_scoring(_open_places_text(parts, r), r) for r in shown]
    args: dict[str, Param] = {
        "wilds": " ".join(e.card_label for e in free),
        "options": either(options),
        "example": example,
    }
    if not jokers:
        message = msg(
            "a 2 in a sequence must name the card it stands for: {wilds} could be {options}, which score "
            "differently; write it like {example}",
            **args,
        )
    elif len(free) == 1:
        message = msg(
            "the Joker in a sequence must name the card it stands for: {wilds} could be {options}, which "
            "score differently; write it like {example}",
            **args,
        )
    else:
        message = msg(
            "a wild card in a sequence must name the card it stands for: {wilds} could be {options}, which "
            "score differently; write it like {example}",
            **args,
        )
    error = _error(message, N_("wild cards: name the card"), SRC_JOKER_NAME if jokers else SRC_WILD_SEQ, cards)
    return replace(error, fixes=fixes)


def _named(parts: _Parts, reading: _Reading) -> tuple[str, ...]:
    """Every free wild card named as ``reading`` takes it (``2C=7H``; in a set, a card of its rank
    in the suit of its first natural card): entered so, the meld has this reading's points."""
    if reading.is_set:
        code = set_card_code(next((e for e in parts.cards if not e.free), None), reading.rank)
        return tuple(f"{e.card_code}={code}" for e in parts.free)
    return tuple(f"{e.card_code}={PLACE_CODE[reading.suit][place]}" for e, place in _free_places(parts, reading))


def set_card_code(first: Entered | None, rank: int) -> str:
    """The card a wild card of a set of ``rank`` is named as: of that rank, in the suit of the
    set's first card that is not a free wild (spades where there is none)."""
    suit = 0 if first is None else first.named_suit if first.wild else first.suit
    return PLACE_CODE[suit][rank]


def _scoring(reading: Param, r: _Reading) -> Msg:
    """A reading with what it scores: "a set of kings (45)"."""
    return msg("{reading} ({points})", reading=reading, points=r.points)


def _open_places_text(parts: _Parts, reading: _Reading) -> Msg | str:
    """The cards the free wilds stand for in a reading ("7♥ 8♥"; "itself" for a lone 2 of the suit)."""
    if reading.own_two and len(parts.free) == 1:
        return msg("itself")
    return " ".join(PLACE_LABEL[reading.suit][p] for p in reading.open_places)


def _naming_example(parts: _Parts, reading: _Reading) -> str:
    """A free wild card (the Joker first) named as this sequence reading takes it (``JK=3H``)."""
    placed = _free_places(parts, reading)
    e, place = next((item for item in placed if item[0].joker), min(placed, key=lambda item: item[1]))
    return f"{e.card_code}={PLACE_CODE[reading.suit][place]}"


def _joker_must_be_named(parts: _Parts, reading: _Reading) -> RecordError:
    """The Joker and 2s fill places that score differently as a 2: the Joker must be named."""
    open_places = reading.open_places
    shown = " ".join(PLACE_LABEL[reading.suit][p] for p in open_places)
    jokers = [e for e in parts.free if e.joker]
    twos = [e for e in parts.free if not e.joker]
    message = msg(
        "the Joker and the 2 fill {cards}, which score differently as a 2: name the card the Joker stands "
        "for (like JK={code})",
        cards=shown,
        code=PLACE_CODE[reading.suit][open_places[-1]],
    )
    return _error(
        message,
        N_("wild cards: name the card"),
        SRC_JOKER_NAME,
        labels_of(jokers) + labels_of(twos),
    )


def _no_reading(parts: _Parts) -> MeldCheck:
    """No legal reading: say why, for the kind of meld the natural and named cards point to."""
    cards = list(parts.cards)
    if len(parts.ranks) == 1:
        message = msg("a set has at most 4 cards, wild cards included, not {n}", n=len(cards))
        return _rejected([_error(message, N_("set: at most 4 cards"), "S0", labels_of(cards))], "set", cards)
    if len(parts.suits) == 1:
        return _rejected(_why_not_a_sequence(parts, next(iter(parts.suits))), "sequence", cards)
    return _not_a_meld(parts)


def _why_not_a_sequence(parts: _Parts, suit: int) -> list[RecordError]:
    cards = list(parts.cards)
    n = len(cards)
    if n > 14:
        message = msg("a sequence has at most 14 cards (A to K to A), not {n}", n=n)
        return [_error(message, N_("sequence: at most 14 cards"), "S0", labels_of(cards))]
    seq = _SequenceCards.of(parts)
    if seq.clash():
        return _place_clashes(seq, suit)
    if len(seq.aces) == 2:
        message = msg(
            "{aces}: a sequence holds two aces only when it runs from ace to ace, all 14 cards (A-2-…-K-A); "
            "this one has {n}",
            aces=either(labels_of(seq.aces), "and"),
            n=n,
        )
        return [_error(message, N_("sequence: ace high or low"), SRC_SEQUENCE, labels_of(seq.aces))]
    ranks_held = seq.ranks_held()
    if ACE in ranks_held and goes_round_the_corner(ranks_held, n):
        return [
            _error(
                msg("a sequence never goes round the corner (K-A-2)"),
                N_("sequence: no round the corner"),
                SRC_CORNER,
                labels_of(cards),
            )
        ]
    best: list[int] | None = None
    for aces in seq.ace_options():
        places = sorted(seq.others + list(aces))
        missing = [p for p in range(places[0], places[-1] + 1) if p not in places]
        if best is None or len(missing) < len(best):
            best = missing
    assert best is not None
    message = _missing(" ".join(PLACE_LABEL[suit][p] for p in best), len(best), len(parts.free))
    return [
        _error(
            message,
            N_("sequence: in order"),
            SRC_SEQUENCE,
            labels_of(cards),
        )
    ]


def _missing(cards: str, missing: int, free: int) -> Msg:
    """ "not in sequence: 9♥ missing, and no wild card to fill it" (or 2 wild cards, to fill them)."""
    if not free:
        return nmsg(
            "not in sequence: {cards} missing, and no wild card to fill it",
            "not in sequence: {cards} missing, and no wild card to fill them",
            missing,
            cards=cards,
        )
    if missing == 1:
        return nmsg(
            "not in sequence: {cards} missing, and {wilds} wild card to fill it",
            "not in sequence: {cards} missing, and {wilds} wild cards to fill it",
            free,
            cards=cards,
            wilds=free,
        )
    return nmsg(
        "not in sequence: {cards} missing, and {wilds} wild card to fill them",
        "not in sequence: {cards} missing, and {wilds} wild cards to fill them",
        free,
        cards=cards,
        wilds=free,
    )


def _place_clashes(seq: _SequenceCards, suit: int) -> list[RecordError]:
    """Each place of a sequence holds one card; at most two aces (both ends of A…K…A)."""
    errors = []
    for rank, group in sorted(seq.by_rank.items()):
        if len(group) > 1:
            message = msg(
                "{card} is in the sequence {n} times: each card of a sequence holds its own place",
                card=PLACE_LABEL[suit][rank],
                n=len(group),
            )
            errors.append(_error(message, N_("sequence: each place once"), SRC_SEQUENCE, labels_of(group)))
    if len(seq.aces) > 2:
        message = msg(
            "{n} aces: a sequence holds at most two (A-2-3… and …Q-K-A in a 14-card sequence)", n=len(seq.aces)
        )
        errors.append(_error(message, N_("sequence: each place once"), SRC_SEQUENCE, labels_of(seq.aces)))
    return errors


def _not_a_meld(parts: _Parts) -> MeldCheck:
    """Neither one rank nor one suit: say which wild is at fault when the natural cards agree."""
    cards = list(parts.cards)
    natural_ranks = {e.rank for e in parts.naturals}
    natural_suits = {e.suit for e in parts.naturals}
    errors: list[RecordError] = []
    if parts.naturals and len(natural_ranks) == 1:
        rank = natural_ranks.pop()
        for e in parts.named:
            if e.named_rank != rank:
                message = msg(
                    "in a set of {ranks} a wild card must stand for {a_rank}, not {card}",
                    ranks=ranks(rank),
                    a_rank=a_rank(rank),
                    card=e.named_label,
                )
                errors.append(_error(message, N_("set: one rank"), SRC_SET, [e.label]))
        return _rejected(errors, "set", cards)
    if parts.naturals and len(natural_suits) == 1:
        suit = natural_suits.pop()
        symbol = SUITS[suit].symbol
        for e in parts.named:
            if e.named_suit != suit:
                message = msg(
                    "in a {suit} sequence a wild card must stand for a {suit} card, not {card}",
                    suit=symbol,
                    card=e.named_label,
                )
                errors.append(_error(message, N_("sequence: one suit"), SRC_SEQUENCE, [e.label]))
        return _rejected(errors, "sequence", cards)
    message = msg("not a meld: a set is cards of one rank, a sequence cards of one suit in order")
    return _rejected([_error(message, N_("meld"), SRC_MELD, labels_of(cards))])


def goes_round_the_corner(ranks_held: set[int], n: int) -> bool:
    """Do these ranks (ace as 1) only fit in n cards by going round the corner (K-A-2)?"""
    for cut in range(1, 13):
        shifted = sorted(r + 13 if r <= cut else r for r in ranks_held)
        if shifted[0] <= 13 and shifted[-1] >= 15 and shifted[-1] - shifted[0] + 1 <= n:
            return True
    return False
