"""Live game pages: what a watching phone costs the server, and how many one core holds.

The app runs as ``make run`` serves it (``manage.py serve``: gunicorn, gthread, debug off), with
ONE worker process, on a SQLite file, listening on 127.0.0.1. Client threads in this process play
watching phones: each holds a keep-alive connection and polls the live part of a game page with
the version it shows (``If-None-Match``), as ``static/live.js`` does every second. The cost of a
poll is the worker's CPU time (user + system, from /proc) divided by the polls it answered, so
the client's own work on this 2-core machine does not count. One core answers 1 s / cost polls a
second; a phone asks once a second (``live.POLL_SECONDS``): that many phones per core.
For comparison, the same for a poll that finds a change (the live part rendered, 200).
"""

from __future__ import annotations

import http.client
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROUNDS = 3
SECONDS = 4.0
CLIENTS = 4
TICKS = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def _workers(master: int) -> list[int]:
    children: list[int] = []
    for task in Path(f"/proc/{master}/task").iterdir():
        text = (task / "children").read_text().split()
        children += [int(c) for c in text]
    return children


def _poll_loop(host: str, port: int, path: str, headers: dict[str, str], stop: float, counts: list[int]) -> None:
    conn = http.client.HTTPConnection(host, port, timeout=10)
    done = {200: 0, 304: 0, "other": 0}
    while time.monotonic() < stop:
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        response.read()
        key = response.status if response.status in (200, 304) else "other"
        done[key] += 1
        if response.getheader("Connection", "").lower() == "close":
            conn.close()
            conn = http.client.HTTPConnection(host, port, timeout=10)
    conn.close()
    counts.append(done[304] + done[200])
    if done["other"]:
        raise RuntimeError(f"unexpected answers: {done}")


def _measure(host: str, port: int, path: str, headers: dict[str, str], worker: int) -> tuple[float, float]:
    """(CPU µs of the worker per poll, polls per second seen) over SECONDS with CLIENTS phones."""
    counts: list[int] = []
    stop = time.monotonic() + SECONDS
    threads = [
        threading.Thread(target=_poll_loop, args=(host, port, path, headers, stop, counts)) for _ in range(CLIENTS)
    ]
    cpu0, t0 = _cpu_seconds(worker), time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    cpu1, t1 = _cpu_seconds(worker), time.monotonic()
    polls = sum(counts)
    return (cpu1 - cpu0) / polls * 1e6, polls / (t1 - t0)


def main() -> None:
    from scorekeeper.table import live
    from tests.server import app

    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-live-") as tmp_name:
        tmp = Path(tmp_name)
        port = app.free_port()
        command = [sys.executable, str(app.ROOT / "manage.py"), "serve", "--bind", "127.0.0.1", "--port", str(port)]
        server = app.start(tmp, command=[*command, "--workers", "1"], port=port)
        try:
            seeded = server.seed(["Ann", "Ben", "Cleo"], watcher=True)
            workers = _workers(server.process.pid)
            assert len(workers) == 1, workers
            path = f"/games/{seeded['game']}/"
            base = {"HX-Request": "true", "Cookie": f"sk_devices={seeded['watcher_cookie']}"}
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", path, headers=base)
            first = conn.getresponse()
            first.read()
            tag = first.getheader("ETag") or ""
            conn.request("GET", path, headers={**base, "If-None-Match": tag})
            check = conn.getresponse()
            check.read()
            conn.close()
            assert first.status == 200 and check.status == 304, (first.status, check.status)
            unchanged = [_measure("127.0.0.1", port, path, {**base, "If-None-Match": tag}, workers[0])]
            changed = [_measure("127.0.0.1", port, path, base, workers[0])]
            for _ in range(ROUNDS - 1):
                unchanged.append(_measure("127.0.0.1", port, path, {**base, "If-None-Match": tag}, workers[0]))
                changed.append(_measure("127.0.0.1", port, path, base, workers[0]))
        finally:
            server.stop()

    cost = statistics.median(u for u, _ in unchanged)
    rate = statistics.median(r for _, r in unchanged)
    render = statistics.median(u for u, _ in changed)
    per_core = 1e6 / cost
    phones = per_core * live.POLL_SECONDS
    print(f"watching phone's poll answered 304 (gunicorn, 1 worker, SQLite): {cost:.0f} µs of server CPU per poll")
    print(f"  one core answers {per_core:,.0f} such polls a second; a phone polls every {live.POLL_SECONDS} s")
    print(f"  => one core holds about {phones:,.0f} watching phones (seen: {rate:,.0f} polls/s, {CLIENTS} clients)")
    print(f"poll that finds a change (live part rendered, 200): {render:.0f} µs per poll ({render / cost:.1f}x a 304)")
