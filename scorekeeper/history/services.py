"""The writes of the history pages: rename or merge a player, import game records.
(Switching a game's rules is a write of the table: ``table.services.switch_rules``.)"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from django.db import connection, transaction
from django.db.models import F, JSONField
from django.utils import timezone

from scorekeeper.history.transfer import iter_records
from scorekeeper.rules.errors import RecordError, RecordInvalid
from scorekeeper.rules.players import MAX_PLAYER_NAME
from scorekeeper.table import engine
from scorekeeper.table.models import (
    Change,
    ChangeAction,
    Deal,
    Device,
    Game,
    GameState,
    Player,
    Seat,
    Table,
    clean_name,
    name_key,
)
from scorekeeper.table.rows import insert_rows
from scorekeeper.table.services import (
    DEAL_RESULTS,
    SEAT_FIGURES,
    Actor,
    ScoredRow,
    player_name_errors,
    result_fields,
    seat_figures,
)


def _check_name(name: str) -> str:
    name = clean_name(name or "")
    if not name:
        raise RecordInvalid([RecordError("a player's name is empty", rule="players")])
    if len(name) > MAX_PLAYER_NAME:
        raise RecordInvalid([RecordError(f"a name has at most {MAX_PLAYER_NAME} characters", rule="players")])
    return name


@transaction.atomic
def rename_player(*, player: Player, name: str) -> Player:
    """Rename a player everywhere: one row, whatever the history (deals hold seats, not names)."""
    name = _check_name(name)
    player = Player.objects.select_for_update().get(pk=player.pk)
    clash = Player.objects.filter(table_id=player.table_id, key=name_key(name)).exclude(pk=player.pk).first()
    if clash is not None:
        raise RecordInvalid([RecordError(f"'{clash.name}' is another player: merge the two instead", rule="players")])
    if player.name != name:
        player.name = name
        player.save(update_fields=["name", "key"])
        Game.objects.filter(seats__player=player).update(version=F("version") + 1)
    return player


@transaction.atomic
def merge_players(*, source: Player, into: Player) -> Player:
    """Merge ``source`` into ``into``: every game of ``source`` becomes ``into``'s. Refused when
    both sat at the same game (a game's players are distinct people) or are at different tables."""
    if source.pk == into.pk:
        raise RecordInvalid([RecordError("a player cannot be merged into himself", rule="players")])
    source = Player.objects.select_for_update().get(pk=source.pk)
    into = Player.objects.select_for_update().get(pk=into.pk)
    if source.table_id != into.table_id:
        raise RecordInvalid([RecordError("these players are at different tables", rule="players")])
    shared = Game.objects.filter(seats__player=source).filter(seats__player=into).values_list("pk", flat=True)
    if shared:
        ids = ", ".join(f"#{pk}" for pk in sorted(shared)[:10])
        raise RecordInvalid(
            [
                RecordError(
                    f"{source.name} and {into.name} played together in game {ids}: they are two people", rule="players"
                )
            ]
        )
    Game.objects.filter(seats__player=source).update(version=F("version") + 1)
    Seat.objects.filter(player=source).update(player=into)
    source.delete()
    return into


@dataclass
class ImportReport:
    games: list[Game] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)  # {"record": i, "errors": [RecordError dicts]}

    @property
    def ok(self) -> bool:
        return not self.errors


# Games written at a time by an import: enough for few statements, few enough for little memory.
IMPORT_BATCH = 100


def import_records(*, table: Table, records: Iterable[Any], by: Actor = "import") -> ImportReport:
    """Import game records (any iterable: a reader of a file yields them one at a time): each is
    scored by the engine, deal by deal, and written with its results, its seats' figures and its
    change history, a batch of games at a time, in one transaction. When any record is invalid (or
    the file breaks off) nothing at all is saved and the report lists every error of every record.
    Memory holds a batch of games, whatever the number of records."""
    report = ImportReport()
    with transaction.atomic():
        batch = _Batch(table, by)
        try:
            for i, rec in enumerate(records, start=1):
                try:
                    played = _play(rec)
                except RecordInvalid as exc:
                    report.errors.append({"record": i, "errors": [e.as_dict() for e in exc.errors]})
                    batch.drop()  # nothing will be saved: only check the records left
                    continue
                names = player_name_errors(played.names)  # as the app keeps names: cleaned, any case
                if names:
                    report.errors.append({"record": i, "errors": [e.as_dict() for e in names]})
                    batch.drop()
                    continue
                if not report.errors:
                    batch.add(played)
                    if len(batch) >= IMPORT_BATCH:
                        report.games += batch.write()
        except RecordInvalid as exc:  # the file itself: not JSON from some point on
            report.errors.append({"record": None, "errors": [e.as_dict() for e in exc.errors]})
        if report.errors:
            report.games = []
            transaction.set_rollback(True)
        else:
            report.games += batch.write()
    return report


