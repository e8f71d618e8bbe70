"""The database cache table of the per-client limits (settings.CACHES["limits"], ``guards.limits``):
made here, where the limits live, so that every installation, test database and server has it
without a step of its own. A database made before this app had it made by table 0004 (now empty):
``createcachetable`` leaves a table that is there as it is."""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", "scorekeeper_limits", database=schema_editor.connection.alias, verbosity=0)


def drop_cache_table(apps, schema_editor):
    schema_editor.execute(f"DROP TABLE IF EXISTS {schema_editor.quote_name('scorekeeper_limits')}")


class Migration(migrations.Migration):
    initial = True
    dependencies: list[tuple[str, str]] = []

    operations = [migrations.RunPython(create_cache_table, drop_cache_table)]
