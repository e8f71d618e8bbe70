"""A warm ``make run`` (issue 23): ``serve`` migrates only when a migration is unapplied, and collects
the static files only when a source file changed or the collection is missing."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.server import startup


@pytest.fixture
def collected(tmp_path: Path, settings: Any, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Static sources in a folder of their own; collectstatic's process stood in for (it writes the
    manifest) and each of its command lines recorded."""
    sources = tmp_path / "static"
    sources.mkdir()
    (sources / "app.css").write_text("body {}")
    settings.STATICFILES_DIRS = [sources]
    settings.STATICFILES_FINDERS = ["django.contrib.staticfiles.finders.FileSystemFinder"]
    settings.STATIC_ROOT = tmp_path / "collected"
    calls: list[list[str]] = []

    class Done:
        returncode = 0

    def run(command: list[str], **kwargs: Any) -> Done:
        calls.append(command)
        Path(settings.STATIC_ROOT).mkdir(exist_ok=True)
        (Path(settings.STATIC_ROOT) / startup.MANIFEST).write_text("{}")
        return Done()

    monkeypatch.setattr(startup.subprocess, "run", run)
    return calls


def test_the_static_files_are_collected_again_only_when_a_source_changed(collected, settings):
    env = dict(os.environ)
    assert startup.collect_if_changed(env) and len(collected) == 1 and "collectstatic" in collected[0]
    assert not startup.collect_if_changed(env)  # a warm start: nothing changed
    source = Path(settings.STATICFILES_DIRS[0]) / "app.css"
    source.write_text("body { color: red }")
    os.utime(source, ns=(source.stat().st_atime_ns, source.stat().st_mtime_ns + 10**9))
    assert startup.collect_if_changed(env) and len(collected) == 2
    (Path(settings.STATICFILES_DIRS[0]) / "new.js").write_text("")
    assert startup.collect_if_changed(env) and len(collected) == 3
    (Path(settings.STATIC_ROOT) / startup.MANIFEST).unlink()  # the collection removed
    assert startup.collect_if_changed(env) and len(collected) == 4
    assert not startup.collect_if_changed(env)


@pytest.mark.django_db
def test_a_migrated_database_is_not_migrated_again(monkeypatch):
    ran: list[Any] = []
    monkeypatch.setattr(startup, "call_command", lambda *args, **kwargs: ran.append(args))
    assert startup.pending_migrations() == 0
    assert not startup.migrate_if_needed() and not ran


@pytest.mark.django_db
def test_a_database_behind_is_migrated(monkeypatch):
    ran: list[Any] = []
    monkeypatch.setattr(startup, "pending_migrations", lambda: 2)
    monkeypatch.setattr(startup, "call_command", lambda *args, **kwargs: ran.append(args))
    assert startup.migrate_if_needed() and ran == [("migrate",)]
