"""A database of the earlier release upgrades with ``migrate`` (issue 24, defect 3), on SQLite and
on PostgreSQL (``make test`` runs this file in both passes), and a fresh database still migrates.

The earlier release kept its games in the app ``scorekeeper`` (tables ``scorekeeper_*``). Its schema
is made here by its own two migrations (their operations, as they were in ``scorekeeper/migrations``
before the apps were split), with rows in it; then ``migrate`` runs to the end, as an upgrade does.
On PostgreSQL that failed with ``relation "deal_number_unique" already exists``: the earlier
constraints carried the names the table app's first migration creates."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import django.db.models.deletion
import django.db.models.functions.text
import pytest
from django.apps.registry import Apps
from django.core.management import call_command
from django.db import connection, migrations, models
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.state import ProjectState
from django.test import Client

from scorekeeper.table import models as table_app
from scorekeeper.table.games import services as game_services
from scorekeeper.table.phones import services as phone_services
from tests.app_data import OK_BIG, OK_SMALL, ok_record_deal
from tests.conftest import as_phone
from tests.history.test_history import PARTY_KNOCK

pytestmark = pytest.mark.django_db(transaction=True)

# The earlier release's migrations 0001_initial and 0002_gamesummary (app "scorekeeper"), verbatim.
EARLIER = [
    migrations.CreateModel(
        name="Deal",
        fields=[
            ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
            ("number", models.PositiveIntegerField(help_text="1-based, in the order played.")),
            ("data", models.JSONField(help_text="One RECORD.md deal, player names as keys.")),
            ("created", models.DateTimeField(auto_now_add=True)),
            ("updated", models.DateTimeField(auto_now=True)),
        ],
        options={"ordering": ["game", "number"]},
    ),
    migrations.CreateModel(
        name="Game",
        fields=[
            ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
            (
                "game",
                models.CharField(choices=[("oklahoma", "Oklahoma"), ("oklahoma-gin", "Oklahoma Gin")], max_length=20),
            ),
            ("profile", models.CharField(max_length=20)),
            ("options", models.JSONField(blank=True, default=dict)),
            ("target", models.IntegerField(help_text="The target as shown (the rules' value).")),
            ("first_dealer", models.PositiveSmallIntegerField(blank=True, null=True)),
            ("created", models.DateTimeField(auto_now_add=True)),
            ("updated", models.DateTimeField(auto_now=True)),
            ("state", models.CharField(default="in_progress", max_length=20)),
            ("winner", models.CharField(blank=True, default="", max_length=40)),
        ],
        options={"ordering": ["-updated", "-id"]},
    ),
    migrations.CreateModel(
        name="DealChange",
        fields=[
            ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
            ("number", models.PositiveIntegerField()),
            (
                "action",
                models.CharField(
                    choices=[("created", "created"), ("edited", "edited"), ("deleted", "deleted")], max_length=10
                ),
            ),
            ("old", models.JSONField(blank=True, null=True)),
            ("new", models.JSONField(blank=True, null=True)),
            ("at", models.DateTimeField(auto_now_add=True)),
            (
                "deal",
                models.ForeignKey(
                    blank=True,
                    null=True,
                    on_delete=django.db.models.deletion.SET_NULL,
                    related_name="changes",
                    to="scorekeeper.deal",
                ),
            ),
            (
                "game",
                models.ForeignKey(
                    on_delete=django.db.models.deletion.CASCADE, related_name="changes", to="scorekeeper.game"
                ),
            ),
        ],
        options={"ordering": ["game", "at", "id"]},
    ),
    migrations.AddField(
        model_name="deal",
        name="game",
        field=models.ForeignKey(
            on_delete=django.db.models.deletion.CASCADE, related_name="deals", to="scorekeeper.game"
        ),
    ),
    migrations.CreateModel(
        name="Player",
        fields=[
            ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
            ("name", models.CharField(max_length=40)),
            ("created", models.DateTimeField(auto_now_add=True)),
        ],
        options={
            "ordering": ["name"],
            "constraints": [
                models.UniqueConstraint(django.db.models.functions.text.Lower("name"), name="player_name_unique_ci")
            ],
        },
    ),
    migrations.CreateModel(
        name="Seat",
        fields=[
            ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
            ("position", models.PositiveSmallIntegerField()),
            (
                "game",
                models.ForeignKey(
                    on_delete=django.db.models.deletion.CASCADE, related_name="seats", to="scorekeeper.game"
                ),
            ),
            (
                "player",
                models.ForeignKey(
                    on_delete=django.db.models.deletion.PROTECT, related_name="seats", to="scorekeeper.player"
                ),
            ),
        ],
        options={"ordering": ["game", "position"]},
    ),
    migrations.AddConstraint(
        model_name="deal",
        constraint=models.UniqueConstraint(fields=("game", "number"), name="deal_number_unique"),
    ),
    migrations.AddConstraint(
        model_name="seat",
        constraint=models.UniqueConstraint(fields=("game", "position"), name="seat_position_unique"),
    ),
    migrations.AddConstraint(
        model_name="seat",
        constraint=models.UniqueConstraint(fields=("game", "player"), name="seat_player_unique"),
    ),
    migrations.CreateModel(
        name="GameSummary",
        fields=[
            (
                "game",
                models.OneToOneField(
                    on_delete=django.db.models.deletion.CASCADE,
                    primary_key=True,
                    related_name="summary",
                    serialize=False,
                    to="scorekeeper.game",
                ),
            ),
            ("key", models.CharField(max_length=64)),
            ("data", models.JSONField()),
        ],
    ),
]
EARLIER_TABLES = ["GameSummary", "DealChange", "Seat", "Deal", "Game", "Player"]


def _earlier_schema() -> Apps:
    """Create the earlier release's tables; return its models (historical models of its state)."""
    state = ProjectState()
    with connection.schema_editor() as editor:
        for operation in EARLIER:
            after = state.clone()
            operation.state_forwards("scorekeeper", after)
            operation.database_forwards("scorekeeper", editor, state, after)
            state = after
    return state.apps


