"""Oklahoma Gin: the search for a hand's least-deadwood arrangement and the defender's layoffs.

A hand is a 52-bit int mask, bit ``suit * 13 + rank - 1`` (A=0 .. K=12; suits S H D C), the
same bit as ``cards.Card.index``; a *suit mask* is one suit's 13 bits. The ace is low only in
gin (A-2-3, never Q-K-A). The masks and tables have names (``BB_SUIT``, ``BB_RANKS``,
``RUN_DEADWOOD``), as in python-chess's bitboards.

How it works (exact):

* Runs never cross suits, so per suit mask ``m`` the table ``RUN_DEADWOOD[m]`` holds the least
  deadwood of that suit's cards when only runs are formed (dynamic programming on the lowest
  card: it is deadwood, or it starts a run i..j). ``RUNS[m]`` holds one set of runs reaching it.
* Sets are only possible on ranks held three or four times. Without such a rank (most hands)
  the answer is the sum of the four suits' ``RUN_DEADWOOD``. Otherwise every choice of sets on
  those ranks (no set, each 3-subset, the 4-set: ``_set_choices``) is tried and the cards left
  go through the table. A rank holds at most one set in one pack, so this covers every
  arrangement; the first best choice is taken, so ties are broken alike everywhere.
* Before the discard (one card more): ``DISCARD_DEADWOOD[m]`` is the best of ``RUN_DEADWOOD[m - c]``
  over the cards c of ``m``; the discard is never a card of a chosen set (discarding it is the
  same as choosing the smaller set or none), so the best is the best set choice plus the best
  suit to discard from (``DISCARD_GAIN``).

Defender layoffs: see ``defender_best``; three or four players lay off in turn: ``defenders_in_turn``.

Caches: the pure functions of a suit mask or of a hand's set ranks (``_set_removals``,
``_least_covers``, ``_cover_runs``, ``_suit_play``, ...) are ``@cached`` (``caches.clear_caches``
forgets them). With ``gin.py``'s two they halve the cost of scoring a Gin deal (callgrind, 300
generated deals through ``gin.play``: 1,507 k instructions a deal without them, 723 k with them).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from .caches import cached

__all__ = [
    "BB_SUIT",
    "BB_RANKS",
    "VALUES",
    "RUN_DEADWOOD",
    "RUNS",
    "hand_points",
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
]

# The bits: four suits of thirteen ranks.
RANK_COUNT = 13
SUIT_COUNT = 4
SUIT_SHIFTS: tuple[int, ...] = tuple(RANK_COUNT * s for s in range(SUIT_COUNT))  # a suit's lowest bit
SUIT_MASK_COUNT = 1 << RANK_COUNT  # how many suit masks there are (the size of a suit table)

BB_SUIT = SUIT_MASK_COUNT - 1  # the thirteen cards of one suit, as a suit mask
BB_SPADES, BB_HEARTS, BB_DIAMONDS, BB_CLUBS = (BB_SUIT << shift for shift in SUIT_SHIFTS)  # 52-bit masks
BB_ACES = sum(1 << shift for shift in SUIT_SHIFTS)  # the four cards of the lowest rank (52-bit)
BB_RANKS: tuple[int, ...] = tuple(BB_ACES << r for r in range(RANK_COUNT))  # the four cards of each rank

VALUES: tuple[int, ...] = tuple(min(r + 1, 10) for r in range(RANK_COUNT))  # card points by rank index
INF = 10**6


class Arranged(NamedTuple):
    """A hand's arrangement: its deadwood points, its melds (52-bit masks) and its deadwood mask."""

    points: int
    melds: tuple[int, ...]
    deadwood: int


class Discarded(NamedTuple):
    """A hand's arrangement after its best discard: deadwood points, melds, deadwood mask and the
    discard (a bit index)."""

    points: int
    melds: tuple[int, ...]
    deadwood: int
    discard: int


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


