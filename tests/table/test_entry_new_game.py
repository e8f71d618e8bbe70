"""The new-game form: the game switched with the names kept, the first dealer chosen by name,
only the seats the rules take, and the engine's messages in the players' words."""

import html
import re

import pytest
from django.urls import reverse

from scorekeeper.table.models import Game

pytestmark = pytest.mark.django_db
NEW = "table:new_game"


def text(response) -> str:
    return html.unescape(response.content.decode())


def test_switching_the_game_keeps_the_names_and_the_first_dealer(client):
    post = {"game": "oklahoma", "profile": "book", "seat_0": "Ann", "seat_1": "Ben", "seat_2": "Cleo"}
    r = client.post(reverse(NEW), {**post, "first_dealer": "2", "switch": "oklahoma-gin"})
    assert r.status_code == 200 and not Game.objects.exists()
    page = text(r)
    assert 'name="game" value="oklahoma-gin"' in page
    assert '<span class="tab current" aria-current="true">Oklahoma Gin</span>' in page
    for i, name in enumerate(["Ann", "Ben", "Cleo"]):
        assert f'name="seat_{i}" value="{name}"' in page
    assert re.search(r'<input type="radio" name="first_dealer" value="2"[^>]* checked', page)
    assert "This field is required" not in page  # a switch is not a submit
    back = text(client.post(reverse(NEW), {**post, "game": "oklahoma-gin", "switch": "oklahoma"}))
    assert 'name="seat_2" value="Cleo"' in back and 'name="game" value="oklahoma"' in back


def test_the_first_dealer_is_offered_by_the_name_typed(client):
    page = text(client.get(reverse(NEW)))
    radios = re.findall(r'<input type="radio" name="first_dealer"[^>]*>', page)
    assert len(radios) == 5
    for i, radio in enumerate(radios):
        # the radio's name is the seat's name field (its value, as typed) and "deals first"
        assert f'aria-labelledby="id_seat_{i} deals-first"' in radio
    assert '<span class="vh" id="deals-first">deals first</span>' in page
    assert "Seat 3</option>" not in page
    names = {"seat_0": "Ann", "seat_1": "Ben", "seat_2": "Cleo"}
    r = client.post(reverse(NEW), {"game": "oklahoma", "profile": "book", **names, "first_dealer": "2"})
    assert r.status_code == 302 and Game.objects.get().first_dealer == 2


def test_only_the_seats_the_rules_take(client):
    ok = text(client.get(reverse(NEW)))
    assert ok.count('name="seat_') == 5  # Oklahoma's book rules take five
    assert 'data-seats="4"' in ok and 'data-seats="5"' in ok
    assert 'class="row seat beyond-4"' in ok  # the fifth seat: hidden while the Laws (four) are chosen
    gin = text(client.get(reverse(NEW) + "?game=oklahoma-gin"))
    assert gin.count('name="seat_') == 4  # the party game takes four
    assert 'class="row seat beyond-2"' in gin and 'class="row seat beyond-2 beyond-3"' not in gin


def test_engine_messages_name_options_by_their_labels(client):
    r = client.post(
        reverse(NEW),
        {
            "game": "oklahoma-gin",
            "profile": "party",
            "seat_0": "Ann",
            "seat_1": "Ben",
            "seat_2": "Cleo",
            "first_dealer": "0",
            "opt_hollywood": "true",
        },
    )
    assert r.status_code == 400
    page = text(r)
    errors = " ".join(re.findall(r'<p class="err">(.*?)</p>', page))
    assert "Hollywood" in errors
    assert "'scoring'" not in errors and "“Scoring”" in errors
    assert "(ruling) (ruling)" not in errors
    shown = re.sub(r"<[^>]+>", " ", re.sub(r"(?s)<style>.*?</style>", "", page))  # what the players read
    assert "max_players" not in shown and "'scoring'" not in shown
