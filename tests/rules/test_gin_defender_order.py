"""``defender_best`` and ``_knocker_targets`` against the code they replaced, answer for answer
(own melds, layoffs and deadwood exactly, not only the points)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from scorekeeper.rules import gin_search as gf


def previous_knocker_targets(knocker_melds: Iterable[int]) -> tuple[int, list[tuple[int, int]]]:
    """(set-layoff mask: the 4th card of each knocker 3-set, [(suit, run suit-mask)])."""
    set_free = 0
    runs = []
    for m in knocker_melds:
        if gf.meld_is_set(m):
            if m.bit_count() == 3:
                r = gf._rank_of_set(m)
                for s in range(4):
                    bit = 1 << (13 * s + r)
                    if not m & bit:
                        set_free |= bit
        elif gf.meld_is_run(m):
            low = (m & -m).bit_length() - 1
            s = low // 13
            runs.append((s, m >> (13 * s) & gf.BB_SUIT))
    return set_free, runs


def previous_defender_best(mask: int, knocker_melds: Sequence[int], chained: bool = True) -> gf.DefenderPlay:
    """``defender_best`` as it was written before the fast paths."""
    set_free, kruns = previous_knocker_targets(knocker_melds)
    if not mask & set_free and not any(mask >> (13 * s) & gf._adjacent(run) for s, run in kruns):
        # Nothing touches the knocker's melds: no layoff can start, his own best arrangement it is.
        points, melds, dead = gf.best_arrangement(mask)
        return gf.DefenderPlay(points, melds, 0, dead)
    a, b, c, d, multi = gf._split(mask)
    fa, fb, fc, fd = (set_free & gf.BB_SUIT, set_free >> 13 & gf.BB_SUIT, set_free >> 26 & gf.BB_SUIT, set_free >> 39)
    if not chained:
        for s, run in kruns:
            adj = gf._adjacent(run)
            if s == 0:
                fa |= adj
            elif s == 1:
                fb |= adj
            elif s == 2:
                fc |= adj
            else:
                fd |= adj
    frees = (fa, fb, fc, fd)
    runs_by_suit: list[list[int]] = [[], [], [], []]
    for s, run in kruns:
        runs_by_suit[s].append(run)
    best: gf.DefenderPlay | None = None
    for ca, cb, cc, cd, sets in gf._set_choices(a, b, c, d, multi):
        total = 0
        layoff = 0
        own = list(sets)
        dead = 0
        for s, p in enumerate((ca, cb, cc, cd)):
            chain = 0
            if chained:
                for run in runs_by_suit[s]:
                    chain |= gf._chain(p, run)
                p &= ~chain
            cost, runs = gf._suit_dp_free(p, frees[s])
            total += cost
            if best is not None and total > best[0]:
                break
            covered = 0
            for r in runs:
                covered |= r
                own.append(r << (13 * s))
            rest = p & ~covered
            lay = chain | (rest & frees[s])
            layoff |= lay << (13 * s)
            dead |= (rest & ~frees[s]) << (13 * s)
        else:
            if best is None or total < best[0]:
                best = gf.DefenderPlay(total, gf._sort_melds(own), layoff, dead)
    assert best is not None  # the first set choice (no set at all) is always scored in full
    return best


def _cases(rnd: random.Random, count: int) -> Iterable[tuple[int, tuple[int, ...]]]:
    for _ in range(count):
        lo = rnd.randint(0, 7)
        pool = [s * 13 + r for s in range(4) for r in range(lo, lo + 6)]
        knock = gf.mask_of(rnd.sample(pool if rnd.random() < 0.7 else range(52), 10))
        arrangements = gf.all_best_arrangements(knock)
        melds = rnd.choice(arrangements)[1]
        rest = [i for i in range(52) if not knock >> i & 1]
        near = [i for i in rest if lo - 1 <= i % 13 < lo + 7]
        n = rnd.choice((7, 10, 10, 10))
        source = near if len(near) >= n and rnd.random() < 0.8 else rest
        yield gf.mask_of(rnd.sample(source, n)), melds


def test_knocker_targets_same_as_before():
    rnd = random.Random(11)
    samples = [0, 1, 7, (1 << 13) | 1, gf.BB_ACES, gf.BB_ACES << 12, (gf.BB_ACES << 3) & ~(1 << 16)]
    samples += [rnd.getrandbits(52) & rnd.getrandbits(52) & rnd.getrandbits(52) for _ in range(3000)]
    for r in range(13):
        for s in range(4):
            samples.append(gf.BB_ACES << r & ~(1 << (13 * s + r)))
            for length in range(2, 14 - r):
                samples.append(((1 << length) - 1) << (13 * s + r))
    for m in samples:
        assert gf._knocker_targets([m]) == previous_knocker_targets([m]), m
    for _ in range(500):
        group = rnd.sample(samples, 4)
        assert gf._knocker_targets(group) == previous_knocker_targets(group)


def test_defender_best_same_as_before():
    rnd = random.Random(5)
    for mask, melds in _cases(rnd, 4000):
        for chained in (True, False):
            assert gf.defender_best(mask, melds, chained) == previous_defender_best(mask, melds, chained), (
                mask,
                melds,
                chained,
            )
