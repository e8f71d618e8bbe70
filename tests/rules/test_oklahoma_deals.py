"""Oklahoma deals: validation of a deal's entries and the score of each player (RULES.md §1)."""

import pytest

from scorekeeper.rules import rulebook
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.oklahoma import score_deal, score_game
from scorekeeper.rules.profiles import resolve

BOOK = resolve("oklahoma", "book")
LAWS = resolve("oklahoma", "laws")
P3 = ("Ann", "Ben", "Cleo")


def hand(melds=(), held=()):
    return {"melds": [list(m) for m in melds], "held": list(held)}


def simple(out="Ann", **flags):
    """Ann melds Q♠ Q♥ 2♣=Q♦ (70) and 7♥ 8♥ 9♥ (25); Ben melds 5♠ 6♠ 7♠ (15), holds K♦ (K–8);
    Cleo melds nothing and holds Q♠ 2♦ 4♣ (−100 −20 −5)."""
    d = {
        "out": out,
        "hands": {
            "Ann": hand([["QS", "QH", "2C=QD"], ["9H", "8H", "7H"]], [] if out == "Ann" else ["3S"]),
            "Ben": hand([["5S", "6S", "7S"]], ["KD"]),
            "Cleo": hand([], ["QS", "2D", "4C"]),
        },
    }
    d.update(flags)
    return d


def errors_of(rules, deal, players=P3):
    with pytest.raises(RecordInvalid) as info:
        score_deal(rules, players, deal, number=3)
    errs = info.value.errors
    for e in errs:
        assert e.deal == 3 and str(e.message) and e.rule, e
    return errs


def check_lines(result):
    for pd in result.values():
        assert sum(x.points for x in pd.lines) == pd.points
        assert sum(x.points for x in pd.side_lines) == pd.side_points
        assert all(x.rule and x.source for x in pd.lines + pd.side_lines)


# --- scoring --------------------------------------------------------------------------------


def test_going_out_and_penalties_book():
    r = score_deal(BOOK, P3, simple())
    check_lines(r)
    assert r["Ann"].points == 70 + 25 + 100
    assert r["Ben"].points == 15 - 20
    assert r["Cleo"].points == -125
    bonus = [x for x in r["Ann"].lines if x.rule == "going out"][0]
    assert bonus.points == 100 and bonus.source == "S0"
    assert r["Ann"].melds == (("Q♠", "Q♥", "2♣=Q♦"), ("7♥", "8♥", "9♥"))
    assert r["Cleo"].held == ("Q♠", "2♦", "4♣")


def test_k8_in_hand_laws_is_minus_10():
    r = score_deal(LAWS, P3, simple())
    assert r["Ben"].points == 15 - 10
    line = [x for x in r["Ben"].lines if "K♦" in str(x.label)][0]
    assert line.source == "S1 law 12" and line.points == -10
    bonus = [x for x in r["Ann"].lines if x.rule == "going out"][0]
    assert bonus.source == "S1 law 10"


def test_first_turn_out_book_no_bonus():
    r = score_deal(BOOK, P3, simple(first_turn=True))
    assert r["Ann"].points == 95
    assert any(x.points == 0 and "first turn" in str(x.label) for x in r["Ann"].lines)


def test_first_turn_out_laws_bonus_paid():
    assert score_deal(LAWS, P3, simple(first_turn=True))["Ann"].points == 195


def test_concealed_bonus_book_goes_to_the_side_column():
    r = score_deal(BOOK, P3, simple(concealed=True))
    check_lines(r)
    assert r["Ann"].points == 195  # the running score is untouched
    assert r["Ann"].side_points == 250
    assert r["Ann"].side_lines[0].source == "S0"
    assert r["Ben"].side_points == 0


def test_concealed_bonus_laws_none():
    r = score_deal(LAWS, P3, simple(concealed=True))
    assert r["Ann"].points == 195 and r["Ann"].side_points == 0


def test_concealed_on_first_turn_book_no_concealed_bonus_ruling():
    r = score_deal(BOOK, P3, simple(first_turn=True, concealed=True))
    assert r["Ann"].points == 95 and r["Ann"].side_points == 0
    assert r["Ann"].side_lines[0].basis == "ruling"


def test_concealed_on_first_turn_paid_when_first_turn_bonus_is_played():
    rules = resolve("oklahoma", "book", {"first_turn_bonus": True})
    r = score_deal(rules, P3, simple(first_turn=True, concealed=True))
    assert r["Ann"].points == 195 and r["Ann"].side_points == 250


