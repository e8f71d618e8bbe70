"""A player's melded cards given as one flat list (RECORD.md ``melded``), split into legal melds.

RULES.md §1: the score keeper splits the cards into legal melds itself, and asks for the split (or
for a wild card to be named) only where the splits score differently.

What a split scores. Every natural card scores its own value wherever it lies, a named wild the card
it names, the Joker 100 whatever it stands for: all that is the same for every split. Only an unnamed
2 scores by the card it stands for, 5, 10 or 20. So a split (with a reading of its wild cards) is
worth a constant plus what its unnamed 2s stand for, and two splits score differently exactly when
their unnamed 2s stand for cards of different values.

The search is exact: a sweep over the places a card can take, 1 (the low ace), 2 … 13, 14 (the
high ace). At each place, suit by suit, every open sequence of the suit either ends (if it has 3
cards or more, and a natural card when it holds a free wild) or takes a card of this place: a
natural card, a named wild, or a free wild; new sequences may start; the suit's other cards of the
place wait for the sets of this rank (an ace not used at place 1 waits for place 14). Then those
cards and some free wilds make sets of 3–4 (a set with a free wild holds a natural card). The sweep
does not tell a free 2 from a Joker: it counts the free wilds it lays by what a 2 would score
there (5, 10 or 20), and the Jokers are placed among those wilds at the end, every way they can be.
The state (place, suit, the open sequences by length 1/2/3+ and what they hold, the aces kept for
place 14, the cards waiting for the sets, the free wilds left) is memoised, and for each count of
wilds by value it keeps the split with the fewest melds, how many ways reach it, and a second way.

A split is accepted when every way scores one total; several totals are an error that shows one
split for each. With no split at all, the same sweep, allowed to leave cards out, finds the fewest
cards that cannot be placed, and the error names them. Each meld of the split found is checked and
scored by ``check_meld`` as if entered alone; where the cards also lie in other melds for the same
score, the note says which split was taken and shows another.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations_with_replacement

from .caches import cached
from .cards import ACE, Card, CardError, Token
from .errors import Fix, RecordError
from .messages import N_, Msg, either, msg, nmsg, ranks
from .oklahoma_meld_shortcut import check_meld
from .oklahoma_melds import (
    HIGH_ACE,
    LOW_ACE,
    PLACE_CODE,
    PLACE_LABEL,
    SRC_MELD,
    SRC_NOTATION,
    Entered,
    MeldCheck,
    entered,
    labels_of,
    set_card_code,
    two_points_at,
    without_joker,
)
from .profiles import OklahomaRules
from .results import Line

SRC_SPLIT = "ruling"  # RULES.md §1: the split is asked for only where splits score differently

MAX_CARDS = 60  # more than any player melds in a deal
MAX_STATES = 60_000  # the sweep's states for one list; past it, the melds are asked for


@dataclass(frozen=True, slots=True)
class MeldedCheck:
    """The verdict on one player's melded cards: the split found, or why there is none.

    ``melds`` are the melds of the split, each checked as if entered alone (labels, lines, notes);
    ``lines`` add up to ``points``. ``note`` says which split was taken where the cards also lie
    in other melds for the same score. ``errors`` carry no deal or player (the deal check adds
    them); ``unplaced`` names the cards no split can place."""

    ok: bool
    melds: tuple[MeldCheck, ...] = ()
    points: int = 0
    lines: tuple[Line, ...] = ()
    errors: tuple[RecordError, ...] = ()
    note: Msg | str = ""
    unplaced: tuple[str, ...] = ()

    @property
    def labels(self) -> tuple[tuple[str, ...], ...]:
        return tuple(m.labels for m in self.melds)


def _error(message: Msg, rule: str, source: str, cards: Sequence[str] = ()) -> RecordError:
    return RecordError(message, rule=rule, source=source, cards=tuple(cards))


# --------------------------------------------------------------------------------------------
# A meld of a split: its fixed cards (natural or named, by place code suit * 16 + rank) and free wilds.

NATURAL, NAMED = 0, 1


def _code(suit: int, rank: int) -> int:
    return suit * 16 + rank


def _rank_at(place: int) -> int:
    return ACE if place in (LOW_ACE, HIGH_ACE) else place


_PLACE_RANK = tuple(_rank_at(q) if 1 <= q <= 14 else 0 for q in range(17))  # rank 0: no card there


@dataclass(frozen=True, slots=True)
class _Meld:
    """One meld of a split as the search laid it: the fixed cards it takes (code, kind), its free
    2s and Jokers, and for a sequence its suit, its places and where its free wilds stand."""

    fixed: tuple[tuple[int, int], ...]
    twos: int
    jokers: int
    rank: int = 0  # a set's rank
    suit: int = -1  # a sequence's suit
    low: int = 0
    high: int = 0
    joker_places: tuple[int, ...] = ()
    two_places: tuple[int, ...] = ()


# --------------------------------------------------------------------------------------------
# What the free wilds are worth: a count of wild places by value, coded c5 + 16·c10 + 256·c20.

_UNIT = {5: 1, 10: 16, 20: 256}


def _unit(place: int) -> int:
    """The count code of one free wild standing at a place (a set's wilds stand at its rank's place)."""
    return _UNIT[two_points_at(place)]


def _by_value(key: int) -> tuple[int, int, int]:
    return key & 15, (key >> 4) & 15, key >> 8


def _totals(key: int, jokers: int) -> dict[int, tuple[int, int, int]]:
    """What the free 2s score, for each way the Jokers can lie among these wild places: the total
    -> how many Jokers stand at 5-, 10- and 20-point places."""
    have = _by_value(key)
    out: dict[int, tuple[int, int, int]] = {}
    for choice in combinations_with_replacement(range(3), jokers):
        counts = (choice.count(0), choice.count(1), choice.count(2))
        if all(c <= h for c, h in zip(counts, have, strict=True)):
            total = sum(v * (h - c) for v, h, c in zip((5, 10, 20), have, counts, strict=True))
            out.setdefault(total, counts)
    return out


# --------------------------------------------------------------------------------------------
# The sweep.

END, NATURAL_CARD, NAMED_CARD, WILD = 0, 1, 2, 3  # what an open sequence takes at a place
_Run = tuple[int, bool, bool]  # an open sequence: its length (3 for 3 or more), a natural card in it, a free wild in it
_NO_RUNS: tuple[tuple[_Run, ...], ...] = ((), (), (), ())
_SweepState = tuple[
    int,  # place
    int,  # suit (0–3), or 4: the sets of the place's rank
    tuple[tuple[_Run, ...], ...],  # the open sequences by suit, sorted
    tuple[tuple[int, int], ...],  # the aces each suit keeps after place 1 for place 14 or a set: (natural, named)
    int,  # natural cards of the place's rank waiting for the sets
    int,  # named cards waiting for the sets
    int,  # free wilds left
]


@dataclass(frozen=True, slots=True)
class _Move:
    """One step of the sweep. At a suit: what each group of alike open sequences does (``actions``:
    run, how many end, take a natural, a named card, a free wild) and the sequences started
    (natural, named, wild). At the sets: the sets as (naturals, named, wilds) each, and in the
    cover search the waiting cards left out (naturals, named)."""

    actions: tuple[tuple[_Run, int, int, int, int], ...] = ()
    started: tuple[int, int, int] = (0, 0, 0)
    sets: tuple[tuple[int, int, int], ...] = ()
    left: tuple[int, int] = (0, 0)


_Step = tuple[_Move, _SweepState, int]  # a move, the state after it, the key the rest must reach


@dataclass(slots=True)
class _Best:
    """How a state reaches one key: the way with the fewest melds (the first found among equals),
    how many ways (counted up to 2), and another first step when there is one."""

    melds: int
    step: _Step | None = None
    ways: int = 1
    second: _Step | None = None


class _TooMany(Exception):
    """The sweep went past MAX_STATES."""


def _closable(run: _Run) -> bool:
    length, has_natural, has_free = run
    return length >= 3 and (has_natural or not has_free)


def _grown(run: _Run, what: int) -> _Run:
    length, has_natural, has_free = run
    return (3 if length >= 2 else length + 1, has_natural or what == NATURAL_CARD, has_free or what == WILD)


_STARTED: dict[int, _Run] = {NATURAL_CARD: (1, True, False), NAMED_CARD: (1, False, False), WILD: (1, False, True)}


class _Sweep:
    """Totals mode: for every count of free wilds by value that a complete split (with a reading of
    its wilds) can lay, the split with the fewest melds. Cover mode: the fewest cards left out."""

    def __init__(self, natural: list[list[int]], named: list[list[int]], wilds: int, cover: bool) -> None:
        natural[0][0] = natural[1][0] = natural[2][0] = natural[3][0] = 0  # rank 0: beyond the places
        named[0][0] = named[1][0] = named[2][0] = named[3][0] = 0
        self.natural, self.named = natural, named  # [suit][rank 1..13]: cards entered
        self.cover = cover
        # [suit][place 0..16]: (natural, named) cards there, and how many (0 beyond the high ace)
        self.at = [[(natural[s][r], named[s][r]) for r in _PLACE_RANK] for s in range(4)]
        self.count_at = [[natural[s][r] + named[s][r] for r in _PLACE_RANK] for s in range(4)]
        # [suit][place]: cards of the place's rank in the suits after this one (for the sets' pool)
        self.later = [[sum(self.count_at[t][q] for t in range(s + 1, 4)) for q in range(17)] for s in range(4)]
        self.memo: dict[_SweepState, dict[int, _Best]] = {}
        self.wild_ok = _wild_places(natural, named, wilds)
        by_rank = [sum(natural[s][r] + named[s][r] for s in range(4)) for r in range(14)]
        naturals_by_rank = [sum(natural[s][r] for s in range(4)) for r in range(14)]
        # Can this rank make a set at all (3 cards with the wilds, a natural card if a wild is needed)?
        self.set_ok = [by_rank[r] >= 3 or (naturals_by_rank[r] > 0 and by_rank[r] + wilds >= 3) for r in range(14)]
        self.start = self._normal((LOW_ACE, 0, _NO_RUNS, ((0, 0),) * 4, 0, 0, wilds))

    def have(self, place: int, suit: int, aces: tuple[tuple[int, int], ...]) -> tuple[int, int]:
        """The natural and named cards of a suit at a place (at 14, the aces kept from place 1)."""
        return aces[suit] if place == HIGH_ACE else self.at[suit][place]

    def _normal(self, state: _SweepState) -> _SweepState:
        """Skip the steps with nothing to decide: a suit with no card here, no open sequence and no
        free wild that could stand here; the sets of a place with no card waiting."""
        place, suit, runs, aces, pool_natural, pool_named, wilds = state
        while place <= HIGH_ACE:
            if suit < 4:
                if runs[suit] or (wilds and self.wild_ok[suit][place]):
                    break
                if (aces[suit] if place == HIGH_ACE else self.at[suit][place]) != (0, 0):
                    break
                suit += 1
            elif pool_natural or pool_named or place == HIGH_ACE:
                break
            else:
                place, suit = place + 1, 0
        return (place, suit, runs, aces, pool_natural, pool_named, wilds)

    def reach(self, state: _SweepState | None = None) -> dict[int, _Best]:
        """Totals mode: each count of wilds by value (see _UNIT) -> the best way. Cover mode: the
        fewest cards left out -> the best way."""
        state = self.start if state is None else state
        known = self.memo.get(state)
        if known is not None:
            return known
        if len(self.memo) >= MAX_STATES:
            raise _TooMany
        out: dict[int, _Best] = {}
        place, suit = state[0], state[1]
        if place > HIGH_ACE:
            if self.cover:
                out[state[6]] = _Best(0)
            elif not state[6]:
                out[0] = _Best(0)
        else:
            moves = self._suit_moves(state) if suit < 4 else self._set_moves(state)
            for move, then, gained, melds in moves:
                then = self._normal(then)
                for key, sub in self.reach(then).items():
                    total, count = key + gained, sub.melds + melds
                    hit = out.get(total)
                    if hit is None:
                        out[total] = _Best(count, (move, then, key), min(sub.ways, 2))
                    else:
                        _merge(hit, count, (move, then, key), sub.ways)
            if self.cover and out:  # only the fewest cards left out matter
                least = min(out)
                out = {least: out[least]}
        self.memo[state] = out
        return out

    def _suit_moves(self, state: _SweepState) -> list[tuple[_Move, _SweepState, int, int]]:
        """What the open sequences of one suit do at this place, the sequences it starts, and where
        its other cards of the place go (to wait for the sets; after place 1, the aces for 14)."""
        place, suit, runs, aces, pool_natural, pool_named, wilds = state
        have_natural, have_named = self.have(place, suit, aces)
        free = wilds if self.wild_ok[suit][place] else 0
        may_wait = self.cover or place == LOW_ACE or self.set_ok[_rank_at(place)]
        options = _suit_options(runs[suit], have_natural, have_named, free, place <= HIGH_ACE - 2)
        unit = _unit(place)
        next_cards, after_cards = self.count_at[suit][place + 1], self.count_at[suit][place + 2]
        moves = []
        waiting = pool_natural + pool_named
        later = self.later[suit][place]
        for move, new_runs, took, ended, rest_natural, rest_named, short, shortest in options:
            if rest_natural or rest_named:
                if not may_wait:
                    continue  # no set of this rank can be made: every card of it lies in a sequence
                if (
                    not self.cover
                    and waiting + rest_natural + rest_named + later + wilds - took < 3
                    and place != LOW_ACE
                ):
                    continue  # too few cards of this rank, with the wilds, for the set they wait for
            if short:  # every sequence shorter than 3 takes a card at the next place, of length 1 after it too
                left = wilds - took
                if place == HIGH_ACE or next_cards + left < short:
                    continue
                if shortest and (place + 2 > HIGH_ACE or after_cards + left < shortest):
                    continue
            next_runs = (*runs[:suit], new_runs, *runs[suit + 1 :])
            if place == LOW_ACE:  # the aces not in a sequence from A wait for place 14 or a set
                next_aces = (*aces[:suit], (rest_natural, rest_named), *aces[suit + 1 :])
                then = (place, suit + 1, next_runs, next_aces, pool_natural, pool_named, wilds - took)
            else:
                then = (
                    place,
                    suit + 1,
                    next_runs,
                    aces,
                    pool_natural + rest_natural,
                    pool_named + rest_named,
                    wilds - took,
                )
            moves.append((move, then, 0 if self.cover else took * unit, ended))
        return moves

    def _set_moves(self, state: _SweepState) -> list[tuple[_Move, _SweepState, int, int]]:
        """The sets of this place's rank from the cards waiting and some free wilds. At the high
        ace every sequence still open ends."""
        place, _, runs, aces, pool_natural, pool_named, wilds = state
        closed = 0
        if place == HIGH_ACE:
            open_runs = [run for suit_runs in runs for run in suit_runs]
            if not all(_closable(run) for run in open_runs):
                return []
            closed, runs = len(open_runs), _NO_RUNS
        unit = _unit(place)
        moves = []
        for groups, set_wilds, left in _set_options(pool_natural, pool_named, wilds, self.cover):
            then = (place + 1, 0, runs, aces, 0, 0, wilds - set_wilds)
            gained = sum(left) if self.cover else set_wilds * unit
            moves.append((_Move(sets=groups, left=left), then, gained, len(groups) + closed))
        return moves


def _merge(hit: _Best, melds: int, step: _Step, ways: int) -> None:
    """Another way to a key already reached: count it, keep the fewest melds, and a second way."""
    hit.ways = min(hit.ways + ways, 2)
    if melds < hit.melds:
        hit.second = hit.second or hit.step
        hit.melds, hit.step = melds, step
    elif hit.second is None:
        hit.second = step


def _wild_places(natural: list[list[int]], named: list[list[int]], wilds: int) -> list[list[bool]]:
    """Where a free wild may stand at all: in a sequence with a natural card of its suit, the places
    between them held by cards of the suit or by the other free wilds ([suit][place 0..14])."""
    ok = [[False] * (HIGH_ACE + 1) for _ in range(4)]
    if not wilds:
        return ok
    for suit in range(4):
        held = [0] * (HIGH_ACE + 1)
        has_natural = [False] * (HIGH_ACE + 1)
        for place in range(LOW_ACE, HIGH_ACE + 1):
            rank = _rank_at(place)
            held[place] = natural[suit][rank] + named[suit][rank]
            has_natural[place] = natural[suit][rank] > 0
        for place in range(LOW_ACE, HIGH_ACE + 1):
            for other in range(max(LOW_ACE, place - 13), min(HIGH_ACE, place + 13) + 1):
                if other == place or not has_natural[other]:
                    continue
                between = range(min(place, other) + 1, max(place, other))
                if 1 + sum(1 for q in between if not held[q]) <= wilds:
                    ok[suit][place] = True
                    break
    return ok


def _groups(runs: tuple[_Run, ...]) -> list[tuple[_Run, int]]:
    """Alike open sequences counted (the tuple is sorted)."""
    out: list[tuple[_Run, int]] = []
    for run in runs:
        if out and out[-1][0] == run:
            out[-1] = (run, out[-1][1] + 1)
        else:
            out.append((run, 1))
    return out


def _group_actions(
    groups: list[tuple[_Run, int]], naturals: int, named: int, wilds: int
) -> list[list[tuple[_Run, int, int, int, int]]]:
    """Every way the groups of alike open sequences of a suit end or take a card here: (run, how
    many end, take a natural, a named card, a free wild), within the cards and wilds there are."""
    if not groups:
        return [[]]
    (run, count), rest = groups[0], groups[1:]
    out = []
    for ends in range(count + 1 if _closable(run) else 1):
        for with_natural in range(min(count - ends, naturals) + 1):
            for with_named in range(min(count - ends - with_natural, named) + 1):
                with_wild = count - ends - with_natural - with_named
                if with_wild > wilds:
                    continue
                for tail in _group_actions(rest, naturals - with_natural, named - with_named, wilds - with_wild):
                    out.append([(run, ends, with_natural, with_named, with_wild), *tail])
    return out


@cached(maxsize=8192)
def _suit_options(
    runs: tuple[_Run, ...], naturals: int, named: int, wilds: int, may_start: bool
) -> tuple[tuple[_Move, tuple[_Run, ...], int, int, int, int, int, int], ...]:
    """Every move of one suit at a place, whatever the place: (the move, the open sequences after
    it, free wilds taken, sequences ended, natural and named cards left for the sets, sequences
    shorter than 3 after it, of length 1)."""
    out = []
    for actions in _group_actions(_groups(runs), naturals, named, wilds):
        grown: list[_Run] = []
        took_natural = took_named = took_wild = ended = 0
        for run, ends, with_natural, with_named, with_wild in actions:
            ended += ends
            took_natural += with_natural
            took_named += with_named
            took_wild += with_wild
            grown += [_grown(run, NATURAL_CARD)] * with_natural + [_grown(run, NAMED_CARD)] * with_named
            grown += [_grown(run, WILD)] * with_wild
        spare_natural, spare_named = naturals - took_natural, named - took_named
        starts = (
            [
                (a, b, c)
                for a in range(spare_natural + 1)
                for b in range(spare_named + 1)
                for c in range(wilds - took_wild + 1)
            ]
            if may_start
            else [(0, 0, 0)]
        )
        for started in starts:
            new_runs = grown + [_STARTED[NATURAL_CARD]] * started[0] + [_STARTED[NAMED_CARD]] * started[1]
            new_runs += [_STARTED[WILD]] * started[2]
            out.append(
                (
                    _Move(actions=tuple(actions), started=started),
                    tuple(sorted(new_runs)),
                    took_wild + started[2],
                    ended,
                    spare_natural - started[0],
                    spare_named - started[1],
                    sum(1 for run in new_runs if run[0] < 3),
                    sum(1 for run in new_runs if run[0] == 1),
                )
            )
    return tuple(out)


@cached(maxsize=4096)
def _set_groups(naturals: int, named: int, wilds: int) -> tuple[tuple[int, int, int], ...] | None:
    """The fewest sets (3–4 cards; a set with a free wild holds a natural card) that take exactly
    these cards and wilds, as (naturals, named, wilds) each; None when no sets can."""
    if naturals + named + wilds == 0:
        return ()
    best: tuple[tuple[int, int, int], ...] | None = None
    for size in (4, 3):
        for a in range(min(naturals, size), -1, -1):
            for c in range(min(wilds, size - a), -1, -1):
                b = size - a - c
                if b > named or (c and not a):
                    continue
                rest = _set_groups(naturals - a, named - b, wilds - c)
                if rest is not None and (best is None or len(rest) + 1 < len(best)):
                    best = ((a, b, c), *rest)
    return best


@cached(maxsize=4096)
def _set_options(
    naturals: int, named: int, wilds: int, cover: bool
) -> tuple[tuple[tuple[tuple[int, int, int], ...], int, tuple[int, int]], ...]:
    """The ways to make the sets of a rank: (the sets, the free wilds they take, cards left out)."""
    out = []
    lefts = [(a, b) for a in range(naturals + 1) for b in range(named + 1)] if cover else [(0, 0)]
    for left in lefts:
        n, m = naturals - left[0], named - left[1]
        for set_wilds in range(wilds + 1 if n else 1):  # a free wild in a set lies with a natural card
            groups = _set_groups(n, m, set_wilds)
            if groups is not None:
                out.append((groups, set_wilds, left))
    return tuple(out)


# --------------------------------------------------------------------------------------------
# The melds of a way found, replayed place by place with the cards themselves.


def _path(sweep: _Sweep, key: int, other: bool = False) -> tuple[list[tuple[_SweepState, _Move]], _SweepState] | None:
    """The moves of the best way to ``key`` and the state it ends in; with ``other``, of a second
    way (None when there is no second way)."""
    state = sweep.start
    steps: list[tuple[_SweepState, _Move]] = []
    diverged = not other
    while True:
        best = sweep.reach(state)[key]
        if best.step is None:
            return (steps, state) if diverged else None
        step = best.step
        if not diverged:
            if best.second is not None:
                step, diverged = best.second, True
            elif best.ways < 2:
                return None
        move, then, key = step
        steps.append((state, move))
        state = then


@dataclass(slots=True)
class _Laid:
    """A meld as the replay lays it: a sequence (suit, its cards [place, what]) or a set (its
    rank's place, its fixed cards, its free wilds' slots)."""

    suit: int
    place: int = 0
    cards: list[list[int]] = field(default_factory=list)  # a sequence: [place, NATURAL_CARD | NAMED_CARD | WILD]
    fixed: list[tuple[int, int]] = field(default_factory=list)  # a set: (code, kind)
    wilds: int = 0  # a set: its free wilds
    run: _Run = (0, False, False)


def _replay(sweep: _Sweep, steps: list[tuple[_SweepState, _Move]]) -> tuple[list[_Laid], list[tuple[int, int]]]:
    """The melds laid by these moves, and the fixed cards left out (cover search) as (code, kind)."""
    laid: list[_Laid] = []
    left: list[tuple[int, int]] = []
    open_runs: list[list[_Laid]] = [[], [], [], []]
    pool: list[tuple[int, int]] = []  # (suit, NATURAL | NAMED) of this place's rank
    for state, move in steps:
        place, suit = state[0], state[1]
        if suit < 4:
            _replay_suit(place, suit, move, sweep.have(place, suit, state[3]), open_runs[suit], pool, laid)
        else:
            _replay_sets(place, move, open_runs, pool, laid, left)
    return laid, left


def _replay_suit(
    place: int,
    suit: int,
    move: _Move,
    have: tuple[int, int],
    runs: list[_Laid],
    pool: list[tuple[int, int]],
    laid: list[_Laid],
) -> None:
    alike: dict[_Run, list[_Laid]] = {}
    for r in runs:
        alike.setdefault(r.run, []).append(r)
    kept: list[_Laid] = []
    natural, named = have
    for run, ends, naturals, nameds, wilds in move.actions:
        group = alike[run]
        laid += group[:ends]
        takes = [NATURAL_CARD] * naturals + [NAMED_CARD] * nameds + [WILD] * wilds
        for r, what in zip(group[ends:], takes, strict=True):
            r.cards.append([place, what])
            r.run = _grown(r.run, what)
            kept.append(r)
        natural -= naturals
        named -= nameds
    for what, count in zip((NATURAL_CARD, NAMED_CARD, WILD), move.started, strict=True):
        kept += [_Laid(suit, cards=[[place, what]], run=_STARTED[what]) for _ in range(count)]
    runs[:] = kept
    if place != LOW_ACE:  # the aces left at place 1 wait for place 14
        pool += [(suit, NATURAL)] * (natural - move.started[0]) + [(suit, NAMED)] * (named - move.started[1])


def _replay_sets(
    place: int,
    move: _Move,
    open_runs: list[list[_Laid]],
    pool: list[tuple[int, int]],
    laid: list[_Laid],
    left: list[tuple[int, int]],
) -> None:
    rank = _rank_at(place)
    naturals = [card for card in pool if card[1] == NATURAL]
    named = [card for card in pool if card[1] == NAMED]
    left_natural, left_named = move.left
    for suit, kind in naturals[len(naturals) - left_natural :] + named[len(named) - left_named :]:
        left.append((_code(suit, rank), kind))
    for a, b, c in move.sets:
        fixed = [(_code(suit, rank), kind) for suit, kind in naturals[:a] + named[:b]]
        naturals, named = naturals[a:], named[b:]
        laid.append(_Laid(-1, place, fixed=fixed, wilds=c))
    pool.clear()
    if place == HIGH_ACE:
        for runs in open_runs:
            laid += runs
            runs.clear()


Slot = tuple[int, int, int]  # a free wild's place: its value (5, 10, 20), its place, its meld's index


def _as_melds(laid: list[_Laid], jokers: tuple[int, int, int]) -> list[_Meld]:
    """The melds with their free wilds told apart: the Jokers stand at the highest wild places of
    the values ``jokers`` counts (5, 10, 20 points), the 2s everywhere else."""
    on_jokers = _joker_slots(_wild_slots(laid), jokers)
    return [
        _set_meld(meld, on_jokers, i) if meld.suit < 0 else _run_meld(meld, on_jokers, i) for i, meld in enumerate(laid)
    ]


def _wild_slots(laid: list[_Laid]) -> list[Slot]:
    """Every free wild's place, meld by meld."""
    slots: list[Slot] = []
    for i, meld in enumerate(laid):
        if meld.suit < 0:
            slots += [(two_points_at(meld.place), meld.place, i)] * meld.wilds
        else:
            slots += [(two_points_at(place), place, i) for place, what in meld.cards if what == WILD]
    return slots


