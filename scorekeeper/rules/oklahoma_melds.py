"""One Oklahoma meld: is it a legal set or sequence, what each wild card stands for, what it scores.

``check_meld`` is usable alone (the web app checks each meld while a player types it). A set is
3–4 cards of one rank, wilds included (S0; S1 law 7); a sequence 3–14 cards of one suit in order,
ace high or low, never round the corner (S0; S1 laws 7, 11). Every 2 and the Joker are wild
(S0; S1 laws 8, 9) and may name their card after '='.

Card text is parsed once per distinct token into an ``Entered`` card of plain ints and strings,
so checking a meld never parses, prints or hashes a card again; verdicts are values and are cached.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import combinations
from operator import attrgetter

from .cards import ACE, JOKER, PACK_52, QUEEN, SUITS, Card, CardError, Suit, Token, parse_token
from .errors import RecordError
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
from .results import Line, make_line, positional_maker
from .words import a_rank, either, plural, ranks

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
# The pack's limits counted at once (S0; S1 law 1): each card's count is a field of 9 bits in one
# int, the sum of its cards' weights (``PACK_WEIGHT``, by the card as printed). Adding 253 to a
# field (254 to the Joker's) carries into its top bit exactly when its count passes two (one for
# the Joker); with no more cards than the pack holds (105), no field's sum passes 511, so no carry
# reaches the next field.

_PACK_LABELS = tuple(card.label for card in (*PACK_52, JOKER))
PACK_WEIGHT: dict[str, int] = {label: 1 << (9 * i) for i, label in enumerate(_PACK_LABELS)}
_PAST_THE_LIMIT = sum((254 if label == "JK" else 253) << (9 * i) for i, label in enumerate(_PACK_LABELS))
_TOP_BITS = sum(256 << (9 * i) for i in range(len(_PACK_LABELS)))
PACK_SIZE = 2 * len(PACK_52) + 1


def within_the_pack(weight: int, count: int) -> bool:
    """Do ``count`` cards whose weights sum to ``weight`` keep to the pack: two of each card at
    most, one Joker, no more cards than the pack holds?"""
    return count <= PACK_SIZE and not (weight + _PAST_THE_LIMIT) & _TOP_BITS


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
        "line",
        "weight",
    )

    def __init__(self, token: Token) -> None:
        card, named = token.card, token.stands_for
        self.token = token
        self.label = token.label  # '2♣=7♥'
        self.card_label = card.label  # '2♣'
        self.card_code = card.code  # '2C'
        self.weight = PACK_WEIGHT[self.card_label]  # its count in the pack's limits
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
        self.shown = self.label
        self.melded: CardValue | None = self.value
        if self.wild and self.named_rank:
            self.shown = f"{self.card_label} as {self.named_label}"
            self.melded = _named_wild_value(self.joker, self.named_rank, self.named_suit)
        melded = self.melded
        # Its score line alone ("7♥ melded"), as ``score_lines`` writes it (None for a free wild).
        self.line: Line | None = None
        if melded is not None:
            self.line = make_line(self.shown + " melded", melded.points, melded.rule, melded.source, melded.basis)


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


class _AtPlace:
    """An unnamed wild card where a reading puts it, as ``_fixed_lines`` and ``_laid_out`` read an
    ``Entered``: its token and printed card, how it shows in a score line and what it scores there."""

    __slots__ = ("token", "label", "card_label", "shown", "melded", "line")

    def __init__(self, token: Token, label: str, shown: str, melded: CardValue) -> None:
        self.token = token
        self.label = label
        self.card_label = token.card.label
        self.shown = shown
        self.melded = melded
        self.line = make_line(shown + " melded", melded.points, melded.rule, melded.source, melded.basis)


_ENTERED: dict[str, Entered | CardError] = {}
_CARDS: dict[str, Entered] = {}  # the texts of _ENTERED that are cards
_HELD: dict[str, Entered] = {}  # the texts of _ENTERED whose card names nothing: what a hand may hold
_CACHE_LIMIT = 16384  # parsed cards and meld verdicts kept (an import of many games meets many melds)


def entered(raw: object) -> Entered:
    """The parsed card of a token (``'2C=7H'``, a Token or a Card); raise CardError."""
    if isinstance(raw, Token):
        return Entered(raw)
    if isinstance(raw, Card):
        return Entered(Token(raw))
    if type(raw) is not str:
        return Entered(parse_token(raw))  # not text: parse_token raises the CardError that says so
    hit = _ENTERED.get(raw)
    if hit is None:
        try:
            hit = Entered(parse_token(raw))
        except CardError as exc:
            hit = exc
        if len(_ENTERED) >= _CACHE_LIMIT:
            _ENTERED.clear()
            _CARDS.clear()
            _HELD.clear()
        _ENTERED[raw] = hit
        if type(hit) is Entered:
            _CARDS[raw] = hit
            if not hit.named_rank:
                _HELD[raw] = hit
    if isinstance(hit, Entered):
        return hit
    raise hit


def known_card(raw: object) -> Entered | None:
    """The parsed card of a token text seen before (None: not seen, or not a card: ask ``entered``)."""
    hit = _ENTERED.get(raw) if type(raw) is str else None
    return hit if type(hit) is Entered else None


def labels_of(cards: Sequence[Entered]) -> list[str]:
    return [e.label for e in cards]


# --------------------------------------------------------------------------------------------
# The verdict.


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
    meaning: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()  # ``cards`` printed ('2♣=7♥')
    note: str = ""  # which reading was taken, where the cards allow several that score the same
    card_labels: tuple[str, ...] = ()  # the cards entered, as printed without what they stand for ('2♣')


_make_meld_check = positional_maker(MeldCheck)  # every field, in order: for the hot paths


def _laid_out(
    kind: str,
    ordered: Sequence[Entered],
    points: int,
    lines: tuple[Line, ...],
    rank: int | None,
    suit: Suit | None,
    meaning: tuple[str, ...],
    entered: Sequence[Entered],
) -> MeldCheck:
    """A legal meld laid out as ``ordered`` (its tokens and printed cards in that order), no note;
    ``entered``: its cards as the player entered them."""
    return _make_meld_check(
        True,
        kind,
        tuple([e.token for e in ordered]),
        points,
        lines,
        (),
        rank,
        suit,
        meaning,
        tuple([e.label for e in ordered]),
        "",
        tuple([e.card_label for e in entered]),
    )


def _error(message: str, rule: str, source: str, cards: Sequence[str] = ()) -> RecordError:
    return RecordError(message, rule=rule, source=source, cards=tuple(cards))


def _rejected(errors: list[RecordError], kind: str | None = None, cards: Sequence[Entered] = ()) -> MeldCheck:
    return MeldCheck(
        False,
        kind,
        tuple(e.token for e in cards),
        0,
        (),
        tuple(errors),
        labels=tuple(e.label for e in cards),
        card_labels=tuple(e.card_label for e in cards),
    )


def score_lines(scored: list[tuple[str, CardValue]]) -> tuple[int, tuple[Line, ...]]:
    """Group (shown as, value) pairs into cited lines, in order of first appearance."""
    return _lines([shown for shown, _ in scored], [value for _, value in scored])


_ONE_LINE: dict[tuple[str, CardValue], Line] = {}  # "7♥ melded": the line of one card, made once


def _fixed_lines(ordered: Sequence[Entered | _AtPlace]) -> tuple[int, tuple[Line, ...]]:
    """``score_lines`` of cards that each score and show as themselves or what they name (or, for
    an unnamed wild, as its ``_AtPlace`` says)."""
    groups: dict[CardValue, list[Entered | _AtPlace]] = {}
    for e in ordered:
        group = groups.get(e.melded)  # type: ignore[arg-type]
        if group is None:
            groups[e.melded] = [e]  # type: ignore[index]
        else:
            group.append(e)
    lines = []
    total = 0
    for value, cards in groups.items():
        n = len(cards)
        if n == 1:
            lines.append(cards[0].line)
            total += value.points
        else:
            lines.append(_group_line([e.shown for e in cards], value))
            total += value.points * n
    return total, tuple(lines)  # type: ignore[arg-type]


def _lines(shown: list[str], values: list[CardValue]) -> tuple[int, tuple[Line, ...]]:
    """``score_lines`` of the cards shown as ``shown`` scoring ``values`` (two lists in step)."""
    groups: dict[CardValue, list[str]] = {}
    for text, value in zip(shown, values, strict=True):
        group = groups.get(value)
        if group is None:
            groups[value] = [text]
        else:
            group.append(text)
    lines = []
    total = 0
    for value, texts in groups.items():
        n = len(texts)
        unit = value.points
        if n == 1:
            key = (texts[0], value)
            line = _ONE_LINE.get(key)
            if line is None:
                if len(_ONE_LINE) >= _CACHE_LIMIT:
                    _ONE_LINE.clear()
                line = _ONE_LINE[key] = make_line(texts[0] + " melded", unit, value.rule, value.source, value.basis)
            lines.append(line)
            total += unit
        else:
            lines.append(_group_line(texts, value))
            total += unit * n
    return total, tuple(lines)


_GROUP_LINE: dict[tuple[object, ...], Line] = {}  # "Q♥ Q♦ melded (2 × 10)": made once


def _group_line(texts: list[str], value: CardValue) -> Line:
    """The one line of several cards that score the same: "Q♥ Q♦ melded (2 × 10)"."""
    key = (value, *texts)
    line = _GROUP_LINE.get(key)
    if line is None:
        n, unit = len(texts), value.points
        sep = ", " if " " in texts[0] else " "
        text = f"{sep.join(texts)} melded ({n} × {unit})"
        if len(_GROUP_LINE) >= _CACHE_LIMIT:
            _GROUP_LINE.clear()
        line = _GROUP_LINE[key] = make_line(text, unit * n, value.rule, value.source, value.basis)
    return line


# --------------------------------------------------------------------------------------------
# check_meld: parse, find every legal reading, take it when they all score the same.
#
# A reading says what each unnamed wild card stands for: the meld as a set of one rank, or as a
# sequence with each card at a place 1..14 (an ace at 1 or 14). RULES.md §1 (readings, a ruling):
# the wild cards must be named only when the legal readings score differently; otherwise the
# first reading in a fixed order is taken (a set before a sequence; an unnamed 2 of the
# sequence's suit in its own place; ace low; lowest first; the Joker at the highest open place),
# and the verdict's ``note`` says which was taken.

# Each verdict with the weight of its cards in the pack's limits (``within_the_pack``; 0 for a meld
# refused).
_VERDICTS: dict[tuple[Hashable, ...], tuple[MeldCheck, int]] = {}


def verdict_key(rules: OklahomaRules) -> object:
    """What of the rules a meld's verdict depends on, first in its key in ``_VERDICTS``: True when
    the game has the Joker, else where the rule without it comes from (its error cites it)."""
    return True if rules.joker else rules.cite("joker").source


def check_meld(tokens: Sequence[str | Token | Card], rules: OklahomaRules) -> MeldCheck:
    """Check one meld as entered (any order) and score it as melded.

    Verdicts are values and depend on the tokens and the Joker knob only: they are cached.
    """
    try:
        key = (verdict_key(rules), *tokens)
        hit = _VERDICTS.get(key)
    except TypeError:  # something unhashable was entered: check it uncached
        return _check_meld(tokens, rules)
    return _unseen(key, tokens, rules)[0] if hit is None else hit[0]


# Legal verdicts with no note, and their weights, by the meld's cards in any order (``_unseen``):
# the key's first item (``verdict_key``), then the texts of the cards sorted.
_SAME_CARDS: dict[tuple[Hashable, ...], tuple[MeldCheck, int]] = {}


def _unseen(key: tuple[Hashable, ...], tokens: Sequence[object], rules: OklahomaRules) -> tuple[MeldCheck, int]:
    """``check_meld`` of a meld not in ``_VERDICTS`` (``key``: its key there), kept there with the
    weight of its cards.

    A legal meld with no note is read the same whatever the order of its natural cards, and
    wherever its wild cards stand among them (a set lays out its natural cards by suit, then its
    wild cards as entered; a sequence lays out its cards by place; the same card entered twice is
    the same card): so when its wild cards are one text or none, the same texts in any order have
    the same verdict but for ``card_labels``, the cards as entered. They take it from
    ``_SAME_CARDS``, with their own ``card_labels``."""
    try:
        same: tuple[Hashable, ...] | None = (key[0], *sorted(tokens))  # type: ignore[type-var]
    except TypeError:  # not all text (cards, tokens), or something not to sort
        same = None
    found = _SAME_CARDS.get(same) if same is not None else None
    kept = None
    if found is not None:  # every text a card of that meld: parsed, unless the parsed cards were cleared
        try:
            card_labels = tuple([e.card_label for e in map(_CARDS.__getitem__, tokens)])  # type: ignore[arg-type]
        except KeyError:
            pass
        else:
            hit, weight = found
            if card_labels == hit.card_labels:
                kept = found
            else:
                copy = _make_meld_check(
                    True,
                    hit.kind,
                    hit.cards,
                    hit.points,
                    hit.lines,
                    (),
                    hit.rank,
                    hit.suit,
                    hit.meaning,
                    hit.labels,
                    "",
                    card_labels,
                )
                kept = (copy, weight)
    if kept is None:
        verdict = _check_meld(tokens, rules)
        kept = (verdict, sum(map(PACK_WEIGHT.__getitem__, verdict.card_labels)) if verdict.ok else 0)
        if same is not None and verdict.ok and not verdict.note and _order_free(tokens):
            if len(_SAME_CARDS) >= _CACHE_LIMIT:
                _SAME_CARDS.clear()
            _SAME_CARDS[same] = kept
    if len(_VERDICTS) >= _CACHE_LIMIT:
        _VERDICTS.clear()
    _VERDICTS[key] = kept
    return kept


def _order_free(tokens: Sequence[object]) -> bool:
    """Every token the text of a card parsed before, and the wild cards' texts one or none."""
    wild: object = None
    for raw in tokens:
        e = _ENTERED.get(raw) if type(raw) is str else None
        if type(e) is not Entered:
            return False
        if e.wild:
            if wild is not None and raw != wild:
                return False
            wild = raw
    return True


