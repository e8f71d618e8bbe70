"""The writes of games: start one (a phone of no table starts the table with it), delete one (the
admin's). Each validates through the engine before it writes and is written once per form
(``submissions``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.urls import reverse

from scorekeeper.rules.errors import RecordError, RecordInvalid
from scorekeeper.rules.messages import msg
from scorekeeper.table import submissions
from scorekeeper.table.models import Device, Game, Player, Seat, Table, clean_name, name_key
from scorekeeper.table.phones.services import create_table
from scorekeeper.table.scoring import engine
from scorekeeper.table.scoring.figures import Tally, seat_values
from scorekeeper.table.scoring.store import Actor


def player_name_errors(names: Sequence[Any]) -> list[RecordError]:
    """What is wrong with a game's player names as the app stores them (cleaned of control characters,
    compared by ``name_key``: case and width do not count) beyond what the engine checks: a name
    that is empty once cleaned, two names that are one player."""
    errors: list[RecordError] = []
    seen: dict[str, str] = {}
    for name in names:
        if not isinstance(name, str):
            continue  # the engine says so
        cleaned = clean_name(name)
        if not cleaned:
            errors.append(RecordError(msg("a player's name is empty"), rule="players", field="players"))
            continue
        key = name_key(cleaned)
        if key in seen:
            twice = (
                msg("'{name}' is named twice: player names must be unique", name=cleaned)
                if seen[key] == cleaned
                else msg(
                    "'{name}' is named twice ('{other}' is the same name): player names must be unique",
                    name=cleaned,
                    other=seen[key],
                )
            )
            errors.append(RecordError(twice, rule="players", field="players"))
        seen.setdefault(key, cleaned)
    return errors


def _players(table: Table, names: Sequence[str]) -> list[Player]:
    """The table's players by these names, created when new; a known player keeps his spelling."""
    keys = [name_key(n) for n in names]
    known = {p.key: p for p in Player.objects.filter(table=table, key__in=keys)}
    out = []
    for name, key in zip(names, keys, strict=True):
        player = known.get(key)
        if player is None:
            player = known[key] = Player.objects.create(table=table, name=name)
        out.append(player)
    return out


@transaction.atomic
def create_game(
    *,
    table: Table,
    kind: str,
    profile: str,
    options: Mapping[str, Any] | None,
    players: Sequence[str],
    first_dealer: int | None = None,
    by: Actor = None,
    submission: str | None = None,
    browser: str = "",
) -> Game:
    """A new game at ``table``; raises RecordInvalid when the rules or players are not valid.
    ``submission`` is the form's token, ``browser`` the secret of the browser that sent it."""
    submissions.check(submission)
    errors = player_name_errors(players)
    if errors:
        raise RecordInvalid(errors)
    names = [clean_name(n) for n in players]
    known = {p.key: p.name for p in Player.objects.filter(table=table, key__in=[name_key(n) for n in names])}
    names = [known.get(name_key(n), n) for n in names]
    if first_dealer is not None and not 0 <= first_dealer < len(names):
        raise RecordInvalid(
            [RecordError(msg("the first dealer must be one of the players"), rule="players", field="first_dealer")]
        )
    rules = engine.resolve(kind, profile, options)
    engine.score(engine.record(kind=kind, profile=profile, options=options, names=names, first_dealer=first_dealer))
    game = Game.objects.create(
        table=table,
        kind=kind,
        profile=profile,
        options=rules.options(),
        first_dealer=first_dealer,
        scored_with=engine.RESULTS_VERSION,  # no deal yet: nothing to score, its pages read what is stored
    )
    seats = Seat.objects.bulk_create(
        [Seat(game=game, player=p, position=i, kind=kind) for i, p in enumerate(_players(table, names))]
    )
    tally = Tally()
    tally.add(kind, False, [seat_values(s) for s in seats])
    tally.write()
    submissions.remember(submission, reverse("table:game", args=[game.pk]), browser=browser)
    return game


@transaction.atomic
def delete_game(*, game: Game) -> None:
    """Delete a game with its seats, deals and history (the admin's: the app keeps every game),
    and what it added to its players' figures."""
    game = Game.objects.locked(game.pk)
    tally = Tally()
    tally.remove(game.kind, game.finished, [seat_values(s) for s in game.seated()])
    tally.write()
    game.delete()


@transaction.atomic
def start_game(
    *,
    device: Device | None,
    kind: str,
    profile: str,
    options: Mapping[str, Any] | None,
    players: Sequence[str],
    first_dealer: int | None = None,
    submission: str | None = None,
    browser: str = "",
) -> tuple[Game, Device]:
    """A new game started by a scoring phone, at its table; a phone of no table yet (``None``)
    starts a table with the game, and is its first scorer. One transaction: a game refused
    (RecordInvalid) or submitted before (Duplicate) leaves no table behind. Returns the game and
    the phone that started it."""
    if device is None:
        _, device = create_table(name="", device_name="")  # the defaults, in the phone's language
    game = create_game(
        table=device.table,
        kind=kind,
        profile=profile,
        options=options,
        players=players,
        first_dealer=first_dealer,
        by=device,
        submission=submission,
        browser=browser,
    )
    return game, device