def _joker_slots(slots: list[Slot], jokers: tuple[int, int, int]) -> list[Slot]:
    """The places the Jokers take: of each value, as many as ``jokers`` counts, the highest first."""
    taken: list[Slot] = []
    for value, count in zip((5, 10, 20), jokers, strict=True):
        taken += sorted((s for s in slots if s[0] == value), key=lambda s: (-s[1], s[2]))[:count]
    return taken


def _set_meld(meld: _Laid, on_jokers: list[Slot], i: int) -> _Meld:
    """A set (meld ``i``) with its free wilds told apart."""
    with_jokers = sum(1 for s in on_jokers if s[2] == i)
    return _Meld(tuple(meld.fixed), meld.wilds - with_jokers, with_jokers, rank=_rank_at(meld.place))


def _run_meld(meld: _Laid, on_jokers: list[Slot], i: int) -> _Meld:
    """A sequence (meld ``i``) with its free wilds told apart, each at its place."""
    fixed = tuple(
        (_code(meld.suit, _rank_at(place)), NATURAL if what == NATURAL_CARD else NAMED)
        for place, what in meld.cards
        if what != WILD
    )
    wild_places = [place for place, what in meld.cards if what == WILD]
    jokers = tuple(q for q in wild_places if (two_points_at(q), q, i) in on_jokers)
    twos = tuple(q for q in wild_places if q not in jokers)
    return _Meld(
        fixed,
        len(twos),
        len(jokers),
        suit=meld.suit,
        low=meld.cards[0][0],
        high=meld.cards[-1][0],
        joker_places=jokers,
        two_places=twos,
    )


