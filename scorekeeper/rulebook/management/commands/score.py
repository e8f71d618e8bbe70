"""`python manage.py score FILE` (or `-` for standard input): score a game record, print the result JSON."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandParser

from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.record import errors_json, result_json, score_text
from scorekeeper.table.management.input import read_input


class Command(BaseCommand):
    help = "Score a game record (RECORD.md) and print the result JSON; an invalid record prints its errors and exits 1."
    requires_system_checks: list = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the record's path, or - for standard input")

    def handle(self, *args, file: str, **options) -> None:
        data = read_input(file)
        try:
            result = score_text(data)
        except RecordInvalid as exc:
            self.stdout.write(json.dumps(errors_json(exc.errors), ensure_ascii=False, indent=2))
            sys.exit(1)
        self.stdout.write(json.dumps(result_json(result), ensure_ascii=False, indent=2))
