"""Oklahoma Gin from card text: the table of every accepted spelling agrees with
``cards.parse_card``, the searches from text agree with the brute force, and a bad token still
gets ``parse_card``'s message (issue 12)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
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