class SetChoice(NamedTuple):
    """One choice of sets: the suit masks the sets leave, and the sets (52-bit masks, by rank)."""

    spades: int
    hearts: int
    diamonds: int
    clubs: int
    sets: tuple[int, ...]

    @property
    def suits(self) -> tuple[int, int, int, int]:
        return self.spades, self.hearts, self.diamonds, self.clubs


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


def suits_of(mask: int) -> tuple[int, int, int, int]:
    """The four suit masks of a hand: spades, hearts, diamonds, clubs."""
    return (
        mask & BB_SUIT,
        mask >> SUIT_SHIFTS[1] & BB_SUIT,
        mask >> SUIT_SHIFTS[2] & BB_SUIT,
        mask >> SUIT_SHIFTS[3] & BB_SUIT,
    )


def _split(mask: int) -> tuple[int, int, int, int, int]:
    """The four suit masks of a hand and the ranks (a suit mask) it holds three or four times."""
    a, b, c, d = suits_of(mask)
    return a, b, c, d, (a & b & (c | d)) | (c & d & (a | b))


# ---------------------------------------------------------------------------------------------
# The suit tables


def _suit_points() -> list[int]:
    """Card points of every suit mask."""
    points = [0] * SUIT_MASK_COUNT
    for m in range(1, SUIT_MASK_COUNT):
        low = m & -m
        points[m] = points[m ^ low] + VALUES[low.bit_length() - 1]
    return points


SUIT_POINTS: list[int] = _suit_points()


def hand_points(mask: int) -> int:
    """Card points of every card in a 52-bit mask."""
    return sum(SUIT_POINTS[suit] for suit in suits_of(mask))


def _runs_from(m: int, low: int) -> Iterator[int]:
    """Every run (3 or more consecutive cards) of suit mask ``m`` that starts at card ``low``."""
    run = low
    i = j = low.bit_length() - 1
    while j + 1 < RANK_COUNT and m >> (j + 1) & 1:
        j += 1
        run |= 1 << j
        if j >= i + 2:
            yield run


def _run_tables() -> tuple[list[int], list[tuple[int, ...]]]:
    """``RUN_DEADWOOD`` and ``RUNS``: per suit mask, the least deadwood when only runs are formed
    and one set of runs reaching it."""
    deadwood = [0] * SUIT_MASK_COUNT
    runs: list[tuple[int, ...]] = [()] * SUIT_MASK_COUNT
    for m in range(1, SUIT_MASK_COUNT):
        low = m & -m
        rest = m ^ low
        best = deadwood[rest] + VALUES[low.bit_length() - 1]  # the lowest card is deadwood
        best_runs = runs[rest]
        for run in _runs_from(m, low):  # or it starts a run
            if deadwood[m ^ run] < best:
                best = deadwood[m ^ run]
                best_runs = (run, *runs[m ^ run])
        deadwood[m] = best
        runs[m] = best_runs
    return deadwood, runs


def _discard_tables() -> tuple[list[int], list[int]]:
    """``DISCARD_DEADWOOD`` and ``DISCARD_CARD``: per suit mask, the least ``RUN_DEADWOOD`` after
    discarding one of its cards, and the first card reaching it (-1 for an empty suit)."""
    least = [INF] * SUIT_MASK_COUNT
    card = [-1] * SUIT_MASK_COUNT
    for m in range(1, SUIT_MASK_COUNT):
        for i in bits_of(m):
            if RUN_DEADWOOD[m ^ 1 << i] < least[m]:
                least[m], card[m] = RUN_DEADWOOD[m ^ 1 << i], i
    return least, card


RUN_DEADWOOD, RUNS = _run_tables()
DISCARD_DEADWOOD, DISCARD_CARD = _discard_tables()
# What discarding from a suit changes: DISCARD_DEADWOOD[m] - RUN_DEADWOOD[m] (INF for an empty suit).
DISCARD_GAIN: list[int] = [DISCARD_DEADWOOD[m] - RUN_DEADWOOD[m] if m else INF for m in range(SUIT_MASK_COUNT)]


