"""Games saved by the earlier version of the app (tables ``scorekeeper_*``, schema in its migration
0001) move into the table app with nothing lost: ``table/migrations/0002`` adopts them.

The test migrates the table app back to 0001, creates the earlier version's tables and rows with
raw SQL, migrates forward (and stores the results as ``migrate`` does after it), then checks every
player, game, deal and change against what the earlier version held."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scorekeeper.rules.record import FORMAT
from scorekeeper.table.games import services as game_services
from scorekeeper.table.models import Change, Deal, Game, Player, Table
from scorekeeper.table.scoring import deals as deal_services
from scorekeeper.table.scoring import engine
from tests.app_data import GIN_BIG, GIN_KNOCK, OK_BIG, OK_SMALL, gin_record_deal, ok_record_deal

pytestmark = pytest.mark.django_db(transaction=True)

LEGACY = ["scorekeeper_dealchange", "scorekeeper_deal", "scorekeeper_seat", "scorekeeper_game", "scorekeeper_player"]
AT = "2025-06-01 20:15:00"


def _ddl() -> list[str]:
    pg = connection.vendor == "postgresql"
    js = "jsonb" if pg else "text"
    ts = "timestamp with time zone" if pg else "datetime"
    return [
        f"CREATE TABLE scorekeeper_player (id bigint PRIMARY KEY, name varchar(40) NOT NULL, created {ts} NOT NULL)",
        f"""CREATE TABLE scorekeeper_game (id bigint PRIMARY KEY, game varchar(20) NOT NULL,
            profile varchar(20) NOT NULL, options {js} NOT NULL, target integer NOT NULL,
            first_dealer smallint NULL, created {ts} NOT NULL, updated {ts} NOT NULL,
            state varchar(20) NOT NULL, winner varchar(40) NOT NULL)""",
        """CREATE TABLE scorekeeper_seat (id bigint PRIMARY KEY, position smallint NOT NULL,
            game_id bigint NOT NULL REFERENCES scorekeeper_game (id),
            player_id bigint NOT NULL REFERENCES scorekeeper_player (id),
            CONSTRAINT legacy_seat_position UNIQUE (game_id, position),
            CONSTRAINT legacy_seat_player UNIQUE (game_id, player_id))""",
        f"""CREATE TABLE scorekeeper_deal (id bigint PRIMARY KEY, number integer NOT NULL, data {js} NOT NULL,
            created {ts} NOT NULL, updated {ts} NOT NULL, game_id bigint NOT NULL REFERENCES scorekeeper_game (id),
            CONSTRAINT legacy_deal_number UNIQUE (game_id, number))""",
        f"""CREATE TABLE scorekeeper_dealchange (id bigint PRIMARY KEY, number integer NOT NULL,
            action varchar(10) NOT NULL, old {js} NULL, new {js} NULL, at {ts} NOT NULL,
            deal_id bigint NULL REFERENCES scorekeeper_deal (id),
            game_id bigint NOT NULL REFERENCES scorekeeper_game (id))""",
    ]


def _j(value: Any) -> str | None:
    return None if value is None else json.dumps(value)


class Legacy:
    """The earlier version's rows, as it would have written them."""

    def __init__(self) -> None:
        self.players: list[tuple[int, str]] = []
        self.games: dict[int, dict[str, Any]] = {}
        self.deals: list[tuple[int, int, int, dict]] = []  # id, game, number, data
        self.changes: list[tuple[int, int, int | None, int, str, Any, Any]] = []

    def player(self, pk: int, name: str) -> None:
        self.players.append((pk, name))

    def game(self, pk: int, kind: str, profile: str, names: list[str], *, options: dict | None = None, **more: Any):
        self.games[pk] = {"kind": kind, "profile": profile, "names": names, "options": options or {}, **more}

    def deal(self, pk: int, game: int, number: int, data: dict) -> None:
        self.deals.append((pk, game, number, data))
        self.changes.append((len(self.changes) + 1, game, pk, number, "created", None, data))

    def write(self) -> None:
        by_name = {name: pk for pk, name in self.players}
        with connection.cursor() as c:
            for sql in _ddl():
                c.execute(sql)
            for pk, name in self.players:
                c.execute("INSERT INTO scorekeeper_player (id, name, created) VALUES (%s, %s, %s)", [pk, name, AT])
            seat_id = 0
            for pk, g in self.games.items():
                c.execute(
                    "INSERT INTO scorekeeper_game (id, game, profile, options, target, first_dealer, created, updated,"
                    " state, winner) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    [
                        pk,
                        g["kind"],
                        g["profile"],
                        _j(g["options"]),
                        1000,
                        g.get("first_dealer"),
                        AT,
                        AT,
                        "in_progress",
                        "",
                    ],
                )
                for position, name in enumerate(g["names"]):
                    seat_id += 1
                    c.execute(
                        "INSERT INTO scorekeeper_seat (id, position, game_id, player_id) VALUES (%s, %s, %s, %s)",
                        [seat_id, position, pk, by_name[name]],
                    )
            for pk, game, number, data in self.deals:
                c.execute(
                    "INSERT INTO scorekeeper_deal (id, number, data, created, updated, game_id)"
                    " VALUES (%s, %s, %s, %s, %s, %s)",
                    [pk, number, _j(data), AT, AT, game],
                )
            deal_ids = {pk for pk, *_ in self.deals}
            for pk, game, deal, number, action, old, new in self.changes:
                c.execute(
                    "INSERT INTO scorekeeper_dealchange (id, number, action, old, new, at, deal_id, game_id)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                    [pk, number, action, _j(old), _j(new), AT, deal if deal in deal_ids else None, game],
                )

    def record(self, game: int) -> dict[str, Any]:
        g = self.games[game]
        rec = {
            "format": FORMAT,
            "game": g["kind"],
            "rules": {"profile": g["profile"], "options": g["options"]},
            "players": g["names"],
            "deals": [data for _, gid, _, data in sorted(self.deals, key=lambda d: d[2]) if gid == game],
        }
        if g.get("first_dealer") is not None:
            rec["first_dealer"] = g["names"][g["first_dealer"]]
        return rec