def clear_caches(parsed_cards: bool = True) -> None:
    """Forget every meld verdict and, unless told not to, every parsed card (for benchmarks and tests)."""
    if parsed_cards:
        _ENTERED.clear()
        _CARDS.clear()
        _HELD.clear()
    _VERDICTS.clear()
    _SAME_CARDS.clear()
    _ONE_LINE.clear()
    _GROUP_LINE.clear()


def _parse_meld(tokens: Sequence[object]) -> tuple[list[Entered], list[RecordError]]:
    try:  # every token the text of a card seen before
        return list(map(_CARDS.__getitem__, tokens)), []  # type: ignore[arg-type]
    except (KeyError, TypeError):  # not seen, not a card, not text: one by one
        pass
    cards: list[Entered] = []
    errors: list[RecordError] = []
    for raw in tokens:
        hit = _ENTERED.get(raw) if type(raw) is str else None
        if type(hit) is Entered:
            cards.append(hit)
            continue
        try:
            cards.append(entered(raw))
        except CardError as exc:
            errors.append(_error(exc.message, "card notation", SRC_NOTATION, [exc.token]))
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


def _prechecked(tokens: Sequence[object], rules: OklahomaRules) -> list[Entered] | MeldCheck:
    """The meld's cards parsed, or the verdict when they are not cards, too few or a Joker unplayed."""
    cards, errors = _parse_meld(tokens)
    if errors:
        return _rejected(errors)
    if not cards:
        return _rejected([_error("an empty meld: a meld is 3 or more cards", "meld", SRC_MELD)])
    if not rules.joker:
        jokers = [e for e in cards if e.joker]
        if jokers:
            cite = rules.cite("joker")
            message = "this game is played without the Joker"
            return _rejected([_error(message, "no Joker", cite.source, labels_of(jokers))])
    if len(cards) < 3:
        message = f"a meld needs at least 3 cards, not {len(cards)}"
        return _rejected([_error(message, "meld", SRC_MELD, labels_of(cards))])
    return cards


