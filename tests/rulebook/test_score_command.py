"""`manage.py score FILE|-` on RECORD.md's own examples, scored by hand."""

import io
import json
import sys

import pytest
from django.core.management import call_command

OKLAHOMA = {
    "format": "oklahoma-scorekeeper/1",
    "game": "oklahoma",
    "rules": {"profile": "book", "options": {"k8_in_hand": -10}},
    "players": ["Ann", "Ben", "Cleo"],
    "deals": [
        {
            "out": "Ann",
            "first_turn": False,
            "concealed": False,
            "hands": {
                "Ann": {"melds": [["QS", "QH", "2C=QD"], ["9H", "8H", "JK=7H"]], "held": []},
                "Ben": {"melds": [["5S", "6S", "7S"]], "held": ["JK", "AD"]},
                "Cleo": {"melds": [], "held": ["QS", "2D", "4C"]},
            },
        }
    ],
}

GIN = {
    "format": "oklahoma-scorekeeper/1",
    "game": "oklahoma-gin",
    "rules": {"profile": "standard"},
    "players": ["Ann", "Ben"],
    "deals": [
        {
            "upcard": "7S",
            "knocker": "Ann",
            "hands": {
                "Ann": {"melds": [["3C", "4C", "5C"], ["9D", "9H", "9S"], ["JH", "QH", "KH"]], "deadwood": ["2S"]},
                "Ben": {"cards": ["2H", "3H", "4H", "6D", "6C", "8S", "10S", "KD", "AC", "5H"]},
            },
        }
    ],
}


def run_score(record, tmp_path, monkeypatch, use_stdin=False):
    out = io.StringIO()
    text = json.dumps(record)
    code: int | str | None = 0
    try:
        if use_stdin:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
            call_command("score", "-", stdout=out)
        else:
            path = tmp_path / "game.json"
            path.write_text(text, encoding="utf-8")
            call_command("score", str(path), stdout=out)
    except SystemExit as exc:
        code = exc.code
    return code, json.loads(out.getvalue())


def lines_add_up(result):
    for deal in result["deals"]:
        for player in deal["players"].values():
            assert sum(line["points"] for line in player["lines"]) == player["points"]
            assert all(line["rule"] and line["source"] for line in player["lines"])


def test_record_md_oklahoma_example_holds_two_jokers(tmp_path, monkeypatch):
    """RECORD.md's example melds a Joker for Ann and leaves one in Ben's hand: the pack has one."""
    code, result = run_score(OKLAHOMA, tmp_path, monkeypatch)
    assert code == 1
    [error] = result["errors"]
    assert error["deal"] == 1 and error["cards"] == ["JK"] and "one Joker" in error["message"]


def test_oklahoma_example(tmp_path, monkeypatch):
    record = json.loads(json.dumps(OKLAHOMA))
    record["deals"][0]["hands"]["Ben"]["held"] = ["2H", "AD"]  # the example, with one Joker in the pack
    code, result = run_score(record, tmp_path, monkeypatch)
    assert code == 0
    deal = result["deals"][0]
    assert deal["outcome"] == "out"
    # Ann: Q♠ 50 + Q♥ 10 + 2♣ as Q♦ 10; 9♥ 10 + 8♥ 10 + Joker 100; going out 100
    assert deal["players"]["Ann"]["points"] == 290
    # Ben: 5+5+5 melded; a 2 in hand −20, ace −20
    assert deal["players"]["Ben"]["points"] == -25
    # Cleo: Q♠ in hand −100, a 2 −20, a 4 −5
    assert deal["players"]["Cleo"]["points"] == -125
    assert deal["totals"] == {"Ann": 290, "Ben": -25, "Cleo": -125}
    assert deal["next_dealer"] == "Ann"
    assert result["state"] == "in_progress" and result["winner"] is None and result["final"] is None
    assert deal["players"]["Ann"]["melds"][0] == ["Q♠", "Q♥", "2♣=Q♦"]
    lines_add_up(result)


def test_gin_example_from_stdin(tmp_path, monkeypatch):
    code, result = run_score(GIN, tmp_path, monkeypatch, use_stdin=True)
    assert code == 0
    deal = result["deals"][0]
    # limit 7 (7♠); Ben: 2♥3♥4♥5♥ run, lays off 6♣ on 3♣4♣5♣: deadwood 6+8+10+10+1 = 35
    assert deal["outcome"] == "knock" and deal["multiplier"] == 2
    ben = deal["players"]["Ben"]
    assert ben["deadwood_points"] == 35 and ben["layoffs"] == ["6♣"]
    assert deal["players"]["Ann"]["points"] == (35 - 2) * 2
    assert deal["totals"] == {"Ann": 66, "Ben": 0}
    assert deal["next_dealer"] == "Ann"
    lines_add_up(result)


def test_scoring_twice_gives_the_same_result(tmp_path, monkeypatch):
    assert run_score(GIN, tmp_path, monkeypatch) == run_score(GIN, tmp_path, monkeypatch)
    record = json.loads(json.dumps(OKLAHOMA))
    record["deals"][0]["hands"]["Ben"]["held"] = ["2H", "AD"]
    assert run_score(record, tmp_path, monkeypatch) == run_score(record, tmp_path, monkeypatch)


def test_invalid_record_prints_errors_and_exits_1(tmp_path, monkeypatch):
    bad = json.loads(json.dumps(OKLAHOMA))
    bad["deals"][0]["hands"]["Ben"]["melds"] = [["9H", "8H", "2C"]]
    code, result = run_score(bad, tmp_path, monkeypatch)
    assert code == 1
    error = result["errors"][0]
    assert error["deal"] == 1 and error["player"] == "Ben"
    assert error["cards"] == ["9♥", "8♥", "2♣"]
    assert "must name the card" in error["message"] and error["source"].startswith("S0")


def test_unknown_key_is_an_error(tmp_path, monkeypatch):
    bad = dict(GIN, colour="red")
    code, result = run_score(bad, tmp_path, monkeypatch)
    assert code == 1 and "unknown key 'colour'" in result["errors"][0]["message"]


def test_missing_file_is_a_clean_error(tmp_path):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("score", str(tmp_path / "nope.json"))
