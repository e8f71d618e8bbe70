"""Web app benchmark: server time to render the game page of a 40-deal game and to save a deal
(medians, Django's test client against a temporary SQLite database), and the bytes of the game
page with everything it loads, gzip-compressed."""

from __future__ import annotations

import gzip
import os
import re
import statistics
import tempfile
import time
from pathlib import Path

# One deal as the app stores it, and as the deal form posts it: Ben goes out.
DEAL = {
    "out": "Ben",
    "first_turn": False,
    "concealed": False,
    "hands": {
        "Ann": {"melds": [["3D", "4D", "5D"]], "held": ["8S"]},
        "Ben": {"melds": [["9C", "10C", "JC"], ["6H", "6D", "6C"]], "held": []},
        "Cleo": {"melds": [["KC", "KD", "KH"]], "held": ["4S", "4H"]},
    },
}
POST = {
    "action": "save",
    "out": "1",
    "p-0-melds": "3D 4D 5D",
    "p-0-held": "8S",
    "p-1-melds": "9C 10C JC / 6H 6D 6C",
    "p-1-held": "",
    "p-2-melds": "KC KD KH",
    "p-2-held": "4S 4H",
}


def _median_ms(times: list[float]) -> float:
    return statistics.median(times) * 1000


def main() -> None:
    tmp = tempfile.TemporaryDirectory(prefix="scorekeeper-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{Path(tmp.name) / 'bench.sqlite3'}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    os.environ["DJANGO_DEBUG"] = "0"  # measure as served in production
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key")
    import django

    django.setup()
    from django.contrib.staticfiles import finders
    from django.core.management import call_command
    from django.test import Client

    from scorekeeper.table import engine, services
    from tests.conftest import as_phone

    call_command("migrate", verbosity=0)
    names = ["Ann", "Ben", "Cleo"]
    table, scorer = services.create_table(name="Bench", device_name="Scorer")
    game = services.create_game(
        table=table, kind="oklahoma", profile="book", options={"target": 10000}, players=names, first_dealer=0
    )
    for _ in range(40):
        services.add_deal(game=game, deal=DEAL)
    client = as_phone(Client(), scorer)
    url = f"/games/{game.pk}/"

    def render(cold: bool) -> float:
        if cold:
            engine._RESULTS.clear()
        start = time.perf_counter()
        response = client.get(url)
        elapsed = time.perf_counter() - start
        assert response.status_code == 200, response.status_code
        return elapsed

    render(False)
    cold = [render(True) for _ in range(25)]
    warm = [render(False) for _ in range(25)]

    saves = []
    for _ in range(15):
        start = time.perf_counter()
        response = client.post(f"/games/{game.pk}/deals/new/", POST)
        saves.append(time.perf_counter() - start)
        assert response.status_code == 302, response.status_code
        last = game.deals.get(number=41)
        services.delete_deal(game=game, deal_id=last.pk, version=None)  # back to 40 deals (not timed)

    page = client.get(url, headers={"Accept-Encoding": "gzip"})
    html = page.content if page.get("Content-Encoding") == "gzip" else gzip.compress(page.content)
    raw_html = client.get(url).content
    assets = re.findall(rb'(?:src|href)="(/static/[^"]+)"', raw_html)
    total = len(html)
    parts = [f"page {len(html)}"]
    for asset in assets:
        path = finders.find(asset.decode().removeprefix("/static/"))
        data = Path(path).read_bytes()
        size = len(gzip.compress(data))
        total += size
        parts.append(f"{asset.decode().rsplit('/', 1)[-1]} {size}")
    entry = client.get(f"/games/{game.pk}/deals/new/").content
    entry_assets = set(re.findall(rb'(?:src|href)="(/static/[^"]+)"', entry)) - set(assets)
    entry_total = (
        len(gzip.compress(entry))
        + sum(
            len(gzip.compress(Path(finders.find(a.decode().removeprefix("/static/"))).read_bytes()))
            for a in entry_assets
        )
        + total
        - len(html)
    )

    print(f"game page, 40 deals, render (engine re-scores the record): median {_median_ms(cold):.1f} ms")
    print(f"game page, 40 deals, render (result cached):              median {_median_ms(warm):.1f} ms")
    print(f"save a deal (validate + write + redirect), 41st deal:       median {_median_ms(saves):.1f} ms")
    print(f"game page with everything it loads, gzip: {total / 1024:.1f} KB ({', '.join(parts)} bytes)")
    print(f"deal-entry page with everything it loads, gzip: {entry_total / 1024:.1f} KB")
    tmp.cleanup()


if __name__ == "__main__":
    main()