# Per suit, by suit mask: ``RUNS[m]`` placed in the suit (52-bit masks), and the cards they leave.
RUNS_IN: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(run << shift for run in runs) for runs in RUNS) for shift in SUIT_SHIFTS
)
LEFT_IN: tuple[tuple[int, ...], ...] = tuple(
    tuple((m & ~sum(runs)) << shift for m, runs in enumerate(RUNS)) for shift in SUIT_SHIFTS
)


# ---------------------------------------------------------------------------------------------
# Choices of sets


@cached(maxsize=None)
def _set_options(rank: int, pattern: int) -> tuple[tuple[int, int, int, int], ...]:
    """The choices of a set on one rank held by the suits of ``pattern`` (bit s: suit s holds it),
    as the cards each takes from the four suits (suit masks): no set first, then each 3-subset,
    then the 4-set."""
    suits = [s for s in range(SUIT_COUNT) if pattern >> s & 1]
    bit = 1 << rank
    options = [(0, 0, 0, 0)]
    for size in (3, 4) if len(suits) == 4 else (3,):
        for combo in combinations(suits, size):
            a, b, c, d = (bit if s in combo else 0 for s in range(SUIT_COUNT))
            options.append((a, b, c, d))
    return tuple(options)


def _set_choices(a: int, b: int, c: int, d: int, multi: int) -> list[SetChoice]:
    """Every choice of sets on the ranks in ``multi``, as the suit masks left and the sets chosen:
    the lowest rank's choice varies slowest, and for each rank no set comes first."""
    held = (a & multi, b & multi, c & multi, d & multi)
    return [SetChoice(a & ~xa, b & ~xb, c & ~xc, d & ~xd, sets) for (xa, xb, xc, xd), sets in _set_removals(*held)]


@cached(maxsize=4096)
def _set_removals(a: int, b: int, c: int, d: int) -> tuple[tuple[tuple[int, int, int, int], tuple[int, ...]], ...]:
    """Every choice of sets among a hand's cards on its ranks held three or four times (suit masks
    ``a b c d``), as the cards it takes from each suit and the sets (52-bit masks, by rank)."""
    choices: list[tuple[tuple[int, int, int, int], tuple[int, ...]]] = [((0, 0, 0, 0), ())]
    for r in bits_of(a | b | c | d):
        pattern = (a >> r & 1) | (b >> r & 1) << 1 | (c >> r & 1) << 2 | (d >> r & 1) << 3
        grown = []
        for (ta, tb, tc, td), sets in choices:
            for xa, xb, xc, xd in _set_options(r, pattern):
                if xa | xb | xc | xd:
                    taken = xa | xb << SUIT_SHIFTS[1] | xc << SUIT_SHIFTS[2] | xd << SUIT_SHIFTS[3]
                    grown.append(((ta | xa, tb | xb, tc | xc, td | xd), (*sets, taken)))
                else:
                    grown.append(((ta, tb, tc, td), sets))
        choices = grown
    return tuple(choices)


def _choices(mask: int) -> list[SetChoice]:
    return _set_choices(*_split(mask))


def _without_discard(choice: SetChoice) -> int:
    """The least deadwood of the cards a choice of sets leaves, formed into runs."""
    return (
        RUN_DEADWOOD[choice.spades]
        + RUN_DEADWOOD[choice.hearts]
        + RUN_DEADWOOD[choice.diamonds]
        + RUN_DEADWOOD[choice.clubs]
    )


def _after_discard(choice: SetChoice) -> int:
    """``_without_discard`` after the best discard from one of the suits."""
    spades, hearts, diamonds, clubs = choice.suits
    gain = min(DISCARD_GAIN[spades], DISCARD_GAIN[hearts], DISCARD_GAIN[diamonds], DISCARD_GAIN[clubs])
    return _without_discard(choice) + gain


# ---------------------------------------------------------------------------------------------
# The least deadwood and one arrangement reaching it


