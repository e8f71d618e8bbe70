"""`python manage.py export_games [--table ID] [--game ID ...] [--player NAME] [--csv] [-o FILE]`: the saved
games as game records (RECORD.md; one record for one --game, else a list) or as CSV (one row per player per deal)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import QuerySet

from scorekeeper.history import lists, transfer
from scorekeeper.table.models import Game, Table


class Command(BaseCommand):
    help = "Export saved games as game records (JSON) or CSV."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--table", type=int, default=None, help="only this table's games (default: every table)")
        parser.add_argument(
            "--game", type=int, action="append", default=[], help="a game id (repeat for more); default: every game"
        )
        parser.add_argument("--player", default="", help="only the games of this player")
        parser.add_argument("--csv", action="store_true", help="CSV, one row per player per deal")
        parser.add_argument("-o", "--output", default="-", help="the file to write, - for standard output")

    def handle(
        self, *args: Any, table: int | None, game: list[int], player: str, csv: bool, output: str, **options: Any
    ) -> None:
        qs = _games(table, game, player)
        if csv:
            chunks = transfer.iter_export_csv(qs)
        elif len(game) == 1:
            chunks = iter([transfer.record_text(transfer.export_records(qs)[0]) + "\n"])
        else:
            chunks = transfer.iter_export_json(qs)  # a chunk of games at a time: any number of games
        if output == "-":
            for text in chunks:
                self.stdout.write(text, ending="")
            return
        _write(chunks, output)
        n = qs.count()
        self.stderr.write(f"exported {n} game{'s' if n != 1 else ''} to {output}")


def _games(table: int | None, game: list[int], player: str) -> QuerySet[Game]:
    """The games asked for: a table's (default: every table's), a player's, these ids; CommandError
    names a table or a game that is not there."""
    tables = Table.objects.all() if table is None else Table.objects.filter(pk=table)
    if table is not None and not tables.exists():
        raise CommandError(f"no table #{table}")
    qs = lists.games_list(tables=tables, player=player)
    if not game:
        return qs
    qs = qs.filter(pk__in=game)
    missing = sorted(set(game) - set(qs.values_list("pk", flat=True)))
    if missing:
        raise CommandError(f"no game {', '.join(f'#{g}' for g in missing)}")
    return qs


def _write(chunks: Iterator[str], output: str) -> None:
    """The text into the file ``output`` (CommandError when it cannot be written)."""
    try:
        with Path(output).open("w", encoding="utf-8") as out:
            for text in chunks:
                out.write(text)
    except OSError as exc:
        raise CommandError(f"cannot write {output}: {exc.strerror}") from None
