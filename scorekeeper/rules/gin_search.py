"""Oklahoma Gin: the search for a hand's least-deadwood arrangement and the defender's layoffs.

A hand is a 52-bit int mask, bit ``suit * 13 + rank - 1`` (A=0 .. K=12; suits S H D C), the
same bit as ``cards.Card.index``. The ace is low only in gin (A-2-3, never Q-K-A).

How it works (exact):

* Runs never cross suits, so per 13-bit suit mask ``m`` a table ``T[m]`` holds the least
  deadwood of that suit's cards when only runs are formed (dynamic programming on the lowest
  card: it is deadwood, or it starts a run i..j). ``RUNS[m]`` holds one set of runs reaching it.
* Sets are only possible on ranks held three or four times. Without such a rank (most hands)
  the answer is ``T[a] + T[b] + T[c] + T[d]``. Otherwise every choice per such rank (no set,
  each 3-subset, the 4-set) is tried and the remaining cards go through the table. A rank holds
  at most one set in one pack, so this covers every arrangement. For one or two such ranks the
  choices come ready-made from ``_CHOICES`` (built at import, by the hand's cards on those ranks,
  in the order ``_least_removal`` tries them, so ties are broken alike).
* Before the discard (one card more): ``T1[m]`` is the best of ``T[m - c]`` over the cards c of
  ``m``; the discard is never a card of a chosen set (discarding it is the same as choosing
  the smaller set or none), so the best is the best set choice plus the best suit to discard from.

Defender layoffs: see ``defender_best``; three or four players lay off in turn: ``defenders_in_turn``.

From card text: ``mask_of_text`` turns ``["QS", "10h", ...]`` into a mask with one table look-up a
card (``INDEX_OF_TEXT``: every spelling ``cards.parse_card`` accepts), falling back to
``parse_card`` (and its error messages) only for a token the table does not hold. A usual hand
(10 or 11 cards) is looked up in line and its bits added as floats (``_FLOAT_BIT_OF_TEXT``);
``least_deadwood_of_text`` and ``best_arrangement_of_text`` answer its common cases (no rank held
three times, or one) in the same step, where Python's cost is mostly the number of operations on
ints that it does not specialise (``&``, ``|``, ``>>``): the tables are shaped to need few of them
(``_T_RUN``, ``_RANK_CARDS``, the set choices' removal masks).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from .cards import CARD_BY_INDEX, CardError, parse_card

__all__ = [
    "VALUES",
    "T",
    "RUNS",
    "T1",
    "T1_CARD",
    "hand_points",
    "popcount",
    "best_deadwood",
    "best_deadwood_discard",
    "best_arrangement",
    "best_arrangement_discard",
    "all_best_arrangements",
    "meld_is_set",
    "meld_is_run",
    "meld_kind",
    "defender_best",
    "layoff_closure",
    "mask_of",
    "bits_of",
    "Spread",
    "grown_melds",
    "defenders_in_turn",
    "INDEX_OF_TEXT",
    "card_index",
    "mask_of_text",
    "least_deadwood_of_text",
    "best_arrangement_of_text",
]

FULL = (1 << 13) - 1
VALUES: tuple[int, ...] = tuple(min(r + 1, 10) for r in range(13))  # by rank index 0..12
INF = 10**6

# The suit masks left after a choice of sets, and the sets chosen (52-bit masks).
SetChoice = tuple[int, int, int, int, tuple[int, ...]]


class Arranged(NamedTuple):
    """A hand's arrangement: its deadwood points, its melds (52-bit masks) and its deadwood mask."""

    points: int
    melds: tuple[int, ...]
    deadwood: int


class Arrangement(NamedTuple):
    """One of a hand's least-deadwood arrangements, and the discard it needs (a bit index; None:
    the hand was given after its discard)."""

    points: int
    melds: tuple[int, ...]
    deadwood: int
    discard: int | None


class DefenderPlay(NamedTuple):
    """A defender's play against the knocker's melds: deadwood points, own melds, layoffs mask,
    deadwood mask."""

    points: int
    melds: tuple[int, ...]
    layoffs: int
    deadwood: int


def popcount(x: int) -> int:
    return x.bit_count()


