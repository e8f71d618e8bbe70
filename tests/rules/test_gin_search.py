"""The Gin arrangement search against a slow brute force, and its fixed points."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import gin_search as gf
from scorekeeper.rules.cards import parse_card
from tests.rules import gin_reference as ref


def hand(text: str) -> int:
    return gf.mask_of(parse_card(t).index for t in text.split())


def cards_of(mask: int) -> set[str]:
    return {
        f"{['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'][i % 13]}{'SHDC'[i // 13]}"
        for i in gf.bits_of(mask)
    }


# ---------------------------------------------------------------------------------------------
# Strategies: random hands, and "clustered" hands from six neighbouring ranks (sets and runs
# overlapping everywhere: the hard case).


def random_hands(n: int):
    return st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True).map(gf.mask_of)


@st.composite
def clustered_hands(draw, n: int):
    lo = draw(st.integers(0, 7))
    pool = [s * 13 + r for s in range(4) for r in range(lo, lo + 6)]
    picks = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n, unique=True))
    return gf.mask_of(picks)


def hands(n: int):
    return st.one_of(random_hands(n), clustered_hands(n))


FAST = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------------------------
# Tables


def test_table_values():
    assert gf.VALUES == (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
    assert gf.RUN_DEADWOOD[0] == 0
    assert gf.RUN_DEADWOOD[0b111] == 0  # A-2-3
    assert gf.RUN_DEADWOOD[0b11] == 3  # A, 2
    assert gf.RUN_DEADWOOD[0b1_0000_0000_0011] == 13  # A 2 K: no Q-K-A, no K-A-2
    assert gf.RUN_DEADWOOD[(1 << 11) | (1 << 12) | 1] == 21  # Q K A: the ace is low only
    assert gf.RUN_DEADWOOD[gf.BB_SUIT] == 0
    assert gf.DISCARD_DEADWOOD[0b1111] == 0 and gf.DISCARD_CARD[0b1111] in (0, 3)


def test_ace_is_low_only():
    assert gf.best_deadwood(hand("QS KS AS")) == 21
    assert gf.best_deadwood(hand("KS AS 2S")) == 13
    assert gf.best_deadwood(hand("AS 2S 3S")) == 0
    assert not gf.meld_is_run(hand("QS KS AS"))
    assert gf.meld_is_run(hand("AS 2S 3S"))


def test_sets_and_runs_compete_for_a_card():
    # 7♠ can go in the 7s or in 5-6-7♠ (not both): the best takes the run and leaves 7♥ 7♦.
    h = hand("5S 6S 7S 7H 7D 8D 9D")
    assert gf.best_deadwood(h) == ref.least_deadwood(ref.from_mask(h))
    # Three of the four 4s each end a run; the 4♣ is left over.
    h2 = hand("4S 4H 4D 4C 5S 6S 5H 6H 2D 3D")
    assert gf.best_deadwood(h2) == 4 == ref.least_deadwood(ref.from_mask(h2))


def test_best_arrangement_shape():
    pts, melds, dead = gf.best_arrangement(hand("3C 4C 5C 9D 9H 9S JH QH KH 2S"))
    assert pts == 2 and cards_of(dead) == {"2S"}
    assert sorted(m.bit_count() for m in melds) == [3, 3, 3]
    assert all(gf.meld_kind(m) for m in melds)


def test_eleven_cards_report_the_discard():
    # Gin after discarding the K♣.
    pts, melds, dead, disc = gf.best_arrangement_discard(hand("3C 4C 5C 9D 9H 9S JH QH KH 2S KC"))
    assert pts == 2 and cards_of(1 << disc) == {"KC"} and cards_of(dead) == {"2S"}
    # 2♣ extends 3-4-5♣, so the 2♠ goes: gin.
    pts, _, dead, disc = gf.best_arrangement_discard(hand("3C 4C 5C 9D 9H 9S JH QH KH 2S 2C"))
    assert pts == 0 and cards_of(1 << disc) == {"2S"} and dead == 0


def test_discard_from_a_four_set_keeps_the_three_set():
    h = hand("8S 8H 8D 8C 2S 3S 4S 10H JH QH KD")
    assert gf.best_deadwood_discard(h) == 0
    assert gf.best_deadwood_discard(h) == ref.least_deadwood_discard(ref.from_mask(h))


def test_all_best_arrangements_lists_each_distinct_choice():
    # Only 5-6-7♠ + 7♥ 7♦ 7♣ reaches 18 (the four 7s leave 29): one arrangement.
    h = hand("5S 6S 7S 7H 7D 7C 9D 9H")
    arrs = gf.all_best_arrangements(h)
    best = gf.best_deadwood(h)
    assert arrs and all(a[0] == best for a in arrs)
    assert len({a[1] for a in arrs}) == len(arrs)
    for pts, melds, dead, _ in arrs:
        assert gf.hand_points(dead) == pts
        covered = 0
        for m in melds:
            assert gf.meld_kind(m) and not covered & m
            covered |= m
        assert covered | dead == h
    assert best == 18 and len(arrs) == 1


def test_all_best_arrangements_lists_ties():
    # J-Q-K♠ leaves K♥ K♦ (20); K♠ K♥ K♦ leaves J♠ Q♠ (20): both are listed.
    arrs = gf.all_best_arrangements(hand("JS QS KS KH KD"))
    got = sorted(sorted(" ".join(sorted(cards_of(m))) for m in a[1]) for a in arrs)
    assert got == [["JS KS QS"], ["KD KH KS"]]
    assert all(a[0] == 20 for a in arrs)
    # A run of six is one arrangement, not also two runs of three.
    assert len(gf.all_best_arrangements(hand("3S 4S 5S 6S 7S 8S"))) == 1


def test_all_best_arrangements_with_discard():
    h = hand("5S 6S 7S 7H 7D 7C 9D 9H 9C KS KH")
    arrs = gf.all_best_arrangements(h, discard=True)
    assert {a[3] for a in arrs} == {parse_card("KS").index, parse_card("KH").index}
    assert all(a[0] == 10 for a in arrs)


# ---------------------------------------------------------------------------------------------
# Engine vs brute force


@FAST
@given(hands(10))
def test_least_deadwood_10_matches_brute_force(h):
    assert gf.best_deadwood(h) == ref.least_deadwood(ref.from_mask(h))


@FAST
@given(st.one_of(hands(7), hands(8)))
def test_least_deadwood_party_sizes_match_brute_force(h):
    assert gf.best_deadwood(h) == ref.least_deadwood(ref.from_mask(h))


@settings(max_examples=250, deadline=None)
@given(hands(11))
def test_least_deadwood_11_matches_brute_force(h):
    assert gf.best_deadwood_discard(h) == ref.least_deadwood_discard(ref.from_mask(h))
    pts, melds, dead, disc = gf.best_arrangement_discard(h)
    assert pts == gf.best_deadwood_discard(h)
    assert h >> disc & 1 and not dead >> disc & 1
    covered = 0
    for m in melds:
        assert gf.meld_kind(m) and not covered & m
        covered |= m
    assert covered | dead | (1 << disc) == h and gf.hand_points(dead) == pts


@FAST
@given(hands(10))
def test_arrangement_is_a_real_arrangement_and_nothing_beats_it(h):
    pts, melds, dead = gf.best_arrangement(h)
    covered = 0
    for m in melds:
        assert gf.meld_kind(m) is not None
        assert not covered & m
        covered |= m
    assert covered | dead == h and not covered & dead
    assert gf.hand_points(dead) == pts == gf.best_deadwood(h)
    # no single valid meld made of deadwood cards (or swapping cards into) can do better
    for coll in ref.meld_collections(ref.from_mask(h))[:300]:
        used = frozenset().union(*coll) if coll else frozenset()
        assert sum(ref.value(c) for c in ref.from_mask(h) - used) >= pts


@settings(max_examples=150, deadline=None)
@given(hands(10))
def test_all_best_arrangements_match_brute_force(h):
    best = ref.least_deadwood(ref.from_mask(h))
    got = gf.all_best_arrangements(h)
    # every brute-force optimum, with runs merged into maximal runs, is listed
    want = set()
    for coll in ref.meld_collections(ref.from_mask(h)):
        used = frozenset().union(*coll) if coll else frozenset()
        if sum(ref.value(c) for c in ref.from_mask(h) - used) == best:
            want.add(_canonical([ref.to_mask(m) for m in coll]))
    assert {_canonical(a[1]) for a in got} == want


def _canonical(melds) -> tuple:
    """Sets as they are; run cards merged per suit into maximal runs."""
    sets = sorted(m for m in melds if gf.meld_is_set(m))
    runs = 0
    for m in melds:
        if not gf.meld_is_set(m):
            runs |= m
    return tuple(sets), runs


def knocker_melds(draw_hand: int):
    _, melds, _ = gf.best_arrangement(draw_hand)
    return melds


@st.composite
def layoff_cases(draw):
    knock = draw(hands(10))
    lo = draw(st.integers(0, 7))
    rest = [i for i in range(52) if not knock >> i & 1]
    near = [i for i in rest if lo <= i % 13 < lo + 7]
    pool = near if len(near) >= 10 and draw(st.booleans()) else rest
    picks = draw(st.lists(st.sampled_from(pool), min_size=10, max_size=10, unique=True))
    return gf.mask_of(picks), knocker_melds(knock)


@settings(max_examples=400, deadline=None)
@given(layoff_cases(), st.booleans())
def test_defender_matches_brute_force(case, chained):
    defender, melds = case
    pts, own, lay, dead = gf.defender_best(defender, melds, chained)
    want = ref.defender_least(ref.from_mask(defender), [ref.from_mask(m) for m in melds], chained)
    assert pts == want
    covered = 0
    for m in own:
        assert gf.meld_kind(m) and not covered & m
        covered |= m
    assert covered | lay | dead == defender
    assert not (covered & lay) and not (lay & dead) and not (covered & dead)
    assert gf.hand_points(dead) == pts
    # the layoffs are really layable from this deadwood: the closure of (layoffs + deadwood)
    assert gf.layoff_closure(lay | dead, melds, chained) & lay == lay
    # layoffs never raise deadwood
    assert pts <= gf.best_deadwood(defender)
    # and chaining never hurts
    if not chained:
        assert gf.defender_best(defender, melds, True)[0] <= pts


# ---------------------------------------------------------------------------------------------
# Layoffs, by hand


def test_chained_layoffs_extend_a_run_at_both_ends():
    melds = (hand("5H 6H 7H"),)
    pts, own, lay, dead = gf.defender_best(hand("3H 4H 8H 9H KC"), melds, chained=True)
    assert cards_of(lay) == {"3H", "4H", "8H", "9H"} and pts == 10


def test_original_layoffs_only_touch_the_melds_as_laid_down():
    melds = (hand("5H 6H 7H"),)
    pts, own, lay, dead = gf.defender_best(hand("3H 4H 8H 9H KC"), melds, chained=False)
    assert cards_of(lay) == {"4H", "8H"} and pts == 3 + 9 + 10


def test_fourth_card_of_a_set_is_laid_off_but_not_onto_a_four_set():
    pts, _, lay, _ = gf.defender_best(hand("9C KD"), (hand("9S 9H 9D"),))
    assert cards_of(lay) == {"9C"} and pts == 10
    pts, _, lay, _ = gf.defender_best(hand("9C KD"), (hand("9S 9H 9D"),))
    assert cards_of(lay) == {"9C"}
    pts, _, lay, _ = gf.defender_best(hand("10C KD"), (hand("10S 10H 10D 10C"),))
    assert not lay and pts == 20


def test_a_layoff_card_may_be_better_kept_in_an_own_run():
    # Original layoffs: 8♥ touches 5-6-7♥, but 8-9-10♥ is the defender's own run.
    pts, own, lay, dead = gf.defender_best(hand("8H 9H 10H KC"), (hand("5H 6H 7H"),), chained=False)
    assert pts == 10 and not lay
    # 5♥ is the 4th of the knocker's 5s, but 4-5-6♥ is an own run: either way 0.
    pts, own, lay, dead = gf.defender_best(hand("4H 5H 6H QC"), (hand("5S 5D 5C"),))
    assert pts == 10


def test_set_layoff_opens_a_chain_only_through_the_run():
    # 6♣ fits both the knocker's 6s and the end of 3-4-5♣; put on the run it lets 7♣ follow.
    melds = (hand("6S 6H 6D"), hand("3C 4C 5C"))
    pts, _, lay, _ = gf.defender_best(hand("6C 7C KD"), melds, chained=True)
    assert cards_of(lay) == {"6C", "7C"} and pts == 10


def test_layoff_closure_for_a_given_spread():
    melds = (hand("5H 6H 7H"), hand("JS JH JD"))
    assert cards_of(gf.layoff_closure(hand("8H 9H JC 2S"), melds, True)) == {"8H", "9H", "JC"}
    assert cards_of(gf.layoff_closure(hand("8H 9H JC 2S"), melds, False)) == {"8H", "JC"}
    assert gf.layoff_closure(hand("10H 2S"), melds, True) == 0


@pytest.mark.parametrize(
    "text, kind",
    [
        ("AS 2S 3S", "run"),
        ("10D JD QD KD", "run"),
        ("7S 7H 7D", "set"),
        ("7S 7H 7D 7C", "set"),
        ("QS KS AS", None),
        ("7S 7H", None),
        ("2S 3S 5S", None),
        ("2S 3H 4S", None),
        ("7S 7H 8H", None),
    ],
)
def test_meld_kind(text, kind):
    assert gf.meld_kind(hand(text)) == kind
