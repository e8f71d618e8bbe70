"""History benchmark: years of weekly games (games of 30 deals, a fifth of them Oklahoma Gin, Ann at
every one), built through the app's own import into a temporary SQLite database, with debug off.

- import of a file of 2,000 games of 30 deals, no deal twice (as in a real history: no cache of the
  engine is helped by repeated deals), in a process of its own (``import_run``), as the
  command line does it (worker processes, one per core, score the records: the median of 3 runs, and
  a run of its own for the memory as a whole) and all in one process (the engine's share of the
  time measured): time and peak memory;
- the player page (Ann) and the games list over 200, 1,000 and 5,000 games: medians, warm and cold
  (cold: every cache emptied and a new database connection), with their query counts;
- renaming Ann, who sits at every game; the streamed export of every game.

Medians of the wall-clock time, and of the process's CPU time beside them (the work done, on a
noisy machine)."""

from __future__ import annotations

import functools
import itertools
import json
import statistics
import subprocess
import sys
import time
from typing import Any

from benchmarks import history_data, webkit

DEALS = 30
SIZES = (200, 1000, 5000)
IMPORT_GAMES = 2000
IMPORT_RUNS = 3  # timed imports, as the command line does it: their median


def _import_run(path: Any, *args: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.import_run", str(path), *args], capture_output=True, text=True, check=True
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    result["file_mb"] = path.stat().st_size / 1024 / 1024
    return result


def import_file() -> list[str]:
    """The import of IMPORT_GAMES x DEALS, each run in a process of its own: as the command line
    does it (its worker processes), timed IMPORT_RUNS times (the median) and once more for its
    memory as a whole (sampling it costs CPU: that run is not timed); then all in one process."""
    path = history_data.write_file(IMPORT_GAMES, DEALS, distinct=True)  # as a real history: no deal twice
    try:
        timed = [_import_run(path) for _ in range(IMPORT_RUNS)]
        sampled = _import_run(path, "default", "--memory")
        alone = _import_run(path, "1")
        return [report_import(timed, sampled), report_alone(alone)]
    finally:
        path.unlink()


def _head(i: dict[str, Any]) -> str:
    return (
        f"import of {i['games']:,} games x {DEALS} deals ({i['deals']:,} deals, none twice,"
        f" a {i['file_mb']:.0f} MB file, in a"
    )


def report_import(timed: list[dict[str, Any]], sampled: dict[str, Any]) -> str:
    """The median of the timed runs (each run's time beside it), then the memory: each process's
    peak in the timed runs, and all together in the sampled run."""

    def median(key: str) -> float:
        return statistics.median(i[key] for i in timed)

    i = timed[0]
    runs = ", ".join(f"{r['seconds']:.1f}" for r in timed)
    return (
        f"{_head(i)} process of its own, {i['workers']} worker processes scoring, as the command line does):"
        f" median {median('seconds'):.1f} s of {len(timed)} runs ({runs} s; cpu {median('cpu'):.1f} s here,"
        f" {median('workers_cpu'):.1f} s in the workers); peak memory {max(r['peak_mb'] for r in timed):.0f} MB here"
        f" ({i['rss_before_mb']:.0f} MB before the import), {max(r['worker_peak_mb'] for r in timed):.0f} MB the"
        f" largest worker; {sampled['peak_pss_mb']:.0f} MB all together (proportional set sizes, sampled in"
        f" another run, of {sampled['seconds']:.1f} s)"
    )


def report_alone(i: dict[str, Any]) -> str:
    return (
        f"{_head(i)} process of its own, all in it): {i['seconds']:.1f} s (cpu {i['cpu']:.1f} s, of which the engine"
        f" scoring the deals {i['engine_cpu']:.1f} s); peak memory {i['peak_mb']:.0f} MB ({i['rss_before_mb']:.0f} MB"
        f" before the import)"
    )


def measure(client: Any, table: Any) -> None:
    """The pages over the history as it stands, and a rename of Ann."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scorekeeper.history.services import rename_player
    from scorekeeper.table.models import Player

    ann = Player.objects.get(table=table, key="ann")
    pages = {
        "player page": f"/players/{ann.pk}/",
        "games list": "/history/",
        "games list, Ann's": "/history/?player=Ann",
        "games list, page 40": "/history/?page=40",
    }

    def get(url: str) -> None:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)

    def cold() -> None:
        webkit.clear_caches()
        connection.close()

    for label, url in pages.items():
        get(url)
        with CaptureQueriesContext(connection) as captured:
            get(url)
        queries = len(captured)  # now: the next request empties the log
        warm = webkit.timed(functools.partial(get, url), 9)
        cool = webkit.timed(functools.partial(get, url), 5, before=cold)
        print(f"  {label:20s} warm {warm} | cold {cool} | {queries} queries", flush=True)
    names = itertools.cycle(["Anne", "Ann"])
    renames = webkit.timed(lambda: rename_player(player=ann, name=next(names)), 6)
    print(f"  rename Ann (at every game) {renames}", flush=True)


def main() -> None:
    from django.test import Client

    print(f"machine: {webkit.load()}", flush=True)
    for line in import_file():
        print(line, flush=True)
    with webkit.temp_dir("scorekeeper-bench-history-") as tmp:
        webkit.use_temp_database(tmp / "history.sqlite3")
        from scorekeeper.history.imports import import_records
        from scorekeeper.table.phones.services import create_table
        from tests.conftest import as_phone

        table, scorer = create_table(name="Bench", device_name="Scorer")
        client = as_phone(Client(), scorer)
        records = history_data.records(max(SIZES), DEALS)
        have = 0
        for size in SIZES:
            start = time.perf_counter()
            report = import_records(table=table, records=itertools.islice(records, size - have))
            assert report.ok, report.errors[:1]
            print(f"{size:,} games ({size - have:,} more imported in {time.perf_counter() - start:.1f} s):", flush=True)
            have = size
            measure(client, table)
        sizes: list[int] = []

        def export() -> None:
            response: Any = client.get("/history/export.json")
            sizes.append(sum(len(chunk) for chunk in response.streaming_content))

        timing = webkit.timed(export, 1)
        size_mb = sizes[-1] / 1024 / 1024
        print(f"export of every game (JSON, streamed): {timing} for {size_mb:.0f} MB", flush=True)
    print(f"machine: {webkit.load()}", flush=True)


if __name__ == "__main__":
    main()