def bits_of(mask: int) -> list[int]:
    """The set bits of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(indices: Iterable[int]) -> int:
    m = 0
    for i in indices:
        m |= 1 << i
    return m


# Points of every 13-bit suit mask.
SUIT_POINTS: list[int] = [0] * 8192
for _m in range(1, 8192):
    _low = _m & -_m
    SUIT_POINTS[_m] = SUIT_POINTS[_m ^ _low] + VALUES[_low.bit_length() - 1]


def hand_points(mask: int) -> int:
    """Card points of every card in a 52-bit mask."""
    return (
        SUIT_POINTS[mask & FULL]
        + SUIT_POINTS[mask >> 13 & FULL]
        + SUIT_POINTS[mask >> 26 & FULL]
        + SUIT_POINTS[mask >> 39 & FULL]
    )


def _runs_from(m: int, low: int) -> Iterator[int]:
    """Every run (3 or more consecutive cards) of suit mask ``m`` that starts at card ``low``."""
    run = low
    i = j = low.bit_length() - 1
    while j + 1 < 13 and m >> (j + 1) & 1:
        j += 1
        run |= 1 << j
        if j >= i + 2:
            yield run


def _build_tables() -> tuple[list[int], list[tuple[int, ...]], list[int], list[int]]:
    t = [0] * 8192
    runs: list[tuple[int, ...]] = [()] * 8192
    for m in range(1, 8192):
        low = m & -m
        i = low.bit_length() - 1
        rest = m ^ low
        best = t[rest] + VALUES[i]
        best_runs = runs[rest]
        for run in _runs_from(m, low):
            cost = t[m ^ run]
            if cost < best:
                best = cost
                best_runs = (run,) + runs[m ^ run]
        t[m] = best
        runs[m] = best_runs
    t1 = [INF] * 8192
    t1c = [-1] * 8192
    for m in range(1, 8192):
        best, card = INF, -1
        rest = m
        while rest:
            low = rest & -rest
            rest ^= low
            v = t[m ^ low]
            if v < best:
                best, card = v, low.bit_length() - 1
        t1[m], t1c[m] = best, card
    return t, runs, t1, t1c


T, RUNS, T1, T1_CARD = _build_tables()
# Each suit's runs and the cards they leave, placed in the suit (its 52-bit masks), by suit mask.
RUNS_IN: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(r << (13 * s) for r in RUNS[m]) if RUNS[m] else () for m in range(8192)) for s in range(4)
)
LEFT_IN: tuple[tuple[int, ...], ...] = tuple(
    tuple((m & ~sum(RUNS[m])) << (13 * s) for m in range(8192)) for s in range(4)
)
# Gain of discarding from a suit: T1[m] - T[m] (INF for an empty suit).
D1: list[int] = [T1[m] - T[m] if m else INF for m in range(8192)]

# Removal options per rank for the set search, as (a, b, c, d) suit-mask removals, by the 4-bit
# pattern of suits holding that rank.
_SET_OPTIONS: dict[tuple[int, int], tuple[tuple[int, int, int, int], ...]] = {}


def _set_options(rank: int, pattern: int) -> tuple[tuple[int, int, int, int], ...]:
    key = (rank, pattern)
    opts = _SET_OPTIONS.get(key)
    if opts is None:
        suits = [s for s in range(4) if pattern >> s & 1]
        bit = 1 << rank
        res = [(0, 0, 0, 0)]
        sizes = (3, 4) if len(suits) == 4 else (3,)
        for size in sizes:
            for combo in combinations(suits, size):
                a, b, c, d = (bit if s in combo else 0 for s in range(4))
                res.append((a, b, c, d))
        opts = _SET_OPTIONS[key] = tuple(res)
    return opts


def _split(mask: int) -> tuple[int, int, int, int, int]:
    """The four suit masks of a hand and the ranks it holds three or four times."""
    a = mask & FULL
    b = mask >> 13 & FULL
    c = mask >> 26 & FULL
    d = mask >> 39
    return a, b, c, d, (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)


def _set_choices(a: int, b: int, c: int, d: int, multi: int) -> list[SetChoice]:
    """Every (a, b, c, d) remainder after choosing sets on the ranks in ``multi``, with the
    set masks (52-bit) chosen. Yields (a', b', c', d', sets)."""
    combos: list[SetChoice] = [(a, b, c, d, ())]
    while multi:
        low = multi & -multi
        multi ^= low
        r = low.bit_length() - 1
        pattern = (a >> r & 1) | (b >> r & 1) << 1 | (c >> r & 1) << 2 | (d >> r & 1) << 3
        opts = _set_options(r, pattern)
        new: list[SetChoice] = []
        for ca, cb, cc, cd, sets in combos:
            for xa, xb, xc, xd in opts:
                if xa | xb | xc | xd:
                    setmask = xa | xb << 13 | xc << 26 | xd << 39
                    new.append((ca & ~xa, cb & ~xb, cc & ~xc, cd & ~xd, sets + (setmask,)))
                else:
                    new.append((ca, cb, cc, cd, sets))
        combos = new
    return combos


def _removals(a: int, b: int, c: int, d: int, multi: int) -> Sequence[tuple[int, int, int, int]]:
    """Every choice of sets on the ranks in ``multi`` as the cards it takes from each suit
    (``(a, b, c, d)`` removal masks), in ``_set_choices`` order: the lowest rank's choice varies
    slowest, and for each rank no set comes first."""
    options = []
    while multi:
        low = multi & -multi
        multi ^= low
        r = low.bit_length() - 1
        pattern = (a >> r & 1) | (b >> r & 1) << 1 | (c >> r & 1) << 2 | (d >> r & 1) << 3
        options.append(_SET_OPTIONS.get((r, pattern)) or _set_options(r, pattern))
    combos: Sequence[tuple[int, int, int, int]] = options[0]
    for more in options[1:]:
        combos = [(xa | ya, xb | yb, xc | yc, xd | yd) for xa, xb, xc, xd in combos for ya, yb, yc, yd in more]
    return combos


def _least_removal(a: int, b: int, c: int, d: int, multi: int, discard: bool = False) -> tuple[int, int, int, int, int]:
    """(deadwood, removal masks): the first set choice leaving the least deadwood (``discard``: after
    the best discard too)."""
    best = INF
    chosen = (0, 0, 0, 0)
    for removal in _removals(a, b, c, d, multi):
        xa, xb, xc, xd = removal
        ca, cb, cc, cd = a & ~xa, b & ~xb, c & ~xc, d & ~xd
        value = T[ca] + T[cb] + T[cc] + T[cd]
        if discard:
            value += min(D1[ca], D1[cb], D1[cc], D1[cd])
        if value < best:
            best, chosen = value, removal
    return best, *chosen


def _sets_taken(xa: int, xb: int, xc: int, xd: int) -> tuple[int, ...]:
    """The sets (52-bit masks, by rank) that removal masks take."""
    ranks = xa | xb | xc | xd
    sets = []
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        sets.append((xa & low) | (xb & low) << 13 | (xc & low) << 26 | (xd & low) << 39)
    return tuple(sets)


def _arranged(mask: int, sets: tuple[int, ...], a: int, b: int, c: int, d: int) -> tuple[tuple[int, ...], int]:
    """The melds (the sets, then each suit's runs from the lowest card up) and what they leave."""
    melds = sets + RUNS_IN[0][a] + RUNS_IN[1][b] + RUNS_IN[2][c] + RUNS_IN[3][d]
    return melds, LEFT_IN[0][a] | LEFT_IN[1][b] | LEFT_IN[2][c] | LEFT_IN[3][d]


# A rank's four cards (one a suit) when multiplied by the rank's bit: ``mask & multi * _COLUMN``
# is the hand's cards on the ranks of ``multi``.
_COLUMN = 1 | 1 << 13 | 1 << 26 | 1 << 39

# One choice of sets: the cards it takes from each suit (13-bit masks: spades, hearts, diamonds,
# clubs; a suit less them is a subtraction, which Python does faster than ``&``), the sets (52-bit
# masks, by rank) and all their cards (52-bit).
Choice = tuple[int, int, int, int, tuple[int, ...], int]


def _build_choices() -> dict[int, tuple[Choice, ...]]:
    """Every choice of sets of a hand holding one or two ranks three or four times, in
    ``_removals`` order (so the first best is the one ``_least_removal`` picks), by the hand's
    cards on those ranks (``mask & multi * _COLUMN``). A hand holding three such ranks (rare) goes
    through ``_least_removal``."""
    held = [pattern for pattern in range(16) if pattern.bit_count() >= 3]  # bit s: suit s holds it

    def column(rank: int, pattern: int) -> int:
        return sum(1 << (13 * s + rank) for s in range(4) if pattern >> s & 1)

    keys = [column(r, p) for r in range(13) for p in held]
    keys += [column(r, p) | column(q, o) for r in range(13) for q in range(r + 1, 13) for p in held for o in held]
    table = {}
    for key in keys:
        a, b, c, d, multi = _split(key)
        table[key] = tuple(
            (xa, xb, xc, xd, _sets_taken(xa, xb, xc, xd), xa | xb << 13 | xc << 26 | xd << 39)
            for xa, xb, xc, xd in _removals(a, b, c, d, multi)
        )
    return table


_CHOICES = _build_choices()
# A rank's four cards (52-bit), by the rank's bit.
_RANK_CARDS: dict[int, int] = {1 << r: _COLUMN << r for r in range(13)}
_RUNS_S, _RUNS_H, _RUNS_D, _RUNS_C = RUNS_IN
# ``T[m]``, plus ``_RUN`` when the suit's best lays a run (``RUNS[m]`` is not empty). Four suits adding
# up to less than ``_RUN`` lay no run at all; for a hand of at most 12 cards (deadwood below
# ``_RUN``) the converse holds too, and the sum mod ``_RUN`` is its deadwood. Every entry stays a
# small int (at most 60 + 128), which Python keeps cached.
_RUN = 128
_T_RUN: list[int] = [t + _RUN if runs else t for t, runs in zip(T, RUNS, strict=True)]


def _least_with_sets(mask: int, a: int, b: int, c: int, d: int, multi: int) -> int:
    """``best_deadwood`` of a hand holding some rank (``multi``) three or four times."""
    choices = _CHOICES.get(mask & multi * _COLUMN)
    if choices is None:
        return _least_removal(a, b, c, d, multi)[0]
    best = INF
    for xa, xb, xc, xd, _, _ in choices:
        value = T[a - xa] + T[b - xb] + T[c - xc] + T[d - xd]
        if value < best:
            best = value
    return best


def best_deadwood(mask: int) -> int:
    """The least deadwood points of a hand (any number of cards, no discard)."""
    a = mask & FULL
    b = mask >> 13 & FULL
    c = mask >> 26 & FULL
    d = mask >> 39
    multi = (a & b & (c | d)) | (c & d & (a | b))  # ranks held three or four times
    if not multi:
        return T[a] + T[b] + T[c] + T[d]
    return _least_with_sets(mask, a, b, c, d, multi)


def _discard_with_sets(
    mask: int, a: int, b: int, c: int, d: int, multi: int
) -> tuple[int, int, int, int, int, tuple[int, ...]]:
    """(deadwood after the best discard, the suit masks the sets leave, the sets) of a hand
    holding some rank (``multi``) three or four times."""
    choices = _CHOICES.get(mask & multi * _COLUMN)
    if choices is None:
        value, xa, xb, xc, xd = _least_removal(a, b, c, d, multi, discard=True)
        return value, a & ~xa, b & ~xb, c & ~xc, d & ~xd, _sets_taken(xa, xb, xc, xd)
    best = INF
    for choice in choices:
        xa, xb, xc, xd, _, _ = choice
        ca = a - xa
        cb = b - xb
        cc = c - xc
        cd = d - xd
        value = T[ca] + T[cb] + T[cc] + T[cd] + min(D1[ca], D1[cb], D1[cc], D1[cd])
        if value < best:
            best, chosen = value, choice
    xa, xb, xc, xd, sets, _ = chosen
    return best, a - xa, b - xb, c - xc, d - xd, sets


def best_deadwood_discard(mask: int) -> int:
    """The least deadwood after the best discard (the hand holds one card more)."""
    low = mask & 67108863  # spades and hearts
    high = mask >> 26  # diamonds and clubs
    a = low & 8191
    b = low >> 13
    c = high & 8191
    d = high >> 13
    multi = (a & b & (c | d)) | (c & d & (a | b))
    if not multi:
        # the best suit to discard from: the least of the four gains, compared in line
        ga = D1[a]
        gb = D1[b]
        gc = D1[c]
        gd = D1[d]
        gain = ga if ga < gb else gb
        other = gc if gc < gd else gd
        return T[a] + T[b] + T[c] + T[d] + (gain if gain < other else other)
    if multi & (multi - 1) or a & b & c & d:
        return _discard_with_sets(mask, a, b, c, d, multi)[0]
    # one rank held three times: that set, or none (the discard is never one of its cards)
    keep = 8191 ^ multi
    sa = a & keep
    sb = b & keep
    sc = c & keep
    sd = d & keep
    none = T[a] + T[b] + T[c] + T[d] + min(D1[a], D1[b], D1[c], D1[d])
    value = T[sa] + T[sb] + T[sc] + T[sd] + min(D1[sa], D1[sb], D1[sc], D1[sd])
    return value if value < none else none


def _sort_melds(melds: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(melds, key=_meld_sort_key))


def _meld_sort_key(m: int) -> tuple[int, int, int]:
    # Sets first by rank, then runs by suit and rank.
    if meld_is_set(m):
        return (0, _rank_of_set(m), 0)
    low = (m & -m).bit_length() - 1
    return (1, low // 13, low % 13)


def _rank_of_set(m: int) -> int:
    low = (m & -m).bit_length() - 1
    return low % 13


def _arrangement_with_sets(mask: int, a: int, b: int, c: int, d: int, multi: int) -> Arranged:
    """``best_arrangement`` of a hand holding some rank (``multi``) three or four times."""
    choices = _CHOICES.get(mask & multi * _COLUMN)
    if choices is None:
        value, xa, xb, xc, xd = _least_removal(a, b, c, d, multi)
        sets = _sets_taken(xa, xb, xc, xd)
        a, b, c, d = a & ~xa, b & ~xb, c & ~xc, d & ~xd
    else:
        value = INF
        for choice in choices:
            xa, xb, xc, xd, _, _ = choice
            least = T[a - xa] + T[b - xb] + T[c - xc] + T[d - xd]
            if least < value:
                value, chosen = least, choice
        xa, xb, xc, xd, sets, taken = chosen
        a -= xa
        b -= xb
        c -= xc
        d -= xd
        if _T_RUN[a] + _T_RUN[b] + _T_RUN[c] + _T_RUN[d] < _RUN:  # no run
            return Arranged(value, sets, mask - taken)
    melds = sets + _RUNS_S[a] + _RUNS_H[b] + _RUNS_D[c] + _RUNS_C[d]
    return Arranged(value, melds, mask - sum(melds))


def best_arrangement(mask: int) -> Arranged:
    """(deadwood points, melds as 52-bit masks, deadwood mask) of a least-deadwood arrangement.

    Melds come sets first (by rank), then runs by suit and rank."""
    a = mask & FULL
    b = mask >> 13 & FULL
    c = mask >> 26 & FULL
    d = mask >> 39
    multi = (a & b & (c | d)) | (c & d & (a | b))
    if multi:
        return _arrangement_with_sets(mask, a, b, c, d, multi)
    melds = _RUNS_S[a] + _RUNS_H[b] + _RUNS_D[c] + _RUNS_C[d]
    # the melds are disjoint: their sum is the cards they take
    return Arranged(T[a] + T[b] + T[c] + T[d], melds, mask - sum(melds) if melds else mask)


def best_arrangement_discard(mask: int) -> tuple[int, tuple[int, ...], int, int]:
    """For a hand before its discard: (deadwood points, melds, deadwood mask, discard bit index)."""
    if not mask:
        raise ValueError("no card to discard")
    a = mask & FULL
    b = mask >> 13 & FULL
    c = mask >> 26 & FULL
    d = mask >> 39
    multi = (a & b & (c | d)) | (c & d & (a | b))
    sets: tuple[int, ...] = ()
    if multi:
        value, a, b, c, d, sets = _discard_with_sets(mask, a, b, c, d, multi)
    else:
        value = T[a] + T[b] + T[c] + T[d] + min(D1[a], D1[b], D1[c], D1[d])
    parts = [a, b, c, d]
    gains = [D1[a], D1[b], D1[c], D1[d]]
    s = gains.index(min(gains))
    card = T1_CARD[parts[s]]
    parts[s] &= ~(1 << card)
    discard = s * 13 + card
    melds, dead = _arranged(mask & ~(1 << discard), sets, *parts)
    return value, melds, dead, discard


# ---------------------------------------------------------------------------------------------
# Every best arrangement (for scoring: the knocker's choice among equals, slower)


def _segments(cover: int) -> list[int]:
    """Split a run-cover suit mask into maximal runs of consecutive cards."""
    out = []
    while cover:
        low = cover & -cover
        seg = low
        nxt = low << 1
        while cover & nxt:
            seg |= nxt
            nxt <<= 1
        out.append(seg)
        cover &= ~seg
    return out


def _least_covers(m: int) -> frozenset[int]:
    """Every distinct run-cover mask of suit mask ``m`` reaching ``T[m]`` (the least deadwood when
    only runs are formed): dynamic programming on the lowest card, as ``T`` is built (it is
    deadwood, or it starts a run i..j), kept only where the option reaches the least."""
    got = _LEAST_COVERS.get(m)
    if got is not None:
        return got
    if not m:
        return frozenset((0,))
    low = m & -m
    best = T[m]
    covers: set[int] = set()
    if T[m ^ low] + VALUES[low.bit_length() - 1] == best:
        covers.update(_least_covers(m ^ low))
    for run in _runs_from(m, low):
        if T[m ^ run] == best:
            covers.update(run | cover for cover in _least_covers(m ^ run))
    got = _LEAST_COVERS[m] = frozenset(covers)
    return got


_LEAST_COVERS: dict[int, frozenset[int]] = {}
# Per suit, by suit mask: each least-deadwood run cover (in ``sorted(covers)`` order) as its
# maximal runs placed in the suit (52-bit masks, lowest first). Filled as suit masks come up (at
# most 8192 a suit): a table of the suit alone, like ``T``.
_COVER_RUNS: tuple[dict[int, tuple[tuple[int, ...], ...]], ...] = ({}, {}, {}, {})


def _cover_runs(suit: int, m: int) -> tuple[tuple[int, ...], ...]:
    shift = 13 * suit
    got = tuple(tuple(seg << shift for seg in _segments(cover)) for cover in sorted(_least_covers(m)))
    _COVER_RUNS[suit][m] = got
    return got


def all_best_arrangements(mask: int, discard: bool = False) -> list[Arrangement]:
    """Every least-deadwood arrangement: a list of (points, melds, deadwood mask, discard index or
    None). Arrangements differ in the cards each meld holds (runs are shown as maximal runs;
    a run of six is the same arrangement as two runs of three). With ``discard`` the hand holds
    one card more and every discard reaching the least deadwood is listed.

    Order: set choices as ``_set_choices`` lists them, then each suit's covers in ``sorted``
    order (spades varying slowest). Melds come sets by rank, then runs by suit and rank, so they
    need no sorting; two listed arrangements never hold the same melds (the sets tell the set
    choice, each suit's runs its cover)."""
    if discard:
        target = best_deadwood_discard(mask)
        out: list[Arrangement] = []
        for i in bits_of(mask):
            rest = mask & ~(1 << i)
            if best_deadwood(rest) == target:
                for v, melds, dead, _ in all_best_arrangements(rest):
                    out.append(Arrangement(v, melds, dead, i))
        return out
    a = mask & FULL
    b = mask >> 13 & FULL
    c = mask >> 26 & FULL
    d = mask >> 39
    multi = (a & b & (c | d)) | (c & d & (a | b))
    choices: Iterable[SetChoice]
    if not multi:
        target = T[a] + T[b] + T[c] + T[d]
        choices = ((a, b, c, d, ()),)
    else:
        ready = _CHOICES.get(mask & multi * _COLUMN)
        if ready is None:  # three or more such ranks: the least over the same choices
            choices = _set_choices(a, b, c, d, multi)
            target = min([T[pa] + T[pb] + T[pc] + T[pd] for pa, pb, pc, pd, _ in choices])
        else:
            target = _least_with_sets(mask, a, b, c, d, multi)
            choices = [(a - xa, b - xb, c - xc, d - xd, sets) for xa, xb, xc, xd, sets, _ in ready]
    out = []
    cs, ch, cd_, cc = _COVER_RUNS
    for pa, pb, pc, pd, sets in choices:
        if T[pa] + T[pb] + T[pc] + T[pd] != target:
            continue
        runs_a = cs.get(pa) or _cover_runs(0, pa)
        runs_b = ch.get(pb) or _cover_runs(1, pb)
        runs_c = cd_.get(pc) or _cover_runs(2, pc)
        runs_d = cc.get(pd) or _cover_runs(3, pd)
        for ra in runs_a:
            for rb in runs_b:
                for rc in runs_c:
                    for rd in runs_d:
                        melds = sets + ra + rb + rc + rd
                        out.append(Arrangement(target, melds, mask - sum(melds), None))
    return out


# ---------------------------------------------------------------------------------------------
# Melds


def meld_is_set(m: int) -> bool:
    """3 or 4 cards of one rank."""
    n = m.bit_count()
    if n < 3 or n > 4:
        return False
    ranks = (m & FULL) | (m >> 13 & FULL) | (m >> 26 & FULL) | (m >> 39 & FULL)
    return ranks.bit_count() == 1


def meld_is_run(m: int) -> bool:
    """3 or more consecutive cards of one suit, ace low only."""
    if m.bit_count() < 3:
        return False
    for s in range(4):
        part = m >> (13 * s) & FULL
        if part:
            if part << (13 * s) != m:
                return False
            low = part & -part
            return (part + low) & part == 0  # consecutive bits
    return False


def meld_kind(m: int) -> str | None:
    if meld_is_set(m):
        return "set"
    if meld_is_run(m):
        return "run"
    return None


# ---------------------------------------------------------------------------------------------
# Defender layoffs


def _suit_dp_free(m: int, free: int) -> tuple[int, tuple[int, ...]]:
    """Least cost and runs of suit mask m when cards in ``free`` score 0 as deadwood."""
    if not free & m:
        return T[m], RUNS[m]
    key = (m, free & m)
    hit = _FREE_CACHE.get(key)
    if hit is not None:
        return hit
    free &= m
    # DP over sub-masks reachable by removing the lowest card or a run starting at it.
    memo: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}

    def solve(x: int) -> tuple[int, tuple[int, ...]]:
        got = memo.get(x)
        if got is not None:
            return got
        low = x & -x
        i = low.bit_length() - 1
        c0, r0 = solve(x ^ low)
        best: tuple[int, tuple[int, ...]] = (c0 + (0 if free & low else VALUES[i]), r0)
        run = low
        j = i
        while j + 1 < 13 and x >> (j + 1) & 1:
            j += 1
            run |= 1 << j
            if j >= i + 2:
                c1, r1 = solve(x ^ run)
                if c1 < best[0]:
                    best = (c1, (run,) + r1)
        memo[x] = best
        return best

    res = solve(m)
    if len(_FREE_CACHE) > 200000:
        _FREE_CACHE.clear()
    _FREE_CACHE[key] = res
    return res


_FREE_CACHE: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}