# --------------------------------------------------------------------------------------------
# check_melded: parse, sweep, and check each meld of the split found.


def check_melded(tokens: Sequence[str | Token | Card], rules: OklahomaRules) -> MeldedCheck:
    """Split one player's melded cards (any order) into legal melds and score them.

    Accepted when every legal split, with every legal reading of its wild cards, scores the same;
    the split with the fewest melds is taken (``note`` says so where the cards lie in other melds
    too). Verdicts depend on the cards and the Joker knob only: they are cached."""
    try:
        return _melded_verdict(tuple(tokens), rules)
    except TypeError:  # something unhashable was entered
        return _check_melded(tokens, rules)


@cached(maxsize=1024)
def _melded_verdict(tokens: tuple[object, ...], rules: OklahomaRules) -> MeldedCheck:
    return _check_melded(tokens, rules)


def _check_melded(tokens: Sequence[object], rules: OklahomaRules) -> MeldedCheck:
    cards: list[Entered] = []
    errors: list[RecordError] = []
    for raw in tokens:
        try:
            cards.append(entered(raw))
        except CardError as exc:
            errors.append(_error(exc.message, "card notation", SRC_NOTATION, [exc.token]))
    if errors:
        return MeldedCheck(ok=False, errors=tuple(errors))
    if not rules.joker and any(e.joker for e in cards):
        jokers = [e.label for e in cards if e.joker]
        error = _error(msg("this game is played without the Joker"), N_("no Joker"), without_joker(rules), jokers)
        return MeldedCheck(ok=False, errors=(error,))
    if len(cards) > MAX_CARDS:
        message = msg("{n} melded cards: more than a player melds in a deal", n=len(cards))
        return MeldedCheck(ok=False, errors=(_error(message, N_("melds"), SRC_MELD),))
    if not cards:
        return MeldedCheck(ok=True)
    cards.sort(key=_entry_order)
    counts = _Counts.of(cards)
    try:
        sweep = _Sweep(counts.natural, counts.named, counts.twos + counts.jokers, cover=False)
        totals = _every_total(sweep, counts.jokers)
        if not totals:
            return _no_split(cards, counts)
        if len(totals) > 1:
            return _splits_differ(cards, sweep, totals)
        return _accepted(cards, sweep, totals, rules)
    except _TooMany:
        message = nmsg(
            "these {n} card can be laid in too many ways to work out here: give the melds one by one",
            "these {n} cards can be laid in too many ways to work out here: give the melds one by one",
            len(cards),
        )
        return MeldedCheck(ok=False, errors=(_error(message, N_("melds"), SRC_SPLIT, labels_of(cards)),))


