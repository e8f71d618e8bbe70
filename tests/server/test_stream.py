"""A game page's stream as ``make run``'s app answers it (``scorekeeper.asgi``: the one path,
``table.live.views.game_events`` under Django's ASGI handler): the status for every phone, stranger
and request, the stream's headers, its first events (in the phone's language), the request log's
line, and the watch leaves the hub when the phone goes."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator

from scorekeeper import asgi
from scorekeeper.table import access
from scorekeeper.table.live import hub as watchers
from scorekeeper.table.models import Device, Role
from scorekeeper.table.phones import services as phone_services
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


STREAM = {"content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no"}


def test_every_phone_and_request_is_answered(table, scorer, follower, caplog):
    game = new_game(table, players=NAMES, first_dealer=0)
    other, _ = phone_services.create_table(name="Other", device_name="Theirs")
    events = f"/games/{game.pk}/events/"
    german = ((b"accept-language", b"de-DE,de;q=0.9"),)
    cases: list[tuple[str, dict[str, Any], int, str]] = [
        ("the scorer", {"cookie": _cookie(scorer)}, 200, "-score-en-p"),
        ("a follower", {"cookie": _cookie(follower)}, 200, "-follow-en-p"),
        ("a German follower", {"cookie": _cookie(follower), "headers": german}, 200, "-follow-de-p"),
        ("German by the switch", {"cookie": f"{_cookie(follower)}; django_language=de"}, 200, "-follow-de-p"),
        (
            "English by the switch",
            {"cookie": f"{_cookie(follower)}; django_language=en", "headers": german},
            200,
            "-follow-en-p",
        ),
        ("a phone of two tables", {"cookie": _cookie(other.devices.get(), scorer)}, 200, "-score-en-p"),
        ("a stranger", {}, 404, ""),
        ("a phone of another table", {"cookie": _cookie(other.devices.get())}, 404, ""),
        ("a tampered cookie", {"cookie": _cookie(scorer).replace(":", ":x", 1)}, 404, ""),
        ("no such game", {"cookie": _cookie(scorer), "path": "/games/1000000000000/events/"}, 404, ""),
        ("a HEAD", {"cookie": _cookie(scorer), "method": "HEAD"}, 200, ""),
        ("a host not allowed", {"cookie": _cookie(scorer), "host": "evil.example"}, 400, ""),
        ("a POST", {"cookie": _cookie(scorer), "method": "POST"}, 403, ""),  # CSRF, before the view's 405
    ]
    for name, case, status, tag in cases:
        path = case.pop("path", events)
        got = _open(asgi.application, path, **case)
        assert got["status"] == status, name
        assert got["held"] == 0, name
        if status == 200:
            assert got["headers"] == STREAM, name
        if tag:
            assert got["body"].startswith(b"retry: ") and tag.encode() in got["body"], name


def test_a_phone_taken_off_the_table_is_refused(table, scorer, follower):
    game = new_game(table, players=NAMES, first_dealer=0)
    phone_services.revoke_device(device=follower, by=scorer)
    assert _open(asgi.application, f"/games/{game.pk}/events/", cookie=_cookie(follower))["status"] == 404


def test_streams_and_refusals_are_in_the_request_log(table, follower, caplog):
    """One line each, as the request log's middleware writes it for every request."""
    game = new_game(table, players=NAMES, first_dealer=0)
    events = f"/games/{game.pk}/events/"
    caplog.set_level(logging.INFO)
    _open(asgi.application, events, cookie=_cookie(follower))
    _open(asgi.application, events)
    assert [r.getMessage().rsplit(" ", 2)[0] for r in caplog.records if r.name == "scorekeeper.requests"] == [
        f"GET {events} 200",
        f"GET {events} 404",
    ]


