"""Importing game records (RECORD.md, ``docs/record.md``) at a table: each record is scored by the
engine, deal by deal, and written with its results, its seats' figures and its change history.
A file of any size is read a record at a time; with worker processes (the command line's import)
the records are scored in parallel while this process reads and writes. An invalid file saves
nothing and lists the engine's errors. An import is whole or absent: its games are written at a
table of their own and move to theirs at once (``_write``); a form's import is written once, however
often it is sent (``submission``).
"""

from __future__ import annotations

import contextlib
import gc
import io
import itertools
import multiprocessing
import os
import pickle
import tempfile
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import timedelta
from typing import IO, Any, cast

from django.db import DatabaseError, transaction
from django.urls import reverse
from django.utils import timezone

from scorekeeper.history.import_rows import deal_row, insert_changes, insert_deals
from scorekeeper.history.transfer import NotExportLayout, iter_record_texts, iter_records, record_of_text
from scorekeeper.rules.errors import RecordError, RecordInvalid
from scorekeeper.rules.messages import msg
from scorekeeper.table import submissions
from scorekeeper.table.games.services import player_name_errors
from scorekeeper.table.models import (
    Device,
    Game,
    GameState,
    Import,
    Player,
    Seat,
    Table,
    clean_name,
    name_key,
)
from scorekeeper.table.scoring import engine
from scorekeeper.table.scoring.figures import Tally
from scorekeeper.table.scoring.store import Actor, ScoredRow, result_fields, seat_figures


@dataclass
class ImportReport:
    game_ids: list[int] = field(default_factory=list)  # the games imported, in the records' order
    errors: list[dict[str, Any]] = field(default_factory=list)  # {"record": i, "errors": [RecordError dicts]}

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def games(self) -> list[Game]:
        """The games imported, read from the database (in the records' order)."""
        by_id = Game.objects.in_bulk(self.game_ids)
        return [by_id[pk] for pk in self.game_ids]


# Games written at a time by an import: enough for few statements, few enough for little memory.
IMPORT_BATCH = 100


# Records a worker of an import scores at a time (``workers`` > 1), and the chunks in flight: few
# enough for little memory, enough to keep every worker busy.
IMPORT_CHUNK = 8


IMPORT_IN_FLIGHT = 4

# An import whose writes stopped this long ago (its server was killed half-way) is removed by the
# next import (``_remove_stopped``): a running one writes a batch in a second or so.
STOPPED = timedelta(minutes=10)


def import_records(
    *, table: Table, records: Iterable[Any], by: Actor = "import", workers: int = 1, submission: str | None = None
) -> ImportReport:
    """Import game records (any iterable: a reader of a file yields them one at a time): each is
    scored by the engine, deal by deal, and written with its results, its seats' figures and its
    change history, a batch of games at a time; the table has them all at once (``_write``). When
    any record is invalid (or the file breaks off) nothing at all is saved and the report lists
    every error of every record. Memory holds a batch of games, whatever the number of records.
    With ``workers`` > 1 (the command line's import of a history), that many processes score the
    records while this one reads the file and writes; the same games, in the same order, with the
    same errors. ``submission``: the form's token; raises submissions.Duplicate, having saved
    nothing, when that form was imported before (a double tap, a retry)."""
    return _import(table, records, by, workers, texts=False, submission=submission)


def _import(
    table: Table, records: Iterable[Any], by: Actor, workers: int, *, texts: bool, submission: str | None = None
) -> ImportReport:
    """``import_records`` of records, or of their texts (``texts``: ``iter_record_texts``). Lets
    NotExportLayout through, having saved nothing.

    Two steps, so that an import never holds the database against the tables: every record is
    scored first, each scored game put aside in a temporary file (nothing is written while a record
    may still be invalid); then the games are written (``_write``)."""
    submissions.check(submission)
    report = ImportReport()
    with tempfile.TemporaryFile() as waiting:
        count = 0
        try:
            for i, scored in enumerate(_scored(records, workers, texts), start=1):
                if isinstance(scored, list):
                    report.errors.append({"record": i, "errors": scored})
                elif not report.errors:
                    pickle.dump(scored, waiting, protocol=pickle.HIGHEST_PROTOCOL)
                    count += 1
        except RecordInvalid as exc:  # the file itself: not JSON from some point on
            report.errors.append({"record": None, "errors": [e.as_dict() for e in exc.errors]})
        except BrokenProcessPool:  # a worker process was killed (out of memory, say): nothing is saved
            stopped = RecordError(msg("a process scoring the records stopped; nothing was imported"), rule="internal")
            report.errors.append({"record": None, "errors": [stopped.as_dict()]})
        if report.errors:
            return report
        waiting.seek(0)
        report.game_ids = _write(table, by, cast(IO[bytes], waiting), count, submission)
    return report


def answer(game_ids: Sequence[int]) -> str:
    """Where an import sends the phone: the game's review (one game), else the list of games."""
    return reverse("history:review", args=[game_ids[0]]) if len(game_ids) == 1 else reverse("history:games")


