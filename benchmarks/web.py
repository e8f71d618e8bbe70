"""Web app benchmark, one game at a time: the game page, a save and the review page of an Oklahoma
game of 10, 40, 100 and 300 deals (built through the app's own import), in-process through Django's
test client against a temporary SQLite database, with debug off; and the game page's throughput
served as ``make run`` serves it (gunicorn, two uvicorn workers, the pages on four threads each)
against a bare view (the same middleware, no work) in the same run.

Printed: medians of the wall-clock time and, beside them, of the process's CPU time (on a noisy
machine the CPU time is the work done, the wall time what a phone waits).
- game page, warm: its board and deal list are fragments cached by the game's version;
- game page after a save: the first view of a new version (the fragments are made again from
  the stored results: no deal is scored);
- save: ``scoring.deals.add_deal`` of one more deal (check, write, store the results), with the deals
  the engine played for it (one: the work of a save does not grow with the game);
- review, warm / after a save (the engine re-plays the saved deal alone, from the standing stored
  before it; the page is made again) / cold (every cache emptied: every deal played again, each
  from its stored standing).

Then the pages over a history of 200 and of 5,000 games (Ann at every game, 10 deals a game, built
through the import): the player page (warm and cold), a rename of Ann and the home page. It ends
with the growth table (issue 23): each figure at 10 and at 300 deals, or at 200 and 5,000 games,
and their ratio (CPU time: the work, on a shared machine), which should stay within 1.2.
``BENCH_WEB_ONLY=history`` runs the history's rows alone (the player page, the rename, the home page)."""

from __future__ import annotations

import functools
import gzip
import os
import re
import statistics
from pathlib import Path
from typing import Any

from benchmarks import history_data, webkit

SIZES = (10, 40, 100, 300)
HISTORY = (200, 5000)  # games in the history, for the pages that must not grow with it
HISTORY_DEALS = 10  # deals a game of that history
FLAT = 1.2  # the most a page may grow from the smaller size to the larger
NAMES = ["Ann", "Ben", "Cleo"]
WORKERS, THREADS = 2, 4  # as make run serves the app
CLIENTS = 4
SECONDS = 4.0
ONLY = os.environ.get("BENCH_WEB_ONLY", "")  # "history": the history's rows of the growth table alone


def _repeats(deals: int, fast: int) -> int:
    return max(5, fast * 40 // max(deals, 40))


def _game(deals: int) -> tuple[Any, dict[str, Any]]:
    """An Oklahoma game of ``deals`` deals imported at a new table, and one more deal to save."""
    from scorekeeper.history.imports import import_records
    from scorekeeper.table.phones.services import create_table

    cards = history_data.Deals(seed=deals).game("oklahoma", NAMES, deals + 1)
    table, scorer = create_table(name=f"Bench {deals}", device_name="Scorer")
    report = import_records(table=table, records=[history_data.record("oklahoma", NAMES, cards[:-1])])
    assert report.ok, report.errors[:1]
    return (report.games[0], scorer), cards[-1]


def measure_game(deals: int) -> dict[str, Any]:
    from django.test import Client

    from scorekeeper.table.models import Game
    from scorekeeper.table.scoring import deals as deal_services
    from tests.conftest import as_phone

    (game, scorer), extra = _game(deals)
    client = as_phone(Client(), scorer)
    page, review = f"/games/{game.pk}/", f"/history/{game.pk}/"

    def get(url: str) -> None:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)

    def undo_save() -> None:
        last = Game.objects.get(pk=game.pk).deals.get(number=deals + 1)
        deal_services.delete_deal(game=game, deal_id=last.pk, version=None)

    def save() -> None:
        deal_services.add_deal(game=game, deal=extra)

    out: dict[str, Any] = {}
    get(page)
    out["page warm"] = webkit.timed(lambda: get(page), _repeats(deals, 40))
    saves, page_after, review_after, plays = [], [], [], []
    for _ in range(_repeats(deals, 12)):
        get(review)  # the engine's result of the game as it stands, cached
        with webkit.Plays() as counted:
            saves.append(webkit.timed(save, 1))
        plays.append(counted.count)
        page_after.append(webkit.timed(functools.partial(get, page), 1))
        review_after.append(webkit.timed(functools.partial(get, review), 1))
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
    """Requests per second of the game page and of the bare view as make run serves them, alternated twice."""
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


