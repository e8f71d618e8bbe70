"""Every Oklahoma Gin example record under tests/rules/records/ (``gin_*.json`` with a
``.expected.json`` beside it, the invalid ones apart) scored through the record loader and
compared with the results worked out by hand in its expected file ("_hand_check" says how).

Besides what tests/rules/test_records.py compares for every game, an expected file may give
each deal's ``layoffs`` and ``columns`` (a Hollywood hand's columns), the rules of each
player's ``final_rules`` lines, and a Hollywood match's ``columns``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules.record import result_json, score_text

RECORDS = Path(__file__).parent / "records"
NAMES = sorted(
    p.name.removesuffix(".expected.json")
    for p in RECORDS.glob("gin_*.expected.json")
    if not p.name.endswith("_invalid.expected.json")
)


def load(name: str) -> str:
    return (RECORDS / name).read_text(encoding="utf-8")


def texts(value: Any) -> list[str]:
    """Every string in a JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in texts(v)]
    return []


def check_lines(lines: list[dict[str, Any]], points: int) -> None:
    assert sum(x["points"] for x in lines) == points
    for line in lines:
        assert line["rule"] and line["source"] and line["label"]
        assert line["basis"] in ("source", "ruling", "option")


def check_final(got: dict[str, Any], want: dict[str, Any]) -> None:
    for key in ("state", "winner", "totals", "final"):
        assert got[key] == want[key], key
    if got["final"] is not None:
        for p, lines in got["final_lines"].items():
            check_lines(lines, got["final"][p])
    if "final_rules" in want:
        assert {p: [x["rule"] for x in lines] for p, lines in got["final_lines"].items()} == want["final_rules"]


def test_there_are_gin_records():
    assert {"gin_standard", "gin_classic_shutout", "gin_party_chained"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_gin_record_scores_as_worked_out_by_hand(name):
    expected = json.loads(load(f"{name}.expected.json"))
    result = result_json(score_text(load(f"{name}.json")))
    check_final(result, expected)
    assert len(result["deals"]) == len(expected["deals"])
    for got, want in zip(result["deals"], expected["deals"], strict=True):
        assert got["number"] == want["number"]
        assert got["outcome"] == want["outcome"], want["number"]
        assert {p: d["points"] for p, d in got["players"].items()} == want["points"], want["number"]
        for key in ("totals", "dealer", "next_dealer"):
            assert got[key] == want[key], (want["number"], key)
        if "layoffs" in want:
            assert {p: d["layoffs"] for p, d in got["players"].items()} == want["layoffs"], want["number"]
        assert got.get("columns") == want.get("columns"), want["number"]
        for player in got["players"].values():
            check_lines(player["lines"], player["points"])
    assert ("columns" in result) == ("columns" in expected)
    for got_column, want_column in zip(result.get("columns", []), expected.get("columns", []), strict=True):
        check_final(got_column, want_column)
    for text in texts(result):
        assert "ruling (ruling)" not in text and not text.startswith("1 points") and " 1 points" not in text


@pytest.mark.parametrize("name", NAMES)
def test_gin_record_scored_twice_is_the_same(name):
    text = load(f"{name}.json")
    assert result_json(score_text(text)) == result_json(score_text(text))
