"""What every page of a game loads first, in raw SQL: the game with its table, the deal being
entered (if one is open) and this phone's device at the table, in one query (``game_and_device``);
the game's seats with their players and the phones at them, in another (``seats``).

The ORM is the spec: ``Game.objects.select_related("table", "open_deal")`` and
``access.device_at``, then ``Prefetch("seats", Seat.objects.select_related("player", "phone"))``.
tests/table/test_rawgame.py proves that both give the same objects, field by field and value type
by value type, on every case of access, on SQLite and on PostgreSQL. The rows become model
instances as the ORM makes them: each column through its field's and the database's converters
(``from_db_value``: JSON decoded, SQLite's dates and booleans), then ``Model.from_db``; the related
objects are set through their descriptors, and the seats go where ``prefetch_related`` puts them
(``_prefetched_objects_cache``, Django's own place: the one private name here).

Why a second path: every page of a game starts here, and the phones watching a game each ask for
its live part after every save, in the moment the scoring phone waits for its own page. Building
the ORM's three queries cost more than running them. Measured in-process (Django's test client,
debug off, SQLite, three runs of 600 requests against the ORM's path, this 2-core machine):
a follower's live part 4.7-6.2 -> 2.0-3.7 ms of CPU, the scorer's game page 6.5-8.4 -> 3.9-5.6 ms,
the deal form 17.9-19.3 -> 15.2-16.5 ms; the same HTML byte for byte. ``python -m benchmarks web``
(the median of its four games' figures, in each run): the game page warm 6.9 and 7.5 ms before,
5.6, 4.3 and 4.8 ms after; the review warm 7.6 and 8.4 ms before, 5.3, 5.0 and 5.8 ms after.
With 200 phones watching, a save's p99 went from 1.27-1.36x its p99 alone to 1.15-1.26x, 1.20 the
median of five runs (``python -m benchmarks live``, ``live``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from weakref import WeakKeyDictionary

from django.db import connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model

from scorekeeper.table import poll
from scorekeeper.table.models import Device, Game, OpenDeal, Player, Seat, Table

type Converter = Any  # (value, expression, connection) -> value, as the ORM calls it


class _Columns:
    """One model's columns in a SELECT, under a table alias, and its instances made of them."""

    def __init__(self, model: type[Model], alias: str) -> None:
        self.model = model
        self.alias = alias
        self.fields: list[Field[Any, Any]] = list(model._meta.concrete_fields)
        self.names = [f.attname for f in self.fields]
        self.converters: WeakKeyDictionary[BaseDatabaseWrapper, list[tuple[int, Any, list[Converter]]]] = (
            WeakKeyDictionary()
        )

    def __len__(self) -> int:
        return len(self.fields)

    def select(self) -> str:
        qn = connection.ops.quote_name
        return ", ".join(f"{self.alias}.{qn(str(f.column))}" for f in self.fields)

    def _converters(self) -> list[tuple[int, Any, list[Converter]]]:
        """The converters of each column that has any, as the ORM's compiler finds them (per connection)."""
        wrapper = connections[connection.alias]
        found = self.converters.get(wrapper)
        if found is None:
            found = []
            for i, f in enumerate(self.fields):
                col = f.get_col(self.alias)
                convert = [*wrapper.ops.get_db_converters(col), *f.get_db_converters(wrapper)]
                if convert:
                    found.append((i, col, convert))
            self.converters[wrapper] = found
        return found

    def make(self, row: Sequence[Any], start: int) -> Any:
        """The instance of the columns at ``start`` of ``row``; None for a LEFT JOIN that found none."""
        values = list(row[start : start + len(self.fields)])
        if values[0] is None:  # the primary key comes first: no row
            return None
        for i, col, convert in self._converters():
            for c in convert:
                values[i] = c(values[i], col, connection)
        return self.model.from_db(connection.alias, self.names, values)


_GAME = _Columns(Game, "g")
_TABLE = _Columns(Table, "t")
_OPEN = _Columns(OpenDeal, "o")
_DEVICE = _Columns(Device, "d")
_SEAT = _Columns(Seat, "s")
_PLAYER = _Columns(Player, "p")
_PHONE = _Columns(Device, "ph")


def _table(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def game_and_device(device_ids: list[int], game_id: int) -> tuple[Game | None, Device | None]:
    """The game with its table and its open deal (None is read with it: asking costs no query),
    and the device of ``device_ids`` at the game's table that still works (one that scores, if
    there are two; else the newest), with the table; (None, None) when there is no such game."""
    if not poll.holds_game_id(game_id):
        return None, None
    mine = f" AND {poll.working(device_ids)}" if device_ids else " AND 1 = 0"
    sql = (
        f"SELECT {_GAME.select()}, {_TABLE.select()}, {_OPEN.select()}, {_DEVICE.select()}"
        f" FROM {_table(Game)} g JOIN {_table(Table)} t ON t.id = g.table_id"
        f" LEFT JOIN {_table(OpenDeal)} o ON o.game_id = g.id"
        f" LEFT JOIN {_table(Device)} d ON d.table_id = g.table_id{mine}"
        f" WHERE g.id = %s ORDER BY {poll.DEVICE_ORDER} LIMIT 1"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*device_ids, game_id])
        row = cursor.fetchone()
    if row is None:
        return None, None
    game: Game = _GAME.make(row, 0)
    at = len(_GAME)
    game.table = _TABLE.make(row, at)
    at += len(_TABLE)
    open_deal: OpenDeal | None = _OPEN.make(row, at)
    if open_deal is None:
        Game._meta.get_field("open_deal").set_cached_value(game, None)
    else:
        game.open_deal = open_deal
    device: Device | None = _DEVICE.make(row, at + len(_OPEN))
    if device is not None:
        device.table = game.table
    return game, device


def seats(game: Game) -> None:
    """Load the game's seats, in order, with their players and phones, where ``game.seats.all()``
    finds them (as ``prefetch_related`` does)."""
    sql = (
        f"SELECT {_SEAT.select()}, {_PLAYER.select()}, {_PHONE.select()}"
        f" FROM {_table(Seat)} s JOIN {_table(Player)} p ON p.id = s.player_id"
        f" LEFT JOIN {_table(Device)} ph ON ph.id = s.phone_id"
        " WHERE s.game_id = %s ORDER BY s.position"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [game.pk])
        rows = cursor.fetchall()
    found = []
    for row in rows:
        seat: Seat = _SEAT.make(row, 0)
        seat.player = _PLAYER.make(row, len(_SEAT))
        seat.phone = _PHONE.make(row, len(_SEAT) + len(_PLAYER))
        seat.game = game
        found.append(seat)
    queryset = game.seats.all()
    queryset._result_cache = found
    queryset._prefetch_done = True  # type: ignore[attr-defined]
    game._prefetched_objects_cache = {  # type: ignore[attr-defined]
        **getattr(game, "_prefetched_objects_cache", {}),
        "seats": queryset,
    }
