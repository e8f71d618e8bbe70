"""Tables get ``names``, bumped by a rename of one of their players: part of the key of their games'
cached page fragments, so that a rename bumps no finished game's version (issue 23). The games'
index by table and date holds their versions too: the player page's stamp
(``history.stats_cache``) reads that index alone."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("table", "0004_limits_cache")]

    operations = [
        migrations.AddField(
            model_name="table",
            name="names",
            field=models.PositiveIntegerField(
                default=0,
                help_text="Bumped by a rename of one of its players: part of its games' cached fragments' key.",
            ),
        ),
        migrations.RemoveIndex(model_name="game", name="game_table_created"),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["table", "-created", "version"], name="game_table_created_version"),
        ),
    ]
