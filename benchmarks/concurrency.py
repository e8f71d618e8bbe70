"""Concurrent saves: 4 phones x 100 saves each, all at once through the real deal form (GET the
form, POST it with its hidden fields), to one game and to four games, on SQLite and on PostgreSQL,
under the server ``make run`` starts (``manage.py serve``: gunicorn, 2 workers x 4 threads), under
Django's runserver (``make dev``) and under gunicorn with 4 sync workers.

Prints, per run, the saves per second and what went wrong: failed (a save never answered "saved"),
lost (answered "saved" and not in the game), duplicated (in the game twice). On one game the phones
also meet conflicts: another phone saved that deal number first, the page says so and keeps the
cards, and the phone saves them again as the next deal (counted, with the most one save met; not
a failure unless a save is still refused after 500 tries).

PostgreSQL is a throwaway server (``tests.postgres``, fsync on as a real one), skipped with a note
when PostgreSQL is not installed. ``BENCH_PHONES`` and ``BENCH_SAVES`` change the load;
``BENCH_SERVERS`` (e.g. ``serve,runserver``) the servers.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from tests import postgres

ROOT = Path(__file__).resolve().parent.parent
PHONES = int(os.environ.get("BENCH_PHONES", "4"))
SAVES = int(os.environ.get("BENCH_SAVES", "100"))
SECRET = "bench-only-secret-key-not-for-production-000000000000"
SERVERS = ("serve", "runserver", "gunicorn -w 4")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _environment(url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
        "DJANGO_DEBUG": "0",  # as served in production
        "DJANGO_SECRET_KEY": SECRET,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_LOG_LEVEL": "ERROR",
    }


def _start(server: str, port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    manage = [sys.executable, "manage.py"]
    if server == "serve":  # make run
        argv = [*manage, "serve", "--bind", "127.0.0.1", "--port", str(port)]
    elif server == "runserver":  # make dev: debug on
        argv = [*manage, "runserver", "--noreload", f"127.0.0.1:{port}"]
        env = {**env, "DJANGO_DEBUG": "1"}
    else:
        gunicorn = Path(sys.executable).with_name("gunicorn")
        argv = [str(gunicorn), "scorekeeper.wsgi", "-w", "4", "-b", f"127.0.0.1:{port}", "--log-level", "warning"]
    proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{server} exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/rules/", timeout=5) as response:
                if response.status == 200:
                    return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"{server} did not answer within 60 s")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def measure(label: str, url: str) -> None:
    """In a process of its own (its settings name this database): every server, both loads."""
    os.environ.update(_environment(url))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    wanted = os.environ.get("BENCH_SERVERS", "serve,runserver,gunicorn").split(",")
    chosen = [s for s in SERVERS if s.split()[0] in wanted]
    for server in chosen:
        port = _free_port()
        proc = _start(server.split()[0], port, _environment(url))
        try:
            for games in (1, 4):
                _saves_at_once(label, server, port, games)
        finally:
            _stop(proc)


def _saves_at_once(label: str, server: str, port: int, games: int) -> None:
    """``PHONES`` phones of a new table save ``SAVES`` deals each, all at once, to ``games`` games
    through the server on ``port``; prints what came of them."""
    from django.db import connections

    from scorekeeper.table import access
    from scorekeeper.table.games.services import create_game
    from scorekeeper.table.models import Deal, Device, Role
    from scorekeeper.table.phones.services import create_table
    from tests.conftest import phone_cookie
    from tests.phones import OPTIONS, PLAYERS, audit, enter_deals

    table, first = create_table(name="Bench", device_name="Phone 1")
    devices = [first] + [
        Device.objects.create(table=table, name=f"Phone {k + 1}", role=Role.SCORE) for k in range(1, PHONES)
    ]
    played = [
        create_game(table=table, kind="oklahoma", profile="book", options=OPTIONS, players=PLAYERS)
        for _ in range(games)
    ]
    cookies = [{access.COOKIE: phone_cookie(d)} for d in devices]
    connections.close_all()
    tally = enter_deals(f"http://127.0.0.1:{port}", cookies, [g.pk for g in played], SAVES)
    found = audit(tally, Deal.objects.filter(game__in=played).values_list("game_id", "cards"))
    where = "one game" if games == 1 else f"{games} games"
    print(
        f"{label:<10} {server:<14} {where:<9} {PHONES} phones x {SAVES}: "
        f"{len(tally.saved)} saved in {tally.seconds:5.1f} s, {tally.rate:6.1f} saves/s; "
        f"failed {len(tally.failed)}, lost {len(found.lost)}, duplicated {len(found.duplicated)}, "
        f"unanswered {len(found.unanswered)}"
        + (
            f" (conflicts, saved again: {tally.conflicts}, at most {tally.most_conflicts} for one save)"
            if tally.conflicts
            else ""
        ),
        flush=True,
    )
    for why in sorted(set(tally.failed))[:3]:
        print(f"    failed: {why}", flush=True)


def _run(label: str, url: str) -> None:
    subprocess.run([sys.executable, "-m", "benchmarks.concurrency", "--measure", label, url], cwd=ROOT, check=True)


def main() -> None:
    print(f"concurrent saves through the deal form: {PHONES} phones x {SAVES} saves, all at once", flush=True)
    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as tmp:
        _run("SQLite", f"sqlite:///{Path(tmp) / 'bench.sqlite3'}")
    try:
        with postgres.server(durable=True) as url:
            _run("PostgreSQL", url)
    except postgres.Unavailable as exc:
        print(f"PostgreSQL: skipped ({exc})", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--measure"]:
        measure(sys.argv[2], sys.argv[3])
    else:
        main()
