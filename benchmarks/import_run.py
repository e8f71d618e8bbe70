"""Run by ``web_history`` in a process of its own: import a file of game records into a new SQLite
database, as ``manage.py import_games`` does, and print what it took as JSON — the wall-clock and
CPU time of the import, and the process's peak resident memory (``VmHWM``: Django and the
migrations included) beside its resident memory before the import. With WORKERS > 1 (the command
line's default: one per core), worker processes score the records: their CPU time and the peak of
the largest of them are printed too. With WORKERS 1 everything runs in this process, and the
engine's share of the CPU time is measured.

With ``--memory``, the import's memory as a whole is measured too: the largest sum of the
proportional set sizes of this process and its workers, sampled (shared pages counted once). The
sampling is not free (reading a process's page tables every 20 ms: about a second of CPU over an
import of 2,000 games, on the cores the import runs on), so a run that samples is not one to time:
time another.

    python -m benchmarks.import_run FILE [WORKERS] [--memory]   (WORKERS default: the command line's)"""

from __future__ import annotations

import json
import os
import resource
import sys
import threading
import time
from pathlib import Path
from typing import Any

from benchmarks import procs, webkit


def _status_mb(key: str) -> float:
    """A figure of /proc/self/status in MB: ``VmRSS`` (resident now), ``VmHWM`` (the peak of this
    program: unlike ``ru_maxrss``, not the peak of the process that forked it before the exec)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{key}:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _pss_kb(pid: int) -> int:
    """A process's proportional set size: its private memory, and its share of the pages it shares
    with others (a forked worker shares most of its parent's)."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:  # gone, or no smaps_rollup (not Linux)
        pass
    return 0


class _MemorySampler(threading.Thread):
    """The largest sum of the proportional set sizes of this process and its workers, sampled
    every 20 ms while the import runs: the memory the import as a whole takes, shared pages
    counted once."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.peak_kb = 0
        self.cpu = 0.0  # its own CPU time
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.02):
            self.peak_kb = max(self.peak_kb, sum(_pss_kb(pid) for pid in procs.family(os.getpid())))
        self.cpu = time.thread_time()


def main(path: str, workers: int | None, memory: bool = False) -> dict[str, Any]:
    with webkit.temp_dir("scorekeeper-bench-import-") as tmp:
        webkit.use_temp_database(tmp / "import.sqlite3")
        from scorekeeper.history.imports import import_text, import_workers
        from scorekeeper.rules import games
        from scorekeeper.table.models import Deal
        from scorekeeper.table.phones.services import create_table

        workers = import_workers() if workers is None else workers
        table, _ = create_table(name="Imported", device_name="Scorer")
        engine_cpu = [0.0]
        play = games.play

        def timed_play(*args: Any) -> Any:
            start = time.process_time()
            try:
                return play(*args)
            finally:
                engine_cpu[0] += time.process_time() - start

        if workers <= 1:  # the workers would inherit the timer, time for nothing, and add its cost to theirs
            games.play = timed_play  # type: ignore[assignment]
        before = _status_mb("VmRSS")
        sampler = _MemorySampler()
        if memory:
            sampler.start()
        wall, cpu = time.perf_counter(), time.process_time()
        with open(path, "rb") as file:
            report = import_text(table=table, text=file, by="command line", workers=workers)
        cpu = time.process_time() - cpu
        wall = time.perf_counter() - wall
        if memory:
            sampler.done.set()
            sampler.join()
            cpu -= sampler.cpu  # the sampling's own, not the import's
        games.play = play
        assert report.ok, report.errors[:1]
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return {
            "workers": workers,
            "games": len(report.game_ids),
            "deals": Deal.objects.count(),
            "seconds": wall,
            "cpu": cpu,
            "engine_cpu": engine_cpu[0] if workers <= 1 else None,  # the workers' is not seen here
            "workers_cpu": children.ru_utime + children.ru_stime,
            "worker_peak_mb": children.ru_maxrss / 1024,
            "rss_before_mb": before,
            "peak_mb": _status_mb("VmHWM"),
            "peak_pss_mb": sampler.peak_kb / 1024 if memory else None,
        }


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--memory"]
    given = args[1] if len(args) > 1 else "default"
    print(json.dumps(main(args[0], None if given == "default" else int(given), "--memory" in sys.argv[1:])))
