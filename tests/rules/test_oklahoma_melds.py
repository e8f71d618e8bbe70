"""Oklahoma meld checking (RULES.md §1; S0; S1 laws 7, 8, 9, 11): sets, sequences, wild cards."""

import pytest

from scorekeeper.rules.cards import Card, Suit, Token, parse_token
from scorekeeper.rules.oklahoma import check_meld
from scorekeeper.rules.profiles import resolve

BOOK = resolve("oklahoma", "book")
LAWS = resolve("oklahoma", "laws")
NO_JOKER = resolve("oklahoma", "laws", {"joker": False})


def ok(tokens, rules=BOOK):
    check = check_meld(tokens, rules)
    assert check.ok, [str(e) for e in check.errors]
    assert not check.errors
    assert sum(line.points for line in check.lines) == check.points
    assert all(line.rule and line.source for line in check.lines)
    return check


def bad(tokens, rules=BOOK):
    check = check_meld(tokens, rules)
    assert not check.ok
    assert check.errors
    for e in check.errors:
        assert str(e.message) and e.rule and e.source and e.cards, e
    return check


def text(check):
    return " | ".join(str(e.message) for e in check.errors)


# --- sets ---------------------------------------------------------------------------------


def test_set_of_three_and_four():
    assert ok(["7H", "7S", "7D"]).kind == "set"
    four = ok(["KH", "KS", "KD", "KC"])
    assert four.kind == "set" and four.points == 40 and four.rank == 13


def test_set_of_five_rejected_wilds_included():
    check = bad(["5S", "5H", "5D", "5C", "2C"])
    assert "at most 4" in text(check) and check.errors[0].source == "S0"
    bad(["5S", "5H", "5D", "5C", "5S"])


def test_two_naturals_of_the_same_card_in_a_set():
    # Two packs: the same card may appear twice.
    check = ok(["7H", "7H", "7S"])
    assert check.points == 15


def test_unnamed_wilds_with_naturals_of_one_rank_and_two_suits_make_a_set():
    check = ok(["7H", "7S", "2C", "JK"])
    assert check.kind == "set" and check.rank == 7 and not str(check.note)
    assert check.points == 5 + 5 + 5 + 100
    assert [str(m) for m in check.meaning[-2:]] == ["a 7", "a 7"]
    assert [str(line.label) for line in check.lines][-2:] == ["2♣ as a 7 melded", "JK as a 7 melded"]


def test_one_natural_and_two_unnamed_wilds_read_several_ways_must_be_named():
    # RULING CHANGED (RULES.md §1, readings): 7♥ 2♣ JK was taken as a set of 7s (110); it may as
    # well be 6♥ 7♥ 8♥ with the 2 as 8♥ (115): the readings score differently.
    check = bad(["7H", "2C", "JK"])
    assert check.kind is None
    e = check.errors[0]
    assert (
        "set of 7s (110)" in str(e.message)
        and "6♥–8♥ (115)" in str(e.message)
        and "name the wild cards" in str(e.message)
    )
    assert e.rule == "wild cards: name the card" and e.source == "ruling"
    assert ok(["7H", "2C=7S", "JK"]).kind == "set"  # naming one wild leaves one reading
    assert ok(["7H", "2C=8H", "JK"]).points == 5 + 10 + 100  # the Joker as 6♥ or 9♥: 100 either way


@pytest.mark.parametrize("rank, word", [(1, "an ace"), (8, "an 8"), (13, "a king"), (7, "a 7"), (10, "a 10")])
def test_a_wild_in_a_set_reads_with_its_article(rank, word):
    name = {1: "A", 13: "K"}.get(rank, str(rank))
    check = ok([f"{name}H", f"{name}S", "2C"])
    assert str(check.meaning[-1]) == word
    assert str(check.lines[-1].label) == f"2♣ as {word} melded"


def test_named_wild_in_a_set_must_be_of_the_rank():
    check = bad(["7H", "7S", "2C=8D"])
    assert check.errors[0].cards == ("2♣=8♦",)
    assert "in a set of 7s a wild card must stand for a 7" in text(check)
    assert "in a set of aces a wild card must stand for an ace, not K♦" in text(bad(["AH", "AS", "2C=KD"]))


def test_named_wild_in_a_set_of_its_rank():
    assert ok(["QH", "QD", "2C=QC"]).points == 30


# --- sequences ----------------------------------------------------------------------------


def test_sequence_entered_in_any_order_is_sorted():
    check = ok(["9H", "7H", "8H"])
    assert check.kind == "sequence" and check.suit is Suit.HEARTS
    assert check.labels == ("7♥", "8♥", "9♥")
    assert check.points == 25


