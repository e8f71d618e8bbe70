"""The history pages, the rule book, the checker and the change history in German: no English UI string
is left on them, the rule book is German paragraph by paragraph, the CSV's header is German, and the
English pages are as they were (the other tests of these pages run in English)."""

from __future__ import annotations

import csv
import functools
import io
import re
from html.parser import HTMLParser
from pathlib import Path

import polib  # type: ignore[import-untyped]
import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from scorekeeper.rules import profiles, rulebook
from scorekeeper.rules.rulebook import DealExample
from scorekeeper.table import services
from tests.app_data import GIN_BIG, GIN_KNOCK, OK_BIG, OK_SMALL, gin_record_deal, ok_record_deal
from tests.conftest import NAMES, as_phone, body, new_game

pytestmark = pytest.mark.django_db

CATALOGS = [Path(p) / "de" / "LC_MESSAGES" / "django.po" for p in settings.LOCALE_PATHS]  # the engine's, the pages'

# Words that are the same in German (names of games and rule sets, notation, loan words).
SAME_IN_GERMAN = {
    "Gin",
    "Big Gin",
    "big gin",
    "Oklahoma",
    "Oklahoma Gin",
    "Hollywood",
    "Option",
    "Standard",
    "Casino",
    "Laws of Oklahoma",
    "Export CSV",  # "CSV exportieren": the chunk is only "CSV"
    # Notation: the values of a text house option, as typed in a rule book's address (?scoring=winner).
    "winner",
    "penalty",
    "hollywood",
    "shutout",
    # Citations of the English sources: their section names and quotes ("S2, Scoring 4"; S2's "gin only hand").
    "Scoring",
    "gin only",
}
# Words these pages show from modules another helper translates (table.present.OUTCOMES).
NOT_THIS_AREA = {"went out", "stock ran out", "knock", "undercut", "void hand"}


# Parts of these pages that other templates make (the header and footer of base.html, the shared score
# components, the game record shown as notation): (tag, class or "" for any).
ELSEWHERE = (
    ("header", ""),
    ("footer", ""),
    ("script", ""),
    ("style", ""),
    ("template", ""),
    ("pre", ""),  # a game record: RECORD.md notation, never translated
    ("section", "player-deal"),
    ("section", "hollywood"),
    ("table", "lines"),
    ("table", "final"),
    ("ul", "errorlist"),
)


