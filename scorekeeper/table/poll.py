"""A watching phone's check in one raw SQL query. The full path is the spec: the ORM's game with its
table and the phone's device there (``access.device_at``) give the same answer as
``(game.version, game.table.names, device.role, game.table_id)``; tests/table/test_poll.py proves
they agree on every case of access.

Why a second path: it answers the live part's requests before anything is loaded (almost all a
bodiless 304: a phone without EventSource asks every second, ``live``), and the live streams
(``watchers``) check a phone's access with it as they open, on every reconnect and after a change
of the phone's access. Measured with the poll (``python -m benchmarks live`` of its time: gunicorn,
one worker, SQLite, this 2-core machine, two paired runs): 1.0 ms of server CPU per 304 with this
query, 2.8-3.1 ms with the ORM's two (building a query costs more than running it).
"""

from __future__ import annotations

from typing import NamedTuple

from django.db import connection

from scorekeeper.table.models import Device, Game, Table


class LiveState(NamedTuple):
    """What a game's live page shows changes with (``live.etag``), and the phone's role there."""

    version: int  # the game's: bumped by every write to it
    names: int  # its table's: bumped by a rename of one of its players (every game of the table shows it)
    role: str
    table: int


# The phone's device at a game's table, in SQL (as ``access.device_at``): of its devices ``d``
# there that still work, one that scores ("score" sorts after "follow"), else the newest.
DEVICE_ORDER = "d.role DESC, d.id DESC"


def working(device_ids: list[int]) -> str:
    """The condition on ``d`` for the phone's devices that still work (``device_ids`` its parameters)."""
    return f"d.revoked IS NULL AND d.id IN ({', '.join(['%s'] * len(device_ids))})"


def holds_game_id(game_id: int) -> bool:
    """Whether the database can hold ``game_id``: one it cannot names no game (and a query with it
    would raise OverflowError)."""
    low, high = connection.ops.integer_field_range(Game._meta.pk.get_internal_type())
    return low <= game_id <= high


def live_state(device_ids: list[int], game_id: int) -> LiveState | None:
    """The game's version and its table's names, the role of the phone's device at its table (one
    that scores, if the phone holds two; a revoked one does not count), or None when there is no
    such game or none of ``device_ids`` is at its table."""
    if not device_ids or not holds_game_id(game_id):
        return None
    qn = connection.ops.quote_name
    sql = (
        f"SELECT g.version, t.names, d.role, g.table_id FROM {qn(Game._meta.db_table)} g"
        f" JOIN {qn(Table._meta.db_table)} t ON t.id = g.table_id"
        f" JOIN {qn(Device._meta.db_table)} d ON d.table_id = g.table_id"
        f" WHERE g.id = %s AND {working(device_ids)} ORDER BY {DEVICE_ORDER} LIMIT 1"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id, *device_ids])
        row = cursor.fetchone()
    return None if row is None else LiveState(int(row[0]), int(row[1]), str(row[2]), int(row[3]))
