"""The player page's figures, kept by the writes, are exactly those of adding up every seat
(the page's former way, kept here as the reference), on random histories of both games with
finished and unfinished games, penalty scoring and ties; its query count is flat whatever the
history; the games list's too."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper.history import stats
from scorekeeper.history.imports import import_records
from scorekeeper.rules import profiles
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.record import FORMAT
from scorekeeper.table.models import Deal, GameState, Player, Seat
from scorekeeper.table.scoring import engine
from tests.rules import oklahoma_random
from tests.rules.test_gin_game_properties import random_deal as gin_deal

pytestmark = pytest.mark.django_db

POOL = ["Ann", "Ben", "Cleo", "Dora", "Eve"]
RULES = [
    ("oklahoma", "book", {"target": 1000}, 3),
    ("oklahoma", "laws", {"target": 2000}, 2),
    ("oklahoma-gin", "standard", {"target": 150}, 2),
    ("oklahoma-gin", "party", {"target": 60}, 3),
    ("oklahoma-gin", "standard", {"scoring": "penalty", "game_bonus": 0, "target": 100}, 2),
]


def random_record(rng: random.Random) -> dict[str, Any]:
    """A valid record: random deals, cut where the game ended."""
    kind, profile, options, n = rng.choice(RULES)
    names = ["Ann", *rng.sample(POOL[1:], n - 1)]
    rng.shuffle(names)
    deals = []
    for _ in range(rng.randint(1, 12)):
        deals.append(
            oklahoma_random.deal(rng, tuple(names)) if kind == "oklahoma" else gin_deal(rng, tuple(names), True)
        )
    rec = {
        "format": FORMAT,
        "game": kind,
        "rules": {"profile": profile, "options": options},
        "players": names,
        "deals": deals,
    }
    try:
        result = engine.score(rec)
    except RecordInvalid as exc:
        ended = min(e.deal for e in exc.errors if e.deal)
        rec["deals"] = deals[: ended - 1]
        result = engine.score(rec)
    assert result.deals or not rec["deals"]
    return rec


def reference(player: Player) -> tuple[Any, ...]:
    """The figures as the page used to add them up: every seat, newest game first."""
    seats = list(Seat.objects.filter(player=player).select_related("game").order_by("-game__created", "-game__id"))
    kinds: dict[str, dict[str, Any]] = {}
    best: dict[str, tuple[int, Seat]] = {}
    worst: dict[str, tuple[int, Seat]] = {}
    for seat in seats:
        g = seat.game
        k = kinds.setdefault(
            g.kind, dict.fromkeys(("games", "won", "finished", "deals", "points", "out", "knocks", "ug", "us"), 0)
        )
        k["games"] += 1
        k["finished"] += g.state == GameState.FINISHED
        k["won"] += seat.won
        k["deals"] += seat.deals
        k["points"] += seat.points
        k["out"] += seat.outs
        k["knocks"] += seat.knocks
        k["ug"] += seat.undercuts_given
        k["us"] += seat.undercuts_suffered
        sign = -1 if engine.rules_of(g)[0].penalty else 1
        if seat.best_points is not None and (g.kind not in best or sign * seat.best_points > best[g.kind][0]):
            best[g.kind] = (sign * seat.best_points, seat)
        if seat.worst_points is not None and (g.kind not in worst or sign * seat.worst_points < worst[g.kind][0]):
            worst[g.kind] = (sign * seat.worst_points, seat)
    for kind, (value, s) in best.items():
        kinds[kind]["best"] = (s.game_id, s.best_deal, s.best_points, value)
    for kind, (value, s) in worst.items():
        kinds[kind]["worst"] = (s.game_id, s.worst_deal, s.worst_points, value)
    h2h: dict[str, list[int]] = {}
    mine = {s.game_id: s for s in seats}
    for other in Seat.objects.filter(game_id__in=list(mine)).exclude(player=player).select_related("player", "game"):
        me = mine[other.game_id]
        row = h2h.setdefault(other.player.name, [0, 0, 0, 0])
        row[0] += 1
        if other.game.state == GameState.FINISHED:
            if me.won:
                row[1] += 1
            elif other.position == other.game.winner:
                row[2] += 1
            else:
                row[3] += 1
    return kinds, h2h, len(seats), sum(s.won for s in seats)


def figures(player: Player) -> tuple[Any, ...]:
    s = stats.player_stats(player)
    kinds: dict[str, dict[str, Any]] = {}
    for k in s.kinds:
        kinds[k.game] = {
            "games": k.games,
            "won": k.won,
            "finished": k.finished,
            "deals": k.deals,
            "points": k.points,
            "out": k.out,
            "knocks": k.knocks,
            "ug": k.undercuts_given,
            "us": k.undercuts_suffered,
        }
        if k.best:
            kinds[k.game]["best"] = (k.best["game"], k.best["deal"], k.best["points"], k.best["value"])
            assert k.best["outcome"] == Deal.objects.get(game_id=k.best["game"], number=k.best["deal"]).outcome
        if k.worst:
            kinds[k.game]["worst"] = (k.worst["game"], k.worst["deal"], k.worst["points"], k.worst["value"])
    h2h = {o["name"]: [o["games"], o["won"], o["lost"], o["other"]] for o in s.opponents}
    return kinds, h2h, s.played, s.won


@pytest.mark.parametrize("seed", range(4))
def test_player_figures_are_those_of_adding_up_every_seat(table, seed):
    rng = random.Random(seed)
    report = import_records(table=table, records=[random_record(rng) for _ in range(25)])
    assert report.ok, report.errors
    assert Seat.objects.filter(player__name="Ann", game__state=GameState.FINISHED).exists()
    assert Seat.objects.filter(game__profile="party").exists()  # penalty points: lower is better
    for player in Player.objects.filter(table=table):
        assert figures(player) == reference(player)
    ann = stats.player_stats(Player.objects.get(table=table, name="Ann"))
    assert {k.game for k in ann.kinds} == set(profiles.GAMES) and ann.opponents


def test_player_page_and_games_list_queries_do_not_grow_with_the_history(client, table):
    rng = random.Random(7)
    ann = None
    counts: dict[str, list[int]] = {"player": [], "games": [], "games_ann": []}
    for games in (2, 20):
        records = [random_record(rng) for _ in range(games)]
        while {r["game"] for r in records[:2]} != set(profiles.GAMES):  # both games from the start
            records[0] = random_record(rng)
        report = import_records(table=table, records=records)
        assert report.ok
        ann = Player.objects.get(table=table, name="Ann")
        for name, url in (
            ("player", f"/players/{ann.pk}/"),
            ("games", "/history/"),
            ("games_ann", "/history/?player=ann"),
        ):
            client.get(url)
            with CaptureQueriesContext(connection) as q:
                assert client.get(url).status_code == 200
            counts[name].append(len(q))
    assert all(a == b for a, b in counts.values()), counts
    # The player page: a query for each game and best or worst deal, so two more with both games.
    assert counts["player"][0] <= 14 and counts["games"][0] <= 8
