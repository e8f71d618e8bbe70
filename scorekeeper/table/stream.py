"""A game page's stream of server-sent events answered on ASGI itself, not by Django's handler.

The plain path is ``views.game_events`` under Django's ASGI handler; this module is the second
path, kept because ``make bench live`` measured it: a stream's opening and closing (each visit of
a game page, each reconnect) costs the server 0.73-0.90 ms of CPU here and 3.4-4.4 ms there, and
an open stream holds no thread (Django's handler keeps one per request, so per open stream, for
as long as it is open: 1,000 phones watching, the server's RSS is 250 MB here and 305 MB there).
With 200 phones watching, a save costs the server 10-12 ms of CPU less (``live`` has the figures).
What Django's handler spends it on is the request's own thread, made and joined for each request,
and the middleware chain handed to it and back; none of the middleware does anything for an event
stream. ``tests/server/test_stream.py`` checks that both answer every case the same: status, the
stream's headers and its events.

What it does is the view's: the phone's devices from its signed cookie (``access.device_ids``),
its language as ``LocaleMiddleware`` picks it (``get_language_from_request``), the access check
and the events (``watchers.open_stream``), ``GET`` and ``HEAD`` only, a host not allowed refused
with 400 as Django refuses it, and one line in the request log. What it leaves out are the
headers a document needs and a stream does not (frame options, content security policy, referrer
policy: a browser applies them to pages, not to an ``EventSource``).
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import AsyncGenerator
from typing import Any

from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError
from django.utils import translation

from scorekeeper import request_log
from scorekeeper.table import access, watchers

log = logging.getLogger(__name__)

Scope = dict[str, Any]

PLAIN = [(b"content-type", b"text/plain; charset=utf-8")]
HEADERS = [(name.lower().encode(), value.encode()) for name, value in watchers.HEADERS.items()]

# What a refused request is answered: its body and headers, by status.
REFUSALS: dict[int, tuple[bytes, list[tuple[bytes, bytes]]]] = {
    400: (b"Bad Request", []),  # a host not in ALLOWED_HOSTS
    404: (b"No such game", []),  # a stranger, a phone of another table or taken off it, no such game
    405: (b"", [(b"allow", b"GET, HEAD")]),
    503: (b"The server could not read the game; the page asks again.", []),
}


async def serve(scope: Scope, receive: Any, send: Any, game_id: int) -> None:
    """Answer ``GET /games/<game_id>/events/``: the stream, or the status that refuses it."""
    started = time.perf_counter()
    request = ASGIRequest(scope, io.BytesIO())
    status, stream = await _open(request, game_id)
    request_log.log.info(request_log.line(request, status, started))
    if stream is None:
        body, headers = REFUSALS[status]
        await send({"type": "http.response.start", "status": status, "headers": [*PLAIN, *headers]})
        await send({"type": "http.response.body", "body": body})
        return
    await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
    if request.method == "HEAD":
        await anext(stream)  # begun, so that closing it takes its watch out of the hub
        await stream.aclose()
        await send({"type": "http.response.body", "body": b""})
        return
    await _pump(stream, receive, send)


async def _open(request: ASGIRequest, game_id: int) -> tuple[int, AsyncGenerator[bytes] | None]:
    """The stream (200), or the status that refuses it (and None)."""
    if request.method not in ("GET", "HEAD"):
        return 405, None
    try:
        request.get_host()
    except DisallowedHost:
        return 400, None
    language = translation.get_language_from_request(request)
    try:
        stream = await watchers.open_stream(access.device_ids(request), game_id, language)
    except DatabaseError as exc:
        log.warning("live: a stream could not be opened (%s)", exc)
        return 503, None
    return (404, None) if stream is None else (200, stream)


async def _pump(stream: AsyncGenerator[bytes], receive: Any, send: Any) -> None:
    """Send the stream's events until it ends (the phone lost its access) or the phone goes."""

    async def events() -> None:
        async for chunk in stream:
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b""})

    async def gone() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    tasks = [asyncio.ensure_future(events()), asyncio.ensure_future(gone())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        ended = await asyncio.gather(*tasks, return_exceptions=True)
        await stream.aclose()  # stopped at a yield: its watch leaves the hub now, not when collected
    failed = [e for e in ended if isinstance(e, Exception)]  # a cancelled task's error is no Exception
    if failed:  # the phone's access could not be checked again: EventSource connects again
        log.warning("live: a stream ended on an error (%r)", failed[0])
