"""What the web benchmarks share: a temporary database the app is set up on, timings (wall-clock
medians, with the process's CPU time beside them: on a noisy machine the CPU time shows the work,
the wall time what a phone waits), the caches a cold page starts without, and a multi-worker
gunicorn serving the app to measure throughput against a bare view in the same run."""

from __future__ import annotations

import http.client
import os
import socket
import statistics
import subprocess
import tempfile
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SETTINGS = "benchmarks.bench_settings"
QUIET = "ignore:No directory at"


def use_temp_database(path: Path) -> None:
    """Set Django up on a new SQLite database at ``path`` (or point it there when another part of
    the run set Django up already), with the production settings (debug off) and migrate it."""
    os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", SETTINGS)
    # WhiteNoise notes that nothing was collected (the benchmarks need no static file served).
    os.environ["PYTHONWARNINGS"] = QUIET
    warnings.filterwarnings("ignore", message="No directory at")
    os.environ["DJANGO_DEBUG"] = "0"
    # The request log's line per request (scorekeeper/request_log.py) would flood the figures printed.
    os.environ.setdefault("DJANGO_REQUEST_LOG", "0")
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key")
    import django
    from django.apps import apps

    if not apps.ready:
        django.setup()
    else:
        from django.db import connections

        connections.close_all()
        connections["default"].settings_dict["NAME"] = str(path)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


@contextmanager
def temp_dir(prefix: str) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix=prefix) as name:
        yield Path(name)


@dataclass
class Timing:
    wall: list[float]
    cpu: list[float]

    @property
    def ms(self) -> float:
        return statistics.median(self.wall) * 1000

    @property
    def cpu_ms(self) -> float:
        return statistics.median(self.cpu) * 1000

    def __str__(self) -> str:
        return f"{self.ms:7.1f} ms (cpu {self.cpu_ms:.1f})"


def timed(fn: Callable[[], Any], repeats: int, before: Callable[[], Any] | None = None) -> Timing:
    """Median wall and CPU time of ``fn`` over ``repeats`` runs; ``before`` runs untimed before each."""
    wall, cpu = [], []
    for _ in range(repeats):
        if before is not None:
            before()
        w, c = time.perf_counter(), time.process_time()
        fn()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return Timing(wall, cpu)


def clear_caches() -> None:
    """What a page finds cached goes: the engine's results, the pages' fragments."""
    from django.core.cache import cache

    from scorekeeper.table.scoring import engine

    engine.clear_caches()
    cache.clear()


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"


class Plays:
    """Counts the deals the engine plays (``games.play``) while it is installed."""

    def __init__(self) -> None:
        from scorekeeper.rules import games

        self.games = games
        self.real = games.play
        self.count = 0

    def __enter__(self) -> Plays:
        def counting(*args: Any) -> Any:
            self.count += 1
            return self.real(*args)

        self.games.play = counting  # type: ignore[assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        self.games.play = self.real


# -------------------------------------------------------------------------------- gunicorn


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def gunicorn(workers: int, threads: int) -> Iterator[int]:
    """The app (with the benchmark's URLs) served from the current database as ``make run`` serves
    it: ``manage.py serve``'s gunicorn command line (uvicorn workers, the pages on a pool of
    ``threads`` threads a process, database connections kept); its port."""
    from scorekeeper.server.management.commands.serve import _gunicorn

    port = _free_port()
    env = dict(
        os.environ, DJANGO_SETTINGS_MODULE=SETTINGS, DATABASE_CONN_MAX_AGE="600", SCOREKEEPER_THREADS=str(threads)
    )
    proc = subprocess.Popen(_gunicorn("127.0.0.1", port, workers, access_log=False, tls=None), env=env)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status, _ = request(port, "/bench/bare/")
                if status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("gunicorn did not start")
            time.sleep(0.2)
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def request(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, int]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        body = response.read()
        return response.status, len(body)
    finally:
        conn.close()


def throughput(port: int, path: str, seconds: float, clients: int, headers: dict[str, str] | None = None) -> float:
    """Requests per second answered 200 with ``clients`` clients asking one after another."""
    stop = time.monotonic() + seconds
    done = [0] * clients
    failed = [0] * clients

    def client(i: int) -> None:
        while time.monotonic() < stop:
            status, _ = request(port, path, headers)
            if status == 200:
                done[i] += 1
            else:
                failed[i] += 1

    start = time.monotonic()
    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if any(failed):
        raise RuntimeError(f"{sum(failed)} requests to {path} failed")
    return sum(done) / (time.monotonic() - start)
