"""``table.stream``, a game page's stream answered on ASGI itself, answers as the plain path does
(``views.game_events`` under Django's ASGI handler): the same status for every phone, stranger
and request, the same stream headers, the same first events (in the phone's language), and the
watch leaves the hub when the phone goes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from django.core.asgi import get_asgi_application

from scorekeeper import asgi
from scorekeeper.table import access, services, watchers
from tests.conftest import NAMES, http_scope, new_game, phone_cookie, run_async

pytestmark = pytest.mark.django_db(transaction=True)

# The headers compared: a stream's own; of a refusal only what it allows (its body is never shown:
# EventSource gives up, and the page polls its live part, whose answer says why).
KEPT = {200: ("content-type", "cache-control", "x-accel-buffering"), 0: ("allow",)}


@pytest.fixture(autouse=True)
def _watchers_let_go():
    """The streams' database thread keeps its connection: closed after each test (PostgreSQL
    drops the test database only when nobody is connected)."""
    yield
    watchers.close_connection()


def _open(
    app: Any, path: str, *, method: str = "GET", cookie: str = "", host: str = "127.0.0.1", headers: tuple = ()
) -> dict[str, Any]:
    """Open the stream as EventSource does; read up to its first ``change`` (or its refusal), then
    go away. The status, the headers, the body read, and how many watches the hub held after."""
    head = [(b"host", host.encode()), (b"accept", b"text/event-stream"), *headers]
    if cookie:
        head.append((b"cookie", cookie.encode()))
    scope = http_scope(method, path, head)

    async def run() -> dict[str, Any]:
        talk = ApplicationCommunicator(app, scope)
        await talk.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await talk.receive_output(10)
        body = b""
        while start["status"] == 200 and method == "GET" and b"event: change" not in body:
            body += (await talk.receive_output(10)).get("body", b"")
        if start["status"] != 200:
            body = (await talk.receive_output(10)).get("body", b"")
        await talk.send_input({"type": "http.disconnect"})
        with contextlib.suppress(asyncio.CancelledError):
            await talk.wait(10)
        await asyncio.sleep(0)
        held = watchers.hub().watching
        return {
            "status": start["status"],
            "headers": {
                k.decode().lower(): v.decode()
                for k, v in start["headers"]
                if k.decode().lower() in KEPT[200 if start["status"] == 200 else 0]
            },
            "body": body if start["status"] == 200 else None,
            "held": held,
        }

    return run_async(run)


def _cookie(*devices: Any) -> str:
    return f"{access.COOKIE}={phone_cookie(*devices)}"


def test_every_phone_and_request_is_answered_as_by_the_view(table, scorer, follower, caplog):
    game = new_game(table, players=NAMES, first_dealer=0)
    other, _ = services.create_table(name="Other", device_name="Theirs")
    events = f"/games/{game.pk}/events/"
    german = ((b"accept-language", b"de-DE,de;q=0.9"),)
    cases: list[tuple[str, dict[str, Any]]] = [
        ("the scorer", {"cookie": _cookie(scorer)}),
        ("a follower", {"cookie": _cookie(follower)}),
        ("a German follower", {"cookie": _cookie(follower), "headers": german}),
        ("German by the switch", {"cookie": f"{_cookie(follower)}; django_language=de"}),
        ("English by the switch", {"cookie": f"{_cookie(follower)}; django_language=en", "headers": german}),
        ("a phone of two tables", {"cookie": _cookie(other.devices.get(), scorer)}),
        ("a stranger", {}),
        ("a phone of another table", {"cookie": _cookie(other.devices.get())}),
        ("a tampered cookie", {"cookie": _cookie(scorer).replace(":", ":x", 1)}),
        ("no such game", {"cookie": _cookie(scorer), "path": "/games/1000000000000/events/"}),
        ("a HEAD", {"cookie": _cookie(scorer), "method": "HEAD"}),
        ("a host not allowed", {"cookie": _cookie(scorer), "host": "evil.example"}),
    ]
    plain = get_asgi_application()
    for name, case in cases:
        path = case.pop("path", events)
        ours, theirs = _open(asgi.application, path, **case), _open(plain, path, **case)
        assert ours == theirs, name
        assert ours["held"] == 0, name
    # A POST: refused by both; Django's handler says 403 first (its CSRF check, before the view's 405).
    ours, theirs = _open(asgi.application, events, method="POST"), _open(plain, events, method="POST")
    assert (ours["status"], ours["headers"], theirs["status"]) == (405, {"allow": "GET, HEAD"}, 403)


def test_a_phone_taken_off_the_table_is_refused_as_by_the_view(table, scorer, follower):
    game = new_game(table, players=NAMES, first_dealer=0)
    services.revoke_device(device=follower, by=scorer)
    path = f"/games/{game.pk}/events/"
    ours = _open(asgi.application, path, cookie=_cookie(follower))
    assert ours == _open(get_asgi_application(), path, cookie=_cookie(follower))
    assert ours["status"] == 404


def test_the_events_carry_the_phones_role_and_language(table, scorer, follower):
    game = new_game(table, players=NAMES, first_dealer=0)
    path = f"/games/{game.pk}/events/"
    scorer_events = _open(asgi.application, path, cookie=_cookie(scorer))["body"]
    german = _open(asgi.application, path, cookie=_cookie(follower), headers=((b"accept-language", b"de"),))["body"]
    assert scorer_events.startswith(b"retry: ")
    assert b"-score-en-p" in scorer_events
    assert b"-follow-de-p" in german


def test_streams_and_refusals_are_in_the_request_log(table, follower, caplog):
    """One line each, as the request log's middleware writes it for the view."""
    game = new_game(table, players=NAMES, first_dealer=0)
    events = f"/games/{game.pk}/events/"
    caplog.set_level(logging.INFO)
    _open(asgi.application, events, cookie=_cookie(follower))
    _open(asgi.application, events)
    assert [r.getMessage().rsplit(" ", 2)[0] for r in caplog.records if r.name == "scorekeeper.requests"] == [
        f"GET {events} 200",
        f"GET {events} 404",
    ]
