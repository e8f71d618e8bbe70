"""`python manage.py import_games FILE [--table ID]` (or `-` for standard input): import game records (one
record or a list) into a table (default: a new table "Imported"). Every game is re-scored first; when any record
is invalid nothing is saved, the errors are printed as JSON and the command exits 1. The file is read a chunk at a
time and its records scored and written a batch at a time (one transaction): a history of any size. Worker processes,
one per core this process may use, score the records while this one writes (``--workers 1``: all in this one)."""

from __future__ import annotations

import json
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import IO, Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from scorekeeper.history.imports import import_text, import_workers
from scorekeeper.table.models import Table


class Command(BaseCommand):
    help = "Import game records (RECORD.md); an invalid file saves nothing, prints its errors and exits 1."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the file's path, or - for standard input")
        parser.add_argument("--table", type=int, default=None, help="the table to import into (default: a new one)")
        parser.add_argument(
            "--workers", type=int, default=None, help="processes scoring the records (default: one per core; 1: none)"
        )

    def handle(self, *args: Any, file: str, table: int | None, workers: int | None, **options: Any) -> None:
        try:  # read a chunk at a time, one record in memory at a time: a file of any size
            data: IO[bytes] = sys.stdin.buffer if file == "-" else Path(file).open("rb")  # noqa: SIM115
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc.strerror}") from None
        with nullcontext() if file == "-" else data, transaction.atomic():
            if table is None:
                target = Table.objects.create(name="Imported")
            else:
                found = Table.objects.filter(pk=table).first()
                if found is None:
                    raise CommandError(f"no table #{table}")
                target = found
            report = import_text(
                table=target, text=data, by="command line", workers=import_workers() if workers is None else workers
            )
            if not report.ok:
                transaction.set_rollback(True)
        if not report.ok:
            self.stdout.write(json.dumps({"errors": report.errors}, ensure_ascii=False, indent=2))
            sys.exit(1)
        self.stdout.write(json.dumps({"imported": report.game_ids, "table": target.pk}))