def _knocker_targets(knocker_melds: Iterable[int]) -> tuple[int, list[tuple[int, int]]]:
    """(set-layoff mask: the 4th card of each knocker 3-set, [(suit, run suit-mask)]). A mask that
    is no meld (``meld_kind`` None) is passed over."""
    set_free = 0
    runs = []
    for m in knocker_melds:
        n = m.bit_count()
        if n < 3:  # neither a set nor a run
            continue
        i = (m & -m).bit_length() - 1  # the lowest card: its suit is the lowest suit of the meld
        s = i // 13
        part = m >> (13 * s)
        if part <= FULL:  # one suit: a run when its cards follow one another
            if not (part + (part & -part)) & part:
                runs.append((s, part))
        elif n == 3:  # more suits: a set when every card has the lowest card's rank
            column = _COLUMN << (i - 13 * s)
            if not m & ~column:
                set_free |= column - m
    return set_free, runs


def _chain(part: int, run: int) -> int:
    """The defender's cards (suit mask ``part``) laid off in a chain from both ends of ``run``."""
    out = 0
    nxt = (1 << run.bit_length()) & FULL
    while nxt and part & nxt:
        out |= nxt
        nxt = (nxt << 1) & FULL
    low = run & -run
    nxt = low >> 1
    while nxt and part & nxt:
        out |= nxt
        nxt >>= 1
    return out


