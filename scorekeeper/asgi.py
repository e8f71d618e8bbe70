"""The app for an ASGI server (``manage.py serve``: gunicorn with uvicorn workers).

A game page's stream of server-sent events (``views.game_events``) is answered on ASGI itself
(``table.stream``): one connection each, held open, no thread busy. Every other request — the
pages, sync views — goes to Django's WSGI handler on a pool of threads (a2wsgi), exactly as under a
WSGI server: each thread keeps its database connection, and a request costs what it cost there.
Both are second paths beside Django's own ASGI handler, kept because ``python -m benchmarks live``
measured them (one uvicorn worker, this 2-core machine): through it a page costs 3.6 ms of CPU
instead of 0.54 ms (a thread of its own and a hop between threads for each sync middleware), and a
stream's opening and closing 3.4-4.4 ms instead of 0.73-0.90 ms. tests/server/test_asgi.py and
tests/server/test_stream.py check that both answer as Django's ASGI handler does.
"""

from __future__ import annotations

import os
from typing import Any

from a2wsgi import WSGIMiddleware
from django.core.wsgi import get_wsgi_application
from django.urls import Resolver404, resolve

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")

THREADS = int(os.environ.get("SCOREKEEPER_THREADS") or 4)  # pages answered at once by one process

pages = WSGIMiddleware(get_wsgi_application(), workers=THREADS)  # type: ignore[arg-type]  # sets Django up

from scorekeeper.table import stream, views  # noqa: E402  # after Django is set up


def streamed(path: str) -> int | None:
    """The game whose stream ``path`` names (``views.game_events``), else None."""
    try:
        match = resolve(path)
    except Resolver404:
        return None
    return int(match.kwargs["game_id"]) if match.func is views.game_events else None


# The URLconf and every view imported now, not by the first request: under ``make run`` (gunicorn's
# --preload) once, before the workers are forked, which then answer at once.
streamed("/")


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    game = streamed(scope["path"]) if scope["type"] == "http" else None
    if game is not None:
        await stream.serve(scope, receive, send, game)
    else:
        await pages(scope, receive, send)  # type: ignore[arg-type]  # lifespan included: a2wsgi answers it