def _check_meld(tokens: Sequence[object], rules: OklahomaRules) -> MeldCheck:
    cards = _prechecked(tokens, rules)
    if isinstance(cards, MeldCheck):
        return cards
    laid = _shortcut(cards)
    return laid if laid is not None else _searched(cards)


def _check_meld_searched(tokens: Sequence[object], rules: OklahomaRules) -> MeldCheck:
    """``_check_meld`` with no shortcut: every meld through the search of its readings (for tests)."""
    cards = _prechecked(tokens, rules)
    return cards if isinstance(cards, MeldCheck) else _searched(cards)


def _shortcut(cards: list[Entered]) -> MeldCheck | None:
    """The verdict of a meld with one reading that is plain from its cards, laid out straight away
    as the search of the readings would; None for anything else (the search then decides).

    Those are a legal meld whose wild cards are all named (``_without_free_wilds``); a set of 3
    or 4 with an unnamed wild whose natural cards are of one rank and two suits or more (no
    sequence reading, one set reading, no note); and a sequence with one unnamed wild filling
    its one gap (``_one_wild_in_a_gap``)."""
    rank = -1
    mixed = False
    free: list[Entered] = []  # the unnamed wild cards
    suits = 0  # a bit for each suit of the natural cards
    for e in cards:
        if e.free:
            free.append(e)
        else:
            if e.place_rank != rank:
                mixed = rank >= 0
                rank = e.place_rank
            if not e.wild:
                suits |= 1 << e.suit
    if not free:
        return _without_free_wilds(cards)
    if mixed:  # a sequence, if anything (a meld of wild cards only is for the search to refuse)
        return _one_wild_in_a_gap(cards, free[0]) if len(free) == 1 and suits else None
    if rank < 0 or len(cards) > 4 or suits & (suits - 1) == 0:
        return None  # wilds only, too many for a set, or natural cards of one suit (a sequence too?)
    return _free_wilds_in_a_set(cards, rank)


