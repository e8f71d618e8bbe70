"""Web app benchmark, one game at a time: the game page, a save and the review page of an Oklahoma
game of 10, 40, 100 and 300 deals (built through the app's own import), in-process through Django's
test client against a temporary SQLite database, with debug off; and the game page's throughput
under a multi-worker gunicorn against a bare view (the same middleware, no work) in the same run.

Printed: medians of the wall-clock time and, beside them, of the process's CPU time (on a noisy
machine the CPU time is the work done, the wall time what a phone waits).
- game page, warm: its board and deal list are fragments cached by the game's version;
- game page after a save: the first view of a new version (the fragments are made again from
  the stored results: no deal is scored);
- save: ``services.add_deal`` of one more deal (check, write, store the results), with the deals
  the engine played for it (one: the work of a save does not grow with the game);
- review, warm / after a save (the engine re-plays the saved deal alone, from the standing stored
  before it; the page is made again) / cold (every cache emptied: every deal played again, each
  from its stored standing)."""

from __future__ import annotations

import gzip
import re
import statistics
from pathlib import Path
from typing import Any

from benchmarks import history_data, webkit

SIZES = (10, 40, 100, 300)
NAMES = ["Ann", "Ben", "Cleo"]
WORKERS, THREADS = 2, 4  # as make run serves the app
CLIENTS = 4
SECONDS = 4.0


def _repeats(deals: int, fast: int) -> int:
    return max(5, fast * 40 // max(deals, 40))


def _game(deals: int) -> tuple[Any, dict[str, Any]]:
    """An Oklahoma game of ``deals`` deals imported at a new table, and one more deal to save."""
    from scorekeeper.history.services import import_records
    from scorekeeper.table import services

    cards = history_data.Deals(seed=deals).game("oklahoma", NAMES, deals + 1)
    table, scorer = services.create_table(name=f"Bench {deals}", device_name="Scorer")
    report = import_records(table=table, records=[history_data.record("oklahoma", NAMES, cards[:-1])])
    assert report.ok, report.errors[:1]
    return (report.games[0], scorer), cards[-1]


def measure_game(deals: int) -> dict[str, Any]:
    from django.test import Client

    from scorekeeper.table import services
    from scorekeeper.table.models import Game
    from tests.conftest import as_phone

    (game, scorer), extra = _game(deals)
    client = as_phone(Client(), scorer)
    page, review = f"/games/{game.pk}/", f"/history/{game.pk}/"

    def get(url: str) -> None:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)

    def undo_save() -> None:
        last = Game.objects.get(pk=game.pk).deals.get(number=deals + 1)
        services.delete_deal(game=game, deal_id=last.pk, version=None)

    def save() -> None:
        services.add_deal(game=game, deal=extra)

    out: dict[str, Any] = {}
    get(page)
    out["page warm"] = webkit.timed(lambda: get(page), _repeats(deals, 40))
    saves, page_after, review_after, plays = [], [], [], []
    for _ in range(_repeats(deals, 12)):
        get(review)  # the engine's result of the game as it stands, cached
        with webkit.Plays() as counted:
            saves.append(webkit.timed(save, 1))
        plays.append(counted.count)
        page_after.append(webkit.timed(lambda: get(page), 1))
        review_after.append(webkit.timed(lambda: get(review), 1))
        undo_save()
    out["save"] = _merged(saves)
    out["save plays"] = statistics.median(plays)
    out["page after save"] = _merged(page_after)
    get(review)
    out["review warm"] = webkit.timed(lambda: get(review), _repeats(deals, 40))
    out["review after save"] = _merged(review_after)
    out["review cold"] = webkit.timed(lambda: get(review), _repeats(deals, 8), before=webkit.clear_caches)
    out["page bytes"] = len(client.get(page).content)
    out["review bytes"] = len(client.get(review).content)
    out["url"] = page
    out["scorer"] = scorer
    return out


def _merged(timings: list[webkit.Timing]) -> webkit.Timing:
    return webkit.Timing([w for t in timings for w in t.wall], [c for t in timings for c in t.cpu])


def served(page: str, scorer: Any) -> tuple[float, float]:
    """Requests per second of the game page and of the bare view under gunicorn, alternated twice."""
    from tests.conftest import phone_cookie

    headers = {"Cookie": f"sk_devices={phone_cookie(scorer)}"}
    pages, bares = [], []
    with webkit.gunicorn(WORKERS, THREADS) as port:
        assert webkit.request(port, page, headers)[0] == 200
        for _ in range(2):
            bares.append(webkit.throughput(port, "/bench/bare/", SECONDS, CLIENTS))
            pages.append(webkit.throughput(port, page, SECONDS, CLIENTS, headers))
    return statistics.median(pages), statistics.median(bares)


def page_weight(page: str, scorer: Any) -> str:
    """The game page with everything it loads, gzip-compressed."""
    from django.contrib.staticfiles import finders
    from django.test import Client

    from tests.conftest import as_phone

    html = as_phone(Client(), scorer).get(page).content
    total = len(gzip.compress(html))
    parts = [f"page {total}"]
    for asset in re.findall(rb'(?:src|href)="(/static/[^"]+)"', html):
        found = finders.find(asset.decode().removeprefix("/static/"))
        if isinstance(found, str):
            size = len(gzip.compress(Path(found).read_bytes()))
            total += size
            parts.append(f"{asset.decode().rsplit('/', 1)[-1]} {size}")
    return f"{total / 1024:.1f} KB ({', '.join(parts)} bytes)"


def main() -> None:
    with webkit.temp_dir("scorekeeper-bench-web-") as tmp:
        webkit.use_temp_database(tmp / "web.sqlite3")
        print(f"machine: {webkit.load()}", flush=True)
        results = {}
        for deals in SIZES:
            results[deals] = r = measure_game(deals)
            print(
                f"{deals:3d} deals | game page warm {r['page warm']} | after a save {r['page after save']}"
                f" | {r['page bytes'] / 1024:.0f} KB",
                flush=True,
            )
            print(
                f"          | save          {r['save']} | deals played by a save: {r['save plays']:.0f}",
                flush=True,
            )
            print(
                f"          | review warm   {r['review warm']} | after a save {r['review after save']}"
                f" | cold {r['review cold']} | {r['review bytes'] / 1024:.0f} KB",
                flush=True,
            )
        forty = results[40]
        page_rps, bare_rps = served(forty["url"], forty["scorer"])
        print(
            f"gunicorn, {WORKERS} workers x {THREADS} threads, {CLIENTS} clients: game page of 40 deals"
            f" {page_rps:.0f} req/s, bare view {bare_rps:.0f} req/s: ratio {page_rps / bare_rps:.2f}",
            flush=True,
        )
        print(f"game page of 40 deals with everything it loads, gzip: {page_weight(forty['url'], forty['scorer'])}")
        print(f"machine: {webkit.load()}", flush=True)


if __name__ == "__main__":
    main()
