"""The one write of the phone alone: a game played on a phone alone, handed to the table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from scorekeeper.alone.models import HandedGame
from scorekeeper.history.imports import import_records
from scorekeeper.table.models import Device, Game, Role
from scorekeeper.table.phones.services import create_table


@dataclass(frozen=True)
class Handed:
    game: Game
    device: Device  # the scoring phone at the game's table (a new one when the phone had no table)
    created: bool  # False: the game was handed over before (this answer repeats that one)


class Refused(Exception):
    """The engine refused the record: nothing was written. ``errors``: each as ``RecordError.as_dict``."""

    def __init__(self, errors: list[dict[str, Any]]) -> None:
        super().__init__(errors)
        self.errors = errors


class HandedElsewhere(Exception):
    """The game was handed to a table this phone is not at."""


def hand_over(*, key: str, record: Any, devices: list[Device]) -> Handed:
    """Make the game ``record`` (RECORD.md, played on a phone alone) a game of this phone's table —
    the first table where it scores (``devices``: the phone's, newest first), or a new table with
    this phone as its scorer — once per ``key``: a key handed over before gives that game again.
    Raises Refused (nothing written) for a record the engine refuses, HandedElsewhere for a
    key already handed to a table this phone is not at."""
    try:
        return _hand_over(key=key, record=record, devices=devices)
    except IntegrityError:  # the same key handed over at the same moment: the other one won
        return _handed_before(key, devices)


@transaction.atomic
def _hand_over(*, key: str, record: Any, devices: list[Device]) -> Handed:
    if HandedGame.objects.filter(key=key).exists():
        return _handed_before(key, devices)
    scorers = [d for d in devices if d.role == Role.SCORE]
    device = scorers[0] if scorers else create_table(name="", device_name="")[1]
    report = import_records(table=device.table, records=[record], by=device)
    if report.errors:
        raise Refused(report.errors[0]["errors"])
    game = Game.objects.get(pk=report.game_ids[0])
    HandedGame.objects.create(key=key, game=game)
    return Handed(game=game, device=device, created=True)


def _handed_before(key: str, devices: list[Device]) -> Handed:
    handed = HandedGame.objects.select_related("game").get(key=key)
    mine = [d for d in devices if d.table_id == handed.game.table_id]
    if not mine:
        raise HandedElsewhere(key)
    return Handed(game=handed.game, device=mine[0], created=False)
