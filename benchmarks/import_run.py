"""Run by ``web_history`` in a process of its own: import a file of game records into a new SQLite
database, as ``manage.py import_games`` does, and print what it took as JSON — the wall-clock and
CPU time of the import, the engine's share of the CPU time, and the process's peak resident memory
(``ru_maxrss``: Django and the migrations included), beside its resident memory before the import.

    python -m benchmarks.import_run FILE"""

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


def main(path: str) -> dict[str, Any]:
    with webkit.temp_dir("scorekeeper-bench-import-") as tmp:
        webkit.use_temp_database(tmp / "import.sqlite3")
        from scorekeeper.history.services import import_text
        from scorekeeper.rules import games
        from scorekeeper.table import services
        from scorekeeper.table.models import Deal

        table, _ = services.create_table(name="Imported", device_name="Scorer")
        engine_cpu = [0.0]
        play = games.play

        def timed_play(*args: Any) -> Any:
            start = time.process_time()
            try:
                return play(*args)
            finally:
                engine_cpu[0] += time.process_time() - start

        games.play = timed_play  # type: ignore[assignment]
        before = _rss_mb()
        wall, cpu = time.perf_counter(), time.process_time()
        with open(path, "rb") as file:
            report = import_text(table=table, text=file, by="command line")
        cpu = time.process_time() - cpu
        wall = time.perf_counter() - wall
        games.play = play
        assert report.ok, report.errors[:1]
        return {
            "games": len(report.games),
            "deals": Deal.objects.count(),
            "seconds": wall,
            "cpu": cpu,
            "engine_cpu": engine_cpu[0],
            "rss_before_mb": before,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        }


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1])))