def _every_total(sweep: _Sweep, jokers: int) -> dict[int, list[tuple[int, tuple[int, int, int]]]]:
    """Each total the free 2s can score -> the ways to it: (the sweep's key, where the Jokers stand),
    the one with the fewest melds first."""
    reached = sweep.reach()
    out: dict[int, list[tuple[int, tuple[int, int, int]]]] = {}
    for key in sorted(reached, key=lambda k: (reached[k].melds, k)):
        for total, on_jokers in _totals(key, jokers).items():
            out.setdefault(total, []).append((key, on_jokers))
    return dict(sorted(out.items()))


@dataclass(frozen=True, slots=True)
class _Counts:
    """The cards for the sweep: natural and named cards by [suit][rank], free 2s and Jokers."""

    natural: list[list[int]]
    named: list[list[int]]
    twos: int
    jokers: int

    @staticmethod
    def of(cards: list[Entered]) -> _Counts:
        natural = [[0] * 14 for _ in range(4)]
        named = [[0] * 14 for _ in range(4)]
        twos = jokers = 0
        for e in cards:
            if not e.wild:
                natural[e.suit][e.rank] += 1
            elif e.named_rank:
                named[e.named_suit][e.named_rank] += 1
            elif e.joker:
                jokers += 1
            else:
                twos += 1
        return _Counts(natural, named, twos, jokers)


