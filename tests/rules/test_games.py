"""The written interface of a game (``rules.games.Game``): both games implement it, and playing
a record's deals one by one from ``begin`` gives what ``score_game`` gives for the whole record."""

import json
from pathlib import Path

import pytest

from scorekeeper.rules import games
from scorekeeper.rules.cards import parse_token
from scorekeeper.rules.profiles import GIN, OKLAHOMA, resolve
from scorekeeper.rules.record import check_header

RECORDS = sorted(
    p for p in (Path(__file__).parent / "records").glob("*.json") if not ("expected" in p.name or "invalid" in p.name)
)


def test_each_game_is_found_by_its_kind():
    assert set(games.GAMES) == {OKLAHOMA, GIN}
    for kind, game in games.GAMES.items():
        assert games.game(kind) is game and game.kind == kind


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_playing_deal_by_deal_gives_the_whole_game_s_result(path):
    rules, players, deals, first = check_header(json.loads(path.read_text()))
    game = games.game(rules.game)
    whole = game.score_game(rules, players, deals, first)
    standing = game.begin(rules, players, first)
    played = []
    for number, deal in enumerate(deals, start=1):
        result, standing = game.play(rules, players, standing, deal, number)
        played.append(result)
    assert game.conclude(rules, players, standing, played) == whole


def tokens(text):
    return [parse_token(t) for t in text.split()]


def test_the_entry_checks_of_oklahoma():
    rules = resolve(OKLAHOMA, "book", {})
    game = games.game(OKLAHOMA)
    assert game.wilds and sum(game.pack(rules).values()) == 105
    meld = game.check_meld(tokens("QS QH QD"), rules)
    assert meld.ok and meld.kind == "set" and meld.points == 70 and meld.labels == ("Q♠", "Q♥", "Q♦")
    assert game.check_meld(tokens("QS 5H"), rules).ok is False
    split = game.check_split(tokens("6S 6H 6D 8H 9H 2C=7H"), rules)
    assert split is not None and split.ok and len(split.melds) == 2
    assert {m.codes for m in split.melds} == {("6S", "6H", "6D"), ("2C=7H", "8H", "9H")}


def test_the_entry_checks_of_gin():
    rules = resolve(GIN, "standard", {})
    game = games.game(GIN)
    assert not game.wilds and sum(game.pack(rules).values()) == 52
    run = game.check_meld(tokens("5S 6S 7S"), rules)
    assert run.ok and run.kind == "run" and run.points is None
    assert game.check_meld(tokens("5S 6S"), rules).ok is not True
    bad = game.check_meld(tokens("5S 6H 9C"), rules)
    assert bad.ok is False and bad.errors
    assert game.check_split(tokens("5S 6S 7S"), rules) is None


def test_a_game_says_the_shape_of_its_deal():
    """The deal's own facts, those a complete deal gives, whether melds come as one list: the app
    asks the game, never its name."""
    oklahoma, gin = games.game(OKLAHOMA), games.game(GIN)
    assert oklahoma.facts == ("out", "first_turn", "concealed", "late_misdeal") and oklahoma.given_once == ("out",)
    assert gin.facts == ("upcard", "knocker") == gin.given_once
    assert oklahoma.splits and not gin.splits
    assert gin.knocks and not oklahoma.knocks


def test_a_game_refuses_another_game_s_rules():
    with pytest.raises(TypeError):
        games.game(GIN).pack(resolve(OKLAHOMA, "book", {}))
    with pytest.raises(TypeError):
        games.game(OKLAHOMA).begin(resolve(GIN, "standard", {}), ["Ann", "Ben"])


def _partial(kind, profile, players, deal):
    rules = resolve(kind, profile, {})
    return games.check_partial(rules, players, games.begin(rules, players, players[0]), deal, 1)


def test_a_partial_deal_says_nothing_of_the_hands_not_in_and_the_facts_not_given():
    check = _partial(
        OKLAHOMA, "book", ["Ann", "Ben", "Cleo"], {"hands": {"Ann": {"melded": ["QS", "QH", "QD"], "held": ["5C"]}}}
    )
    assert check == games.PartialCheck(hands=((), (), ()))
    gin = _partial(
        GIN,
        "standard",
        ["Ann", "Ben"],
        {"hands": {"Ann": {"cards": ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S"]}}},
    )
    assert gin == games.PartialCheck(hands=((), ()))


def test_a_partial_deal_puts_each_error_on_the_seat_it_concerns():
    """A hand's own fault goes to its seat; a card entered more times than the pack holds goes to
    every hand holding it (as its own fault there: no field of the other's)."""
    hands = {
        "Ann": {"melded": ["QS", "QH", "QD", "QC"], "held": ["5C"]},
        "Ben": {"melded": ["QS", "QH", "5S", "QC"], "held": []},
        "Cleo": {"melded": ["QS", "KH", "KD", "KC"], "held": []},
    }
    check = _partial(OKLAHOMA, "book", ["Ann", "Ben", "Cleo"], {"hands": hands})
    assert check.result is None and not check.errors
    ann, ben, cleo = check.hands
    assert any(e.whole_pack and "Q♠" in e.cards for e in ann)
    assert any(e.whole_pack and "Q♠" in e.cards for e in cleo)
    assert all(e.player == "Ann" and e.field is None for e in ann if e.whole_pack)
    assert any(not e.whole_pack for e in ben)  # QS QH 5S QC is no meld
    complete = _partial(
        GIN,
        "standard",
        ["Ann", "Ben"],
        {
            "upcard": "10H",
            "knocker": "Ann",
            "hands": {
                "Ann": {"cards": ["AS", "2S", "3S", "4H", "5H", "6H", "7C", "8C", "9C", "KD"]},
                "Ben": {"cards": ["AD", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "QC", "KC"]},
            },
        },
    )
    assert complete.result is not None and complete.hands == ((), ()) and not complete.errors
