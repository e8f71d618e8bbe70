"""``all_best_arrangements`` (per-suit cover tables) against the search it replaced, list for list:
the same arrangements in the same order, since the scoring takes the first best for the knocker."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import gin_search as gf
from tests.rules.test_gin_search import hands


def _suit_all_runs(m: int) -> set[int]:
    """Every least-cost run cover of suit mask ``m`` (the recursive search the tables replaced)."""
    best = gf.INF
    covers: set[int] = set()

    def rec(rest: int, cover: int, cost: int) -> None:
        nonlocal best
        if cost > best:
            return
        if not rest:
            if cost < best:
                best = cost
                covers.clear()
            covers.add(cover)
            return
        low = rest & -rest
        rec(rest ^ low, cover, cost + gf.VALUES[low.bit_length() - 1])
        for run in gf._runs_from(rest, low):
            rec(rest ^ run, cover | run, cost)

    rec(m, 0, 0)
    return covers


def previous_all_best(mask: int, discard: bool = False) -> list[gf.Arrangement]:
    """``all_best_arrangements`` as it was written before the cover tables."""
    if discard:
        target = gf.best_deadwood_discard(mask)
        out: list[gf.Arrangement] = []
        for i in gf.bits_of(mask):
            rest = mask & ~(1 << i)
            if gf.best_deadwood(rest) == target:
                for v, melds, dead, _ in previous_all_best(rest):
                    out.append(gf.Arrangement(v, melds, dead, i))
        return out
    target = gf.best_deadwood(mask)
    a, b, c, d, multi = gf._split(mask)
    out = []
    seen: set[tuple[int, ...]] = set()
    for ca, cb, cc, cd, sets in gf._set_choices(a, b, c, d, multi):
        parts = (ca, cb, cc, cd)
        if sum(gf.RUN_DEADWOOD[p] for p in parts) != target:
            continue
        per_suit = []
        for s, p in enumerate(parts):
            covers = _suit_all_runs(p)
            per_suit.append([[seg << (13 * s) for seg in gf._segments(cv)] for cv in sorted(covers)])
        for ra in per_suit[0]:
            for rb in per_suit[1]:
                for rc in per_suit[2]:
                    for rd in per_suit[3]:
                        melds = gf._sort_melds(sets + tuple(ra) + tuple(rb) + tuple(rc) + tuple(rd))
                        if melds in seen:
                            continue
                        seen.add(melds)
                        melded = 0
                        for m in melds:
                            melded |= m
                        out.append(gf.Arrangement(target, melds, mask & ~melded, None))
    return out


def test_every_suit_mask_has_the_recursive_searchs_covers():
    for m in range(8192):
        assert set(gf._least_covers(m)) == _suit_all_runs(m), m


@settings(max_examples=400, deadline=None)
@given(st.one_of(hands(10), hands(7), hands(8), hands(4), hands(13)))
def test_all_best_arrangements_same_list_as_before(h):
    assert gf.all_best_arrangements(h) == previous_all_best(h)


@settings(max_examples=300, deadline=None)
@given(st.one_of(hands(11), hands(8)))
def test_all_best_arrangements_with_discard_same_list_as_before(h):
    assert gf.all_best_arrangements(h, discard=True) == previous_all_best(h, discard=True)


def test_all_best_arrangements_same_list_on_many_hands():
    rnd = random.Random(7)
    for _ in range(3000):
        lo = rnd.randint(0, 7)
        n = rnd.choice((7, 8, 10, 11, 12))
        pool = [s * 13 + r for s in range(4) for r in range(lo, lo + 6)] if rnd.random() < 0.7 else range(52)
        h = gf.mask_of(rnd.sample(list(pool), n))
        assert gf.all_best_arrangements(h) == previous_all_best(h)
        if n in (8, 11):
            assert gf.all_best_arrangements(h, discard=True) == previous_all_best(h, discard=True)
