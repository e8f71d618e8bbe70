"""Oklahoma card values melded and in hand (RULES.md §1 table; S0; S1 law 12) and the pack."""

import pytest

from scorekeeper.rules.cards import JOKER, Card, Suit, parse_card
from scorekeeper.rules.oklahoma import card_value_held, card_value_melded, pack_counts
from scorekeeper.rules.profiles import resolve

BOOK = resolve("oklahoma", "book")
LAWS = resolve("oklahoma", "laws")


@pytest.mark.parametrize(
    "token, value",
    [
        ("JK", 100),
        ("JK=QS", 100),
        ("JK=3H", 100),
        ("QS", 50),
        ("QH", 10),
        ("AH", 20),
        ("KD", 10),
        ("10C", 10),
        ("8S", 10),
        ("7S", 5),
        ("3D", 5),
        ("2C=QS", 10),
        ("2C=AH", 20),
        ("2C=KH", 10),
        ("2C=7H", 5),
        ("2C=2H", 5),
        ("2H=2H", 5),
    ],
)
def test_melded_values(token, value):
    assert card_value_melded(token, BOOK) == value
    assert card_value_melded(token, LAWS) == value


def test_melded_value_of_a_2_in_a_set_takes_the_rank():
    assert card_value_melded("2C", BOOK, rank=1) == 20
    assert card_value_melded("2C", BOOK, rank=12) == 10
    with pytest.raises(ValueError):
        card_value_melded("2C", BOOK)


@pytest.mark.parametrize(
    "card, book, laws",
    [
        ("JK", -200, -200),
        ("QS", -100, -100),
        ("AS", -20, -20),
        ("KH", -20, -10),
        ("QH", -20, -10),
        ("JD", -20, -10),
        ("10C", -20, -10),
        ("9S", -20, -10),
        ("8H", -20, -10),
        ("7H", -5, -5),
        ("3C", -5, -5),
        ("2D", -20, -20),
    ],
)
def test_held_values_k8_by_profile(card, book, laws):
    assert card_value_held(card, BOOK) == book
    assert card_value_held(card, LAWS) == laws
    assert card_value_held(parse_card(card), LAWS) == laws


def test_k8_house_option():
    assert card_value_held("KH", resolve("oklahoma", "book", {"k8_in_hand": -10})) == -10


def test_held_card_naming_another_is_an_error():
    with pytest.raises(ValueError):
        card_value_held("2C=7H", BOOK)


def test_pack_counts_105_cards():
    counts = pack_counts(BOOK)
    assert sum(counts.values()) == 105
    assert counts[JOKER] == 1
    assert counts[Card(12, Suit.SPADES)] == 2
    assert sum(n for c, n in counts.items() if c.rank == 2) == 8


def test_pack_counts_without_joker():
    counts = pack_counts(resolve("oklahoma", "laws", {"joker": False}))
    assert sum(counts.values()) == 104 and counts[JOKER] == 0