def _one_wild_in_a_gap(cards: list[Entered], wild: Entered) -> MeldCheck | None:
    """A sequence with one unnamed wild card and cards of more than one rank, when every reading
    (``_sequence_readings``) puts the wild in the same place: it fills the one gap between the
    other cards, and the first reading is taken (ace low where a 13-card run allows either end).
    No set reading (more than one rank), so the note is only ``_two_not_itself``'s. None for
    anything else: the search decides."""
    n = len(cards)
    suit = cards[0].place_suit if cards[0] is not wild else cards[1].place_suit
    placed = _placed(cards, suit, wild)
    if placed is None or not placed[3]:
        return None
    row, aces, low, high, total = placed  # the other cards by place
    if not aces:
        options: tuple[tuple[int, ...], ...] = ((),)
    elif len(aces) == 1:
        options = ((LOW_ACE,), (HIGH_ACE,))
    elif len(aces) == 2:
        options = ((LOW_ACE, HIGH_ACE),)
        if aces[0].wild and not aces[1].wild:  # a natural ace takes the low end, a wild one the high end
            aces.reverse()
    else:
        return None
    # Each reading lays the n cards from a low end: the n - 1 other places (all distinct) lie in
    # it, so the gap is the one place of the n whose sum they lack.
    span = n * (n - 1) // 2
    taken: tuple[tuple[int, ...], int, int] | None = None  # the first reading: aces, low end, gap
    for option in options:
        first = LOW_ACE if LOW_ACE in option else low
        last = HIGH_ACE if HIGH_ACE in option else high
        held = total + sum(option)
        for start in range(max(1, last - n + 1), min(first, 15 - n) + 1):
            gap = start * n + span - held
            if taken is None:
                taken = (option, start, gap)
            elif gap != taken[2]:
                return None  # readings that mean other cards: the search compares them
    if taken is None:
        return None
    option, start, gap = taken  # where several, they differ in the end an ace takes only: the first
    for place, ace in zip(option, aces, strict=True):
        row[place] = ace
    row[gap] = _WILD_AT[wild.card_code][suit][gap]
    laid: list[Entered | _AtPlace] = row[start : start + n]  # type: ignore[assignment]
    points, lines = _fixed_lines(laid)
    note = ""
    if not wild.joker and wild.suit == suit and gap != 2 and HIGH_ACE in option:  # as _two_not_itself
        note = (
            f"{' '.join(labels_of(cards))}: the {wild.card_label} stands for {PLACE_LABEL[suit][gap]}, the only "
            "card it can be here (as itself it would go round the corner, K-A-2)"
        )
    return _make_meld_check(
        True,
        "sequence",
        tuple([e.token for e in laid]),
        points,
        lines,
        (),
        None,
        SUITS[suit],
        PLACE_LABEL[suit][start : start + n],
        tuple([e.label for e in laid]),
        note,
        tuple([e.card_label for e in cards]),
    )


