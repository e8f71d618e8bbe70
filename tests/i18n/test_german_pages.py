"""Every page a player opens, in German, shows none of its English — one way for every app: each page is
fetched in English and in German by the same phone, and ``english_left`` finds the English the German
page still shows in two ways on one extraction (``texts``) and one rule (``english``):

* a piece of text of the English page (a text node, or what a screen reader reads: aria-label, title,
  placeholder, alt, a button's value) found whole on the German page — a string never marked for
  translation, or marked and not translated;
* the English words of a catalog message (between its placeholders and tags) found on both pages —
  a translated message shown in English inside a German sentence (a lazy text never rendered in the
  reader's language, an engine message passed through untranslated).

What may stay English (``MAY_STAY``): names typed by players, card notation, numbers, citations of the
sources ("S2, Scoring 4"; S1's laws are said in German: "S1 Regel 12"), proper names and the words
German shares (Gin, Joker, Option), and the record's own notation (a game record, an option's value).
The other assertions of the German pages follow: plurals, numbers, the B/D a German player types, the
scripts' words, the manifest and the terminal banner, the live page's ETag, the CSV header, the rule
book paragraph by paragraph, the checker's verdicts, the change history and the times."""

from __future__ import annotations

import csv
import functools
import html
import io
import json
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import polib  # type: ignore[import-untyped]
import pytest
from django.conf import settings
from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorekeeper.guards import limits
from scorekeeper.rules import profiles, rulebook
from scorekeeper.rules.fieldcheck import typed_card
from scorekeeper.rules.rulebook import DealExample
from scorekeeper.server.management.commands.serve import Command, terminal_language
from scorekeeper.table.entry.cards import CardListField, typed_ranks
from scorekeeper.table.hands import services as hand_services
from scorekeeper.table.models import Device, Game, Role, Table
from scorekeeper.table.phones import services as phone_services
from scorekeeper.table.scoring import deals as deal_services
from scorekeeper.table.templatetags.words import words
from scorekeeper.table.text import number_text, signed_text, value_text
from tests.app_data import GIN_BIG, GIN_KNOCK, OK_BIG, OK_SMALL, gin_post, gin_record_deal, ok_post, ok_record_deal
from tests.conftest import NAMES, as_phone, body, new_game
from tests.rulebook.test_hollywood_pages import RECORD as HOLLYWOOD
from tests.rulebook.test_hollywood_pages import hollywood_game

pytestmark = pytest.mark.django_db

CATALOGS = [Path(p) / "de" / "LC_MESSAGES" / "django.po" for p in settings.LOCALE_PATHS]  # the engine's, the pages'

# ------------------------------------------------------------------ one extraction, one rule

READ = ("aria-label", "title", "placeholder", "alt")
# Not read: code, the stylesheet, and the record's notation (a game record as JSON, a card list typed
# as an example, an option's name) — never translated.
SKIP = {"script", "style", "pre", "code", "kbd"}


class _Texts(HTMLParser):
    """The pieces of text a player sees or hears on a page, in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[str] = []
        self.skipping: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIP:
            self.skipping.append(tag)
        if self.skipping:
            return
        a = dict(attrs)
        for name in READ:
            if a.get(name):
                self.pieces.append(" ".join(str(a[name]).split()))
        if tag == "input" and a.get("type") in ("submit", "button") and a.get("value"):
            self.pieces.append(" ".join(str(a["value"]).split()))

    def handle_endtag(self, tag: str) -> None:
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if text and not self.skipping:
            self.pieces.append(text)


def texts(page: str) -> list[str]:
    """The pieces of text of a page (``_Texts``)."""
    parser = _Texts()
    parser.feed(page)
    return parser.pieces


def visible(page: str) -> str:
    """The text of a page as one string, its pieces apart."""
    return " ¦ " + " ¦ ".join(texts(page)) + " ¦ "


def _to_translate(page: str) -> str:
    """The text of a page as one string without what may stay English (``MAY_STAY``)."""
    return " ¦ " + " ¦ ".join(MAY_STAY.sub(" ", t) for t in texts(page)) + " ¦ "


# What a German page may show in English. Names typed by players (the fixtures' players, table and
# phones); card notation (QS, 10H, 2C=7H, Q♠, JK); citations of the sources ("S0; S1", "S2, Scoring 4",
# "S4, BO": S2's headings as S2 names them, while S1's "law" is said in German, "Regel") and their words
# quoted; proper names and words German shares (the games, the rule sets German players call so, Joker,
# Option); the record's notation (its file names, an option's value as typed in a rule book's address:
# "winner", "chained").
TYPED = r"Ann|Ben|Cleo|Cy|Dee|Test table|Anns Handy|Bens Handy|Cleos Handy|Zoes Handy"
CARD = r"(?:10|[2-9AKQJ])[SHDC♠♥♦♣](?:=(?:10|[2-9AKQJ])[SHDC♠♥♦♣])?|JK"
CITED = r"S\d(?:,? (?:Scoring|Gameplay|Setup|Deal)\b)?"
PROPER = (
    r"Oklahoma Scorekeeper|Scorekeeper|Laws of Oklahoma|Oklahoma|Big Gin|Gin|Hollywood|Joker|Casino|Standard|"
    r"Option|Pagat|Bicycle|RECORD\.md|RULES\.md|JSON|CSV|https?://\S+"
)
QUOTED = r"„[^“]*“"  # a source's own words, quoted in German quotation marks: „Ace = 1 (gin only hand)“
NOTATION = r"^(?:chained|original|void|reshuffle|winner|penalty|loser|shutout|hollywood)$"
MAY_STAY = re.compile(rf"(?<![\w.])(?:{TYPED}|{CARD}|{CITED}|{PROPER})(?!\w)|{QUOTED}|{NOTATION}")


def english(text: str) -> bool:
    """Whether a piece of text holds English a German page must not show: a word of three letters or
    more once what may stay (``MAY_STAY``) is taken out."""
    return re.search(r"[A-Za-z]{3,}", MAY_STAY.sub(" ", text)) is not None


def _chunks(msgid: str) -> list[str]:
    """The literal words of a message id, between its placeholders and tags (each worth looking for:
    two words or more, or one word of five letters or more)."""
    text = re.sub(r"<[^>]+>", "|", msgid)
    parts = re.split(r"%\([a-z_]+\)s|\{[a-z_]+(?::[^}]*)?\}|\|", text)
    out = []
    for part in parts:
        part = re.sub(r"\s+", " ", part).strip(" .,:;·()—–-")
        found = re.findall(r"[A-Za-z][A-Za-z']+", part)
        if len(found) >= 2 or (len(found) == 1 and len(found[0]) >= 5):
            out.append(part)
    return out


@functools.cache
def ui_strings() -> list[tuple[str, list[str]]]:
    """The message ids of the pages and of the engine, each with the chunks of its English that its
    German does not have and that may not stay English."""
    out = []
    for e in (e for path in CATALOGS for e in polib.pofile(str(path))):
        if e.obsolete or not e.msgid:
            continue
        german = e.msgstr or " ".join(e.msgstr_plural.values())
        for msgid in (e.msgid, e.msgid_plural):
            if msgid:
                chunks = [c for c in _chunks(msgid) if c not in german and english(c)]
                if chunks:
                    out.append((msgid, chunks))
    return out


def _has(text: str, chunk: str) -> bool:
    return re.search(r"(?<![A-Za-z_])" + re.escape(chunk) + r"(?![A-Za-z_])", text) is not None


def english_left(english_page: str, german_page: str) -> list[str]:
    """The English the German page still shows: a piece of the English page found whole on the German
    one, or a catalog message's English words found on both."""
    en, de = texts(english_page), texts(german_page)
    left = {repr(t) for t in set(en) & set(de) if english(t)}
    en_text, de_text = _to_translate(english_page), _to_translate(german_page)
    de_words = set(re.findall(r"[A-Za-z']+", de_text))
    for msgid, chunks in ui_strings():
        for chunk in chunks:
            if set(re.findall(r"[A-Za-z']+", chunk)) <= de_words and _has(en_text, chunk) and _has(de_text, chunk):
                left.add(f"{chunk!r} (of {msgid!r})")
    return sorted(left)


