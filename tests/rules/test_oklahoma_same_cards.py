"""A meld's verdict taken from the same cards entered in another order (``oklahoma_melds._unseen``,
``_SAME_CARDS``) is the very verdict the meld's own check gives: every field, every score line and
note, ``card_labels`` in the order entered; on many random melds, legal or not, with one wild card,
several, the same wild card twice, cards written in other cases or with suit symbols, with and
without the Joker in the game; and a deal's scores are the same when its melds were met before in
another order."""

from __future__ import annotations

import random

from hypothesis import given, settings

from scorekeeper.rules import oklahoma, oklahoma_melds
from scorekeeper.rules.profiles import resolve

from . import oklahoma_random
from .test_oklahoma_meld_shortcut import _random_meld
from .test_oklahoma_properties import near_melds, sequences, sets

BOOK = resolve("oklahoma", "book")
NO_JOKER = resolve("oklahoma", "laws", {"joker": False})
LONG = resolve("oklahoma", "book", {"target": 10_000})  # a game that goes on
PLAYERS = ("Ann", "Ben", "Cleo")
SUITS = "SHDC"
SYMBOLS = dict(zip(SUITS, "♠♥♦♣", strict=True))


def _full(tokens, rules):
    """The meld's own check, no verdict kept from any other meld."""
    return oklahoma_melds._check_meld(list(tokens), rules)


def _as_values(check):
    return (
        check,
        [line.as_dict() for line in check.lines],
        [(e.message, e.rule, e.source, e.cards) for e in check.errors],
    )


def _agree(first, others, rules=BOOK):
    """Check ``first``, then each of ``others`` (the same cards reordered): each verdict is its own."""
    oklahoma_melds.clear_caches()
    assert _as_values(oklahoma.check_meld(first, rules)) == _as_values(_full(first, rules))
    for tokens in others:
        got = oklahoma.check_meld(tokens, rules)
        assert _as_values(got) == _as_values(_full(tokens, rules)), (first, tokens)
        assert oklahoma.check_meld(tokens, rules) is got  # kept under its own order too


def _reorders(rng, tokens, k=4):
    out = []
    for _ in range(k):
        other = list(tokens)
        rng.shuffle(other)
        out.append(other)
    return out


def _respelt(rng, token):
    """The same card written otherwise: lower case, a suit symbol (never for a named card)."""
    if "=" in token or token == "JK" or rng.random() < 0.7:
        return token
    if rng.random() < 0.5:
        return token.lower()
    return token[:-1] + SYMBOLS.get(token[-1], token[-1])


def test_reordered_melds_take_their_own_verdict():
    rng = random.Random(20261125)
    reused = 0
    for _ in range(6000):
        tokens = _random_meld(rng)
        if rng.random() < 0.2:  # the same card in other spellings, among the reorderings
            others = [[_respelt(rng, t) for t in order] for order in _reorders(rng, tokens)]
        else:
            others = _reorders(rng, tokens)
        if rng.random() < 0.15 and len(tokens) >= 2:  # a wild card twice, the same text
            tokens = [*tokens[:-1], "2C"]
            tokens.insert(rng.randrange(len(tokens)), "2C")
            others = _reorders(rng, tokens)
        rules = NO_JOKER if rng.random() < 0.1 else BOOK
        _agree(tokens, others, rules)
        kept = (oklahoma_melds.verdict_key(rules), *sorted(tokens)) in oklahoma_melds._SAME_CARDS
        reused += kept and any(order != tokens for order in others)
    assert reused > 1000  # the reordered melds met a verdict kept by their cards


def test_reordered_legal_melds_with_wild_cards():
    """Legal melds with one free wild, several wilds, named wilds: reordered, each its own verdict."""
    rng = random.Random(11)
    wilds = ["JK", "2C", "2D", "2H", "2S"]
    for _ in range(3000):
        roll = rng.random()
        if roll < 0.4:
            rank = rng.choice(["A", "3", "7", "9", "Q", "K"])
            cards = [rank + rng.choice(SUITS) for _ in range(rng.choice([2, 3]))]
            cards += rng.sample(wilds, rng.choice([1, 1, 2]))
        else:
            suit = rng.choice(SUITS)
            n = rng.choice([3, 4, 5, 8, 13, 14])
            low = rng.randint(1, 15 - n)
            cards = [oklahoma_random._place_rank(p) + suit for p in range(low, low + n)]
            for _ in range(rng.choice([1, 1, 2])):
                i = rng.randrange(n)
                wild = rng.choice(wilds)
                cards[i] = wild if rng.random() < 0.6 else f"{wild}={cards[i].split('=')[-1]}"
        rng.shuffle(cards)
        _agree(cards, _reorders(rng, cards, 5), BOOK)


@settings(max_examples=200, deadline=None)
@given(sequences())
def test_reordered_sequences(case):
    tokens = case[0]
    rng = random.Random(len(tokens))
    _agree(tokens, _reorders(rng, tokens))


@settings(max_examples=200, deadline=None)
@given(sets())
def test_reordered_sets(case):
    tokens = case[0]
    rng = random.Random(len(tokens))
    _agree(tokens, _reorders(rng, tokens))


@settings(max_examples=200, deadline=None)
@given(near_melds())
def test_reordered_near_melds(tokens):
    rng = random.Random(len(tokens))
    _agree(tokens, _reorders(rng, tokens))


def test_deals_score_the_same_after_their_melds_in_another_order():
    """A game scored with every meld's verdict kept from the same cards in another order gives the
    same result as the game scored from cold caches."""
    rng = random.Random(5)
    for _ in range(40):
        deals = oklahoma_random.game(rng, PLAYERS, 10)
        oklahoma.clear_caches()
        cold = oklahoma.score_game(LONG, PLAYERS, deals)
        oklahoma.clear_caches()
        for deal in deals:  # every meld met first in another order
            for hand in deal["hands"].values():
                for meld in hand["melds"]:
                    oklahoma.check_meld(_reorders(rng, meld, 1)[0], LONG)
        assert oklahoma.score_game(LONG, PLAYERS, deals) == cold