def _free_wilds_in_a_set(cards: list[Entered], rank: int) -> MeldCheck:
    """``_laid_set`` of a set of ``rank`` with unnamed wild cards: each such wild scores and shows
    as ``_WILD_IN_SET`` says (a named one as itself, ``Entered.shown`` and ``.melded``)."""
    naturals = [e for e in cards if not e.wild]
    naturals.sort(key=_by_suit)
    wilds = [e for e in cards if e.wild]
    word = _A_RANK[rank]
    scored: list[Entered | _AtPlace] = [*naturals]
    meaning = [e.label for e in naturals]
    for e in wilds:
        if e.named_rank:
            scored.append(e)
            meaning.append(e.named_label)
        else:
            scored.append(_WILD_IN_SET[e.card_code][rank - 1])
            meaning.append(word)
    points, lines = _fixed_lines(scored)
    return _laid_out("set", naturals + wilds, points, lines, rank, None, tuple(meaning), cards)


def _searched(cards: list[Entered]) -> MeldCheck:
    """The verdict from every legal reading of the meld: taken when they all score the same."""
    parts = _Parts.of(cards)
    if not parts.naturals and parts.free:
        message = "a meld of wild cards only must name what each card stands for (like 2C=7H)"
        return _rejected([_error(message, "wild cards", SRC_WILD, labels_of(parts.free))], cards=cards)
    readings = _set_readings(parts) + _sequence_readings(parts)
    if not readings:
        return _no_reading(parts)
    if len({r.points for r in readings}) > 1:
        return _rejected([_name_the_wilds(parts, readings)], _kind_of(readings), cards)
    best = min(readings, key=_canonical)
    laid = _laid_set(parts.cards, best.rank) if best.is_set else _laid_sequence(parts, best)
    return _make_meld_check(  # the laid meld with the note of the reading taken, the cards as entered
        laid.ok,
        laid.kind,
        laid.cards,
        laid.points,
        laid.lines,
        laid.errors,
        laid.rank,
        laid.suit,
        laid.meaning,
        laid.labels,
        _reading_note(parts, readings, best),
        tuple([e.card_label for e in cards]),
    )


def _without_free_wilds(cards: list[Entered]) -> MeldCheck | None:
    """A meld whose wild cards are all named has one reading at most (a 13-card sequence's ace high
    or low stands for the same cards): lay it out straight away, as the search of the readings
    would. None when it is not a legal meld: the search then says why.

    Each card scores and shows as itself or what it names (``Entered.melded``, ``.shown``)."""
    n = len(cards)
    rank = cards[0].place_rank
    for e in cards:
        if e.place_rank != rank:
            break
    else:
        if n > 4:
            return None
        # A set: the natural cards by suit, then the wild cards as entered.
        naturals = [e for e in cards if not e.wild]
        if len(naturals) < n:
            naturals.sort(key=_by_suit)
            ordered = naturals + [e for e in cards if e.wild]
            meaning = tuple([e.named_label if e.wild else e.label for e in ordered])
        else:
            ordered = sorted(cards, key=_by_suit)
            meaning = tuple([e.label for e in ordered])
        points, lines = _fixed_lines(ordered)
        return _laid_out("set", ordered, points, lines, rank, None, meaning, cards)
    # A sequence: each card at its place in one suit (``row``), its aces apart (low or high end).
    suit = cards[0].place_suit
    placed = _placed(cards, suit)
    if placed is None:
        return None
    row, aces, low, high, _ = placed
    if high - low + 1 != n - len(aces):  # a gap between the places (all distinct), or no place
        return None
    ordered = row[low : high + 1]  # type: ignore[assignment]
    if not aces:
        pass
    elif len(aces) == 1:
        if high == n:  # A-2-…: ace low, taken first where both ends fit (the same cards)
            ordered.insert(0, aces[0])
            low = LOW_ACE
        elif low != 15 - n:  # not …-Q-K-A either
            return None
        else:
            ordered.append(aces[0])
    elif len(aces) == 2 and n == 14:  # A-2-…-K-A: a natural ace low, a wild one high
        ace_low, ace_high = sorted(aces, key=_by_wild)
        ordered = [ace_low, *ordered, ace_high]
        low = LOW_ACE
    else:
        return None
    points, lines = _fixed_lines(ordered)
    return _laid_out("sequence", ordered, points, lines, None, SUITS[suit], PLACE_LABEL[suit][low : low + n], cards)


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