def _entry_order(e: Entered) -> tuple[int, int, int, str]:
    """Cards in a fixed order (naturals, named wilds, 2s, the Joker), so the split found does not
    depend on the order the cards were entered in."""
    kind = 0 if not e.wild else (1 if e.named_rank else (3 if e.joker else 2))
    return (kind, e.suit, e.rank, e.label)


class _Tokens:
    """The entered cards handed out to the melds of a split: each meld takes, for each fixed card,
    an entered card of that place and kind, and its free 2s and Jokers in entry order."""

    def __init__(self, cards: list[Entered]) -> None:
        self.fixed: dict[tuple[int, int], list[Entered]] = {}
        self.twos: list[Entered] = []
        self.jokers: list[Entered] = []
        for e in cards:
            if not e.wild:
                self.fixed.setdefault((_code(e.suit, e.rank), NATURAL), []).append(e)
            elif e.named_rank:
                self.fixed.setdefault((_code(e.named_suit, e.named_rank), NAMED), []).append(e)
            elif e.joker:
                self.jokers.append(e)
            else:
                self.twos.append(e)

    def take(self, meld: _Meld) -> list[Entered]:
        taken = [self.fixed[card].pop(0) for card in meld.fixed]
        taken += [self._two_for(meld) for _ in range(meld.twos)]
        taken += [self.jokers.pop(0) for _ in range(meld.jokers)]
        return taken

    def _two_for(self, meld: _Meld) -> Entered:
        """A 2 of the sequence's suit where it can stand for itself, else the first 2."""
        if meld.suit >= 0 and 2 in meld.two_places:
            own = next((e for e in self.twos if e.suit == meld.suit), None)
            if own is not None:
                self.twos.remove(own)
                return own
        return self.twos.pop(0)


