from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _refresh(sender: AppConfig, **kwargs: Any) -> None:
    """After `migrate`: store the results of every game the current engine has not scored."""
    from scorekeeper.table.services import refresh_results

    refresh_results(log=print if kwargs.get("verbosity", 1) >= 1 else None)


class TableConfig(AppConfig):
    name = "scorekeeper.table"
    label = "table"
    verbose_name = "The table: games, deals, phones"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from scorekeeper.i18n import use_django_language

        use_django_language()
        post_migrate.connect(_refresh, sender=self)
