"""History benchmark: median server time to render a game's review page (30 deals) and a player
page over a history of 200 games of 30 deals each, and their query counts (which must not grow
with the number of deals or games). Temporary SQLite database, built fast with bulk_create."""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

GAMES, DEALS = 200, 30
OK_SHARE = 160  # Oklahoma games; the rest are Oklahoma Gin

# Oklahoma deals (three players, seats 0..2); the totals stay far below the target (10,000).
OK_DEALS = [
    {
        "out": 1,
        "hands": {
            0: {"melds": [["3D", "4D", "5D"]], "held": ["8S"]},
            1: {"melds": [["9C", "10C", "JC"], ["6H", "6D", "6C"]], "held": []},
            2: {"melds": [["KC", "KD", "KH"]], "held": ["4S", "4H"]},
        },
    },
    {
        "out": 0,
        "hands": {
            0: {"melds": [["QS", "QH", "QD"], ["2C=7H", "8H", "9H"]], "held": []},
            1: {"melds": [["5S", "6S", "7S"]], "held": ["AD"]},
            2: {"melds": [], "held": ["QS", "4C"]},
        },
    },
    {
        "out": 2,
        "hands": {
            0: {"melds": [], "held": ["KS", "KH", "3C"]},
            1: {"melds": [["AS", "AH", "AC"]], "held": ["JD"]},
            2: {"melds": [["10D", "JD", "QD", "KD"], ["5C", "5H", "JK=5S"]], "held": []},
        },
    },
]
# Gin deals (two players): a knock for each side and an undercut, small points (target 1,000).
GIN_DEALS = [
    {
        "upcard": "10H",
        "knocker": 1,
        "hands": {
            0: {"cards": ["KH", "QD", "9C", "9H", "4S", "8D", "8C", "2S", "3S", "10D"]},
            1: {"melds": [["5S", "6S", "7S"], ["JD", "JC", "JS"]], "deadwood": ["AS", "2D", "3C", "AC"]},
        },
    },
    {
        "upcard": "10H",
        "knocker": 0,
        "hands": {
            0: {"melds": [["5S", "6S", "7S"], ["JD", "JC", "JS"]], "deadwood": ["AS", "2D", "3C", "AC"]},
            1: {"cards": ["KH", "QD", "9C", "9H", "4S", "8D", "8C", "2S", "3S", "10D"]},
        },
    },
    {
        "upcard": "10H",
        "knocker": 0,
        "hands": {
            0: {"melds": [["5S", "6S", "7S"], ["JD", "JC", "JS"]], "deadwood": ["AS", "2D", "3C", "4C"]},
            1: {"cards": ["KH", "KD", "KC", "2H", "3H", "4H", "9C", "9H", "9D", "AD"]},
        },
    },
]
POOL = ["Ann", "Ben", "Cleo", "Dora", "Eve", "Finn", "Gus", "Hal"]


def _deal(template: dict, names: list[str]) -> dict:
    out: dict = {}
    for key, value in template.items():
        if key in ("out", "knocker"):
            out[key] = names[value]
        elif key == "hands":
            out[key] = {names[s]: hand for s, hand in value.items()}
        else:
            out[key] = value
    if "out" in out:
        out.update(first_turn=False, concealed=False)
    return out


def _median_ms(times: list[float]) -> float:
    return statistics.median(times) * 1000


