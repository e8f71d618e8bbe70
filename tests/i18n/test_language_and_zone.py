"""Every phone in its own language and time zone (scorekeeper/i18n.py): the language from the switch or
the browser, the engine's messages in it, German numbers, and times in the phone's own zone."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorekeeper.i18n import TZ_COOKIE, zone_named
from scorekeeper.rules.errors import RecordError
from scorekeeper.rules.messages import N_, msg, nmsg
from scorekeeper.table.models import Game
from scorekeeper.table.text import error_text
from tests.conftest import as_phone, new_game

pytestmark = pytest.mark.django_db


def lang_of(body: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', body)
    assert found, "no <html lang>"
    return found.group(1)


def test_the_browsers_language_chooses_the_page_language(client):
    assert lang_of(client.get("/").content.decode()) == "en"
    assert lang_of(client.get("/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9,en;q=0.5").content.decode()) == "de"
    assert lang_of(client.get("/", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9").content.decode()) == "en"


def test_the_switch_is_remembered_by_the_phone_over_its_browser(client):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'name="language" value="en"' in page  # a German page offers English, and the other way round
    response = client.post(reverse("set_language"), {"language": "en", "next": "/rules/"})
    assert response.status_code == 302 and response["Location"] == "/rules/"
    assert lang_of(client.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()) == "en"
    client.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert lang_of(client.get("/").content.decode()) == "de"


def test_a_tampered_switch_changes_nothing(client):
    client.post(reverse("set_language"), {"language": "xx", "next": "https://evil.example/"})
    assert lang_of(client.get("/").content.decode()) == "en"
    response = client.post(reverse("set_language"), {"language": "de", "next": "https://evil.example/"})
    assert response.status_code == 302 and "evil" not in response["Location"]


def test_messages_render_in_the_language_in_force():
    line = nmsg("{n} point", "{n} points", 3)
    assert str(line) == "3 points"
    with translation.override("de"):
        assert str(line) == "3 Punkte"
        assert str(nmsg("{n} point", "{n} points", 1)) == "1 Punkt"
    assert str(line) == "3 points"  # English again once the language is no longer in force


def test_numbers_are_grouped_as_the_language_groups_them():
    reached = msg("reached {target:,}", target=1075)
    assert reached.render() == "reached 1,075"
    with translation.override("de"):
        assert "1.075" in str(reached)
    with translation.override("en"):
        assert str(reached) == "reached 1,075"


@pytest.mark.django_db
def test_a_house_option_in_the_change_history_groups_its_number_as_the_language_does(table):
    """The rules a change names ("Book rules with target 1,000"): 1,000 in English, 1.000 in German."""
    from scorekeeper.table.changes import _rules_text

    game = new_game(table, kind="oklahoma", profile="book")
    rules = {"profile": "book", "options": {"target": 1000}}
    with translation.override("en"):
        assert _rules_text(game, rules).endswith(" 1,000")
    with translation.override("de"):
        assert _rules_text(game, rules).endswith(" 1.000")


def test_a_zone_cookie_is_taken_only_when_it_names_a_zone():
    assert zone_named("Europe/Berlin") is not None
    for bad in ("", "Mars/Olympus", "../../etc/passwd", "x" * 200, None):
        assert zone_named(bad) is None


def test_the_same_change_at_each_phones_own_time(client, table):
    game: Game = new_game(table)
    game.updated = datetime(2026, 11, 26, 5, 0, tzinfo=UTC)
    Game.objects.filter(pk=game.pk).update(updated=game.updated)
    chicago, berlin = as_phone(Client(), table.devices.get()), as_phone(Client(), table.devices.get())
    chicago.cookies[TZ_COOKIE] = "America/Chicago"
    berlin.cookies[TZ_COOKIE] = "Europe/Berlin"
    berlin.cookies["django_language"] = "de"
    assert "25 Nov, 23:00" in chicago.get(reverse("table:table", args=[table.pk])).content.decode()
    assert "26. Nov., 06:00" in berlin.get(reverse("table:table", args=[table.pk])).content.decode()
    tampered = as_phone(Client(), table.devices.get())
    tampered.cookies[TZ_COOKIE] = "Nowhere/Else"
    # a zone that is none: the server's, UTC
    assert "26 Nov, 05:00" in tampered.get(reverse("table:table", args=[table.pk])).content.decode()


def test_the_zone_is_taken_as_the_browser_writes_it(table):
    # static/app.js writes the cookie with encodeURIComponent: "America%2FChicago"
    game: Game = new_game(table)
    Game.objects.filter(pk=game.pk).update(updated=datetime(2026, 11, 26, 5, 0, tzinfo=UTC))
    chicago = as_phone(Client(), table.devices.get())
    chicago.cookies[TZ_COOKIE] = "America%2FChicago"
    assert "25 Nov, 23:00" in chicago.get(reverse("table:table", args=[table.pk])).content.decode()


def test_an_error_cites_its_rule_in_the_pages_language():
    error = RecordError(message=msg("not a meld"), rule=N_("sequence: in order"), source="S0; S1 laws 7, 11")
    with translation.override("de"):
        assert error_text(error).endswith("— Folge: lückenlos, S0; S1 Regeln 7, 11")
    with translation.override("en"):
        assert error_text(error).endswith("— sequence: in order, S0; S1 laws 7, 11")
