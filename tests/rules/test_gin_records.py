"""Whole Oklahoma Gin records under tests/rules/records/, scored through the record loader and
compared with results worked out by hand (each expected file says how, in "_hand_check")."""
import json
from pathlib import Path

import pytest

from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.record import result_json, score_text

RECORDS = Path(__file__).parent / "records"
NAMES = ["gin_standard", "gin_classic", "gin_casino", "gin_party"]


def load(name):
    return (RECORDS / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", NAMES)
def test_record_scores_as_worked_out_by_hand(name):
    expected = json.loads(load(f"{name}.expected.json"))
    result = result_json(score_text(load(f"{name}.json")))
    for key in ("state", "winner", "totals", "final"):
        assert result[key] == expected[key], key
    assert len(result["deals"]) == len(expected["deals"])
    for got, want in zip(result["deals"], expected["deals"]):
        assert got["number"] == want["number"]
        assert got["outcome"] == want["outcome"]
        assert {p: d["points"] for p, d in got["players"].items()} == want["points"]
        for key in ("totals", "dealer", "next_dealer"):
            assert got[key] == want[key], (want["number"], key)
        for player in got["players"].values():
            assert sum(x["points"] for x in player["lines"]) == player["points"]
            for line in player["lines"]:
                assert line["rule"] and line["source"] and line["label"]
    if result["final"] is not None:
        for p, lines in result["final_lines"].items():
            assert sum(x["points"] for x in lines) == result["final"][p]


@pytest.mark.parametrize("name", NAMES)
def test_record_scored_twice_is_the_same(name):
    text = load(f"{name}.json")
    assert result_json(score_text(text)) == result_json(score_text(text))


def test_invalid_record_lists_every_error():
    expected = json.loads(load("gin_standard_invalid.expected.json"))["errors"]
    with pytest.raises(RecordInvalid) as info:
        score_text(load("gin_standard_invalid.json"))
    got = [e.as_dict() for e in info.value.errors]
    assert len(got) == len(expected), [str(e) for e in info.value.errors]
    for g, w in zip(got, expected):
        assert (g["deal"], g["player"], g["cards"], g["source"]) == (w["deal"], w["player"], w["cards"], w["source"])
        assert w["message"] in g["message"]
        assert g["rule"]