def _adjacent(run: int) -> int:
    low = run & -run
    return ((1 << run.bit_length()) & FULL) | (low >> 1)


def defender_best(mask: int, knocker_melds: Sequence[int], chained: bool = True) -> DefenderPlay:
    """The defender's own melds and layoffs chosen together for the least deadwood.

    Returns (deadwood points, own melds (52-bit masks), layoffs mask, deadwood mask).

    ``chained``: a layoff may extend a knocker run at either end and further layoffs may extend
    that. Otherwise ("original"): only cards touching the knocker's melds as laid down.
    The 4th card of a knocker 3-set can always be laid off.

    Exact: every choice of the defender's own sets is tried; in each suit the maximal chain of
    the defender's remaining cards from a knocker-run end is laid off (chain cards score 0 and
    no own run can reach past the chain, so laying off all of it is never worse); the other
    layoff-able cards score 0 but may still go into the defender's own runs.
    """
    set_free, kruns = _knocker_targets(knocker_melds)
    touch = set_free  # every card that can start a layoff
    for s, run in kruns:
        touch |= _adjacent(run) << (13 * s)
    if not mask & touch:
        # Nothing touches the knocker's melds: no layoff can start, his own best arrangement it is.
        points, melds, dead = best_arrangement(mask)
        return DefenderPlay(points, melds, 0, dead)
    a = mask & FULL
    b = mask >> 13 & FULL
    c = mask >> 26 & FULL
    d = mask >> 39
    multi = (a & b & (c | d)) | (c & d & (a | b))
    frees = [0, 0, 0, 0]
    if set_free:
        frees = [set_free & FULL, set_free >> 13 & FULL, set_free >> 26 & FULL, set_free >> 39]
    runs_by_suit: tuple[list[int], ...] = ([], [], [], [])
    for s, run in kruns:
        if chained:
            runs_by_suit[s].append(run)
        else:
            frees[s] |= _adjacent(run)
    if not multi:
        chosen: SetChoice = (a, b, c, d, ())
    else:
        # The first set choice of least deadwood: its points alone, suit by suit (a suit's points
        # depend on its cards left only, so each is worked out once).
        ready = _CHOICES.get(mask & multi * _COLUMN)
        choices: Sequence[SetChoice]
        if ready is None:
            choices = _set_choices(a, b, c, d, multi)
        else:
            choices = [(a - xa, b - xb, c - xc, d - xd, sets) for xa, xb, xc, xd, sets, _ in ready]
        # each suit's points by its cards left: ``T`` for a suit with no layoff to make, else
        # worked out once per suit mask
        ta, tb, tc, td = (
            _SuitCosts(free, suit_runs) if free or suit_runs else T
            for free, suit_runs in zip(frees, runs_by_suit, strict=True)
        )
        least = INF
        chosen = choices[0]
        for choice in choices:
            total = ta[choice[0]] + tb[choice[1]] + tc[choice[2]] + td[choice[3]]
            if total < least:
                least, chosen = total, choice
    total = 0
    layoff = 0
    dead = 0
    own = chosen[4]
    for p, free, suit_runs, (shift, runs_in, left_in) in zip(chosen[:4], frees, runs_by_suit, _SUITS, strict=True):
        chain = 0
        if suit_runs:
            for run in suit_runs:
                chain |= _chain(p, run)
            p &= ~chain
        if free & p:
            cost, runs = _suit_dp_free(p, free)
            rest = p - sum(runs)  # the runs are disjoint cards of p
            if runs:
                own += tuple([r << shift for r in runs])
            lay = chain | (rest & free)
            dead |= (rest & ~free) << shift
        else:
            cost = T[p]
            own += runs_in[p]
            lay = chain
            dead |= left_in[p]
        total += cost
        if lay:
            layoff |= lay << shift
    return DefenderPlay(total, own, layoff, dead)