def test_the_rule_finds_english_and_lets_names_and_notation_pass():
    """The check itself: English words are found; names, notation, numbers and citations pass."""
    assert english("Save deal") and english("Ann wins the game.") and english("(the pack, S0; S1 law 1)")
    assert english("Scorer's phone") and english("(knock limit, S2, Gameplay 1)")
    assert not english("Ann") and not english("Q♠ 10♥ JK") and not english("+1.075") and not english("S0, S2")
    assert english("— S0; S1 laws 7, 11")  # S1's laws are said in German: "S1 Regeln 7, 11"
    assert not english("(S2, Scoring 4; S4, BO)") and not english("winner")
    assert not english("Anns Handy") and not english("2C=7H 10H QS")
    page = '<p title="Deal 1">Deal 1</p><input type="submit" value="Save"><p>Nur <b>the pack</b></p>'
    german = '<p title="Deal 1">Runde 1</p><input type="submit" value="Sichern"><p>Das the pack</p>'
    assert english_left(page, german) == ["'Deal 1'", "'the pack' (of 'the pack')"]


# ------------------------------------------------------------------ the pages a player opens


def phone(device: Device | None, language: str) -> Client:
    client = as_phone(Client(), device) if device else Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


@dataclass
class Page:
    """A page as a phone opens it: GET, or POST ``data`` (a form refused: nothing changes)."""

    path: str
    by: Device | None = None  # the scorer when None and not ``stranger``
    data: dict[str, str] | None = None
    status: int = 200
    stranger: bool = False
    headers: dict[str, str] = field(default_factory=dict)

    def fetch(self, table: Table, language: str) -> str:
        client = phone(None if self.stranger else (self.by or table.devices.order_by("pk").first()), language)
        response = (
            client.post(self.path, self.data, headers=self.headers)
            if self.data is not None
            else client.get(self.path, headers=self.headers)
        )
        assert response.status_code == self.status, (self.path, language, response.status_code)
        return html.unescape(response.content.decode())


def hidden(page: str) -> dict[str, str]:
    """A form's hidden fields as a page has them (its number, version, submission token)."""
    found = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page))
    found.pop("csrfmiddlewaretoken", None)
    return found


# One Oklahoma deal of the book's rules typed by each player on his own phone, Ann out.
OWN_HANDS = [
    {"melded": ["QS", "QH", "QD", "5S", "6S", "7S"], "held": []},
    {"melded": ["KH", "KD", "KC"], "held": ["9C", "QS"]},
    {"melded": [], "held": ["4C", "5D", "8H"]},
]
OWN_FACTS = {"out": 0, "first_turn": False, "concealed": False, "late_misdeal": False}


def two_games(table: Table) -> tuple[Game, Game]:
    """An Oklahoma game of two deals (the second changed once) and a Gin game of two."""
    ok = new_game(
        table,
        kind="oklahoma",
        profile="book",
        players=NAMES,
        first_dealer=0,
        deals=[ok_record_deal(d, list(NAMES)) for d in (OK_BIG, OK_SMALL)],
    )
    deal_services.edit_deal(
        game=ok, deal_id=ok.deals.get(number=2).pk, version=None, deal=ok_record_deal(OK_SMALL, list(NAMES))
    )
    gin = new_game(
        table,
        kind="oklahoma-gin",
        profile="standard",
        players=["Ann", "Ben"],
        deals=[gin_record_deal(d, ["Ann", "Ben"]) for d in (GIN_KNOCK, GIN_BIG)],
    )
    return ok, gin