def test_q_k_a_accepted_ace_high():
    check = ok(["AD", "QD", "KD"])
    assert check.labels == ("Q♦", "K♦", "A♦") and check.points == 40


def test_a_2_3_accepted_ace_low_natural_two_scores_five():
    check = ok(["3C", "AC", "2C"])
    assert check.labels == ("A♣", "2♣=2♣", "3♣")
    assert check.points == 20 + 5 + 5
    two = [line for line in check.lines if str(line.label).startswith("2♣")][0]
    assert two.points == 5 and two.basis == "ruling"


@pytest.mark.parametrize(
    "meld",
    [
        ["KH", "AH", "2H=2H"],  # named as itself
        ["KH", "AH", "2C=2H"],  # another 2 standing for the 2♥
        ["KH", "AH", "2H", "3H"],
        ["QS", "KS", "AS", "2S", "3S"],
    ],
)
def test_round_the_corner_rejected(meld):
    check = bad(meld)
    assert "round the corner" in text(check)
    assert check.errors[0].source == "S0; S1 law 11"


@pytest.mark.parametrize(
    "meld, labels",
    [
        (["KH", "AH", "2H"], ("2♥=Q♥", "K♥", "A♥")),
        (["QH", "KH", "AH", "2H"], ("2♥=J♥", "Q♥", "K♥", "A♥")),
        (["2H", "JH", "QH", "KH", "AH"], ("2♥=10♥", "J♥", "Q♥", "K♥", "A♥")),
    ],
)
def test_a_2_of_the_suit_next_to_k_a_has_one_reading_and_is_accepted(meld, labels):
    # RULING CHANGED (RULES.md §1, readings): as itself the 2 would go round the corner, so the only
    # legal reading has it stand for the card below the run; it was rejected as round the corner.
    check = ok(meld)
    assert check.labels == labels
    assert "the only card it can be" in str(check.note) and "round the corner" in str(check.note)


def test_a_2_of_another_suit_may_fill_the_jack_before_q_k_a():
    check = ok(["QH", "KH", "AH", "2C"])
    assert check.labels == ("2♣=J♥", "Q♥", "K♥", "A♥")
    assert check.points == 10 + 10 + 10 + 20


def test_named_2_of_the_suit_may_stand_for_another_card_next_to_k_a():
    check = ok(["KH", "AH", "2H=QH"])
    assert check.labels == ("2♥=Q♥", "K♥", "A♥")


def test_fourteen_card_sequence_holds_both_aces():
    cards = ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S", "AS"]
    check = ok(cards)
    assert len(check.cards) == 14
    assert check.labels[0] == "A♠" and check.labels[-1] == "A♠"
    # aces 2×20, 2♠ as itself 5, 3–7 5×5, 8 9 10 J K 5×10, Q♠ 50
    assert check.points == 40 + 5 + 25 + 50 + 50


def test_fifteen_cards_rejected():
    cards = ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S", "AS", "2C"]
    assert "at most 14" in text(bad(cards))


def test_three_aces_rejected():
    cards = ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2C=AS", "AS"]
    assert "at most two" in text(bad(cards))


def test_each_position_once():
    check = bad(["7H", "8H", "9H", "2C=8H"])
    assert set(check.errors[0].cards) == {"8♥", "2♣=8♥"}
    bad(["7H", "8H", "8H"])


def test_gap_not_filled():
    check = bad(["5H", "6H", "9H"])
    assert "7♥ 8♥ missing" in text(check)


def test_named_wild_of_another_suit_in_a_sequence():
    check = bad(["5H", "6H", "2C=7S"])
    assert check.errors[0].cards == ("2♣=7♠",)
    assert "♥ card" in text(check)


def test_mixed_ranks_and_suits_are_not_a_meld():
    assert "not a meld" in text(bad(["5H", "6S", "7D"]))


# --- wild cards in sequences ----------------------------------------------------------------


def test_unnamed_wild_in_an_inner_gap_is_fixed():
    check = ok(["6H", "2C", "8H"])
    assert check.labels == ("6♥", "2♣=7♥", "8♥") and check.points == 20


def test_unnamed_wild_at_either_end_must_be_named():
    check = bad(["9H", "8H", "2C"])
    e = check.errors[0]
    assert "a 2 in a sequence must name the card it stands for" in str(e.message)
    assert "7♥" in str(e.message) and "10♥" in str(e.message)
    assert e.source == "S0"
    assert e.cards == ("9♥", "8♥", "2♣")


def test_named_wild_at_the_end():
    check = ok(["9H", "8H", "2C=7H"])
    assert check.labels == ("2♣=7♥", "8♥", "9♥") and check.points == 25
    check = ok(["9H", "8H", "2C=10H"])
    assert check.points == 30