class _SuitCosts(dict[int, int]):
    """A defender's least deadwood in one suit (``_suit_cost``), by the suit mask of his cards left,
    each worked out when first asked for."""

    __slots__ = ("free", "runs")

    def __init__(self, free: int, runs: Sequence[int]) -> None:
        self.free = free
        self.runs = runs

    def __missing__(self, p: int) -> int:
        cost = self[p] = _suit_cost(p, self.free, self.runs)
        return cost


# Per suit: its place in a 52-bit mask, its runs and the cards they leave (``RUNS_IN``, ``LEFT_IN``).
_SUITS = tuple(zip((0, 13, 26, 39), RUNS_IN, LEFT_IN, strict=True))


def _suit_cost(p: int, free: int, suit_runs: Sequence[int]) -> int:
    """A defender's least deadwood in one suit (cards ``p``): the chains from the knocker's runs
    in it laid off, the ``free`` cards scoring 0."""
    if suit_runs:
        chain = 0
        for run in suit_runs:
            chain |= _chain(p, run)
        p &= ~chain
    if free & p:
        return _suit_dp_free(p, free)[0]
    return T[p]


def layoff_closure(deadwood_mask: int, knocker_melds: Iterable[int], chained: bool = True) -> int:
    """The defender's deadwood cards that can be laid off when his own melds are given:
    the 4th card of a knocker 3-set, cards just beyond a knocker run's end and, when chained,
    cards beyond those in turn."""
    set_free, kruns = _knocker_targets(knocker_melds)
    lay = deadwood_mask & set_free
    for s, run in kruns:
        part = deadwood_mask >> (13 * s) & FULL
        if chained:
            lay |= _chain(part, run) << (13 * s)
        else:
            lay |= (part & _adjacent(run)) << (13 * s)
    return lay