def test_stock_out_no_bonus():
    d = simple(out=None)
    r = score_deal(BOOK, P3, d)
    assert r["Ann"].points == 95 - 5
    assert not any(x.rule == "going out" for pd in r.values() for x in pd.lines)


def test_two_sets_of_the_same_rank_in_one_hand():
    d = {
        "out": "Ann",
        "hands": {
            "Ann": hand([["7H", "7S", "7D"], ["7H", "7C", "2C"]]),
            "Ben": hand([], ["3S"]),
            "Cleo": hand([], ["4S"]),
        },
    }
    assert score_deal(BOOK, P3, d)["Ann"].points == 30 + 100


# --- validation -----------------------------------------------------------------------------


def test_a_card_entered_three_times_across_players():
    d = simple()
    d["hands"]["Ben"]["held"] = ["QS"]  # Ann melded one Q♠, Cleo holds one: this is a third
    errs = errors_of(BOOK, d)
    e = [x for x in errs if x.rule == "the pack"][0]
    assert e.cards == ("Q♠",) and "3 times" in str(e.message)
    assert "Ann 1" in str(e.message) and "Ben 1" in str(e.message) and "Cleo 1" in str(e.message)
    assert e.player == "Cleo" and e.source == "S0; S1 law 1"


def test_two_of_a_card_across_players_is_fine():
    d = simple()
    d["hands"]["Ben"]["held"] = ["9H"]  # Ann melded one 9♥
    score_deal(BOOK, P3, d)


def test_nine_2s_rejected_and_two_jokers_rejected():
    d = {
        "out": "Ann",
        "hands": {
            "Ann": hand([["7H", "2C", "2C"], ["8H", "2D", "2D"], ["9H", "2S", "2S"]]),
            "Ben": hand([["10H", "2H", "2H"]], ["2C", "JK"]),
            "Cleo": hand([["JH", "JS", "JK"]]),
        },
    }
    errs = errors_of(BOOK, d)
    msgs = " | ".join(str(e.message) for e in errs)
    assert "2♣ is entered 3 times" in msgs and "eight 2s" in msgs
    assert "JK is entered 2 times" in msgs and "one Joker" in msgs


def test_joker_off_rejects_a_held_joker():
    rules = resolve("oklahoma", "laws", {"joker": False})
    d = simple()
    d["hands"]["Cleo"]["held"].append("JK")
    e = errors_of(rules, d)[0]
    assert e.player == "Cleo" and e.cards == ("JK",) and "without the Joker" in str(e.message)


def test_player_out_with_cards_held():
    d = simple()
    d["hands"]["Ann"]["held"] = ["3S"]
    e = errors_of(BOOK, d)[0]
    assert e.player == "Ann" and e.cards == ("3♠",) and e.rule == "going out"


def test_player_out_who_melded_nothing_ruling():
    d = simple()
    d["hands"]["Ann"] = hand([], [])
    e = errors_of(BOOK, d)[0]
    assert e.player == "Ann" and "melded nothing" in str(e.message) and e.source == "ruling"


@pytest.mark.parametrize("flag", ["first_turn", "concealed"])
def test_flags_only_with_a_player_out(flag):
    e = errors_of(BOOK, simple(out=None, **{flag: True}))[0]
    assert e.field == flag


def test_flags_must_be_booleans():
    assert errors_of(BOOK, simple(concealed="yes"))[0].field == "concealed"


def test_unknown_keys_players_and_missing_players():
    d = simple(colour="red")
    d["hands"]["Dan"] = hand()
    del d["hands"]["Cleo"]
    d["hands"]["Ben"]["extra"] = 1
    errs = errors_of(BOOK, d)
    msgs = [str(e.message) for e in errs]
    assert any("unknown key 'colour'" in m for m in msgs)
    assert any("'Dan' is not one of the players" in m for m in msgs)
    assert any("Cleo has no hand" in m for m in msgs)
    assert any("unknown key 'extra'" in m for m in msgs)
    assert {e.player for e in errs} >= {"Dan", "Cleo", "Ben"}


def test_out_must_be_a_player():
    e = errors_of(BOOK, simple(out="Zed"))[0]
    assert e.field == "out"


def test_missing_held_or_melds_key():
    d = simple()
    del d["hands"]["Ben"]["held"]
    e = errors_of(BOOK, d)[0]
    assert e.player == "Ben" and "held" in str(e.message)


def test_held_card_naming_another_card():
    d = simple()
    d["hands"]["Cleo"]["held"] = ["2D=7H"]
    e = errors_of(BOOK, d)[0]
    assert e.player == "Cleo" and e.cards == ("2♦=7♥",) and "stands for nothing" in str(e.message)