def test_joker_at_either_end_scores_the_same_and_is_accepted():
    # RULING CHANGED (RULES.md §1, readings): 7♥ or 10♥, the Joker scores 100 either way.
    check = ok(["9H", "8H", "JK"])
    assert check.labels == ("JK=7♥", "8♥", "9♥") and check.points == 120
    assert str(check.note) == "9♥ 8♥ JK: taken with JK as 7♥; with JK as 10♥ it scores the same (120)"
    spades = ok(["JK", "QS", "KS"])  # RULES.md's example: J♠ or A♠, 100 either way
    assert spades.labels == ("JK=J♠", "Q♠", "K♠") and spades.points == 160 and "A♠" in str(spades.note)


def test_a_2_at_either_end_is_accepted_when_both_places_score_the_same():
    check = ok(["10H", "JH", "2C"])  # 9♥ or Q♥: 10 either way
    assert check.labels == ("2♣=9♥", "10♥", "J♥") and check.points == 30
    assert "with 2♣ as Q♥ it scores the same (30)" in str(check.note)


def test_joker_scores_100_whatever_it_stands_for():
    assert ok(["9H", "8H", "JK=7H"]).points == 100 + 20
    assert ok(["JK=QS", "JS", "KS"]).points == 100 + 20
    assert ok(["3D", "JK", "5D"]).points == 100 + 10
    assert ok(["QS", "QH", "JK"]).points == 50 + 10 + 100


def test_a_2_standing_for_the_queen_of_spades_scores_10():
    named = ok(["JS", "2D=QS", "KS"])
    assert named.points == 10 + 10 + 10
    line = [x for x in named.lines if str(x.label).startswith("2♦")][0]
    assert line.points == 10 and "Q♠" in line.rule and line.source == "S0"
    # Fixed by its place, unnamed: still the Q♠, still 10.
    assert ok(["JS", "2D", "KS"]).labels[1] == "2♦=Q♠"
    assert ok(["JS", "2D", "KS"]).points == 30
    # In a set of queens, named.
    assert ok(["QH", "QD", "2C=QS"]).points == 30


def test_natural_queen_of_spades_scores_50():
    check = ok(["QS", "QH", "QD"])
    assert check.points == 70
    line = [x for x in check.lines if str(x.label).startswith("Q♠")][0]
    assert line.points == 50 and line.source == "S0; S1 law 12"


def test_a_2_scores_the_card_it_stands_for():
    assert ok(["AH", "KH", "2C"]).points == 20 + 10 + 10  # 2 as Q♥
    assert ok(["4H", "2C", "6H"]).points == 15  # 2 as 5♥
    assert ok(["AH", "AD", "2C"]).points == 60  # 2 in a set of aces


def test_a_2_standing_for_a_2_scores_5():
    check = ok(["AH", "2C=2H", "3H"])
    assert check.points == 30


def test_wilds_only_must_name():
    check = bad(["2C", "2D", "JK"])
    assert "wild cards only" in text(check)
    # RULING CHANGED (RULES.md §1): naming some is not enough, 2♣=7♥ 2♦ 2♠ could be a set of 7s or
    # 5-6-7♥, 6-7-8♥, 7-8-9♥; it was taken as a set of 7s.
    partly = bad(["2C=7H", "2D", "2S"])
    assert "wild cards only" in text(partly) and partly.errors[0].cards == ("2♦", "2♠")
    named = ok(["2C=7H", "2D=8H", "JK=9H"])
    assert named.kind == "sequence" and named.points == 5 + 10 + 100


def test_joker_and_a_2_sharing_places_of_different_values_must_be_named():
    check = bad(["6H", "2C", "JK", "9H"])
    assert "name the card the Joker stands for" in text(check)
    assert ok(["6H", "2C", "JK=8H", "9H"]).points == 5 + 5 + 100 + 10


def test_joker_and_a_2_sharing_places_of_equal_value():
    check = ok(["8H", "2C", "JK", "JH"])
    assert check.points == 10 + 10 + 100 + 10


def test_unnamed_2_of_the_suit_stands_for_itself_when_its_place_fits():
    check = ok(["2H", "3H", "4H"])
    assert check.labels == ("2♥=2♥", "3♥", "4♥") and check.points == 15
    assert str(check.note) == "2♥ 3♥ 4♥: taken with 2♥ as itself; with 2♥ as 5♥ it scores the same (15)"
    assert not ok(["AH", "2H", "3H"]).note  # one reading


