"""Many rows written in one statement executed for each row (``executemany``), for the writes that
store results: an import inserts tens of thousands of rows, and every save updates the rows of the
deals it scored and of the game's seats. The ORM's ``bulk_update`` builds a CASE expression per
field and row, which costs more than the writes themselves. Also for the import: rows inserted in
one statement that gives back their ids, rows made by the database from other rows (a deal's
change from the deal), and JSON values in the database's own form, made quickly."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from json import encoder as json_encoder
from typing import Any

from django.db import connection
from django.db.models import Model, Value


def _make_json_encoder() -> Callable[[Any], str] | None:
    """``json.dumps`` with its defaults, through one C encoder made once: ``json.dumps`` makes its
    encoder anew at every call, most of the cost of a small value. None where the C encoder is
    missing (another Python)."""
    make = getattr(json_encoder, "c_make_encoder", None)
    if make is None:
        return None
    plain = json.JSONEncoder()
    esc = getattr(json_encoder, "encode_basestring_ascii", None)
    encode = make(None, plain.default, esc, None, ": ", ", ", False, False, True)  # as JSONEncoder.iterencode
    return lambda value: "".join(encode(value, 0))


_ENCODE_JSON = _make_json_encoder()


def json_values() -> Callable[[Any], Any]:
    """The maker of a JSON field's value in the database's own form (``adapt_json_value`` without an
    encoder), for the connection in use: on SQLite the text ``json.dumps`` gives, made faster (an
    import writes four of them for each of tens of thousands of deals). Take it once for many
    values: asking the connection its vendor costs more than the encoding. A value that holds
    itself (the app stores none) fails with RecursionError rather than ValueError."""
    encode = _ENCODE_JSON
    if connection.vendor != "sqlite" or encode is None:
        return partial(connection.ops.adapt_json_value, encoder=None)

    def value(data: Any) -> Any:
        return encode(data) if type(data) is dict or type(data) is list else json.dumps(data)

    return value


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


def insert_rows_returning_ids(model: type[Model], fields: Sequence[str], rows: list[tuple[Any, ...]]) -> list[int]:
    """``insert_rows`` in one statement that gives back the new rows' ids, in the rows' order (ids
    are given in rising order as rows are inserted: sorted, they are in the rows' order however the
    database lists them). As many rows as one statement's parameters allow."""
    if not rows:
        return []
    meta = model._meta
    columns = ", ".join(_column(meta.get_field(name)) for name in fields)
    row = f"({', '.join(['%s'] * len(fields))})"
    sql = (
        f"INSERT INTO {connection.ops.quote_name(meta.db_table)} ({columns}) VALUES {', '.join([row] * len(rows))}"
        f" RETURNING {_column(meta.pk)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [value for values in rows for value in values])
        return sorted(pk for (pk,) in cursor.fetchall())


def _placeholder(field: Any) -> str:
    """A value for ``field`` given as a parameter in a SELECT's list: PostgreSQL is told its type
    (a parameter there is otherwise text, and a NULL cannot be told apart)."""
    return f"CAST(%s AS {field.db_type(connection)})" if connection.vendor == "postgresql" else "%s"


def insert_rows_from(
    model: type[Model],
    fields: Sequence[str],
    source: type[Model],
    columns: Sequence[str | Value],
    key: str,
    among: Sequence[Any],
) -> None:
    """Insert a row of ``model`` for each row of ``source`` whose field ``key`` is among ``among``
    (ids, say), in the order of their ids, in one statement that the database carries out row by
    row (no row goes through Python): ``fields`` take ``columns``, each a field of ``source`` by
    its name or a ``Value`` (the same for every row, already in the database's own form)."""
    if not among:
        return
    meta, other = model._meta, source._meta
    names = ", ".join(_column(meta.get_field(name)) for name in fields)
    picked = ", ".join(
        _placeholder(meta.get_field(name)) if isinstance(c, Value) else _column(other.get_field(c))
        for name, c in zip(fields, columns, strict=True)
    )
    params = [c.value for c in columns if isinstance(c, Value)]
    where = f"{_column(other.get_field(key))} IN ({', '.join(['%s'] * len(among))})"
    sql = (
        f"INSERT INTO {connection.ops.quote_name(meta.db_table)} ({names})"
        f" SELECT {picked} FROM {connection.ops.quote_name(other.db_table)} WHERE {where}"
        f" ORDER BY {_column(other.pk)}"
    )
    with connection.cursor() as cursor, _checked_already(cursor):
        cursor.execute(sql, [*params, *among])


@contextmanager
def _checked_already(cursor: Any) -> Iterator[None]:
    """Rows made by the database from rows it holds are not checked again: on SQLite, its CHECK
    constraints are off meanwhile (each JSON column's is a JSON parse of the whole text; an import
    copies tens of megabytes of deals' cards into their changes this way). PostgreSQL checks a
    JSON value once, as it stores it: nothing to skip."""
    if connection.vendor != "sqlite":
        yield
        return
    cursor.execute("PRAGMA ignore_check_constraints = ON")
    try:
        yield
    finally:
        cursor.execute("PRAGMA ignore_check_constraints = OFF")


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
