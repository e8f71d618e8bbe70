"""A game handed over from a phone alone: one game per key, at this phone's table (a new one when it
has none), whatever the number of taps or phones; a refused record writes nothing."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.test import Client

from scorekeeper.alone.models import HandedGame
from scorekeeper.table import access
from scorekeeper.table.models import Device, Game, Table
from scorekeeper.table.scoring.engine import game_record
from tests.conftest import as_phone
from tests.rules import oklahoma_random

pytestmark = pytest.mark.django_db

URL = "/alone/hand-over/"
KEY = "k3y-made-by-the-phone-0001"


def record(seed: int = 1, deals: int = 3) -> dict:
    players = ("Ann", "Ben", "Cleo")
    return {
        "format": "oklahoma-scorekeeper/1",
        "game": "oklahoma",
        "rules": {"profile": "book"},
        "players": list(players),
        "first_dealer": "Ann",
        "deals": oklahoma_random.game(random.Random(seed), players, deals),
    }


def post(client: Client, body: object) -> Any:
    return client.post(URL, json.dumps(body), content_type="application/json")


def test_a_phone_of_no_table_starts_one_with_the_game_and_keeps_it(client):
    answer = post(client, {"key": KEY, "record": record()})
    assert answer.status_code == 201
    game = Game.objects.get()
    assert answer.json() == {"game": game.pk, "url": f"/games/{game.pk}/", "created": True}
    assert game_record(game)["deals"] == record()["deals"]
    device = Device.objects.get()
    assert device.table == game.table and device.role == "score"
    assert client.get(f"/games/{game.pk}/").status_code == 200  # the cookie is the phone's


def test_tapped_again_or_answer_lost_the_same_game_comes_back(client, scorer):
    as_phone(client, scorer)
    first = post(client, {"key": KEY, "record": record()})
    again = post(client, {"key": KEY, "record": record()})
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["game"] == first.json()["game"] and again.json()["created"] is False
    assert Game.objects.count() == 1
    assert Game.objects.get().table == scorer.table  # this phone's table


def test_a_second_phone_with_the_same_game_makes_no_second(client, scorer):
    post(as_phone(client, scorer), {"key": KEY, "record": record()})
    tables = Table.objects.count()
    other = post(Client(), {"key": KEY, "record": record()})
    assert other.status_code == 409
    assert Game.objects.count() == 1 and Table.objects.count() == tables


def test_a_following_phone_starts_a_table_of_its_own(client, follower):
    answer = post(as_phone(client, follower), {"key": KEY, "record": record()})
    assert answer.status_code == 201
    assert Game.objects.get().table != follower.table


def test_a_refused_record_writes_nothing_and_says_why(client):
    tables = Table.objects.count()
    bad = record()
    bad["deals"][0]["hands"]["Ann"]["held"] = ["XX"]
    answer = post(client, {"key": KEY, "record": bad})
    assert answer.status_code == 400
    assert "XX" in json.dumps(answer.json()["errors"])
    assert not Game.objects.exists() and not HandedGame.objects.exists()
    assert Table.objects.count() == tables
    assert access.COOKIE not in answer.cookies


@pytest.mark.parametrize(
    "body", [None, [], {"key": "short", "record": {}}, {"key": KEY}, {"key": "x" * 65, "record": {}}, "text"]
)
def test_anything_else_is_refused_with_a_message(client, body):
    answer = client.post(URL, json.dumps(body) if body is not None else b"\xff", content_type="application/json")
    assert answer.status_code == 400 and answer.json()["errors"][0]["message"]
    assert not Game.objects.exists()


def test_only_a_post_hands_over(client):
    assert client.get(URL).status_code == 405
