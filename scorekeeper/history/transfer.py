"""Games out of the app and into it: game records (RECORD.md, JSON) and CSV.

The JSON game record is the record: RECORD.md's notation, never translated, whatever the phone's
language (it goes back in by import). The CSV is a presentation for a spreadsheet, in the language
of the phone that asked: its header row (``csv_header``) and the game, rule set, house options,
outcome and state by their names ("Oklahoma Gin", "Buchregeln", "Ausmachbonus 150", "hat
ausgemacht", "läuft"); the record's codes of each are kept in columns of their own (``game_code``
...), and the numbers are plain (no grouping, an ASCII minus a spreadsheet reads), so sheets made on a
German and an English phone sort and filter alike."""

from __future__ import annotations

import codecs
import csv
import io
import json
import re
from collections.abc import Iterable, Iterator
from typing import IO, Any

from django.db.models import Prefetch, QuerySet
from django.utils import translation
from django.utils.translation import pgettext_lazy

from scorekeeper.rules.errors import RecordError, RecordInvalid
from scorekeeper.rules.messages import Msg, msg
from scorekeeper.rules.record import HUGE_NUMBER, check_text
from scorekeeper.table.models import Deal, Game, Seat
from scorekeeper.table.scoring import engine
from scorekeeper.table.text import options_text, outcome_text, profile_title

# Games read at a time by an export: memory holds one chunk of games, whatever the history.
EXPORT_CHUNK = 200


def _ordered_ids(games: Iterable[Game]) -> list[int]:
    """The games' ids, oldest first."""
    if isinstance(games, QuerySet):
        wanted = Game.objects.filter(pk__in=games.order_by().values("pk"))
    else:
        wanted = Game.objects.filter(pk__in=[g.pk for g in games])
    return list(wanted.order_by("created", "id").values_list("pk", flat=True))


def _chunks(games: Iterable[Game]) -> Iterator[list[Game]]:
    """The games oldest first, a chunk at a time, with their seats and players (two queries a chunk)."""
    ids = _ordered_ids(games)
    seats = Prefetch("seats", Seat.objects.select_related("player").order_by("position"))
    for start in range(0, len(ids), EXPORT_CHUNK):
        chunk = ids[start : start + EXPORT_CHUNK]
        yield list(Game.objects.filter(pk__in=chunk).order_by("created", "id").prefetch_related(seats))


def iter_export_records(games: Iterable[Game]) -> Iterator[dict[str, Any]]:
    """Games as records, oldest first, a chunk of games at a time (three queries a chunk)."""
    for chunk in _chunks(games):
        cards: dict[int, list[Any]] = {g.pk: [] for g in chunk}
        for gid, data in (
            Deal.objects.filter(game_id__in=list(cards)).order_by("game_id", "number").values_list("game_id", "cards")
        ):
            cards[gid].append(data)
        for g in chunk:
            yield engine.game_record(g, cards.pop(g.pk))


def export_records(games: Iterable[Game]) -> list[dict[str, Any]]:
    """Games as records, oldest first."""
    return list(iter_export_records(games))


def record_text(record: Any) -> str:
    """One record as the exports write it."""
    return json.dumps(record, ensure_ascii=False, indent=1)


def iter_export_json(games: Iterable[Game]) -> Iterator[str]:
    """The text of a file of game records (a list, oldest first), a record at a time: the very
    text of ``json.dumps(export_records(games), ensure_ascii=False, indent=1)`` and a newline,
    without holding more than a chunk of games."""
    first = True
    for record in iter_export_records(games):
        # A record one level down the list: every line indented one more space (a JSON string
        # holds no raw newline, so every newline is between tokens).
        yield ("[\n " if first else ",\n ") + record_text(record).replace("\n", "\n ")
        first = False
    yield "[]\n" if first else "\n]\n"


# The CSV's columns, each with its header in the phone's language (English: the names as they are):
# names first, the record's codes of the named values last.
CSV_COLUMNS = (
    ("game_id", pgettext_lazy("CSV column", "game_id")),
    ("game", pgettext_lazy("CSV column", "game")),
    ("profile", pgettext_lazy("CSV column", "profile")),
    ("options", pgettext_lazy("CSV column", "options")),
    ("deal", pgettext_lazy("CSV column", "deal")),
    ("outcome", pgettext_lazy("CSV column", "outcome")),
    ("player", pgettext_lazy("CSV column", "player")),
    ("seat", pgettext_lazy("CSV column", "seat")),
    ("points", pgettext_lazy("CSV column", "points")),
    ("total", pgettext_lazy("CSV column", "total")),
    ("state", pgettext_lazy("CSV column", "state")),
    ("winner", pgettext_lazy("CSV column", "winner")),
    ("game_code", pgettext_lazy("CSV column", "game_code")),
    ("profile_code", pgettext_lazy("CSV column", "profile_code")),
    ("options_code", pgettext_lazy("CSV column", "options_code")),
    ("outcome_code", pgettext_lazy("CSV column", "outcome_code")),
    ("state_code", pgettext_lazy("CSV column", "state_code")),
)


