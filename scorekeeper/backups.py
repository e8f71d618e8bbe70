"""A folder of daily copies (``manage.py backup --keep N FOLDER``, what deploy/'s backup timer runs):
each copy named by the time it was made, the N newest kept, and a PostgreSQL database copied by
``pg_dump`` (Debian's ``postgresql-client``) as SQLite's is by its online backup API.

Only the command's own copies are ever removed: files named ``scores-<time>.<kind>`` in that folder,
of the kind just written (``sqlite3``, ``dump`` or ``xml``); anything else in the folder stays.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from datetime import datetime
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError
from django.db.backends.postgresql.client import DatabaseClient

PREFIX = "scores-"


def is_folder(path: str) -> bool:
    """Whether ``path`` names a folder of copies: one that exists, or a name ending in ``/``."""
    return path.endswith(("/", "\\")) or Path(path).is_dir()


def new_copy(folder: Path, kind: str, now: datetime | None = None) -> Path:
    """A name for a new copy in ``folder``: ``scores-2026-11-27-233000.sqlite3`` (``-2`` after the
    time when a copy was made in the same second)."""
    stamp = f"{PREFIX}{(now or datetime.now()):%Y-%m-%d-%H%M%S}"
    path, n = folder / f"{stamp}.{kind}", 1
    while path.exists():
        n += 1
        path = folder / f"{stamp}-{n}.{kind}"
    return path


def copies(folder: Path, kind: str) -> list[Path]:
    """The command's copies of ``kind`` in ``folder``, oldest first."""
    found = [p for p in folder.glob(f"{PREFIX}*.{kind}") if p.is_file() and not p.is_symlink()]
    return sorted(found, key=lambda p: (p.stat().st_mtime_ns, p.name))


def rotate(folder: Path, kind: str, keep: int) -> list[Path]:
    """Remove all but the ``keep`` newest copies of ``kind`` in ``folder``; returns those removed."""
    if keep < 1:
        raise CommandError("--keep needs at least 1: the copy just made is kept")
    gone = copies(folder, kind)[:-keep]
    for path in gone:
        path.unlink(missing_ok=True)
    return gone


def tools_installed() -> bool:
    """Whether PostgreSQL's client programs ``pg_dump`` and ``pg_restore`` are installed."""
    return all(shutil.which(program) for program in ("pg_dump", "pg_restore"))


def dump_postgresql(settings_dict: dict[str, Any], target: Path) -> None:
    """Copy a PostgreSQL database to ``target`` with ``pg_dump --format=custom`` (restore with
    ``pg_restore``), the connection as Django's own ``dbshell`` makes it (password in the
    environment, never on the command line); ``pg_restore --list`` then reads the copy whole."""
    if not tools_installed():
        raise CommandError(
            "pg_dump is not installed: install PostgreSQL's client programs (Debian: apt-get install "
            "postgresql-client, of the server's major version or newer), or write every row with: "
            "manage.py backup --export PATH"
        )
    args, env = DatabaseClient.settings_to_cmd_args_env(settings_dict, ["--format=custom", f"--file={target}"])
    environ = {**os.environ, **(env or {})}
    for argv in (["pg_dump", *args[1:]], ["pg_restore", "--list", str(target)]):
        done = subprocess.run(argv, env=environ, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise CommandError(f"{argv[0]} failed: {done.stderr.strip()}")