@pytest.fixture
def scene(table: Table) -> dict[str, Any]:
    """Every kind of game a German phone opens: Oklahoma and Gin with deals (one changed), Hollywood
    under way and over, a long game (the review in pages), a deal of points only, own hands open (one
    deal complete, one under way with a hand refused), a table with links and phones."""
    table.devices.update(name="Anns Handy")  # typed by the players, not the English default name
    scorer = table.devices.get()
    ok, gin = two_games(table)
    few = {"points": {"Ann": 5, "Ben": 0, "Cleo": -5}, "winner": "Ann"}
    small = ok_record_deal(OK_SMALL, NAMES)
    long = new_game(table, players=NAMES, first_dealer=0, deals=[small, *[few] * 10, small])
    points = new_game(table, players=NAMES, first_dealer=0)
    deal_services.add_deal(game=points, deal={"points": {"Ann": 120, "Ben": -35, "Cleo": 40}, "winner": "Ann"})
    hollywood = {
        "under way": hollywood_game(table, deals=HOLLYWOOD["deals"][:3]),
        "over": hollywood_game(table, deals=HOLLYWOOD["deals"]),
    }
    # Own hands: three phones at the seats of an Oklahoma game, every hand in; two at a Gin game's,
    # one hand in.
    phones = [Device.objects.create(table=table, name=f"{n}s Handy", role=Role.FOLLOW) for n in ("Ann", "Ben", "Cleo")]
    own = new_game(table, players=NAMES, first_dealer=0)
    for seat, device in enumerate(phones):
        phone_services.sit(game=own, position=seat, phone=device, by=device)
    hand_services.open_deal(game=own, by=phones[0])
    for seat, hand in enumerate(OWN_HANDS):
        hand_services.submit_hand(
            game=own, seat=seat, hand=hand, by=phones[seat], facts=OWN_FACTS if seat == 0 else None
        )
    own_gin = new_game(table, kind="oklahoma-gin", profile="standard", players=["Ann", "Ben"])
    phone_services.sit(game=own_gin, position=0, phone=phones[0], by=phones[0])
    phone_services.sit(game=own_gin, position=1, phone=phones[1], by=phones[1])
    hand_services.open_deal(game=own_gin, by=phones[0])
    hand_services.submit_hand(game=own_gin, seat=0, hand={"cards": ["KH", "QD"]}, by=phones[0])
    zoe = Device.objects.create(table=table, name="Zoes Handy", role=Role.FOLLOW)
    phone_services.create_link(table=table, role=Role.FOLLOW, by=scorer)
    phone_services.create_link(table=table, role=Role.SCORE, by=scorer)
    follow = phone_services.create_link(table=table, role=Role.FOLLOW, by=scorer)
    return {
        "table": table,
        "ok": ok,
        "gin": gin,
        "long": long,
        "points": points,
        "hollywood": hollywood,
        "own": own,
        "own_gin": own_gin,
        "phones": phones,
        "zoe": zoe,
        "follow": follow,
    }


CHECKS = [
    "kind=meld&cards=QS+QH+2C%3DQD",
    "kind=meld&cards=QS+QH+5C",
    "kind=meld&cards=QS+QS+QS",
    "kind=meld&cards=5S+6S+8S",
    "kind=knock&upcard=7S&cards=3C+4C+5C+9D+9H+9S+JH+QH+KH+2S",
    "kind=gin&upcard=7S&cards=3C+4C+5C+9D+9H+9S+JH+QH+KH+2S&other=2H+3H+4H+6D+6C+8S+10S+KD+AC+5H",
    "kind=layoff&spread=3C+4C+5C+%2F+9D+9H+9S&cards=6C+7C+9C+2H+3H+4H+KD+AC+5H+10S",
]