def _laid_set(cards: Sequence[Entered], rank: int) -> MeldCheck:
    naturals = sorted((e for e in cards if not e.wild), key=_by_suit)
    wilds = [e for e in cards if e.wild]
    scored: list[tuple[str, CardValue]] = [(e.label, _natural_value(e)) for e in naturals]
    meaning = [e.label for e in naturals]
    two_value = TWO_AS_TWO if rank == 2 else TWO_AS_RANK[rank]
    for e in wilds:
        if e.joker:
            value = JOKER_MELDED
        elif e.named_rank == QUEEN and e.named_suit == SPADES:
            value = TWO_AS_QUEEN_OF_SPADES
        else:
            value = two_value
        if e.named_rank:
            scored.append((f"{e.card_label} as {e.named_label}", value))
            meaning.append(e.named_label)
        else:
            scored.append((f"{e.card_label} as {a_rank(rank)}", value))
            meaning.append(a_rank(rank))
    ordered = naturals + wilds
    points, lines = score_lines(scored)
    return _laid_out("set", ordered, points, lines, rank, None, tuple(meaning), cards)


def _placed(
    cards: Sequence[Entered], suit: int, skip: Entered | None = None
) -> tuple[list[Entered | _AtPlace | None], list[Entered], int, int, int] | None:
    """A sequence's cards (but ``skip``) at their places in ``suit`` (a row of 15, by place), its aces
    apart (an ace may go low or high), and the lowest, highest and sum of the places taken (15, 0
    and 0 when none is); None when a card is of another suit or two take one place."""
    row: list[Entered | _AtPlace | None] = [None] * 15
    aces: list[Entered] = []
    low, high, total = 15, 0, 0
    for e in cards:
        if e is skip:
            continue
        if e.place_suit != suit:
            return None
        place = e.place_rank
        if place == ACE:
            aces.append(e)
        elif row[place] is not None:
            return None
        else:
            row[place] = e
            total += place
            if place < low:
                low = place
            if place > high:
                high = place
    return row, aces, low, high, total


_by_suit = attrgetter("suit")
_by_wild = attrgetter("wild")


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


def _laid_sequence(parts: _Parts, reading: _Reading) -> MeldCheck:
    """The sequence laid out at its reading: every wild at its place, scored in order."""
    suit = reading.suit
    labels = PLACE_LABEL[suit]
    laid: dict[int, tuple[Token, str, CardValue, str]] = {}  # place -> (token, printed, value, shown as)
    for e, place in _free_places(parts, reading):
        token = Token(e.token.card, PLACE_CARD[suit][place])
        shown = f"{e.card_label} as {labels[place]}"
        laid[place] = (token, f"{e.card_label}={labels[place]}", wild_value_at(e, place, suit), shown)
    ace_places = list(reading.aces)
    # Two aces (a 14-card sequence): a natural ace takes the low end, a wild one the high end.
    for e, rank in sorted(_SequenceCards.of(parts).fixed, key=lambda item: item[1] == ACE and item[0].wild):
        place = ace_places.pop(0) if rank == ACE else rank
        if e.wild:
            laid[place] = (e.token, e.label, wild_value_at(e, place, suit), f"{e.card_label} as {e.named_label}")
        else:
            laid[place] = (e.token, e.label, _natural_value(e), e.label)
    order = sorted(laid)
    points, lines = score_lines([(laid[p][3], laid[p][2]) for p in order])
    return MeldCheck(
        True,
        "sequence",
        tuple(laid[p][0] for p in order),
        points,
        lines,
        (),
        None,
        SUITS[suit],
        tuple(labels[p] for p in order),
        tuple(laid[p][1] for p in order),
    )


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


_WILD_CARDS = (Card(0), *(Card(2, suit) for suit in SUITS))  # the Joker and the four 2s


def _wild_at(card: Card, suit: int, place: int) -> _AtPlace:
    named = PLACE_CARD[suit][place]
    value = JOKER_MELDED if card.is_joker else wild_value_at_place(place, suit)
    return _AtPlace(Token(card, named), f"{card.label}={named.label}", f"{card.label} as {named.label}", value)


# An unnamed wild card standing at a sequence place: by its code ('2C', 'JK'), suit index and place.
_WILD_AT: dict[str, tuple[tuple[_AtPlace | None, ...], ...]] = {
    card.code: tuple(
        tuple(_wild_at(card, suit.index, place) if place else None for place in range(15)) for suit in SUITS
    )
    for card in _WILD_CARDS
}
_A_RANK: tuple[str, ...] = tuple(a_rank(rank) if rank else "" for rank in range(14))  # "a 7", by rank
# An unnamed wild card in a set, by its code and the set's rank less one: "2♣ as a 7" (a Joker
# scores 100, a 2 the rank's value).
_WILD_IN_SET: dict[str, tuple[_AtPlace, ...]] = {
    card.code: tuple(
        _AtPlace(
            Token(card),
            card.label,
            f"{card.label} as {_A_RANK[rank]}",
            JOKER_MELDED if card.is_joker else TWO_AS_TWO if rank == 2 else TWO_AS_RANK[rank],
        )
        for rank in range(1, 14)
    )
    for card in _WILD_CARDS
}


