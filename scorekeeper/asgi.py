"""The app for an ASGI server (``manage.py serve``: gunicorn with uvicorn workers).

Django's own ASGI handler answers the async views (the live pages' streams, ``table.watchers``):
one connection each, held open, no thread busy. Every other request — the pages, sync views —
goes to Django's WSGI handler on a pool of threads (a2wsgi), exactly as under a WSGI server: each
thread keeps its database connection, and a request costs what it cost there. Through Django's
ASGI handler a sync view pays a thread of its own and a hop between threads for each sync
middleware: measured with ``python -m benchmarks live``'s bare view (one uvicorn worker, this
2-core machine) 3.6 ms of CPU a request instead of 0.54 ms. tests/server/test_asgi.py checks
that both handlers answer the same.
"""

from __future__ import annotations

import os
from typing import Any

from a2wsgi import WSGIMiddleware
from asgiref.sync import iscoroutinefunction
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application
from django.urls import Resolver404, resolve

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")

THREADS = int(os.environ.get("SCOREKEEPER_THREADS") or 4)  # pages answered at once by one process

streams = get_asgi_application()  # sets Django up
pages = WSGIMiddleware(get_wsgi_application(), workers=THREADS)  # type: ignore[arg-type]


def is_async(path: str) -> bool:
    """Whether ``path`` names an async view."""
    try:
        return iscoroutinefunction(resolve(path).func)
    except Resolver404:
        return False


# The URLconf and every view imported now, not by the first request: under ``make run`` (gunicorn's
# --preload) once, before the workers are forked, which then answer at once.
is_async("/")


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "http" and is_async(scope["path"]):
        await streams(scope, receive, send)
    else:
        await pages(scope, receive, send)  # type: ignore[arg-type]  # lifespan included: a2wsgi answers it