def pages(scene: dict[str, Any]) -> dict[str, Page]:
    table, ok, gin, long, points, own, own_gin = (
        scene[k] for k in ("table", "ok", "gin", "long", "points", "own", "own_gin")
    )
    ann, ben, _ = scene["phones"]
    deal = ok.deals.get(number=1)
    gin_deal = gin.deals.get(number=1)
    points_deal = points.deals.get()
    player = ok.seats.get(position=0).player
    p = {
        # The table's pages
        "home": Page(reverse("table:home")),
        "new game": Page(reverse("table:new_game")),
        "new game, Gin": Page(reverse("table:new_game") + "?game=oklahoma-gin"),
        "table": Page(reverse("table:table", args=[table.pk])),
        "join": Page(reverse("table:join", args=[scene["follow"].token]), stranger=True),
        "join, a dead link": Page(reverse("table:join", args=["no-such-token"]), stranger=True, status=404),
        "game": Page(reverse("table:game", args=[ok.pk])),
        "game, Gin": Page(reverse("table:game", args=[gin.pk])),
        "deal": Page(reverse("table:deal", args=[ok.pk, deal.pk])),
        "deal, Gin": Page(reverse("table:deal", args=[gin.pk, gin_deal.pk])),
        "deal entry": Page(reverse("table:deal_new", args=[ok.pk])),
        "deal entry, Gin": Page(reverse("table:deal_new", args=[gin.pk])),
        "edit": Page(reverse("table:deal_edit", args=[ok.pk, deal.pk])),
        "delete": Page(reverse("table:deal_delete", args=[ok.pk, deal.pk])),
        "offline": Page(reverse("table:offline")),
        # Points only: the form, the deal, its edit, the game that has it
        "points only": Page(reverse("table:deal_points", args=[ok.pk])),
        "points only, game": Page(reverse("table:game", args=[points.pk])),
        "points only, deal": Page(reverse("table:deal", args=[points.pk, points_deal.pk])),
        "points only, edit": Page(reverse("table:deal_edit", args=[points.pk, points_deal.pk])),
        "points only, review": Page(reverse("history:review", args=[points.pk])),
        "points only, changes": Page(reverse("history:changes", args=[points.pk])),
        # Own hands: the open deal on the game page (the scorer's, a seated phone's, a phone at no
        # seat), its live part, each player's hand (sent, not yet sent, Gin)
        "own, game (scorer)": Page(reverse("table:game", args=[own.pk])),
        "own, game (Ben's phone)": Page(reverse("table:game", args=[own.pk]), by=ben),
        "own, game (no seat)": Page(reverse("table:game", args=[own.pk]), by=scene["zoe"]),
        "own, open status": Page(reverse("table:open_status", args=[own.pk]), by=ben),
        "own, Ann's hand": Page(reverse("table:hand", args=[own.pk, 0]), by=ann),
        "own, Ben's hand": Page(reverse("table:hand", args=[own.pk, 1]), by=ben),
        "own Gin, game": Page(reverse("table:game", args=[own_gin.pk]), by=ben),
        "own Gin, open status": Page(reverse("table:open_status", args=[own_gin.pk]), by=ann),
        "own Gin, Ann's hand": Page(reverse("table:hand", args=[own_gin.pk, 0]), by=ann),
        "own Gin, Ben's hand": Page(reverse("table:hand", args=[own_gin.pk, 1]), by=ben),
        # History: the games, players, a review (in pages), changes, rescoring, import
        "games": Page("/history/"),
        "games of Ann": Page("/history/?player=Ann"),
        "players": Page("/players/"),
        "player": Page(f"/players/{player.pk}/"),
        "review": Page(f"/history/{ok.pk}/"),
        "review, Gin": Page(f"/history/{gin.pk}/"),
        "review, page 1": Page(f"/history/{long.pk}/"),
        "review, page 2": Page(f"/history/{long.pk}/?page=2"),
        "changes": Page(f"/history/{ok.pk}/changes/"),
        "rescore": Page(f"/history/{ok.pk}/rescore/"),
        "rescore, laws": Page(f"/history/{ok.pk}/rescore/?profile=laws"),
        "rescore, Gin classic": Page(f"/history/{gin.pk}/rescore/?profile=classic"),
        "import": Page("/history/import/"),
        # Rule books and the checker
        "rules": Page("/rules/"),
        "rule book of a game": Page(f"/games/{ok.pk}/rules/"),
        "rule book, Hollywood": Page("/rules/oklahoma-gin/standard/book/?hollywood=true"),
        "rule book, Gin party to 150": Page("/rules/oklahoma-gin/party/book/?target=150"),
        "checker": Page("/check/"),
        # Errors
        "404": Page("/no/such/page/", status=404),
        "403": Page(reverse("table:hand", args=[own.pk, 0]), by=ben, status=403),
    }
    for game in profiles.GAMES:
        for profile in profiles.PROFILES[game]:
            p[f"rule book, {game} {profile}"] = Page(f"/rules/{game}/{profile}/book/")
    for query in CHECKS:
        p[f"checker, {query}"] = Page(f"/check/?{query}")
        p[f"checker, {query} (htmx)"] = Page(f"/check/?{query}", headers={"HX-Request": "true"})
    for label, game in scene["hollywood"].items():
        last = game.deals.order_by("number").last()
        p[f"Hollywood {label}"] = Page(reverse("table:game", args=[game.pk]))
        p[f"Hollywood {label}, a deal"] = Page(reverse("table:deal", args=[game.pk, last.pk]))
        p[f"Hollywood {label}, review"] = Page(f"/history/{game.pk}/")
    return p


def refused(scene: dict[str, Any]) -> dict[str, Page]:
    """Forms sent with errors: each error beside its field, in German."""
    table, ok, gin, own, own_gin = (scene[k] for k in ("table", "ok", "gin", "own", "own_gin"))
    ann, ben, _ = scene["phones"]
    scorer = table.devices.order_by("pk").first()
    points_form = hidden(phone(scorer, "en").get(reverse("table:deal_points", args=[ok.pk])).content.decode())
    ben_hand = hidden(phone(ben, "en").get(reverse("table:hand", args=[own_gin.pk, 1])).content.decode())
    return {
        "deal, refused": Page(
            reverse("table:deal_new", args=[ok.pk]),
            data={**ok_post(OK_SMALL), "p-0-held": "8S ZZ", "out": ""},
            status=400,
        ),
        "deal, refused melds": Page(
            reverse("table:deal_new", args=[ok.pk]),
            data={**ok_post(OK_BIG), "p-1-melds": "5S 6S 8S", "p-2-held": "QX"},
            status=400,
        ),
        "gin deal, refused": Page(
            reverse("table:deal_new", args=[gin.pk]), data={**gin_post(GIN_BIG), "upcard": "9S 9H"}, status=400
        ),
        "new game, refused": Page(
            reverse("table:new_game"),
            data={"game": "oklahoma", "profile": "book", "seat_0": "Ann", "seat_2": "Cy"},
            status=400,
        ),
        "points only, refused": Page(
            reverse("table:deal_points", args=[ok.pk]),
            data={**points_form, "points_0": "12x", "points_1": "", "points_2": "99999999"},
            status=400,
        ),
        "own Gin, Ben's hand checked with Ann's": Page(
            reverse("table:hand", args=[own_gin.pk, 1]),
            by=ben,
            data={**ben_hand, "action": "preview", "knocker": "1", "p-1-cards": "KH 6S 7S JD JC JS AS 2D 3C AC"},
            headers={"HX-Request": "true"},
        ),
        "403, a phone at no table": Page("/history/import/", data={}, stranger=True, status=403),
        "own, a stale hand": Page(
            reverse("table:hand", args=[own.pk, 0]),
            by=ann,
            data={
                **hidden(phone(ann, "en").get(reverse("table:hand", args=[own.pk, 0])).content.decode()),
                "action": "save",
                "submission": "x" * 24,
                "p-0-held": "9C",
                "version": "0",
            },
            status=409,
        ),
    }