# ---------------------------------------------------------------------------------------------
# Three or four players: the defenders lay off in turn


@dataclass(frozen=True, slots=True)
class Spread:
    """A defender's hand given as laid down: his own melds and his deadwood before layoffs."""

    melds: tuple[int, ...]
    deadwood: int


def grown_melds(knocker_melds: Sequence[int], laid_off: int) -> tuple[int, ...]:
    """The knocker's melds after the cards ``laid_off`` on them: each run grown by the cards that
    chain from its ends, each set of three by its fourth card."""
    out = []
    for m in knocker_melds:
        if meld_is_set(m):
            r = _rank_of_set(m)
            rank_cards = sum(1 << (13 * s + r) for s in range(4))
            out.append(m | (laid_off & rank_cards))
        elif meld_is_run(m):
            low = (m & -m).bit_length() - 1
            s = low // 13
            out.append(m | _chain(laid_off >> (13 * s) & FULL, m >> (13 * s) & FULL) << (13 * s))
        else:
            out.append(m)
    return tuple(out)


def _melds_within(mask: int) -> list[int]:
    """Every legal meld made of cards of ``mask``: sets of 3 or 4 of a rank, runs of 3 or more."""
    melds: list[int] = []
    for r in range(13):
        held = [1 << (13 * s + r) for s in range(4) if mask >> (13 * s + r) & 1]
        for size in (3, 4):
            melds.extend(sum(combo) for combo in combinations(held, size))
    for s in range(4):
        part = mask >> (13 * s) & FULL
        rest = part
        while rest:
            low = rest & -rest
            rest ^= low
            melds.extend(run << (13 * s) for run in _runs_from(part, low))
    return melds


