"""The meld check's shortcuts that read module tables (an unnamed wild card at a sequence place,
``_wild_at``; in a set, ``_wild_in_set``) and the sequence laid out from a row of places give the
very verdict of the full search of the readings: every run of every suit and length with one wild
card, named or not, in each place; every set with unnamed wild cards; each with the Joker in the
game and without."""

import itertools

from .test_oklahoma_meld_shortcut import NO_JOKER, RANKS, SUITS, _same


def _runs():
    for suit in SUITS:
        for n in range(3, 15):
            for low in range(1, 16 - n):
                yield [RANKS[(p - 1) % 13] + suit for p in range(low, low + n)]


def test_runs_with_one_wild_card_in_each_place():
    laid = 0
    for run in _runs():
        _same(run)
        _same(run[::-1])
        suit = run[0][-1]
        for i, card in enumerate(run):
            for wild in ("JK", "2" + suit, "2H", "JK=" + card, "2C=" + card):
                meld = run[:i] + [wild] + run[i + 1 :]
                verdict = _same(meld)
                laid += verdict.ok
                _same(meld[::-1], NO_JOKER)
    assert laid > 3000, laid


def test_runs_with_an_extra_or_a_missing_card_and_one_wild():
    for run in _runs():
        if len(run) > 8:
            continue
        suit = run[0][-1]
        for i in range(len(run)):
            short = run[:i] + run[i + 1 :]
            _same([*short, "JK"])
            _same(["2" + suit, *short])
            _same([*run, "2D"])  # one card too many for the gap: two readings, or none
            _same([*short, "A" + suit, "JK"])


def test_sets_with_unnamed_wild_cards():
    for rank in RANKS[:1] + RANKS[2:]:
        for suits in itertools.product(SUITS, repeat=2):
            naturals = [rank + s for s in suits]
            for wilds in (["JK"], ["2C"], ["2S", "JK"], ["2H=" + rank + "S", "JK"], ["JK", "2D"]):
                _same(naturals + wilds)
                _same(wilds + naturals[::-1])
                _same(naturals + wilds, NO_JOKER)
            _same([*naturals, rank + "H", "2H"])