def _split(sweep: _Sweep, key: int, on_jokers: tuple[int, int, int], other: bool = False) -> list[_Meld] | None:
    found = _path(sweep, key, other)
    if found is None:
        return None
    return _as_melds(_replay(sweep, found[0])[0], on_jokers)


def _accepted(
    cards: list[Entered], sweep: _Sweep, totals: dict[int, list[tuple[int, tuple[int, int, int]]]], rules: OklahomaRules
) -> MeldedCheck:
    [ways] = totals.values()
    key, on_jokers = ways[0]
    melds = _split(sweep, key, on_jokers) or []
    tokens = _Tokens(cards)
    checks = [check_meld([e.token for e in tokens.take(meld)], rules) for meld in melds]
    errors = [e for check in checks for e in check.errors]
    if errors:  # not expected: the sweep and check_meld read melds alike (a test holds them to it)
        return MeldedCheck(ok=False, melds=tuple(c for c in checks if c.ok), errors=tuple(errors))
    points = sum(c.points for c in checks)
    lines = tuple(line for check in checks for line in check.lines)
    others = [_split(sweep, key, on_jokers, other=True)] + [_split(sweep, k, j) for k, j in ways[1:]]
    other = next((m for m in others if m is not None and _partition(m) != _partition(melds)), None)
    note: Msg | str = ""
    if other is not None:
        note = msg(
            "split as {split}; {other} would score the same ({points})",
            split=_shown(checks),
            other=_shown_search(other, cards),
            points=points,
        )
    return MeldedCheck(ok=True, melds=tuple(checks), points=points, lines=lines, note=note)


