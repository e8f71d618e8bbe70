"""A source says its words in the reader's language, through one function (``messages.source_words``):
"S1 law 12" is "S1 Regel 12" on a German page — in the score lines, the rule book, the checker, the
new-game form and an engine error — and stays "S1 law 12" in English and in the JSON."""

from __future__ import annotations

import gettext
import json
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

from scorekeeper.rules import checker, oklahoma, profiles, record, rulebook
from scorekeeper.rules.errors import RecordError, RecordInvalid
from scorekeeper.rules.messages import msg, source_words
from scorekeeper.rules.oklahoma_values import SRC_VALUES
from scorekeeper.table.models import Device
from tests.app_data import OK_BIG, ok_record_deal
from tests.conftest import NAMES, as_phone, new_game

ENGINE_MO = Path(oklahoma.__file__).parent / "locale" / "de" / "LC_MESSAGES" / "django.mo"


@pytest.fixture(scope="module")
def german() -> gettext.GNUTranslations:
    with ENGINE_MO.open("rb") as f:
        return gettext.GNUTranslations(f)


@pytest.mark.parametrize(
    "source, said",
    [
        ("S1 law 12", "S1 Regel 12"),
        ("S0; S1 law 1", "S0; S1 Regel 1"),
        ("S0; S1 laws 7, 11", "S0; S1 Regeln 7, 11"),
        ("S2, Scoring 3", "S2, Scoring 3"),  # S2's headings as S2 names them
        ("S2, Gameplay 3; S4", "S2, Gameplay 3; S4"),
        ("ruling", "Auslegung"),
        ("house option", "Hausregel"),
        ("RECORD.md", "RECORD.md"),
    ],
)
def test_a_source_says_its_words_in_german_and_is_itself_in_english(german, source, said):
    assert source_words(source).render(german) == said
    assert str(source_words(source)) == source


def every_source() -> set[str]:
    """Every source a knob, a score line or an error of the example records cites."""
    sources = {s.source for game in profiles.GAMES for k in profiles.knobs(game) for s in k.settings.values()}
    for path in (Path(__file__).parents[1] / "rules" / "records").glob("*.json"):
        if path.name.endswith(".expected.json"):
            continue
        try:
            doc = record.result_json(record.score_text(path.read_text(encoding="utf-8")))
        except RecordInvalid as exc:
            sources |= {e.source for e in exc.errors}
            continue
        for deal in doc["deals"]:
            for player in deal["players"].values():
                sources |= {x["source"] for x in player["lines"] + player.get("side_lines", [])}
    return sources


def test_every_source_cited_is_itself_in_english():
    sources = every_source()
    assert {"S1 law 12", "S0; S1 law 12", "S2, Scoring 3", "ruling", "RULES.md §1"} <= sources
    assert all(str(source_words(s)) == s for s in sources)


def test_an_engine_error_and_a_rule_book_citation_say_the_law_in_german():
    error = RecordError(msg("a card too many"), rule="the pack", source=oklahoma.SRC_PACK)
    with translation.override("de"):
        assert str(error).endswith("(S0; S1 Regel 1)")
        assert rulebook.Cite("S1 law 9").label == "S1 Regel 9"
        assert rulebook.Cite("S1 law 10", "ruling").label == "Auslegung, S1 Regel 10"
    with translation.override("en"):
        assert str(error).endswith("(S0; S1 law 1)")
        assert rulebook.Cite("S1 law 9").label == "S1 law 9"


def test_the_json_keeps_the_source_as_written():
    rec = json.loads((Path(__file__).parents[1] / "rules" / "records" / "oklahoma_laws.json").read_text("utf-8"))
    with translation.override("de"):
        doc = record.result_json(record.score_record(rec))
    lines = [x for p in doc["deals"][0]["players"].values() for x in p["lines"]]
    assert SRC_VALUES in {x["source"] for x in lines}


def phone(device: Device, language: str) -> Client:
    client = as_phone(Client(), device)
    client.cookies["django_language"] = language
    return client


@pytest.mark.django_db
def test_the_pages_say_s1_regel_in_german_and_s1_law_in_english(table):
    scorer = table.devices.get()
    game = new_game(table, profile="laws", deals=[ok_record_deal(OK_BIG, NAMES)])
    deal = game.deals.get()
    pages = [
        f"/games/{game.pk}/deals/{deal.pk}/",  # the score lines
        "/rules/oklahoma/laws/book/",  # the rule book
        "/check/?kind=meld&game=oklahoma&profile=laws&cards=QS+QH+5C",  # the checker's error
        "/check/?kind=hand&game=oklahoma&profile=laws&spread=QS+QH+2C%3DQD&cards=KD",  # the checker's rules
        "/games/new/?game=oklahoma",  # the new-game form's values and sources
    ]
    for path in pages:
        de = phone(scorer, "de").get(path).content.decode()
        en = phone(scorer, "en").get(path).content.decode()
        assert "S1 Regel" in de and "S1 law" not in de and "S1 laws" not in de, path
        assert "S1 law" in en and "S1 Regel" not in en, path


def test_the_checkers_cites_say_their_source_in_the_readers_language():
    question = checker.Question(kind="hand", game="oklahoma", profile="laws", spread="QS QH 2C=QD", cards="KD")
    verdict = checker.answer(question)
    with translation.override("de"):
        said = [str(c["said"]) for c in verdict.cites]
    assert said == ["S1 Regel 10", "S1 Regel 12"]  # the going-out bonus, K–8 in hand
    assert [str(c["said"]) for c in verdict.cites] == [c["source"] for c in verdict.cites]