def csv_header() -> list[str]:
    """The CSV's header row in the language in force (the request's)."""
    return [str(header) for _, header in CSV_COLUMNS]


def iter_export_csv(games: Iterable[Game]) -> Iterator[str]:
    """One row per player per deal, with the deal's points and the running total after it; the
    text a chunk of games at a time. Its words are in the language in force when this is called
    (a streamed response reads the rest later, each chunk in that language)."""
    return _csv_chunks(games, csv_header(), translation.get_language())


def _csv_chunks(games: Iterable[Game], header: list[str], language: str | None) -> Iterator[str]:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for chunk in _chunks(games):
        deals = _deal_figures(chunk)
        with translation.override(language):
            for g in chunk:
                w.writerows(_csv_rows(g, deals[g.pk]))
        yield buf.getvalue()
        buf.seek(0)
        buf.truncate()
    if buf.tell():
        yield buf.getvalue()


def _deal_figures(chunk: list[Game]) -> dict[int, list[tuple[int, str, list[int], list[int]]]]:
    """Each game's deals in order: number, outcome, points and totals in seat order (one query)."""
    deals: dict[int, list[tuple[int, str, list[int], list[int]]]] = {g.pk: [] for g in chunk}
    for gid, number, outcome, points, totals in (
        Deal.objects.filter(game_id__in=list(deals))
        .order_by("game_id", "number")
        .values_list("game_id", "number", "outcome", "points", "totals")
    ):
        deals[gid].append((number, outcome, points, totals))
    return deals


def _csv_rows(g: Game, deals: list[tuple[int, str, list[int], list[int]]]) -> Iterator[list[Any]]:
    """A game's rows, in ``CSV_COLUMNS`` order: one per player per deal (a figure a deal lacks is 0)."""
    names = g.player_names()
    opts = json.dumps(g.options, sort_keys=True) if g.options else ""
    winner = _csv_safe(g.winner_name())
    named = [g.get_kind_display(), profile_title(g.kind, g.profile), options_text(g.kind, g.options or {})]
    state = g.get_state_display()
    for number, outcome, points, totals in deals:
        said = str(outcome_text(outcome)) if outcome else ""
        for seat, name in enumerate(names):
            yield [
                g.pk,
                *named,
                number,
                said,
                _csv_safe(name),
                seat + 1,
                points[seat] if seat < len(points) else 0,
                totals[seat] if seat < len(totals) else 0,
                state,
                winner,
                g.kind,
                g.profile,
                opts,
                outcome,
                g.state,
            ]


def export_csv(games: Iterable[Game]) -> str:
    """One row per player per deal, with the deal's points and the running total after it."""
    return "".join(iter_export_csv(games))


def _csv_safe(text: str) -> str:
    """Keep a spreadsheet from reading a name as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


CHUNK = 1 << 20  # characters read at a time from a file of records
_WHITESPACE = " \t\n\r"
_DELIMITERS = _WHITESPACE + ",]}"
_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")  # the escape of a surrogate, which may stand alone


def iter_records(source: str | bytes | IO[bytes] | IO[str], chunk: int | None = None) -> Iterator[Any]:
    """The records of a file holding one record (an object) or many (a list of objects), one at a
    time, reading the file ``chunk`` characters at a time: memory holds one record, whatever the
    file's size. UTF-8 (a byte-order mark is skipped). Raises RecordInvalid, as ``parse_json``
    does, for text that is not JSON (with the line and column in the whole file), and for an
    empty list — after yielding the records before the fault."""
    return _Reader(source, chunk or CHUNK).records()


class _Reader:
    def __init__(self, source: str | bytes | IO[bytes] | IO[str], chunk: int) -> None:
        if isinstance(source, bytes):
            source = io.BytesIO(source)
        elif isinstance(source, str):
            source = io.StringIO(source)
        self.source = source
        self.chunk = chunk
        self.decoder = codecs.getincrementaldecoder("utf-8-sig")()
        self.json = json.JSONDecoder()
        self.buf = ""
        self.pos = 0
        self.eof = False
        self.lines_before = 0  # lines in the text dropped from the buffer
        self.column_before = 0  # characters on the last of them

    def _more(self) -> bool:
        """Read another chunk into the buffer (dropping what was read); False at the end of the file."""
        if self.eof:
            return False
        data = self.source.read(self.chunk)
        try:
            text = data if isinstance(data, str) else self.decoder.decode(data, final=not data)
        except UnicodeDecodeError:
            raise _error(msg("not valid JSON: the file is not UTF-8 text")) from None
        if not data:
            self.eof = True
        if self.pos:
            done = self.buf[: self.pos]
            newlines = done.count("\n")
            if newlines:
                self.lines_before += newlines
                self.column_before = len(done) - done.rfind("\n") - 1
            else:
                self.column_before += len(done)
            self.buf, self.pos = self.buf[self.pos :], 0
        self.buf += text
        return bool(text) or not self.eof

    def _skip(self) -> str:
        """Skip whitespace; the next character ('' at the end of the file)."""
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in _WHITESPACE:
                self.pos += 1
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self._more():
                return ""

    def _fail(self, message: str, at: int) -> RecordInvalid:
        line = self.buf.count("\n", 0, at)
        column = at - self.buf.rfind("\n", 0, at)
        if not line:
            column += self.column_before
        return _error(
            msg(
                "not valid JSON: {problem} at line {line}, column {column}",
                problem=message,
                line=self.lines_before + line + 1,
                column=column,
            )
        )

    def _value(self) -> Any:
        """The JSON value at the position (reading on while the buffer may hold only part of it)."""
        while True:
            try:
                value, end = self.json.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as exc:
                offset = exc.pos - self.pos  # reading on moves the buffer
                if self._more():
                    continue
                raise self._fail(exc.msg, self.pos + offset) from None
            except RecursionError:
                raise _error(msg("not a game record: the JSON is nested too deeply")) from None
            except ValueError:  # Python reads integers of at most 4,300 digits (more text only adds digits)
                raise _error(HUGE_NUMBER) from None
            if _ESCAPE.search(self.buf, self.pos, end):
                check_text(value)  # a lone surrogate escape: half a character
            length = end - self.pos  # reading on moves the buffer
            if (end == len(self.buf) or self.buf[end] not in _DELIMITERS) and self._more():
                continue  # a number or a word may go on in the next chunk
            self.pos += length
            return value

    def records(self) -> Iterator[Any]:
        first = self._skip()
        if first == "":
            raise self._fail("Expecting value", self.pos)
        if first != "[":
            value = self._value()
            self._end()
            yield value
            return
        self.pos += 1
        if self._skip() == "]":
            self.pos += 1
            self._end()
            raise _error(msg("the file holds an empty list: no game to import"))
        yield from self._items()
        self._end()

    def _items(self) -> Iterator[Any]:
        """The values of a list (its "[" read, a value following), up to its "]" (read)."""
        while True:
            following = self._skip()
            if following in ("", "]"):
                raise self._fail(
                    "Illegal trailing comma before end of array" if following else "Expecting value", self.pos
                )
            yield self._value()
            after = self._skip()
            self.pos += 1
            if after == "]":
                return
            if after != ",":
                raise self._fail("Expecting ',' delimiter", self.pos - 1)

    def _end(self) -> None:
        """Nothing but whitespace may follow the file's value."""
        if self._skip() != "":
            raise self._fail("Extra data", self.pos)


