"""What every write that changes what a game page shows tells the phones watching it, inside its
transaction (``live``): a game changed (``game_changed``: its version bumped; the writes that store
results bump it with them and call ``games_changed``), its table's names changed (a rename of a
player, of the table, a change of its phones: ``names_changed``), a phone's access changed
(``devices_changed``). On PostgreSQL each sends a ``NOTIFY`` on ``CHANNEL``, delivered on commit to
every app process (``hub`` LISTENs); on SQLite nothing (each process watching compares the versions).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection
from django.db.models import F

from scorekeeper.table.models import Game, Table

# The NOTIFY channel of a PostgreSQL database: payload "g<game id>:<version>:<its table's names>",
# "n<table id>" (a rename) or "d<device id>".
CHANNEL = "scorekeeper_live"


def game_changed(game: Game) -> None:
    """The game changed for the phones watching it (its live part: seats, the open deal), not its
    deals or scores: its version bumped (``game.version`` read back) and its watchers told."""
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1)
    game.refresh_from_db(fields=["version"])
    games_changed([game.pk])


def _notify(sql: str, ids: list[int]) -> None:
    if ids and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(sql, [CHANNEL, ids])


def games_changed(game_ids: Iterable[int]) -> None:
    """Tell the watchers of these games that they changed (call it inside the write's transaction,
    after bumping their versions): on PostgreSQL a NOTIFY of each game's version and its table's
    names, sent on commit; on SQLite nothing (the processes watching compare them)."""
    qn = connection.ops.quote_name
    games, tables = qn(Game._meta.db_table), qn(Table._meta.db_table)
    _notify(
        f"SELECT pg_notify(%s, 'g' || g.id || ':' || g.version || ':' || t.names) FROM {games} g"
        f" JOIN {tables} t ON t.id = g.table_id WHERE g.id = ANY(%s)",
        sorted(set(game_ids)),
    )


def names_changed(table_id: int) -> None:
    """Tell the watchers of every game of this table that its players' names changed (a rename;
    call it inside the write's transaction, after bumping the table's ``names``): each checks its
    game again. On SQLite nothing (the processes watching compare the tables' names)."""
    _notify("SELECT pg_notify(%s, 'n' || t) FROM unnest(%s::bigint[]) AS t", [table_id])


def devices_changed(device_ids: Iterable[int]) -> None:
    """Tell the streams of these phones that their access changed (taken off the table, let back,
    another role): each checks it again, and a phone taken off the table is told at once."""
    _notify("SELECT pg_notify(%s, 'd' || d) FROM unnest(%s::bigint[]) AS d", sorted(set(device_ids)))
