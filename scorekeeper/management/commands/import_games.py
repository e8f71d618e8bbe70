"""`python manage.py import_games FILE` (or `-` for standard input): import game records (one record or
a list). Every game is re-scored first; when any record is invalid nothing is saved, the errors are
printed as JSON and the command exits 1."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandParser

from scorekeeper import history
from scorekeeper.management.input import read_input


class Command(BaseCommand):
    help = "Import game records (RECORD.md); an invalid file saves nothing, prints its errors and exits 1."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the file's path, or - for standard input")

    def handle(self, *args, file: str, **options) -> None:
        data = read_input(file)
        report = history.import_text(data)
        if not report.ok:
            self.stdout.write(json.dumps({"errors": report.errors}, ensure_ascii=False, indent=2))
            sys.exit(1)
        ids = [g.pk for g in report.games]
        self.stdout.write(json.dumps({"imported": ids}))