def _use_temp_database(path: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    os.environ["DJANGO_DEBUG"] = "0"
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key")
    import django
    from django.apps import apps

    if not apps.ready:
        django.setup()
        return
    # Another benchmark already set Django up in this process: point it at our own database.
    from django.db import connections

    connections.close_all()
    connections["default"].settings_dict["NAME"] = str(path)


def build_history(games: int = GAMES, deals: int = DEALS) -> tuple[Any, int]:
    """Import the history through the app's own import (every game scored, its results stored);
    return the table's scoring phone and Ann's player id (Ann sits at every game)."""
    from scorekeeper.history.services import import_records
    from scorekeeper.rules.record import FORMAT
    from scorekeeper.table import services
    from scorekeeper.table.models import Player

    table, scorer = services.create_table(name="Bench", device_name="Scorer")
    records = []
    for i in range(games):
        kind = "oklahoma" if i < OK_SHARE else "oklahoma-gin"
        n = 3 if kind == "oklahoma" else 2
        names = ["Ann"] + [POOL[1 + (i + k) % (len(POOL) - 1)] for k in range(n - 1)]
        templates = OK_DEALS if kind == "oklahoma" else GIN_DEALS
        records.append(
            {
                "format": FORMAT,
                "game": kind,
                "rules": {
                    "profile": "book" if kind == "oklahoma" else "standard",
                    "options": {"target": 10000 if kind == "oklahoma" else 1000},
                },
                "players": names,
                "first_dealer": names[0] if kind == "oklahoma" else None,
                "deals": [_deal(templates[(i + d) % len(templates)], names) for d in range(deals)],
            }
        )
        if records[-1]["first_dealer"] is None:
            del records[-1]["first_dealer"]
    report = import_records(table=table, records=records)
    assert report.ok, report.errors[:2]
    return scorer, Player.objects.get(table=table, name="Ann").pk


def main() -> None:
    tmp = tempfile.TemporaryDirectory(prefix="scorekeeper-bench-history-")
    _use_temp_database(Path(tmp.name) / "history.sqlite3")
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from scorekeeper.table import engine
    from scorekeeper.table.models import Game
    from tests.conftest import as_phone

    call_command("migrate", verbosity=0)
    start = time.perf_counter()
    scorer, ann = build_history()
    built = time.perf_counter() - start
    client = as_phone(Client(), scorer)
    game = Game.objects.filter(kind="oklahoma").order_by("id").first()
    review_url, player_url = f"/history/{game.pk}/", f"/players/{ann}/"

    def timed(url: str) -> float:
        t = time.perf_counter()
        r = client.get(url)
        elapsed = time.perf_counter() - t
        assert r.status_code == 200, (url, r.status_code)
        return elapsed

    def queries(url: str) -> int:
        with CaptureQueriesContext(connection) as ctx:
            client.get(url)
        return len(ctx)

    timed(review_url)
    review_cold = []
    for _ in range(15):
        engine._RESULTS.clear()
        review_cold.append(timed(review_url))
    review_warm = [timed(review_url) for _ in range(25)]

    first = timed(player_url)
    assert 'id="deal-30"' in client.get(review_url).content.decode()
    player_warm = [timed(player_url) for _ in range(15)]

    # Query counts: a 30-deal game against a 3-deal one; the player page over 200 games.
    short = Game.objects.filter(kind="oklahoma").order_by("-id").first()
    short.deals.filter(number__gt=3).delete()
    q_review_30, q_review_3 = queries(review_url), queries(f"/history/{short.pk}/")
    q_player_200 = queries(player_url)
    gin = Game.objects.filter(kind="oklahoma-gin").order_by("id").first()
    gin_url = f"/history/{gin.pk}/"
    timed(gin_url)
    gin_times = [timed(gin_url) for _ in range(15)]

    print(f"history of {GAMES} games x {DEALS} deals built in {built:.1f} s (through the import)")
    print(f"review page, Oklahoma game of {DEALS} deals (engine re-scores): median {_median_ms(review_cold):.1f} ms")
    print(f"review page, Oklahoma game of {DEALS} deals (result cached):    median {_median_ms(review_warm):.1f} ms")
    print(f"review page, Gin game of {DEALS} deals (result cached):         median {_median_ms(gin_times):.1f} ms")
    print(
        f"player page, {GAMES} games (figures stored by the writes):     median {_median_ms(player_warm):.1f} ms"
        f" (first view {first * 1000:.0f} ms)"
    )
    print(
        f"queries: review page {q_review_30} ({DEALS} deals) vs {q_review_3} (3 deals); "
        f"player page {q_player_200} ({GAMES} games)"
    )
    connection.close()
    tmp.cleanup()


if __name__ == "__main__":
    main()
