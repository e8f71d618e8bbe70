"""Reads never write (issue 8): every page a GET shows works on a database that refuses writes.

While the pages are requested, every SQL statement that would write (INSERT, UPDATE, DELETE, ...)
fails, and on SQLite the connection is made read-only as well (``PRAGMA query_only``). ``make
test`` runs this on SQLite and on PostgreSQL."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.utils import timezone

from scorekeeper.history import services as history_services
from scorekeeper.server import startup
from scorekeeper.table.models import Game, Player, Submission
from scorekeeper.table.phones import services as phone_services
from scorekeeper.table.scoring import deals as deal_services
from scorekeeper.table.scoring import engine
from tests.app_data import GIN_BIG, GIN_KNOCK, OK_BIG, OK_SMALL, gin_record_deal, ok_post, ok_record_deal
from tests.conftest import NAMES, as_phone, body
from tests.faults import refusing_writes

pytestmark = pytest.mark.django_db

WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE|CREATE|ALTER|DROP|TRUNCATE|MERGE|COPY)\b", re.IGNORECASE)


class Write(Exception):
    """A page tried to write to the database."""


@contextmanager
def read_only() -> Iterator[list[str]]:
    """The database refuses every write while inside; yields the statements that tried."""
    tried: list[str] = []

    def refuse(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if WRITE.match(sql):
            tried.append(sql)
            raise Write(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(refuse):
        if connection.vendor == "sqlite":
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA query_only = ON")
        try:
            yield tried
        finally:
            if connection.vendor == "sqlite":
                with connection.cursor() as cursor:
                    cursor.execute("PRAGMA query_only = OFF")


@pytest.fixture
def games(make_game, scorer):
    ok = make_game(
        kind="oklahoma",
        profile="book",
        players=NAMES,
        first_dealer=0,
        deals=[ok_record_deal(d, NAMES) for d in (OK_BIG, OK_SMALL)],
    )
    gin = make_game(
        kind="oklahoma-gin",
        profile="standard",
        players=["Ann", "Ben"],
        deals=[gin_record_deal(d, ["Ann", "Ben"]) for d in (GIN_KNOCK, GIN_BIG)],
    )
    second = ok.deals.get(number=2)
    deal_services.edit_deal(game=ok, deal_id=second.pk, version=1, deal=ok_record_deal(OK_BIG, NAMES), by=scorer)
    deal_services.delete_deal(game=gin, deal_id=gin.deals.get(number=2).pk, version=None, by=scorer)
    deal_services.switch_rules(game=ok, profile="laws", options={}, by=scorer)
    return ok, gin


def pages(ok, gin, link_token: str) -> list[str]:
    ann = Player.objects.get(name="Ann")
    urls = [
        "/",
        "/games/new/",
        "/games/new/?game=oklahoma-gin",
        "/history/",
        "/history/?player=ann&game=oklahoma&state=in_progress&page=1",
        "/history/export.json",
        "/history/export.csv",
        "/history/import/",
        "/players/",
        f"/players/{ann.pk}/",
        "/rules/",
        "/rules/oklahoma/book/",
        "/rules/oklahoma-gin/standard/",
        "/check/",
        "/check/?kind=meld&cards=QS+QH+2C%3DQD&profile=book",
        "/check/?kind=knock&upcard=7S&cards=3C+4C+5C+9D+9H+9S+JH+QH+KH+2S",
        f"/join/{link_token}/",
        "/admin/login/",
        f"/tables/{ok.table_id}/",
        "/manifest.webmanifest",
    ]
    for game in (ok, gin):
        deal = game.deals.order_by("number").first()
        urls += [
            f"/games/{game.pk}/",
            f"/games/{game.pk}/deals/new/",
            f"/games/{game.pk}/deals/{deal.pk}/",
            f"/games/{game.pk}/deals/{deal.pk}/edit/",
            f"/games/{game.pk}/deals/{deal.pk}/delete/",
            f"/history/{game.pk}/",
            f"/history/{game.pk}/changes/",
            f"/history/{game.pk}/changes/?deal={deal.pk}",
            f"/history/{game.pk}/rescore/",
            f"/history/{game.pk}/rescore/?profile=book&deal=1",
            f"/history/{game.pk}/export.json",
            f"/history/{game.pk}/export.csv",
        ]
    return urls


def test_every_page_works_on_a_read_only_database(client, games, table, scorer, follower):
    ok, gin = games
    link = phone_services.create_link(table=table, role="follow", by=scorer)
    urls = pages(ok, gin, str(link.token))
    phones = {"scorer": client, "follower": as_phone(Client(), follower), "stranger": Client()}
    for phone in phones.values():
        phone.get("/")  # the CSRF cookie, as a browser has it after its first page
    with read_only() as tried:
        for who, phone in phones.items():
            for url in urls:
                for headers in ({}, {"HX-Request": "true"}):
                    r = phone.get(url, headers=headers)
                    assert r.status_code in (200, 302, 403, 404), (who, url, r.status_code)
                    if who == "scorer":
                        assert r.status_code in (200, 302), (url, r.status_code)
                r = phone.head(url)
                assert r.status_code in (200, 302, 403, 404, 405), (who, url, r.status_code)
            for game in (ok, gin):  # a live game page polling: unchanged (304), then the whole part
                for headers in ({"HX-Request": "true"}, {}):
                    first = phone.get(f"/games/{game.pk}/", headers=headers)
                    if first.status_code == 200:
                        again = phone.get(f"/games/{game.pk}/", headers={**headers, "If-None-Match": first["ETag"]})
                        assert again.status_code == 304, (who, game.pk)
    assert tried == []


def test_lists_show_names_as_they_are_now_after_a_rename_and_a_merge(client, games, make_game):
    ok, gin = games
    dora = make_game(kind="oklahoma-gin", profile="standard", players=["Dora", "Ed"])
    deal_services.add_deal(game=dora, deal=gin_record_deal(GIN_BIG, ["Dora", "Ed"]))
    history_services.rename_player(player=Player.objects.get(name="Ann"), name="Annabel")
    history_services.merge_players(source=Player.objects.get(name="Dora"), into=Player.objects.get(name="Cleo"))
    with read_only() as tried:
        for url in ("/", "/history/", "/players/", f"/games/{ok.pk}/", f"/history/{ok.pk}/", "/history/export.csv"):
            html = body(client.get(url)).decode()
            assert "Annabel" in html, url
            assert re.search(r"\bAnn\b", html) is None, url
            assert "Dora" not in html, url
        games_list = client.get("/history/").content.decode()
        row = games_list[games_list.index(f"/history/{dora.pk}/") :][:2000]
        assert "Cleo" in row
    assert tried == []


def test_the_read_only_database_refuses_a_write(client, games):
    """(The checks above would pass on a database that takes writes: this one must not.)"""
    ok, _ = games
    with read_only() as tried, pytest.raises(Exception):  # noqa: B017 - Write, or the database's own error
        client.post(f"/games/{ok.pk}/deals/new/", ok_post(OK_SMALL))
    assert tried or connection.vendor == "sqlite"  # SQLite may refuse first (query_only)
    assert ok.deals.count() == 2


def test_a_write_on_a_read_only_database_answers_our_503_page_with_the_form_kept(client, table):
    """(Issue 37, defect 7.) A write the database refuses is no 500: our page, in the phone's
    language, says nothing was saved, shows what was typed and sends the same form again."""
    client.get("/")
    with refusing_writes() as refused:
        answer = client.post(f"/tables/{table.pk}/name/", {"name": "Thursday <club>"})
    assert refused and answer.status_code == 503 and answer["Retry-After"]
    page = answer.content.decode()
    assert "<h1>Not saved</h1>" in page and "Nothing was changed." in page
    assert "<dt>Name</dt>" in page and "<output>Thursday &lt;club&gt;</output>" in page
    assert f'<form method="post" action="/tables/{table.pk}/name/"' in page
    assert '<input type="hidden" name="name" value="Thursday &lt;club&gt;">' in page
    table.refresh_from_db()
    assert table.name == "Test table"
    german = client.post(f"/tables/{table.pk}/name/", {"name": "Donnerstag"}, HTTP_ACCEPT_LANGUAGE="de")
    assert german.status_code == 302  # writable again: saved
    with refusing_writes():
        german = client.post(f"/tables/{table.pk}/name/", {"name": "Freitag"}, HTTP_ACCEPT_LANGUAGE="de")
    assert german.status_code == 503 and "Nicht gespeichert" in german.content.decode()


def test_the_phone_alone_s_hand_over_is_told_in_json(client):
    game = {"format": "oklahoma-scorekeeper/1", "game": "oklahoma", "rules": {"profile": "book"}, "deals": []}
    game |= {"players": NAMES, "first_dealer": "Ann"}
    with refusing_writes():
        answer = client.post(
            "/alone/hand-over/", {"key": "k3y-made-by-the-phone-0001", "record": game}, content_type="application/json"
        )
    assert answer.status_code == 503
    assert "could not save this" in answer.json()["errors"][0]["message"]


def test_the_start_s_writes_wait_for_a_database_that_takes_them(games):
    """``serve`` scores again the games another engine scored and purges old submissions as it
    starts: on a database that refuses writes it starts all the same, and they wait."""
    ok, _ = games
    Game.objects.filter(pk=ok.pk).update(scored_with="an older engine")
    Submission.objects.create(token="old", answer="/", created=timezone.now() - timedelta(days=40))
    steps = (startup.refresh_if_needed, lambda: call_command("purge_submissions"))
    with refusing_writes():
        assert startup.writes_at_start(*steps) is False
    assert Game.objects.get(pk=ok.pk).scored_with == "an older engine" and Submission.objects.filter(token="old")
    assert startup.writes_at_start(*steps) is True
    assert Game.objects.get(pk=ok.pk).scored_with == engine.RESULTS_VERSION
    assert not Submission.objects.filter(token="old").exists()
