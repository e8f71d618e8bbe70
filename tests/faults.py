"""A database that refuses writes, as a read-only file or server or a full disk does (issue 37):
every statement that would write fails with the database's own error (``OperationalError``, with
SQLite's words), and on SQLite the connection is read-only as well (``PRAGMA query_only``), so that a
write the wrapper did not see fails all the same. Reads work."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import OperationalError, connection

WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE|CREATE|ALTER|DROP|TRUNCATE|MERGE|COPY)\b", re.IGNORECASE)
READ_ONLY = "attempt to write a readonly database"
FULL = "database or disk is full"


@contextmanager
def refusing_writes(error: str = READ_ONLY) -> Iterator[list[str]]:
    """The database refuses every write while inside, with ``error``; yields the statements refused."""
    refused: list[str] = []

    def refuse(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if WRITE.match(sql) or sql.lstrip().upper().startswith("SELECT") and "FOR UPDATE" in sql.upper():
            refused.append(sql)
            raise OperationalError(error)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(refuse):
        if connection.vendor == "sqlite" and error == READ_ONLY:
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA query_only = ON")
        try:
            yield refused
        finally:
            if connection.vendor == "sqlite" and error == READ_ONLY:
                with connection.cursor() as cursor:
                    cursor.execute("PRAGMA query_only = OFF")
