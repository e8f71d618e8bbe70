"""Oklahoma Gin from card text: the table of every accepted spelling agrees with
``cards.parse_card``, the searches from text agree with the brute force, and a bad token still
gets ``parse_card``'s message (issue 12)."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import gin_search as search
from scorekeeper.rules import record
from scorekeeper.rules.cards import CARD_BY_INDEX, CardError, parse_card
from tests.rules import gin_reference as ref

SUIT_SPELLINGS = {0: "Ss♠♤", 1: "Hh♥♡", 2: "Dd♦♢", 3: "Cc♣♧"}
RANK_SPELLINGS = {1: ["A", "a"], 10: ["10", "T", "t"], 11: ["J", "j"], 12: ["Q", "q"], 13: ["K", "k"]}


def spellings(index: int) -> list[str]:
    card = CARD_BY_INDEX[index]
    ranks = RANK_SPELLINGS.get(card.rank, [str(card.rank)])
    return [r + s for r in ranks for s in SUIT_SPELLINGS[index // 13]]


def test_every_spelling_in_the_table_is_the_card_parse_card_reads():
    assert len(search.INDEX_OF_TEXT) == sum(len(spellings(i)) for i in range(52))
    for text, index in search.INDEX_OF_TEXT.items():
        assert parse_card(text).index == index
    for index in range(52):
        for text in spellings(index):
            assert search.INDEX_OF_TEXT[text] == index


def test_a_token_the_table_does_not_hold_goes_through_parse_card():
    assert search.card_index(" q s ") == parse_card("QS").index
    assert search.mask_of_text(["q s", "10 H"]) == 1 << parse_card("QS").index | 1 << parse_card("10H").index
    for bad in ("1S", "QX", "", "11H", "Q"):
        with pytest.raises(CardError) as ours:
            search.mask_of_text(["AS", bad])
        with pytest.raises(CardError) as theirs:
            parse_card(bad)
        assert ours.value.message == theirs.value.message and ours.value.token == theirs.value.token
    with pytest.raises(CardError, match="Joker"):
        search.mask_of_text(["JK", "AS"])
    with pytest.raises(CardError, match="named twice"):
        search.mask_of_text(["AS", "as", "2S"])
    with pytest.raises(CardError):
        search.mask_of_text(["AS", 7])  # type: ignore[list-item]


@st.composite
def text_hands(draw: st.DrawFn) -> tuple[int, list[str]]:
    """A hand (often of clustered ranks) and its cards in random accepted spellings."""
    n = draw(st.sampled_from((7, 10, 11)))
    if draw(st.booleans()):
        lo = draw(st.integers(0, 7))
        pool = [s * 13 + r for s in range(4) for r in range(lo, lo + 6)]
    else:
        pool = list(range(52))
    indices = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n, unique=True))
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    return search.mask_of(indices), [rnd.choice(spellings(i)) for i in indices]


@settings(max_examples=300, deadline=None)
@given(text_hands())
def test_the_searches_from_text_match_the_brute_force(hand):
    mask, texts = hand
    assert search.mask_of_text(texts) == mask
    assert search.least_deadwood_of_text(texts) == ref.least_deadwood(ref.from_mask(mask))
    points, melds, dead = search.best_arrangement_of_text(texts)
    assert (points, melds, dead) == search.best_arrangement(mask)
    assert points == ref.least_deadwood(ref.from_mask(mask)) == search.hand_points(dead)


def test_a_record_in_any_spelling_scores_as_in_the_usual_one():
    def rec(ann: list[str], ben: list[str]) -> dict:
        return {
            "format": "oklahoma-scorekeeper/1",
            "game": "oklahoma-gin",
            "rules": {"profile": "standard"},
            "players": ["Ann", "Ben"],
            "deals": [{"upcard": "t♥", "knocker": "Ann", "hands": {"Ann": {"cards": ann}, "Ben": {"cards": ben}}}],
        }

    usual = ["5H", "6H", "7H", "QS", "QD", "QC", "2C", "3C", "4C", "6S", "KD"]
    other = ["5♥", "6h", " 7 H", "q♤", "QD", "Qc", "2♣", "3c", "4C", "6s", "k♦"]
    ben = ["AD", "2D", "3D", "8S", "8D", "8C", "KH", "JH", "10D", "9S"]
    assert record.result_json(record.score_record(rec(usual, ben))) == record.result_json(
        record.score_record(rec(other, ben))
    )


# ---------------------------------------------------------------------------------------------
# The fast paths (issue 12): the table of set choices, the in-line answers (one rank held three
# times, no run, the best suit to discard from) and the float sum of a usual hand's bits give
# exactly what the plain search gives, ties broken alike.


def plain_arrangement(mask: int) -> tuple[int, tuple[int, ...], int]:
    """``best_arrangement`` the plain way: every set choice through ``_least_removal`` (its first
    best is the tie-break), each suit's runs and leftovers from ``RUNS_IN`` and ``LEFT_IN``."""
    a, b, c, d, multi = search._split(mask)
    xa = xb = xc = xd = 0
    if multi:
        value, xa, xb, xc, xd = search._least_removal(a, b, c, d, multi)
    else:
        value = search.T[a] + search.T[b] + search.T[c] + search.T[d]
    melds, dead = search._arranged(mask, search._sets_taken(xa, xb, xc, xd), a & ~xa, b & ~xb, c & ~xc, d & ~xd)
    return value, melds, dead


def plain_discard_deadwood(mask: int) -> int:
    a, b, c, d, multi = search._split(mask)
    if multi:
        return search._least_removal(a, b, c, d, multi, discard=True)[0]
    return sum(search.T[s] for s in (a, b, c, d)) + min(search.D1[s] for s in (a, b, c, d))