@pytest.fixture
def earlier_release() -> Iterator[Apps]:
    """A database as the earlier release left it: no table app, the ``scorekeeper_*`` tables."""
    MigrationExecutor(connection).migrate([("table", None)])
    earlier = _earlier_schema()
    try:
        yield earlier
    finally:
        with connection.schema_editor() as editor:
            for name in EARLIER_TABLES:
                editor.delete_model(earlier.get_model("scorekeeper", name))
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())


def test_a_database_of_the_earlier_release_upgrades_with_its_games(earlier_release):
    names = ["Ann", "Ben", "Cleo"]
    earlier = {name: earlier_release.get_model("scorekeeper", name) for name in ("Player", "Game", "Seat", "Deal")}
    players = [earlier["Player"].objects.create(name=name) for name in names]
    game = earlier["Game"].objects.create(game="oklahoma", profile="book", options={}, target=1000, first_dealer=0)
    for position, player in enumerate(players):
        earlier["Seat"].objects.create(game=game, player=player, position=position)
    for number, deal in enumerate((OK_BIG, OK_SMALL), start=1):
        earlier["Deal"].objects.create(game=game, number=number, data=ok_record_deal(deal, names))

    call_command("migrate", verbosity=0)  # the upgrade
    assert table_app.Game.objects.get(pk=game.pk).scored_with == ""  # migrate scores nothing itself
    call_command("refresh_results", verbosity=0)  # the upgrade's next step (``serve`` runs it as it starts)

    upgraded = table_app.Game.objects.get(pk=game.pk)
    assert upgraded.player_names() == names
    assert list(upgraded.deals.values_list("number", flat=True)) == [1, 2]
    assert upgraded.scored_with  # scored by the explicit step
    assert upgraded.created == game.created
    with connection.cursor() as cursor:
        held = connection.introspection.get_constraints(cursor, "table_deal")
    assert "deal_number_unique" in held
    with connection.cursor() as cursor:
        held = connection.introspection.get_constraints(cursor, "table_seat")
    assert {"seat_position_unique", "seat_player_unique"} <= set(held)


def test_an_earlier_game_today_s_rules_refuse_keeps_its_deals_and_says_why(earlier_release):
    """Three players scoring Gin to the hand's winner: the earlier release took it, this round's
    ruling refuses it. After the upgrade the game is not blank: every deal is listed (not scored,
    the reason beside it), the winner it had is shown, and the page says what scores it again."""
    names = ["Ann", "Ben", "Cleo"]
    earlier = {name: earlier_release.get_model("scorekeeper", name) for name in ("Player", "Game", "Seat", "Deal")}
    players = [earlier["Player"].objects.create(name=name) for name in names]
    game = earlier["Game"].objects.create(
        game="oklahoma-gin", profile="party", options={"scoring": "winner"}, target=500, state="finished", winner="Ann"
    )
    for position, player in enumerate(players):
        earlier["Seat"].objects.create(game=game, player=player, position=position)
    for number in range(1, 5):
        earlier["Deal"].objects.create(game=game, number=number, data=PARTY_KNOCK)

    call_command("migrate", verbosity=0)
    call_command("refresh_results", verbosity=0)

    upgraded = table_app.Game.objects.get(pk=game.pk)
    assert upgraded.deals.count() == 4 and upgraded.finished
    device = table_app.Device.objects.create(table=upgraded.table, name="Phone", role=table_app.Role.SCORE)
    phone = as_phone(Client(), device)
    html = phone.get(f"/games/{game.pk}/").content.decode()
    assert "No deals yet" not in html
    assert all(f'id="deal-{n}"' in html for n in range(1, 5))
    assert "Ann wins the game." in html
    assert "scoring to the hand&#x27;s winner (&#x27;scoring&#x27;: &#x27;winner&#x27;) is for two players" in html
    assert "switch the game to other rules to score it again" in html
    review = phone.get(f"/history/{game.pk}/").content.decode()
    assert "No deals yet" not in review and all(f'id="deal-{n}"' in review for n in range(1, 5))
    deal = upgraded.deals.get(number=4)
    assert "is for two players" in phone.get(f"/games/{game.pk}/deals/{deal.pk}/").content.decode()


def test_a_fresh_database_migrates_from_nothing():
    MigrationExecutor(connection).migrate([("table", None)])
    call_command("migrate", verbosity=0)
    table, device = phone_services.create_table(name="Fresh", device_name="Phone")
    game = game_services.create_game(
        table=table, kind="oklahoma-gin", profile="standard", options={}, players=["Ann", "Ben"], by=device
    )
    assert table_app.Game.objects.get() == game
    assert game.seats.count() == table_app.Player.objects.count() == 2
    assert table.created <= datetime.now(UTC)