def best_deadwood(mask: int) -> int:
    """The least deadwood points of a hand (any number of cards, no discard): the least over the
    choices of sets of the run deadwood of the cards each leaves."""
    a, b, c, d, multi = _split(mask)
    return min(
        RUN_DEADWOOD[a & ~xa] + RUN_DEADWOOD[b & ~xb] + RUN_DEADWOOD[c & ~xc] + RUN_DEADWOOD[d & ~xd]
        for (xa, xb, xc, xd), _ in _set_removals(a & multi, b & multi, c & multi, d & multi)
    )


def best_deadwood_discard(mask: int) -> int:
    """The least deadwood after the best discard (the hand holds one card more)."""
    return min(map(_after_discard, _choices(mask)))


def _arranged(sets: tuple[int, ...], suits: Sequence[int]) -> tuple[tuple[int, ...], int]:
    """The melds (the sets, then each suit's runs from the lowest card up) and the cards they leave."""
    a, b, c, d = suits
    melds = sets + RUNS_IN[0][a] + RUNS_IN[1][b] + RUNS_IN[2][c] + RUNS_IN[3][d]
    return melds, LEFT_IN[0][a] | LEFT_IN[1][b] | LEFT_IN[2][c] | LEFT_IN[3][d]


def best_arrangement(mask: int) -> Arranged:
    """(deadwood points, melds as 52-bit masks, deadwood mask) of a least-deadwood arrangement.

    Melds come sets first (by rank), then runs by suit and rank."""
    choice = min(_choices(mask), key=_without_discard)  # the first of the least
    melds, dead = _arranged(choice.sets, choice.suits)
    return Arranged(_without_discard(choice), melds, dead)


def best_arrangement_discard(mask: int) -> Discarded:
    """For a hand before its discard: (deadwood points, melds, deadwood mask, discard bit index)."""
    if not mask:
        raise ValueError("no card to discard")
    choice = min(_choices(mask), key=_after_discard)  # the first of the least
    suits = list(choice.suits)
    gains = [DISCARD_GAIN[m] for m in suits]
    suit = gains.index(min(gains))
    card = DISCARD_CARD[suits[suit]]
    suits[suit] &= ~(1 << card)
    melds, dead = _arranged(choice.sets, suits)
    return Discarded(_after_discard(choice), melds, dead, SUIT_SHIFTS[suit] + card)


def _sort_melds(melds: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(melds, key=_meld_sort_key))


