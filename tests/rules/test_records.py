"""The example records under tests/rules/records/, one or more per profile, scored through the
record loader and compared with results worked out by hand (each expected file says how, in
"_hand_check"); the invalid ones must list exactly the errors expected."""

import json
from pathlib import Path

import pytest

from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.record import result_json, score_text

RECORDS = Path(__file__).parent / "records"
VALID = [
    "oklahoma_laws",
    "oklahoma_book",
    "oklahoma_readings",
    "oklahoma_first_turn",
    "oklahoma_late_misdeal",
    "oklahoma_melded",
    "gin_standard",
    "gin_classic",
    "gin_casino",
    "gin_party",
]
INVALID = ["oklahoma_book_invalid", "oklahoma_readings_invalid", "gin_standard_invalid"]


def load(name):
    return (RECORDS / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", VALID)
def test_record_scores_as_worked_out_by_hand(name):
    expected = json.loads(load(f"{name}.expected.json"))
    result = result_json(score_text(load(f"{name}.json")))
    oklahoma = result["game"] == "oklahoma"
    for key in ("state", "winner", "totals", "final") + (("side",) if oklahoma else ()):
        assert result[key] == expected[key], key
    assert len(result["deals"]) == len(expected["deals"])
    for got, want in zip(result["deals"], expected["deals"], strict=True):
        assert got["number"] == want["number"]
        assert got["outcome"] == want["outcome"]
        assert {p: d["points"] for p, d in got["players"].items()} == want["points"]
        for key in ("totals", "dealer", "next_dealer") + (("side",) if oklahoma else ()):
            assert got[key] == want[key], (want["number"], key)
        # Optional, where an expected file works them out: the melds as laid out, notes that must be
        # there (the start of each), and lines as [label, points, source].
        for name, melds in want.get("melds", {}).items():
            assert got["players"][name]["melds"] == melds, (want["number"], name)
        for note in want.get("notes", []):
            assert any(n.startswith(note) for n in got["notes"]), (want["number"], note, got["notes"])
        for key in ("lines", "side_lines"):
            for name, lines in want.get(key, {}).items():
                shown = [[x["label"], x["points"], x["source"]] for x in got["players"][name][key]]
                assert shown == lines, (want["number"], name, key)
        for player in got["players"].values():
            side_lines = player.get("side_lines", [])
            assert sum(x["points"] for x in player["lines"]) == player["points"]
            assert sum(x["points"] for x in side_lines) == player.get("side_points", 0)
            for line in player["lines"] + side_lines:
                assert line["rule"] and line["source"] and line["label"]
    if result["final"] is not None:
        for p, lines in result["final_lines"].items():
            assert sum(x["points"] for x in lines) == result["final"][p]


@pytest.mark.parametrize("name", VALID)
def test_record_scored_twice_is_the_same(name):
    text = load(f"{name}.json")
    assert result_json(score_text(text)) == result_json(score_text(text))


@pytest.mark.parametrize("name", INVALID)
def test_invalid_record_lists_every_error(name):
    expected = json.loads(load(f"{name}.expected.json"))["errors"]
    with pytest.raises(RecordInvalid) as info:
        score_text(load(f"{name}.json"))
    got = [e.as_dict() for e in info.value.errors]
    assert len(got) == len(expected), [str(e) for e in info.value.errors]
    for g, w in zip(got, expected, strict=True):
        assert (g["deal"], g["player"], g["cards"], g["source"]) == (w["deal"], w["player"], w["cards"], w["source"])
        assert w["message"] in g["message"]
        assert g["rule"]