async def _statuses(app: Any, path: str, phones: list[tuple[str, str]]) -> tuple[list[int], list[dict[str, str]], dict]:
    """Streams opened one after the other and held, each by a phone (its cookie, its address): their
    statuses and headers, and what the hub counts while they are held; then every phone goes away."""
    talks, statuses, headers = [], [], []
    for cookie, address in phones:
        scope = http_scope("GET", path, [(b"host", b"127.0.0.1"), (b"cookie", cookie.encode())])
        scope["client"] = (address, 5000)
        talk = ApplicationCommunicator(app, scope)
        await talk.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await talk.receive_output(10)
        statuses.append(start["status"])
        headers.append({k.decode().lower(): v.decode() for k, v in start["headers"]})
        talks.append(talk)
    held = dict(watchers.hub().held)
    for talk in talks:
        await talk.send_input({"type": "http.disconnect"})
        with contextlib.suppress(asyncio.CancelledError):
            await talk.wait(10)
    return statuses, headers, held


def test_a_phone_holds_a_few_streams_and_one_more_is_refused_at_once(table, scorer, follower):
    """A phone's game page and a couple of tabs: ``PHONE_STREAMS``; one more is refused (429, the
    connection closed: its file is free at once), while another phone at the same address is served."""
    game = new_game(table, players=NAMES, first_dealer=0)
    events = f"/games/{game.pk}/events/"
    mine = [(_cookie(follower), "10.0.0.5")] * (watchers.PHONE_STREAMS + 1)
    statuses, headers, held = run_async(_statuses, asgi.application, events, [*mine, (_cookie(scorer), "10.0.0.5")])
    assert statuses == [200] * watchers.PHONE_STREAMS + [429, 200]
    refused = headers[watchers.PHONE_STREAMS]
    assert refused["connection"] == "close" and int(refused["retry-after"]) > 0
    assert held == {
        "a10.0.0.5": watchers.PHONE_STREAMS + 1,
        f"p{follower.pk}": watchers.PHONE_STREAMS,
        f"p{scorer.pk}": 1,
    }
    # Gone again, the phone opens its streams as before.
    assert run_async(_statuses, asgi.application, events, mine[:2])[0] == [200, 200]


def test_an_address_holds_a_few_hundred_streams(table, scorer, monkeypatch):
    """A club's Wi-Fi puts every phone behind one address: ``ADDRESS_STREAMS`` of them, then 429;
    another address is served."""
    monkeypatch.setattr(watchers, "ADDRESS_STREAMS", 3)
    game = new_game(table, players=NAMES, first_dealer=0)
    phones = [Device.objects.create(table=table, name=f"Phone {i}", role=Role.FOLLOW) for i in range(4)]
    club = [(_cookie(p), "192.0.2.1") for p in phones]
    statuses, _, _ = run_async(
        _statuses, asgi.application, f"/games/{game.pk}/events/", [*club, (_cookie(scorer), "192.0.2.2")]
    )
    assert statuses == [200, 200, 200, 429, 200]


def test_a_phone_gone_before_its_first_event_is_not_counted_any_more(table, follower):
    """The phone goes away as its stream opens (before Django sends a byte of it): the stream's
    events never start, and the response's closing (or, dropped unsent, its collection) lets its
    watch go."""
    game = new_game(table, players=NAMES, first_dealer=0)
    scope = http_scope(
        "GET", f"/games/{game.pk}/events/", [(b"host", b"127.0.0.1"), (b"cookie", _cookie(follower).encode())]
    )

    async def run() -> dict:
        for _ in range(watchers.PHONE_STREAMS * 3):
            talk = ApplicationCommunicator(asgi.application, scope)
            await talk.send_input({"type": "http.request", "body": b"", "more_body": False})
            await talk.send_input({"type": "http.disconnect"})
            with contextlib.suppress(asyncio.CancelledError):
                await talk.wait(10)
        for _ in range(20):
            gc.collect()  # a response Django dropped unsent (the phone left while the view ran)
            await asyncio.sleep(0.05)  # the closing lets go of the watch on the event loop
        return {"held": dict(watchers.hub().held), "watching": watchers.hub().watching}

    assert run_async(run) == {"held": {}, "watching": 0}
