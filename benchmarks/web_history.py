"""History benchmark: median server time to render a game's review page (30 deals) and a player
page over a history of 200 games of 30 deals each, and their query counts (which must not grow
with the number of deals or games). Temporary SQLite database, built fast with bulk_create."""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

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


def build_history(games: int = GAMES, deals: int = DEALS) -> int:
    """Bulk-create the history; return Ann's player id (Ann sits at every game)."""
    from scorekeeper.models import Deal, DealChange, Game, Player, Seat

    players = {p.name: p for p in Player.objects.bulk_create([Player(name=n) for n in POOL])}
    rows = []
    for i in range(games):
        if i < OK_SHARE:
            rows.append(Game(game="oklahoma", profile="book", options={"target": 10000}, target=10000, first_dealer=0))
        else:
            rows.append(Game(game="oklahoma-gin", profile="standard", options={"target": 1000}, target=1000))
    rows = Game.objects.bulk_create(rows)
    seats, deal_rows = [], []
    for i, g in enumerate(rows):
        n = 3 if g.game == "oklahoma" else 2
        names = ["Ann"] + [POOL[1 + (i + k) % (len(POOL) - 1)] for k in range(n - 1)]
        seats += [Seat(game=g, player=players[name], position=s) for s, name in enumerate(names)]
        templates = OK_DEALS if g.game == "oklahoma" else GIN_DEALS
        deal_rows += [
            Deal(game=g, number=d + 1, data=_deal(templates[(i + d) % len(templates)], names)) for d in range(deals)
        ]
    Seat.objects.bulk_create(seats, batch_size=2000)
    created = Deal.objects.bulk_create(deal_rows, batch_size=2000)
    DealChange.objects.bulk_create(
        [DealChange(game_id=d.game_id, deal=d, number=d.number, action="created", new=d.data) for d in created],
        batch_size=2000,
    )
    return players["Ann"].pk


def main() -> None:
    tmp = tempfile.TemporaryDirectory(prefix="scorekeeper-bench-history-")
    _use_temp_database(Path(tmp.name) / "history.sqlite3")
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from scorekeeper import scoring
    from scorekeeper.models import Game, GameSummary

    call_command("migrate", verbosity=0)
    start = time.perf_counter()
    ann = build_history()
    built = time.perf_counter() - start
    client = Client()
    game = Game.objects.filter(game="oklahoma").order_by("id").first()
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
        scoring._CACHE.clear()
        review_cold.append(timed(review_url))
    review_warm = [timed(review_url) for _ in range(25)]

    first = timed(player_url)  # computes and stores 200 summaries
    bad = [s.game_id for s in GameSummary.objects.all() if len(s.data["deals"]) != DEALS or s.data.get("errors")]
    assert not bad and GameSummary.objects.count() == GAMES, f"games not scored in full: {bad[:5]}"
    assert 'id="deal-30"' in client.get(review_url).content.decode()
    player_warm = [timed(player_url) for _ in range(15)]
    player_cold = []
    for _ in range(3):
        GameSummary.objects.all().delete()
        player_cold.append(timed(player_url))

    # Query counts: a 30-deal game against a 3-deal one; the player page over 200 games.
    short = Game.objects.filter(game="oklahoma").order_by("-id").first()
    short.deals.filter(number__gt=3).delete()
    q_review_30, q_review_3 = queries(review_url), queries(f"/history/{short.pk}/")
    q_player_200 = queries(player_url)
    gin = Game.objects.filter(game="oklahoma-gin").order_by("id").first()
    gin_url = f"/history/{gin.pk}/"
    timed(gin_url)
    gin_times = [timed(gin_url) for _ in range(15)]

    print(f"history of {GAMES} games x {DEALS} deals built in {built:.1f} s (bulk_create)")
    print(f"review page, Oklahoma game of {DEALS} deals (engine re-scores): median {_median_ms(review_cold):.1f} ms")
    print(f"review page, Oklahoma game of {DEALS} deals (result cached):    median {_median_ms(review_warm):.1f} ms")
    print(f"review page, Gin game of {DEALS} deals (result cached):         median {_median_ms(gin_times):.1f} ms")
    print(f"player page, {GAMES} games (summaries stored):                 median {_median_ms(player_warm):.1f} ms")
    print(
        f"player page, {GAMES} games (every summary recomputed, cold):   median {_median_ms(player_cold):.1f} ms"
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
