"""The quick check of a valid Oklahoma deal (``_valid_deal``) against the full check
(``_check_deal_fully``): on legal deals it gives the same parsed deal; on deals with any one thing
wrong or unusual it gives way (None), so the full check reports exactly the errors it always did.
"""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from typing import Any

import pytest

from scorekeeper.rules import oklahoma
from scorekeeper.rules.errors import RecordError, RecordInvalid
from scorekeeper.rules.profiles import resolve

from . import oklahoma_random

BOOK = resolve("oklahoma", "book")
LAWS = resolve("oklahoma", "laws")
NO_JOKER = resolve("oklahoma", "book", {"joker": False})
PLAYERS = ("Ann", "Ben", "Cleo", "Dan")


class Str(str):
    pass


def both(rules: Any, players: tuple[str, ...], deal: object) -> tuple[Any, Any, list[RecordError]]:
    """The quick verdict, the full one and the full check's errors."""
    quick = oklahoma._valid_deal(rules, players, deal)
    errors: list[RecordError] = []
    full = oklahoma._check_deal_fully(rules, players, deal, 7, errors)
    return quick, full, errors


def plain(parsed: Any) -> Any:
    """A parsed deal as values (a card not parsed from plain text is parsed anew each time)."""
    if parsed is None:
        return None
    hands = {name: (h.melds, [(e.token, e.label) for e in h.held], h.split_note) for name, h in parsed.hands.items()}
    return (
        list(hands.items()),
        parsed.out,
        parsed.first_turn,
        parsed.concealed,
        parsed.late_misdeal,
        parsed.concealed_given,
    )


def agree(rules: Any, players: tuple[str, ...], deal: object) -> Any:
    """The quick check accepts only what the full check accepts, with the same parsed deal."""
    quick, full, errors = both(rules, players, copy.deepcopy(deal))
    if quick is not None:
        assert not errors
        assert plain(quick) == plain(full)
    else:
        assert errors or full is not None
    # and the public entry point (quick, then full) reports what the full check reports
    errors2: list[RecordError] = []
    assert plain(oklahoma._check_deal(rules, players, copy.deepcopy(deal), 7, errors2)) == plain(full)
    assert errors2 == errors
    return quick


def _first_hand(deal: dict[str, Any], held: bool = False) -> dict[str, Any]:
    for name, hand in deal["hands"].items():
        if name != deal["out"] and (hand["held"] or not held):
            return hand
    return next(iter(deal["hands"].values()))


def _first_meld(deal: dict[str, Any]) -> list[str] | None:
    for hand in deal["hands"].values():
        if hand["melds"]:
            return hand["melds"][0]
    return None


def mutations(deal: dict[str, Any], players: tuple[str, ...]) -> list[Any]:
    """The deal with one thing changed: wrong, missing, unusual in type, or a pack's limit passed."""
    out = []

    def m(change: Any) -> None:
        d = copy.deepcopy(deal)
        result = change(d)
        out.append(d if result is None else result)

    m(lambda d: d.pop("out"))
    m(lambda d: d.update(extra=1))
    m(lambda d: d.update(out="Zed"))
    m(lambda d: d.update(out=5))
    m(lambda d: d.update(out=Str(players[0])))
    m(lambda d: d.update(first_turn=1))
    m(lambda d: d.update(concealed="yes"))
    m(lambda d: d.update(late_misdeal=None))
    m(lambda d: d.update(late_misdeal=True))
    m(lambda d: d.update(out=None, concealed=True))
    m(lambda d: d.update(out=None, first_turn=True))
    m(lambda d: d.update(out=None))
    m(lambda d: d.update(out=players[-1]))
    m(lambda d: d.update(hands=list(d["hands"].values())))
    m(lambda d: d.pop("hands"))
    m(lambda d: d["hands"].pop(players[1]))
    m(lambda d: d["hands"].update(Zed={"melds": [], "held": ["3S"]}))
    m(lambda d: d["hands"].update({players[0]: None}))
    m(lambda d: _first_hand(d).pop("held"))
    m(lambda d: _first_hand(d).pop("melds"))
    m(lambda d: _first_hand(d).update(melded=[]))
    m(lambda d: _first_hand(d).update(other=[]))
    m(lambda d: _first_hand(d).update(held=tuple(_first_hand(d)["held"])))
    m(lambda d: _first_hand(d).update(melds=None))
    m(lambda d: _first_hand(d).update(melds=[], held=[]))
    m(lambda d: _first_hand(d).update(held=[]))
    m(lambda d: _first_hand(d)["melds"].append([]))
    m(lambda d: _first_hand(d)["melds"].append(("3S", "3H", "3D")))
    m(lambda d: _first_hand(d)["melds"].append(["3S", "4H", "5D"]))
    m(lambda d: _first_hand(d)["melds"].append(["9H", "8H", "2C"]))
    m(lambda d: _first_hand(d)["held"].append("2C=7H"))
    m(lambda d: _first_hand(d)["held"].append("JK"))
    m(lambda d: _first_hand(d)["held"].extend(["JK", "JK"]))
    m(lambda d: _first_hand(d)["held"].append("XX"))
    m(lambda d: _first_hand(d)["held"].append(7))
    m(lambda d: _first_hand(d)["held"].append(["3S"]))
    m(lambda d: _first_hand(d)["held"].append(Str("3S")))
    m(lambda d: _first_hand(d)["held"].extend(["QS", "QS", "QS"]))
    m(lambda d: _first_hand(d)["held"].extend(["2C", "2C", "2C"]))
    m(lambda d: d["hands"][d["out"] or players[0]]["held"].append("5D"))
    m(lambda d: d["hands"][d["out"] or players[0]].update(melds=[]))
    meld = _first_meld(deal)
    if meld is not None:
        m(lambda d: _first_hand(d)["held"].extend(meld))
        m(lambda d: _first_hand(d)["held"].append(meld[0]))
        m(lambda d: _first_hand(d)["melds"].append(list(meld)))
    return out


