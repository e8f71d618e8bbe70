"""The meld check's shortcut: a meld with one reading that is plain from its cards, laid out straight
away, as the search of the readings would lay it.

The full path is the spec: ``oklahoma_melds.check_meld_searched`` reads every meld through the search
of its readings; this module gives the very same verdict, faster, for the melds most often entered (a
meld whose wild cards are all named; a set of 3 or 4 with an unnamed wild and natural cards of two
suits or more; a sequence with one unnamed wild filling its one gap), and hands every other meld to
the search. tests/rules/test_oklahoma_meld_shortcut.py and test_oklahoma_meld_tables.py prove the two
paths equal (every field, every score line, every error).

Why it stays: Oklahoma validation and scoring of 100 generated games of 30 deals takes about twice the
instructions without it (see the commit that moved it here); the import of 2,000 × 30 games, four in
five of them Oklahoma, waits on it.

``check_meld`` is the meld check every caller uses: cached (its verdict depends on the tokens and
the Joker knob only), the shortcut first, else the search.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter

from .caches import cached
from .cards import ACE, SUITS, Card, Token
from .messages import Msg, a_rank
from .oklahoma_melds import (
    HIGH_ACE,
    LOW_ACE,
    PLACE_CARD,
    PLACE_LABEL,
    Entered,
    MeldCheck,
    laid_out,
    prechecked,
    searched,
    two_not_itself_note,
    wild_as,
    wild_value_at_place,
    without_joker,
)
from .oklahoma_values import JOKER_MELDED, TWO_AS_RANK, TWO_AS_TWO, CardValue
from .profiles import OklahomaRules

__all__ = ["check_meld", "meld_verdict"]


def check_meld(tokens: Sequence[str | Token | Card], rules: OklahomaRules) -> MeldCheck:
    """Check one meld as entered (any order) and score it as melded (``oklahoma_melds``' rules).

    Verdicts are values and depend on the tokens and the Joker knob only: they are cached."""
    try:
        return meld_verdict(tuple(tokens), without_joker(rules))
    except TypeError:  # something unhashable was entered: check it uncached
        return _check_meld(tokens, without_joker(rules))


@cached(maxsize=16384)
def meld_verdict(tokens: tuple[object, ...], no_joker: str) -> MeldCheck:
    """``check_meld`` of hashable tokens (``no_joker``: ``without_joker(rules)``), cached."""
    return _check_meld(tokens, no_joker)


def _check_meld(tokens: Sequence[object], no_joker: str) -> MeldCheck:
    cards = prechecked(tokens, no_joker)
    if isinstance(cards, MeldCheck):
        return cards
    laid = _shortcut(cards)
    return laid if laid is not None else searched(cards)


class _AtPlace:
    """An unnamed wild card where a reading puts it, read as an ``Entered`` is: its token and printed
    card, how it shows in a score line and what it scores there."""

    __slots__ = ("token", "label", "card_label", "shown", "melded")

    def __init__(self, token: Token, label: str, shown: Msg, melded: CardValue) -> None:
        self.token = token
        self.label = label
        self.card_label = token.card.label
        self.shown = shown
        self.melded = melded


def _scored(cards: Sequence[Entered | _AtPlace]) -> list[tuple[str | Msg, CardValue]]:
    """Each card as it shows in a score line and what it scores: itself or what it names."""
    return [(e.shown, e.melded) for e in cards]  # type: ignore[misc]


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


def _ace_options(aces: list[Entered]) -> tuple[tuple[int, ...], ...] | None:
    """The places the sequence's aces may take (each reading's): none, low or high, or both ends
    (then a natural ace takes the low end, a wild one the high end: ``aces`` ordered so); None for
    more than two."""
    if not aces:
        return ((),)
    if len(aces) == 1:
        return ((LOW_ACE,), (HIGH_ACE,))
    if len(aces) > 2:
        return None
    if aces[0].wild and not aces[1].wild:
        aces.reverse()
    return ((LOW_ACE, HIGH_ACE),)


def _the_one_gap(
    options: tuple[tuple[int, ...], ...], n: int, low: int, high: int, total: int
) -> tuple[tuple[int, ...], int, int] | None:
    """The first reading (the aces' places, its low end, the wild's place) when every reading puts
    the wild in the same place; None when readings differ there (the search compares them) or
    there is none. Each reading lays the n cards from a low end: the n - 1 other places (all
    distinct) lie in it, so the gap is the one place of the n whose sum they lack."""
    span = n * (n - 1) // 2
    taken: tuple[tuple[int, ...], int, int] | None = None
    for option in options:
        first = LOW_ACE if LOW_ACE in option else low
        last = HIGH_ACE if HIGH_ACE in option else high
        held = total + sum(option)
        for start in range(max(1, last - n + 1), min(first, 15 - n) + 1):
            gap = start * n + span - held
            if taken is None:
                taken = (option, start, gap)
            elif gap != taken[2]:
                return None
    return taken


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
    options = _ace_options(aces)
    if options is None:
        return None
    taken = _the_one_gap(options, n, low, high, total)
    if taken is None:
        return None
    option, start, gap = taken  # where several, they differ in the end an ace takes only: the first
    for place, ace in zip(option, aces, strict=True):
        row[place] = ace
    row[gap] = _wild_at(wild.token.card, suit, gap)
    laid: list[Entered | _AtPlace] = row[start : start + n]  # type: ignore[assignment]
    note: Msg | str = ""
    if not wild.joker and wild.suit == suit and gap != 2 and HIGH_ACE in option:  # as the search's note
        note = two_not_itself_note(cards, wild, PLACE_LABEL[suit][gap])
    return laid_out(
        "sequence",
        laid,
        _scored(laid),
        suit=SUITS[suit],
        meaning=PLACE_LABEL[suit][start : start + n],
        entered=cards,
        note=note,
    )


def _free_wilds_in_a_set(cards: list[Entered], rank: int) -> MeldCheck:
    """``_laid_set`` of a set of ``rank`` with unnamed wild cards: each such wild scores and shows
    as ``_WILD_IN_SET`` says (a named one as itself, ``Entered.shown`` and ``.melded``)."""
    naturals = [e for e in cards if not e.wild]
    naturals.sort(key=_by_suit)
    wilds = [e for e in cards if e.wild]
    word = a_rank(rank)
    scored: list[Entered | _AtPlace] = [*naturals]
    meaning: list[str | Msg] = [e.label for e in naturals]
    for e in wilds:
        if e.named_rank:
            scored.append(e)
            meaning.append(e.named_label)
        else:
            scored.append(_wild_in_set(e.token.card, rank))
            meaning.append(word)
    return laid_out("set", naturals + wilds, _scored(scored), rank=rank, meaning=tuple(meaning), entered=cards)


def _without_free_wilds(cards: list[Entered]) -> MeldCheck | None:
    """A meld whose wild cards are all named has one reading at most (a 13-card sequence's ace high
    or low stands for the same cards): lay it out straight away, as the search of the readings
    would. None when it is not a legal meld: the search then says why.

    Each card scores and shows as itself or what it names (``Entered.melded``, ``.shown``)."""
    n = len(cards)
    rank = cards[0].place_rank
    if all(e.place_rank == rank for e in cards):
        return _named_set(cards, rank) if n <= 4 else None
    # A sequence: each card at its place in one suit (``row``), its aces apart (low or high end).
    suit = cards[0].place_suit
    placed = _placed(cards, suit)
    if placed is None:
        return None
    row, aces, low, high, _ = placed
    if high - low + 1 != n - len(aces):  # a gap between the places (all distinct), or no place
        return None
    ordered: list[Entered | _AtPlace] = row[low : high + 1]  # type: ignore[assignment]  # no gap: no None
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
    meaning = PLACE_LABEL[suit][low : low + n]
    return laid_out("sequence", ordered, _scored(ordered), suit=SUITS[suit], meaning=meaning, entered=cards)


def _named_set(cards: list[Entered], rank: int) -> MeldCheck:
    """A set whose wild cards are all named: the natural cards by suit, then the wild cards as entered."""
    naturals = [e for e in cards if not e.wild]
    if len(naturals) < len(cards):
        naturals.sort(key=_by_suit)
        ordered = naturals + [e for e in cards if e.wild]
        meaning = tuple([e.named_label if e.wild else e.label for e in ordered])
    else:
        ordered = sorted(cards, key=_by_suit)
        meaning = tuple([e.label for e in ordered])
    return laid_out("set", ordered, _scored(ordered), rank=rank, meaning=meaning, entered=cards)


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


@cached(maxsize=None)
def _wild_at(card: Card, suit: int, place: int) -> _AtPlace:
    """An unnamed wild card standing at a sequence place of ``suit``: "2♣ as 7♥"."""
    named = PLACE_CARD[suit][place]
    value = JOKER_MELDED if card.is_joker else wild_value_at_place(place, suit)
    return _AtPlace(Token(card, named), f"{card.label}={named.label}", wild_as(card.label, named.label), value)


@cached(maxsize=None)
def _wild_in_set(card: Card, rank: int) -> _AtPlace:
    """An unnamed wild card in a set of ``rank``: "2♣ as a 7" (a Joker scores 100, a 2 the rank's value)."""
    value = JOKER_MELDED if card.is_joker else TWO_AS_TWO if rank == 2 else TWO_AS_RANK[rank]
    return _AtPlace(Token(card), card.label, wild_as(card.label, a_rank(rank)), value)
