"""``make run`` starts on a database that refuses writes (issue 37, defect 7): a backup's copy, a
read-only file or server. It writes as it starts (the games another engine scored, scored again;
old submissions purged) and stopped there; now it leaves those for a start that can write, serves
every page and the export, and answers a write with our 503 page, what was typed kept.

The SQLite file is made read-only (``chmod 444``) and ``manage.py serve`` runs without the
capability that lets root write anyway (as tests/server/test_recovery.py does)."""

from __future__ import annotations

import json
import shutil
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.server import app
from tests.server.test_recovery import NO_OVERRIDE, save

# Writes the start would make: a game scored by an earlier engine, a submission 40 days old.
STALE = """
from datetime import timedelta
from django.utils import timezone
from scorekeeper.table.models import Game, Submission
Game.objects.update(scored_with="an earlier engine")
Submission.objects.create(token="old", answer="/", created=timezone.now() - timedelta(days=40))
"""


def get(url: str, cookie: str) -> int:
    request = urllib.request.Request(url, headers={"Cookie": f"sk_devices={cookie}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_make_run_starts_and_serves_on_a_read_only_database(tmp_path: Path):
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv (util-linux) is needed to hold the server to the file's mode")
    env = app.app_env(tmp_path)
    assert app.manage(env, "migrate", "--noinput").returncode == 0
    seed = app.manage(env, "shell", "-c", app.SEED % {"players": ["Ann", "Ben"], "first_dealer": 0, "watcher": False})
    seeded = json.loads(seed.stdout.strip().splitlines()[-1])
    assert app.manage(env, "shell", "-c", STALE).returncode == 0
    database = tmp_path / "db.sqlite3"
    database.chmod(0o444)
    port = app.free_port()
    command = [*NO_OVERRIDE, sys.executable, str(app.ROOT / "manage.py"), "serve", "--bind", "127.0.0.1"]
    try:
        served = app.start(tmp_path, command=[*command, "--port", str(port)], port=port, env=env)
        try:
            base, game, table, cookie = served.url, seeded["game"], seeded["table"], seeded["cookie"]
            pages = ["/", f"/games/{game}/", f"/history/{game}/", f"/tables/{table}/", "/history/", "/players/"]
            pages += ["/history/export.json", "/history/export.csv", f"/history/{game}/export.json", "/rules/"]
            assert {page: get(base + page, cookie) for page in pages} == dict.fromkeys(pages, 200)
            assert save(base, table, cookie, "Thursday club") == 503
            assert "The database takes no changes" in served.output()
        finally:
            served.stop()
    finally:
        database.chmod(0o644)
    names = "from scorekeeper.table.models import Table; print(Table.objects.get().name)"
    assert app.manage(env, "shell", "-c", names).stdout.strip().splitlines()[-1] == "Test table"  # nothing written
