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

from .cards import ACE, KING, QUEEN, RANK_NAMES, SUITS, Card, CardError, Suit, Token, parse_token
from .errors import RecordError
from .oklahoma_values import (
    JOKER_MELDED,
    TWO_AS_QUEEN_OF_SPADES,
    TWO_AS_RANK,
    TWO_AS_TWO,
    CardValue,
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


_ENTERED: dict[str, Entered | CardError] = {}
_CACHE_LIMIT = 4096


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
        _ENTERED[raw] = hit
    if isinstance(hit, Entered):
        return hit
    raise hit


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


def _error(message: str, rule: str, source: str, cards: Sequence[str] = ()) -> RecordError:
    return RecordError(message, rule=rule, source=source, cards=tuple(cards))


def _rejected(errors: list[RecordError], kind: str | None = None, cards: Sequence[Entered] = ()) -> MeldCheck:
    return MeldCheck(
        False, kind, tuple(e.token for e in cards), 0, (), tuple(errors), labels=tuple(e.label for e in cards)
    )


def _rank_word(rank: int) -> str:
    return RANK_NAMES[rank]


def score_lines(scored: list[tuple[str, CardValue]]) -> tuple[int, tuple[Line, ...]]:
    """Group (shown as, value) pairs into cited lines, in order of first appearance."""
    groups: dict[CardValue, list[str]] = {}
    for shown_as, value in scored:
        group = groups.get(value)
        if group is None:
            groups[value] = [shown_as]
        else:
            group.append(shown_as)
    lines = []
    total = 0
    for value, shown in groups.items():
        n = len(shown)
        unit = value.points
        if n == 1:
            label = shown[0] + " melded"
        else:
            sep = ", " if " " in shown[0] else " "
            label = f"{sep.join(shown)} melded ({n} × {unit})"
        lines.append(Line(label, unit * n, value.rule, value.source, value.basis))
        total += unit * n
    return total, tuple(lines)


# --------------------------------------------------------------------------------------------
# check_meld: parse, then a set or a sequence.

_VERDICTS: dict[tuple[Hashable, ...], MeldCheck] = {}


def check_meld(tokens: Sequence[str | Token | Card], rules: OklahomaRules) -> MeldCheck:
    """Check one meld as entered (any order) and score it as melded.

    Verdicts are values and depend on the tokens and the Joker knob only: they are cached.
    """
    try:
        key = (True, *tokens) if rules.joker else (rules.cite("joker").source, *tokens)
        hit = _VERDICTS.get(key)
    except TypeError:  # something unhashable was entered: check it uncached
        return _check_meld(tokens, rules)
    if hit is None:
        hit = _check_meld(tokens, rules)
        if len(_VERDICTS) >= _CACHE_LIMIT:
            _VERDICTS.clear()
        _VERDICTS[key] = hit
    return hit


def clear_caches(parsed_cards: bool = True) -> None:
    """Forget every meld verdict and, unless told not to, every parsed card (for benchmarks and tests)."""
    if parsed_cards:
        _ENTERED.clear()
    _VERDICTS.clear()


def _parse_meld(tokens: Sequence[object]) -> tuple[list[Entered], list[RecordError]]:
    cards: list[Entered] = []
    errors: list[RecordError] = []
    for raw in tokens:
        try:
            cards.append(entered(raw))
        except CardError as exc:
            errors.append(_error(exc.message, "card notation", SRC_NOTATION, [exc.token]))
    return cards, errors


def _check_meld(tokens: Sequence[object], rules: OklahomaRules) -> MeldCheck:
    cards, errors = _parse_meld(tokens)
    if errors:
        return _rejected(errors)
    if not cards:
        return _rejected([_error("an empty meld: a meld is 3 or more cards", "meld", SRC_MELD)])
    if not rules.joker:
        jokers = [e for e in cards if e.joker]
        if jokers:
            cite = rules.cite("joker")
            return _rejected(
                [_error("this game is played without the Joker", "no Joker", cite.source, labels_of(jokers))]
            )
    if len(cards) < 3:
        return _rejected(
            [_error(f"a meld needs at least 3 cards, not {len(cards)}", "meld", SRC_MELD, labels_of(cards))]
        )
    naturals = [e for e in cards if not e.wild]
    named = [e for e in cards if e.wild and e.named_rank]
    if not naturals and not named:
        message = "a meld of wild cards only must name what each card stands for (like 2C=7H)"
        return _rejected([_error(message, "wild cards", SRC_WILD, labels_of(cards))])
    ranks = {e.rank for e in naturals}
    ranks.update(e.named_rank for e in named)
    if len(ranks) == 1:
        return _check_set(cards, ranks.pop())
    suits = {e.suit for e in naturals}
    suits.update(e.named_suit for e in named)
    if len(suits) == 1:
        return _check_sequence(cards, suits.pop())
    return _not_a_meld(cards, naturals, named)


def _not_a_meld(cards: list[Entered], naturals: list[Entered], named: list[Entered]) -> MeldCheck:
    """Neither one rank nor one suit: say which wild is at fault when the natural cards agree."""
    natural_ranks = {e.rank for e in naturals}
    natural_suits = {e.suit for e in naturals}
    errors: list[RecordError] = []
    if naturals and len(natural_ranks) == 1:
        rank = natural_ranks.pop()
        word = _rank_word(rank)
        for e in named:
            if e.named_rank != rank:
                message = f"in a set of {word}s a wild card must stand for a {word}, not {e.named_label}"
                errors.append(_error(message, "set: one rank", SRC_SET, [e.label]))
        return _rejected(errors, "set", cards)
    if naturals and len(natural_suits) == 1:
        suit = natural_suits.pop()
        symbol = SUITS[suit].symbol
        for e in named:
            if e.named_suit != suit:
                message = f"in a {symbol} sequence a wild card must stand for a {symbol} card, not {e.named_label}"
                errors.append(_error(message, "sequence: one suit", SRC_SEQUENCE, [e.label]))
        return _rejected(errors, "sequence", cards)
    message = "not a meld: a set is cards of one rank, a sequence cards of one suit in order"
    return _rejected([_error(message, "meld", SRC_MELD, labels_of(cards))])


# --------------------------------------------------------------------------------------------
# Sets.


def _check_set(cards: list[Entered], rank: int) -> MeldCheck:
    if len(cards) > 4:
        message = f"a set has at most 4 cards, wild cards included, not {len(cards)}"
        return _rejected([_error(message, "set: at most 4 cards", "S0", labels_of(cards))], "set", cards)
    naturals = sorted((e for e in cards if not e.wild), key=_by_suit)
    wilds = [e for e in cards if e.wild]
    word = _rank_word(rank)
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
            scored.append((f"{e.card_label} as a {word}", value))
            meaning.append(f"a {word}")
    ordered = naturals + wilds
    points, lines = score_lines(scored)
    return MeldCheck(
        True,
        "set",
        tuple(e.token for e in ordered),
        points,
        lines,
        (),
        rank,
        None,
        tuple(meaning),
        tuple(e.label for e in ordered),
    )


def _by_suit(e: Entered) -> int:
    return e.suit


def _natural_value(e: Entered) -> CardValue:
    assert e.value is not None, "a natural card has its value"
    return e.value


# --------------------------------------------------------------------------------------------
# Sequences: each card takes a place 1..14 (the ace 1 or 14); wild cards fill the open places.


def two_points_at(place: int) -> int:
    """What a 2 scores standing at a sequence place (14 = high ace), the Q♠ apart."""
    if place in (LOW_ACE, HIGH_ACE):
        return 20
    if place >= 8:
        return 10
    return 5


def wild_value_at(e: Entered, place: int, suit: int) -> CardValue:
    """What a wild card scores standing at a sequence place of ``suit``."""
    if e.joker:
        return JOKER_MELDED
    if place == QUEEN and suit == SPADES:
        return TWO_AS_QUEEN_OF_SPADES
    if place == 2:
        return TWO_AS_TWO
    return TWO_AS_RANK[ACE if place == HIGH_ACE else place]


def goes_round_the_corner(ranks: set[int], n: int) -> bool:
    """Do these ranks (ace as 1) only fit in n cards by going round the corner (K-A-2)?"""
    for cut in range(1, 13):
        shifted = sorted(r + 13 if r <= cut else r for r in ranks)
        if shifted[0] <= 13 and shifted[-1] >= 15 and shifted[-1] - shifted[0] + 1 <= n:
            return True
    return False


@dataclass(frozen=True, slots=True)
class _Placement:
    """One way to lay a sequence: where its aces go, its lowest place and the places the fixed cards hold."""

    aces: tuple[int, ...]
    low: int
    held: frozenset[int]

    def open_places(self, n: int) -> list[int]:
        return [p for p in range(self.low, self.low + n) if p not in self.held]


@dataclass(slots=True)
class _SequenceCards:
    """A sequence's cards sorted out: fixed (naturals and named wilds, with the rank each holds) and free."""

    fixed: list[tuple[Entered, int]]
    free: list[Entered]
    aces: list[Entered]
    by_rank: dict[int, list[Entered]]

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


def _sort_sequence_cards(cards: list[Entered]) -> _SequenceCards:
    fixed: list[tuple[Entered, int]] = []
    free: list[Entered] = []
    for e in cards:
        if e.wild and not e.named_rank:
            free.append(e)
        else:
            fixed.append((e, e.named_rank or e.rank))
    aces = [e for e, r in fixed if r == ACE]
    by_rank: dict[int, list[Entered]] = {}
    for e, r in fixed:
        if r != ACE:
            by_rank.setdefault(r, []).append(e)
    return _SequenceCards(fixed, free, aces, by_rank)


def _check_sequence(cards: list[Entered], suit: int) -> MeldCheck:
    n = len(cards)
    if n > 14:
        message = f"a sequence has at most 14 cards (A to K to A), not {n}"
        return _rejected([_error(message, "sequence: at most 14 cards", "S0", labels_of(cards))], "sequence", cards)
    parts = _sort_sequence_cards(cards)
    clashes = _place_clashes(parts, suit)
    if clashes:
        return _rejected(clashes, "sequence", cards)
    placements = _placements(parts, n)
    placements, own_two = _with_the_two_in_its_own_place(parts, placements, suit, n)
    if own_two is None:
        corner = _suited_two_round_the_corner(parts, suit, n)
        if corner is not None:
            return _rejected([corner], "sequence", cards)
    if not placements:
        return _rejected([_no_placement(cards, parts, suit, n)], "sequence", cards)
    placements = _one_meaning(placements, n)
    if len(placements) > 1:
        return _rejected([_ambiguous(cards, parts.free, placements, suit, n)], "sequence", cards)
    return _laid_sequence(cards, parts, placements[0], own_two, suit, n)


def _place_clashes(parts: _SequenceCards, suit: int) -> list[RecordError]:
    """Each place of a sequence holds one card; at most two aces (both ends of A…K…A)."""
    if len(parts.by_rank) + len(parts.aces) == len(parts.fixed) and len(parts.aces) <= 2:
        return []
    errors = []
    for rank, group in sorted(parts.by_rank.items()):
        if len(group) > 1:
            message = (
                f"{PLACE_LABEL[suit][rank]} is in the sequence {len(group)} times: each card of a "
                "sequence holds its own place"
            )
            errors.append(_error(message, "sequence: each place once", SRC_SEQUENCE, labels_of(group)))
    if len(parts.aces) > 2:
        message = f"{len(parts.aces)} aces: a sequence holds at most two (A-2-3… and …Q-K-A in a 14-card sequence)"
        errors.append(_error(message, "sequence: each place once", SRC_SEQUENCE, labels_of(parts.aces)))
    return errors


def _placements(parts: _SequenceCards, n: int) -> list[_Placement]:
    """Every way to lay n cards in order around the fixed cards, ace high or low."""
    placements = []
    for aces in parts.ace_options():
        places = sorted(parts.others + list(aces)) if aces else parts.others
        lowest = max(1, places[-1] - n + 1)
        highest = min(places[0], 15 - n)
        held = frozenset(places)
        for low in range(lowest, highest + 1):
            placements.append(_Placement(aces, low, held))
    return placements


def _with_the_two_in_its_own_place(
    parts: _SequenceCards, placements: list[_Placement], suit: int, n: int
) -> tuple[list[_Placement], Entered | None]:
    """RULING: an unnamed 2 of the sequence's own suit stands for itself when its place is open."""
    suited_twos = [e for e in parts.free if e.suit == suit]  # a free wild is a 2 or the Joker (suit -1)
    if not suited_twos or not placements:
        return placements, None
    at_two = [p for p in placements if p.low <= 2 <= p.low + n - 1 and 2 not in p.held]
    if not at_two:
        return placements, None
    return at_two, suited_twos[0]


def _suited_two_round_the_corner(parts: _SequenceCards, suit: int, n: int) -> RecordError | None:
    """RULING: K, A and the 2 of one suit laid together read as going round the corner."""
    suited_twos = [e for e in parts.free if e.suit == suit]
    if not suited_twos or not goes_round_the_corner(parts.ranks_held() | {2}, n):
        return None
    two = suited_twos[0]
    at_fault = [e.label for e, r in parts.fixed if r in (KING, ACE)] + labels_of(suited_twos)
    message = (
        "a sequence never goes round the corner (K-A-2); to use the "
        f"{two.card_label} as another card, name it (like {two.card_code}={PLACE_CODE[suit][QUEEN]})"
    )
    return _error(message, "sequence: no round the corner", SRC_CORNER, at_fault)


def _one_meaning(placements: list[_Placement], n: int) -> list[_Placement]:
    """Placements that differ only in which end an ace takes, the wilds standing for the same
    cards, are one meld (A-2-…-K or 2-…-K-A; a Joker for the other ace of a 14-card sequence):
    the first is taken, ace low."""
    if len(placements) > 1:
        meanings = {
            tuple(sorted(ACE if p == HIGH_ACE else p for p in range(pl.low, pl.low + n) if p not in pl.held))
            for pl in placements
        }
        if len(meanings) == 1:
            return placements[:1]
    return placements


def _no_placement(cards: list[Entered], parts: _SequenceCards, suit: int, n: int) -> RecordError:
    """Why no placement fits: round the corner, or the places missing with too few wilds to fill them."""
    ranks_held = parts.ranks_held()
    if ACE in ranks_held and goes_round_the_corner(ranks_held, n):
        return _error(
            "a sequence never goes round the corner (K-A-2)",
            "sequence: no round the corner",
            SRC_CORNER,
            [e.label for e, _ in parts.fixed] + labels_of(parts.free),
        )
    best: list[int] | None = None
    for aces in parts.ace_options():
        places = sorted(parts.others + list(aces))
        missing = [p for p in range(places[0], places[-1] + 1) if p not in places]
        if best is None or len(missing) < len(best):
            best = missing
    assert best is not None
    shown = " ".join(PLACE_LABEL[suit][p] for p in best)
    free = parts.free
    wilds = f"{len(free)} wild card{'s' if len(free) != 1 else ''}" if free else "no wild card"
    return _error(
        f"not in sequence: {shown} missing, and {wilds} to fill {'them' if len(best) > 1 else 'it'}",
        "sequence: in order",
        SRC_SEQUENCE,
        labels_of(cards),
    )


def _ambiguous(
    cards: list[Entered], free: list[Entered], placements: list[_Placement], suit: int, n: int
) -> RecordError:
    options: list[str] = []
    for placement in placements:
        text = " ".join(PLACE_LABEL[suit][p] for p in placement.open_places(n))
        if text not in options:
            options.append(text)
    what = "a 2" if not any(e.joker for e in free) else ("the Joker" if len(free) == 1 else "a wild card")
    first_open = placements[0].open_places(n)[0]
    example = f"{free[0].card_code}={PLACE_CODE[suit][first_open]}"
    return _error(
        f"{what} in a sequence must name the card it stands for: "
        f"{' '.join(e.card_label for e in free)} could be {' or '.join(options)} (write it like {example})",
        "wild cards: name the card",
        SRC_WILD_SEQ if what == "a 2" else SRC_JOKER_NAME,
        labels_of(cards),
    )


def _laid_sequence(
    cards: list[Entered], parts: _SequenceCards, placement: _Placement, own_two: Entered | None, suit: int, n: int
) -> MeldCheck:
    """The sequence laid out at its one placement: every wild at its place, scored in order."""
    open_places = placement.open_places(n)
    laid: dict[int, tuple[Token, str, CardValue, str]] = {}  # place -> (token, printed, value, shown as)

    def lay_free(e: Entered, place: int) -> None:
        label = PLACE_LABEL[suit][place]
        token = Token(e.token.card, PLACE_CARD[suit][place])
        laid[place] = (token, f"{e.card_label}={label}", wild_value_at(e, place, suit), f"{e.card_label} as {label}")

    rest = parts.free
    if own_two is not None:
        lay_free(own_two, 2)
        open_places.remove(2)
        rest = [e for e in parts.free if e is not own_two]
    if len(rest) > 1:
        twos = [e for e in rest if not e.joker]
        jokers = [e for e in rest if e.joker]
        if twos and jokers and len({two_points_at(p) for p in open_places}) > 1:
            return _rejected([_joker_must_be_named(jokers, twos, open_places, suit)], "sequence", cards)
        rest = twos + jokers
    for place, e in zip(open_places, rest, strict=False):
        lay_free(e, place)
    ace_places = list(placement.aces)
    # Two aces (a 14-card sequence): a natural ace takes the low end, a wild one the high end.
    for e, rank in sorted(parts.fixed, key=lambda item: item[1] == ACE and item[0].wild):
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
        tuple(PLACE_LABEL[suit][p] for p in order),
        tuple(laid[p][1] for p in order),
    )


def _joker_must_be_named(jokers: list[Entered], twos: list[Entered], open_places: list[int], suit: int) -> RecordError:
    """RULING: which wild fills which place changes the score: the Joker must be named."""
    shown = " ".join(PLACE_LABEL[suit][p] for p in open_places)
    return _error(
        f"the Joker and the 2 fill {shown}, which score differently as a 2: name the "
        f"card the Joker stands for (like JK={PLACE_CODE[suit][open_places[-1]]})",
        "wild cards: name the card",
        SRC_JOKER_NAME,
        labels_of(jokers) + labels_of(twos),
    )
