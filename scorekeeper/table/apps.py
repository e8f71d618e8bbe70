from django.apps import AppConfig


class TableConfig(AppConfig):
    name = "scorekeeper.table"
    label = "table"
    verbose_name = "The table: games, deals, phones"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from scorekeeper.i18n import use_django_language

        use_django_language()
