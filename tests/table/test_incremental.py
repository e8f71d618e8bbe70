"""A save scores only the deals it changes: adding a deal plays one deal from the stored standing,
an edit or delete re-scores from that deal on. The stored results must always be exactly what
scoring the whole game from scratch gives, on random games and random edits."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.table import submissions
from scorekeeper.table.models import Deal, Game
from scorekeeper.table.scoring import deals as deal_services
from scorekeeper.table.scoring import engine
from scorekeeper.table.scoring import store as scoring_store
from tests.app_data import GIN_BIG, GIN_KNOCK, OK_BIG, OK_SMALL, gin_record_deal, ok_record_deal
from tests.conftest import NAMES, new_game

pytestmark = pytest.mark.django_db

OK_STOCK_OUT: dict[str, Any] = {
    "out": None,
    "melds": {0: ["3D 4D 5D"], 1: ["9C 10C JC"], 2: ["KC KD KH"]},
    "held": {0: "8S", 1: "2H", 2: "4S 4H"},
}
OK_POOL = [ok_record_deal(d, NAMES) for d in (OK_BIG, OK_SMALL)] + [
    {
        "out": None,
        "hands": {
            NAMES[s]: {"melds": [m.split() for m in OK_STOCK_OUT["melds"][s]], "held": OK_STOCK_OUT["held"][s].split()}
            for s in range(3)
        },
    }
]
GIN_POOL = [gin_record_deal(d, ["Ann", "Ben"]) for d in (GIN_KNOCK, GIN_BIG)] + [
    {"upcard": "5D", "knocker": None, "hands": {}}
]

ops = st.lists(
    st.tuples(st.sampled_from(["add", "add", "edit", "delete", "undo"]), st.integers(0, 30), st.integers(0, 2)),
    min_size=1,
    max_size=12,
)


def scratch(game: Game) -> Any:
    """The game's result from scoring its whole record from scratch."""
    return engine.score(engine.game_record(game))


def stored(game: Game) -> list[tuple[Any, ...]]:
    return list(game.deals.order_by("number").values_list("number", "outcome", "points", "totals", "standing"))


def from_scratch(game: Game) -> list[tuple[Any, ...]]:
    """What scoring the whole record from the first deal gives, in the stored shape."""
    names = game.player_names()
    played = engine.play_from(
        game, [engine.record_deal(c, names) for c in game.deals.order_by("number").values_list("cards", flat=True)]
    )
    whole = scratch(game)
    assert [d.totals for d in played.deals] == [d.totals for d in whole.deals]
    return [
        (d.number, d.outcome, [d.players[n].points for n in names], [d.totals[n] for n in names], s.to_json())
        for d, s in zip(played.deals, played.standings, strict=True)
    ]


def apply(game: Game, op: str, index: int, which: int, pool: list[dict[str, Any]]) -> None:
    deals = list(game.deals.order_by("number"))
    try:
        if op == "add" or not deals:
            deal_services.add_deal(game=game, deal=pool[which])
        elif op == "edit":
            row = deals[index % len(deals)]
            deal_services.edit_deal(game=game, deal_id=row.pk, version=row.version, deal=pool[which])
        elif op == "delete":
            row = deals[index % len(deals)]
            deal_services.delete_deal(game=game, deal_id=row.pk, version=row.version)
        else:
            changes = list(game.changes.order_by("-id")[:3])
            if changes:
                deal_services.undo(game=game, change_id=changes[index % len(changes)].pk)
    except (RecordInvalid, submissions.Conflict):
        pass  # refused: nothing changed, and the stored results must still be right


def long_game(table, kind: str) -> Game:
    """A game with a target far enough for the random steps never to end it."""
    oklahoma = kind == "oklahoma"
    return new_game(
        table,
        kind=kind,
        profile="book" if oklahoma else "standard",
        players=NAMES if oklahoma else ["Ann", "Ben"],
        options={"target": 3000} if oklahoma else {"target": 400},
    )


@pytest.mark.parametrize("kind, pool", [("oklahoma", OK_POOL), ("oklahoma-gin", GIN_POOL)])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=ops)
def test_stored_results_are_always_those_of_scoring_from_scratch(table, kind, pool, steps):
    game = long_game(table, kind)
    for op, index, which in steps:
        apply(game, op, index, which, pool)
        assert stored(game) == from_scratch(game)
        fresh = Game.objects.get(pk=game.pk)
        whole = scratch(fresh)
        assert (fresh.state, fresh.winner_name() or None) == (whole.state, whole.winner)
        assert seats(fresh) == seats_from_scratch(fresh, whole)