def _partition(melds: Sequence[_Meld]) -> list[tuple[object, ...]]:
    """A split as the cards of each meld, whatever its wild cards stand for."""
    return sorted((tuple(sorted(m.fixed)), m.twos, m.jokers) for m in melds)


def _shown(checks: Sequence[MeldCheck]) -> str:
    return " · ".join(" ".join(c.labels) for c in checks)


def _shown_search(melds: Sequence[_Meld], cards: list[Entered]) -> str:
    """A split as the search laid it, each wild in a sequence with the card it stands for."""
    tokens = _Tokens(cards)
    return " · ".join(_meld_text(meld, tokens.take(meld)) for meld in melds)


def _meld_text(meld: _Meld, taken: list[Entered]) -> str:
    if meld.suit < 0:
        return " ".join(e.label for e in taken)
    labels = PLACE_LABEL[meld.suit]
    free = set(meld.two_places) | set(meld.joker_places)
    ace_places = [q for q in (LOW_ACE, HIGH_ACE) if meld.low <= q <= meld.high and q not in free]
    by_place: dict[int, str] = {}
    for e in taken[: len(meld.fixed)]:
        rank = e.named_rank or e.rank
        by_place[ace_places.pop(0) if rank == ACE else rank] = e.label
    wilds = taken[len(meld.fixed) :]
    for q, e in zip(meld.two_places, [e for e in wilds if not e.joker], strict=True):
        by_place[q] = f"{e.card_label}={labels[q]}"
    for q, e in zip(meld.joker_places, [e for e in wilds if e.joker], strict=True):
        by_place[q] = f"{e.card_label}={labels[q]}"
    return " ".join(by_place[q] for q in sorted(by_place))


