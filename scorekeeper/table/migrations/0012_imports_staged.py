"""Imports staged (issue 37): an import's games wait at a table of their own until the last batch is
written, then move to their table at once; ``Import`` marks such a table (``history.imports``)."""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("table", "0011_submission_digests"),
    ]

    operations = [
        migrations.CreateModel(
            name="Import",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "touched",
                    models.DateTimeField(
                        default=django.utils.timezone.now, help_text="When its last batch was written."
                    ),
                ),
                (
                    "staging",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE, related_name="+", to="table.table"
                    ),
                ),
            ],
        ),
    ]
