"""Whole random Gin games: one deal at a time (``begin``, ``play``, ``conclude``) gives exactly
what scoring the whole record gives, and a standing stored as JSON scores the next deal the same."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import gin, profiles
from scorekeeper.rules import gin_search as search
from scorekeeper.rules.cards import CARD_BY_INDEX
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.results import DealResult, GameResult, Standing

NAMES = ("Ann", "Ben", "Cleo", "Dan")
RANK_CODES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def codes(mask: int) -> list[str]:
    return [CARD_BY_INDEX[i].code for i in search.bits_of(mask)]


def gin_rules(profile: str, options: dict[str, Any] | None = None) -> profiles.GinRules:
    rules = profiles.resolve("oklahoma-gin", profile, options)
    assert isinstance(rules, profiles.GinRules)
    return rules


def random_deal(rnd: random.Random, players: tuple[str, ...], void_allowed: bool) -> dict[str, Any]:
    """A deal a table could have played: the knocker's cards within the knock limit the upcard
    sets (the knocker's hand is drawn from six neighbouring ranks, so melds and layoffs are
    common), or a void hand."""
    size = gin.hand_size(len(players))
    suit = rnd.choice("SHDC")
    if void_allowed and rnd.random() < 0.1:
        return {"upcard": rnd.choice(RANK_CODES) + suit, "knocker": None, "hands": {}}
    while True:
        lo = rnd.randint(0, 7)
        near = [s * 13 + r for s in range(4) for r in range(lo, lo + 6)]
        extra = rnd.random() < 0.3
        knock = search.mask_of(rnd.sample(near, size + (1 if extra else 0)))
        least = search.best_deadwood_discard(knock) if extra else search.best_deadwood(knock)
        if least <= 10:
            break
    rank = rnd.randint(max(least, 2), 13) if least or rnd.random() < 0.7 else 1
    knocker = rnd.choice(players)
    rest = [i for i in range(52) if not knock >> i & 1]
    rnd.shuffle(rest)
    if rnd.random() < 0.5:  # defenders' cards near the knocker's: more layoffs and undercuts
        rest.sort(key=lambda i: (abs(i % 13 - lo - 3), rnd.random()))
    hands: dict[str, Any] = {knocker: {"cards": codes(knock)}}
    for name in players:
        if name != knocker:
            hands[name] = {"cards": codes(search.mask_of(rest[:size]))}
            rest = rest[size:]
    return {"upcard": RANK_CODES[rank - 1] + suit, "knocker": knocker, "hands": hands}


GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("standard", 2, {"target": 100}),
    ("classic", 2, {"target": 100}),
    ("classic", 2, {"target": 100, "shutout": True}),
    ("casino", 2, {}),
    ("standard", 2, {"spade_multiplier": 3, "big_gin_bonus": 31, "box_bonus": 25}),
    ("party", 2, {"target": 60}),
    ("party", 3, {"target": 60}),
    ("party", 4, {"target": 60, "layoffs": "chained"}),
    ("standard", 2, {"hollywood": True, "target": 100}),
    ("classic", 2, {"hollywood": True, "target": 60, "shutout": True}),
    ("casino", 2, {"hollywood": True, "target": 40}),
]


@st.composite
def games(draw: st.DrawFn) -> tuple[profiles.GinRules, tuple[str, ...], list[dict[str, Any]], str | None]:
    profile, count, options = draw(st.sampled_from(GAMES))
    rules = gin_rules(profile, options)
    players = NAMES[:count]
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    deals = [random_deal(rnd, players, rules.stock_out == "void") for _ in range(draw(st.integers(1, 14)))]
    return rules, players, deals, draw(st.sampled_from((None, *players)))


def fold(
    rules: profiles.GinRules, players: tuple[str, ...], deals: list[dict[str, Any]], first_dealer: str | None
) -> tuple[list[DealResult], list[Standing], RecordInvalid | None]:
    """Play the deals one by one until the first that is refused."""
    standing = gin.begin(rules, players, first_dealer)
    results: list[DealResult] = []
    standings = [standing]
    for number, deal in enumerate(deals, start=1):
        try:
            result, standing = gin.play(rules, players, standing, deal, number)
        except RecordInvalid as exc:
            return results, standings, exc
        results.append(result)
        standings.append(standing)
    return results, standings, None


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_playing_one_deal_at_a_time_is_scoring_the_whole_game(game):
    rules, players, deals, first_dealer = game
    results, standings, refused = fold(rules, players, deals, first_dealer)
    try:
        whole: GameResult | None = gin.score_game(rules, players, deals, first_dealer)
    except RecordInvalid as exc:
        whole = None
        # the only refusal these deals can meet: a deal after the game ended
        assert refused is not None and exc.errors[0] == refused.errors[0]
        assert refused.errors[0].rule == "end of the game" and standings[-1].ended_on == len(results)
    if whole is not None:
        assert refused is None
        assert whole.deals == tuple(results)
        assert gin.conclude(rules, players, standings[-1], results) == whole
    for before, after, result in zip(standings, standings[1:], results, strict=False):
        assert dict(zip(players, before.totals, strict=True)) == result.totals_before
        assert dict(zip(players, after.totals, strict=True)) == result.totals
        assert after.deals == before.deals + 1


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_a_standing_restored_from_json_scores_the_next_deal_the_same(game):
    rules, players, deals, first_dealer = game
    results, standings, _ = fold(rules, players, deals, first_dealer)
    for number, (standing, result) in enumerate(zip(standings, results, strict=False), start=1):
        stored = json.loads(json.dumps(standing.to_json()))
        restored = Standing.from_json(stored)
        assert restored == standing
        again, after = gin.play(rules, players, restored, deals[number - 1], number)
        assert again == result and after == standings[number]


def test_a_deal_after_the_game_ended_is_refused_by_play():
    rules = gin_rules("standard", {"target": 100})
    players = ("Ann", "Ben")
    gin_deal = {
        "upcard": "3D",
        "knocker": "Ann",
        "hands": {
            "Ann": {"melds": [["2S", "3S", "4S", "5S"], ["5H", "6H", "7H"], ["9H", "9D", "9C"]], "deadwood": []},
            "Ben": {"cards": ["KS", "QH", "JD", "10C", "9S", "8H", "7D", "6C", "AS", "4H"]},
        },
    }
    result, standing = gin.play(rules, players, gin.begin(rules, players, "Ben"), gin_deal, 1)
    assert standing.ended_on == 1 and standing.winner == 0 and result.totals == {"Ann": 100, "Ben": 0}
    with pytest.raises(RecordInvalid) as info:
        gin.play(rules, players, standing, gin_deal, 2)
    assert [(e.deal, e.rule) for e in info.value.errors] == [(2, "end of the game")]
    assert "Ann won on deal 1" in str(info.value.errors[0].message)


def test_play_names_every_error_of_the_deal():
    rules = gin_rules("standard")
    players = ("Ann", "Ben")
    bad = {"upcard": "JK", "knocker": "Zed", "hands": {"Ann": {"cards": ["1S"]}, "Ben": {"cards": []}}}
    with pytest.raises(RecordInvalid) as info:
        gin.play(rules, players, gin.begin(rules, players), bad, 4)
    assert {e.deal for e in info.value.errors} == {4} and len(info.value.errors) >= 4


def test_begin_refuses_an_unknown_first_dealer():
    rules = gin_rules("standard")
    with pytest.raises(RecordInvalid) as info:
        gin.begin(rules, ("Ann", "Ben"), "Zed")
    assert info.value.errors[0].field == "first_dealer"
