"""A hand's melded cards as one flat list (RECORD.md ``melded``), split into legal melds by the engine
(RULES.md §1): unique splits, splits that score the same (one answer, said so), splits or readings
that score differently (an error naming them), lists with no legal split (the cards that cannot be
placed), wild cards, 14-card sequences; and a brute-force reference on thousands of random lists."""

from __future__ import annotations

import random

import pytest

from scorekeeper.rules import caches, oklahoma, oklahoma_split
from scorekeeper.rules.cards import parse_token
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.oklahoma import check_meld, check_melded, score_deal
from scorekeeper.rules.profiles import resolve

from . import oklahoma_reference as reference

BOOK = resolve("oklahoma", "book")
LAWS = resolve("oklahoma", "laws")
P3 = ("Ann", "Ben", "Cleo")


def split(text, rules=BOOK):
    return check_melded(text.split(), rules)


def accepted(text, rules=BOOK):
    result = split(text, rules)
    assert result.ok, [str(e.message) for e in result.errors]
    assert sum(m.points for m in result.melds) == result.points == sum(x.points for x in result.lines)
    for meld in result.melds:  # every meld of the split is a legal meld entered alone
        assert check_meld(list(meld.cards), rules).ok
    return result


def rejected(text, rules=BOOK):
    result = split(text, rules)
    assert not result.ok and result.errors and not result.melds
    for e in result.errors:
        assert str(e.message) and e.rule and e.source
    return result


# --- unique splits -----------------------------------------------------------------------------


def test_the_melds_of_record_md_entered_as_one_list():
    result = accepted("QS QH 2C=QD 9H 8H JK=7H")
    assert sorted(result.labels) == [("JK=7♥", "8♥", "9♥"), ("Q♠", "Q♥", "2♣=Q♦")]
    assert result.points == 50 + 10 + 10 + 100 + 10 + 10 and not str(result.note)


def test_a_set_and_a_sequence_sharing_a_rank():
    result = accepted("7H 8H 9H 7S 7D 7C")
    assert sorted(result.labels) == [("7♠", "7♦", "7♣"), ("7♥", "8♥", "9♥")]


def test_two_sets_of_one_rank():
    result = accepted("7H 7S 7D 7C 7H 7S 7D")
    assert sorted(len(m) for m in result.labels) == [3, 4] and result.points == 35


def test_the_order_of_the_cards_does_not_matter():
    cards = ["QS", "QH", "2C", "9H", "8H", "7H", "10H", "AS", "KS", "JS", "2D", "5C", "5D"]
    first = check_melded(cards, BOOK)
    rng = random.Random(3)
    for _ in range(5):
        rng.shuffle(cards)
        again = check_melded(cards, BOOK)
        assert (again.ok, again.points, sorted(again.labels)) == (first.ok, first.points, sorted(first.labels))


def test_free_wilds_with_one_place_each():
    # The 2♣ can only be J♥ (7♥–Q♥), the 2♦ only a 5 (5♦ 5♣ 2♦): 15 for the 2s.
    result = accepted("QS QH 2C 9H 8H 7H 10H AS KS JS 2D 5C 5D")
    assert ("7♥", "8♥", "9♥", "10♥", "2♣=J♥", "Q♥") in result.labels
    assert ("5♦", "5♣", "2♦") in result.labels
    assert ("J♠", "Q♠", "K♠", "A♠") in result.labels
    assert result.points == 5 + 5 + 5 + 5 + 40 + 10 + 20 + 50 + 20


def test_the_2_next_to_k_a_and_a_readings_note_per_meld():
    result = accepted("KH AH 2H")
    assert result.labels == (("2♥=Q♥", "K♥", "A♥"),)
    assert "the only card it can be" in str(result.melds[0].note)
    same = accepted("JK QS KS")
    assert same.labels == (("JK=J♠", "Q♠", "K♠"),) and "it scores the same" in str(same.melds[0].note)


# --- splits that score the same: one answer, said so ----------------------------------------------


def test_a_long_sequence_is_taken_whole_and_the_note_says_it_splits_too():
    result = accepted("5H 6H 7H 8H 9H 10H")
    assert result.labels == (("5♥", "6♥", "7♥", "8♥", "9♥", "10♥"),)  # the fewest melds
    assert str(result.note) == ("split as 5♥ 6♥ 7♥ 8♥ 9♥ 10♥; 5♥ 6♥ 7♥ · 8♥ 9♥ 10♥ would score the same (45)")


def test_a_2_that_scores_the_same_in_either_meld():
    # The 2 makes a set of 10s or 9-10-J of hearts: 10 either way.
    result = accepted("10H 10S 10D 2C 9H JH")
    assert result.points == 10 * 5 + 10  # 10♥ 10♠ 10♦ 9♥ J♥ and the 2 as a 10-point card
    assert str(result.note).startswith("split as")


