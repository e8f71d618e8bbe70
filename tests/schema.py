"""A database as an earlier migration left it, for the tests of a migration that rewrites rows."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection
from django.db.migrations.executor import MigrationExecutor

Targets = list[tuple[str, str]]


@contextmanager
def upgraded(before: Targets, after: Targets) -> Iterator[Any]:  # Apps of an earlier release's models
    """The schema migrated back to ``before``, its models given to the block (to write rows as that
    release wrote them), then migrated to ``after`` as the block ends; in every case back to the
    newest schema on leaving."""
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    try:
        yield executor.loader.project_state(before).apps
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(after)
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
