"""The table's pages in German (scorekeeper/i18n.py): no English word of the page left on them, plurals
right, numbers as German writes them, the card letters a German player types (B, D), errors beside
the fields in German, the scripts' words, the web manifest and the terminal banner."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from html.parser import HTMLParser

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorekeeper.table import services
from scorekeeper.table.forms import CardListField, german_card
from scorekeeper.table.management.commands.serve import Command, terminal_language
from scorekeeper.table.models import Game, Role
from scorekeeper.table.templatetags.cards import number_text, signed_text, value_text
from scorekeeper.table.templatetags.words import words
from tests.app_data import GIN_BIG, OK_BIG, OK_SMALL, gin_post, ok_post, ok_record_deal
from tests.conftest import NAMES, as_phone, new_game
from tests.rulebook.test_hollywood_pages import RECORD as HOLLYWOOD
from tests.rulebook.test_hollywood_pages import hollywood_game

pytestmark = pytest.mark.django_db


class _Text(HTMLParser):
    """A page's words as a reader meets them: its text and the words of its aria-label, title,
    placeholder and alt attributes (the scripts' JSON and the stylesheet left out)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in ("aria-label", "title", "placeholder", "alt") and value:
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.parts.append(data)


def words_of(body: str) -> list[str]:
    parser = _Text()
    parser.feed(body)
    return [" ".join(p.split()) for p in parser.parts]


# What a page shows in both languages: names (players, tables, phones), the app's and the games'
# names, numbers, cards, the record's notation, citations of the sources ("S1 law 12", "S2, Scoring 4"),
# the values of the record's options ('chained'), a deal as recorded (JSON), the titles of the rule
# sets German players call so too ("Casino:"), punctuation, the language switch's "EN"/"DE".
NAMES_SEEN = r"(?:Ann|Ben|Cleo|Cy|Dee|Test table|Scorer's phone)"
SAME = re.compile(
    r"^(?:[\W\d_]*|EN|DE|JK|Joker|Gin|Big Gin|Hollywood|Box|RECORD\.md|"
    r"(?:♠♥ )?(?:Oklahoma )?Scorekeeper|Oklahoma(?: Gin)?(?: #\d+)?(?:[:·].*)?|"
    rf"{NAMES_SEEN}(?:[:,].*)?|.* · Oklahoma Scorekeeper|"
    r"[\dAKQJT]{1,2}[SHDC♠♥♦♣](?:=[\dAKQJT]{1,2}[SHDC♠♥♦♣])?|https?://\S+|"
    r"S\d(?:[;,]? ?(?:S\d )?(?:law|Scoring|Gameplay|Deal)? ?[\d, ]*)*;?|"
    r"chained|original|void|reshuffle|winner|penalty|loser|\{.*\}|"
    r"(?:Laws of Oklahoma|Casino|Standard|Classic):)$"
)
# The change history beside a deal is another page's part (components/changes.html): left out here.
CHANGES = re.compile(r'<h2[^>]*id="changes-h".*?<ol[^>]*aria-labelledby="changes-h".*?</ol>', re.S)


def english_left(path: str, phone: Client, **post: str) -> list[str]:
    """The English words of the page ``path`` (GET, or POST with ``post``) still on its German page:
    each text (or aria-label, title, placeholder) of the English page found as a whole on the German
    one, unless a page shows it in both languages (``SAME``)."""

    def fetch(language: str) -> str:
        phone.cookies["django_language"] = language
        response = phone.post(path, post) if post else phone.get(path)
        assert response.status_code < 500, (path, response.status_code)
        return CHANGES.sub("", html.unescape(response.content.decode()))

    english, german = fetch("en"), fetch("de")
    assert '<html lang="de">' in german
    german_words = set(words_of(german))
    return sorted(
        {w for w in words_of(english) if w in german_words and re.search(r"[a-z]{3}", w) and not SAME.match(w)}
    )


@pytest.fixture
def played(table) -> Game:
    """An Oklahoma game with two deals and a Gin game with one, their table's phones: a scorer."""
    return new_game(table, deals=[ok_record_deal(OK_SMALL, NAMES), ok_record_deal(OK_BIG, NAMES)], first_dealer=0)


def test_no_english_word_is_left_on_the_table_pages_in_german(client, table, scorer, played):
    gin = new_game(table, kind="oklahoma-gin", profile="standard", players=["Ann", "Ben"])
    services.create_link(table=table, role=Role.FOLLOW, by=scorer)
    services.create_link(table=table, role=Role.SCORE, by=scorer)
    follow = services.create_link(table=table, role=Role.FOLLOW, by=scorer)
    deal = played.deals.get(number=1)
    pages = [
        reverse("table:home"),
        reverse("table:new_game"),
        reverse("table:new_game") + "?game=oklahoma-gin",
        reverse("table:table", args=[table.pk]),
        reverse("table:game", args=[played.pk]),
        reverse("table:game", args=[gin.pk]),
        reverse("table:deal", args=[played.pk, deal.pk]),
        reverse("table:deal_new", args=[played.pk]),
        reverse("table:deal_new", args=[gin.pk]),
        reverse("table:deal_edit", args=[played.pk, deal.pk]),
        reverse("table:deal_delete", args=[played.pk, deal.pk]),
        reverse("table:offline"),
        "/no/such/page/",
    ]
    left = {path: english_left(path, client) for path in pages}
    stranger = Client()
    left["join"] = english_left(reverse("table:join", args=[follow.token]), stranger)
    left["join (a dead link)"] = english_left(reverse("table:join", args=["no-such-token"]), stranger)
    # A deal with errors beside its fields, and the new-game form refused.
    left["deal, refused"] = english_left(
        reverse("table:deal_new", args=[played.pk]), client, **{**ok_post(OK_SMALL), "p-0-held": "8S ZZ", "out": ""}
    )
    left["gin deal, refused"] = english_left(
        reverse("table:deal_new", args=[gin.pk]), client, **{**gin_post(GIN_BIG), "upcard": "9S 9H"}
    )
    # Hollywood's three columns (a Gin house option): a match under way and a match over.
    for label, deals in (("hollywood, under way", HOLLYWOOD["deals"][:3]), ("hollywood, over", HOLLYWOOD["deals"])):
        hollywood = hollywood_game(table, deals=deals)
        left[label] = english_left(reverse("table:game", args=[hollywood.pk]), client)
        last = hollywood.deals.order_by("number").last()
        assert last is not None
        left[label + ", a deal"] = english_left(reverse("table:deal", args=[hollywood.pk, last.pk]), client)
    left["new game, refused"] = english_left(
        reverse("table:new_game"), client, game="oklahoma", profile="book", seat_0="Ann", seat_2="Cy"
    )
    remaining = {path: words for path, words in left.items() if words}
    assert not remaining, json.dumps(remaining, indent=1, ensure_ascii=False)


def test_the_scripts_words_are_german_on_a_german_page(client):
    english = words()
    with translation.override("de"):
        german = words()
    assert german.keys() == english.keys()
    same = {k for k in english if english[k] == german[k]}
    assert same == {"joker"}, same  # the Joker is a Joker in German too
    assert german["card"].format(rank=german["rank.Q"], suit=german["suit.S"]) == "Pik-Dame"
    assert german["card"].format(rank="10", suit=german["suit.H"]) == "Herz-10"
    assert english["card"].format(rank=english["rank.Q"], suit=english["suit.S"]) == "queen of spades"
    client.cookies["django_language"] = "de"
    page = client.get(reverse("table:home")).content.decode()
    found = re.search(r'<script id="words" type="application/json">(.*?)</script>', page)
    assert found and json.loads(found.group(1))["tap a field"] == "Ein Kartenfeld antippen"


def test_plurals_and_numbers_follow_the_language(client, table):
    game = new_game(table, deals=[ok_record_deal(OK_BIG, NAMES)], first_dealer=0)
    client.cookies["django_language"] = "de"
    url = reverse("table:deal_new", args=[game.pk])
    one = client.post(url, {"action": "preview", "p-0-held": "QS"}, headers={"HX-Request": "true"})
    three = client.post(url, {"action": "preview", "p-0-held": "QS 4C 5C"}, headers={"HX-Request": "true"})
    assert "1 Karte" in one.content.decode() and "3 Karten" in three.content.decode()
    with translation.override("de"):
        assert number_text(1075) == "1.075" and signed_text(1075) == "+1.075" and signed_text(-20) == "−20"
        assert value_text(1000) == "1.000" and value_text(True) == "ja"
    # English pages print their numbers as they always did
    with translation.override("en"):
        assert number_text(1075) == "1075" and signed_text(1075) == "+1075" and value_text(1000) == "1,000"


def test_a_german_phone_types_b_and_d_for_jack_and_queen():
    assert german_card("DS") == "QS" and german_card("bh") == "Jh" and german_card("D♠") == "Q♠"
    assert german_card("DD") == "QD" and german_card("KD") == "KD" and german_card("10D") == "10D"
    assert german_card("2C=DH") == "2C=QH" and german_card("JK=BS") == "JK=JS" and german_card("D") == "D"
    field = CardListField(wild=True)
    with translation.override("de"):
        assert field.clean("DS BH KD AC 2C=DH dd") == ["QS", "JH", "KD", "AC", "2C=QH", "QD"]
        with pytest.raises(ValidationError) as caught:
            field.clean("DS ZZ")
        assert caught.value.messages == ["'ZZ' ist keine Karte: die Farbe muss S, H, D oder C (♠ ♥ ♦ ♣) sein"]
    with translation.override("en"), pytest.raises(ValidationError):
        field.clean("DS")  # the record's notation only: "DS" is no card on an English page


def test_a_german_deal_is_saved_from_german_letters_and_its_errors_are_german(client, table):
    game = new_game(table, first_dealer=0)
    client.cookies["django_language"] = "de"
    url = reverse("table:deal_new", args=[game.pk])
    data = {**ok_post(OK_SMALL), "p-1-melds": "9C 10C BC / 6H 6D 6C", "p-2-melds": "bc bd bh"}
    data["p-2-melds"] = "KC KD KH"
    data["p-1-melds"] = "9C 10C BC / 6H 6D 6C"
    assert client.post(url, data).status_code == 302
    saved = json.dumps(game.deals.get(number=1).cards)
    assert '"JC"' in saved and "BC" not in saved  # the record keeps its own notation
    refused = client.post(url, {**ok_post(OK_SMALL), "p-0-held": "8X", "out": ""})
    body = html.unescape(refused.content.decode())
    field = body.split('id="id_p-0-held_box"')[1].split("</fieldset>")[0]
    assert "'8X' ist keine Karte" in field
    assert "Angeben, wer ausgemacht hat oder dass der Talon aufgebraucht ist." in body


def test_the_web_manifest_and_the_offline_note_are_in_the_phones_language(client):
    client.cookies["django_language"] = "de"
    manifest = client.get(reverse("table:manifest")).json()
    assert manifest["description"] == "Schreibt Oklahoma und Oklahoma Gin am Tisch, auf jedem Handy."
    assert manifest["lang"] == "de"
    client.cookies["django_language"] = "en"
    assert client.get(reverse("table:manifest")).json()["description"].startswith("Scores Oklahoma")
    worker = client.get("/sw.js").content.decode()
    assert "Gespeicherte Kopie vom {time}" in worker and "Saved copy from {time}" in worker


@contextmanager
def _english() -> Iterator[None]:
    with translation.override("en"):
        yield


def test_the_terminal_banner_speaks_the_terminals_language():
    assert terminal_language({"LANG": "de_DE.UTF-8"}) == "de"
    assert terminal_language({"LC_ALL": "de_AT.UTF-8", "LANG": "en_US.UTF-8"}) == "de"
    assert terminal_language({"LANG": "fr_FR.UTF-8"}) == "en" and terminal_language({}) == "en"
    with translation.override("de"):
        banner = Command()._banner("http://192.0.2.7:8000/", ["192.0.2.7"], 8000, https=False)
    assert "Oklahoma Scorekeeper bedient die Handys in diesem Netz." in banner
    assert "http://192.0.2.7:8000/ auf jedem Handy am Tisch öffnen" in banner and "Strg-C" in banner
    with _english():
        english = Command()._banner("http://192.0.2.7:8000/", ["192.0.2.7"], 8000, https=False)
    assert "Press Ctrl-C to stop." in english


def test_the_live_page_of_each_language_is_its_own(client, table, scorer):
    game = new_game(table, first_dealer=0)
    url = reverse("table:game", args=[game.pk])
    english = client.get(url)
    client.cookies["django_language"] = "de"
    german = client.get(url)
    assert english["ETag"] != german["ETag"] and "-de-" in german["ETag"] and "-en-" in english["ETag"]
    # the German phone's validator is not the English page's: a German phone gets the German page
    again = client.get(url, headers={"If-None-Match": english["ETag"]})
    assert again.status_code == 200 and "Runden" in again.content.decode()
    follower = as_phone(Client(), table.devices.create(name="Zoe", role=Role.FOLLOW))
    follower.cookies["django_language"] = "de"
    assert "Noch keine Runden." in follower.get(url).content.decode()
