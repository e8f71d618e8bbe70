"""`python manage.py refresh_results`: score again every game whose stored results come from another
version of the engine (after an upgrade: ``manage.py serve`` runs it as it starts when a game needs
it; the README's production recipe runs it after ``migrate``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from scorekeeper.table.scoring.deals import refresh_results


class Command(BaseCommand):
    help = "Score again every game whose stored results come from another version of the engine."

    def handle(self, *args: Any, **options: Any) -> None:
        done = refresh_results(log=self.stdout.write)
        if options["verbosity"] >= 1:
            self.stdout.write(f"{done} game(s) scored again.")
