"""Run by ``web_history`` in a process of its own: import a file of game records into a new SQLite
database, as ``manage.py import_games`` does, and print what it took as JSON — the wall-clock and
CPU time of the import, and the process's peak resident memory (``ru_maxrss``: Django and the
migrations included) beside its resident memory before the import. With WORKERS > 1 (the command
line's default: one per core), worker processes score the records: their CPU time and the peak of
the largest of them are printed too. With WORKERS 1 everything runs in this process, and the
engine's share of the CPU time is measured.

    python -m benchmarks.import_run FILE [WORKERS]   (default: the command line's)"""

from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks import webkit


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main(path: str, workers: int | None) -> dict[str, Any]:
    with webkit.temp_dir("scorekeeper-bench-import-") as tmp:
        webkit.use_temp_database(tmp / "import.sqlite3")
        from scorekeeper.history.services import import_text, import_workers
        from scorekeeper.rules import games
        from scorekeeper.table import services
        from scorekeeper.table.models import Deal

        workers = import_workers() if workers is None else workers
        table, _ = services.create_table(name="Imported", device_name="Scorer")
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
        before = _rss_mb()
        wall, cpu = time.perf_counter(), time.process_time()
        with open(path, "rb") as file:
            report = import_text(table=table, text=file, by="command line", workers=workers)
        cpu = time.process_time() - cpu
        wall = time.perf_counter() - wall
        games.play = play
        assert report.ok, report.errors[:1]
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return {
            "workers": workers,
            "games": len(report.games),
            "deals": Deal.objects.count(),
            "seconds": wall,
            "cpu": cpu,
            "engine_cpu": engine_cpu[0] if workers <= 1 else None,  # the workers' is not seen here
            "workers_cpu": children.ru_utime + children.ru_stime,
            "worker_peak_mb": children.ru_maxrss / 1024,
            "rss_before_mb": before,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        }


if __name__ == "__main__":
    given = sys.argv[2] if len(sys.argv) > 2 else "default"
    print(json.dumps(main(sys.argv[1], None if given == "default" else int(given))))
