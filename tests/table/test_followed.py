"""A follower's live part kept for every follower (``followed``) is the game view's (the plain
path), with the phone's own CSRF token: in every state a game page's live part can be in, for a
phone seated or not, in English and in German; a part with a deal open is never kept."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from scorekeeper.table import services
from scorekeeper.table.models import Device, Game, Role, Table
from tests.app_data import OK_BIG, OK_SMALL, ok_record_deal
from tests.conftest import NAMES, as_phone, new_game

pytestmark = pytest.mark.django_db
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([A-Za-z0-9]+)"')


def _phone(device: Device, language: str) -> Client:
    return as_phone(Client(enforce_csrf_checks=True, headers={"Accept-Language": language}), device)


def _part(phone: Client, game: Game):
    return phone.get(reverse("table:game", args=[game.pk]), headers={"HX-Request": "true"})


def _same(kept, plain) -> None:
    assert kept.status_code == plain.status_code == 200
    assert dict(kept.items()) == dict(plain.items())
    assert set(kept.cookies) == set(plain.cookies)
    assert TOKEN.sub("", kept.content.decode()) == TOKEN.sub("", plain.content.decode())


def _compare(game: Game, first: Client, second: Client) -> str:
    """``second``'s live part by the plain path, then kept from ``first``'s: the same."""
    cache.clear()
    plain = _part(second, game)
    assert plain.templates, "the game view made it"
    cache.clear()
    assert _part(first, game).status_code == 200  # made, and kept
    kept = _part(second, game)
    assert not kept.templates, "kept from the first follower's"
    _same(kept, plain)
    return kept.content.decode()


@pytest.fixture
def phones(table: Table) -> list[Device]:
    return [Device.objects.create(table=table, name=f"Phone {k}", role=Role.FOLLOW) for k in range(3)]


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("state", ["no deal", "deals", "finished", "a phone seated"])
def test_a_followers_kept_live_part_is_the_game_views(table, scorer, phones, language, state) -> None:
    deals = {"no deal": [], "finished": [ok_record_deal(OK_BIG, NAMES)]}.get(state, [ok_record_deal(OK_SMALL, NAMES)])
    options = {"target": 100} if state == "finished" else None
    game = new_game(table, players=NAMES, first_dealer=0, options=options, deals=deals, by=scorer)
    assert game.finished == (state == "finished")
    if state == "a phone seated":
        services.sit(game=game, position=0, phone=phones[2], by=phones[2])
    first, second = _phone(phones[0], language), _phone(phones[1], language)
    body = _compare(game, first, second)
    if language == "de":
        assert 'lang="de"' in body or "-de-p" in body
    # Its forms carry the second phone's own token: it takes a seat with it.
    tokens = set(TOKEN.findall(body))
    if state != "finished":
        assert len(tokens) == 1
        taken = second.post(
            reverse("table:seat_phone", args=[game.pk]), {"seat": "1", "csrfmiddlewaretoken": tokens.pop()}
        )
        assert taken.status_code == 302 and game.seats.get(position=1).phone_id == phones[1].pk


def test_a_seated_follower_gets_its_own_part_and_not_another_followers(table, scorer, phones) -> None:
    game = new_game(table, players=NAMES, first_dealer=0, deals=[ok_record_deal(OK_SMALL, NAMES)], by=scorer)
    services.sit(game=game, position=2, phone=phones[2], by=phones[2])
    unseated = _part(_phone(phones[0], "en"), game).content.decode()
    seated = _part(_phone(phones[2], "en"), game)
    assert seated.templates, "no part is kept for this seat yet"
    assert "Not my seat" in seated.content.decode() and "Not my seat" not in unseated
    # Another phone at the same seat of the same version (it sat down meanwhile: a new version) is
    # told by the game view too.
    services.sit(game=game, position=0, phone=phones[1], by=phones[1])
    assert _part(_phone(phones[1], "en"), game).templates


def test_a_part_with_a_deal_open_is_never_kept(table, scorer, phones) -> None:
    game = new_game(table, players=NAMES, first_dealer=0, deals=[ok_record_deal(OK_SMALL, NAMES)], by=scorer)
    services.open_deal(game=game, by=scorer)
    first, second = _phone(phones[0], "en"), _phone(phones[1], "en")
    assert _part(first, game).status_code == 200
    again = _part(second, game)
    assert again.templates and "open-deal" in again.content.decode()


def test_the_scorers_part_is_never_kept(client, table, scorer, phones) -> None:
    game = new_game(table, players=NAMES, first_dealer=0, deals=[ok_record_deal(OK_SMALL, NAMES)], by=scorer)
    assert _part(client, game).status_code == 200
    second_scorer = Device.objects.create(table=table, name="Cleo's phone", role=Role.SCORE)
    assert _part(as_phone(Client(), second_scorer), game).templates
