"""Hollywood three-column scoring (RULES.md §2, a house option on two-player Gin).

The columns must agree with three separate games fed the hands the rules send them: each hand a
player wins goes in every open column where he already has an entry and in the first open
column where he has none; a column closes when someone reaches the target in it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import gin, record
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.results import DealResult, GameResult, Standing
from tests.rules.test_gin_game_properties import gin_rules, random_deal

PLAYERS = ("Ann", "Ben")
HOLLYWOOD = [
    ("standard", {"target": 100}),
    ("standard", {"target": 60, "spade_multiplier": 3, "big_gin_bonus": 31}),
    ("classic", {"target": 60, "shutout": True}),
    ("classic", {"target": 80, "box_bonus": 25, "game_bonus": 0, "shutout": True}),
    ("casino", {"target": 50}),
]


def separate_games(profile: str, options: dict[str, Any], deals: list[dict[str, Any]]) -> tuple[list, list]:
    """Three plain games (no Hollywood) fed the hands by the entry rule, worked out here on its
    own: returns each deal's columns (1-based) and each column's GameResult."""
    rules = gin_rules(profile, options)
    judge = gin_rules(profile, {**options, "target": 1000})  # only to learn who won each hand
    standings = [gin.begin(rules, PLAYERS) for _ in range(3)]
    results: list[list[DealResult]] = [[], [], []]
    has_entry: list[set[str]] = [set(), set(), set()]
    entered_by_deal = []
    for deal in deals:
        if all(s.ended_on is not None for s in standings):
            break
        winner = gin.play(judge, PLAYERS, gin.begin(judge, PLAYERS), deal, 1)[0].winner
        entered: list[int] = []
        if winner is not None:
            open_columns = [k for k in range(3) if standings[k].ended_on is None]
            entered = [k for k in open_columns if winner in has_entry[k]]
            new = [k for k in open_columns if winner not in has_entry[k]]
            entered = sorted(entered + new[:1])
        for k in entered:
            result, standings[k] = gin.play(rules, PLAYERS, standings[k], deal, len(results[k]) + 1)
            results[k].append(result)
            has_entry[k].add(str(winner))
        entered_by_deal.append([k + 1 for k in entered])
    games = [gin.conclude(rules, PLAYERS, standings[k], results[k]) for k in range(3)]
    return entered_by_deal, games


def check_lines(result: GameResult) -> None:
    for d in result.deals:
        for pd in d.players.values():
            assert sum(x.points for x in pd.lines) == pd.points
            assert all(x.rule and x.source and x.basis in ("source", "ruling", "option") for x in pd.lines)
    finals = [(result.final, result.final_lines)] + [(c.final, c.final_lines) for c in result.columns]
    for final, final_lines in finals:
        if final is not None:
            assert final_lines is not None
            for p, lines in final_lines.items():
                assert sum(x.points for x in lines) == final[p]


@st.composite
def matches(draw: st.DrawFn) -> tuple[str, dict[str, Any], list[dict[str, Any]]]:
    profile, options = draw(st.sampled_from(HOLLYWOOD))
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    return profile, options, [random_deal(rnd, PLAYERS, True) for _ in range(draw(st.integers(1, 30)))]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches())
def test_the_columns_are_three_separate_games_fed_the_hands_the_rules_send_them(match):
    profile, options, deals = match
    entered, games = separate_games(profile, options, deals)
    deals = deals[: len(entered)]  # up to the deal that closed the last column
    rules = gin_rules(profile, {**options, "hollywood": True})
    result = gin.score_game(rules, PLAYERS, deals)
    assert [list(d.columns) for d in result.deals] == entered
    for column, game in zip(result.columns, games, strict=True):
        assert dict(column.totals) == dict(game.totals)
        assert (column.state, column.winner, column.final, column.final_lines) == (
            game.state,
            game.winner,
            game.final,
            game.final_lines,
        )
        assert dict(column.boxes) == {p: sum(1 for d in game.deals if d.winner == p) for p in PLAYERS}
    # the match: running totals are the sums of the columns; it ends when all three are closed
    assert dict(result.totals) == {p: sum(c.totals[p] for c in result.columns) for p in PLAYERS}
    assert (result.state == "finished") == all(c.state == "finished" for c in result.columns)
    if result.state == "finished":
        assert result.final == {p: sum(c.final[p] for c in result.columns if c.final) for p in PLAYERS}
        # the match goes to the larger sum of the columns' finals (ruling), on equal sums to more columns won
        won = {p: sum(1 for c in result.columns if c.winner == p) for p in PLAYERS}
        final = result.final or {}
        best = max(PLAYERS, key=lambda p: (final[p], won[p]))
        assert result.winner == best
        with pytest.raises(RecordInvalid) as info:
            gin.score_game(rules, PLAYERS, [*deals, deals[-1]])
        assert info.value.errors[0].rule == "end of the game" and "Hollywood match" in str(info.value.errors[0].message)
    for d in result.deals:
        if d.winner is not None:
            hand = d.players[d.winner]
            assert hand.points % len(d.columns) == 0
    check_lines(result)


def test_hollywood_is_for_two_players_scoring_to_the_winner():
    rules = gin_rules("party", {"hollywood": True})
    with pytest.raises(RecordInvalid) as info:
        gin.begin(rules, ("Ann", "Ben", "Cleo"))
    messages = [str(e.message) for e in info.value.errors]
    assert any("for two players; this game has 3" in m for m in messages)
    assert any("penalty" in m and "ruling" in m for m in messages)
    assert all(e.field == "rules.options.hollywood" for e in info.value.errors)
    with pytest.raises(RecordInvalid):
        gin.begin(rules, PLAYERS)  # party scores penalty points even with two
    assert gin.setup_errors(gin_rules("standard", {"hollywood": True}), PLAYERS) == []
    rec = {
        "format": "oklahoma-scorekeeper/1",
        "game": "oklahoma-gin",
        "rules": {"profile": "standard", "options": {"hollywood": True, "max_players": 3}},
        "players": ["Ann", "Ben", "Cleo"],
        "deals": [],
    }
    with pytest.raises(RecordInvalid) as info:
        record.score_record(rec)
    assert info.value.errors[0].rule == "hollywood"


def test_a_standing_with_columns_round_trips_through_json():
    rules = gin_rules("standard", {"hollywood": True, "target": 100})
    rnd = random.Random(7)
    standing = gin.begin(rules, PLAYERS, "Ann")
    number = 0
    while standing.ended_on is None:
        number += 1
        _, standing = gin.play(rules, PLAYERS, standing, random_deal(rnd, PLAYERS, True), number)
        data = standing.to_json()
        assert len(data["columns"]) == 3
        assert Standing.from_json(data) == standing
    assert "columns" not in gin.begin(gin_rules("standard"), PLAYERS).to_json()


def test_only_a_hollywood_result_carries_columns():
    plain = record.result_json(gin.score_game(gin_rules("standard"), PLAYERS, []))
    assert "columns" not in plain
    deal = random_deal(random.Random(3), PLAYERS, False)
    plain = record.result_json(gin.score_game(gin_rules("standard"), PLAYERS, [deal]))
    assert "columns" not in plain["deals"][0]
    hollywood = record.result_json(gin.score_game(gin_rules("standard", {"hollywood": True}), PLAYERS, [deal]))
    assert hollywood["deals"][0]["columns"] == [1]
    assert [c["number"] for c in hollywood["columns"]] == [1, 2, 3]
    assert [c["state"] for c in hollywood["columns"]] == ["in_progress"] * 3
    assert hollywood["state"] == "in_progress" and hollywood["final"] is None
