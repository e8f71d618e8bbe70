"""Benchmark of the Oklahoma Gin arrangement search (scorekeeper.rules.gin_search).

Measures, on one core, best arrangements per second for 10- and 11-card hands, random and
"clustered" (cards from six neighbouring ranks: many sets and runs, the hard case), and defender
layoff searches per second. Fixed seed, pre-generated masks, several repeats; prints medians.
Aims: >= 100,000 random and >= 30,000 clustered 10-card hands per second.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from scorekeeper.rules import gin_search as gf

SEED = 20261121
HANDS = 20000
REPEATS = 7


def random_hand(rnd: random.Random, n: int) -> int:
    return gf.mask_of(rnd.sample(range(52), n))


def clustered_hand(rnd: random.Random, n: int) -> int:
    lo = rnd.randint(0, 7)
    pool = [s * 13 + r for s in range(4) for r in range(lo, lo + 6)]
    return gf.mask_of(rnd.sample(pool, n))


def _rate(fn: Callable[[int], object], masks: list[int]) -> float:
    rates = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        for m in masks:
            fn(m)
        rates.append(len(masks) / (time.perf_counter() - start))
    return statistics.median(rates)


def _layoff_cases(rnd: random.Random, count: int) -> list[tuple[int, tuple[int, ...]]]:
    cases: list[tuple[int, tuple[int, ...]]] = []
    while len(cases) < count:
        knock = clustered_hand(rnd, 10)
        _, melds, _ = gf.best_arrangement(knock)
        if not melds:
            continue
        rest = [i for i in range(52) if not knock >> i & 1]
        lo = rnd.randint(0, 7)
        near = [i for i in rest if lo <= i % 13 < lo + 7]
        pool = near if len(near) >= 10 else rest
        cases.append((gf.mask_of(rnd.sample(pool, 10)), melds))
    return cases


def measure(hands: int = HANDS) -> dict[str, float]:
    rnd = random.Random(SEED)
    r10 = [random_hand(rnd, 10) for _ in range(hands)]
    c10 = [clustered_hand(rnd, 10) for _ in range(hands)]
    r11 = [random_hand(rnd, 11) for _ in range(hands)]
    c11 = [clustered_hand(rnd, 11) for _ in range(hands)]
    lay = _layoff_cases(rnd, hands // 4)
    out = {
        "10-card random, least deadwood": _rate(gf.best_deadwood, r10),
        "10-card clustered, least deadwood": _rate(gf.best_deadwood, c10),
        "11-card random, least deadwood + discard": _rate(gf.best_deadwood_discard, r11),
        "11-card clustered, least deadwood + discard": _rate(gf.best_deadwood_discard, c11),
        "10-card random, full arrangement": _rate(gf.best_arrangement, r10),
        "10-card clustered, full arrangement": _rate(gf.best_arrangement, c10),
        "11-card random, full arrangement + discard": _rate(gf.best_arrangement_discard, r11),
        "11-card clustered, full arrangement + discard": _rate(gf.best_arrangement_discard, c11),
    }
    for label, chained in (("chained", True), ("original", False)):
        rates = []
        for _ in range(REPEATS):
            gf._FREE_CACHE.clear()
            start = time.perf_counter()
            for mask, melds in lay:
                gf.defender_best(mask, melds, chained)
            rates.append(len(lay) / (time.perf_counter() - start))
        out[f"defender layoff searches ({label})"] = statistics.median(rates)
    return out


def run(report: Callable[[str], None] = print) -> dict[str, float]:
    results = measure()
    width = max(len(k) for k in results)
    for name, rate in results.items():
        report(f"{name:<{width}}  {rate:>12,.0f} /s   (median of {REPEATS})")
    return results


def main() -> None:
    run()


if __name__ == "__main__":
    main()
