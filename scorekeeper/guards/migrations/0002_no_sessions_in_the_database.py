"""Sessions moved to signed cookies (``settings.SESSION_ENGINE``): the rows the database kept of the
admin's logins go, so that no backup made from now on carries one. The admin logs in once again."""

from django.db import migrations


def forget_stored_sessions(apps, schema_editor):
    apps.get_model("sessions", "Session").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("guards", "0001_limits_cache"), ("sessions", "0001_initial")]

    operations = [migrations.RunPython(forget_stored_sessions, migrations.RunPython.noop)]
