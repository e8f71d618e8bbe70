"""A database that fails: a write it refused is answered 503 with what was typed (``RefusedWrites``,
issue 37), and a connection that failed is closed when its request ends, so that the next request
opens a fresh one (issue 24, defect 5).

The app keeps its connections between requests (``DATABASE_CONN_MAX_AGE``; ``make run`` keeps them
600 s). Django closes a kept connection after an error only when it is no longer usable, and a
connection SQLite opened on a read-only file is usable: it reads, and refuses every write until it
is closed. So after the file was writable again, saves kept failing until their threads'
connections aged out (24 of 64 over about 2 minutes). The same holds for a PostgreSQL connection to
a server that was read-only (a standby, a full disk). Closing a connection whose statement failed
costs the next request one new connection; a connection inside a transaction is left alone (the
transaction's owner ends it).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from django.db import DatabaseError, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.http import HttpRequest, HttpResponse, HttpResponseBase

from scorekeeper.error_pages import not_written

log = logging.getLogger(__name__)
SAFE = ("GET", "HEAD", "OPTIONS")  # reads never write: their database errors are 500s


def close_failed_connections(
    get_response: Callable[[HttpRequest], HttpResponseBase],
) -> Callable[[HttpRequest], HttpResponseBase]:
    """Middleware: a connection on which a statement failed during the request is closed after it."""

    def middleware(request: HttpRequest) -> HttpResponseBase:
        failed: list[BaseDatabaseWrapper] = []

        def watch(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
            try:
                return execute(sql, params, many, context)
            except DatabaseError:
                failed.append(context["connection"])
                raise

        with ExitStack() as stack:
            for connection in connections.all():
                stack.enter_context(connection.execute_wrapper(watch))
            response = get_response(request)
        for connection in dict.fromkeys(failed):
            if not connection.in_atomic_block:
                connection.close()
        return response

    return middleware


class RefusedWrites:
    """Middleware: THE answer to a write the database refused (a full disk, a read-only file or
    server, a lock held too long) from any form: 503, our page with what was typed and the form sent
    again by its Try again button (``error_pages.not_written``), nothing changed (each write is one
    transaction). The deal forms answer it themselves, on the form (``table.entry.flow``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if request.method in SAFE or not isinstance(exception, DatabaseError):
            return None
        log.warning("a write was refused by the database: %s %s: %s", request.method, request.path, exception)
        return not_written(request)