def test_unnamed_2_of_the_suit_that_could_be_the_high_ace_must_be_named():
    # RULING CHANGED: 2♠ 3♠ … K♠ reads as 2 to K (the 2 scores 5) or 3 to A (the 2 as A♠, 20).
    run = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"]
    e = bad(run).errors[0]
    assert "a 2 in a sequence must name the card it stands for" in str(e.message) and "A♠" in str(e.message)
    assert ok(["2S=2S"] + run[1:]).points == ok(["2S=AS"] + run[1:]).points - 15


def test_a_one_natural_meld_with_a_2_of_its_suit_and_the_joker():
    # RULES.md's example: A♥ 2♥ JK is a set of aces (140), A-2-3 (125) or Q-K-A (130).
    e = bad(["AH", "2H", "JK"]).errors[0]
    assert (
        "a set of aces (140)" in str(e.message) and "A♥–3♥ (125)" in str(e.message) and "Q♥–A♥ (130)" in str(e.message)
    )
    assert e.source == "ruling" and e.cards == ("A♥", "2♥", "JK")
    assert ok(["AH", "2H", "JK=3H"]).points == 125
    assert ok(["AH", "2H=AS", "JK"]).kind == "set"


def test_naming_some_wilds_is_enough_when_one_reading_is_left():
    check = ok(["KC", "2S=KH", "2H"])  # RULES.md's example: a set of kings
    assert check.kind == "set" and check.points == 30 and not str(check.note)


def test_readings_that_score_the_same_take_the_set():
    check = ok(["10H", "2C", "2D"])  # a set of 10s, or 8-10, 9-J, 10-Q of hearts: 30 each
    assert check.kind == "set" and check.points == 30
    assert str(check.note) == (
        "10♥ 2♣ 2♦: taken as a set of 10s; as the sequence 8♥–10♥, 9♥–J♥ or 10♥–Q♥ it scores the same (30)"
    )


def test_two_aces_of_a_suit_in_a_short_sequence_say_why():
    # The odd reason ("2♣ … Q♣ missing") is gone: two aces need the whole suit, A to A.
    e = bad(["AC", "KC", "AC"]).errors[0]
    assert "two aces only when it runs from ace to ace, all 14 cards" in str(e.message) and "this one has 3" in str(
        e.message
    )
    assert e.cards == ("A♣", "A♣")


def test_fewer_than_three_cards():
    assert "at least 3" in text(bad(["7H", "7S"]))
    assert check_meld([], BOOK).errors


def test_bad_token_named():
    check = bad(["7H", "7X", "7S"])
    assert check.errors[0].cards == ("7X",)


def test_tokens_may_be_token_objects():
    check = ok([parse_token("7H"), Token(Card(7, Suit.SPADES)), "2C"])
    assert check.kind == "set"


def test_joker_off():
    check = bad(["QH", "QD", "JK"], NO_JOKER)
    assert "without the Joker" in text(check)
    assert check.errors[0].source == "house option"
    assert ok(["QH", "QD", "JK"], LAWS).points == 120


def test_lines_cite_a_rule_and_a_source_for_every_card():
    check = ok(["AS", "KS", "QS", "JK", "10S", "2C"])
    assert check.points == 20 + 10 + 50 + 100 + 10 + 10
    assert sum(line.points for line in check.lines) == check.points


def test_thirteen_cards_with_one_ace_read_ace_low():
    cards = ["KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2C=2H", "AH"]
    check = ok(cards)
    assert check.labels[0] == "A♥" and check.labels[-1] == "K♥"


def test_fourteen_cards_with_the_joker_as_the_other_ace():
    # RULING CHANGED (RULES.md §1, readings): the unnamed 2♥ was taken as itself; it may as well
    # stand for the other ace with the Joker as the 2♥ (120 against 105): the Joker must be named.
    cards = ["AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H", "JK"]
    assert "name the card the Joker stands for" in text(bad(cards))
    check = ok(cards[:-1] + ["JK=AH"])
    assert check.labels[0] == "A♥" and check.labels[1] == "2♥=2♥" and check.labels[-1] == "JK=A♥"
    assert check.points == 130 - 20 + 100


def test_verdicts_are_cached_and_equal_to_a_fresh_check():
    from scorekeeper.rules.caches import clear_caches

    first = check_meld(["9H", "8H", "JK=7H"], BOOK)
    assert check_meld(["9H", "8H", "JK=7H"], BOOK) is first
    clear_caches()
    assert check_meld(["9H", "8H", "JK=7H"], BOOK) == first
    # The Joker knob is part of the verdict.
    assert not check_meld(["9H", "8H", "JK=7H"], NO_JOKER).ok
    assert check_meld(["9H", "8H", "JK=7H"], BOOK).ok


def test_unhashable_entries_are_checked_uncached():
    check = check_meld(["9H", "8H", ["7H"]], BOOK)  # type: ignore[list-item]
    assert not check.ok and check.errors[0].rule == "card notation"
