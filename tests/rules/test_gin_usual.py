"""The usual Gin deal scored in one step (``gin._score_usual``) against the deal checked and
scored in steps (``gin._score_checked``): for every deal the one step takes, the same scored deal
(every point, line, note and printed card) and the same knocker; every deal with an error, and
every deal it is not written for, is left to the steps (None)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from scorekeeper.rules import gin, profiles
from scorekeeper.rules import gin_search as gs
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.results import Standing

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = "SHDC"
PLAYERS = ("Ann", "Finn")


def _rules() -> list[profiles.GinRules]:
    out = []
    for profile in ("standard", "classic", "casino", "party"):
        for options in (
            {},
            {"scoring": "penalty"},
            {"layoffs": "original"},
            {"layoffs": "chained"},
            {"spade_multiplier": 1},
            {"big_gin_bonus": 0},
            {"stock_out": "void"},
            {"hollywood": True},
        ):
            try:
                rules = profiles.resolve(profiles.GIN, profile, options)
            except RecordInvalid:
                continue
            if not gin.setup_errors(rules, PLAYERS):
                out.append(rules)
    return out


def code(i: int, rng: random.Random) -> str:
    text = RANKS[i % 13] + SUITS[i // 13]
    return text.lower() if rng.random() < 0.1 else text


def knockable(rng: random.Random, deck: list[int], size: int) -> int:
    """A hand of ``size`` cards from ``deck`` with melds and low cards (mostly within a knock limit)."""
    melds = list(gin._MELD_LABELS)
    mask = 0
    for _ in range(rng.randrange(1, 4)):
        m = rng.choice(melds)
        if not m & mask and (mask | m).bit_count() <= size and all(i in deck for i in gs.bits_of(m)):
            mask |= m
    low = [i for i in deck if i % 13 < 4 and not mask >> i & 1]
    rng.shuffle(low)
    while mask.bit_count() < size and low:
        mask |= 1 << low.pop()
    return mask if mask.bit_count() == size else 0


def deal_of(rng: random.Random) -> dict[str, Any]:
    deck = list(range(52))
    rng.shuffle(deck)
    knocker = rng.choice(PLAYERS)
    take = 11 if rng.random() < 0.2 else 10
    kmask = knockable(rng, deck, take) if rng.random() < 0.8 else 0
    if not kmask:
        kmask = sum(1 << i for i in deck[:take])
    rest = [i for i in deck if not kmask >> i & 1]
    dmask = knockable(rng, rest, 10) if rng.random() < 0.4 else 0
    if not dmask:
        dmask = sum(1 << i for i in rest[:10])
    up = next(i for i in rest if not dmask >> i & 1)
    hands = {}
    for name in PLAYERS:
        cards = [code(i, rng) for i in gs.bits_of(kmask if name == knocker else dmask)]
        rng.shuffle(cards)
        hands[name] = {"cards": cards}
    if rng.random() < 0.5:
        hands = dict(reversed(hands.items()))
    return {"upcard": code(up, rng), "knocker": knocker, "hands": hands}


def broken(rng: random.Random, deal: dict[str, Any]) -> dict[str, Any]:
    """The deal with one thing wrong or unusual (most of them errors)."""
    d = copy.deepcopy(deal)
    name = rng.choice(PLAYERS)
    hand = d["hands"][name]
    cards = hand["cards"]
    other = d["hands"][PLAYERS[1 - PLAYERS.index(name)]]["cards"]
    k = rng.randrange(16)
    if k == 0:
        cards[rng.randrange(len(cards))] = rng.choice(["ZZ", "1S", "JK", "", 5, None, " QS", "11H", ["AS"]])
    elif k == 1:
        cards.append(code(rng.randrange(52), rng))
    elif k == 2:
        cards.pop()
    elif k == 3:
        cards[0] = cards[-1]
    elif k == 4:
        cards[0] = other[0]
    elif k == 5:
        d["upcard"] = rng.choice(["AS", "as", "KS", "5S", "2D", None, "JK", "XX", 3, "10♠", " KD"])
    elif k == 6:
        d["knocker"] = rng.choice([None, "Nobody", "ann", 1])
    elif k == 7:
        del d[rng.choice(["upcard", "knocker", "hands"])]
    elif k == 8:
        d["extra"] = 1
    elif k == 9:
        hand["big_gin"] = rng.choice([True, False, "yes"])
    elif k == 10:
        d["hands"][name] = {"melds": [cards[:3]], "deadwood": cards[3:]}
    elif k == 11:
        d["hands"]["Ghost"] = {"cards": ["AS"]}
    elif k == 12:
        del d["hands"][name]
    elif k == 13:
        d["hands"][name] = rng.choice([[], None, {"cards": "AS"}, {"cards": tuple(cards)}, {"foo": 1}])
    elif k == 14:
        d["hands"] = rng.choice([None, [], "x", dict(d["hands"]) | {"Ghost": None}])
    else:
        cards[:] = cards[: rng.choice([0, 7, 9, 12])]
    return d


def both(rules: profiles.GinRules, standing: Standing, deal: Any) -> tuple[Any, Any]:
    try:
        want: Any = gin._score_checked(rules, PLAYERS, standing, deal, 1)
    except RecordInvalid as exc:
        want = exc
    return gin._score_usual(rules, PLAYERS, standing, deal), want


@pytest.mark.parametrize("seed", range(6))
def test_usual_deal_scores_as_the_steps(seed: int) -> None:
    rng = random.Random(seed)
    all_rules = _rules()
    standing = gin.begin(all_rules[0], PLAYERS)
    taken = several = discards = penalty = 0
    seen: set[str] = set()
    for _ in range(400):
        rules = rng.choice([r for r in all_rules if not r.hollywood])
        deal = deal_of(rng)
        got, want = both(rules, standing, deal)
        if got is None:
            # left to the steps: only a deal the one step is not written for (none here) or an error
            assert isinstance(want, RecordInvalid), deal
            continue
        assert not isinstance(want, RecordInvalid), deal
        assert repr(got) == repr(want), deal
        taken += 1
        seen.add(got[0].outcome)
        several += any("equally low" in note for note in got[0].notes)
        discards += got[0].players[got[1]].discard is not None
        penalty += rules.penalty
    assert taken > 150
    assert seen == {"knock", "undercut", "gin"}
    assert several and discards and penalty


@pytest.mark.parametrize("seed", range(4))
def test_unusual_or_broken_deals_are_left_to_the_steps(seed: int) -> None:
    rng = random.Random(100 + seed)
    all_rules = _rules()
    for _ in range(400):
        rules = rng.choice([r for r in all_rules if not r.hollywood])
        deal = broken(rng, deal_of(rng))
        got, want = both(rules, gin.begin(rules, PLAYERS), deal)
        if isinstance(want, RecordInvalid):
            assert got is None, (deal, want.errors)
        elif got is not None:
            assert repr(got) == repr(want), deal


def test_a_game_already_ended_is_left_to_the_steps() -> None:
    rules = _rules()[0]
    rng = random.Random(7)
    ended = Standing(deals=3, totals=(0, 120), side=(0, 0), boxes=(0, 3), dealer=1, ended_on=3, winner=1)
    for _ in range(50):
        got, want = both(rules, ended, deal_of(rng))
        assert got is None and isinstance(want, RecordInvalid)


def test_play_is_the_same_with_and_without_the_one_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole games through ``play``: results and standings alike either way (the one step for
    most deals, or every deal in steps)."""
    rng = random.Random(11)
    games = []
    for rules in _rules():
        deals = [deal_of(rng) if rng.random() < 0.8 else broken(rng, deal_of(rng)) for _ in range(30)]
        games.append((rules, deals))

    def run() -> list[str]:
        out = []
        for rules, deals in games:
            standing = gin.begin(rules, PLAYERS)
            for number, deal in enumerate(deals, start=1):
                try:
                    result, standing = gin.play(rules, PLAYERS, standing, deal, number)
                except RecordInvalid as exc:
                    out.append(repr(exc.errors))
                else:
                    out.append(repr((result, standing)))
        return out

    fast = run()
    monkeypatch.setattr(gin, "_score_usual", lambda *args: None)
    assert run() == fast
