"""One log line per request, with no secret in it (issue 23).

``log_requests`` (a middleware) writes, for every request, its method, its path, its status and how
long it took, on the logger ``scorekeeper.requests`` (INFO; ``DJANGO_REQUEST_LOG=0`` turns it off):
``GET /games/12/ 200 4.1 ms`` (a game page's stream when it opens). What would open a table is never
written: a join link's token is replaced by ``[token]``, the query string by ``?…`` (its values are
the user's), and no header (no cookie) is read. ``NoSecrets``, a logging filter on the app's handler
and on Django's own request loggers, does the same to every message they write ("Not Found:
/join/…/", a 500's path).

The server's own access log (gunicorn's ``--access-logfile``) writes the raw request line, tokens
and query strings included: leave it off and read these lines instead.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponseBase

log = logging.getLogger("scorekeeper.requests")

# A join link's token (``/join/<token>/``) and a query string: what a log line leaves out.
_TOKEN = re.compile(r"(/join/)[^/?#\s\"']+")
_QUERY = re.compile(r"\?[^\s\"']*")


def redacted(text: str) -> str:
    """``text`` with every join token and query string taken out."""
    return _QUERY.sub("?…", _TOKEN.sub(r"\1[token]", text))


def line(request: HttpRequest, status: int, started: float) -> str:
    path = redacted(request.path) + ("?…" if request.META.get("QUERY_STRING") else "")
    return f"{request.method} {path} {status} {(time.perf_counter() - started) * 1000:.1f} ms"


def log_requests(get_response: Callable[[HttpRequest], Any]) -> Callable[[HttpRequest], Any]:
    """Middleware: one line per request on ``scorekeeper.requests`` (sync or async, as the view)."""
    if iscoroutinefunction(get_response):

        async def middleware_async(request: HttpRequest) -> HttpResponseBase:
            started = time.perf_counter()
            response = await get_response(request)
            log.info(line(request, response.status_code, started))
            return response

        return markcoroutinefunction(middleware_async)

    def middleware(request: HttpRequest) -> HttpResponseBase:
        started = time.perf_counter()
        response = get_response(request)
        log.info(line(request, response.status_code, started))
        return response

    return middleware


log_requests.sync_capable = True  # type: ignore[attr-defined]
log_requests.async_capable = True  # type: ignore[attr-defined]


class NoSecrets(logging.Filter):
    """A logging filter: the record's message with every join token and query string taken out."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redacted(message)
        if clean != message:
            record.msg, record.args = clean, ()
        return True