def _meld_collections(melds: list[int], start: int = 0, used: int = 0) -> Iterator[tuple[int, ...]]:
    """Every collection of pairwise disjoint melds of ``melds[start:]`` that avoid ``used``."""
    yield ()
    for k in range(start, len(melds)):
        m = melds[k]
        if not m & used:
            for rest in _meld_collections(melds, k + 1, used | m):
                yield (m, *rest)


def _least_plays(defender: int | Spread, knocker_melds: Sequence[int], chained: bool) -> list[DefenderPlay]:
    """Every play of least deadwood a defender has against these melds, one for each different
    set of cards laid off (what the next defender can build on). A play lays off every card it
    can: a card held back scores as deadwood."""
    if isinstance(defender, Spread):
        laid_off = layoff_closure(defender.deadwood, knocker_melds, chained)
        dead = defender.deadwood & ~laid_off
        return [DefenderPlay(hand_points(dead), defender.melds, laid_off, dead)]
    best = INF
    plays: dict[int, DefenderPlay] = {}
    for own in _meld_collections(_melds_within(defender)):
        rest = defender
        for m in own:
            rest &= ~m
        laid_off = layoff_closure(rest, knocker_melds, chained)
        dead = rest & ~laid_off
        points = hand_points(dead)
        if points < best:
            best = points
            plays.clear()
        if points == best and laid_off not in plays:
            plays[laid_off] = DefenderPlay(points, _sort_melds(own), laid_off, dead)
    return list(plays.values())


def _single_play(defender: int | Spread, knocker_melds: Sequence[int], chained: bool) -> DefenderPlay:
    if isinstance(defender, Spread):
        return _least_plays(defender, knocker_melds, chained)[0]
    return defender_best(defender, knocker_melds, chained)


def _plan(
    defenders: Sequence[int | Spread], knocker_melds: Sequence[int]
) -> tuple[tuple[int, ...], list[DefenderPlay]]:
    """Chained layoffs in seat order: the first defender's least deadwood, and among his equal
    choices the one that leaves the next defenders, in seat order, the least (the key is the
    tuple of every defender's deadwood, compared in seat order)."""
    first, later = defenders[0], defenders[1:]
    if not later:
        play = _single_play(first, knocker_melds, True)
        return (play[0],), [play]
    best: tuple[tuple[int, ...], list[DefenderPlay]] | None = None
    for play in _least_plays(first, knocker_melds, True):
        key, plays = _plan(later, grown_melds(knocker_melds, play[2]))
        if best is None or (play[0], *key) < best[0]:
            best = ((play[0], *key), [play, *plays])
    assert best is not None  # a defender always has a play
    return best


def defenders_in_turn(
    defenders: Sequence[int | Spread], knocker_melds: Sequence[int], chained: bool = True
) -> list[DefenderPlay]:
    """Each defender's play (deadwood points, own melds, layoffs, deadwood), in seat order after
    the knocker. A defender is a hand mask (the search chooses his melds and layoffs) or a Spread.

    ``chained``: each defender chooses his least deadwood given what the defenders before him
    laid off, and may extend a run their layoffs extended; where he has several equally good
    choices, the one leaving the defenders after him, in seat order, the least deadwood is taken
    (ruling). Otherwise every defender lays off onto the knocker's melds as laid down only.
    """
    if not defenders:
        return []
    if not chained or len(defenders) == 1:
        return [_single_play(d, knocker_melds, chained) for d in defenders]
    return _plan(defenders, knocker_melds)[1]


# ---------------------------------------------------------------------------------------------
# Card text straight to the search's bits


def _spellings() -> dict[str, int]:
    """Every spelling of a card that ``cards.parse_card`` accepts without trimming (``QS``, ``qs``,
    ``Q♠``, ``10H``, ``TH``, ``t♡``, ...), to its bit index: the table is built by asking
    ``parse_card`` itself, so it can never disagree with it."""
    table = {}
    for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "J", "Q", "K"):
        for rank_text in {rank, rank.lower()}:
            for suit_text in "SHDCshdc♠♥♦♣♤♡♢♧":
                table[rank_text + suit_text] = parse_card(rank_text + suit_text).index
    return table


INDEX_OF_TEXT: dict[str, int] = _spellings()
_BIT_OF_TEXT: dict[str, int] = {text: 1 << i for text, i in INDEX_OF_TEXT.items()}


def card_index(text: str) -> int:
    """The bit index of one card given as text; a token the table does not hold goes through
    ``cards.parse_card``, whose CardError says what is wrong with it."""
    index = INDEX_OF_TEXT.get(text) if isinstance(text, str) else None
    if index is not None:
        return index
    card = parse_card(text)
    if card.is_joker:
        raise CardError(str(text).strip(), "the Joker is not in the Oklahoma Gin pack (one 52-card pack, no Joker)")
    return card.index


def _mask_slowly(cards: Iterable[str]) -> int:
    """``mask_of_text`` for a hand with a token the table does not hold or a card named twice."""
    mask = 0
    for text in cards:
        bit = 1 << card_index(text)
        if mask & bit:
            label = CARD_BY_INDEX[bit.bit_length() - 1].label
            raise CardError(label, f"{label} is named twice: the pack holds one of each card")
        mask |= bit
    return mask


# Each spelling's bit as a float, for adding a usual hand's cards in line (float additions are
# cheaper than additions of 52-bit ints). Exact: the bits are powers of two below 2**52, and a sum
# of distinct ones has at most 52 bits, which a double holds. A card named twice makes a carry
# (or, past 2**53, a rounding) and neither ever adds a set bit: such a hand has fewer set bits than
# cards, as with the int sum.
_FLOAT_BIT_OF_TEXT: dict[str, float] = {text: float(bit) for text, bit in _BIT_OF_TEXT.items()}