# --- splits or readings that score differently: the error names them --------------------------


def test_a_2_at_either_end_of_a_sequence_beside_a_set():
    e = rejected("9H 8H 2C 7S 7D 7C").errors[0]
    assert "score differently" in str(e.message)
    assert "2♣=7♥ 8♥ 9♥ (40)" in str(e.message) and "8♥ 9♥ 2♣=10♥ (45)" in str(e.message)
    assert "name the 2s (2♣)" in str(e.message) and e.rule == "melds: name the split" and e.source == "ruling"


def test_a_2_that_could_join_either_set():
    e = rejected("QS QH QD AS AH AD 2C").errors[0]
    assert "(140)" in str(e.message) and "(150)" in str(e.message)


def test_rules_md_example_a_2_j_as_one_list():
    e = rejected("AH 2H JK").errors[0]
    assert "(125)" in str(e.message) and "(130)" in str(e.message) and "(140)" in str(e.message)


def test_naming_the_wild_settles_it():
    assert accepted("9H 8H 2C=10H 7S 7D 7C").points == 10 + 10 + 10 + 15


# --- no legal split: the cards that cannot be placed ---------------------------------------------


def test_a_stray_card():
    result = rejected("7H 8H 9H KS")
    assert result.unplaced == ("K♠",)
    e = result.errors[0]
    assert str(e.message).startswith("K♠ cannot be placed in a legal meld beside 7♥ 8♥ 9♥") and e.cards == ("K♠",)


def test_the_fewest_cards_that_cannot_be_placed():
    assert len(rejected("7H 8H 9H 7S 7D").unplaced) == 2


def test_wild_cards_alone():
    result = rejected("2C 2D 2S")
    assert "wild cards need a natural card" in str(result.errors[0].message)
    assert sorted(result.unplaced) == ["2♠", "2♣", "2♦"]


def test_bad_card_text_and_the_joker_off():
    e = rejected("7H 8X 9H").errors[0]
    assert e.cards == ("8X",) and e.rule == "card notation"
    no_joker = rejected("7H 8H JK", resolve("oklahoma", "laws", {"joker": False}))
    assert "without the Joker" in str(no_joker.errors[0].message)


# --- 14-card sequences ---------------------------------------------------------------------------


def test_a_14_card_sequence_with_both_aces_and_a_named_2():
    result = accepted("AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2C=2S AS")
    assert len(result.labels) == 1 and len(result.labels[0]) == 14
    assert result.points == 20 + 5 + 25 + 50 + 50 + 20


def test_a_14_card_sequence_whose_own_2_could_make_a_set_of_aces_instead():
    # A♠ A♠ 2♠ is a set of aces (2♠ as an ace, 20) beside 3♠–K♠; or one sequence with the 2♠ as itself (5).
    e = rejected("AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S AS").errors[0]
    assert "(170)" in str(e.message) and "(185)" in str(e.message)


def test_two_suits_from_ace_to_ace():
    hearts = "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2C=2H AH"
    clubs = "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2D=2C AC"
    result = accepted(f"{hearts} {clubs}")
    assert sorted(len(m) for m in result.labels) == [14, 14]


# --- in a deal ---------------------------------------------------------------------------------


def deal(ann, ben=None, out="Ann"):
    return {
        "out": out,
        "hands": {
            "Ann": {"melded": ann.split(), "held": []},
            "Ben": ben if ben is not None else {"melds": [["5S", "6S", "7S"]], "held": ["KD"]},
            "Cleo": {"melds": [], "held": ["4C"]},
        },
    }


def test_a_deal_with_melded_cards_scores_the_split():
    r = score_deal(BOOK, P3, deal("QS QH 2C=QD 9H 8H JK=7H"))
    assert r["Ann"].points == 190 + 100
    assert sorted(r["Ann"].melds) == [("JK=7♥", "8♥", "9♥"), ("Q♠", "Q♥", "2♣=Q♦")]


def test_a_deal_notes_the_split_taken():
    g = oklahoma.score_game(BOOK, P3, [deal("5H 6H 7H 8H 9H 10H")], None)
    assert any(n.startswith("Ann's melded cards: split as 5♥ 6♥ 7♥ 8♥ 9♥ 10♥;") for n in map(str, g.deals[0].notes))


def test_errors_of_a_melded_list_are_on_its_field():
    with pytest.raises(RecordInvalid) as info:
        score_deal(BOOK, P3, deal("9H 8H 2C 7S 7D 7C"), number=2)
    [e] = info.value.errors
    assert (e.deal, e.player, e.field) == (2, "Ann", "hands.Ann.melded")


