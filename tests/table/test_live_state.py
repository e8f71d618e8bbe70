"""A live page's check in one query (``access.live_state``: the 304s, a stream's access check) gives
what a game page's own loads give: the game with its table and the phone's device there
(``access.device_at``), on every case of access."""

from __future__ import annotations

import itertools

import pytest
from django.test import RequestFactory
from django.utils import timezone

from scorekeeper.table import access
from scorekeeper.table.models import Device, Game, Role, Table
from scorekeeper.table.phones import services as phone_services
from tests.conftest import NAMES, new_game, phone_cookie

pytestmark = pytest.mark.django_db


def full_path(devices: tuple[Device, ...], game_id: int) -> tuple[int, int, str, int] | None:
    request = RequestFactory().get("/")
    if devices:
        request.COOKIES[access.COOKIE] = phone_cookie(*devices)
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    device = None if game is None else access.device_at(request, game.table_id)
    if game is None or device is None:  # no access either way: 404 (the whole page then says why)
        return None
    return game.version, game.table.names, device.role, game.table_id


def test_the_live_check_answers_as_a_page_s_loads(table: Table, scorer: Device) -> None:
    follower = Device.objects.create(table=table, name="Ben's phone", role=Role.FOLLOW)
    second_scorer = Device.objects.create(table=table, name="Cleo's phone", role=Role.SCORE)
    revoked = Device.objects.create(table=table, name="Old phone", role=Role.SCORE, revoked=timezone.now())
    other_table, stranger = phone_services.create_table(name="Other table", device_name="Other phone")
    games = [new_game(table, players=NAMES), new_game(table, players=NAMES), new_game(other_table, players=NAMES)]
    games[1].version += 4  # the versions differ
    games[1].save(update_fields=["version"])
    Table.objects.filter(pk=other_table.pk).update(names=7)  # and the tables' names
    phones = [scorer, follower, second_scorer, revoked, stranger]
    ids = [g.pk for g in games] + [games[-1].pk + 1000, 0, -1, 2**63 - 1, 2**63, 10**30]
    seen = set()
    for n in range(len(phones) + 1):
        for held in itertools.combinations(phones, n):
            for game_id in ids:
                expected = full_path(held, game_id)
                assert access.live_state([d.pk for d in held], game_id) == expected, (held, game_id)
                seen.add(expected)
    assert {
        None,
        (games[0].version, 0, Role.SCORE, table.pk),
        (games[1].version, 0, Role.FOLLOW, table.pk),
        (games[2].version, 7, Role.SCORE, other_table.pk),
    } <= seen
