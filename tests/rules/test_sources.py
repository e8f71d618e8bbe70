"""Every error the engine gives cites the one source of the rule it breaks (RULES.md §3): a source
text, a ruling, or RECORD.md where the fault is in the record's form."""

from __future__ import annotations

import ast
import copy
import json
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules import checker, gin, record, rulebook
from scorekeeper.rules.cards import parse_card
from scorekeeper.rules.errors import RecordInvalid

ENGINE = Path(record.__file__).parent

GIN: dict[str, Any] = {
    "format": record.FORMAT,
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
OKLAHOMA: dict[str, Any] = {
    "format": record.FORMAT,
    "game": "oklahoma",
    "rules": {"profile": "book"},
    "players": ["Ann", "Ben"],
    "deals": [
        {
            "out": "Ann",
            "hands": {
                "Ann": {"melds": [["QS", "QH", "2C=QD"], ["9H", "8H", "7H"]], "held": []},
                "Ben": {"melds": [["5S", "6S", "7S"]], "held": ["KD"]},
            },
        }
    ],
}


def changed(base: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """``base`` with the value at ``path`` (keys by dots, list indexes as numbers) set, or removed
    when ``value`` is ``...``."""
    rec = copy.deepcopy(base)
    *parents, last = path.split(".")
    node: Any = rec
    for parent in parents:
        node = node[int(parent)] if isinstance(node, list) else node[parent]
    key: Any = int(last) if isinstance(node, list) else last
    if value is ...:
        del node[key]
    else:
        node[key] = value
    return rec


BAD: list[tuple[str, Any]] = [
    ("not JSON", "{"),
    ("not an object", []),
    ("an unknown key", changed(GIN, "colour", "red")),
    ("no players", changed(GIN, "players", ...)),
    ("a format unknown", changed(GIN, "format", "x/2")),
    ("a game unknown", changed(GIN, "game", "poker")),
    ("rules not an object", changed(GIN, "rules", "standard")),
    ("a profile unknown", changed(GIN, "rules.profile", "house")),
    ("an option unknown", changed(GIN, "rules.options", {"jokers": 3})),
    ("an option out of range", changed(GIN, "rules.options", {"target": 5})),
    ("options not an object", changed(GIN, "rules.options", [1])),
    ("players not a list", changed(GIN, "players", "Ann")),
    ("a name twice", changed(GIN, "players", ["Ann", "ann"])),
    ("an empty name", changed(GIN, "players", ["Ann", " "])),
    ("one player", changed(GIN, "players", ["Ann"])),
    ("a first dealer who does not play", changed(GIN, "first_dealer", "Cleo")),
    ("deals not a list", changed(GIN, "deals", {})),
    ("a knocker who is not a player", changed(GIN, "deals.0.knocker", "Cleo")),
    ("a deal not an object", changed(GIN, "deals.0", 7)),
    ("hands not an object", changed(GIN, "deals.0.hands", [])),
    ("a hand missing", changed(GIN, "deals.0.hands.Ben", ...)),
    ("a hand of someone else", changed(GIN, "deals.0.hands.Cleo", {"cards": ["2C"]})),
    ("big_gin not true or false", changed(GIN, "deals.0.hands.Ann.big_gin", "yes")),
    ("melds not a list", changed(GIN, "deals.0.hands.Ann.melds", "3C")),
    ("a hand not an object", changed(GIN, "deals.0.hands.Ben", ["2H"])),
    ("cards not a list", changed(GIN, "deals.0.hands.Ben.cards", "2H")),
    ("a card unknown", changed(GIN, "deals.0.upcard", "1X")),
    ("an Oklahoma deal after a deal in error", changed(OKLAHOMA, "deals.0.out", "Cleo")),
    ("an Oklahoma hand without cards", changed(OKLAHOMA, "deals.0.hands.Ben", {"melds": [], "held": []})),
    ("an Oklahoma card twice too many", changed(OKLAHOMA, "deals.0.hands.Ben.held", ["QS", "QS"])),
    ("a points-only deal short of a player", changed(OKLAHOMA, "deals.0", {"points": {"Ann": 5}})),
]


@pytest.mark.parametrize("what, rec", BAD, ids=[what for what, _ in BAD])
def test_every_error_of_a_bad_record_cites_a_source(what: str, rec: Any) -> None:
    with pytest.raises(RecordInvalid) as info:
        record.score_text(rec if isinstance(rec, str) else json.dumps(rec))
    errors = info.value.errors
    assert errors
    assert all(e.rule and e.source for e in errors), [(str(e.message), e.rule, e.source) for e in errors]


@pytest.mark.parametrize(
    "rec, said",
    [
        (changed(GIN, "players", ["Ann", "Ann"]), "'Ann' is named twice: player names must be unique"),
        (changed(GIN, "deals.0.knocker", "Cleo"), "the knocker 'Cleo' is not one of the players"),
    ],
)
def test_a_duplicate_name_and_a_knocker_who_is_not_a_player_cite_record_md(rec: dict[str, Any], said: str) -> None:
    with pytest.raises(RecordInvalid) as info:
        record.score_record(rec)
    [e] = [e for e in info.value.errors if str(e.message) == said]
    assert e.source == "RECORD.md"


def _calls(name: str) -> list[tuple[str, ast.Call]]:
    out = []
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                f = node.func
                if (isinstance(f, ast.Name) and f.id == name) or (isinstance(f, ast.Attribute) and f.attr == name):
                    out.append((f"{path.name}:{node.lineno}", node))
    return out


def test_every_error_the_engine_builds_names_its_source() -> None:
    """The engine's errors are RecordErrors: each is built with a source, or from another error's
    (``**`` or its source passed on)."""
    forgot = [
        where
        for where, call in _calls("RecordError")
        if len(call.args) < 3 and not any(k.arg in ("source", None) for k in call.keywords)
    ]
    assert not forgot, forgot


def test_the_gin_pack_is_cited_with_one_source_wherever_it_is_broken() -> None:
    """One 52-card pack, no Joker, one of each card: the deal's errors, the live meld check, the
    checker and the rule book cite it alike (it was S4 here, S2, Setup there, S2, S4 in the checker)."""
    cited: set[str] = set()
    for rec in (
        changed(GIN, "deals.0.hands.Ben.cards", ["JK", "3H", "4H", "6D", "6C", "8S", "10S", "KD", "AC", "5H"]),
        changed(GIN, "deals.0.hands.Ben.cards", ["2S", "3H", "4H", "6D", "6C", "8S", "10S", "KD", "AC", "5H"]),
        changed(GIN, "deals.0.upcard", "JK"),
    ):
        with pytest.raises(RecordInvalid) as info:
            record.score_record(rec)
        cited |= {e.source for e in info.value.errors}
    for meld in ("3C 3C 4C", "JK 3C 4C"):
        _, error = gin.check_meld([parse_card(t) for t in meld.split()])
        assert error is not None
        cited.add(error.source)
    for cards in ("JK 4C 5C 9D 9H 9S JH QH KH 2S", "3C 3C 5C 9D 9H 9S JH QH KH 2S"):
        verdict = checker.answer(checker.Question(kind="knock", upcard="7D", cards=cards))
        cited |= {e["source"] for e in verdict.errors}
    book = rulebook.book("oklahoma-gin", "standard")
    [pack] = [p for s in book.sections for p in s.paragraphs if "One pack" in p.text]
    assert pack.cite is not None
    cited.add(pack.cite.source)
    assert cited == {gin.SETUP_SOURCE}