def test_melded_cards_count_in_the_pack():
    ben = {"melded": ["QS", "QD", "QC"], "held": ["QS"]}
    with pytest.raises(RecordInvalid) as info:
        score_deal(BOOK, P3, deal("QS QH 2C=QD 9H 8H JK=7H", ben))
    assert any("Q♠ is entered 3 times" in str(e.message) for e in info.value.errors)


def test_melds_and_melded_together_or_neither():
    both = deal("QS QH QD")
    both["hands"]["Ann"]["melds"] = [["QS", "QH", "QD"]]
    with pytest.raises(RecordInvalid) as info:
        score_deal(BOOK, P3, both)
    assert any("both 'melds' and 'melded'" in str(e.message) for e in info.value.errors)
    neither = deal("QS QH QD")
    del neither["hands"]["Ann"]["melded"]
    with pytest.raises(RecordInvalid) as info:
        score_deal(BOOK, P3, neither)
    assert any("has no 'melds'" in str(e.message) for e in info.value.errors)


def test_an_empty_melded_list():
    with pytest.raises(RecordInvalid) as info:
        score_deal(BOOK, P3, deal(""))
    assert [(str(e.message).split(":")[0], e.field) for e in info.value.errors] == [
        ("Ann went out but melded nothing", "hands.Ann.melded")
    ]
    no_cards = deal("QS QH QD", {"melded": [], "held": []})
    with pytest.raises(RecordInvalid) as info:
        score_deal(BOOK, P3, no_cards)
    assert str(info.value.errors[0].message).startswith("Ben has no cards")


def test_melded_must_be_a_list():
    with pytest.raises(RecordInvalid) as info:
        score_deal(BOOK, P3, deal("QS QH QD", {"melded": "5S 6S 7S", "held": ["KD"]}))
    assert info.value.errors[0].field == "hands.Ben.melded"


def test_too_many_ways_to_work_out_is_an_honest_error(monkeypatch):
    monkeypatch.setattr(oklahoma_split, "MAX_STATES", 5)
    caches.clear_caches()
    try:
        e = rejected("QS QH 2C 9H 8H 7H 10H AS KS JS 2D 5C 5D").errors[0]
        assert "too many ways to work out here: give the melds one by one" in str(e.message)
    finally:
        caches.clear_caches()


# --- the brute-force reference ----------------------------------------------------------------------

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def _near_meld(rng):
    suit = rng.choice("SHDC")
    if rng.random() < 0.4:
        rank = rng.choice(RANKS[:1] + RANKS[2:])
        return [rank + rng.choice("SHDC") for _ in range(rng.randint(3, 4))]
    n = rng.randint(3, 6)
    low = rng.randint(1, 15 - n)
    return [RANKS[(p - 1) % 13] + suit for p in range(low, low + n)]


def random_lists(seed, count, most=9):
    """Lists of 1–3 melds laid together, some cards made wild (at most two unnamed) or stray."""
    rng = random.Random(seed)
    out: list[list[str]] = []
    while len(out) < count:
        cards = [c for _ in range(rng.choice([1, 2, 2, 3])) for c in _near_meld(rng)]
        if len(cards) > most:
            continue
        free = 0
        for i in range(len(cards)):
            roll = rng.random()
            if roll < 0.12 and free < 2:
                cards[i] = rng.choice(["JK", "2C", "2H", "2S", "2D"])
                free += 1
            elif roll < 0.17:
                cards[i] = rng.choice(["2C", "JK"]) + "=" + cards[i]
            elif roll < 0.2:
                cards[i] = rng.choice(RANKS[:1] + RANKS[2:]) + rng.choice("SHDC")
        if sum(c.startswith("JK") for c in cards) <= 1:
            rng.shuffle(cards)
            out.append(cards)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_every_verdict_agrees_with_the_brute_force_reference(seed):
    seen = {"one total": 0, "several": 0, "none": 0}
    for cards in random_lists(seed, 500, most=8):
        want = reference.split_totals(cards)
        got = check_melded(cards, BOOK)
        if not want:
            seen["none"] += 1
            assert not got.ok and "cannot be placed" in str(got.errors[0].message), (cards, got.errors)
        elif len(want) == 1:
            seen["one total"] += 1
            assert got.ok, (cards, [str(e.message) for e in got.errors])
            assert got.points == want.pop() == sum(m.points for m in got.melds)
            laid = sorted(token.card.code for meld in got.melds for token in meld.cards)
            assert laid == sorted(parse_token(c).card.code for c in cards)  # every card laid, once
        else:
            seen["several"] += 1
            assert not got.ok and "score differently" in str(got.errors[0].message), (cards, want, got.errors)
    assert min(seen.values()) >= 40, seen  # every kind of verdict is well tried
