"""Submission tokens stored as digests (issue 37): each remembered form's token becomes its SHA-256,
so a copy of the database holds no token to post again; ``browser`` binds a new-game form to the
browser that sent it. A form submitted before still finds its first answer (its digest is its
token's); it was sent by no known browser, so a repeat of it is given no phone's cookie."""

import hashlib

from django.db import migrations, models


def hash_tokens(apps, schema_editor):
    Submission = apps.get_model("table", "Submission")
    for token in list(Submission.objects.values_list("token", flat=True)):
        Submission.objects.filter(token=token).update(token=hashlib.sha256(token.encode()).hexdigest())


class Migration(migrations.Migration):
    dependencies = [("table", "0010_phones_in_names")]

    operations = [
        migrations.AddField(
            model_name="submission",
            name="browser",
            field=models.CharField(
                blank=True,
                default="",
                max_length=64,
                help_text="SHA-256 of the secret of the browser that submitted it.",
            ),
        ),
        migrations.AlterField(
            model_name="submission",
            name="token",
            field=models.CharField(
                max_length=64, primary_key=True, serialize=False, help_text="SHA-256 of the form's token."
            ),
        ),
        migrations.RunPython(hash_tokens, migrations.RunPython.noop, elidable=False),
    ]
