"""The app for an ASGI server (``manage.py serve``: gunicorn with uvicorn workers).

A game page's stream of server-sent events (``table.live.views.game_events``) goes to Django's own
ASGI handler: an async view, one connection each, held open, no thread busy. Every other request —
the pages, sync views — goes to Django's WSGI handler on a pool of threads (a2wsgi), exactly as under
a WSGI server: each thread keeps its database connection. Django's ASGI handler would serve the
pages too, at several times a page's CPU (a thread hop for each sync middleware and view): the
figures are in benchmarks/README.md. tests/server/test_asgi.py checks both answer as Django does.
"""

from __future__ import annotations

import os
from importlib import import_module
from pathlib import Path
from typing import Any

from a2wsgi import WSGIMiddleware
from django.conf import settings
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application
from django.db import connection
from django.template import engines
from django.template.utils import get_app_template_dirs
from django.urls import Resolver404, resolve
from django.utils.module_loading import import_string

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")

THREADS = int(os.environ.get("SCOREKEEPER_THREADS") or 4)  # pages answered at once by one process

pages = WSGIMiddleware(get_wsgi_application(), workers=THREADS)  # type: ignore[arg-type]  # sets Django up
streams = get_asgi_application()

from scorekeeper.table.live.views import game_events  # noqa: E402  # after Django is set up


def streamed(path: str) -> bool:
    """Whether ``path`` names a game's stream."""
    try:
        return resolve(path).func is game_events
    except Resolver404:
        return False


# The URLconf and every view imported now, not by the first request: under ``make run`` (gunicorn's
# --preload) once, before the workers are forked, which then answer at once.
streamed("/")
# The codec Django's request log writes every 4xx and 5xx with, looked up now: a lookup that fails
# (a flood of connections took every file of the process as the codec's module was to be read) is
# remembered for the process's life, and every later refusal would then fail as a 500.
"".encode("unicode_escape")


def compile_templates() -> None:
    """Every template of the app and its apps compiled now (Django's cached loader keeps them), and
    the template tag libraries found with them: a template or a library looked up in a flood of
    connections (no file left to read it with) would be remembered as missing, and every later page
    that uses it would fail (tests/server/test_stream_flood.py)."""
    engine = engines["django"]
    names = {
        str(path.relative_to(folder))
        for folder in (*map(Path, engine.dirs), *get_app_template_dirs("templates"))
        for path in folder.rglob("*")
        if path.is_file() and path.suffix in (".html", ".txt", ".js", ".xml", ".json")
    }
    for name in names:
        engine.get_template(name)


compile_templates()
# What a first request imports (the middleware, the first query), imported now for the same reason.
import_module(settings.SESSION_ENGINE)
import_string(settings.SESSION_SERIALIZER)
import_string(settings.MESSAGE_STORAGE)
connection.ops.compiler("SQLCompiler")  # the database's SQL compiler, imported by the first query


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "http" and streamed(scope["path"]):
        await streams(scope, receive, send)
    else:
        await pages(scope, receive, send)  # type: ignore[arg-type]  # lifespan included: a2wsgi answers it