@st.composite
def set_hands(draw: st.DrawFn, n: int) -> int:
    """A hand of ``n`` cards holding one, two or three ranks three or four times (often next to
    each other: sets and runs competing), the rest random or from neighbouring ranks."""
    ranks = draw(st.lists(st.integers(0, 12), min_size=1, max_size=3, unique=True))
    picks: set[int] = set()
    for r in ranks:
        suits = draw(st.sampled_from([(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3), (0, 1, 2, 3)]))
        picks.update(13 * s + r for s in suits)
    assume(len(picks) <= n)
    lo = min(max(min(ranks) - 2, 0), 7)
    near = [s * 13 + r for s in range(4) for r in range(lo, lo + 6) if s * 13 + r not in picks]
    pool = near if draw(st.booleans()) and len(near) >= n - len(picks) else [i for i in range(52) if i not in picks]
    more = draw(st.lists(st.sampled_from(pool), min_size=n - len(picks), max_size=n - len(picks), unique=True))
    return search.mask_of([*picks, *more])


def any_hands(n: int) -> st.SearchStrategy[int]:
    pool = st.one_of(
        st.just(list(range(52))),
        st.integers(0, 7).map(lambda lo: [s * 13 + r for s in range(4) for r in range(lo, lo + 6)]),
    )
    random_or_clustered = pool.flatmap(lambda p: st.lists(st.sampled_from(p), min_size=n, max_size=n, unique=True))
    return st.one_of(random_or_clustered.map(search.mask_of), set_hands(n))


@settings(max_examples=400, deadline=None)
@given(st.sampled_from((10, 11, 12, 14)).flatmap(any_hands))
def test_the_fast_searches_give_what_the_plain_search_gives(mask):
    plain = plain_arrangement(mask)
    assert search.best_arrangement(mask) == plain
    assert search.best_deadwood(mask) == plain[0]
    assert search.best_deadwood_discard(mask) == plain_discard_deadwood(mask)
    assert search.best_arrangement_discard(mask)[0] == plain_discard_deadwood(mask)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from((10, 11)).flatmap(any_hands), st.integers(0, 2**32 - 1))
def test_the_fast_searches_from_text_match_the_brute_force(mask, seed):
    rnd = random.Random(seed)
    texts = [rnd.choice(spellings(i)) for i in rnd.sample(search.bits_of(mask), mask.bit_count())]
    assert search.mask_of_text(texts) == mask
    assert search.best_arrangement_of_text(texts) == plain_arrangement(mask)
    assert search.least_deadwood_of_text(texts) == ref.least_deadwood(ref.from_mask(mask))
    if len(texts) == 11:
        assert search.best_deadwood_discard(search.mask_of_text(texts)) == ref.least_deadwood_discard(
            ref.from_mask(mask)
        )


def test_the_float_sum_is_exact_for_the_highest_and_lowest_cards():
    clubs = ["4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC"]
    assert search.mask_of_text(clubs) == search.mask_of(parse_card(t).index for t in clubs)
    assert search.mask_of_text(["AS", *clubs]) == 1 | search.mask_of_text(clubs)
    assert search.least_deadwood_of_text(["AS", "2S", "3S", "KC", "QC", "JC", "10C", "9C", "8C", "7C"]) == 0


@pytest.mark.parametrize("size", [10, 11])
@pytest.mark.parametrize("twice", [("10h", "T♥"), ("q♠", "QS"), ("KC", "kc")])
def test_a_usual_hand_naming_a_card_twice_is_refused(size, twice):
    others = ["AS", "2D", "3C", "4H", "5S", "6D", "7C", "8H", "9S"][: size - 2]
    for hand in ([*others, *twice], [twice[0], *others, twice[1]]):
        for fn in (search.mask_of_text, search.least_deadwood_of_text, search.best_arrangement_of_text):
            with pytest.raises(CardError, match="named twice"):
                fn(hand)
    with pytest.raises(CardError, match="named twice"):
        search.mask_of_text(["KC"] * size)


@pytest.mark.parametrize("size", [10, 11])
@pytest.mark.parametrize("bad", ["1S", "QX", "", "11H", "Q", " q s x"])
def test_a_usual_hand_with_a_bad_token_gets_parse_cards_message(size, bad):
    hand = ["AS", "2D", "3C", "4H", "5S", "6D", "7C", "8H", "9S", "10D"][: size - 1] + [bad]
    with pytest.raises(CardError) as theirs:
        parse_card(bad)
    for fn in (search.mask_of_text, search.least_deadwood_of_text, search.best_arrangement_of_text):
        with pytest.raises(CardError) as ours:
            fn(hand)
        assert ours.value.message == theirs.value.message and ours.value.token == theirs.value.token
        with pytest.raises(CardError, match="Joker"):
            fn(["JK", *hand[1:]])
        with pytest.raises(CardError):
            fn([7, *hand[1:]])  # type: ignore[list-item]


def test_a_usual_hand_in_odd_spellings_and_spaces():
    usual = ["5H", "6H", "7H", "QS", "QD", "QC", "2C", "3C", "4C", "6S"]
    odd = ["5♥", "6h", " 7 H", "q♤", "QD", "Qc", "2♣", "3c", "4C", "6s"]
    assert search.mask_of_text(odd) == search.mask_of_text(usual)
    assert search.least_deadwood_of_text(odd) == search.least_deadwood_of_text(usual) == 6
    assert search.best_arrangement_of_text(odd) == search.best_arrangement_of_text(usual)
    assert search.best_arrangement_of_text(tuple(odd)) == search.best_arrangement_of_text(usual)