def mask_of_text(cards: Sequence[str], _f: dict[str, float] = _FLOAT_BIT_OF_TEXT) -> int:
    """The hand mask of cards given as text (``["QS", "10h", "T♥"]``): one table look-up a card.
    Raises CardError for a token that is not a card of the pack or a card named twice."""
    n = len(cards)
    try:
        if n == 10:  # the usual hands (10 cards, or 11 before the discard): their look-ups in line
            t0, t1, t2, t3, t4, t5, t6, t7, t8, t9 = cards
            mask = int(_f[t0] + _f[t1] + _f[t2] + _f[t3] + _f[t4] + _f[t5] + _f[t6] + _f[t7] + _f[t8] + _f[t9])
        elif n == 11:
            t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10 = cards
            ten = _f[t0] + _f[t1] + _f[t2] + _f[t3] + _f[t4] + _f[t5] + _f[t6] + _f[t7] + _f[t8] + _f[t9]
            mask = int(ten + _f[t10])
        else:
            mask = sum([_BIT_OF_TEXT[text] for text in cards])
    except (KeyError, TypeError):
        return _mask_slowly(cards)
    if mask.bit_count() != n:  # a carry: some card was named twice
        return _mask_slowly(cards)
    return mask


# ``T`` and ``_T_RUN`` of a suit less one rank, by that rank's bit (a list per rank, read at the
# bits 1, 2, 4 .. 4096 only): the deadwood with a rank's set taken, one look-up a suit.
_T_LESS: list[list[int]] = [[]] * 4097
_T_RUN_LESS: list[list[int]] = [[]] * 4097
for _r in range(13):
    _keep = FULL ^ 1 << _r
    _T_LESS[1 << _r] = [T[m & _keep] for m in range(8192)]
    _T_RUN_LESS[1 << _r] = [_T_RUN[m & _keep] for m in range(8192)]


def least_deadwood_of_text(
    cards: Sequence[str], _f: dict[str, float] = _FLOAT_BIT_OF_TEXT, _t: list[int] = T, _less: list[list[int]] = _T_LESS
) -> int:
    """``best_deadwood`` of a hand given as text: ``mask_of_text`` and the search's common cases (no
    rank held three times; one rank held three times) in one step, the rest through
    ``_least_with_sets``. A hand of other than ten cards fails the unpacking (ValueError) and goes
    through ``mask_of_text``, as does one with a token the table does not hold."""
    try:
        t0, t1, t2, t3, t4, t5, t6, t7, t8, t9 = cards
        mask = int(_f[t0] + _f[t1] + _f[t2] + _f[t3] + _f[t4] + _f[t5] + _f[t6] + _f[t7] + _f[t8] + _f[t9])
    except (KeyError, TypeError, ValueError):
        return best_deadwood(mask_of_text(cards))
    if mask.bit_count() != 10:
        return best_deadwood(_mask_slowly(cards))
    low = mask & 67108863  # spades and hearts
    high = mask >> 26  # diamonds and clubs
    a = low & 8191
    b = low >> 13
    c = high & 8191
    d = high >> 13
    # a rank held three times is held by spades and hearts, or by diamonds and clubs (or both),
    # and by one more suit: each pair tested only where it shares a rank (most hands: neither)
    x = a & b
    y = c & d
    if (not x or not x & (c | d)) and (not y or not y & (a | b)):
        return _t[a] + _t[b] + _t[c] + _t[d]
    multi = (x & (c | d)) | (y & (a | b))
    if multi & (multi - 1) or x & y:  # two such ranks, or a rank held four times
        return _least_with_sets(mask, a, b, c, d, multi)
    # one rank held three times: that set, or none
    less = _less[multi]
    taken = less[a] + less[b] + less[c] + less[d]
    none = _t[a] + _t[b] + _t[c] + _t[d]
    return taken if taken < none else none


def best_arrangement_of_text(
    cards: Sequence[str],
    _f: dict[str, float] = _FLOAT_BIT_OF_TEXT,
    _t_run: list[int] = _T_RUN,
    _less: list[list[int]] = _T_RUN_LESS,
) -> tuple[int, tuple[int, ...], int]:
    """``best_arrangement`` of a hand given as text, the common cases (no rank held three times;
    one rank held three times) in one step (other sizes and odd tokens as in
    ``least_deadwood_of_text``)."""
    try:
        t0, t1, t2, t3, t4, t5, t6, t7, t8, t9 = cards
        mask = int(_f[t0] + _f[t1] + _f[t2] + _f[t3] + _f[t4] + _f[t5] + _f[t6] + _f[t7] + _f[t8] + _f[t9])
    except (KeyError, TypeError, ValueError):
        return best_arrangement(mask_of_text(cards))
    if mask.bit_count() != 10:
        return best_arrangement(_mask_slowly(cards))
    low = mask & 67108863
    high = mask >> 26
    a = low & 8191
    b = low >> 13
    c = high & 8191
    d = high >> 13
    x = a & b  # as in least_deadwood_of_text
    y = c & d
    if (not x or not x & (c | d)) and (not y or not y & (a | b)):
        value = _t_run[a] + _t_run[b] + _t_run[c] + _t_run[d]
        if value < _RUN:  # no run either: all deadwood
            return value, (), mask
        melds = _RUNS_S[a] + _RUNS_H[b] + _RUNS_D[c] + _RUNS_C[d]
        # the melds are disjoint: the hand less their sum is the deadwood (mostly one run)
        return value & 127, melds, mask - melds[0] if len(melds) == 1 else mask - sum(melds)
    multi = (x & (c | d)) | (y & (a | b))
    if multi & (multi - 1) or x & y:
        return _arrangement_with_sets(mask, a, b, c, d, multi)
    # one rank held three times: that set (the hand's cards on that rank), or none; each read once
    # from ``_T_RUN`` (deadwood below 128, plus 128 for each suit laying a run)
    less = _less[multi]
    with_set = less[a] + less[b] + less[c] + less[d]
    without = _t_run[a] + _t_run[b] + _t_run[c] + _t_run[d]
    value = with_set & 127
    none = without & 127
    if value < none:
        taken = mask & _RANK_CARDS[multi]
        if with_set < 128:  # the set and no run
            return value, (taken,), mask - taken
        keep = 8191 ^ multi
        melds = (taken,) + _RUNS_S[a & keep] + _RUNS_H[b & keep] + _RUNS_D[c & keep] + _RUNS_C[d & keep]
        return value, melds, mask - sum(melds)
    if without < 128:  # no set, no run
        return none, (), mask
    melds = _RUNS_S[a] + _RUNS_H[b] + _RUNS_D[c] + _RUNS_C[d]
    return none, melds, mask - melds[0] if len(melds) == 1 else mask - sum(melds)