# --------------------------------------------------------------------------------------------
# What the explanation says of the reading taken, and the errors.


def _describe(parts: _Parts, reading: _Reading, mixed: bool) -> str:
    """A reading in words: "as a set of kings"; "with JK as J♠" (what each free wild stands for) or,
    beside a set reading, "as the sequence J♠–K♠"."""
    if reading.is_set:
        return f"as a set of {ranks(reading.rank)}"
    labels = PLACE_LABEL[reading.suit]
    if mixed:
        return f"as the sequence {labels[reading.low]}–{labels[reading.low + reading.n - 1]}"
    wilds = [
        f"{e.card_label} as itself" if place == 2 and e.suit == reading.suit else f"{e.card_label} as {labels[place]}"
        for e, place in sorted(_free_places(parts, reading), key=lambda item: item[1])
    ]
    if not wilds:  # only the end an ace takes differs
        return f"with the ace {'high' if HIGH_ACE in reading.aces else 'low'}"
    return "with " + ", ".join(wilds)


def _distinct(readings: list[_Reading]) -> list[_Reading]:
    """One reading for each meaning, in canonical order."""
    seen: dict[tuple[object, ...], _Reading] = {}
    for r in sorted(readings, key=_canonical):
        seen.setdefault(r.meaning, r)
    return list(seen.values())


def _mixed(readings: list[_Reading]) -> bool:
    return any(r.is_set for r in readings) and not all(r.is_set for r in readings)


def _reading_note(parts: _Parts, readings: list[_Reading], best: _Reading) -> str:
    """Which reading was taken: where the cards allow several that score the same, or where an
    unnamed 2 of a sequence's suit stands for another card (""  when the labels say it all)."""
    distinct = _distinct(readings)
    cards = " ".join(labels_of(parts.cards))
    if len(distinct) == 1:
        return _two_not_itself(parts, best)
    mixed = _mixed(distinct)
    others = [r for r in distinct if r.meaning != best.meaning]
    if mixed:  # a set and sequences: the sequences by their span
        spans = [_describe(parts, r, True).removeprefix("as the sequence ") for r in others if not r.is_set]
        shown = [_describe(parts, r, True) for r in others if r.is_set]
        if spans:
            shown.append("as the sequence " + either(spans[:3] + (["…"] if len(spans) > 3 else [])))
    else:
        shown = [_describe(parts, r, False) for r in others[:2]]
        if len(others) > 2:
            shown.append(plural(len(others) - 2, "other way"))
    return f"{cards}: taken {_describe(parts, best, mixed)}; {either(shown)} it scores the same ({best.points})"


def _two_not_itself(parts: _Parts, reading: _Reading) -> str:
    """An unnamed 2 of the sequence's suit that can only stand for another card, next to K-A."""
    if reading.is_set:
        return ""
    for e, place in _free_places(parts, reading):
        if e.suit == reading.suit and place != 2 and HIGH_ACE in reading.aces:
            label = PLACE_LABEL[reading.suit][place]
            return (
                f"{' '.join(labels_of(parts.cards))}: the {e.card_label} stands for {label}, the only card it can be "
                "here (as itself it would go round the corner, K-A-2)"
            )
    return ""


def _name_the_wilds(parts: _Parts, readings: list[_Reading]) -> RecordError:
    """The legal readings score differently: the wild cards must be named (RULES.md §1, readings)."""
    by_points: dict[int, _Reading] = {}
    for r in sorted(readings, key=_canonical):
        by_points.setdefault(r.points, r)
    shown = list(by_points.values())
    ordered = sorted(readings, key=_canonical)
    example = _naming_example(parts, next(r for r in ordered if not r.is_set))  # a set has one reading
    if any(r.is_set for r in shown):
        options = [f"{_describe(parts, r, True).removeprefix('as ')} ({r.points})" for r in shown]
        return _error(
            f"{' '.join(labels_of(parts.cards))} could be {either(options)}: these score differently, "
            f"so name the wild cards (like {example})",
            "wild cards: name the card",
            SRC_READINGS,
            labels_of(parts.cards),
        )
    if len({(r.aces, r.low) for r in shown}) == 1:
        return _joker_must_be_named(parts, shown[0])
    free = parts.free
    what = "a 2" if not any(e.joker for e in free) else ("the Joker" if len(free) == 1 else "a wild card")
    if any(e.joker for e in free) and len(free) > 1:  # say where the Joker stands in each
        options = [f"{_describe(parts, r, False).removeprefix('with ')} ({r.points})" for r in shown]
    else:
        options = [f"{_open_places_text(parts, r)} ({r.points})" for r in shown]
    return _error(
        f"{what} in a sequence must name the card it stands for: "
        f"{' '.join(e.card_label for e in free)} could be {either(options)}, which score differently; "
        f"write it like {example}",
        "wild cards: name the card",
        SRC_WILD_SEQ if what == "a 2" else SRC_JOKER_NAME,
        labels_of(parts.cards),
    )


