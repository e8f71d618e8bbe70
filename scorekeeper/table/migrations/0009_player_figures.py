"""The players' figures kept by the writes (issue 23: the player page reads a row for each game and
opponent, whatever the history): ``PlayerFigures`` and ``HeadToHead``, and on each seat its game's
kind and its best and worst deal's points as the page compares them (``best_value``,
``worst_value``: penalty points count negative), with an index for each. Filled here from the seats
as they stand; the writes keep them from then on (``table.figures``). The games' index by table
and date no longer holds their versions: the player page's stamp of them (its cache) is gone."""

from typing import Any

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Count, F, OuterRef, Q, Subquery, Sum

CHUNK = 500
FINISHED = Q(game__state="finished")  # a seat whose game ended


def _penalty(kind: str, profile: str, options: Any) -> bool:
    """Whether the game's rules score penalty points (as ``table.engine.rules_of`` reads them: options
    the engine no longer knows are dropped)."""
    from scorekeeper.rules.errors import RecordInvalid
    from scorekeeper.rules.profiles import resolve

    try:
        try:
            return resolve(kind, profile, options if isinstance(options, dict) else {}).penalty
        except RecordInvalid:
            return resolve(kind, profile).penalty
    except RecordInvalid:
        return False


def fill(apps: Any, schema_editor: Any) -> None:
    Game, Seat = apps.get_model("table", "Game"), apps.get_model("table", "Seat")
    PlayerFigures, HeadToHead = apps.get_model("table", "PlayerFigures"), apps.get_model("table", "HeadToHead")
    _fill_seats(Game, Seat)
    _fill_player_figures(Seat, PlayerFigures)
    _fill_head_to_head(Seat, HeadToHead)


def _fill_seats(Game: Any, Seat: Any) -> None:
    """Each seat's game kind, and its best and worst deal's points as the page compares them."""
    Seat.objects.update(kind=Subquery(Game.objects.filter(pk=OuterRef("game_id")).values("kind")[:1]))
    Seat.objects.update(best_value=F("best_points"), worst_value=F("worst_points"))
    penalty = [
        pk
        for pk, kind, profile, options in Game.objects.values_list("pk", "kind", "profile", "options").iterator()
        if _penalty(kind, profile, options)
    ]
    for start in range(0, len(penalty), CHUNK):
        Seat.objects.filter(game_id__in=penalty[start : start + CHUNK]).update(
            best_value=-F("best_points"), worst_value=-F("worst_points")
        )


def _fill_player_figures(Seat: Any, PlayerFigures: Any) -> None:
    """A player's figures for each game kind, summed over his seats."""
    sums = (
        Seat.objects.values("player_id", "kind")
        .annotate(
            n_games=Count("id"),
            n_won=Count("id", filter=Q(won=True)),
            n_finished=Count("id", filter=FINISHED),
            **{f"n_{name}": Sum(name) for name in ("deals", "points", "outs", "knocks")},
            n_given=Sum("undercuts_given"),
            n_suffered=Sum("undercuts_suffered"),
        )
        .order_by()
    )
    PlayerFigures.objects.bulk_create(
        [
            PlayerFigures(
                player_id=r["player_id"],
                kind=r["kind"],
                games=r["n_games"],
                won=r["n_won"],
                finished=r["n_finished"],
                deals=r["n_deals"] or 0,
                points=r["n_points"] or 0,
                outs=r["n_outs"] or 0,
                knocks=r["n_knocks"] or 0,
                undercuts_given=r["n_given"] or 0,
                undercuts_suffered=r["n_suffered"] or 0,
            )
            for r in sums
        ],
        batch_size=CHUNK,
    )


def _fill_head_to_head(Seat: Any, HeadToHead: Any) -> None:
    """Each pair of players who met: their games together, won, lost and finished."""
    pairs = (
        Seat.objects.values("player_id", other=F("game__seats__player_id"))
        .exclude(other=F("player_id"))
        .annotate(
            n_games=Count("game_id"),
            n_won=Count("game_id", filter=Q(won=True)),
            n_lost=Count("game_id", filter=Q(game__seats__won=True)),
            n_finished=Count("game_id", filter=FINISHED),
        )
        .order_by()
    )
    HeadToHead.objects.bulk_create(
        [
            HeadToHead(
                player_id=r["player_id"],
                other_id=r["other"],
                games=r["n_games"],
                won=r["n_won"],
                lost=r["n_lost"],
                finished=r["n_finished"],
            )
            for r in pairs
        ],
        batch_size=CHUNK,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("table", "0008_typing"),
    ]

    operations = [
        migrations.CreateModel(
            name="HeadToHead",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("games", models.IntegerField(default=0)),
                ("won", models.IntegerField(default=0)),
                ("lost", models.IntegerField(default=0, help_text="Games the other player won.")),
                ("finished", models.IntegerField(default=0)),
            ],
            options={
                "ordering": ["player", "other"],
            },
        ),
        migrations.CreateModel(
            name="PlayerFigures",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "kind",
                    models.CharField(
                        choices=[("oklahoma", "Oklahoma"), ("oklahoma-gin", "Oklahoma Gin")], max_length=20
                    ),
                ),
                ("games", models.IntegerField(default=0)),
                ("won", models.IntegerField(default=0)),
                ("finished", models.IntegerField(default=0, help_text="Games of his that ended.")),
                ("deals", models.IntegerField(default=0, help_text="Deals scored (void hands not counted).")),
                (
                    "points",
                    models.IntegerField(
                        default=0, help_text="Points over those deals (penalty points count negative)."
                    ),
                ),
                ("outs", models.IntegerField(default=0, help_text="Oklahoma: times out; Gin: gin or big gin.")),
                ("knocks", models.IntegerField(default=0)),
                ("undercuts_given", models.IntegerField(default=0)),
                ("undercuts_suffered", models.IntegerField(default=0)),
            ],
            options={
                "ordering": ["player", "kind"],
            },
        ),
        migrations.AddField(
            model_name="seat",
            name="best_value",
            field=models.IntegerField(
                blank=True,
                help_text="best_points as the player page compares them (penalty points count negative).",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="seat",
            name="kind",
            field=models.CharField(
                choices=[("oklahoma", "Oklahoma"), ("oklahoma-gin", "Oklahoma Gin")],
                default="oklahoma",
                help_text="The game's (which never changes).",
                max_length=20,
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="seat",
            name="worst_value",
            field=models.IntegerField(
                blank=True,
                help_text="worst_points as the player page compares them (penalty points count negative).",
                null=True,
            ),
        ),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(fields=["player", "kind", "-best_value", "-game"], name="seat_player_best"),
        ),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(fields=["player", "kind", "worst_value", "-game"], name="seat_player_worst"),
        ),
        migrations.AddField(
            model_name="headtohead",
            name="other",
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+", to="table.player"),
        ),
        migrations.AddField(
            model_name="headtohead",
            name="player",
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+", to="table.player"),
        ),
        migrations.AddField(
            model_name="playerfigures",
            name="player",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="figures", to="table.player"
            ),
        ),
        migrations.AddConstraint(
            model_name="headtohead",
            constraint=models.UniqueConstraint(fields=("player", "other"), name="head_to_head_unique"),
        ),
        migrations.AddConstraint(
            model_name="playerfigures",
            constraint=models.UniqueConstraint(fields=("player", "kind"), name="player_figures_unique"),
        ),
        # The player page no longer reads the games' versions (it kept its figures by a stamp of them).
        migrations.RemoveIndex(model_name="game", name="game_table_created_version"),
        migrations.AddIndex(
            model_name="game", index=models.Index(fields=["table", "-created"], name="game_table_created")
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
