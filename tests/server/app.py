"""The app as ``make run`` serves it (``manage.py serve``: gunicorn, several processes, debug off,
WhiteNoise), started for a test or a benchmark on its own SQLite file, secret key and static
folder, and stopped after. It listens on 127.0.0.1, or inside a network namespace the caller made.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

# Seeds a table, its scoring phone (and a following one) and a game; prints the game, the table and
# the phones' cookies.
SEED = """
import json
from django.http import HttpResponse
from django.test import RequestFactory
from scorekeeper.table import access
from scorekeeper.table.models import Device, Role
from scorekeeper.table.phones import services as phone_services
from scorekeeper.table.games import services as game_services

def cookie(device):
    response = HttpResponse()
    access.remember(response, RequestFactory().get("/"), device)
    return response.cookies[access.COOKIE].value

table, device = phone_services.create_table(name="Test table", device_name="Scorer's phone")
game = game_services.create_game(table=table, kind="oklahoma", profile="book", options={}, players=%(players)r,
                            first_dealer=%(first_dealer)r, by=device)
seeded = {"game": game.pk, "table": table.pk, "device": device.pk, "cookie": cookie(device)}
if %(watcher)r:
    seeded["watcher_cookie"] = cookie(Device.objects.create(table=table, name="Watching phone", role=Role.FOLLOW))
print(json.dumps(seeded))
"""


def production_recipe() -> tuple[dict[str, str], list[list[str]]]:
    """The README's Production section: what it exports on every app server, and the commands it
    runs in order (the virtual environment's programs: this one's)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Production", 1)[1].split("\n## ", 1)[0]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0].replace("\\\n", " ")
    exports: dict[str, str] = {}
    commands: list[list[str]] = []
    for line in block.splitlines():
        words = shlex.split(line, comments=True)
        if words[:1] == ["export"]:
            name, value = words[1].split("=", 1)
            exports[name] = value
        elif words:
            assert words[0].startswith(".venv/bin/"), line
            commands.append([str(Path(sys.executable).parent / words[0].removeprefix(".venv/bin/")), *words[1:]])
    return exports, commands


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def app_env(tmp: Path, **extra: str) -> dict[str, str]:
    """The environment of an installation kept in ``tmp`` (database, var/, static files)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SCOREKEEPER_", "DATABASE_"))}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}",
        SCOREKEEPER_VAR_DIR=str(tmp / "var"),
        DJANGO_STATIC_ROOT=str(tmp / "static"),
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def stop(process: subprocess.Popen[str]) -> None:
    """Stop a server started in a process group of its own: TERM, then KILL if it lingers."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)


@dataclass
class AppServer:
    url: str
    process: subprocess.Popen[str]
    env: dict[str, str]
    log: Path
    prefix: list[str] = field(default_factory=list)

    def manage(self, *args: str) -> subprocess.CompletedProcess[str]:
        return manage(self.env, *args, prefix=self.prefix)

    def seed(self, players: list[str], first_dealer: int | None = 0, watcher: bool = False) -> dict[str, Any]:
        done = self.manage("shell", "-c", SEED % {"players": players, "first_dealer": first_dealer, "watcher": watcher})
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.strip().splitlines()[-1])

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        stop(self.process)


def manage(env: dict[str, str], *args: str, prefix: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*(prefix or []), sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )


def start(
    tmp: Path,
    *,
    command: list[str] | None = None,
    host: str = "127.0.0.1",
    port: int | None = None,
    prefix: list[str] | None = None,
    env: dict[str, str] | None = None,
    wait_for: str | None = None,
    timeout: float = 60,
) -> AppServer:
    """Migrate a fresh installation in ``tmp`` and serve it as ``make run`` does (or run
    ``command``, e.g. ``make run``), in its own process group; wait until it answers."""
    port = port or free_port()
    env = env or app_env(tmp)
    done = manage(env, "migrate", "--noinput", prefix=prefix)
    assert done.returncode == 0, done.stdout + done.stderr
    command = command or [sys.executable, str(ROOT / "manage.py"), "serve", "--bind", host, "--port", str(port)]
    log = tmp / "server.log"
    process = subprocess.Popen(
        [*(prefix or []), *command],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    server = AppServer(url=f"http://{host}:{port}", process=process, env=env, log=log, prefix=prefix or [])
    probe = wait_for or host
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server stopped ({process.returncode}):\n{server.output()}")
        if _answers(probe, port, prefix):
            return server
        time.sleep(0.2)
    server.stop()
    raise AssertionError(f"the server did not answer in {timeout} s:\n{server.output()}")


def _answers(host: str, port: int, prefix: list[str] | None) -> bool:
    if prefix:  # inside a network namespace: ask from there
        code = f"import socket; socket.create_connection(({host!r}, {port}), timeout=1).close()"
        return subprocess.run([*prefix, sys.executable, "-c", code], capture_output=True, check=False).returncode == 0
    try:
        socket.create_connection((host, port), timeout=1).close()
    except OSError:
        return False
    return True
