"""Many rows written in one statement executed for each row (``executemany``), for the writes that
store results: an import inserts tens of thousands of rows, and every save updates the rows of the
deals it scored and of the game's seats. The ORM's ``bulk_update`` builds a CASE expression per
field and row, which costs more than the writes themselves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.db.models import Model


def _column(field: Any) -> str:
    return connection.ops.quote_name(str(field.column))


def insert_rows(model: type[Model], fields: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
    """Insert rows of values for these fields, already in the database's own form (a foreign key
    by its id, JSON as text)."""
    if not rows:
        return
    meta = model._meta
    columns = ", ".join(_column(meta.get_field(name)) for name in fields)
    placeholders = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {connection.ops.quote_name(meta.db_table)} ({columns}) VALUES ({placeholders})"
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


def update_rows(objs: Sequence[Model], fields: Sequence[str]) -> None:
    """Write these fields of these saved objects (of one model), each value prepared by its field
    as ``save`` prepares it."""
    if not objs:
        return
    meta = type(objs[0])._meta
    columns: list[Any] = [meta.get_field(name) for name in fields]
    assigned = ", ".join(f"{_column(f)} = %s" for f in columns)
    sql = f"UPDATE {connection.ops.quote_name(meta.db_table)} SET {assigned} WHERE {_column(meta.pk)} = %s"
    rows = [[*(f.get_db_prep_save(getattr(obj, f.attname), connection) for f in columns), obj.pk] for obj in objs]
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)
