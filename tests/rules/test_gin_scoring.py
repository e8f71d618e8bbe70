"""Oklahoma Gin scoring: every rule, value and trap of RULES.md section 2."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorekeeper.rules import gin, record
from scorekeeper.rules.errors import RecordInvalid

FORMAT = "oklahoma-scorekeeper/1"


def spread(melds: list[str], dead: str = "", **extra) -> dict:
    return {"melds": [m.split() for m in melds], "deadwood": dead.split(), **extra}


def cards(text: str, **extra) -> dict:
    return {"cards": text.split(), **extra}


def game(profile: str, deals: list[dict], players=("Ann", "Ben"), options=None, first_dealer=None) -> dict:
    rec: dict[str, Any] = {
        "format": FORMAT,
        "game": "oklahoma-gin",
        "rules": {"profile": profile},
        "players": list(players),
        "deals": deals,
    }
    if options:
        rec["rules"]["options"] = options
    if first_dealer:
        rec["first_dealer"] = first_dealer
    return rec


def score(rec: dict):
    return record.score_record(rec)


def errors_of(rec: dict):
    with pytest.raises(RecordInvalid) as info:
        score(rec)
    return info.value.errors


def deal(upcard: str, knocker, hands: dict) -> dict:
    return {"upcard": upcard, "knocker": knocker, "hands": hands}


def check_lines(result):
    for d in result.deals:
        for p, pd in d.players.items():
            assert sum(x.points for x in pd.lines) == pd.points, (d.number, p, pd.lines)
            for x in pd.lines:
                assert x.rule and x.source and x.basis in ("source", "ruling", "option")
    if result.final is not None:
        for p, lines in result.final_lines.items():
            assert sum(x.points for x in lines) == result.final[p]


# Ann knocks with 6♠ (6) on an 8 upcard.
ANN_KNOCK = spread(["5H 6H 7H", "QS QD QC", "2C 3C 4C"], "6S")
# Ben: 8♥ 9♥ chain onto 5-6-7♥, Q♥ onto the queens; 3-4-5♦ and 7s his own; A♥ left (1).
BEN_UNDERCUT = cards("8H 9H QH 3D 4D 5D 7S 7D 7C AH")
# The same with 6♣ left (6): equal to the knocker.
BEN_TIE = cards("8H 9H QH 3D 4D 5D 7S 7D 7C 6C")
# Ben with nothing to lay off and 40 left.
BEN_LOSES = cards("AD 2D 3D 8S 8D 8C KH JH 10D 9S")


# ---------------------------------------------------------------------------------------------
# Knock, undercut, gin


def test_knock_scores_the_deadwood_difference():
    r = score(game("standard", [deal("8H", "Ann", {"Ann": ANN_KNOCK, "Ben": BEN_LOSES})]))
    d = r.deals[0]
    assert d.outcome == "knock" and d.multiplier == 1
    # Ben: A-2-3♦, 8♠ 8♦ 8♣; K♥ J♥ 10♦ 9♠ = 39 left, nothing lays off on Ann's melds
    assert d.players["Ben"].deadwood_points == 39
    assert d.players["Ann"].points == 39 - 6 and d.players["Ben"].points == 0
    assert str(d.players["Ann"].lines[0].label) == "knock: 39 − 6"
    assert d.players["Ann"].lines[0].source == "S2, Scoring 1"
    assert d.next_dealer == "Ann"
    check_lines(r)


def test_a_layoff_turns_a_knock_into_an_undercut():
    r = score(game("standard", [deal("8H", "Ann", {"Ann": ANN_KNOCK, "Ben": BEN_UNDERCUT})]))
    d = r.deals[0]
    ben = d.players["Ben"]
    assert d.outcome == "undercut"
    assert set(ben.layoffs) == {"8♥", "9♥", "Q♥"} and ben.deadwood == ("A♥",)
    assert ben.deadwood_points == 1
    assert ben.points == (6 - 1) + 25 and d.players["Ann"].points == 0
    assert [str(x.label) for x in ben.lines] == ["undercut: 6 − 1", "undercut bonus"]
    assert ben.lines[1].source == "S2, Scoring 3"
    assert d.next_dealer == "Ben"
    check_lines(r)


def test_equal_deadwood_is_an_undercut():
    r = score(game("standard", [deal("8H", "Ann", {"Ann": ANN_KNOCK, "Ben": BEN_TIE})]))
    d = r.deals[0]
    assert d.outcome == "undercut"
    assert d.players["Ben"].deadwood_points == 6
    assert d.players["Ben"].points == 25


def test_classic_and_casino_undercut_bonus_is_10():
    for profile in ("classic", "casino"):
        r = score(game(profile, [deal("8H", "Ann", {"Ann": ANN_KNOCK, "Ben": BEN_UNDERCUT})]))
        assert r.deals[0].players["Ben"].points == 5 + 10


# Ben against Ann's gin: 9♥ 10♥ and Q♥ would lay off after a knock, never after gin.
BEN_VS_GIN = cards("9H 10H QH 3D 4D 5D 7S 7D 7C AH")
ANN_GIN = spread(["5H 6H 7H 8H", "QS QD QC", "2C 3C 4C"])


def test_gin_scores_bonus_plus_whole_deadwood_without_layoffs():
    r = score(game("standard", [deal("8D", "Ann", {"Ann": ANN_GIN, "Ben": BEN_VS_GIN})]))
    d = r.deals[0]
    ben = d.players["Ben"]
    assert d.outcome == "gin"
    assert ben.layoffs == ()  # no layoffs after gin
    assert ben.deadwood_points == 9 + 10 + 10 + 1
    assert d.players["Ann"].points == 25 + 30
    check_lines(r)


def test_gin_is_never_an_undercut():
    ann = spread(["5H 6H 7H", "QS QD QC", "2C 3C 4C 5C"])
    ben = spread(["AD 2D 3D", "8S 8D 8C", "JS JD JC JH"])  # also 0 deadwood
    r = score(game("standard", [deal("8D", "Ann", {"Ann": ann, "Ben": ben})]))
    d = r.deals[0]
    assert d.outcome == "gin" and d.players["Ann"].points == 25 and d.players["Ben"].points == 0


def test_classic_gin_bonus_is_20():
    r = score(game("classic", [deal("8D", "Ann", {"Ann": ANN_GIN, "Ben": BEN_VS_GIN})]))
    assert r.deals[0].players["Ann"].points == 20 + 30


# ---------------------------------------------------------------------------------------------
# Upcard: knock limit and spades


def test_knock_limit_is_the_upcard_value():
    r = score(game("standard", [deal("6D", "Ann", {"Ann": ANN_KNOCK, "Ben": BEN_LOSES})]))
    assert "knock limit 6" in str(r.deals[0].notes[0])
    errs = errors_of(game("standard", [deal("5D", "Ann", {"Ann": ANN_KNOCK, "Ben": BEN_LOSES})]))
    assert len(errs) == 1 and errs[0].rule == "knock limit" and errs[0].player == "Ann"
    assert errs[0].cards == ("6♠",) and "knock limit at 5" in str(errs[0].message)
    assert errs[0].deal == 1


def test_picture_upcard_sets_10():
    r = score(game("standard", [deal("KD", "Ann", {"Ann": ANN_KNOCK, "Ben": BEN_LOSES})]))
    assert "knock limit 10" in str(r.deals[0].notes[0])


def test_ace_upcard_means_gin_only():
    errs = errors_of(game("standard", [deal("AD", "Ann", {"Ann": ANN_KNOCK, "Ben": BEN_LOSES})]))
    assert errs[0].rule == "knock limit" and "only gin" in str(errs[0].message)
    ann = spread(["5H 6H 7H 8H", "QS QD QC", "2C 3C 4C"])
    r = score(game("standard", [deal("AD", "Ann", {"Ann": ann, "Ben": BEN_LOSES})]))
    assert r.deals[0].outcome == "gin" and "gin only" in str(r.deals[0].notes[0])


def test_spade_upcard_doubles_every_point_bonuses_included():
    r = score(game("standard", [deal("8S", "Ann", {"Ann": ANN_KNOCK, "Ben": BEN_TIE})]))
    d = r.deals[0]
    ben = d.players["Ben"]
    assert d.multiplier == 2 and ben.points == 50
    assert str(ben.lines[-1].label) == "spade upcard ×2" and ben.lines[-1].points == 25
    r = score(game("standard", [deal("8S", "Ann", {"Ann": ANN_GIN, "Ben": BEN_VS_GIN})]))
    assert r.deals[0].players["Ann"].points == (25 + 30) * 2
    check_lines(r)


def test_double_oklahoma_triples_and_casino_does_not_multiply():
    r = score(
        game("standard", [deal("8S", "Ann", {"Ann": ANN_KNOCK, "Ben": BEN_LOSES})], options={"spade_multiplier": 3})
    )
    assert r.deals[0].players["Ann"].points == 33 * 3
    assert r.deals[0].players["Ann"].lines[-1].basis == "option"
    r = score(game("casino", [deal("8S", "Ann", {"Ann": ANN_KNOCK, "Ben": BEN_LOSES})]))
    assert r.deals[0].multiplier == 1 and r.deals[0].players["Ann"].points == 33
    assert any("ruling" in n for n in map(str, r.deals[0].notes))


# ---------------------------------------------------------------------------------------------
# The knocker's spread and cards


def test_the_spread_is_never_rearranged():
    # 8♥ could extend 5-6-7♥, but Ann left it as deadwood: she is scored on 6 + 8.
    ann = spread(["5H 6H 7H", "QS QD QC", "2C 3C 4C"], "8H")
    ben = cards("AD 2D 3D 8S 8D 8C KH JH 10D 9S")
    r = score(game("standard", [deal("KD", "Ann", {"Ann": ann, "Ben": ben})]))
    assert r.deals[0].players["Ann"].deadwood_points == 8
    assert r.deals[0].players["Ann"].melds == (("5♥", "6♥", "7♥"), ("Q♠", "Q♦", "Q♣"), ("2♣", "3♣", "4♣"))


def test_a_spread_over_the_limit_is_rejected_even_if_a_rearrangement_is_under():
    ann = spread(["7S 7H 7D 7C", "2C 3C 4C"], "5S 6S AH")  # 12, yet 5-6-7♠ + 7♥7♦7♣ leaves 1
    ben = cards("AD 2D 3D 8S 8D 8C KH JH 10D 9S")
    errs = errors_of(game("standard", [deal("5D", "Ann", {"Ann": ann, "Ben": ben})]))
    assert [e.rule for e in errs] == ["knock limit"]
    # Entered as cards the app finds 1 and accepts the knock.
    r = score(game("standard", [deal("5D", "Ann", {"Ann": cards("7S 7H 7D 7C 2C 3C 4C 5S 6S AH"), "Ben": ben})]))
    assert r.deals[0].players["Ann"].deadwood_points == 1


def test_invalid_spreads_name_the_meld_and_the_rule():
    ann = spread(["QS KS AS", "7S 7H 8H", "2C 3C 4C"], "6S")
    errs = errors_of(game("standard", [deal("KD", "Ann", {"Ann": ann, "Ben": BEN_LOSES})]))
    assert len(errs) == 2
    assert errs[0].cards == ("Q♠", "K♠", "A♠") and "ace is low only" in str(errs[0].message)
    assert errs[0].field == "hands.Ann.melds[0]" and errs[0].rule == "meld" and errs[0].source
    assert errs[1].cards == ("7♠", "7♥", "8♥") and errs[1].field == "hands.Ann.melds[1]"


def test_runs_need_no_gap_and_sets_at_most_four():
    assert "no gap" in str(gin.meld_problem(sum(1 << i for i in (0, 1, 3))))
    assert gin.meld_problem(sum(1 << i for i in (0, 1, 2))) is None


def test_knocker_cards_before_the_discard_find_the_best_discard():
    ann = cards("5H 6H 7H QS QD QC 2C 3C 4C 6S KD")
    r = score(game("standard", [deal("8H", "Ann", {"Ann": ann, "Ben": BEN_LOSES})]))
    a = r.deals[0].players["Ann"]
    assert a.discard == "K♦" and a.deadwood_points == 6 and a.deadwood == ("6♠",)
    assert any("discard" in n for n in map(str, r.deals[0].notes))


def test_knocker_cards_choose_the_arrangement_best_for_the_knocker():
    # Discarding K♥ or K♦ (J-Q-K♠ kept) or J♠ or Q♠ (three kings kept) all leave 10. Ben holds K♣:
    # onto three kings it would be laid off, so the app keeps the run (ruling).
    ann = cards("JS QS KS KH KD 2C 3C 4C 6D 7D 8D")
    ben = cards("KC 2H 3H 4H 9S 9H 9D AS 5S 10H")
    r = score(game("standard", [deal("10C", "Ann", {"Ann": ann, "Ben": ben})]))
    d = r.deals[0]
    assert d.players["Ann"].deadwood_points == 10
    assert ("J♠", "Q♠", "K♠") in d.players["Ann"].melds
    assert d.players["Ann"].discard in ("K♥", "K♦")
    assert d.players["Ben"].deadwood_points == 26 and d.players["Ann"].points == 16
    assert any("ruling" in n for n in map(str, d.notes))


def test_eleven_card_gin_without_big_gin_discards_one():
    ann = cards("5H 6H 7H 8H QS QD QC 2C 3C 4C 10S")
    r = score(game("standard", [deal("8D", "Ann", {"Ann": ann, "Ben": BEN_LOSES})]))
    assert r.deals[0].outcome == "gin" and r.deals[0].players["Ann"].discard is not None


def test_big_gin_scores_its_bonus_when_played_and_as_gin_otherwise():
    ann = spread(["5H 6H 7H 8H", "QS QD QC", "2C 3C 4C 5C"], big_gin=True)
    ben = cards("AD 2D 3D 8S 8D 8C KH JH 10D 9S")  # 39
    r = score(game("standard", [deal("KD", "Ann", {"Ann": ann, "Ben": ben})], options={"big_gin_bonus": 31}))
    assert r.deals[0].outcome == "big_gin" and r.deals[0].players["Ann"].points == 31 + 39
    r = score(game("standard", [deal("KD", "Ann", {"Ann": ann, "Ben": ben})]))
    assert r.deals[0].outcome == "gin" and r.deals[0].players["Ann"].points == 25 + 39
    assert any("scored as gin" in n and "ruling" in n for n in map(str, r.deals[0].notes))
    # as cards, too
    r = score(
        game(
            "standard",
            [deal("KD", "Ann", {"Ann": cards("5H 6H 7H 8H QS QD QC 2C 3C 4C 5C", big_gin=True), "Ben": ben})],
            options={"big_gin_bonus": 31},
        )
    )
    assert r.deals[0].outcome == "big_gin"


def test_big_gin_needs_every_card_melded():
    ann = cards("5H 6H 7H 8H QS QD QC 2C 3C 4C 10S", big_gin=True)
    errs = errors_of(
        game("standard", [deal("KD", "Ann", {"Ann": ann, "Ben": BEN_LOSES})], options={"big_gin_bonus": 31})
    )
    assert errs[0].rule == "big gin" and errs[0].cards == ("10♠",)
    errs = errors_of(
        game(
            "standard",
            [deal("KD", "Ann", {"Ann": ANN_KNOCK, "Ben": cards("AD 2D 3D 8S 8D 8C KH JH 10D 9S", big_gin=True)})],
        )
    )
    assert any("only the knocker" in str(e.message) for e in errs)


# ---------------------------------------------------------------------------------------------
# Validation


def test_every_error_is_reported_at_once():
    bad = deal("8H", "Ann", {"Ann": ANN_KNOCK, "Ben": cards("8H 9H QH 3D 4D 5D 7S 7D 7C"), "Cleo": cards("")})
    bad["dealer"] = "Ann"
    bad2 = deal("JK", "Zed", {"Ann": {**ANN_KNOCK, "extra": 1}, "Ben": cards("5H AD 2D 3D 8S 8D 8C KH JH 10D")})
    errs = errors_of(game("standard", [bad, bad2]))
    msgs = [(e.deal, e.rule, str(e.message)) for e in errs]
    assert any(d == 1 and "unknown key 'dealer'" in m for d, _, m in msgs)
    assert any(d == 1 and "'Cleo'" in m for d, _, m in msgs)
    assert any(d == 1 and "has 9 cards" in m for d, _, m in msgs)
    assert any(d == 2 and "Joker" in m for d, _, m in msgs)
    assert any(d == 2 and "'Zed'" in m for d, _, m in msgs)
    assert any(d == 2 and "unknown key 'extra'" in m for d, _, m in msgs)
    assert any(d == 2 and "5♥ is entered twice" in m for d, _, m in msgs)


def test_the_upcard_may_also_be_in_a_hand():
    r = score(game("standard", [deal("6S", "Ann", {"Ann": ANN_KNOCK, "Ben": BEN_LOSES})]))
    assert r.deals[0].outcome == "knock"


def test_bad_card_text_is_named():
    errs = errors_of(
        game("standard", [deal("8H", "Ann", {"Ann": ANN_KNOCK, "Ben": cards("AD 2D 3D 8S 8D 8C KH JH 10D 1S")})])
    )
    assert errs[0].cards == ("1S",) and errs[0].player == "Ben"


def test_knocker_spread_of_eleven_cards_is_rejected():
    ann = spread(["5H 6H 7H", "QS QD QC", "2C 3C 4C"], "6S KD")
    errs = errors_of(game("standard", [deal("KH", "Ann", {"Ann": ann, "Ben": BEN_LOSES})]))
    assert "face down" in str(errs[0].message)


# ---------------------------------------------------------------------------------------------
# Void hands, dealers, game end


def test_void_hand_same_dealer_deals_again():
    d2 = deal("8H", "Ann", {"Ann": ANN_KNOCK, "Ben": BEN_UNDERCUT})
    r = score(game("standard", [{"upcard": "3D", "knocker": None, "hands": {}}, d2], first_dealer="Ben"))
    assert r.deals[0].outcome == "void" and r.deals[0].dealer == "Ben" and r.deals[0].next_dealer == "Ben"
    assert all(pd.points == 0 for pd in r.deals[0].players.values())
    assert r.deals[1].dealer == "Ben" and r.deals[1].next_dealer == "Ben"  # Ben undercut: he deals
    # the form sends empty hands for a void deal
    r = score(game("standard", [{"upcard": "3D", "knocker": None, "hands": {"Ann": spread([]), "Ben": spread([])}}]))
    assert r.deals[0].outcome == "void"


def test_party_has_no_void_hand():
    errs = errors_of(game("party", [{"upcard": "3D", "knocker": None, "hands": {}}], players=("Ann", "Ben", "Cleo")))
    assert errs[0].rule == "stock out" and errs[0].source == "S4"


def test_casino_target_is_more_than_100():
    ann = spread(["2S 3S 4S 5S", "5H 6H 7H", "9H 9D 9C"])
    ben = cards("KS QH JD 10C 9S 8H 7D 6C AS 4H")  # 75, no meld
    d1 = deal("3D", "Ann", {"Ann": ann, "Ben": ben})  # 25 + 75 = 100
    r = score(game("casino", [d1]))
    assert r.totals["Ann"] == 100 and r.state == "in_progress"
    r = score(game("casino", [d1, deal("8H", "Ann", {"Ann": ANN_KNOCK, "Ben": BEN_LOSES})]))
    assert r.state == "finished" and r.winner == "Ann" and r.final == {"Ann": 133, "Ben": 0}
    # exactly the target ends a standard game
    r = score(game("standard", [d1], options={"target": 100}))
    assert r.state == "finished" and r.final["Ann"] == 100 + 100


def test_deals_after_the_game_ended_are_an_error():
    ann = spread(["2S 3S 4S 5S", "5H 6H 7H", "9H 9D 9C"])
    ben = cards("KS QH JD 10C 9S 8H 7D 6C AS 4H")
    d1 = deal("3D", "Ann", {"Ann": ann, "Ben": ben})
    errs = errors_of(game("standard", [d1, d1], options={"target": 100}))
    assert errs[0].deal == 2 and errs[0].rule == "end of the game"


def test_spade_points_count_toward_the_target():
    ann = spread(["2S 3S 4S 5S", "5H 6H 7H", "9H 9D 9C"])
    ben = cards("KS QH JD 10C 9S 8H 7D 6C AD 4H")  # 75
    r = score(game("standard", [deal("3S", "Ann", {"Ann": ann, "Ben": ben})]))
    assert r.totals["Ann"] == 200 and r.state == "finished" and r.final["Ann"] == 300


def test_classic_box_bonus_and_game_bonus():
    ann = spread(["2S 3S 4S 5S", "5H 6H 7H", "9H 9D 9C"])
    ben = cards("KS QH JD 10C 9S 8H 7D 6C AD 4H")  # 75
    d1 = deal("8H", "Ann", {"Ann": ANN_KNOCK, "Ben": BEN_UNDERCUT})  # Ben 5 + 10 = 15
    d2 = deal("3S", "Ann", {"Ann": ann, "Ben": ben})  # Ann (20 + 75) × 2 = 190
    r = score(game("classic", [d1, d2]))
    assert r.totals == {"Ann": 190, "Ben": 15}
    assert r.state == "finished" and r.winner == "Ann"
    assert r.final == {"Ann": 190 + 100 + 20, "Ben": 15 + 20}
    labels = [str(x.label) for x in r.final_lines["Ben"]]
    assert labels[-1].startswith("boxes: 1 hand won")
    check_lines(r)


def test_shutout_doubles_the_winners_points_from_hands_then_adds_the_bonuses():
    # Ruling changed (issue 11): the game bonus is added after the doubling, not doubled.
    ann = spread(["2S 3S 4S 5S", "5H 6H 7H", "9H 9D 9C"])
    ben = cards("KS QH JD 10C 9S 8H 7D 6C AS 4H")
    r = score(game("standard", [deal("3D", "Ann", {"Ann": ann, "Ben": ben})], options={"target": 100, "shutout": True}))
    assert r.final == {"Ann": 100 * 2 + 100, "Ben": 0}
    assert [x.rule for x in r.final_lines["Ann"]] == ["game total", "shutout", "game bonus"]
    check_lines(r)


def test_classic_shutout_with_boxes_and_no_game_bonus_is_420_as_gc_gives():
    # Two gins of 20 + 75 = 95 each: 190, Ben on 0. GC: 190 × 2 + 2 boxes × 20 = 420 (not 460).
    ann = spread(["2S 3S 4S 5S", "5H 6H 7H", "9H 9D 9C"])
    ben = cards("KS QH JD 10C 9S 8H 7D 6C AD 4H")
    d = deal("3D", "Ann", {"Ann": ann, "Ben": ben})
    r = score(game("classic", [d, d], options={"shutout": True, "game_bonus": 0}))
    assert r.totals == {"Ann": 190, "Ben": 0} and r.state == "finished"
    assert r.final == {"Ann": 420, "Ben": 0}
    check_lines(r)
    # no shutout when the loser scored
    r = score(
        game("classic", [deal("8H", "Ann", {"Ann": ANN_KNOCK, "Ben": BEN_UNDERCUT}), d, d], options={"shutout": True})
    )
    assert r.final == {"Ann": 190 + 100 + 2 * 20, "Ben": 15 + 20}


def test_notes_never_say_ruling_twice_nor_1_points():
    r = score(game("casino", [deal("8S", "Ann", {"Ann": ANN_KNOCK, "Ben": BEN_LOSES})]))
    spade = next(n for n in map(str, r.deals[0].notes) if n.startswith("spade upcard"))
    assert spade == "spade upcard 8♠: no multiplier at this table — ruling"
    r = score(game("classic", [deal("8S", "Ann", {"Ann": ANN_KNOCK, "Ben": BEN_LOSES})]))
    assert any(n.endswith("bonuses included — BO") for n in map(str, r.deals[0].notes))
    ann = spread(["5H 6H 7H", "QS QD QC", "2C 3C 4C"], "AS")
    errs = errors_of(game("standard", [deal("AD", "Ann", {"Ann": ann, "Ben": BEN_LOSES})]))
    assert "leaves 1 point of deadwood;" in str(errs[0].message)


def test_scoring_twice_gives_the_same_result():
    rec = game(
        "classic",
        [
            deal("8H", "Ann", {"Ann": ANN_KNOCK, "Ben": BEN_UNDERCUT}),
            deal("8S", "Ben", {"Ben": cards("5H 6H 7H QS QD QC 2C 3C 4C 6S KD"), "Ann": BEN_LOSES}),
        ],
    )
    a = json.dumps(record.result_json(score(rec)), sort_keys=True, default=str)
    b = json.dumps(record.result_json(score(json.loads(json.dumps(rec)))), sort_keys=True, default=str)
    assert a == b


# ---------------------------------------------------------------------------------------------
# Party: 3-4 players, 7 cards, penalty points, original layoffs

PARTY = ("Ann", "Ben", "Cleo")


def party_knock():
    return deal(
        "9H",
        "Ann",
        {
            "Ann": spread(["5H 6H 7H", "KS KH KD"], "3C"),  # 3
            "Ben": cards("8H KC 2S 3S 4S 9C 10D"),  # 8♥ K♣ laid off: 19
            "Cleo": cards("4H 3H AD 2D 3D QC JC"),  # 4♥ laid off, 3♥ not: 23
        },
    )


def test_party_knock_each_loser_takes_his_deadwood_minus_the_knockers():
    r = score(game("party", [party_knock()], players=PARTY))
    d = r.deals[0]
    assert d.outcome == "knock"
    assert set(d.players["Ben"].layoffs) == {"8♥", "K♣"} and d.players["Ben"].deadwood_points == 19
    assert d.players["Cleo"].layoffs == ("4♥",) and d.players["Cleo"].deadwood_points == 23
    assert {p: x.points for p, x in d.players.items()} == {"Ann": 0, "Ben": 16, "Cleo": 20}
    check_lines(r)


def test_party_layoffs_do_not_chain_but_chained_option_does():
    r = score(game("party", [party_knock()], players=PARTY, options={"layoffs": "chained"}))
    assert set(r.deals[0].players["Cleo"].layoffs) == {"4♥", "3♥"}
    assert r.deals[0].players["Cleo"].points == 20 - 3


def party_undercut(cleo: str):
    return deal(
        "10C",
        "Ann",
        {
            "Ann": spread(["2S 3S 4S", "9H 9D 9C"], "8C"),  # 8
            "Ben": cards("5S 9S JH QH KH 6D 2C"),  # 5♠ 9♠ laid off: 8
            "Cleo": cards(cleo),
        },
    )


def test_party_undercut_the_least_deadwood_undercuts_and_the_knocker_takes_25():
    r = score(game("party", [party_undercut("10D JD QD KD AC 3H AD")], players=PARTY))  # Cleo 5
    d = r.deals[0]
    assert d.outcome == "undercut" and d.next_dealer == "Cleo"
    assert {p: x.points for p, x in d.players.items()} == {"Ann": 3 + 25, "Ben": 3, "Cleo": 0}
    check_lines(r)


def test_party_undercut_on_equal_deadwood_first_in_seat_order_and_knocker_plus_25():
    r = score(game("party", [party_undercut("10D JD QD KD AC 3H 4C")], players=PARTY))  # Cleo 8
    d = r.deals[0]
    assert d.outcome == "undercut" and d.next_dealer == "Ben"
    assert {p: x.points for p, x in d.players.items()} == {"Ann": 25, "Ben": 0, "Cleo": 0}
    assert any("seat order" in n for n in map(str, d.notes))


def test_party_gin_each_loser_takes_deadwood_plus_25():
    d = deal(
        "9H",
        "Ann",
        {
            "Ann": spread(["5H 6H 7H", "KS KH KD KC"]),
            "Ben": cards("8H 2S 3S 4S 9C 10D AC"),  # 8 + 9 + 10 + 1 = 28 (no layoffs)
            "Cleo": cards("4H 3H AD 2D 3D QC JC"),
        },
    )  # 3 + 4 + 10 + 10 = 27
    r = score(game("party", [d], players=PARTY))
    assert {p: x.points for p, x in r.deals[0].players.items()} == {"Ann": 0, "Ben": 53, "Cleo": 52}
    check_lines(r)


def test_party_game_ends_at_the_target_and_the_lowest_total_wins():
    r = score(game("party", [party_knock()], players=PARTY, options={"target": 20}))
    assert r.state == "finished" and r.winner == "Ann" and r.final == {"Ann": 0, "Ben": 16, "Cleo": 20}
    r = score(game("party", [party_knock()], players=PARTY))
    assert r.state == "in_progress"


def test_party_deals_seven_cards_to_three_players():
    d = party_knock()
    d["hands"]["Ben"] = cards("8H KC 2S 3S 4S 9C 10D JS 8S 7C")
    errs = errors_of(game("party", [d], players=PARTY))
    assert "each player holds 7" in str(errs[0].message)


def test_party_with_two_players_deals_ten():
    r = score(game("party", [deal("8H", "Ann", {"Ann": ANN_KNOCK, "Ben": BEN_LOSES})]))
    assert r.deals[0].players["Ben"].points == 33 and r.deals[0].players["Ann"].points == 0


def test_exact_tie_for_the_win_goes_on():
    # Ann reaches 25 penalty points; Ben and Cleo tie for the lowest total (0): the game goes on.
    r = score(game("party", [party_undercut("10D JD QD KD AC 3H 4C")], players=PARTY, options={"target": 25}))
    assert r.state == "in_progress" and r.winner is None
    assert any("tie for the win" in n and "ruling" in n for n in map(str, r.deals[0].notes))


def test_a_card_twice_in_one_hand_is_named():
    errs = errors_of(
        game("standard", [deal("8H", "Ann", {"Ann": ANN_KNOCK, "Ben": cards("AD 2D 3D 8S 8D 8C KH JH 10D AD")})])
    )
    assert errs[0].cards == ("A♦",) and "twice in Ben's hand" in str(errs[0].message)


def test_live_meld_check_names_the_problem_and_its_rule():
    from scorekeeper.rules.cards import parse_card
    from scorekeeper.rules.gin import check_meld

    def check(text):
        return check_meld([parse_card(t) for t in text.split()])

    assert check("3C 4C 5C") == ("run", None) and check("9D 9H 9S") == ("set", None)
    kind, problem = check("QH KH AH")
    assert kind is None and "ace is low only" in str(problem) and "S2" in str(problem)
    assert "named twice" in str(check("3C 3C 4C")[1])
    assert "without the Joker" in str(check("JK 3C 4C")[1])


def test_deal_result_names_the_knocker_and_the_hands_winner():
    from scorekeeper.rules.record import score_record

    record = {
        "format": "oklahoma-scorekeeper/1",
        "game": "oklahoma-gin",
        "rules": {"profile": "party"},
        "players": ["Ann", "Ben", "Cleo"],
        "deals": [
            {
                "upcard": "9D",
                "knocker": "Ann",
                "hands": {
                    "Ann": {"melds": [["4H", "5H", "6H"]], "deadwood": ["2C", "3D", "AS", "AD"]},
                    "Ben": {"cards": ["KC", "KD", "KH", "9C", "9H", "9S", "AC"]},
                    "Cleo": {"cards": ["QC", "QD", "QH", "10C", "10D", "10H", "AH"]},
                },
            }
        ],
    }
    [deal] = score_record(record).deals
    # Ben and Cleo both keep 1 after their melds: the undercutter is the first after the knocker
    assert deal.outcome == "undercut" and deal.actor == "Ann" and deal.winner == "Ben"
