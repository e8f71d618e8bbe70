"""The searches from card text take the same path for every hand they are given (issue 12): ten
cards looked up in line, any other number (or a token the table does not hold) through
``mask_of_text``; no rank held three times, one rank (its set read from a table of the suit less
that rank), or more. Each path gives what the searches on masks give, and the brute force."""

from __future__ import annotations

import random

import pytest

from scorekeeper.rules import gin_search as search
from scorekeeper.rules.cards import CARD_BY_INDEX, CardError
from tests.rules import gin_reference as ref

SUIT_SPELLINGS = {0: "Ss♠♤", 1: "Hh♥♡", 2: "Dd♦♢", 3: "Cc♣♧"}
RANK_SPELLINGS = {1: ["A", "a"], 10: ["10", "T", "t"], 11: ["J", "j"], 12: ["Q", "q"], 13: ["K", "k"]}


def spelled(index: int, rnd: random.Random) -> str:
    card = CARD_BY_INDEX[index]
    return rnd.choice(RANK_SPELLINGS.get(card.rank, [str(card.rank)])) + rnd.choice(SUIT_SPELLINGS[index // 13])


def hands(rnd: random.Random, n: int, count: int) -> list[int]:
    """Random hands, hands of neighbouring ranks (sets and runs) and hands holding one or two ranks
    three or four times, ``count`` of each kind."""
    out = []
    for _ in range(count):
        out.append(search.mask_of(rnd.sample(range(52), n)))
        lo = rnd.randint(0, 7)
        out.append(search.mask_of(rnd.sample([s * 13 + r for s in range(4) for r in range(lo, lo + 6)], n)))
        picks: set[int] = set()
        for r in rnd.sample(range(13), rnd.choice((1, 1, 2))):
            picks.update(13 * s + r for s in rnd.sample(range(4), rnd.choice((3, 3, 4))))
        rest = [i for i in range(52) if i not in picks]
        out.append(search.mask_of([*picks, *rnd.sample(rest, n - len(picks))]))
    return out


@pytest.mark.parametrize("n", [10, 11, 9])
def test_every_path_gives_what_the_mask_searches_give(n):
    rnd = random.Random(1000 + n)
    for mask in hands(rnd, n, 700):
        texts = [spelled(i, rnd) for i in rnd.sample(search.bits_of(mask), n)]
        assert search.least_deadwood_of_text(texts) == search.best_deadwood(mask)
        assert search.best_arrangement_of_text(texts) == search.best_arrangement(mask)
        assert search.best_arrangement_of_text(tuple(texts)) == search.best_arrangement(mask)


def test_the_paths_agree_with_the_brute_force():
    rnd = random.Random(7)
    for mask in hands(rnd, 10, 150):
        texts = [spelled(i, rnd) for i in rnd.sample(search.bits_of(mask), 10)]
        least = ref.least_deadwood(ref.from_mask(mask))
        assert search.least_deadwood_of_text(texts) == least
        points, melds, dead = search.best_arrangement_of_text(texts)
        assert points == least == search.hand_points(dead)
        assert dead | sum(melds) == mask and dead & sum(melds) == 0


def test_one_rank_held_three_times_in_each_choice_of_suits():
    rnd = random.Random(3)
    for r in range(13):
        for suits in ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)):
            picks = {13 * s + r for s in suits}
            for _ in range(30):
                near = [13 * s + q for s in range(4) for q in range(max(r - 2, 0), min(r + 3, 13))]
                pool = [i for i in (near if rnd.random() < 0.7 else range(52)) if i not in picks and i % 13 != r]
                mask = search.mask_of([*picks, *rnd.sample(pool, 7)])
                texts = [CARD_BY_INDEX[i].code for i in search.bits_of(mask)]
                rnd.shuffle(texts)
                assert search.least_deadwood_of_text(texts) == search.best_deadwood(mask)
                assert search.best_arrangement_of_text(texts) == search.best_arrangement(mask)


@pytest.mark.parametrize("n", [10, 11, 3])
def test_bad_hands_of_any_size_are_refused_as_before(n):
    good = ["AS", "2D", "3C", "4H", "5S", "6D", "7C", "8H", "9S", "10D", "JC"][: n - 1]
    for fn in (search.least_deadwood_of_text, search.best_arrangement_of_text):
        with pytest.raises(CardError, match="named twice"):
            fn([*good, "as"])
        with pytest.raises(CardError, match="Joker"):
            fn([*good, "JK"])
        with pytest.raises(CardError):
            fn([*good, "1S"])
        with pytest.raises(CardError):
            fn([*good, 7])  # type: ignore[list-item]
