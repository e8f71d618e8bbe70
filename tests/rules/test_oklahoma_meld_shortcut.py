"""The meld check's shortcuts (a meld whose wild cards are all named; a set of 3 or 4 with an unnamed
wild and natural cards of two suits or more) give the very verdict of the full search of the
readings: every field, every score line and every error, on many random melds, legal or not, with
and without wild cards, with and without the Joker in the game."""

import random

from hypothesis import given, settings

from scorekeeper.rules import caches, oklahoma_meld_shortcut, oklahoma_melds
from scorekeeper.rules.profiles import resolve

from .test_oklahoma_properties import near_melds, sequences, sets

BOOK = resolve("oklahoma", "book")
NO_JOKER = resolve("oklahoma", "laws", {"joker": False})
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = "SHDC"


def _same(tokens, rules=BOOK):
    caches.clear_caches()
    fast = oklahoma_meld_shortcut._check_meld(tokens, oklahoma_melds.without_joker(rules))
    full = oklahoma_melds.check_meld_searched(tokens, rules)
    assert fast == full, (tokens, fast, full)
    assert [line.as_dict() for line in fast.lines] == [line.as_dict() for line in full.lines]
    assert [(str(e.message), e.rule, e.source, e.cards) for e in fast.errors] == [
        (str(e.message), e.rule, e.source, e.cards) for e in full.errors
    ]
    assert str(fast.note) == str(full.note)
    return fast


def _card(rng):
    return rng.choice(RANKS) + rng.choice(SUITS)


def _wild(rng, card):
    """A wild card standing for ``card``: named or not, a 2 or the Joker."""
    wild = "JK" if rng.random() < 0.3 else "2" + rng.choice(SUITS)
    return wild + "=" + card if rng.random() < 0.5 else wild


def _random_meld(rng):
    n = rng.choice([2, 3, 3, 3, 4, 4, 5, 6, 7, 9, 13, 14, 15])
    if rng.random() < 0.5:  # a set, its suits random (two packs: a suit may repeat)
        rank = rng.choice(RANKS[:1] + RANKS[2:])
        cards = [rank + rng.choice(SUITS) for _ in range(min(n, 5))]
    else:  # a run of one suit, maybe round the corner
        suit = rng.choice(SUITS)
        low = rng.randint(1, 14)
        cards = [RANKS[(p - 1) % 13] + suit for p in range(low, low + n)]
    for i in range(len(cards)):
        roll = rng.random()
        if roll < 0.15:
            cards[i] = _wild(rng, cards[i])
        elif roll < 0.2:
            cards[i] = _card(rng)  # a stray card
        elif roll < 0.22:
            cards[i] = "2" + rng.choice(SUITS)  # a 2 as itself, maybe
    if rng.random() < 0.03:
        cards.append("XX")
    rng.shuffle(cards)
    return cards


def test_shortcuts_agree_with_the_search_on_random_melds():
    rng = random.Random(20261122)
    kinds = {"shortcut": 0, "searched": 0}
    for _ in range(20000):
        tokens = _random_meld(rng)
        cards = oklahoma_melds.prechecked(tokens, oklahoma_melds.without_joker(BOOK))
        if type(cards) is list:
            kinds["shortcut" if oklahoma_meld_shortcut._shortcut(cards) is not None else "searched"] += 1
        _same(tokens, NO_JOKER if rng.random() < 0.1 else BOOK)
    assert kinds["shortcut"] > 2000 and kinds["searched"] > 2000, kinds


def test_shortcuts_agree_with_the_search_on_plain_melds():
    """Every natural set of 3 and 4 (suits as they come), and every natural run of every length."""
    rng = random.Random(7)
    for rank in RANKS[:1] + RANKS[2:]:
        for _ in range(30):
            _same([rank + rng.choice(SUITS) for _ in range(rng.choice([3, 4, 5]))])
            wilds = ["2" + rng.choice(SUITS), "JK", "2" + rng.choice(SUITS) + "=" + rank + rng.choice(SUITS)]
            _same([rank + rng.choice(SUITS) for _ in range(rng.choice([1, 2, 3]))] + rng.sample(wilds, 1))
    for suit in SUITS:
        for n in range(3, 15):
            for low in range(1, 16 - n):
                run = [RANKS[(p - 1) % 13] + suit for p in range(low, low + n)]
                rng.shuffle(run)
                _same(run)


@settings(max_examples=300, deadline=None)
@given(near_melds())
def test_shortcuts_agree_with_the_search_near_melds(tokens):
    _same(tokens)


@settings(max_examples=150, deadline=None)
@given(sequences())
def test_shortcuts_agree_with_the_search_on_sequences(case):
    _same(case[0])


@settings(max_examples=150, deadline=None)
@given(sets())
def test_shortcuts_agree_with_the_search_on_sets(case):
    _same(case[0])