def _open_places_text(parts: _Parts, reading: _Reading) -> str:
    """The cards the free wilds stand for in a reading ("7♥ 8♥"; "itself" for a lone 2 of the suit)."""
    if reading.own_two and len(parts.free) == 1:
        return "itself"
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
    return _error(
        f"the Joker and the 2 fill {shown}, which score differently as a 2: name the "
        f"card the Joker stands for (like JK={PLACE_CODE[reading.suit][open_places[-1]]})",
        "wild cards: name the card",
        SRC_JOKER_NAME,
        labels_of(jokers) + labels_of(twos),
    )


def _no_reading(parts: _Parts) -> MeldCheck:
    """No legal reading: say why, for the kind of meld the natural and named cards point to."""
    cards = list(parts.cards)
    if len(parts.ranks) == 1:
        message = f"a set has at most 4 cards, wild cards included, not {len(cards)}"
        return _rejected([_error(message, "set: at most 4 cards", "S0", labels_of(cards))], "set", cards)
    if len(parts.suits) == 1:
        return _rejected(_why_not_a_sequence(parts, next(iter(parts.suits))), "sequence", cards)
    return _not_a_meld(parts)


def _why_not_a_sequence(parts: _Parts, suit: int) -> list[RecordError]:
    cards = list(parts.cards)
    n = len(cards)
    if n > 14:
        message = f"a sequence has at most 14 cards (A to K to A), not {n}"
        return [_error(message, "sequence: at most 14 cards", "S0", labels_of(cards))]
    seq = _SequenceCards.of(parts)
    if seq.clash():
        return _place_clashes(seq, suit)
    if len(seq.aces) == 2:
        message = (
            f"{' and '.join(e.label for e in seq.aces)}: a sequence holds two aces only when it runs from "
            f"ace to ace, all 14 cards (A-2-…-K-A); this one has {n}"
        )
        return [_error(message, "sequence: ace high or low", SRC_SEQUENCE, labels_of(seq.aces))]
    ranks_held = seq.ranks_held()
    if ACE in ranks_held and goes_round_the_corner(ranks_held, n):
        return [
            _error(
                "a sequence never goes round the corner (K-A-2)",
                "sequence: no round the corner",
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
    shown = " ".join(PLACE_LABEL[suit][p] for p in best)
    free = len(parts.free)
    wilds = plural(free, "wild card") if free else "no wild card"
    return [
        _error(
            f"not in sequence: {shown} missing, and {wilds} to fill {'them' if len(best) > 1 else 'it'}",
            "sequence: in order",
            SRC_SEQUENCE,
            labels_of(cards),
        )
    ]


def _place_clashes(seq: _SequenceCards, suit: int) -> list[RecordError]:
    """Each place of a sequence holds one card; at most two aces (both ends of A…K…A)."""
    errors = []
    for rank, group in sorted(seq.by_rank.items()):
        if len(group) > 1:
            message = (
                f"{PLACE_LABEL[suit][rank]} is in the sequence {len(group)} times: each card of a "
                "sequence holds its own place"
            )
            errors.append(_error(message, "sequence: each place once", SRC_SEQUENCE, labels_of(group)))
    if len(seq.aces) > 2:
        message = f"{len(seq.aces)} aces: a sequence holds at most two (A-2-3… and …Q-K-A in a 14-card sequence)"
        errors.append(_error(message, "sequence: each place once", SRC_SEQUENCE, labels_of(seq.aces)))
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
                message = f"in a set of {ranks(rank)} a wild card must stand for {a_rank(rank)}, not {e.named_label}"
                errors.append(_error(message, "set: one rank", SRC_SET, [e.label]))
        return _rejected(errors, "set", cards)
    if parts.naturals and len(natural_suits) == 1:
        suit = natural_suits.pop()
        symbol = SUITS[suit].symbol
        for e in parts.named:
            if e.named_suit != suit:
                message = f"in a {symbol} sequence a wild card must stand for a {symbol} card, not {e.named_label}"
                errors.append(_error(message, "sequence: one suit", SRC_SEQUENCE, [e.label]))
        return _rejected(errors, "sequence", cards)
    message = "not a meld: a set is cards of one rank, a sequence cards of one suit in order"
    return _rejected([_error(message, "meld", SRC_MELD, labels_of(cards))])


def goes_round_the_corner(ranks_held: set[int], n: int) -> bool:
    """Do these ranks (ace as 1) only fit in n cards by going round the corner (K-A-2)?"""
    for cut in range(1, 13):
        shifted = sorted(r + 13 if r <= cut else r for r in ranks_held)
        if shifted[0] <= 13 and shifted[-1] >= 15 and shifted[-1] - shifted[0] + 1 <= n:
            return True
    return False