# A card printed with the record's letters (Q♠, 2♣=J♥) or ranks listed so ("K Q J", "K, Q, J"): a
# German page writes D♠, B♥, "K D B" (RULES.md §4).
RECORD_LETTERS = re.compile(r"(?<![0-9A-Za-z])[JQ][♠♥♦♣]|\bK,? Q,? J\b|\bQ-K-A\b")
# A negative number written with an ASCII hyphen (-85): a page writes −85, in either language.
HYPHEN_MINUS = re.compile(r"(?<![\w–-])-\d+")


def test_every_page_in_german_shows_none_of_its_english(scene):
    """None of its English, and its cards in German letters: chips, score lines, the rule book, the
    checker, the field checks, errors and the change history alike. A negative number, in either
    language, with a true minus sign (the SVG chart's labels too)."""
    table = scene["table"]
    left, letters, minus = {}, {}, {}
    for label, page in {**pages(scene), **refused(scene)}.items():
        english_page, german_page = page.fetch(table, "en"), page.fetch(table, "de")
        if "<html" in english_page:
            assert '<html lang="de"' in german_page, label
        found = english_left(english_page, german_page)
        if found:
            left[label] = found
        if RECORD_LETTERS.search(visible(german_page)):
            letters[label] = sorted(set(RECORD_LETTERS.findall(visible(german_page))))
        hyphens = HYPHEN_MINUS.findall(visible(german_page) + visible(english_page))
        if hyphens:
            minus[label] = sorted(set(hyphens))
    assert not left, json.dumps(left, indent=1, ensure_ascii=False)
    assert not letters, json.dumps(letters, indent=1, ensure_ascii=False)
    assert not minus, json.dumps(minus, indent=1, ensure_ascii=False)  # −85, a true minus sign


def test_a_strangers_403_says_this_phone_is_at_no_table(scene):
    """A phone at no table that tries what only a table's phone may (an import) is told why: it
    belongs to no table. Nobody took scoring from it; a follower's 403 still says that."""
    record = io.BytesIO(b"[]")
    said = {}
    for language in ("de", "en"):
        client = phone(None, language)
        refused_import = client.post("/history/import/", {"file": record})
        assert refused_import.status_code == 403
        said[language] = visible(refused_import.content.decode())
    assert "Dieses Handy ist an keinem Tisch" in said["de"] and "gehört noch zu keinem Tisch" in said["de"]
    assert "This phone is at no table" in said["en"] and "belongs to no table" in said["en"]
    for page in said.values():
        assert "Zuschauer gemacht" not in page and "made it follow" not in page
    follower = visible(phone(scene["zoe"], "de").post("/history/import/", {"file": record}).content.decode())
    assert "Auf diesem Handy nicht erlaubt" in follower and "keinem Tisch" not in follower


