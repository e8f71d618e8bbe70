"""A ten-card hand from text naming a card twice (or more) is refused by every search from text,
whichever card it is and wherever the carry of the doubled bit goes (the searches add the cards'
bits as floats: a doubled bit carries into the next card's place, or past a suit, or past the
hearts into the diamonds' half)."""

from __future__ import annotations

import random

import pytest

from scorekeeper.rules import gin_search as search
from scorekeeper.rules.cards import CARD_BY_INDEX, CardError

CODES = [card.code for card in CARD_BY_INDEX]
SEARCHES = (search.mask_of_text, search.least_deadwood_of_text, search.best_arrangement_of_text)


def _refused(hand: list[str]) -> None:
    for fn in SEARCHES:
        with pytest.raises(CardError, match="named twice"):
            fn(hand)


def test_every_card_named_twice_among_its_neighbours_is_refused():
    for i in range(52):
        # the doubled card with the cards just above it: its carry runs through all of them
        others = [CODES[(i + k) % 52] for k in range(1, 9)]
        _refused([CODES[i], *others, CODES[i]])


def test_many_copies_of_one_card_are_refused():
    for i in range(52):
        _refused([CODES[i]] * 10)
        _refused([CODES[i]] * 9 + [CODES[(i + 26) % 52]])
        _refused([CODES[(i + 1) % 52]] + [CODES[i]] * 9)


def test_random_hands_with_repeats_are_refused_and_without_them_agree_with_the_masks():
    rnd = random.Random(17)
    for _ in range(4000):
        picks = [rnd.randrange(52) for _ in range(10)]
        hand = [CODES[i] for i in picks]
        if len(set(picks)) < 10:
            _refused(hand)
        else:
            mask = search.mask_of(picks)
            assert search.least_deadwood_of_text(hand) == search.best_deadwood(mask)
            assert search.best_arrangement_of_text(hand) == search.best_arrangement(mask)