@pytest.mark.parametrize("seed", range(60))
def test_legal_deals_pass_quickly_with_the_same_parsed_deal(seed: int) -> None:
    rng = random.Random(seed)
    for rules, joker in ((BOOK, True), (LAWS, True), (NO_JOKER, False)):
        players = PLAYERS[: rng.choice([2, 3, 4])]
        deal = oklahoma_random.deal(rng, players, joker)
        assert agree(rules, players, deal) is not None


@pytest.mark.parametrize("seed", range(40))
def test_deals_with_one_thing_changed_give_the_same_errors(seed: int) -> None:
    rng = random.Random(1000 + seed)
    for rules, joker in ((BOOK, True), (NO_JOKER, False)):
        players = PLAYERS[: rng.choice([2, 3, 4])]
        deal = oklahoma_random.deal(rng, players, joker)
        for changed in mutations(deal, players):
            agree(rules, players, changed)


def test_a_joker_when_the_game_has_none() -> None:
    deal: dict[str, Any] = {
        "out": "Ann",
        "hands": {"Ann": {"melds": [["JK", "5S", "5H"]], "held": []}, "Ben": {"melds": [], "held": ["JK"]}},
    }
    assert agree(NO_JOKER, ("Ann", "Ben"), deal) is None
    assert agree(BOOK, ("Ann", "Ben"), deal) is None  # two Jokers
    deal["hands"]["Ben"]["held"] = ["3S"]
    assert agree(BOOK, ("Ann", "Ben"), deal) is not None


def test_not_a_deal() -> None:
    deal: object
    for deal in (None, [], "deal", 3):
        assert agree(BOOK, PLAYERS, deal) is None


def test_play_takes_the_quick_check_only_before_the_end_of_the_game() -> None:
    players = ("Ann", "Ben")
    deal = {
        "out": "Ann",
        "hands": {"Ann": {"melds": [["5S", "5H", "5D"]], "held": []}, "Ben": {"melds": [], "held": ["3S"]}},
    }
    standing = oklahoma.begin(BOOK, players)
    result, after = oklahoma.play(BOOK, players, standing, deal, 1)
    assert result.totals == {"Ann": 115, "Ben": -5}
    ended = replace(after, ended_on=1, winner=0)
    with pytest.raises(RecordInvalid) as info:
        oklahoma.play(BOOK, players, ended, deal, 2)
    assert [e.rule for e in info.value.errors] == ["end of the game"]


@pytest.mark.parametrize("seats", [1, 3])
def test_a_standing_of_another_number_of_players_is_refused_as_before(seats: int) -> None:
    players = ("Ann", "Ben")
    deal = {
        "out": "Ann",
        "hands": {"Ann": {"melds": [["5S", "5H", "5D"]], "held": []}, "Ben": {"melds": [], "held": ["3S"]}},
    }
    standing = replace(oklahoma.begin(BOOK, players), totals=(0,) * seats)
    with pytest.raises(ValueError, match=r"zip\(\) argument 2 is (shorter|longer) than argument 1"):
        oklahoma.play(BOOK, players, standing, deal, 1)


def test_the_same_cards_held_under_other_rules_are_priced_by_those_rules() -> None:
    """The lines of held cards are kept by the cards and the rules' K–8 value: switching rules back
    and forth (and a rules object equal to another) gives each its own lines."""
    players = ("Ann", "Ben")
    deal = {
        "out": "Ann",
        "hands": {"Ann": {"melds": [["5S", "5H", "5D"]], "held": []}, "Ben": {"melds": [], "held": ["KD", "9C", "3S"]}},
    }
    house = resolve("oklahoma", "book", {"k8_in_hand": -10})
    for rules in (BOOK, LAWS, BOOK, house, resolve("oklahoma", "book"), LAWS):
        ben = oklahoma.score_deal(rules, players, deal)["Ben"]
        k8 = rules.k8_in_hand
        assert [(line.label, line.points, line.source) for line in ben.lines] == [
            (f"K♦ 9♣ in hand (2 × {k8})", 2 * k8, rules.cite("k8_in_hand").source),
            ("3♠ in hand", -5, "S0; S1 law 12"),
        ]
        assert ben.points == 2 * k8 - 5