@pytest.fixture
def earlier_version() -> Iterator[Legacy]:
    """The database as the earlier version left it: the table app at 0001 and its tables beside."""
    executor = MigrationExecutor(connection)
    executor.migrate([("table", "0001_initial")])
    legacy = Legacy()
    try:
        yield legacy
    finally:
        with connection.cursor() as c:
            for name in LEGACY:
                c.execute(f"DROP TABLE IF EXISTS {name}")
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())


def migrate_forward() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    deal_services.refresh_results()  # what `migrate` runs after the migrations (table.apps: post_migrate)


def test_games_of_the_earlier_version_are_adopted_with_nothing_lost(earlier_version):
    legacy = earlier_version
    for pk, name in [(1, "Ann"), (2, "Ben"), (3, "Cleo"), (7, "Dora")]:
        legacy.player(pk, name)
    ok_names, gin_names = ["Ann", "Ben", "Cleo"], ["Dora", "Ann"]
    legacy.game(11, "oklahoma", "book", ok_names, options={"k8_in_hand": -10}, first_dealer=1)
    legacy.game(12, "oklahoma-gin", "standard", gin_names)
    legacy.deal(101, 11, 1, ok_record_deal(OK_BIG, ok_names))
    legacy.deal(102, 11, 2, ok_record_deal(OK_SMALL, ok_names))
    legacy.deal(103, 12, 1, gin_record_deal(GIN_KNOCK, gin_names))
    legacy.deal(104, 12, 2, gin_record_deal(GIN_BIG, gin_names))
    # deal 102 was edited once, and a third deal of game 11 was entered and deleted
    legacy.changes.append(
        (10, 11, 102, 2, "edited", ok_record_deal(OK_BIG, ok_names), ok_record_deal(OK_SMALL, ok_names))
    )
    legacy.changes.append((11, 11, 999, 3, "created", None, ok_record_deal(OK_SMALL, ok_names)))
    legacy.changes.append((12, 11, 999, 3, "deleted", ok_record_deal(OK_SMALL, ok_names), None))
    legacy.write()

    migrate_forward()

    table = Table.objects.get()
    assert table.name == "Our table"
    assert sorted(Player.objects.filter(table=table).values_list("pk", "name")) == sorted(legacy.players)
    assert sorted(Game.objects.values_list("pk", flat=True)) == [11, 12]
    for pk in (11, 12):
        game = Game.objects.prefetch_related("seats__player").get(pk=pk)
        rec = legacy.record(pk)
        assert game.player_names() == rec["players"]
        assert game.kind == rec["game"] and game.profile == rec["rules"]["profile"]
        assert engine.resolve(game.kind, game.profile, game.options) == engine.resolve(
            rec["game"], rec["rules"]["profile"], rec["rules"]["options"]
        )
        assert engine.game_record(game) == engine.record(
            kind=rec["game"],
            profile=rec["rules"]["profile"],
            options=game.options,
            names=rec["players"],
            first_dealer=game.first_dealer,
            deals=[engine.seat_deal(d, rec["players"]) for d in rec["deals"]],
        )
        expected = engine.score(rec)
        assert engine.game_result(game).totals == expected.totals
        assert {s.player.name: s.total for s in game.seated()} == expected.totals  # results stored
        assert game.scored_with == engine.RESULTS_VERSION
    assert sorted(Deal.objects.values_list("pk", "game_id", "number")) == [
        (101, 11, 1),
        (102, 11, 2),
        (103, 12, 1),
        (104, 12, 2),
    ]
    assert Game.objects.get(pk=11).first_dealer == 1
    changes = Change.objects.filter(game_id=11).order_by("id")
    assert [(c.deal_id, c.number, c.action) for c in changes] == [
        (101, 1, "added"),
        (102, 2, "added"),
        (102, 2, "edited"),
        (None, 3, "added"),  # the earlier version forgot the deal of a change once the deal was deleted
        (None, 3, "deleted"),
    ]
    assert all(c.by_name == "an earlier version" for c in Change.objects.all())
    edited = changes.get(action="edited")
    assert edited.before == engine.seat_deal(ok_record_deal(OK_BIG, ok_names), ok_names)
    # The deleted deal can be restored from the history, in its place.
    game = Game.objects.get(pk=11)
    deal_services.undo(game=game, change_id=changes.get(action="deleted").pk, by="test")
    assert game.deals.get(number=3).cards == engine.seat_deal(ok_record_deal(OK_SMALL, ok_names), ok_names)
    # New rows take ids after the adopted ones.
    new = game_services.create_game(table=table, kind="oklahoma", profile="book", options={}, players=["Ann", "Ben"])
    assert new.pk > 12
    assert Player.objects.create(table=table, name="Eve").pk > 7


