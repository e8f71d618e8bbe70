"""docs/ stays true: docs/rules.md gives every profile's value and source as profiles.py holds them,
and docs/record.md lists exactly the keys the record reader knows, with examples that score."""

import json
import re
from pathlib import Path

import pytest

from scorekeeper.rules import gin, oklahoma, points, profiles, record

DOCS = Path(__file__).resolve().parents[1] / "docs"
RULES = (DOCS / "rules.md").read_text(encoding="utf-8")
RECORD = (DOCS / "record.md").read_text(encoding="utf-8")
TITLES = {profiles.OKLAHOMA: "### The Oklahoma profiles", profiles.GIN: "### The Oklahoma Gin profiles"}


def section(text: str, heading: str) -> str:
    """From ``heading`` to the next heading."""
    return re.split(r"\n#+ ", text.split(heading, 1)[1], maxsplit=1)[0]


def tables(text: str) -> list[list[list[str]]]:
    """Every Markdown table in ``text``: its rows (the header first, the rule line left out) of cells."""
    found: list[list[list[str]]] = []
    previous = ""
    for line in text.splitlines():
        if line.startswith("|"):
            if not previous.startswith("|"):
                found.append([])
            if not set(line) <= set("|-: "):
                found[-1].append([cell.strip() for cell in line.strip().strip("|").split("|")])
        previous = line
    return found


def keys_of(table: list[list[str]]) -> list[str]:
    return [row[0].strip("`") for row in table[1:]]


def shown(value: object) -> str:
    return f"`{value}`" if isinstance(value, str) else str(value).lower()


@pytest.mark.parametrize("game", profiles.GAMES)
def test_rules_give_each_profiles_value_and_source(game: str):
    """One row per knob, one column per profile: "value (source)", "(ruling)" where the project decides."""
    [table] = tables(section(RULES, TITLES[game]))
    header = [cell.strip("`") for cell in table[0]]
    assert header[2:-1] == list(profiles.PROFILES[game])
    assert keys_of(table) == [knob.name for knob in profiles.knobs(game)]
    for row, knob in zip(table[1:], profiles.knobs(game), strict=True):
        assert row[1] == str(knob.label), knob.name
        assert row[-1] == knob.allowed_text(), knob.name
        for profile, cell in zip(profiles.PROFILES[game], row[2:-1], strict=True):
            setting = knob.settings[profile]
            assert cell == f"{shown(setting.value)} ({setting.source})", (game, knob.name, profile)


@pytest.mark.parametrize("game", profiles.GAMES)
def test_rules_name_each_profile(game: str):
    listed = re.findall(r"^- `([\w-]+)`, ", section(RULES, TITLES[game]), flags=re.MULTILINE)
    assert listed == list(profiles.PROFILES[game])


def test_rules_explain_every_source_the_app_cites():
    [table] = [t for t in tables(section(RULES, "## Sources and rulings")) if t[0][0] == "code"]
    assert keys_of(table) == list(profiles.SOURCES)


def test_every_ruling_the_profiles_take_is_marked_as_one():
    """A value cited as a ruling shows "(ruling)", and the page marks the paragraphs that are rulings."""
    for game in profiles.GAMES:
        for knob in profiles.knobs(game):
            for setting in knob.settings.values():
                assert (setting.basis == "ruling") == (setting.source == "ruling")
    assert RULES.count("**Ruling.**") >= 10


def test_record_lists_exactly_the_keys_the_reader_knows():
    found = [set(keys_of(t)) for t in tables(RECORD) if t[0][0] == "key"]
    known = [record.TOP_KEYS, record.RULES_KEYS, oklahoma.DEAL_KEYS, oklahoma.HAND_KEYS, gin.DEAL_KEYS, gin.HAND_KEYS]
    known.append(points.KEYS)  # a points-only deal, this app's extension
    assert found == [set(keys) for keys in known]
    required = [row[0].strip("`") for t in tables(RECORD)[:1] for row in t[1:] if row[1] == "yes"]
    assert set(required) == set(record.REQUIRED_KEYS)


def test_record_says_the_format_and_the_games():
    assert f"`{record.FORMAT}`" in RECORD
    for game in profiles.GAMES:
        assert f"`{game}`" in RECORD
        for profile in profiles.PROFILES[game]:
            assert f"`{profile}`" in RECORD


EXAMPLES = re.findall(r"<!-- example: ([\w-]+) -->\n```json\n(.*?)\n```", RECORD, flags=re.DOTALL)


def test_record_has_an_example_of_each_game():
    assert [game for game, _ in EXAMPLES] == list(profiles.GAMES)


@pytest.mark.parametrize(("game", "text"), EXAMPLES, ids=[game for game, _ in EXAMPLES])
def test_record_examples_score(game: str, text: str):
    data = json.loads(text)
    result = record.score_record(data)
    assert result.game == game and len(result.deals) == len(data["deals"])