def _meld_sort_key(m: int) -> tuple[int, int, int]:
    # Sets first by rank, then runs by suit and rank.
    if meld_is_set(m):
        return (0, _rank_of_set(m), 0)
    low = (m & -m).bit_length() - 1
    return (1, low // RANK_COUNT, low % RANK_COUNT)


def _rank_of_set(m: int) -> int:
    low = (m & -m).bit_length() - 1
    return low % RANK_COUNT


# ---------------------------------------------------------------------------------------------
# Every best arrangement (for scoring: the knocker's choice among equals)


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


@cached(maxsize=None)
def _least_covers(m: int) -> frozenset[int]:
    """Every distinct run-cover mask of suit mask ``m`` reaching ``RUN_DEADWOOD[m]`` (the least
    deadwood when only runs are formed): dynamic programming on the lowest card, as the table is
    built (it is deadwood, or it starts a run i..j), kept only where the option reaches the least."""
    if not m:
        return frozenset((0,))
    low = m & -m
    best = RUN_DEADWOOD[m]
    covers: set[int] = set()
    if RUN_DEADWOOD[m ^ low] + VALUES[low.bit_length() - 1] == best:
        covers.update(_least_covers(m ^ low))
    for run in _runs_from(m, low):
        if RUN_DEADWOOD[m ^ run] == best:
            covers.update(run | cover for cover in _least_covers(m ^ run))
    return frozenset(covers)


@cached(maxsize=None)
def _cover_runs(suit: int, m: int) -> tuple[tuple[int, ...], ...]:
    """Each least-deadwood run cover of suit mask ``m`` (in ``sorted`` order) as its maximal runs
    placed in the suit (52-bit masks, lowest first)."""
    shift = SUIT_SHIFTS[suit]
    return tuple(tuple(seg << shift for seg in _segments(cover)) for cover in sorted(_least_covers(m)))


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
                out.extend(found._replace(discard=i) for found in all_best_arrangements(rest))
        return out
    choices = _choices(mask)
    target = min(_without_discard(choice) for choice in choices)
    out = []
    for choice in choices:
        if _without_discard(choice) != target:
            continue
        runs_a, runs_b, runs_c, runs_d = (_cover_runs(suit, m) for suit, m in enumerate(choice.suits))
        for ra in runs_a:
            for rb in runs_b:
                for rc in runs_c:
                    for rd in runs_d:
                        melds = choice.sets + ra + rb + rc + rd
                        out.append(Arrangement(target, melds, mask - sum(melds), None))
    return out


# ---------------------------------------------------------------------------------------------
# Melds


def meld_is_set(m: int) -> bool:
    """3 or 4 cards of one rank."""
    n = m.bit_count()
    if n < 3 or n > 4:
        return False
    a, b, c, d = suits_of(m)
    return (a | b | c | d).bit_count() == 1


def meld_is_run(m: int) -> bool:
    """3 or more consecutive cards of one suit, ace low only."""
    if m.bit_count() < 3:
        return False
    for shift in SUIT_SHIFTS:
        part = m >> shift & BB_SUIT
        if part:
            if part << shift != m:
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
    free &= m
    if not free:
        return RUN_DEADWOOD[m], RUNS[m]
    # DP over sub-masks reachable by removing the lowest card or a run starting at it.
    memo: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}

    def solve(x: int) -> tuple[int, tuple[int, ...]]:
        got = memo.get(x)
        if got is not None:
            return got
        low = x & -x
        c0, r0 = solve(x ^ low)
        best: tuple[int, tuple[int, ...]] = (c0 + (0 if free & low else VALUES[low.bit_length() - 1]), r0)
        for run in _runs_from(x, low):
            c1, r1 = solve(x ^ run)
            if c1 < best[0]:
                best = (c1, (run, *r1))
        memo[x] = best
        return best

    return solve(m)


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
        s = i // RANK_COUNT
        part = m >> SUIT_SHIFTS[s]
        if part <= BB_SUIT:  # one suit: a run when its cards follow one another
            if not (part + (part & -part)) & part:
                runs.append((s, part))
        elif n == 3:  # more suits: a set when every card has the lowest card's rank
            column = BB_RANKS[i - SUIT_SHIFTS[s]]
            if not m & ~column:
                set_free |= column - m
    return set_free, runs


def _chain(part: int, run: int) -> int:
    """The defender's cards (suit mask ``part``) laid off in a chain from both ends of ``run``."""
    out = 0
    nxt = (1 << run.bit_length()) & BB_SUIT
    while nxt and part & nxt:
        out |= nxt
        nxt = (nxt << 1) & BB_SUIT
    low = run & -run
    nxt = low >> 1
    while nxt and part & nxt:
        out |= nxt
        nxt >>= 1
    return out


def _adjacent(run: int) -> int:
    low = run & -run
    return ((1 << run.bit_length()) & BB_SUIT) | (low >> 1)


