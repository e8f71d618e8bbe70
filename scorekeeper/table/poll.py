"""A watching phone's check in one raw SQL query. The full path is the spec: ``access.game_and_device``
(the ORM: the phone's devices, then the game) gives the same answer as ``(game.version,
device.role)``; tests/table/test_poll.py proves they agree on every case of access.

Why a second path: it answers the live part's requests before anything is loaded (almost all a
bodiless 304: a phone without EventSource asks every second, ``live``), and the live streams
(``watchers``) check a phone's access with it as they open, on every reconnect and after a change
of the phone's access. Measured with the poll (``python -m benchmarks live`` of its time: gunicorn,
one worker, SQLite, this 2-core machine, two paired runs): 1.0 ms of server CPU per 304 with this
query, 2.8-3.1 ms with the ORM's two (building a query costs more than running it).
"""

from __future__ import annotations

from django.db import connection

from scorekeeper.table.models import Device, Game


def version_and_role(device_ids: list[int], game_id: int) -> tuple[int, str] | None:
    """The game's version and the role of the phone's device at its table (one that scores, if the
    phone holds two; a revoked one does not count), or None when there is no such game or none of
    ``device_ids`` is at its table."""
    low, high = connection.ops.integer_field_range(Game._meta.pk.get_internal_type())
    if not device_ids or not low <= game_id <= high:
        return None  # an id the database cannot hold names no game (and would raise OverflowError)
    qn = connection.ops.quote_name
    sql = (
        f"SELECT g.version, d.role FROM {qn(Game._meta.db_table)} g"
        f" JOIN {qn(Device._meta.db_table)} d ON d.table_id = g.table_id"
        f" WHERE g.id = %s AND d.revoked IS NULL AND d.id IN ({', '.join(['%s'] * len(device_ids))})"
        " ORDER BY d.role DESC, d.id DESC LIMIT 1"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id, *device_ids])
        row = cursor.fetchone()
    return None if row is None else (int(row[0]), str(row[1]))
