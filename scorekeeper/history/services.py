"""The writes of the history pages: rename or merge a player, import game records.
(Switching a game's rules is a write of the table: ``table.services.switch_rules``.)"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import F

from scorekeeper.history.transfer import read_records
from scorekeeper.rules.errors import RecordError, RecordInvalid
from scorekeeper.rules.players import MAX_PLAYER_NAME
from scorekeeper.rules.record import check_header
from scorekeeper.table import engine
from scorekeeper.table.models import Game, Player, Seat, Table, clean_name, name_key
from scorekeeper.table.services import Actor, import_game


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


def import_records(*, table: Table, records: Sequence[Any], by: Actor = "import") -> ImportReport:
    """Import game records: each is re-scored by the engine first. When any record is invalid
    nothing at all is saved and the report lists every error of every record."""
    report = ImportReport()
    checked = []
    for i, rec in enumerate(records, start=1):
        try:
            checked.append((rec, _play(rec)))
        except RecordInvalid as exc:
            report.errors.append({"record": i, "errors": [e.as_dict() for e in exc.errors]})
    if report.errors:
        return report
    with transaction.atomic():
        for rec, played in checked:
            report.games.append(import_game(table=table, rec=rec, played=played, by=by))
    return report


def _play(rec: Any) -> engine.Played:
    """A record scored deal by deal (what the import stores); when it is not valid, every error
    of every deal (the engine's whole-record check)."""
    try:
        rules, players, deals, first = check_header(rec)
        names = list(players)
        return engine.play_from(
            kind=rules.game,
            profile=rules.profile,
            options=rules.options(),
            names=names,
            first_dealer=names.index(first) if first in names else None,
            cards=[engine.seat_deal(d, names) if isinstance(d, dict) else d for d in deals],
        )
    except RecordInvalid:
        engine.score(rec)  # raises with every error of the record
        raise


def import_text(*, table: Table, text: str | bytes, by: Actor = "import") -> ImportReport:
    try:
        records = read_records(text)
    except RecordInvalid as exc:
        return ImportReport(errors=[{"record": None, "errors": [e.as_dict() for e in exc.errors]}])
    return import_records(table=table, records=records, by=by)
