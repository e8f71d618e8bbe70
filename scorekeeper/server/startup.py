"""What ``manage.py serve`` (``make run``) does before it serves, and only when it is needed: a warm
start (nothing changed since the last) starts serving in about a second (issue 23: every start
re-ran migrate and collectstatic, half of each start; ``make bench start`` measures it).

- ``migrate_if_needed``: the database's unapplied migrations, applied in this process (no
  ``manage.py migrate`` process of its own: Django is set up once);
- ``refresh_if_needed``: the games whose stored results come from another version of the engine
  (an upgrade) scored again (``manage.py refresh_results``);
- ``collect_if_changed``: the static files collected again (hashed names, compressed) only when
  a source file changed since the last collection, or the collection is missing: a stamp beside
  the collected files holds a digest of every source file's path, size and modification time.

The start's writes other than migrations (the games scored again, old submissions purged) are done
only if the database takes them (``writes_at_start``): a read-only database (a backup's copy, a
read-only server) or a full disk still serves every page.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles.finders import get_finders
from django.core.management import call_command
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor

from scorekeeper.table.models import Game
from scorekeeper.table.scoring import engine

STAMP = ".collected"  # in STATIC_ROOT: the digest of the sources it was collected from
MANIFEST = "staticfiles.json"


def pending_migrations() -> int:
    executor = MigrationExecutor(connection)
    return len(executor.migration_plan(executor.loader.graph.leaf_nodes()))


def migrate_if_needed() -> bool:
    """Apply the unapplied migrations, if any (whether there were)."""
    if not pending_migrations():
        return False
    call_command("migrate", interactive=False, verbosity=1)
    return True


def refresh_if_needed() -> bool:
    """Score again the games the current engine did not score, if any (whether there were)."""
    if not Game.objects.exclude(scored_with=engine.RESULTS_VERSION).exists():
        return False
    call_command("refresh_results", verbosity=1)
    return True


def writes_at_start(*steps: Callable[[], object]) -> bool:
    """Do the start's writes (``steps``, in order) if the database takes them: on one that refuses
    writes (a read-only file or server, a full disk) the server starts all the same — every page
    reads, and each write answers 503 with what was typed (``recovery.RefusedWrites``) — and what
    is left waits for a start that can write. Whether every step was done."""
    for step in steps:
        try:
            step()
        except DatabaseError:
            if not connection.in_atomic_block:  # a connection a write failed on: the next opens afresh
                connection.close()
            return False
    return True


def sources_digest() -> str:
    """A digest of every static source file the finders find: its path, size and modification time."""
    digest = hashlib.blake2b(digest_size=16)
    found = []
    for finder in get_finders():
        for path, storage in finder.list([]):
            stat = Path(storage.path(path)).stat()
            found.append(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}")
    for line in sorted(found):
        digest.update(line.encode() + b"\n")
    return digest.hexdigest()


def collect_if_changed(env: Mapping[str, str], root: Path | None = None) -> bool:
    """Collect the static files (``collectstatic`` in a process with ``env``: hashed names) unless
    the collection in ``root`` (STATIC_ROOT) was made from these very sources; whether it ran."""
    root = Path(settings.STATIC_ROOT if root is None else root)
    stamp, digest = root / STAMP, sources_digest()
    if (root / MANIFEST).is_file() and stamp.is_file() and stamp.read_text().strip() == digest:
        return False
    manage = [sys.executable, str(settings.BASE_DIR / "manage.py")]
    done = subprocess.run([*manage, "collectstatic", "--noinput", "--verbosity", "0"], env=dict(env), check=False)
    if done.returncode:
        raise RuntimeError("collectstatic failed")
    stamp.write_text(digest + "\n")
    return True
