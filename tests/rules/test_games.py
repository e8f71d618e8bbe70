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