def _suit_targets(
    knocker_melds: Sequence[int], chained: bool
) -> tuple[int, tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Where a defender may lay off on these melds: every card that can start a layoff (52-bit);
    per suit, the cards that score 0 wherever they go (a 3-set's fourth card; under "original",
    a card touching a run) and the knocker's runs a chain of layoffs grows from (under "chained")."""
    set_free, kruns = _knocker_targets(knocker_melds)
    touch = set_free
    frees = list(suits_of(set_free))
    runs: tuple[list[int], ...] = ([], [], [], [])
    for s, run in kruns:
        touch |= _adjacent(run) << SUIT_SHIFTS[s]
        if chained:
            runs[s].append(run)
        else:
            frees[s] |= _adjacent(run)
    return touch, tuple(frees), tuple(tuple(suit_runs) for suit_runs in runs)


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
    touch, frees, knocker_runs = _suit_targets(knocker_melds, chained)
    if not mask & touch:
        # Nothing touches the knocker's melds: no layoff can start, his own best arrangement it is.
        points, melds, dead = best_arrangement(mask)
        return DefenderPlay(points, melds, 0, dead)
    (free_a, free_b, free_c, free_d), (runs_a, runs_b, runs_c, runs_d) = frees, knocker_runs

    def cost(choice: SetChoice) -> int:
        return (
            _suit_play(choice.spades, free_a, runs_a).points
            + _suit_play(choice.hearts, free_b, runs_b).points
            + _suit_play(choice.diamonds, free_c, runs_c).points
            + _suit_play(choice.clubs, free_d, runs_d).points
        )

    chosen = min(_choices(mask), key=cost)  # the first of the least
    total = 0
    layoff = 0
    dead = 0
    own = chosen.sets
    for shift, p, free, runs in zip(SUIT_SHIFTS, chosen.suits, frees, knocker_runs, strict=True):
        points, own_runs, lay, left = _suit_play(p, free, runs)
        total += points
        own += tuple(run << shift for run in own_runs)
        layoff |= lay << shift
        dead |= left << shift
    return DefenderPlay(total, own, layoff, dead)


@cached(maxsize=65536)
def _suit_play(p: int, free: int, knocker_runs: tuple[int, ...]) -> DefenderPlay:
    """A defender's least deadwood in one suit (cards ``p``, a suit mask): the chains from the
    knocker's runs in it laid off, the ``free`` cards scoring 0. Its play in suit masks."""
    chain = 0
    for run in knocker_runs:
        chain |= _chain(p, run)
    p &= ~chain
    points, runs = _suit_dp_free(p, free)
    rest = p & ~sum(runs)  # the runs are disjoint cards of p
    return DefenderPlay(points, runs, chain | (rest & free), rest & ~free)


def layoff_closure(deadwood_mask: int, knocker_melds: Iterable[int], chained: bool = True) -> int:
    """The defender's deadwood cards that can be laid off when his own melds are given:
    the 4th card of a knocker 3-set, cards just beyond a knocker run's end and, when chained,
    cards beyond those in turn."""
    set_free, kruns = _knocker_targets(knocker_melds)
    lay = deadwood_mask & set_free
    for s, run in kruns:
        part = deadwood_mask >> SUIT_SHIFTS[s] & BB_SUIT
        if chained:
            lay |= _chain(part, run) << SUIT_SHIFTS[s]
        else:
            lay |= (part & _adjacent(run)) << SUIT_SHIFTS[s]
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
            out.append(m | (laid_off & BB_RANKS[r]))
        elif meld_is_run(m):
            low = (m & -m).bit_length() - 1
            s = low // RANK_COUNT
            out.append(
                m | _chain(laid_off >> SUIT_SHIFTS[s] & BB_SUIT, m >> SUIT_SHIFTS[s] & BB_SUIT) << SUIT_SHIFTS[s]
            )
        else:
            out.append(m)
    return tuple(out)


def _melds_within(mask: int) -> list[int]:
    """Every legal meld made of cards of ``mask``: sets of 3 or 4 of a rank, runs of 3 or more."""
    melds: list[int] = []
    for r in range(RANK_COUNT):
        held = bits_of(mask & BB_RANKS[r])
        for size in (3, 4):
            melds.extend(mask_of(combo) for combo in combinations(held, size))
    for s in range(SUIT_COUNT):
        part = mask >> SUIT_SHIFTS[s] & BB_SUIT
        rest = part
        while rest:
            low = rest & -rest
            rest ^= low
            melds.extend(run << SUIT_SHIFTS[s] for run in _runs_from(part, low))
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
