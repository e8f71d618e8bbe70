"""``/healthz`` for a load balancer or a monitor: 200 when the database answers and every migration
is applied, else 503 with what is wrong. It says nothing about any table, game or phone."""

from __future__ import annotations

from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


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