def _splits_differ(
    cards: list[Entered], sweep: _Sweep, totals: dict[int, list[tuple[int, tuple[int, int, int]]]]
) -> MeldedCheck:
    """Splits (or readings of their wild cards) that score differently: show one for each total."""
    constant = _constant_points(cards)
    shown = []
    fixes = []
    for total, ways in list(totals.items())[:3]:
        key, on_jokers = ways[0]
        melds = _split(sweep, key, on_jokers) or []
        shown.append(msg("{split} ({points})", split=_shown_search(melds, cards), points=constant + total))
        fixes.append(Fix(names=_twos_named(melds, cards), points=constant + total))
    if len(totals) > 3:
        shown.append(nmsg("{n} other total", "{n} other totals", len(totals) - 3))
    twos = [e.card_label for e in cards if e.wild and not e.joker and not e.named_rank]
    splits = either(shown)
    if twos:
        message = msg(
            "these cards split into melds several ways that score differently: {splits}; "
            "give the melds one by one, or name the 2s ({twos})",
            splits=splits,
            twos=" ".join(twos),
        )
    else:
        message = msg(
            "these cards split into melds several ways that score differently: {splits}; "
            "give the melds one by one, or name the 2s",
            splits=splits,
        )
    error = _error(message, N_("melds: name the split"), SRC_SPLIT, labels_of(cards))
    if twos and all(fix.names for fix in fixes):
        error = replace(error, fixes=tuple(fixes))
    return MeldedCheck(ok=False, errors=(error,))


def _twos_named(melds: Sequence[_Meld], cards: list[Entered]) -> tuple[str, ...]:
    """The unnamed 2s named as this split lays them (``2C=7H``; in a set, a card of its rank):
    entered so, every split of the cards scores the same, this split's total."""
    tokens = _Tokens(cards)
    names = []
    for meld in melds:
        taken = tokens.take(meld)
        twos = [e for e in taken[len(meld.fixed) :] if not e.joker]
        if meld.suit >= 0:
            names += [f"{e.card_code}={PLACE_CODE[meld.suit][q]}" for q, e in zip(meld.two_places, twos, strict=True)]
        elif twos:
            code = set_card_code(taken[0] if meld.fixed else None, meld.rank)
            names += [f"{e.card_code}={code}" for e in twos]
    return tuple(names)


def _free_two_points(rank: int) -> int:
    """What a 2 scores standing for a card of ``rank`` (a 2 standing for a 2: 5; for Q♠: 10)."""
    return 5 if rank == 2 else two_points_at(rank)


def _constant_points(cards: list[Entered]) -> int:
    """What every split scores besides its unnamed 2s."""
    total = 0
    for e in cards:
        if not e.wild:
            assert e.value is not None
            total += e.value.points
        elif e.joker:
            total += 100
        elif e.named_rank:
            total += _free_two_points(e.named_rank)
    return total


def _no_split(cards: list[Entered], counts: _Counts) -> MeldedCheck:
    """No split places every card: name the fewest cards that cannot be placed."""
    sweep = _Sweep(counts.natural, counts.named, counts.twos + counts.jokers, cover=True)
    found = _path(sweep, min(sweep.reach()))
    assert found is not None
    steps, end = found
    laid, left = _replay(sweep, steps)
    wilds_left = end[6]
    placed_jokers = min(counts.jokers, counts.twos + counts.jokers - wilds_left)  # the wilds left out: 2s first
    melds = _as_melds(laid, _jokers_anywhere(laid, placed_jokers))
    tokens = _Tokens(cards)
    for meld in melds:
        tokens.take(meld)
    unplaced = [tokens.fixed[card].pop(0) for card in left] + tokens.twos + tokens.jokers
    labels = [e.label for e in sorted(unplaced, key=_entry_order)]
    why = _why_unplaced(unplaced)
    if melds:
        message = msg(
            "{cards} cannot be placed in a legal meld beside {placed}: {why}",
            cards=" ".join(labels),
            placed=_shown_search(melds, cards),
            why=why,
        )
    else:
        message = msg("{cards} cannot be placed in a legal meld: {why}", cards=" ".join(labels), why=why)
    error = _error(message, N_("melds"), SRC_SPLIT, labels)
    return MeldedCheck(ok=False, errors=(error,), unplaced=tuple(labels))


def _jokers_anywhere(laid: list[_Laid], jokers: int) -> tuple[int, int, int]:
    """Where ``jokers`` Jokers can stand among the free wilds laid, counted by value (cover search)."""
    have = [0, 0, 0]
    for meld in laid:
        places = [meld.place] * meld.wilds if meld.suit < 0 else [p for p, what in meld.cards if what == WILD]
        for place in places:
            have[(5, 10, 20).index(two_points_at(place))] += 1
    out = [0, 0, 0]
    for i in (2, 1, 0):
        out[i] = min(have[i], jokers)
        jokers -= out[i]
    return (out[0], out[1], out[2])


def _why_unplaced(cards: list[Entered]) -> Msg:
    if cards and all(e.wild and not e.named_rank for e in cards):
        return msg("wild cards need a natural card in their meld (a meld of wild cards only names every card)")
    ranks_left = {e.named_rank or e.rank for e in cards if not (e.wild and not e.named_rank)}
    if len(ranks_left) == 1 and len(cards) < 3:
        return msg(
            "a set is 3 or 4 {ranks}, a sequence 3 or more cards of one suit in order", ranks=ranks(ranks_left.pop())
        )
    return msg("a set is 3 or 4 cards of one rank, a sequence 3 or more cards of one suit in order")
