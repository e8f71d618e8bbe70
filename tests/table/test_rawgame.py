"""A game page's raw loads (``rawgame``, through ``access.game_and_device`` and
``access.with_players``) give what the ORM gives: the game with its table and open deal, the
phone's device at the table with its table, the seats with their players and phones — every field,
its value and its type — on every case of access, and no query after them for what they loaded."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.db.models import Model, Prefetch, prefetch_related_objects
from django.test import RequestFactory
from django.utils import timezone

from scorekeeper.table import access, rawgame, services
from scorekeeper.table.models import Device, Game, GameState, OpenDeal, Role, Seat, Table
from tests.conftest import NAMES, new_game, phone_cookie

pytestmark = pytest.mark.django_db


def fields(obj: Model | None) -> list[tuple[str, type, Any]] | None:
    """Every column's value as the instance holds it, with its type (a JSON dict, an aware datetime, a bool)."""
    if obj is None:
        return None
    values = [(f.attname, getattr(obj, f.attname)) for f in obj._meta.concrete_fields]
    return [(name, type(v), v) for name, v in values]


def orm_game_and_device(held: tuple[Device, ...], game_id: int) -> tuple[Game | None, Device | None]:
    """The spec: the ORM's game with its table and open deal, and ``access.device_at``'s device."""
    game = Game.objects.select_related("table", "open_deal").filter(pk=game_id).first()
    if game is None:
        return None, None
    request = RequestFactory().get("/")
    if held:
        request.COOKIES[access.COOKIE] = phone_cookie(*held)
    return game, access.device_at(request, game.table_id)


def orm_seats(game: Game) -> list[Seat]:
    prefetch_related_objects(
        [game], Prefetch("seats", Seat.objects.select_related("player", "phone").order_by("position"))
    )
    return list(game.seats.all())


def loaded(game: Game | None, device: Device | None) -> list[Any]:
    """What a page reads of the pair, related objects included."""
    if game is None:
        return [None, fields(device)]
    open_deal = getattr(game, "open_deal", None)
    return [
        fields(game),
        fields(game.table),
        fields(open_deal),
        fields(device),
        fields(device.table) if device is not None else None,
    ]


def seated(seats: list[Seat]) -> list[Any]:
    return [[fields(s), fields(s.player), fields(s.phone), s.game_id] for s in seats]


@pytest.fixture
def world(table: Table, scorer: Device) -> tuple[list[Device], list[Game]]:
    """Two tables; games with and without a deal open, phones at seats, a finished game with JSON
    options; phones that score, follow, were taken off, or sit at another table."""
    follower = Device.objects.create(table=table, name="Ben's phone", role=Role.FOLLOW)
    second = Device.objects.create(table=table, name="Cleo's phone", role=Role.SCORE)
    revoked = Device.objects.create(table=table, name="Old phone", role=Role.SCORE, revoked=timezone.now())
    other_table, stranger = services.create_table(name="Other table", device_name="Other phone")
    playing = new_game(table, players=NAMES)
    services.sit(game=playing, position=0, phone=follower, by=follower)
    services.sit(game=playing, position=2, phone=second, by=second)
    services.open_deal(game=playing, by=scorer)
    OpenDeal.objects.filter(game=playing).update(facts={"out": 0, "upcard": "7S", "flags": [True, None, 2.5]})
    Seat.objects.filter(game=playing, position=0).update(typing_at=timezone.now())
    over = new_game(table, players=NAMES, options={"target": 500, "joker": False})
    Game.objects.filter(pk=over.pk).update(state=GameState.FINISHED, winner=1, version=9)
    Seat.objects.filter(game=over, position=1).update(won=True, final=120, best_points=80, best_deal=2)
    elsewhere = new_game(other_table, players=["Dora", "Emil"], kind="oklahoma-gin", profile="standard")
    Table.objects.filter(pk=other_table.pk).update(names=7)
    return [scorer, follower, second, revoked, stranger], [playing, over, elsewhere]


def test_the_raw_game_and_device_are_the_orms(
    world: tuple[list[Device], list[Game]], django_assert_num_queries: Any
) -> None:
    phones, games = world
    ids = [g.pk for g in games] + [games[-1].pk + 1000, 0, -1, 2**63 - 1, 2**63, 10**30]
    found = set()
    for n in range(len(phones) + 1):
        for held in itertools.combinations(phones, n):
            for game_id in ids:
                with django_assert_num_queries(1 if -(2**63) <= game_id < 2**63 else 0):
                    raw = rawgame.game_and_device([d.pk for d in held], game_id)
                with django_assert_num_queries(0):  # its table, open deal and the device's table came with it
                    got = loaded(*raw)
                assert got == loaded(*orm_game_and_device(held, game_id)), (held, game_id)
                found.add((raw[0] is not None, raw[1].role if raw[1] else None, bool(got[0] and got[2])))
    assert found == {
        (False, None, False),
        (True, None, False),
        (True, None, True),
        *((True, role, open) for role in (Role.SCORE, Role.FOLLOW) for open in (False, True)),
    }


def test_the_raw_seats_are_the_orms(world: tuple[list[Device], list[Game]], django_assert_num_queries: Any) -> None:
    phones, games = world
    for game in games:
        raw, _ = rawgame.game_and_device([phones[0].pk], game.pk)
        assert raw is not None
        with django_assert_num_queries(1):
            access.with_players(raw)
        with django_assert_num_queries(0):  # loaded once, where game.seats.all() finds them
            access.with_players(raw)
            seats = list(raw.seats.all())
            assert all(s.game is raw for s in seats)
            got = seated(seats)
        spec = orm_seats(Game.objects.get(pk=game.pk))
        assert got == seated(spec)
        assert [s.position for s in seats] == list(range(len(seats))) and len(seats) >= 2
    assert Seat.objects.filter(game=games[0], phone__isnull=False, typing_at__isnull=False).exists()
    assert Seat.objects.filter(game=games[1], won=True).exists()
