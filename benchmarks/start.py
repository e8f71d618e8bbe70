"""``make run``'s start: the seconds from the command to the first 200 answer (the home page, asked
from this machine every 20 ms), a warm start (nothing changed since the last: no migration, no
static files collected) and the first, cold one (a new installation: migrate and collectstatic).

Each run is ``make run`` itself (``PORT=...``), on an installation of its own (database, var/,
static files in a temporary folder, as the server tests keep theirs), stopped once it answered;
the CPU time its processes took until then (from /proc, the ones that ended included) is shown
beside: the part of the figure that does not depend on the machine's other work.
The warm starts run with the machine as it is, then again beside ``BENCH_START_LOAD`` (4) processes
that keep both cores busy (the other work of a shared machine: a browser, tests), which end with
the benchmark. Target: a warm start in at most 5 s, under that load too.
"""

from __future__ import annotations

import http.client
import multiprocessing
import os
import signal
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from benchmarks import procs

RUNS = int(os.environ.get("BENCH_START_RUNS", "5"))
LOAD = int(os.environ.get("BENCH_START_LOAD", "4"))
TIMEOUT = 60  # seconds: a start that takes longer fails the benchmark


def _answered(port: int) -> bool:
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", "/")
        response = conn.getresponse()
        response.read()
        conn.close()
    except OSError:
        return False
    return response.status == 200


def _cpu(pid: int) -> float:
    """The CPU seconds of ``pid`` and its descendants, those that ended included (from /proc)."""
    return sum(procs.cpu_seconds(p, ended_children=True) for p in procs.family(pid))


def _start(env: dict[str, str], log: Path) -> tuple[float, float]:
    """One ``make run``: the seconds to its first 200 and the CPU seconds its processes took
    until then; then it is stopped."""
    from tests.server import app

    port = app.free_port()
    began = time.monotonic()
    process = subprocess.Popen(
        ["make", "-s", "run", f"PORT={port}"],
        cwd=app.ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        while not _answered(port):
            if process.poll() is not None or time.monotonic() - began > TIMEOUT:
                raise RuntimeError(f"make run did not answer:\n{log.read_text()[-3000:]}")
            time.sleep(0.02)
        return time.monotonic() - began, _cpu(process.pid)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(30)


def _busy(until: float) -> None:
    while time.monotonic() < until:
        pass


@contextmanager
def _load(processes: int) -> Iterator[None]:
    """``processes`` processes that spin (each ends by itself after 10 minutes at most)."""
    context = multiprocessing.get_context("spawn")
    spinning = [context.Process(target=_busy, args=(time.monotonic() + 600,), daemon=True) for _ in range(processes)]
    for p in spinning:
        p.start()
    try:
        time.sleep(0.5)
        yield
    finally:
        for p in spinning:
            p.terminate()
        for p in spinning:
            p.join(10)


def _figures(starts: list[tuple[float, float]]) -> str:
    seconds = [s for s, _ in starts]
    runs = ", ".join(f"{s:.2f}" for s in seconds)
    cpu = statistics.median(c for _, c in starts)
    return f"median {statistics.median(seconds):.2f} s, max {max(seconds):.2f} s ({runs}); CPU {cpu:.2f} s"


def main() -> None:
    from tests.server import app

    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-start-") as tmp_name:
        tmp = Path(tmp_name)
        env = app.app_env(tmp)
        log = tmp / "run.log"
        cold, cold_cpu = _start(env, log)
        idle = [_start(env, log) for _ in range(RUNS)]
        with _load(LOAD):
            loaded = [_start(env, log) for _ in range(RUNS)]
    print(f"cold start (migrate, collectstatic): {cold:.2f} s, CPU {cold_cpu:.2f} s")
    print(f"warm start, the machine as it is: {_figures(idle)}")
    print(f"warm start beside {LOAD} busy processes: {_figures(loaded)} (target <= 5 s)")
