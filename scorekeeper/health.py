"""``/healthz`` for a load balancer or a monitor: 200 when the database answers and every migration
is applied, else 503 with what is wrong. It says nothing about any table, game or phone.

A load balancer probes each app server by its address: its request names that address (or
anything) as its ``Host`` and comes without the proxy's ``X-Forwarded-Proto``. So ``/healthz`` is
answered by ``answer_probes``, a middleware ahead of the host check (``ALLOWED_HOSTS``, in
``CommonMiddleware``) and of the HTTPS redirect (``SecurityMiddleware``): any host, either scheme.
Every other path keeps both. (Healthchecks' own probe, ``docker/fetchstatus.py``, sends its site's
``Host`` instead; a load balancer cannot.)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponseBase, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

PATH = "/healthz"


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        executor = MigrationExecutor(connection)
        pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except DatabaseError:
        return JsonResponse({"ok": False, "database": "does not answer"}, status=503)
    if pending:
        return JsonResponse({"ok": False, "migrations": f"{len(pending)} not applied"}, status=503)
    return JsonResponse({"ok": True})


def answer_probes(get_response: Callable[[HttpRequest], Any]) -> Callable[[HttpRequest], Any]:
    """Middleware: ``/healthz`` answered here, whatever its host and scheme (sync or async)."""
    if iscoroutinefunction(get_response):

        async def middleware_async(request: HttpRequest) -> HttpResponseBase:
            if request.path_info == PATH:
                return await sync_to_async(healthz)(request)
            response: Awaitable[HttpResponseBase] = get_response(request)
            return await response

        return markcoroutinefunction(middleware_async)

    def middleware(request: HttpRequest) -> HttpResponseBase:
        if request.path_info == PATH:
            return healthz(request)
        response: HttpResponseBase = get_response(request)
        return response

    return middleware


answer_probes.sync_capable = True  # type: ignore[attr-defined]
answer_probes.async_capable = True  # type: ignore[attr-defined]