def test_names_the_earlier_version_kept_apart_stay_apart(earlier_version):
    """SQLite's lower() knows only ASCII: the earlier version could hold 'Émile' and 'émile', even
    at one game, and names with control characters. Nothing is lost or merged into one seat."""
    legacy = earlier_version
    names = ["Émile", "émile", "Zo\x07e"]
    for pk, name in enumerate(names, start=1):
        legacy.player(pk, name)
    legacy.game(1, "oklahoma", "book", names)
    legacy.deal(1, 1, 1, ok_record_deal(OK_SMALL, names))
    legacy.write()

    migrate_forward()

    game = Game.objects.prefetch_related("seats__player").get(pk=1)
    shown = game.player_names()
    assert len(shown) == 3 and len({n.casefold() for n in shown}) == 3
    assert all("\x07" not in n for n in shown)
    assert shown[0] == "Émile" and shown[1].startswith("émile") and shown[2] == "Zoe"
    assert game.deals.get().cards == engine.seat_deal(ok_record_deal(OK_SMALL, names), names)
    # (The earlier version's record names one player twice by today's rules: scored under the new names.)
    result = engine.game_result(game)
    assert {s.player.name: s.total for s in game.seated()} == result.totals
    assert (
        result.totals
        == engine.score(dict(legacy.record(1), players=shown, deals=[ok_record_deal(OK_SMALL, shown)])).totals
    )