class NotExportLayout(Exception):
    """The file is not laid out as an export writes it (or not valid there): ``iter_record_texts``
    cannot take its records apart; ``iter_records`` reads it, and says what is wrong."""


_EXPORT_START = re.compile(rb"[ \t\r\n]*\[\r?\n \{")  # an export's list: its first record on a line of its own
_RECORD_END = b"\n },"  # and each record's end, another following
RECORD_TEXT_MAX = 1 << 24  # bytes of a record's text at most (a game of thousands of deals)
_BOM = codecs.BOM_UTF8
_WHITESPACE_BYTES = _WHITESPACE.encode()
_ESCAPE_BYTES = re.compile(rb"\\u[dD][89a-fA-F]")


def iter_record_texts(source: IO[bytes], chunk: int | None = None) -> Iterator[bytes]:
    """The text of each record of a list laid out as an export lays it out (``iter_export_json``:
    each record's closing brace alone on a line at one space, before the next record's comma),
    without reading the JSON: a worker process reads it (``record_of_text``). Raises
    NotExportLayout where the file does not start or end so; a record text that
    ``record_of_text`` finds is not one record says the same. Where every text is a JSON value,
    the file is the list of these records, as ``iter_records`` reads it: JSON text holds no line
    break inside a string, so each break before a record's end lies between the list's values."""
    size = chunk or CHUNK
    buf = source.read(size).removeprefix(_BOM)
    if not _EXPORT_START.match(buf):
        raise NotExportLayout
    start, eof = buf.index(b"[") + 1, False
    while not eof:
        data = source.read(size)
        eof = not data
        buf = buf[start:] + data
        start = 0
        while (end := buf.find(_RECORD_END, start)) >= 0:
            yield buf[start : end + 3]
            start = end + 4
        if len(buf) - start > RECORD_TEXT_MAX:
            raise NotExportLayout  # no record's end in sight: read as JSON, a record at a time
    last = buf[start:].rstrip(_WHITESPACE_BYTES)
    if last[-1:] != b"]" or not last[:-1].strip(_WHITESPACE_BYTES):
        raise NotExportLayout  # not a list's end, or an empty value: iter_records says which
    yield last[:-1]


def record_of_text(text: bytes) -> Any:
    """The record of one of ``iter_record_texts``; NotExportLayout when the text is not UTF-8 and
    one JSON value, or holds what ``iter_records`` checks further (half a character, a huge number)."""
    if _ESCAPE_BYTES.search(text):
        raise NotExportLayout
    try:
        return json.loads(text.decode())
    except (ValueError, RecursionError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise NotExportLayout from None


def _error(message: Msg) -> RecordInvalid:
    return RecordInvalid([RecordError(message, rule="format", source="RECORD.md")])
