"""`python manage.py table_link [TABLE_ID] [--follow] [--base URL]`: print a link that lets a phone
into a table (to score, or with --follow only to follow) — for the installation's owner, e.g. for
the table of games from an earlier version, or when every scoring phone was lost. Without a
table id it lists the tables. A link to score works once, within a day; one to follow works until
it is revoked on the table page."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Count
from django.urls import reverse

from scorekeeper.table.models import Import, Role, Table
from scorekeeper.table.phones import services as phones


class Command(BaseCommand):
    help = "Print a link that lets a phone into a table (to score; --follow to follow)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("table", type=int, nargs="?", help="the table's id (none: list the tables)")
        parser.add_argument("--follow", action="store_true", help="a link to follow only")
        parser.add_argument(
            "--base",
            default=settings.SITE_URL or "http://127.0.0.1:8000",
            help="the address phones open (default: SCOREKEEPER_URL, else http://127.0.0.1:8000)",
        )

    def handle(self, *args: Any, table: int | None, follow: bool, base: str, **options: Any) -> None:
        # An import being written waits at a table of its own, which no phone may join.
        tables = Table.objects.exclude(pk__in=Import.objects.values("staging"))
        if table is None:
            for t in tables.annotate(n=Count("games")).order_by("pk"):
                self.stdout.write(f"{t.pk}\t{t.name}\t{t.n} games")
            return
        found = tables.filter(pk=table).first()
        if found is None:
            raise CommandError(f"no table #{table}")
        link = phones.create_link(table=found, role=Role.FOLLOW if follow else Role.SCORE, by=None)
        self.stdout.write(base.rstrip("/") + reverse("table:join", args=[link.token]))