def test_the_error_pages_403_and_429_in_german(scene):
    """The CSRF refusal and a client over its limit (its address's, its phone's): the pages say it in
    German."""
    games = scene["table"].games.count()
    csrf = {}
    for language in ("en", "de"):
        client = Client(enforce_csrf_checks=True)
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        csrf[language] = client.post("/games/new/", {"game": "oklahoma"})
    assert csrf["en"].status_code == csrf["de"].status_code == 403
    assert not english_left(csrf["en"].content.decode(), csrf["de"].content.decode())
    limit = limits.TABLES
    window = int(time.time() // limit.seconds)
    scorer = scene["table"].devices.get(role=Role.SCORE)
    for by, key, most in (("address", "a:10.9.9.9", limit.address), ("phone", f"p:{scorer.pk}", limit.phone)):
        answers = {}
        for language in ("en", "de"):
            caches[limits.CACHE].set(f"{limit.name}:{key}:{window}", most, timeout=limit.seconds)
            client = Client(REMOTE_ADDR="10.9.9.9" if by == "address" else "10.9.9.8")
            client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
            if by == "phone":
                as_phone(client, scorer)
            answers[language] = client.post("/games/new/", {"game": "oklahoma"})
        assert answers["en"].status_code == answers["de"].status_code == 429, by
        german = answers["de"].content.decode()
        assert '<html lang="de"' in german and f"from this {by}" in answers["en"].content.decode()
        assert not english_left(answers["en"].content.decode(), german)
    assert not Table.objects.exclude(pk=scene["table"].pk).exists()
    assert scene["table"].games.count() == games


# ------------------------------------------------------------------ the table's pages


def test_the_scripts_words_are_german_on_a_german_page(client):
    english_words = words()
    with translation.override("de"):
        german = words()
    assert german.keys() == english_words.keys()
    same = {k for k in english_words if english_words[k] == german[k]}
    assert same == {"joker", "letter.A", "letter.K"}, same  # the Joker is a Joker in German too, A and K too
    assert (german["letter.J"], german["letter.Q"]) == ("B", "D")  # the picker's keys and the alone's chips
    assert german["card"].format(rank=german["rank.Q"], suit=german["suit.S"]) == "Pik-Dame"
    assert german["card"].format(rank="10", suit=german["suit.H"]) == "Herz-10"
    assert english_words["card"].format(rank=english_words["rank.Q"], suit=english_words["suit.S"]) == "queen of spades"
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
    with translation.override("de"):
        typed = typed_ranks()
    with translation.override("en"):
        assert typed_ranks() == {}
    assert typed == {"B": "J", "D": "Q"}

    def german_card(token: str) -> str:
        return typed_card(token, typed)

    assert german_card("DS") == "QS" and german_card("bh") == "Jh" and german_card("D♠") == "Q♠"
    assert german_card("DD") == "QD" and german_card("KD") == "KD" and german_card("10D") == "10D"
    assert german_card("2C=DH") == "2C=QH" and german_card("JK=BS") == "JK=JS" and german_card("D") == "D"
    card_field = CardListField(wild=True)
    with translation.override("de"):
        assert card_field.clean("DS BH KD AC 2C=DH dd") == ["QS", "JH", "KD", "AC", "2C=QH", "QD"]
        with pytest.raises(ValidationError) as caught:
            card_field.clean("DS ZZ")
        assert caught.value.messages == [
            "„ZZ“ ist keine Karte: die Farbe muss S, H, D oder C sein (S = Pik, H = Herz, D = Karo, C = Kreuz)"
        ]
    with translation.override("en"), pytest.raises(ValidationError):
        card_field.clean("DS")  # the record's notation only: "DS" is no card on an English page


def test_a_german_page_writes_its_cards_with_german_letters(client, table):
    """K D B, the queen of spades "Pik-Dame (D♠)": the deal's chips and score lines, a field's live
    check and its fixes, an error's cards, the change history's upcard; the English page as it was."""
    game = new_game(table, deals=[ok_record_deal(OK_BIG, NAMES)], first_dealer=0)
    deal = reverse("table:deal", args=[game.pk, game.deals.get().pk])
    client.cookies["django_language"] = "de"
    german = html.unescape(client.get(deal).content.decode())
    assert '<span class="card">D♠</span>' in german and '<span class="card">Q♠</span>' not in german
    assert "D♠ ausgelegt" in visible(german) and "Pik-Dame (D♠) ausgelegt zählt 50" in german
    assert "K D B 10 9 8 ausgelegt zählen 10" in german
    url = reverse("table:deal_new", args=[game.pk])
    check = client.post(url, {"action": "preview", "p-0-melds": "DH 2C JK"}, headers={"HX-Request": "true"})
    checked = visible(html.unescape(check.content.decode()))
    assert "D♥ 2♣ JK kann ein Satz Damen (120) oder die Folge D♥–A♥ (130) sein" in checked
    assert "2♣=D♥ JK=D♥" in checked and not RECORD_LETTERS.search(checked)  # the fixes offered, in German
    client.cookies["django_language"] = "en"
    english = html.unescape(client.get(deal).content.decode())
    assert '<span class="card">Q♠</span>' in english and "Q♠ melded scores 50" in english
    gin = new_game(table, kind="oklahoma-gin", profile="standard", players=["Ann", "Ben"])
    deal_services.add_deal(game=gin, deal=gin_record_deal({**GIN_KNOCK, "upcard": "QH"}, ["Ann", "Ben"]))
    client.cookies["django_language"] = "de"
    changes = visible(html.unescape(client.get(f"/history/{gin.pk}/changes/").content.decode()))
    assert "Startkarte ¦ D♥" in changes


# The words a German table trips on (issue 38), each as the German catalogs must not say it any more.
NOT_SAID = {
    r"Gebefehler|Fehlgeben": "a misdeal is „vergeben“",
    r"ungültiges Spiel|Spiel ist ungültig": "a void hand is „annulliert (zählt nicht)“",
    r"Unterboten worden": "„Unterbietungen erlitten“",
    r"die wenigsten gewinnen|der niedrigste Stand gewinnt": "„wer am wenigsten hat, gewinnt“",
    r"gibt als Nächstes|gibt als Nächster\b": "„gibt als Nächste(r)“, „Als Nächstes gibt: Ann“",
    r"Partie #": "one form: „Partie Nr. 1“",
    r"Regelsatz|Regelsätze|Aufzeichnung": "one word: „Regelwerk“, „Partieprotokoll“",
    r"(?<!Partie)(?<!Partie-)\bProtokoll": "one word: „Partieprotokoll“",
    r"Karten gemeldet": "„Big Gin (11 Karten ausgelegt)“",
    r"aus der Hand ausgemacht": "going out concealed is „Hand-Rommé“",
    r"\bein Rückgängig\b": "„Rückgängig“ is no noun",
    r"Bitte gültig wählen": "Django's own „Bitte eine gültige Auswahl treffen“",
    r"\b(du|dein\w*|Deine?\w*|dich|dir)\b|Versuch es|\bSieh\b|\bTippe\b": "one voice: the infinitive",
}


def test_the_german_catalogs_say_each_thing_as_a_german_table_does():
    found: dict[str, list[str]] = {}
    for path in CATALOGS:
        for e in polib.pofile(str(path)):
            for said in [e.msgstr, *e.msgstr_plural.values()]:
                for wrong, why in NOT_SAID.items():
                    if re.search(wrong, said):
                        found.setdefault(why, []).append(said)
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)


def test_who_did_it_comes_first_and_zero_is_not_news(client, table):
    """ "Ann hat ausgemacht · Ann hat gegeben", never "hat ausgemacht (Ann)" or "went out (Ann)"; the
    side column only beside a player who has one, named; its score line says "Nebenspalte" once."""
    concealed = {**ok_record_deal(OK_BIG, NAMES), "concealed": True}
    game = new_game(table, players=NAMES, first_dealer=0, deals=[concealed, ok_record_deal(OK_SMALL, NAMES)])
    deal = reverse("table:deal", args=[game.pk, game.deals.get(number=1).pk])
    urls = (reverse("table:game", args=[game.pk]), deal, f"/history/{game.pk}/", f"/history/{game.pk}/changes/")
    said = {}
    for language in ("de", "en"):
        client.cookies["django_language"] = language
        said[language] = [visible(html.unescape(client.get(url).content.decode())) for url in urls]
    (board, deal_de, review, changes), (board_en, deal_en, review_en, changes_en) = said["de"], said["en"]
    assert "Ann hat ausgemacht" in board and "Ben hat ausgemacht" in board and "Ann hat gegeben" in board
    assert "Ann hat ausgemacht · Ann hat gegeben · als Nächstes gibt: Ann" in deal_de
    assert "Runde 1: Ann hat ausgemacht ¦" in review and "Ann hat ausgemacht" in changes
    assert "Als Nächstes gibt: ¦ Ben" in board and "gibt als Nächste(r)" in board
    assert "Ann went out" in board_en and "Ann went out · dealt by Ann · next dealer Ann" in deal_en
    assert "Deal 1: Ann went out ¦" in review_en and "Ann went out" in changes_en
    for page in (*said["de"], *said["en"]):
        assert not re.search(r"\((Ann|Ben|Cleo)\)", page)
        assert not re.search(r"¦ (hat ausgemacht|went out) ¦ (Ann|Ben|Cleo) ¦", page)
    assert board.count("Hand-Rommé, extra") == 1 and "+250 Hand-Rommé, extra" in board and "+0" not in board
    assert board_en.count("concealed, extra") == 1 and "+250 concealed, extra" in board_en
    line = next(x for x in deal_de.split(" ¦ ") if "Nebenspalte" in x)
    assert line == "Hand-Rommé (Nebenspalte, zählt nicht zum Ziel)"
    assert all(x.count("Nebenspalte") <= 1 for x in review.split(" ¦ "))


