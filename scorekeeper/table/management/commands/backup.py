"""`python manage.py backup PATH`: a whole copy of the running SQLite database, made with SQLite's
online backup API (consistent, saves go on meanwhile; the deals still in the write-ahead log are in
it). Restore: stop the app, put the copy in place of ``db.sqlite3`` (and remove ``db.sqlite3-wal``
and ``db.sqlite3-shm``), start the app. On PostgreSQL it runs ``pg_dump --format=custom`` (Debian's
``postgresql-client``; restore with ``pg_restore``).

`python manage.py backup --keep N FOLDER/`: a new copy in FOLDER named by the time
(``scores-2026-11-27-233000.sqlite3``), then only the N newest of them kept (``scorekeeper.backups``).

`python manage.py backup --export PATH`: every table, phone, link (revoked or not), player, game,
seat, deal and change, with their ids and dates, and the admin's users, in Django's XML
serialization (``dumpdata``: XML keeps a date's microseconds, JSON would cut them to milliseconds),
on any database. Restore it into an empty database: ``manage.py migrate``, then ``manage.py
loaddata PATH``: the rows come back as they were (a test compares every one on SQLite and on
PostgreSQL). It also moves an installation from SQLite to PostgreSQL.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper

from scorekeeper import backups

# What a whole export holds: the app's rows and the admin's users. Left out: what ``migrate``
# makes again (content types, permissions), the admin's login sessions and its login throttling.
EXPORTED = ["table", "auth.user", "auth.group", "admin.logentry"]
EXPORT_OPTIONS = {"format": "xml", "use_natural_foreign_keys": True, "use_natural_primary_keys": False}


class Command(BaseCommand):
    help = (
        "Copy the running database to PATH, or into the folder PATH/ (--keep N: only the N newest copies stay); "
        "--export: every row, for loaddata on any database."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="the file to write (it must not exist yet), or a folder of copies (with /)")
        parser.add_argument("--export", action="store_true", help="write every row as XML for loaddata (any database)")
        parser.add_argument("--keep", type=int, help="into a folder: keep only the N newest copies in it")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS)

    def handle(self, *args: Any, path: str, export: bool, keep: int | None, database: str, **options: Any) -> None:
        connection = connections[database]
        kind = "xml" if export else {"sqlite": "sqlite3", "postgresql": "dump"}.get(connection.vendor, "")
        if keep is not None and (keep < 1 or not backups.is_folder(path)):
            raise CommandError("--keep N takes N of at least 1 and a folder of copies (end its name with /)")
        target = backups.new_copy(Path(path), kind) if backups.is_folder(path) else Path(path)
        if target.exists():
            raise CommandError(f"{target} exists already: name a new file")
        target.parent.mkdir(parents=True, exist_ok=True)  # a folder of copies, made by the first
        if export:
            self._export(target, database)
            self.stdout.write(f"Exported every row to {target}. Restore: migrate, then loaddata {target}.")
        else:
            self._copy(connection, target)
        if keep is not None:
            for gone in backups.rotate(target.parent, kind, keep):
                self.stdout.write(f"Removed the older copy {gone}.")

    def _copy(self, connection: BaseDatabaseWrapper, target: Path) -> None:
        """A copy of the whole database: SQLite's online backup, or ``pg_dump``'s."""
        name = connection.settings_dict["NAME"]
        if connection.vendor == "postgresql":
            partial = _partial(target)
            try:
                backups.dump_postgresql(connection.settings_dict, partial)
                os.replace(partial, target)
            finally:
                partial.unlink(missing_ok=True)
            self.stdout.write(f"Backed up {name} to {target}. Restore: pg_restore.")
        elif connection.vendor == "sqlite":
            copy_sqlite(name, target)
            self.stdout.write(f"Backed up {name} to {target}.")
        else:
            raise CommandError(f"no copy of a {connection.vendor} database: write every row with --export")

    def _export(self, target: Path, database: str) -> None:
        partial = _partial(target)
        try:
            call_command("dumpdata", *EXPORTED, database=database, output=str(partial), verbosity=0, **EXPORT_OPTIONS)
            os.replace(partial, target)
        finally:
            partial.unlink(missing_ok=True)


def copy_sqlite(source: str | os.PathLike[str], target: Path) -> None:
    """Copy a SQLite database that may be in use, consistently (one read transaction: the copy is
    the database as one moment's committed saves left it), to ``target``, made whole or not at all."""
    partial = _partial(target)
    try:
        with closing(sqlite3.connect(source, timeout=20)) as src, closing(sqlite3.connect(partial)) as dst:
            src.backup(dst)
            check = dst.execute("PRAGMA integrity_check").fetchone()[0]
        if check != "ok":
            raise CommandError(f"the copy is damaged ({check}): nothing written")
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)


def _partial(target: Path) -> Path:
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".partial")
    os.close(fd)
    return Path(name)
