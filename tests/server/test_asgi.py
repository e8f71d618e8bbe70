"""``scorekeeper.asgi``: a game page's stream goes to Django's ASGI handler (tests/server/test_stream.py),
every other request to Django's WSGI handler on a pool of threads — kept because a page costs a
fraction of its CPU there (``benchmarks.live``). It answers every page as Django's ASGI handler
does: status, headers that matter and body (the per-request nonce and CSRF token aside)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from django.core.asgi import get_asgi_application

from scorekeeper import asgi
from scorekeeper.table import access
from scorekeeper.table.live import hub as watchers
from tests.conftest import NAMES, http_scope, new_game, phone_cookie, run_async

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _watchers_let_go():
    """The streams' database thread keeps its connection: closed after each test (PostgreSQL
    drops the test database only when nobody is connected)."""
    yield
    watchers.close_connection()


def _call(app: Any, method: str, path: str, cookie: str = "", body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
    headers = [(b"host", b"127.0.0.1")]
    if cookie:
        headers.append((b"cookie", f"{access.COOKIE}={cookie}".encode()))
    if body:
        headers.append((b"content-type", b"application/x-www-form-urlencoded"))
    scope = http_scope(method, path, headers)

    async def run() -> tuple[int, dict[str, str], bytes]:
        talk = ApplicationCommunicator(app, scope)
        await talk.send_input({"type": "http.request", "body": body, "more_body": False})
        start = await talk.receive_output(10)
        content = b""
        while True:
            message = await talk.receive_output(10)
            content += message.get("body", b"")
            if not message.get("more_body"):
                break
        return start["status"], {k.decode().lower(): v.decode() for k, v in start["headers"]}, content

    return run_async(run)


def _same(body: bytes) -> str:
    text = body.decode("utf-8", errors="replace")
    text = re.sub(r'nonce="[^"]+"', 'nonce=""', text)
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "csrf", text)


KEPT = ("content-type", "cache-control", "etag", "location", "x-frame-options", "vary")


def test_pages_are_answered_as_by_djangos_asgi_handler(table, scorer):
    game = new_game(table, players=NAMES, first_dealer=0)
    cookie = phone_cookie(scorer)
    plain = get_asgi_application()
    for method, path, who in [
        ("GET", "/", ""),
        ("GET", f"/games/{game.pk}/", cookie),
        ("GET", f"/games/{game.pk}/", ""),  # a stranger: 404
        ("GET", "/rules/", ""),
        ("GET", "/no/such/page/", ""),
        ("POST", f"/games/{game.pk}/deals/new/", cookie),  # no CSRF token: 403
        ("GET", "/healthz", ""),
    ]:
        ours, theirs = _call(asgi.application, method, path, who), _call(plain, method, path, who)
        assert ours[0] == theirs[0], path
        assert {k: ours[1].get(k) for k in KEPT} == {k: theirs[1].get(k) for k in KEPT}, path
        assert _same(ours[2]) == _same(theirs[2]), path


def test_only_the_streams_go_to_djangos_asgi_handler():
    assert asgi.streamed("/games/1/events/")
    assert asgi.streamed("/games/12/events/")
    assert not asgi.streamed("/games/1/")
    assert not asgi.streamed("/games/1/events")  # CommonMiddleware's redirect, on the WSGI side
    assert not asgi.streamed("/")
    assert not asgi.streamed("/no/such/page/")
    assert not asgi.streamed("/static/live.js")
