"""Made the per-client limits' cache table; the limits' own app makes it now (guards 0001), so
that it is made where the limits live. Kept, empty, as a step of the history of every database."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("table", "0003_game_indexes_in_composites")]

    operations: list[migrations.operations.base.Operation] = []