GROWTH_REPEATS = 11  # interleaved rounds of the growth table's measurements


def _add(into: dict[str, webkit.Timing], name: str, timing: webkit.Timing) -> None:
    into[name] = _merged([into[name], timing]) if name in into else timing


def growth_deals() -> dict[int, dict[str, webkit.Timing]]:
    """The game page and the review after a save, the review warm and cold, and the save, of a game
    of 10 and one of 300 deals, measured in turns (round by round, one game then the other: a
    shared machine's load weighs on both alike)."""
    from django.test import Client

    from scorekeeper.table.models import Game
    from scorekeeper.table.scoring import deals as deal_services
    from tests.conftest import as_phone

    sizes = (min(SIZES), max(SIZES))
    built = {d: _game(d) for d in sizes}
    out: dict[int, dict[str, webkit.Timing]] = {d: {} for d in sizes}
    for _ in range(GROWTH_REPEATS):
        for deals, ((game, scorer), extra) in built.items():
            client = as_phone(Client(), scorer)
            page, review = f"/games/{game.pk}/", f"/history/{game.pk}/"

            def get(url: str, client: Any = client) -> None:
                assert client.get(url).status_code == 200, url

            get(page)
            get(review)
            _add(
                out[deals],
                "save",
                webkit.timed(functools.partial(deal_services.add_deal, game=game, deal=extra), 1),
            )
            _add(out[deals], "game page after a save", webkit.timed(functools.partial(get, page), 1))
            _add(out[deals], "review after a save", webkit.timed(functools.partial(get, review), 1))
            _add(out[deals], "review warm", webkit.timed(functools.partial(get, review), 3))
            _add(out[deals], "review cold", webkit.timed(functools.partial(get, review), 1, before=webkit.clear_caches))
            last = Game.objects.get(pk=game.pk).deals.get(number=deals + 1)
            deal_services.delete_deal(game=game, deal_id=last.pk, version=None)
    return out


def weekly(table: Any) -> None:
    """The table's games dated as years of weekly games, the newest a week ago (an import dates
    every game it makes now)."""
    from datetime import timedelta

    from django.utils import timezone

    from scorekeeper.table.models import Game

    games = list(Game.objects.filter(table=table).order_by("-pk").only("pk"))
    now = timezone.now()
    for weeks, game in enumerate(games, start=1):
        game.created = game.updated = now - timedelta(weeks=weeks)
    Game.objects.bulk_update(games, ["created", "updated"], batch_size=500)


