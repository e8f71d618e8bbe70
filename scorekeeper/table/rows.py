"""Rows written in few statements, where the ORM's own writes cost a user's wait: the import's
(a batch of games with their seats, deals and changes: tens of thousands of rows) and the save's
update of the deals it scored (``update_rows``) and of its players' figures (``add_to_rows``).

The full path is the spec. For the import: a game made through the saves (``services.create_game``,
``add_deal``) holds the same rows as the same game imported (tests/history/test_history.py,
``test_an_import_writes_every_field_...``: every concrete field of ``Game``, ``Seat`` and ``Deal``,
read from the models). For ``update_rows``: ``bulk_update`` (tests/table/test_rows.py). For
``add_to_rows``: the players' figures from scratch (tests/history/test_player_figures.py).

Why not ``bulk_create``: measured on the import of 2,000 games x 30 deals (``python -m
benchmarks.import_run``, 2 workers, paired runs), the import took 42-49 s through ``bulk_create``
against 11-15 s through these rows: the ORM's model instances and per-value preparation ran in the
one process that writes, where these rows come prepared from the workers. Why not ``bulk_update``
(a CASE expression per field and row): an edit of deal 1 of a 40-deal game (40 rows updated) took
238 ms through it against 62 ms, an edit of the last deal 96 ms against 59 ms (medians of 16
paired saves, a shared machine).

Every row is a mapping of the model's fields by ``attname`` (a foreign key by its id) to values
already in the database's form (``prepared``: each field's own ``get_db_prep_save``, as ``save``
prepares it); a field a row leaves out takes its default, so a new field with a default needs
nothing here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import connection
from django.db.models import Field, Model


def prepared(model: type[Model], values: Mapping[str, Any]) -> dict[str, Any]:
    """These values of the model's fields (by name) as the database takes them, by ``attname``."""
    out = {}
    for name, value in values.items():
        field = model._meta.get_field(name)
        assert isinstance(field, Field)
        out[field.attname] = field.get_db_prep_save(value, connection)
    return out


def _column(field: Any) -> str:
    return connection.ops.quote_name(str(field.column))


def _fields(model: type[Model]) -> list[Field[Any, Any]]:
    """The columns a row of the model is written with: every concrete field but the automatic id."""
    meta = model._meta
    return [f for f in meta.concrete_fields if f is not meta.auto_field]


def _table(model: type[Model], rows: Sequence[Mapping[str, Any]]) -> list[tuple[Any, ...]]:
    """The rows as tuples of ``_fields(model)``, a field a row leaves out taking its default."""
    fields = _fields(model)
    names = [f.attname for f in fields]
    unknown = set().union(*rows) - set(names)
    if unknown:
        raise ValueError(f"{model.__name__} has no field {', '.join(sorted(unknown))}")
    defaults = [f.get_db_prep_save(f.get_default(), connection) for f in fields]
    return [tuple(map(row.get, names, defaults)) for row in rows]


def insert_rows(model: type[Model], rows: Sequence[Mapping[str, Any]]) -> None:
    """Insert the rows, in one statement executed for each (``executemany``)."""
    if not rows:
        return
    fields = _fields(model)
    columns = ", ".join(_column(f) for f in fields)
    sql = (
        f"INSERT INTO {connection.ops.quote_name(model._meta.db_table)} ({columns})"
        f" VALUES ({', '.join(['%s'] * len(fields))})"
    )
    with connection.cursor() as cursor:
        cursor.executemany(sql, _table(model, rows))


def insert_rows_returning_ids(model: type[Model], rows: Sequence[Mapping[str, Any]]) -> list[int]:
    """``insert_rows`` in one statement that gives back the new rows' ids, in the rows' order (ids
    are given in rising order as rows are inserted: sorted, they are in the rows' order however the
    database lists them). As many rows as one statement's parameters allow."""
    if not rows:
        return []
    fields = _fields(model)
    columns = ", ".join(_column(f) for f in fields)
    row = f"({', '.join(['%s'] * len(fields))})"
    sql = (
        f"INSERT INTO {connection.ops.quote_name(model._meta.db_table)} ({columns})"
        f" VALUES {', '.join([row] * len(rows))} RETURNING {_column(model._meta.pk)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [value for values in _table(model, rows) for value in values])
        return sorted(pk for (pk,) in cursor.fetchall())


def _placeholder(field: Any) -> str:
    """A value for ``field`` given as a parameter in a SELECT's list: PostgreSQL is told its type
    (a parameter there is otherwise text, and a NULL cannot be told apart)."""
    return f"CAST(%s AS {field.db_type(connection)})" if connection.vendor == "postgresql" else "%s"


def insert_rows_from(
    model: type[Model],
    source: type[Model],
    columns: Mapping[str, str],
    values: Mapping[str, Any],
    key: str,
    among: Sequence[Any],
) -> None:
    """Insert a row of ``model`` for each row of ``source`` whose field ``key`` is among ``among``
    (ids, say), in the order of their ids, in one statement that the database carries out row by
    row (no row goes through Python): the fields named in ``columns`` (by attname) take the
    ``source`` field named there, every other field the value in ``values`` (the same for every
    row, in the database's form) or its default."""
    if not among:
        return
    meta, other = model._meta, source._meta
    fields = _fields(model)
    (constant,) = _table(model, [{name: value for name, value in values.items() if name not in columns}])
    picked, params = [], []
    for field, value in zip(fields, constant, strict=True):
        if field.attname in columns:
            picked.append(_column(other.get_field(columns[field.attname])))
        else:
            picked.append(_placeholder(field))
            params.append(value)
    where = f"{_column(other.get_field(key))} IN ({', '.join(['%s'] * len(among))})"
    sql = (
        f"INSERT INTO {connection.ops.quote_name(meta.db_table)} ({', '.join(_column(f) for f in fields)})"
        f" SELECT {', '.join(picked)} FROM {connection.ops.quote_name(other.db_table)} WHERE {where}"
        f" ORDER BY {_column(other.pk)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, *among])


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


def add_to_rows(model: type[Model], keys: Sequence[str], fields: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Add to these fields of the rows found by ``keys`` (each row: its keys' values, then what to
    add to each field), in one statement executed for each (``UPDATE … SET n = n + %s``): what
    another transaction added meanwhile is kept."""
    if not rows:
        return
    meta = model._meta
    assigned = ", ".join(f"{c} = {c} + %s" for c in (_column(meta.get_field(name)) for name in fields))
    where = " AND ".join(f"{_column(meta.get_field(name))} = %s" for name in keys)
    sql = f"UPDATE {connection.ops.quote_name(meta.db_table)} SET {assigned} WHERE {where}"
    n = len(keys)
    with connection.cursor() as cursor:
        cursor.executemany(sql, [[*row[n:], *row[:n]] for row in rows])
