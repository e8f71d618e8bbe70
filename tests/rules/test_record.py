"""The record header: format, game, rules, players; unknown keys are errors."""

import pytest

from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.profiles import OklahomaRules
from scorekeeper.rules.record import check_header, parse_json


def record(**over):
    base: dict[str, object] = {
        "format": "oklahoma-scorekeeper/1",
        "game": "oklahoma",
        "rules": {"profile": "book"},
        "players": ["Ann", "Ben", "Cleo"],
        "deals": [],
    }
    base.update(over)
    return {k: v for k, v in base.items() if v is not ...}


def messages(rec):
    with pytest.raises(RecordInvalid) as exc:
        check_header(rec)
    return [str(e.message) for e in exc.value.errors]


def test_a_good_header():
    rules, players, deals, first = check_header(record(rules={"profile": "book", "options": {"k8_in_hand": -10}}))
    assert isinstance(rules, OklahomaRules)
    assert rules.k8_in_hand == -10 and players == ("Ann", "Ben", "Cleo") and deals == [] and first is None


def test_unknown_and_missing_keys_are_errors():
    assert any("unknown key 'colour'" in m for m in messages(record(colour="red")))
    assert any("has no 'players'" in m for m in messages(record(players=...)))
    assert any("unknown key 'rules.house'" in m for m in messages(record(rules={"profile": "book", "house": 1})))


@pytest.mark.parametrize(
    "players, fragment",
    [
        (["Ann"], "2 or more players"),
        (["Ann", "ann"], "named twice"),
        (["Ann", ""], "empty"),
        ("Ann,Ben", "list of names"),
        (["A", "B", "C", "D", "E", "F"], "take 2 to 5"),
    ],
)
def test_players(players, fragment):
    assert any(fragment in m for m in messages(record(players=players)))


def test_profile_player_limits():
    assert any("take 2 to 4" in m for m in messages(record(rules={"profile": "laws"}, players=list("ABCDE"))))
    # Wording fixed: "take 2 to 2" when a profile takes one number of players.
    standard = messages(record(game="oklahoma-gin", rules={"profile": "standard"}))
    assert any("3 players: the standard rules of Oklahoma Gin take 2 players" in m for m in standard), standard
    check_header(record(game="oklahoma-gin", rules={"profile": "party"}, players=list("ABCD")))


def test_wrong_format_and_game():
    assert any("unknown format" in m for m in messages(record(format="v2")))
    assert any("unknown game" in m for m in messages(record(game="canasta")))


def test_first_dealer_must_be_a_player():
    assert check_header(record(first_dealer="Ben"))[3] == "Ben"
    assert any("first dealer" in m for m in messages(record(first_dealer="Zed")))


def test_bad_json_says_where():
    with pytest.raises(RecordInvalid) as exc:
        parse_json('{"format": ')
    assert "line 1" in str(exc.value.errors[0].message)


def test_deeply_nested_json_is_a_clear_error():
    with pytest.raises(RecordInvalid) as exc:
        parse_json("[" * 100000 + "]" * 100000)
    assert "nested too deeply" in str(exc.value.errors[0].message)


def test_player_counts_are_worded_with_their_plural():
    from scorekeeper.rules.players import player_count_errors
    from scorekeeper.rules.profiles import resolve

    [e] = player_count_errors(resolve("oklahoma", "laws"), ["A", "B", "C", "D", "E"])
    assert str(e.message) == "5 players: the laws rules of Oklahoma take 2 to 4 players"
    [e] = player_count_errors(resolve("oklahoma-gin", "classic"), ["A", "B", "C"])
    assert str(e.message) == "3 players: the classic rules of Oklahoma Gin take 2 players"


def test_record_errors_are_messages_with_their_parameters():
    from scorekeeper.rules.messages import Msg

    with pytest.raises(RecordInvalid) as exc:
        check_header(record(colour="red"))
    [e] = exc.value.errors
    assert isinstance(e.message, Msg) and e.message.id == "unknown key '{key}': a record has {keys}"
    assert e.message.params["key"] == "colour" and e.as_dict()["message"] == str(e.message)
