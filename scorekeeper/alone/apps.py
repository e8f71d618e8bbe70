from django.apps import AppConfig


class AloneConfig(AppConfig):
    name = "scorekeeper.alone"
    label = "alone"
    verbose_name = "A phone alone: games played in the browser, handed to a table"
    default_auto_field = "django.db.models.BigAutoField"