def test_every_error_is_collected_with_deal_player_cards_rule():
    d = simple()
    d["hands"]["Ben"]["melds"] = [["9H", "8H", "2C"], ["KH", "AH", "2H", "3H"], ["5S", "5H", "5D", "5C", "JK"]]
    d["hands"]["Cleo"]["held"] = ["QS", "2D", "4X"]
    errs = errors_of(BOOK, d)
    assert len(errs) == 4
    for e in errs:
        assert e.player in ("Ben", "Cleo") and e.cards and e.rule and e.source
    fields = [e.field for e in errs]
    assert fields[:3] == ["hands.Ben.melds[0]", "hands.Ben.melds[1]", "hands.Ben.melds[2]"]
    assert errs[3].cards == ("4X",)


def test_score_game_reports_errors_of_several_deals():
    with pytest.raises(RecordInvalid) as info:
        score_game(BOOK, P3, [simple(colour=1), simple(), simple(out="Zed")], "Ann")
    assert [e.deal for e in info.value.errors] == [1, 3]


def test_readings_taken_are_in_the_deal_notes():
    d = simple()
    d["hands"]["Ann"]["melds"] = [["JK", "QS", "KS"], ["9H", "8H", "7H"]]
    d["hands"]["Cleo"]["held"] = ["2D", "4C"]
    g = score_game(BOOK, P3, [d], None)
    assert "Ann: JK Q♠ K♠: taken with JK as J♠; with JK as A♠ it scores the same (160)" in map(str, g.deals[0].notes)
    assert g.deals[0].players["Ann"].melds[0] == ("JK=J♠", "Q♠", "K♠")


# --- RULES.md §1 as revised: first-turn outs, a misdeal found late -------------------------------


def test_a_first_turn_out_is_concealed_whatever_the_record_says():
    # RULING CHANGED: first_turn without concealed was scored as not concealed.
    book = score_deal(BOOK, P3, simple(first_turn=True))
    assert book["Ann"].points == 95 and book["Ann"].side_points == 0
    [side] = book["Ann"].side_lines
    assert side.basis == "ruling" and "first turn" in str(side.label)  # no concealed bonus either (book)
    paid = score_deal(resolve("oklahoma", "book", {"first_turn_bonus": True}), P3, simple(first_turn=True))
    assert paid["Ann"].points == 195 and paid["Ann"].side_points == 250
    assert score_deal(BOOK, P3, simple(first_turn=True, concealed=False))["Ann"].side_lines == book["Ann"].side_lines
    laws = score_deal(LAWS, P3, simple(first_turn=True))
    assert laws["Ann"].points == 195 and laws["Ann"].side_lines[0].basis == "ruling"  # Laws: no concealed bonus


def test_a_first_turn_out_says_it_was_concealed_in_the_notes():
    g = score_game(BOOK, P3, [simple(first_turn=True)], "Cleo")
    assert any("Ann went out on the first turn: that is going out concealed" in n for n in map(str, g.deals[0].notes))
    g = score_game(BOOK, P3, [simple(first_turn=True, concealed=True)], "Cleo")
    assert not any("first turn" in n for n in map(str, g.deals[0].notes))


def test_late_misdeal_takes_the_going_out_bonus_away():
    r = score_deal(BOOK, P3, simple(late_misdeal=True))
    check_lines(r)
    assert r["Ann"].points == 95  # melds only
    [bonus] = [x for x in r["Ann"].lines if "misdeal" in str(x.label)]
    assert bonus.points == 0 and bonus.source == "S1 law 4" and bonus.basis == "source"
    assert r["Ben"].points == -5 and r["Cleo"].points == -125  # the others score as usual


@pytest.mark.parametrize("rules", [BOOK, LAWS])
def test_late_misdeal_takes_the_concealed_bonus_away_too(rules):
    r = score_deal(rules, P3, simple(late_misdeal=True, concealed=True))
    assert r["Ann"].points == 95 and r["Ann"].side_points == 0
    [side] = r["Ann"].side_lines
    assert side.points == 0
    if rules is BOOK:
        assert "misdeal" in str(side.label) and side.source == "S1 law 4"
    else:  # the Laws pay no concealed bonus at all (a ruling)
        assert side.basis == "ruling"