def test_the_words_of_a_gin_hand_and_its_deadwood(client, table):
    """A Gin hand is a "Runde" on the pages, a void one "annulliert (zählt nicht)"; deadwood's cards
    are "Restkarten", their count "Restpunkte"; big gin is "11 Karten ausgelegt"; the games list's
    column of states is "Status"."""
    gin = new_game(table, kind="oklahoma-gin", profile="standard", players=["Ann", "Ben"])
    deal_services.add_deal(game=gin, deal=gin_record_deal(GIN_KNOCK, ["Ann", "Ben"]))
    deal_services.add_deal(game=gin, deal={"upcard": "5C", "knocker": None, "hands": {}})
    client.cookies["django_language"] = "de"
    first = visible(client.get(reverse("table:deal", args=[gin.pk, gin.deals.get(number=1).pk])).content.decode())
    assert re.search(r"Restkarten \(Restpunkte: \d+\)", first)
    board = visible(client.get(reverse("table:game", args=[gin.pk])).content.decode())
    assert "annulliert (zählt nicht)" in board and "Spiel" not in board.replace("Spieler", "")
    entry = visible(client.get(reverse("table:deal_new", args=[gin.pk])).content.decode())
    assert "Big Gin (11 Karten ausgelegt)" in entry and "Runde annulliert (zählt nicht)" in entry
    games = visible(client.get("/history/").content.decode())
    assert "¦ Status ¦" in games and "¦ Stand ¦" not in games


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
    refused_deal = client.post(url, {**ok_post(OK_SMALL), "p-0-held": "8X", "out": ""})
    page = html.unescape(refused_deal.content.decode())
    beside = page.split('id="id_p-0-held_box"')[1].split("</fieldset>")[0]
    assert "„8X“ ist keine Karte" in beside
    assert "Angeben, wer ausgemacht hat oder dass der Talon aufgebraucht ist." in page


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
        english_banner = Command()._banner("http://192.0.2.7:8000/", ["192.0.2.7"], 8000, https=False)
    assert "Press Ctrl-C to stop." in english_banner


def test_the_live_page_of_each_language_is_its_own(client, table, scorer):
    game = new_game(table, first_dealer=0)
    url = reverse("table:game", args=[game.pk])
    english_page = client.get(url)
    client.cookies["django_language"] = "de"
    german = client.get(url)
    assert english_page["ETag"] != german["ETag"] and "-de-" in german["ETag"] and "-en-" in english_page["ETag"]
    # the German phone's validator is not the English page's: a German phone gets the German page
    again = client.get(url, headers={"If-None-Match": english_page["ETag"]})
    assert again.status_code == 200 and "Runden" in again.content.decode()
    follower = as_phone(Client(), table.devices.create(name="Zoe", role=Role.FOLLOW))
    follower.cookies["django_language"] = "de"
    assert "Noch keine Runden." in follower.get(url).content.decode()


# ------------------------------------------------------------------ history, rule book, checker


@pytest.fixture
def games(table):
    return two_games(table)


def test_the_lists_the_game_pages_and_the_charts_write_numbers_and_times_as_german_does(table, games):
    ok, _ = games
    scorer = table.devices.get()
    german = phone(scorer, "de")
    german.cookies["tz"] = "Europe/Berlin"
    review = german.get(f"/history/{ok.pk}/").content.decode()
    assert "Punktestand im Verlauf" in review and "Ziel 1.000" in review  # the chart's target line
    listing = german.get("/history/").content.decode()
    written = r'<time\s+datetime="\d{4}-\d\d-\d\dT[^"]+" data-format="[^"]+">\d+\. \w+\.? \d{4}, \d\d:\d\d</time>'
    assert re.search(written, listing)
    english_review = phone(scorer, "en").get(f"/history/{ok.pk}/").content.decode()
    assert "target 1,000" in english_review


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


def test_house_options_and_rule_sets_by_their_names_not_their_codes(table, games):
    """The game header says each house option by its name and value (English too), the games list
    each rule set by its title: never "out_bonus 150", "hollywood True" or "book"."""
    ok, _ = games
    ok.options = {"out_bonus": 150, "target": 1500}
    ok.save(update_fields=["options"])
    hollywood = hollywood_game(table, deals=HOLLYWOOD["deals"][:1])
    scorer = table.devices.get()
    said = {}
    for language in ("de", "en"):
        client = phone(scorer, language)
        said[language] = [
            visible(client.get(reverse("table:game", args=[g.pk])).content.decode()) for g in (ok, hollywood)
        ]
        said[language].append(visible(client.get("/history/").content.decode()))
    (de_ok, de_hollywood, de_list), (en_ok, en_hollywood, en_list) = said["de"], said["en"]
    assert "Regeln: Buch · bis 1.500 · Hausregeln: Ausmachbonus 150 ¦" in de_ok
    assert "Book rules · to 1500 · house options: going-out bonus 150 ¦" in en_ok
    assert "Hausregeln: Hollywood (drei Spalten) ja ¦" in de_hollywood
    assert "house options: hollywood (three columns) yes ¦" in en_hollywood
    for page in (de_ok, de_hollywood, en_ok, en_hollywood):
        assert not re.search(r"out_bonus|hollywood True|target \d", page)
    assert "¦ Buchregeln · 2 Runden · läuft · begonnen ¦" in de_list and "¦ Standard · 2 Runden" in de_list
    assert "¦ Book rules · 2 deals · in progress · started ¦" in en_list
    assert not re.search(r"¦ (book|standard) ·", de_list + en_list)