class _Visible(HTMLParser):
    """The text a reader sees (and hears: aria-label, placeholder, title, alt) of the parts this area's
    templates make, as one string."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skipping: str | None = None  # the tag whose subtree is skipped
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.skipping:
            self.depth += tag == self.skipping
            return
        classes = (dict(attrs).get("class") or "").split()
        if any(tag == t and (not c or c in classes) for t, c in ELSEWHERE):
            self.skipping, self.depth = tag, 1
            return
        for name, value in attrs:
            if name in ("aria-label", "placeholder", "title", "alt") and value:
                self.out.append(value)

    def handle_endtag(self, tag: str) -> None:
        if self.skipping == tag:
            self.depth -= 1
            if not self.depth:
                self.skipping = None

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.out.append(data)


def visible(html: str) -> str:
    parser = _Visible()
    parser.feed(html)
    return " " + re.sub(r"\s+", " ", " ".join(parser.out)) + " "


def _chunks(msgid: str) -> list[str]:
    """The literal words of a message id, between its placeholders and tags (each worth looking for:
    two words or more, or one word of five letters or more)."""
    text = re.sub(r"<[^>]+>", "|", msgid)
    parts = re.split(r"%\([a-z_]+\)s|\{[a-z_]+(?::[^}]*)?\}|\|", text)
    out = []
    for part in parts:
        part = re.sub(r"\s+", " ", part).strip(" .,:;·()—–-")
        words = re.findall(r"[A-Za-z][A-Za-z']+", part)
        if len(words) >= 2 or (len(words) == 1 and len(words[0]) >= 5):
            out.append(part)
    return out


@functools.cache
def ui_strings() -> list[tuple[str, list[str]]]:
    """The message ids of the pages and of the engine, each with the chunks of its English that its
    German does not have."""
    out = []
    for e in (e for path in CATALOGS for e in polib.pofile(str(path))):
        if e.obsolete or not e.msgid:
            continue
        german = e.msgstr or " ".join(e.msgstr_plural.values())
        for english in (e.msgid, e.msgid_plural):
            if not english:
                continue
            chunks = [c for c in _chunks(english) if c not in SAME_IN_GERMAN | NOT_THIS_AREA and c not in german]
            if chunks:
                out.append((english, chunks))
    return out


def _has(text: str, chunk: str) -> bool:
    return re.search(r"(?<![A-Za-z_])" + re.escape(chunk) + r"(?![A-Za-z_])", text) is not None


def english_left(english_page: str, german_page: str) -> list[str]:
    """The UI strings on the English page that the German page still shows in English."""
    en, de = visible(english_page), visible(german_page)
    left = []
    for msgid, chunks in ui_strings():
        for chunk in chunks:
            if _has(en, chunk) and _has(de, chunk):
                left.append(f"{chunk!r} (of {msgid!r})")
    return left


def phone(device, language: str) -> Client:
    client = as_phone(Client(), device)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


@pytest.fixture
def games(table):
    # The phone's name is the players' words, shown as typed: not the English default name a
    # catalog translates ("Scorer's phone"), which the comparison would take for an English UI string.
    table.devices.update(name="Anns Handy")
    ok = new_game(
        table,
        kind="oklahoma",
        profile="book",
        players=NAMES,
        first_dealer=0,
        deals=[ok_record_deal(d, list(NAMES)) for d in (OK_BIG, OK_SMALL)],
    )
    gin = new_game(
        table,
        kind="oklahoma-gin",
        profile="standard",
        players=["Ann", "Ben"],
        deals=[gin_record_deal(d, ["Ann", "Ben"]) for d in (GIN_KNOCK, GIN_BIG)],
    )
    services.edit_deal(
        game=ok, deal_id=ok.deals.get(number=2).pk, version=None, deal=ok_record_deal(OK_SMALL, list(NAMES))
    )
    return ok, gin


def _pages(ok, gin, player_id: int) -> list[str]:
    return [
        "/history/",
        "/history/?player=Ann",
        "/players/",
        f"/players/{player_id}/",
        f"/history/{ok.pk}/",
        f"/history/{gin.pk}/",
        f"/history/{ok.pk}/changes/",
        f"/history/{ok.pk}/rescore/?profile=laws",
        f"/history/{gin.pk}/rescore/?profile=classic",
        "/history/import/",
        "/rules/",
        "/rules/oklahoma/book/book/",
        "/rules/oklahoma-gin/standard/book/",
        "/rules/oklahoma-gin/party/book/?target=150",
        f"/games/{ok.pk}/rules/",
        "/check/?kind=meld&cards=QS+QH+2C%3DQD",
        "/check/?kind=meld&cards=QS+QH+5C",
        "/check/?kind=knock&upcard=7S&cards=3C+4C+5C+9D+9H+9S+JH+QH+KH+2S",
        "/check/?kind=layoff&spread=3C+4C+5C+%2F+9D+9H+9S&cards=6C+7C+9C+2H+3H+4H+KD+AC+5H+10S",
    ]


def test_every_page_in_german_has_none_of_its_english_ui_strings(table, games):
    ok, gin = games
    scorer = table.devices.get()
    en, de = phone(scorer, "en"), phone(scorer, "de")
    player_id = ok.seats.get(position=0).player_id
    failures = {}
    for url in _pages(ok, gin, player_id):
        english, german = en.get(url), de.get(url)
        assert english.status_code == german.status_code == 200, (url, english.status_code, german.status_code)
        assert '<html lang="de"' in german.content.decode()
        left = english_left(english.content.decode(), german.content.decode())
        if left:
            failures[url] = left
    assert not failures, "\n".join(f"{url}: {left}" for url, left in failures.items())


def test_the_lists_the_game_pages_and_the_charts_write_numbers_and_times_as_german_does(table, games):
    ok, _ = games
    scorer = table.devices.get()
    german = phone(scorer, "de")
    german.cookies["tz"] = "Europe/Berlin"
    review = german.get(f"/history/{ok.pk}/").content.decode()
    assert "Punktestand im Verlauf" in review and "Ziel 1.000" in review  # the chart's target line
    listing = german.get("/history/").content.decode()
    assert re.search(r'<time\s+datetime="\d{4}-\d\d-\d\dT[^"]+">\d+\. \w+\.? \d{4}, \d\d:\d\d</time>', listing)
    english = phone(scorer, "en").get(f"/history/{ok.pk}/").content.decode()
    assert "target 1,000" in english


def test_the_review_fragments_are_kept_per_language(table, games):
    ok, _ = games
    scorer = table.devices.get()
    en, de = phone(scorer, "en"), phone(scorer, "de")
    first = en.get(f"/history/{ok.pk}/").content.decode()
    german = de.get(f"/history/{ok.pk}/").content.decode()
    again = en.get(f"/history/{ok.pk}/").content.decode()
    assert "Every deal" in first and "Alle Runden" in german and "Every deal" not in german
    assert "Runde 1" in german and "Deal 1" in again and "Runde 1" not in again


def test_the_change_history_in_german(table, games):
    ok, _ = games
    german = visible(phone(table.devices.get(), "de").get(f"/history/{ok.pk}/changes/").content.decode())
    assert "Runde 2 geändert" in german and "Runde 1 eingegeben" in german
    assert "vorher" in german and "nachher" in german and "Meldungen" in german
    assert "in der Hand behalten" in german and "hat ausgemacht" in german


def test_the_csv_header_is_in_the_phones_language_and_its_cells_the_records(table, games):
    ok, _ = games
    scorer = table.devices.get()
    for url in (f"/history/{ok.pk}/export.csv", "/history/export.csv"):
        german = list(csv.reader(io.StringIO(body(phone(scorer, "de").get(url)).decode())))
        english = list(csv.reader(io.StringIO(body(phone(scorer, "en").get(url)).decode())))
        assert english[0] == [
            "game_id", "game", "profile", "options", "deal", "outcome",
            "player", "seat", "points", "total", "state", "winner",
        ]  # fmt: skip
        assert german[0] == [
            "partie_nr", "spiel", "regeln", "hausregeln", "runde", "ausgang",
            "spieler", "platz", "punkte", "punktestand", "status", "sieger",
        ]  # fmt: skip
        assert german[1:] == english[1:]  # the same data: the record's codes and plain numbers
    record = body(phone(scorer, "de").get(f"/history/{ok.pk}/export.json")).decode()
    assert '"format"' in record and "Runde" not in record  # the record is never translated


# Paragraphs whose German is their English: notation and names only.
SAME_PARAGRAPHS: set[str] = set()


@pytest.mark.parametrize("game, profile", [(g, p) for g in profiles.GAMES for p in profiles.PROFILES[g]])
def test_every_paragraph_and_worked_example_of_the_rule_book_is_german(game, profile):
    book = rulebook.book(game, profile)
    with translation.override("en"):
        english: dict[str, list] = {
            "paragraphs": [p.text for s in book.sections for p in s.paragraphs],
            "examples": [(str(e.title), str(e.text)) for e in book.examples if isinstance(e, DealExample)],
            "values": [g.value for g in book.glance],
        }
    with translation.override("de"):
        german_book = rulebook.book(game, profile)
        assert german_book is book  # one cached book, rendered in each reader's language
        paragraphs = [p.text for s in book.sections for p in s.paragraphs]
        parts = ["".join(x.text for x in p.parts) for s in book.sections for p in s.paragraphs]
        examples = [(str(e.title), str(e.text)) for e in book.examples if isinstance(e, DealExample)]
        values = [g.value for g in book.glance]
    assert paragraphs == parts  # the parts are the German sentence, values in their places
    same = [en for en, de in zip(english["paragraphs"], paragraphs, strict=True) if en == de]
    assert not [p for p in same if p not in SAME_PARAGRAPHS], same
    for (en_title, en_text), (de_title, de_text) in zip(english["examples"], examples, strict=True):
        assert (en_title != de_title or en_title in SAME_IN_GERMAN) and en_text != de_text, (en_title, en_text)
    for en_value, de_value in zip(english["values"], values, strict=True):
        if "," in en_value and en_value.replace(",", "").lstrip("−").isdigit():
            assert de_value == en_value.replace(",", ".")  # 1,000 is 1.000
        if en_value in ("yes", "no"):
            assert de_value == {"yes": "ja", "no": "nein"}[en_value]
    with translation.override("en"):
        assert [p.text for s in book.sections for p in s.paragraphs] == english["paragraphs"]


def test_the_rule_book_page_in_german_then_english_from_one_cached_book(table):
    scorer = table.devices.get()
    german = phone(scorer, "de").get("/rules/oklahoma/book/book/").content.decode()
    english = phone(scorer, "en").get("/rules/oklahoma/book/book/").content.decode()
    assert "Die Regeln" in german and "1.000" in german and "Zwei Kartenspiele" in german
    assert "The rules" in english and "1,000" in english and "Two packs of 52 cards" in english
    assert "Zwei Kartenspiele" not in english and "Two packs of 52 cards" not in german


def test_the_checkers_verdicts_in_german(table):
    scorer = table.devices.get()
    de, en = phone(scorer, "de"), phone(scorer, "en")
    for query in (
        "kind=meld&cards=QS+QH+2C%3DQD",
        "kind=meld&cards=QS+QH+5C",
        "kind=knock&upcard=7S&cards=3C+4C+5C+9D+9H+9S+JH+QH+KH+2S",
        "kind=gin&upcard=7S&cards=3C+4C+5C+9D+9H+9S+JH+QH+KH+2S&other=2H+3H+4H+6D+6C+8S+10S+KD+AC+5H",
    ):
        german = de.get(f"/check/?{query}", headers={"HX-Request": "true"}).content.decode()
        english = en.get(f"/check/?{query}", headers={"HX-Request": "true"}).content.decode()
        head_de = re.search(r'class="headline[^"]*">(.*?)</p>', german, re.S)
        head_en = re.search(r'class="headline[^"]*">(.*?)</p>', english, re.S)
        assert head_de and head_en
        assert visible(head_de.group(1)) != visible(head_en.group(1)), query
        assert "Das Regelbuch dieser Regeln" in german and "The rule book of these rules" not in german
        if "The rules that decide it" in english:
            assert "Die entscheidenden Regeln" in german and "The rules that decide it" not in german
    german = visible(de.get("/check/?kind=meld&cards=QS+QH+2C%3DQD").content.decode())
    assert "Gültige Meldung (Satz)" in german
    german = visible(de.get("/check/?kind=knock&upcard=7S&cards=3C+4C+5C+9D+9H+9S+JH+QH+KH+2S").content.decode())
    assert "Pik-Startkarte" in german or "Pik als Startkarte" in german