def test_late_misdeal_must_be_a_boolean_and_with_nobody_out_withholds_nothing():
    assert errors_of(BOOK, simple(late_misdeal="yes"))[0].field == "late_misdeal"
    g = score_game(BOOK, P3, [simple(out=None, late_misdeal=True)], None)
    assert any("misdeal" in n and "(ruling)" in n for n in map(str, g.deals[0].notes))
    assert g.deals[0].players["Ann"].points == 90


def test_unknown_key_names_late_misdeal_among_the_keys():
    e = errors_of(BOOK, simple(misdeal=True))[0]
    assert "out, first_turn, concealed, late_misdeal, hands" in str(e.message)


# --- RULES.md §1 as revised: a player who did not go out holds a card; a hand alone -------------


@pytest.mark.parametrize("out", ["Ann", None])
def test_a_player_with_no_cards_at_all_is_an_entry_error(out):
    d = simple(out=out)
    d["hands"]["Ben"] = hand([], [])
    [e] = errors_of(BOOK, d)
    assert str(e.message) == "Ben has no cards: every player who did not go out holds at least one card"
    assert (e.player, e.field, e.rule, e.source) == ("Ben", "hands.Ben", "cards in hand", "RULES.md §1")


def test_a_player_who_did_not_go_out_and_holds_no_card_is_an_entry_error():
    """RULES.md §1: whatever he melded, a player who did not go out holds a card (his hand would
    have emptied: he would have gone out)."""
    d = simple()
    d["hands"]["Ben"] = hand([["5S", "6S", "7S"]], [])
    [e] = errors_of(BOOK, d)
    assert str(e.message) == (
        "Ben melded every card and holds none, but Ann went out: every player who did not go out holds "
        "at least one card (a player whose hand empties has gone out)"
    )
    assert (e.deal, e.player, e.field, e.rule, e.source) == (3, "Ben", "hands.Ben.held", "cards in hand", "RULES.md §1")


def test_with_the_stock_out_every_player_holds_a_card():
    d = simple(out=None)
    d["hands"]["Cleo"] = hand([["QS", "QH", "QD"]], [])
    [e] = errors_of(BOOK, d)
    assert str(e.message) == (
        "Cleo melded every card and holds none: with the stock run out nobody went out, "
        "so every player still holds at least one card"
    )
    assert (e.player, e.field, e.rule, e.source) == ("Cleo", "hands.Cleo.held", "cards in hand", "RULES.md §1")


def test_a_player_who_melded_given_flat_and_holds_nothing_is_an_entry_error():
    d = simple()
    d["hands"]["Ben"] = {"melded": ["5S", "6S", "7S"], "held": []}
    [e] = errors_of(BOOK, d)
    assert (e.player, e.field, e.source) == ("Ben", "hands.Ben.held", "RULES.md §1")


def test_the_rule_that_a_player_holds_a_card_is_cited_with_one_source_wherever_it_is_broken():
    """RULES.md §3: one rule, one source: the three refusals and the rule book's paragraph alike."""
    no_cards, held_none, stock_out = simple(), simple(), simple(out=None)
    no_cards["hands"]["Ben"] = hand([], [])
    held_none["hands"]["Ben"] = hand([["5S", "6S", "7S"]], [])
    stock_out["hands"]["Cleo"] = hand([["QS", "QH", "QD"]], [])
    cited = {(e.rule, e.source) for d in (no_cards, held_none, stock_out) for e in errors_of(BOOK, d)}
    assert cited == {("cards in hand", "RULES.md §1")}
    paragraphs = rulebook.book("oklahoma", "book").section("going-out").paragraphs
    [book] = [x for x in paragraphs if "still holds at least one card" in x.text]
    assert book.cite == rulebook.Cite("RULES.md §1")


def test_a_player_with_held_cards_only_has_cards():
    d = simple()
    d["hands"]["Ben"] = hand([["5S", "6S", "7S"]], ["4D"])
    d["hands"]["Cleo"] = hand([], ["4C"])
    assert score_deal(BOOK, P3, d)["Ben"].points == 15 - 5


def test_an_empty_meld_is_not_a_card():
    d = simple()
    d["hands"]["Ben"] = hand([[]], [])
    messages = [str(e.message) for e in errors_of(BOOK, d)]
    assert "Ben has no cards: every player who did not go out holds at least one card" in messages
    assert any("empty meld" in m for m in messages)


