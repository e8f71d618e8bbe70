"""Oklahoma one deal at a time (rules/games.py's interface): ``play`` folded from ``begin`` gives
exactly ``score_game``; a standing survives JSON; playing on from a stored standing gives the
same deals as scoring from scratch; a deal after the end of the game is an error of that deal."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import games, oklahoma
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.profiles import OklahomaRules, resolve
from scorekeeper.rules.results import DealResult, Standing

from .oklahoma_random import game

PLAYERS = ("Ann", "Ben", "Cleo", "Dan", "Eve")
RULES = [
    resolve("oklahoma", "book"),
    resolve("oklahoma", "laws"),
    resolve("oklahoma", "book", {"target": 300}),
    resolve("oklahoma", "laws", {"target": 500, "joker": False, "first_turn_bonus": False}),
]


@st.composite
def games_(draw: st.DrawFn) -> tuple[OklahomaRules, tuple[str, ...], list[object], str | None]:
    rules = draw(st.sampled_from(RULES))
    players = PLAYERS[: draw(st.integers(2, rules.max_players))]
    rng = random.Random(draw(st.integers(0, 2**32)))
    deals: list[object] = list(game(rng, players, draw(st.integers(0, 14)), rules.joker))
    first_dealer = draw(st.sampled_from([None, *players]))
    return rules, players, deals, first_dealer


def fold(
    rules: OklahomaRules, players: tuple[str, ...], deals: list[object], first_dealer: str | None
) -> tuple[list[DealResult], list[Standing]]:
    """Play the deals one by one up to the end of the game; every standing along the way."""
    standing = games.begin(rules, players, first_dealer)
    results, standings = [], [standing]
    for number, deal in enumerate(deals, 1):
        if standing.ended_on is not None:
            break
        result, standing = games.play(rules, players, standing, deal, number)
        results.append(result)
        standings.append(standing)
    return results, standings


@settings(max_examples=150, deadline=None)
@given(games_())
def test_folding_play_from_begin_is_score_game(case):
    rules, players, deals, first_dealer = case
    results, standings = fold(rules, players, deals, first_dealer)
    played = deals[: len(results)]
    whole = games.score_game(rules, players, played, first_dealer)
    assert tuple(results) == whole.deals
    assert games.conclude(rules, players, standings[-1], results) == whole
    assert oklahoma.score_game(rules, players, played, first_dealer) == whole
    if len(results) < len(deals):  # the game ended: the deals after it are errors, each of its own deal
        with pytest.raises(RecordInvalid) as info:
            games.score_game(rules, players, deals, first_dealer)
        assert [e.deal for e in info.value.errors] == list(range(len(results) + 1, len(deals) + 1))
        assert all(f"ended on deal {len(results)}" in str(e.message) for e in info.value.errors)
        with pytest.raises(RecordInvalid) as one:
            games.play(rules, players, standings[-1], deals[len(results)], len(results) + 1)
        assert one.value.errors == info.value.errors[:1]


@settings(max_examples=150, deadline=None)
@given(games_(), st.data())
def test_playing_on_from_a_stored_standing_gives_the_same_deals(case, data):
    rules, players, deals, first_dealer = case
    results, standings = fold(rules, players, deals, first_dealer)
    start = data.draw(st.integers(0, len(results)))
    stored = json.loads(json.dumps(standings[start].to_json()))
    standing = Standing.from_json(stored)
    assert standing == standings[start]
    for number in range(start + 1, len(results) + 1):
        result, standing = games.play(rules, players, standing, deals[number - 1], number)
        assert result == results[number - 1]
        assert standing == standings[number]


@settings(max_examples=300, deadline=None)
@given(
    st.builds(
        Standing,
        deals=st.integers(0, 10**6),
        totals=st.lists(st.integers(-(10**6), 10**6), max_size=5).map(tuple),
        side=st.lists(st.integers(0, 10**6), max_size=5).map(tuple),
        boxes=st.lists(st.integers(0, 100), max_size=5).map(tuple),
        dealer=st.none() | st.integers(0, 4),
        ended_on=st.none() | st.integers(1, 10**6),
        winner=st.none() | st.integers(0, 4),
    )
)
def test_a_standing_survives_json(standing):
    assert Standing.from_json(standing.to_json()) == standing
    assert Standing.from_json(json.loads(json.dumps(standing.to_json()))) == standing


def test_begin_checks_the_players_and_seats_the_first_dealer():
    rules = resolve("oklahoma", "laws")
    assert games.begin(rules, ("Ann", "Ben", "Cleo"), "Ben") == Standing(
        deals=0, totals=(0, 0, 0), side=(0, 0, 0), dealer=1
    )
    assert games.begin(rules, ("Ann", "Ben"), None).dealer is None
    for players, first_dealer, fragment in [
        (("Ann", "ann"), None, "named twice"),
        (tuple("ABCDE"), None, "take 2 to 4"),
        (("Ann", "Ben"), "Zed", "first dealer"),
    ]:
        with pytest.raises(RecordInvalid) as info:
            games.begin(rules, players, first_dealer)
        assert fragment in str(info.value)


def test_play_raises_every_error_of_its_deal_only():
    rules = resolve("oklahoma", "book")
    players = ("Ann", "Ben")
    standing = games.begin(rules, players, "Ann")
    bad = {
        "out": "Ann",
        "colour": "red",
        "hands": {"Ann": {"melds": [["9H", "8H", "2C"]], "held": []}, "Ben": {"melds": [], "held": ["3X"]}},
    }
    with pytest.raises(RecordInvalid) as info:
        games.play(rules, players, standing, bad, 4)
    assert [(e.deal, e.player) for e in info.value.errors] == [(4, None), (4, "Ann"), (4, "Ben")]


def test_the_standing_after_a_deal_names_seats_not_names():
    rules = resolve("oklahoma", "book", {"target": 100})
    players = ("Ann", "Ben", "Cleo")
    deal = {
        "out": "Cleo",
        "concealed": True,
        "hands": {
            "Ann": {"melds": [], "held": ["3S"]},
            "Ben": {"melds": [], "held": ["4S"]},
            "Cleo": {"melds": [["7H", "8H", "9H"]], "held": []},
        },
    }
    result, standing = games.play(rules, players, games.begin(rules, players, "Ann"), deal, 1)
    # Cleo: 7♥ 8♥ 9♥ 25 + going out 100 = 125 (game: 100 reached), concealed 250 on the side.
    assert standing == Standing(deals=1, totals=(-5, -5, 125), side=(0, 0, 250), dealer=2, ended_on=1, winner=2)
    assert result.dealer == "Ann" and result.next_dealer == "Cleo"
    final = games.conclude(rules, players, standing, [result])
    assert final.winner == "Cleo" and final.final == {"Ann": -5, "Ben": -5, "Cleo": 125 + 250 + 200}
