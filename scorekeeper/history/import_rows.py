"""The import's deals and their changes written as rows, not as model instances: an import writes
tens of thousands of each (2,000 games of 30 deals: 60,000 deals, 60,000 changes), and through
``bulk_create`` the one process that writes spent its time making model instances and preparing
each value. Here a deal's values are prepared in the worker process that scored it (``deal_row``:
each field's own ``get_db_prep_save``, as ``save`` prepares it), written with one ``executemany``,
and each deal's change is made by the database from the deal (``INSERT … SELECT``). The import's
games and seats (a few thousand rows) stay with ``bulk_create``.

Why a second path: through ``bulk_create`` the import of a long history missed its target
(``python -m benchmarks web_history``; the figures in benchmarks/README.md).

The plain path is the spec: a game made through the saves holds the same deal and change rows as
the same game imported (tests/history/test_history.py,
``test_an_import_writes_every_field_of_its_games_seats_and_deals_as_the_saves_do``: every concrete
field, read from the models)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import Field, Model

from scorekeeper.table.models import Change, ChangeAction, Deal


def _fields(model: type[Model]) -> list[Field[Any, Any]]:
    """The columns a row of the model is written with: every concrete field but the automatic id."""
    meta = model._meta
    return [f for f in meta.concrete_fields if f is not meta.auto_field]


def _quoted(name: str | None) -> str:
    return connection.ops.quote_name(str(name))


def deal_row(fields: Mapping[str, Any]) -> dict[str, Any]:
    """A deal's fields (by name, its game and times aside) as the database takes them, by ``attname``."""
    out = {}
    for name, value in fields.items():
        field = Deal._meta.get_field(name)
        assert isinstance(field, Field)
        out[field.attname] = field.get_db_prep_save(value, connection)
    return out


def insert_deals(games: Sequence[int], deals: Sequence[Sequence[Mapping[str, Any]]], at: datetime) -> None:
    """Insert each game's deals (``deal_row``s, by game in the order of ``games``), made and updated
    ``at``; a field a row leaves out takes its default."""
    fields = _fields(Deal)
    given = {"created": at, "updated": at}
    defaults = {
        f.attname: f.get_db_prep_save(given[f.name] if f.name in given else f.get_default(), connection)
        for f in fields
        if f.attname != "game_id"
    }
    names = [f.attname for f in fields]
    rows = [
        tuple(game if name == "game_id" else row.get(name, defaults[name]) for name in names)
        for game, game_deals in zip(games, deals, strict=True)
        for row in game_deals
    ]
    sql = (
        f"INSERT INTO {_quoted(Deal._meta.db_table)} ({', '.join(_quoted(f.column) for f in fields)})"
        f" VALUES ({', '.join(['%s'] * len(fields))})"
    )
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


def insert_changes(games: Sequence[int], *, at: datetime, by_id: int | None, by_name: str) -> None:
    """Each deal of these games its change (added, by whom, with its cards), in the order of the
    deals' ids: made by the database from the deals, no row through Python."""
    taken = {"game_id": "game_id", "deal_id": "id", "number": "number", "after": "cards"}
    given: dict[str, Any] = {
        "action": ChangeAction.DEAL_ADDED.value,
        "at": Change._meta.get_field("at").get_db_prep_save(at, connection),
        "by_id": by_id,
        "by_name": by_name,
    }
    columns, picked, params = [], [], []
    for field in _fields(Change):
        columns.append(_quoted(field.column))
        if field.attname in taken:
            picked.append(_quoted(taken[field.attname]))
        elif given.get(field.attname) is None:
            assert field.null, field.name
            picked.append("NULL")  # before, undoes, hands_by; by when the importer is no phone
        else:
            # a parameter in a SELECT's list: PostgreSQL is told its type
            picked.append(f"CAST(%s AS {field.db_type(connection)})" if connection.vendor == "postgresql" else "%s")
            params.append(given[field.attname])
    sql = (
        f"INSERT INTO {_quoted(Change._meta.db_table)} ({', '.join(columns)})"
        f" SELECT {', '.join(picked)} FROM {_quoted(Deal._meta.db_table)}"
        f" WHERE game_id IN ({', '.join(['%s'] * len(games))}) ORDER BY id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, *games])
