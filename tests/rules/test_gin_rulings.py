"""This round's rulings of RULES.md §2 for Oklahoma Gin, each shown on a deal or a match of its own.

- Hollywood: a deal's points for a player are what it adds to his columns together; the match's
  running totals and final tallies are the sums of the three columns'; the match goes to the
  player with the larger sum of finals once all three columns are closed.
- A void hand scores nothing, wins no box, makes no Hollywood entry; its record needs no hands.
- A hand won for 0 points (an undercut on equal deadwood, undercut bonus 0) is still won: a box
  and a Hollywood entry.
- Scoring to the hand's winner (standard, classic, casino) is for two players: a game of more
  players that scores to the winner is refused, saying to play party.
- Penalty scoring (party) takes no game bonus, box bonus or shutout: rules that set one are
  refused, not played as if they did not.
- A shutout counts with the loser on 0 or less (typed points can take him below 0).

Readings kept as the engine reads them, now written in RULES.md: two players past the target after
one deal (the higher wins, equal goes on); party's tie for the lowest total goes on; no points-only
deal in Hollywood; Hollywood's equal sums go to the player who won more columns.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules import games, gin, record
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.results import ColumnStanding, Standing
from tests.rules.test_gin_game_properties import gin_rules

PLAYERS = ("Ann", "Ben")
RECORDS = Path(__file__).parent / "records"

# Ann knocks with 4 (5♠ 6♠ 7♠, 8♥ 9♥ 10♥, J♦ Q♦ K♦ and 4♣ as deadwood); Ben holds 4 after his
# own melds (A♣ 2♣ 3♣, 9♣ 10♣ J♣, 2♦ 3♦ 4♦; 4♥ left) and cannot lay off: an undercut on equal deadwood.
ANN_FOUR = ["5S", "6S", "7S", "8H", "9H", "10H", "JD", "QD", "KD", "4C"]
BEN_FOUR = ["AC", "2C", "3C", "9C", "10C", "JC", "2D", "3D", "4D", "4H"]
# Ann knocks with 4 again; Ben holds much deadwood: Ann's knock.
BEN_HIGH = ["AC", "2C", "3C", "9C", "10C", "KC", "2D", "3D", "8D", "4H"]


def deal(knocker: str | None, ann: list[str] | None = None, ben: list[str] | None = None) -> dict[str, Any]:
    if knocker is None:
        return {"upcard": "10D", "knocker": None}
    return {"upcard": "10D", "knocker": knocker, "hands": {"Ann": {"cards": ann}, "Ben": {"cards": ben}}}


def test_a_void_hand_needs_no_hands_scores_nothing_and_wins_no_box():
    rules = gin_rules("standard")
    standing = gin.begin(rules, PLAYERS, "Ben")
    result, after = gin.play(rules, PLAYERS, standing, deal(None), 1)
    assert result.outcome == "void" and result.winner is None
    assert {p: d.points for p, d in result.players.items()} == {"Ann": 0, "Ben": 0}
    assert all(not d.lines for d in result.players.values())
    assert after.boxes == standing.boxes and after.totals == standing.totals
    assert result.next_dealer == result.dealer == "Ben"  # the same dealer deals again


def test_a_void_hand_makes_no_hollywood_entry():
    rules = gin_rules("standard", {"hollywood": True})
    standing = gin.begin(rules, PLAYERS)
    result, after = gin.play(rules, PLAYERS, standing, deal(None), 1)
    assert result.columns == ()
    assert after.columns == standing.columns
    assert "Hollywood: nobody won this hand: nothing is entered in the columns" in [str(n) for n in result.notes]


def test_a_hand_won_for_0_points_is_still_won():
    rules = gin_rules("standard", {"undercut_bonus": 0})
    standing = gin.begin(rules, PLAYERS)
    result, after = gin.play(rules, PLAYERS, standing, deal("Ann", ANN_FOUR, BEN_FOUR), 1)
    assert result.outcome == "undercut" and result.winner == "Ben"
    assert {p: d.points for p, d in result.players.items()} == {"Ann": 0, "Ben": 0}
    assert after.boxes == (0, 1)  # a box for Ben
    assert result.next_dealer == "Ben"


def test_a_hand_won_for_0_points_is_a_hollywood_entry():
    rules = gin_rules("standard", {"undercut_bonus": 0, "hollywood": True})
    standing = gin.begin(rules, PLAYERS)
    result, after = gin.play(rules, PLAYERS, standing, deal("Ann", ANN_FOUR, BEN_FOUR), 1)
    assert result.winner == "Ben" and result.columns == (1,)
    assert after.columns[0].boxes == (0, 1) and after.columns[0].totals == (0, 0)
    # his second win goes in column 1, where he has an entry, and in column 2
    result, after = gin.play(rules, PLAYERS, after, deal("Ann", ANN_FOUR, BEN_FOUR), 2)
    assert result.columns == (1, 2)
    assert [c.boxes for c in after.columns] == [(0, 2), (0, 1), (0, 0)]


def test_hollywood_deal_points_are_what_the_hand_adds_to_the_columns_together():
    rules = gin_rules("standard", {"hollywood": True})
    standing = gin.begin(rules, PLAYERS)
    first, standing = gin.play(rules, PLAYERS, standing, deal("Ann", ANN_FOUR, BEN_HIGH), 1)
    second, standing = gin.play(rules, PLAYERS, standing, deal("Ann", ANN_FOUR, BEN_HIGH), 2)
    hand = first.players["Ann"].points
    assert first.columns == (1,) and second.columns == (1, 2)
    assert second.players["Ann"].points == 2 * hand  # once for each column it entered
    assert sum(x.points for x in second.players["Ann"].lines) == second.players["Ann"].points
    assert second.totals["Ann"] == sum(c.totals[0] for c in standing.columns) == 3 * hand


def test_the_hollywood_match_goes_to_the_larger_sum_of_finals_not_to_more_columns():
    # The example record: Ann closes column 1 at 132-0, Ben wins columns 2 and 3 at 114-99.
    result = record.result_json(record.score_text((RECORDS / "gin_hollywood_casino.json").read_text("utf-8")))
    columns = result["columns"]
    assert [c["winner"] for c in columns] == ["Ann", "Ben", "Ben"]
    finals = {p: sum(c["final"][p] for c in columns) for p in PLAYERS}
    assert finals == result["final"] == {"Ann": 330, "Ben": 228}
    assert result["totals"] == {p: sum(c["totals"][p] for c in columns) for p in PLAYERS}
    assert result["winner"] == "Ann"
    assert any("Ann wins the match with the larger sum" in str(n) for n in result["deals"][-1]["notes"])


@pytest.mark.parametrize(
    "profile, options, field",
    [
        ("standard", {"max_players": 3}, "rules.profile"),
        ("classic", {"max_players": 4}, "rules.profile"),
        ("casino", {"max_players": 3}, "rules.profile"),
        ("party", {"scoring": "winner"}, "rules.options.scoring"),
    ],
)
def test_winner_scoring_with_more_than_two_players_is_refused_saying_to_play_party(profile, options, field):
    rules = gin_rules(profile, options)
    three = ("Ann", "Ben", "Cleo")
    with pytest.raises(RecordInvalid) as info:
        gin.begin(rules, three)
    [e] = info.value.errors
    assert str(e.message) == (
        "scoring to the hand's winner ('scoring': 'winner') is for two players; this game has 3: "
        "play 'party', penalty points, with three or four"
    )
    assert (e.rule, e.source, e.field) == ("scoring", "ruling", field)
    # a deal played from a standing is refused too, not scored with each defender settling on his own
    standing = gin.begin(gin_rules("party"), three)
    hands = {"Ann": {"cards": ANN_FOUR[:7]}, "Ben": {"cards": BEN_HIGH[:7]}, "Cleo": {"cards": BEN_FOUR[3:10]}}
    with pytest.raises(RecordInvalid) as info:
        gin.play(rules, three, standing, {"upcard": "10D", "knocker": "Ann", "hands": hands}, 1)
    assert [x.rule for x in info.value.errors] == ["scoring"]
    # two players still score to the winner, and three play party
    assert gin.setup_errors(rules, PLAYERS) == []
    assert gin.setup_errors(gin_rules("party"), three) == []


def test_a_record_of_three_players_scoring_to_the_winner_is_refused():
    rec = {
        "format": "oklahoma-scorekeeper/1",
        "game": "oklahoma-gin",
        "rules": {"profile": "standard", "options": {"max_players": 3}},
        "players": ["Ann", "Ben", "Cleo"],
        "deals": [{"points": {"Ann": 10, "Ben": 0, "Cleo": 0}}],
    }
    with pytest.raises(RecordInvalid) as info:
        record.score_record(rec)
    assert [e.rule for e in info.value.errors] == ["scoring"]
    assert "play 'party'" in str(info.value)


@pytest.mark.parametrize(
    "options, field, said",
    [
        ({"game_bonus": 100}, "rules.options.game_bonus", "'game_bonus' must be 0, not 100"),
        ({"box_bonus": 20}, "rules.options.box_bonus", "'box_bonus' must be 0, not 20"),
        ({"shutout": True}, "rules.options.shutout", "'shutout' must be off"),
    ],
)
def test_penalty_scoring_with_a_game_bonus_box_bonus_or_shutout_is_refused(options, field, said):
    rules = gin_rules("party", options)
    with pytest.raises(RecordInvalid) as info:
        gin.begin(rules, ("Ann", "Ben", "Cleo"))
    [e] = info.value.errors
    assert str(e.message).startswith("penalty scoring has no ") and str(e.message).endswith(said)
    assert "(S4 pays none)" in str(e.message)
    assert (e.rule, e.source, e.field) == ("scoring", "ruling", field)
    # penalty points asked of a winner's profile: its game bonus is refused with them
    rules = gin_rules("standard", {"scoring": "penalty"})
    assert [x.field for x in gin.setup_errors(rules, PLAYERS)] == ["rules.options.game_bonus"]
    assert gin.setup_errors(gin_rules("standard", {"scoring": "penalty", "game_bonus": 0}), PLAYERS) == []


def test_a_party_record_with_every_bonus_lists_each_refusal():
    rec = {
        "format": "oklahoma-scorekeeper/1",
        "game": "oklahoma-gin",
        "rules": {"profile": "party", "options": {"game_bonus": 50, "box_bonus": 25, "shutout": True}},
        "players": ["Ann", "Ben", "Cleo"],
        "deals": [],
    }
    with pytest.raises(RecordInvalid) as info:
        record.score_record(rec)
    assert [e.field for e in info.value.errors] == [
        "rules.options.game_bonus",
        "rules.options.box_bonus",
        "rules.options.shutout",
    ]


def _points_game(profile: str, options: dict[str, Any], *deals: dict[str, int]) -> Any:
    rec = {
        "format": "oklahoma-scorekeeper/1",
        "game": "oklahoma-gin",
        "rules": {"profile": profile, "options": options},
        "players": list(PLAYERS),
        "deals": [{"points": d} for d in deals],
    }
    return record.score_record(rec)


@pytest.mark.parametrize("ben, shut_out", [(0, True), (-5, True), (1, False)])
def test_a_shutout_counts_with_the_loser_on_0_or_less(ben, shut_out):
    result = _points_game("standard", {"shutout": True}, {"Ann": 10, "Ben": ben}, {"Ann": 190, "Ben": 0})
    assert result.winner == "Ann" and result.totals == {"Ann": 200, "Ben": ben}
    assert result.final_lines is not None and result.final is not None
    shutout = [x for x in result.final_lines["Ann"] if x.rule == "shutout"]
    assert [x.points for x in shutout] == ([200] if shut_out else [])
    assert result.final["Ann"] == 200 + (200 if shut_out else 0) + 100  # hands (doubled), then the game bonus


def test_two_players_past_the_target_after_one_deal_the_higher_wins():
    result = _points_game("standard", {}, {"Ann": 150, "Ben": 150}, {"Ann": 60, "Ben": 55})
    assert result.totals == {"Ann": 210, "Ben": 205}
    assert result.state == "finished" and result.winner == "Ann"


def test_two_players_equal_past_the_target_after_one_deal_the_game_goes_on():
    result = _points_game("standard", {}, {"Ann": 150, "Ben": 150}, {"Ann": 60, "Ben": 60})
    assert result.state == "in_progress" and result.winner is None
    assert "Ann and Ben tie for the win: the game goes on (ruling)" in [str(n) for n in result.deals[-1].notes]


def test_party_goes_on_when_someone_reaches_100_and_the_lowest_tie():
    rules = gin_rules("party")
    three = ("Ann", "Ben", "Cleo")
    standing = games.begin(rules, three)
    tied, after = games.play(rules, three, standing, {"points": {"Ann": 100, "Ben": 20, "Cleo": 20}}, 1)
    assert after.ended_on is None and after.winner is None
    assert "Ben and Cleo tie for the win: the game goes on (ruling)" in [str(n) for n in tied.notes]
    _, after = games.play(rules, three, after, {"points": {"Ann": 0, "Ben": 5, "Cleo": 0}}, 2)
    assert after.ended_on == 2 and three[after.winner or 0] == "Cleo"


def test_hollywood_refuses_a_points_only_deal():
    rules = gin_rules("standard", {"hollywood": True})
    with pytest.raises(RecordInvalid) as info:
        games.play(rules, PLAYERS, games.begin(rules, PLAYERS), {"points": {"Ann": 25, "Ben": 0}}, 1)
    [e] = info.value.errors
    assert str(e.message) == "a Hollywood game scores each deal in three columns from its cards: enter the cards"
    assert (e.field, e.source) == ("points", "ruling")


def test_hollywood_equal_sums_go_to_the_player_who_won_more_columns():
    """Column 1 closed by Ann at 150-0, column 2 by Ben at 0-105; Ben closes column 3 with a knock, and
    the sums of the finals are equal (casino: no game bonus, no boxes): Ben won two columns."""
    rules = gin_rules("casino", {"hollywood": True})
    ben_knocks = deal("Ben", BEN_HIGH, ANN_FOUR)
    first, _ = gin.play(rules, PLAYERS, gin.begin(rules, PLAYERS), ben_knocks, 1)
    hand = first.players["Ben"].points
    ben_before = 106 - hand  # Ben ends column 3 on 106, past "more than 100"
    ann_third = 105 + 106 - 150  # Ann's column 3 evens the sums: 150 + 0 + 61 = 0 + 105 + 106
    columns = (
        ColumnStanding(totals=(150, 0), boxes=(2, 0), ended_on=2, winner=0),
        ColumnStanding(totals=(0, 105), boxes=(0, 2), ended_on=4, winner=1),
        ColumnStanding(totals=(ann_third, ben_before), boxes=(1, 1)),
    )
    standing = Standing(
        deals=5, totals=(150 + ann_third, 105 + ben_before), side=(0, 0), boxes=(3, 3), dealer=0, columns=columns
    )
    result, after = gin.play(rules, PLAYERS, standing, ben_knocks, 6)
    assert result.columns == (3,) and after.columns[2].winner == 1
    finals = gin.conclude(rules, PLAYERS, after, [result])
    assert finals.final == {"Ann": 150 + ann_third, "Ben": 105 + 106} and len(set(finals.final.values())) == 1
    assert finals.winner == "Ben"
    assert (
        "Hollywood: all three columns are closed: the sums of the three columns' final tallies are equal "
        f"(Ann {150 + ann_third}, Ben 211), so Ben, who won more columns, wins the match (ruling)"
    ) in [str(n) for n in result.notes]
