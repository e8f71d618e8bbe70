"""A points-only deal's refusals (docs/record.md): in words a player uses, each with the rule it
breaks and its one source (RULES.md §3)."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules import games, profiles
from scorekeeper.rules.errors import RecordError, RecordInvalid

P3 = ("Ann", "Ben", "Cleo")


def refused(rules: profiles.Rules, players: tuple[str, ...], deals: list[dict[str, Any]]) -> list[RecordError]:
    with pytest.raises(RecordInvalid) as info:
        games.score_game(rules, players, deals, None)
    return list(info.value.errors)


def test_a_player_missing_from_a_points_only_deal_has_no_points_in_this_deal():
    [e] = refused(profiles.resolve("oklahoma", "book"), P3, [{"points": {"Ann": 120, "Ben": -35}}])
    assert str(e.message) == "Cleo has no points in this deal"
    assert (e.deal, e.player, e.field, e.rule, e.source) == (1, "Cleo", "points.Cleo", "format", "RECORD.md")


@pytest.mark.parametrize("value", ["12", 1.5, True, None, 100_001])
def test_points_that_are_not_a_whole_number_must_be_one(value):
    [e] = refused(profiles.resolve("oklahoma", "book"), P3, [{"points": {"Ann": 1, "Ben": 2, "Cleo": value}}])
    assert str(e.message) == "Cleo's points must be a whole number (up to 100,000 either way)"
    assert (e.player, e.source) == ("Cleo", "RECORD.md")


@pytest.mark.parametrize(
    "deal",
    [
        {"points": {"Ann": 1, "Ben": 2, "Cleo": 3}, "held": []},
        {"points": [1, 2, 3]},
        {"points": {"Ann": 1, "Ben": 2, "Cleo": 3, "Dora": 4}},
        {"points": {"Ann": 1, "Ben": 2, "Cleo": 3}, "winner": "Dora"},
    ],
)
def test_every_fault_in_the_deals_form_cites_record_md(deal):
    errors = refused(profiles.resolve("oklahoma", "book"), P3, [deal])
    assert errors and all((e.rule, e.source) == ("format", "RECORD.md") for e in errors)


STOCK_OUT = {"out": None, "hands": {p: {"melds": [], "held": [c]} for p, c in zip(P3, ["5S", "5H", "5D"], strict=True)}}


@pytest.mark.parametrize(
    "game, profile, players, after",
    [
        ("oklahoma", "book", P3, STOCK_OUT),
        ("oklahoma", "laws", P3, {"points": {"Ann": 0, "Ben": 0, "Cleo": 0}}),
        ("oklahoma-gin", "standard", P3[:2], {"upcard": "10D", "knocker": None}),
        ("oklahoma-gin", "standard", P3[:2], {"points": {"Ann": 0, "Ben": 0}}),
        ("oklahoma-gin", "party", P3, {"points": {"Ann": 0, "Ben": 0, "Cleo": 0}}),
    ],
)
def test_a_deal_after_the_end_cites_the_one_rule_it_breaks_whatever_the_deal(game, profile, players, after):
    """A points-only deal after the end breaks the rule a deal with cards breaks there: the game's end,
    cited as its target is (Oklahoma's laws and Gin's party take theirs as rulings)."""
    rules = profiles.resolve(game, profile)
    ends = {"points": dict(zip(players, [rules.target, 5, 0], strict=False)), "winner": players[0]}
    [e] = refused(rules, players, [ends, after])
    assert (e.deal, e.rule, e.source) == (2, "end of the game", rules.cite("target").source)