def _write(into: Table, by: Actor, waiting: IO[bytes], count: int, submission: str | None) -> list[int]:
    """Write the ``count`` scored games put aside in ``waiting``, a batch at a time, each batch in a
    short transaction of its own (a save at another table waits for one batch at most), at a table
    of their own that no phone is at (``Import``); then move them to ``into`` in one short
    transaction (``_finish``). To the phones an import is whole or absent: stopped half-way (the
    server killed), its games are nowhere a phone looks, a retry imports the records once, and
    the next import removes them. Raises Duplicate, leaving nothing, when the form ``submission``
    was imported meanwhile (a double tap: the other submit imported it)."""
    _remove_stopped()
    with transaction.atomic():
        job = Import.objects.create(staging=Table.objects.create(name=f"import into table {into.pk}"))
    batch = _Batch(job.staging, by)
    ids: list[int] = []
    try:
        for start in range(0, count, IMPORT_BATCH):
            with transaction.atomic():
                for _ in range(min(IMPORT_BATCH, count - start)):
                    batch.add(pickle.load(waiting))
                ids += batch.write()
                Import.objects.filter(pk=job.pk).update(touched=timezone.now())
        _finish(job, into, batch.tally, ids, submission)
    except BaseException:  # imported by the other submit, or the database failed: nothing stays
        with contextlib.suppress(DatabaseError):
            _remove(job)
        raise
    return ids


@transaction.atomic
def _finish(job: Import, into: Table, tally: Tally, ids: Sequence[int], submission: str | None) -> None:
    """An import's games, players and figures at ``into``, all at once: each of its players the
    table knows (by name, any case) becomes that player, keeping the table's spelling. Two imports
    into one table finish one after the other (its row locked: PostgreSQL; SQLite's writes hold the
    whole database)."""
    Table.objects.select_for_update().filter(pk=into.pk).values_list("pk").first()
    submissions.check(submission)
    known = dict(Player.objects.filter(table=into).values_list("key", "pk"))
    same: dict[int, int] = {}  # the import's player: the table's
    for pk, key in Player.objects.filter(table=job.staging).values_list("pk", "key"):
        if key in known:
            Seat.objects.filter(player_id=pk).update(player_id=known[key])
            same[pk] = known[key]
    Player.objects.filter(pk__in=same).delete()
    Player.objects.filter(table=job.staging).update(table=into)
    Game.objects.filter(table=job.staging).update(table=into)
    tally.moved(same).write()
    Table.objects.filter(pk=job.staging_id).delete()  # with the Import
    submissions.remember(submission, answer(ids))


def _remove_stopped() -> None:
    """Remove the imports whose writes stopped (``STOPPED`` ago): their servers were killed half-way."""
    for job in Import.objects.filter(touched__lt=timezone.now() - STOPPED):
        _remove(job)


def _remove(job: Import) -> None:
    """An import not finished, removed: its games (with their seats, deals and changes), its players."""
    with transaction.atomic():
        Game.objects.filter(table_id=job.staging_id).delete()
        Table.objects.filter(pk=job.staging_id).delete()  # its players and the Import with it


@dataclass(frozen=True)
class _Scored:
    """A record scored and laid out for writing (``_score``): the game's fields, its seats (the
    player's name, then the seat's other fields) and its deals' fields."""

    game: dict[str, Any]
    seats: list[tuple[str, dict[str, Any]]]
    deals: list[dict[str, Any]]


_Errors = list[dict[str, Any]]  # a record's errors, as RecordError.as_dict gives them


def _score(rec: Any) -> _Scored | _Errors:
    """One record scored deal by deal and laid out for writing, or every error of it (the engine's
    whole-record check, then the names as the app keeps them: cleaned, any case). Reads and writes
    nothing: a worker process of an import runs it."""
    try:
        played = engine.play_record(rec)
    except RecordInvalid as first:
        return _every_error(rec, first)
    names = player_name_errors(played.names)
    if names:
        return [e.as_dict() for e in names]
    result = played.played.result
    seat_of = engine.seats_of(played.names)
    deals, scored = [], []
    for number, (cards, dr, standing) in enumerate(
        zip(played.cards, played.played.deals, played.played.standings, strict=True), start=1
    ):
        fields = result_fields(dr, standing, played.names, seat_of)
        scored.append(ScoredRow.of(number, fields))
        deals.append(deal_row({"number": number, "cards": cards, **fields}))
    game = {
        "kind": played.rules.game,
        "profile": played.rules.profile,
        "options": played.rules.options(),
        "first_dealer": played.first_dealer,
        "state": GameState.FINISHED.value if result.state == "finished" else GameState.IN_PROGRESS.value,
        "winner": seat_of.get(result.winner) if result.winner else None,
        "version": 1,
        "scored_with": engine.RESULTS_VERSION,
    }
    seats = [
        (
            clean_name(name),
            {"position": i, "kind": played.rules.game, **seat_figures(i, result, scored, played.rules.penalty)},
        )
        for i, name in enumerate(played.names)
    ]
    return _Scored(game, seats, deals)


