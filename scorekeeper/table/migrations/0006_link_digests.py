"""Links stored as hashes (issue 23): each link's token becomes its SHA-256 digest, and the token
itself leaves the database. A link made before keeps working (its digest is its token's) but has
no salt, so the table page cannot show it again (a scorer taps *New link*)."""

import hashlib

from django.db import migrations, models


def hash_tokens(apps, schema_editor):
    Link = apps.get_model("table", "Link")
    for link in Link.objects.only("pk", "token").iterator():
        Link.objects.filter(pk=link.pk).update(digest=hashlib.sha256(link.token.encode()).hexdigest(), salt="")


class Migration(migrations.Migration):
    dependencies = [("table", "0005_table_names")]

    operations = [
        migrations.AddField(
            model_name="link",
            name="digest",
            field=models.CharField(max_length=64, null=True, help_text="SHA-256 of the link's token."),
        ),
        migrations.AddField(
            model_name="link",
            name="salt",
            field=models.CharField(
                blank=True, default="", max_length=32, help_text="Makes the token with the secret key."
            ),
        ),
        migrations.RunPython(hash_tokens, migrations.RunPython.noop, elidable=False),
        migrations.RemoveField(model_name="link", name="token"),
        migrations.AlterField(
            model_name="link",
            name="digest",
            field=models.CharField(max_length=64, unique=True, help_text="SHA-256 of the link's token."),
        ),
    ]