def test_the_csv_speaks_the_phones_language_and_keeps_the_records_codes(table, games):
    """Names, not codes: the game, rule set, house options, outcome and state by their names in the
    phone's language, the record's codes in columns of their own, the numbers plain."""
    ok, _ = games
    ok.options = {"out_bonus": 150}
    ok.save(update_fields=["options"])
    scorer = table.devices.get()
    for url in (f"/history/{ok.pk}/export.csv", "/history/export.csv"):  # a download, a stream
        german = list(csv.reader(io.StringIO(body(phone(scorer, "de").get(url)).decode())))
        english_rows = list(csv.reader(io.StringIO(body(phone(scorer, "en").get(url)).decode())))
        assert english_rows[0] == [
            "game_id", "game", "profile", "options", "deal", "outcome",
            "player", "seat", "points", "total", "state", "winner",
            "game_code", "profile_code", "options_code", "outcome_code", "state_code",
        ]  # fmt: skip
        assert german[0] == [
            "partie_nr", "spiel", "regeln", "hausregeln", "runde", "ausgang",
            "spieler", "platz", "punkte", "punktestand", "status", "sieger",
            "spiel_code", "regeln_code", "hausregeln_code", "ausgang_code", "status_code",
        ]  # fmt: skip
        row = next(r for r in german if r[0] == str(ok.pk))
        assert row[1:4] == ["Oklahoma", "Buchregeln", "Ausmachbonus 150"] and row[5] == "hat ausgemacht"
        assert row[10] == "läuft" and row[12:] == ["oklahoma", "book", '{"out_bonus": 150}', "out", "in_progress"]
        english_row = next(r for r in english_rows if r[0] == str(ok.pk))
        assert english_row[1:4] == ["Oklahoma", "Book rules", "going-out bonus 150"] and english_row[5] == "went out"
        # the same data: the numbers and the codes alike
        keep = [0, 4, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16]
        assert [[r[k] for k in keep] for r in german[1:]] == [[r[k] for k in keep] for r in english_rows[1:]]
    record = body(phone(scorer, "de").get(f"/history/{ok.pk}/export.json")).decode()
    assert '"format"' in record and "Runde" not in record  # the record is never translated


# Paragraphs whose German is their English: notation and names only.
SAME_PARAGRAPHS: set[str] = set()


@pytest.mark.parametrize("game, profile", [(g, p) for g in profiles.GAMES for p in profiles.PROFILES[g]])
def test_every_paragraph_and_worked_example_of_the_rule_book_is_german(game, profile):
    book = rulebook.book(game, profile)
    with translation.override("en"):
        english_book: dict[str, list] = {
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
    same = [en for en, de in zip(english_book["paragraphs"], paragraphs, strict=True) if en == de]
    assert not [p for p in same if p not in SAME_PARAGRAPHS], same
    for (en_title, en_text), (de_title, de_text) in zip(english_book["examples"], examples, strict=True):
        assert (en_title != de_title or not english(en_title)) and en_text != de_text, (en_title, en_text)
    for en_value, de_value in zip(english_book["values"], values, strict=True):
        if "," in en_value and en_value.replace(",", "").lstrip("−").isdigit():
            assert de_value == en_value.replace(",", ".")  # 1,000 is 1.000
        if en_value in ("yes", "no"):
            assert de_value == {"yes": "ja", "no": "nein"}[en_value]
    with translation.override("en"):
        assert [p.text for s in book.sections for p in s.paragraphs] == english_book["paragraphs"]


def test_the_rule_book_page_in_german_then_english_from_one_cached_book(table):
    scorer = table.devices.get()
    german = phone(scorer, "de").get("/rules/oklahoma/book/book/").content.decode()
    english_page = phone(scorer, "en").get("/rules/oklahoma/book/book/").content.decode()
    assert "Die Regeln" in german and "1.000" in german and "Zwei Kartenspiele" in german
    assert "The rules" in english_page and "1,000" in english_page and "Two packs of 52 cards" in english_page
    assert "Zwei Kartenspiele" not in english_page and "Two packs of 52 cards" not in german


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
        english_page = en.get(f"/check/?{query}", headers={"HX-Request": "true"}).content.decode()
        head_de = re.search(r'class="headline[^"]*">(.*?)</p>', german, re.S)
        head_en = re.search(r'class="headline[^"]*">(.*?)</p>', english_page, re.S)
        assert head_de and head_en
        assert visible(head_de.group(1)) != visible(head_en.group(1)), query
        assert "Das Regelbuch dieser Regeln" in german and "The rule book of these rules" not in german
        if "The rules that decide it" in english_page:
            assert "Die entscheidenden Regeln" in german and "The rules that decide it" not in german
    german = visible(de.get("/check/?kind=meld&cards=QS+QH+2C%3DQD").content.decode())
    assert "Gültige Meldung (Satz)" in german
    german = visible(de.get("/check/?kind=knock&upcard=7S&cards=3C+4C+5C+9D+9H+9S+JH+QH+KH+2S").content.decode())
    assert "Pik-Startkarte" in german or "Pik als Startkarte" in german