def _play(rec: Any) -> engine.PlayedRecord:
    """A record scored deal by deal (what the import stores); when it is not valid, every error
    of every deal (the engine's whole-record check)."""
    try:
        return engine.play_record(rec)
    except RecordInvalid:
        engine.score(rec)  # raises with every error of the record
        raise


class _Batch:
    """Scored records waiting to be written together: a batch of games, their seats, deals and
    changes in one statement each (games through the ORM, for their ids; the many rows of seats,
    deals and changes as plain parameter rows: an import writes tens of thousands of them)."""

    def __init__(self, table: Table, by: Actor) -> None:
        self.table = table
        self.device_id = by.pk if isinstance(by, Device) else None
        self.by_name = by.name if isinstance(by, Device) else by or ""
        self.players = {p.key: p for p in Player.objects.filter(table=table)}
        self.games: list[Game] = []
        self.seats: list[list[tuple[Any, ...]]] = []  # by game: the columns after game_id
        self.deals: list[list[tuple[Any, ...]]] = []  # by game: the columns after game_id

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

    def add(self, rec: engine.PlayedRecord) -> None:
        result = rec.played.result
        self.games.append(
            Game(
                table=self.table,
                kind=rec.rules.game,
                profile=rec.rules.profile,
                options=rec.rules.options(),
                first_dealer=rec.first_dealer,
                version=1,
                state=GameState.FINISHED if result.state == "finished" else GameState.IN_PROGRESS,
                winner=rec.names.index(result.winner) if result.winner in rec.names else None,
                scored_with=engine.RESULTS_VERSION,
            )
        )
        json = connection.ops.adapt_json_value
        deals, scored = [], []
        is_json = [name in _JSON_RESULTS for name in DEAL_RESULTS]
        for number, (cards, dr, standing) in enumerate(
            zip(rec.cards, rec.played.deals, rec.played.standings, strict=True), start=1
        ):
            fields = result_fields(dr, standing, rec.names)
            scored.append(ScoredRow.of(number, fields))
            values = [fields[name] for name in DEAL_RESULTS]
            deals.append(
                (number, json(cards, None), *[json(v, None) if j else v for v, j in zip(values, is_json, strict=True)])
            )
        self.deals.append(deals)
        self.seats.append(
            [
                (
                    self._player(clean_name(name)).pk,
                    i,
                    *_in_order(seat_figures(i, result, scored, rec.rules.penalty), SEAT_FIGURES),
                )
                for i, name in enumerate(rec.names)
            ]
        )

    def write(self) -> list[Game]:
        """Write the waiting games; return them."""
        if not self.games:
            return []
        now = timezone.now()
        for game in self.games:
            game.created = game.updated = now
        games = Game.objects.bulk_create(self.games)
        at = connection.ops.adapt_datetimefield_value(now)
        insert_rows(
            Seat,
            ("game", "player", "position", *SEAT_FIGURES),
            [(g.pk, *row) for g, rows in zip(games, self.seats, strict=True) for row in rows],
        )
        insert_rows(
            Deal,
            ("game", "number", "cards", *DEAL_RESULTS, "version", "created", "updated"),
            [(g.pk, *row, 1, at, at) for g, rows in zip(games, self.deals, strict=True) for row in rows],
        )
        ids = {
            (gid, number): pk
            for pk, gid, number in Deal.objects.filter(game__in=games).values_list("pk", "game_id", "number")
        }
        insert_rows(
            Change,
            ("game", "deal_id", "number", "action", "after", "at", "by", "by_name"),
            [
                (g.pk, ids[g.pk, row[0]], row[0], ChangeAction.DEAL_ADDED, row[1], at, self.device_id, self.by_name)
                for g, rows in zip(games, self.deals, strict=True)
                for row in rows
            ],
        )
        self.drop()
        return games


_JSON_RESULTS = frozenset(name for name in DEAL_RESULTS if isinstance(Deal._meta.get_field(name), JSONField))


def _in_order(values: dict[str, Any], names: Sequence[str]) -> tuple[Any, ...]:
    return tuple(values[name] for name in names)


def import_text(*, table: Table, text: str | bytes | IO[bytes] | IO[str], by: Actor = "import") -> ImportReport:
    """Import the records of a file (its text, or the file open for reading: read a chunk at a
    time, one record in memory at a time)."""
    return import_records(table=table, records=iter_records(text), by=by)