def seats(game: Game) -> list[dict[str, Any]]:
    return [{name: getattr(seat, name) for name in scoring_store.SEAT_FIGURES} for seat in game.seated()]


def seats_from_scratch(game: Game, whole: Any) -> list[dict[str, Any]]:
    """Each seat's figures computed from every stored deal at once."""
    rows = [
        scoring_store.ScoredRow(*values)
        for values in game.deals.order_by("number").values_list("number", "outcome", "actor", "winner", "points")
    ]
    penalty = engine.rules_of(game)[0].penalty
    return [scoring_store.seat_figures(seat.position, whole, rows, penalty) for seat in game.seated()]


def test_adding_a_deal_plays_one_deal(table, plays):
    game = new_game(table, options={"target": 10000}, deals=OK_POOL[:2] * 3)
    calls = plays
    calls.clear()
    deal_services.add_deal(game=game, deal=OK_POOL[1])
    assert calls == [7]
    calls.clear()
    third = Deal.objects.get(game=game, number=3)
    deal_services.edit_deal(game=game, deal_id=third.pk, version=third.version, deal=OK_POOL[2])
    assert calls == [3, 4, 5, 6, 7]


def test_a_game_stored_by_another_engine_is_scored_from_its_first_deal(table, plays):
    """The standing stored before the deal cannot be trusted: the save plays every deal, reading
    the cards of those before it, and stores what scoring from scratch gives."""
    game = new_game(table, options={"target": 10000}, deals=OK_POOL[:2] * 3)
    Game.objects.filter(pk=game.pk).update(scored_with="an older engine")
    game.refresh_from_db()
    plays.clear()
    fourth = Deal.objects.get(game=game, number=4)
    deal_services.edit_deal(game=game, deal_id=fourth.pk, version=fourth.version, deal=OK_POOL[2])
    assert plays == [1, 2, 3, 4, 5, 6]
    assert stored(game) == from_scratch(game)
    fresh = Game.objects.get(pk=game.pk)
    assert fresh.scored_with == engine.RESULTS_VERSION
    assert seats(fresh) == seats_from_scratch(fresh, scratch(fresh))


def test_a_save_reads_no_cards_before_the_deal_it_changes(table, monkeypatch):
    """Adding, editing or deleting the last deal of a game of 30 runs as many statements as in a
    game of 2, loads no deal but those it scores, and reads no deal's cards before it. (The seats'
    figures still read each deal's outcome and points: a few numbers a deal.)"""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    loaded: list[int] = []
    from_db = Deal.from_db.__func__  # type: ignore[attr-defined]

    def counted(cls: type[Deal], *args: Any, **kwargs: Any) -> Deal:
        loaded.append(1)
        return from_db(cls, *args, **kwargs)

    monkeypatch.setattr(Deal, "from_db", classmethod(counted))

    def save(deals: int) -> tuple[list[int], list[str]]:
        game = new_game(table, options={"target": 10000}, deals=OK_POOL[:2] * (deals // 2))
        counts, sql = [], []
        for step in ("add", "edit", "delete"):
            last = Deal.objects.filter(game=game).latest("number")
            loaded.clear()
            with CaptureQueriesContext(connection) as queries:
                if step == "add":
                    deal_services.add_deal(game=game, deal=OK_POOL[1])
                elif step == "edit":
                    deal_services.edit_deal(game=game, deal_id=last.pk, version=last.version, deal=OK_POOL[0])
                else:
                    deal_services.delete_deal(game=game, deal_id=last.pk, version=last.version)
            counts += [len(queries), len(loaded)]
            sql += [q["sql"] for q in queries]
        return counts, sql

    small, _ = save(2)
    big, sql = save(30)
    assert small == big
    assert max(big[1::2]) <= 3  # the deal it changes: checked, stored and read back
    for statement in sql:
        if statement.startswith("SELECT") and '"table_deal"."cards"' in statement.split(" FROM ")[0]:
            assert re.search(r'WHERE .*"table_deal"."(number" >|number" =|id" =)', statement), statement
