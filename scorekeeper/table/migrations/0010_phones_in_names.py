"""A table's ``names`` is bumped by a new name of the table and a change of its phones too (its game
pages show them): only its help text changes, no column."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("table", "0009_player_figures"),
    ]

    operations = [
        migrations.AlterField(
            model_name="table",
            name="names",
            field=models.PositiveIntegerField(
                default=0,
                help_text="Bumped by a rename of one of its players or of the table, or a change of its phones: part of"
                " its games' cached fragments' key.",
            ),
        ),
    ]