def _every_error(rec: Any, first: RecordInvalid) -> _Errors:
    """Every error of a record that did not play (``first``: what stopped it), as the engine's
    whole-record check finds them; ``first``'s when that check finds none."""
    try:
        engine.score(rec)  # raises with every error of the record
    except RecordInvalid as exc:
        return [e.as_dict() for e in exc.errors]
    return [e.as_dict() for e in first.errors]


def import_workers() -> int:
    """Worker processes for the command line's import: one per core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _score_text(text: bytes) -> _Scored | _Errors:
    """``_score`` of a record's text (``iter_record_texts``): a worker process reads the JSON."""
    return _score(record_of_text(text))


def _scored(records: Iterable[Any], workers: int, texts: bool) -> Iterator[_Scored | _Errors]:
    """``_score`` of each record (``_score_text`` of each text), in order: here, or in ``workers``
    processes forked from this one (a chunk of records at a time, a few chunks in flight) while
    this one reads on and writes."""
    if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        yield from map(_score_text if texts else _score, records)
        return
    # Each worker first moves what it inherited (Django, the engine's tables) out of the garbage
    # collector's sight: its collections then look at the objects of the records alone (about a
    # quarter of a worker's time otherwise).
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"), initializer=gc.freeze)
    try:
        pending: deque[Future[list[_Scored | _Errors]]] = deque()
        for chunk in itertools.batched(records, IMPORT_CHUNK):
            pending.append(pool.submit(_score_chunk, texts, chunk))
            if len(pending) >= workers * IMPORT_IN_FLIGHT:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
    finally:  # done, or stopped by an error: the chunks still waiting are not scored
        pool.shutdown(cancel_futures=True)


def _score_chunk(texts: bool, records: Sequence[Any]) -> list[_Scored | _Errors]:
    score = _score_text if texts else _score  # in a worker: this module's, as forked
    return [score(rec) for rec in records]


class _Batch:
    """Scored records waiting to be written together: a batch of games, their seats, deals and
    changes: the games and seats each with one ``bulk_create``, the deals and changes as rows
    (``import_rows``: an import writes tens of thousands of them)."""

    def __init__(self, table: Table, by: Actor) -> None:
        self.table = table
        self.device_id = by.pk if isinstance(by, Device) else None
        self.by_name = by.name if isinstance(by, Device) else by or ""
        self.players = {p.key: p for p in Player.objects.filter(table=table)}
        self.tally = Tally()  # what the games written add to their players' figures
        self.games: list[dict[str, Any]] = []  # by game: its fields
        self.seats: list[list[dict[str, Any]]] = []  # by game: its seats' fields but the game
        self.deals: list[list[dict[str, Any]]] = []  # by game: its deals' fields but the game

    def __len__(self) -> int:
        return len(self.games)

    def drop(self) -> None:
        self.games, self.seats, self.deals = [], [], []

    def _player(self, name: str) -> Player:
        """The table's player by this name (a known player keeps his spelling), created when new."""
        key = name_key(name)
        player = self.players.get(key)
        if player is None:
            player = self.players[key] = Player.objects.create(table=self.table, name=name)
        return player

    def add(self, scored: _Scored) -> None:
        self.games.append(scored.game)
        self.deals.append(scored.deals)
        self.seats.append([{**fields, "player_id": self._player(name).pk} for name, fields in scored.seats])

    def write(self) -> list[int]:
        """Write the waiting games, each with its seats, deals and their changes; return their ids."""
        if not self.games:
            return []
        now = timezone.now()
        games = Game.objects.bulk_create(
            [Game(table=self.table, created=now, updated=now, **fields) for fields in self.games]
        )
        Seat.objects.bulk_create(
            [Seat(game=game, **row) for game, rows in zip(games, self.seats, strict=True) for row in rows]
        )
        for game, seats in zip(games, self.seats, strict=True):
            self.tally.add(game.kind, game.state == GameState.FINISHED, seats)
        ids = [game.pk for game in games]
        insert_deals(ids, self.deals, now)
        insert_changes(ids, at=now, by_id=self.device_id, by_name=self.by_name)
        self.drop()
        return ids


def import_text(
    *,
    table: Table,
    text: str | bytes | IO[bytes] | IO[str],
    by: Actor = "import",
    workers: int = 1,
    submission: str | None = None,
) -> ImportReport:
    """Import the records of a file (its text, or the file open for reading: read a chunk at a
    time, a few records in memory at a time). With ``workers`` > 1, a file laid out as an export
    lays it out is taken apart record by record without reading its JSON, and the worker
    processes read each record's text (cheaper than sending them the records read here); any
    other file, or one found not valid there, is read again from its start as JSON
    (``iter_records``): the same games, or the same errors, either way. ``submission``: as for
    ``import_records``."""
    source = io.BytesIO(text) if isinstance(text, bytes) else text
    if workers > 1 and not isinstance(source, str) and source.seekable() and isinstance(source.read(0), bytes):
        start = source.tell()
        try:
            return _import(
                table, iter_record_texts(cast(IO[bytes], source)), by, workers, texts=True, submission=submission
            )
        except NotExportLayout:
            source.seek(start)
    return import_records(table=table, records=iter_records(text), by=by, workers=workers, submission=submission)
