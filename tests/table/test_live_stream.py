"""The stream view in the process (the served stream: tests/server/test_live.py): under a WSGI
server it answers 204 (EventSource stops, the page polls); under ASGI it refuses a stranger, a
phone of another table and a phone taken off the table before anything is streamed."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.handlers.asgi import ASGIHandler
from django.test import AsyncClient, Client
from django.urls import reverse
from django.utils.deprecation import MiddlewareMixin

from scorekeeper.table import access
from scorekeeper.table.live import hub as watchers
from scorekeeper.table.phones import services as phone_services
from tests.conftest import NAMES, in_a_thread, new_game, phone_cookie, run_async

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _watchers_let_go():
    """The streams' database thread keeps its connection: closed after each test (PostgreSQL
    drops the test database only when nobody is connected)."""
    yield
    watchers.close_connection()


def test_under_wsgi_the_page_is_told_to_poll(table, scorer):
    game = new_game(table, players=NAMES, first_dealer=0)
    phone = Client()
    phone.cookies[access.COOKIE] = phone_cookie(scorer)
    assert in_a_thread(phone.get, reverse("table:game_events", args=[game.pk])).status_code == 204


async def _status(cookie: str | None, game_id: int) -> int:
    phone = AsyncClient()
    if cookie:
        phone.cookies[access.COOKIE] = cookie
    return (await phone.get(reverse("table:game_events", args=[game_id]))).status_code


def test_under_asgi_strangers_and_phones_taken_off_are_refused(table, scorer, follower):

    game = new_game(table, players=NAMES, first_dealer=0)
    other, _ = phone_services.create_table(name="Other", device_name="Theirs")
    assert run_async(_status, None, game.pk) == 404
    assert run_async(_status, phone_cookie(other.devices.get()), game.pk) == 404
    assert run_async(_status, phone_cookie(follower), 10**12) == 404
    phone_services.revoke_device(device=follower, by=scorer)
    assert run_async(_status, phone_cookie(follower), game.pk) == 404

    async def post() -> int:
        return (await AsyncClient().post(reverse("table:game_events", args=[game.pk]))).status_code

    assert run_async(post) == 405


def test_under_asgi_the_middleware_runs_in_the_requests_own_thread(monkeypatch):
    """The innermost middleware is sync only (settings.MIDDLEWARE): Django's ASGI handler (the
    streams) then runs every other one in sync mode, in the thread it runs the chain in. Were one
    of them async, Django would hand each of its methods to that thread and back (a stream's
    opening: 115 hand-overs, not 61)."""
    made: list[MiddlewareMixin] = []
    init = MiddlewareMixin.__init__

    def record(self: MiddlewareMixin, get_response: Any) -> None:
        init(self, get_response)
        made.append(self)

    monkeypatch.setattr(MiddlewareMixin, "__init__", record)
    ASGIHandler()  # loads the chain as the server does
    assert len(made) >= 8
    assert [type(m).__name__ for m in made if m.async_mode] == []