def history_pages() -> dict[int, dict[str, webkit.Timing]]:
    """Over a table of 200 games and one of 5,000 (``HISTORY``: weekly games, Ann at every one, built
    through the import), measured in turns: the player page warm, cold (every cache emptied, a new
    database connection) and after a rename of Ann; a rename of Ann; the home page."""
    import itertools
    import time

    from django.db import connection
    from django.test import Client

    from scorekeeper.history.imports import import_records
    from scorekeeper.history.services import rename_player
    from scorekeeper.table.models import Player
    from scorekeeper.table.phones.services import create_table
    from tests.conftest import as_phone

    phones = {}
    for size in HISTORY:
        start = time.perf_counter()
        table, scorer = create_table(name=f"History of {size}", device_name="Scorer")
        report = import_records(table=table, records=history_data.records(size, HISTORY_DEALS))
        assert report.ok, report.errors[:1]
        weekly(table)
        print(f"{size:,} games imported in {time.perf_counter() - start:.0f} s", flush=True)
        phones[size] = (as_phone(Client(), scorer), Player.objects.get(table=table, key="ann"))

    def cold() -> None:
        webkit.clear_caches()
        connection.close()

    out: dict[int, dict[str, webkit.Timing]] = {size: {} for size in HISTORY}
    names = {size: itertools.cycle(["Anne", "Ann"]) for size in HISTORY}  # Ann is renamed each round
    for _ in range(GROWTH_REPEATS):
        for size, (client, ann) in phones.items():

            def get(url: str, client: Any = client) -> None:
                assert client.get(url).status_code == 200, url

            player = f"/players/{ann.pk}/"
            get(player)
            get("/")
            _add(out[size], "player page warm", webkit.timed(functools.partial(get, player), 3))
            _add(out[size], "home page", webkit.timed(lambda: get("/"), 3))
            _add(out[size], "player page cold", webkit.timed(functools.partial(get, player), 1, before=cold))
            _add(
                out[size],
                "rename",
                webkit.timed(functools.partial(rename_player, player=ann, name=next(names[size])), 1),
            )
            _add(out[size], "player page after a rename", webkit.timed(functools.partial(get, player), 1))
    for size, r in out.items():
        print(
            f"{size:,} games | player page warm {r['player page warm']} | cold {r['player page cold']} | after a"
            f" rename {r['player page after a rename']} | rename {r['rename']} | home page {r['home page']}",
            flush=True,
        )
    return out


def growth_table(
    games: dict[int, dict[str, webkit.Timing]], history: dict[int, dict[str, webkit.Timing]], sizes: dict[int, Any]
) -> list[str]:
    """Each figure at the smaller and the larger size, and the ratio of their CPU times (without
    ``games``: the history's rows alone)."""
    small, large = (min(games), max(games)) if games else (min(SIZES), max(SIZES))
    few, many = min(history), max(history)
    rows = [
        (name, f"{small} vs {large} deals", games[small][name], games[large][name])
        for name in ("game page after a save", "review warm", "review after a save", "review cold", "save")
        if games
    ] + [
        (name, f"{few} vs {many:,} games", history[few][name], history[many][name])
        for name in ("player page warm", "player page cold", "player page after a rename", "rename", "home page")
    ]
    lines = [
        f"growth (cpu ms, medians of {GROWTH_REPEATS} rounds measured in turns; flat within {FLAT})"
        f" | at {small} / {few} | at {large} / {many:,} | ratio"
    ]
    for name, at, a, b in rows:
        ratio = b.cpu_ms / a.cpu_ms if a.cpu_ms else float("inf")
        mark = "" if ratio <= FLAT else "  <- grows"
        lines.append(f"  {name:28s} {at:22s} {a.cpu_ms:7.1f} | {b.cpu_ms:7.1f} | {ratio:4.2f}{mark}")
    if sizes:
        kb = (sizes[small]["review bytes"] / 1024, sizes[large]["review bytes"] / 1024)
        lines.append(f"  {'review page size':28s} {small} vs {large} deals{'':8s} {kb[0]:5.0f} KB | {kb[1]:5.0f} KB")
    return lines


def main() -> None:
    with webkit.temp_dir("scorekeeper-bench-web-") as tmp:
        webkit.use_temp_database(tmp / "web.sqlite3")
        print(f"machine: {webkit.load()}", flush=True)
        if ONLY == "history":
            for line in growth_table({}, history_pages(), {}):
                print(line, flush=True)
            print(f"machine: {webkit.load()}", flush=True)
            return
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
            f"gunicorn + uvicorn, {WORKERS} workers (pages on {THREADS} threads each), {CLIENTS} clients:"
            f" game page of 40 deals"
            f" {page_rps:.0f} req/s, bare view {bare_rps:.0f} req/s: ratio {page_rps / bare_rps:.2f}",
            flush=True,
        )
        print(f"game page of 40 deals with everything it loads, gzip: {page_weight(forty['url'], forty['scorer'])}")
        by_deals = growth_deals()
        history = history_pages()
        for line in growth_table(by_deals, history, results):
            print(line, flush=True)
        print(f"machine: {webkit.load()}", flush=True)


if __name__ == "__main__":
    main()