def test_a_hand_alone():
    from scorekeeper.rules.oklahoma import score_hand

    r = score_hand(LAWS, [["QS", "QH", "2C=QD"]], ["KS", "JK", "2D", "7C"])
    assert r.points == 70 - 10 - 200 - 20 - 5 == sum(x.points for x in r.lines)
    assert r.melds == (("Q♠", "Q♥", "2♣=Q♦"),) and r.held == ("K♠", "JK", "2♦", "7♣")
    assert score_hand(BOOK, [], []).points == 0
    with pytest.raises(RecordInvalid) as info:
        score_hand(BOOK, [["9H", "8H", "2C"]], ["QS", "QS", "QS", "XX"])
    fields = [(e.field, e.player, e.deal) for e in info.value.errors]
    assert fields == [("melds[0]", None, None), ("held", None, None), (None, None, None)]
    assert str(info.value.errors[2].message) == "Q♠ is entered 3 times: the pack has two of each card"


# --- one deal played onto a standing ---------------------------------------------------------------

TWO = ("Ann", "Ben")


def _two_player_deal(held=("3S",)):
    return {
        "out": "Ann",
        "hands": {"Ann": {"melds": [["5S", "5H", "5D"]], "held": []}, "Ben": {"melds": [], "held": list(held)}},
    }


def test_play_after_the_end_of_the_game_is_an_error_of_that_deal():
    from dataclasses import replace

    from scorekeeper.rules import oklahoma

    standing = oklahoma.begin(BOOK, TWO)
    result, after = oklahoma.play(BOOK, TWO, standing, _two_player_deal(), 1)
    assert result.totals == {"Ann": 115, "Ben": -5}
    ended = replace(after, ended_on=1, winner=0)
    with pytest.raises(RecordInvalid) as info:
        oklahoma.play(BOOK, TWO, ended, _two_player_deal(), 2)
    assert [e.rule for e in info.value.errors] == ["end of the game"]


@pytest.mark.parametrize("seats", [1, 3])
def test_a_standing_of_another_number_of_players_is_refused(seats):
    from dataclasses import replace

    from scorekeeper.rules import oklahoma

    standing = replace(oklahoma.begin(BOOK, TWO), totals=(0,) * seats)
    with pytest.raises(ValueError, match=r"zip\(\) argument 2 is (shorter|longer) than argument 1"):
        oklahoma.play(BOOK, TWO, standing, _two_player_deal(), 1)


def test_the_same_cards_held_under_other_rules_are_priced_by_those_rules():
    house = resolve("oklahoma", "book", {"k8_in_hand": -10})
    deal = _two_player_deal(["KD", "9C", "3S"])
    for rules in (BOOK, LAWS, BOOK, house, resolve("oklahoma", "book"), LAWS):
        ben = score_deal(rules, TWO, deal)["Ben"]
        k8 = rules.k8_in_hand
        assert [(str(line.label), line.points, line.source) for line in ben.lines] == [
            (f"K♦ 9♣ in hand (2 × −{-k8})", 2 * k8, rules.cite("k8_in_hand").source),  # a true minus sign
            ("3♠ in hand", -5, "S0; S1 law 12"),
        ]
        assert ben.points == 2 * k8 - 5


@pytest.mark.parametrize(
    "meld, message",
    [
        (["QS", "QS", "QS"], "Q♠ is entered 3 times: the pack has two of each card"),
        (["7D", "7D", "7D", "7D"], "7♦ is entered 4 times: the pack has two of each card"),
    ],
)
def test_a_single_meld_scored_as_a_hand_keeps_to_the_pack(meld, message):
    """The checker (rules/checker.py) asks score_hand whether one meld keeps to the pack's limits:
    a legal set by rank, but the pack holds two of each natural card."""
    from scorekeeper.rules.oklahoma import score_hand

    with pytest.raises(RecordInvalid) as info:
        score_hand(BOOK, [meld], [])
    assert [(str(e.message), e.rule, e.field) for e in info.value.errors] == [(message, "the pack", None)]
    assert score_hand(BOOK, [["QS", "QH", "QS"]], []).points == 50 + 10 + 50


def test_a_wild_card_may_name_a_card_whose_two_naturals_are_both_entered_ruling():
    """RULES.md §1, a reading now written: a wild card counts as the wild card it is, not as the card
    it names (S0's Joker swap expects the named card to be still in play)."""
    d = simple()
    d["hands"]["Ben"] = hand([["5S", "6S", "7S"]], ["QD"])
    d["hands"]["Cleo"] = hand([], ["QS", "QD", "4C"])  # both Q♦ entered; Ann's 2♣ names Q♦
    r = score_deal(BOOK, P3, d)
    assert r["Ann"].melds[0] == ("Q♠", "Q♥", "2♣=Q♦")
    assert r["Ann"].points == 70 + 25 + 100
