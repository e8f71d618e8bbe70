"""The writes of the history pages: rename or merge a player (importing records: ``imports``;
switching a game's rules is a deal write: ``table.scoring.deals.switch_rules``)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F

from scorekeeper.rules.errors import RecordError, RecordInvalid
from scorekeeper.rules.messages import msg
from scorekeeper.rules.players import MAX_PLAYER_NAME
from scorekeeper.table.live import signals
from scorekeeper.table.models import Game, Player, Seat, Table, clean_name, name_key
from scorekeeper.table.scoring.figures import merged


def _check_name(name: str) -> str:
    name = clean_name(name or "")
    if not name:
        raise RecordInvalid([RecordError(msg("a player's name is empty"), rule="players")])
    if len(name) > MAX_PLAYER_NAME:
        raise RecordInvalid([RecordError(msg("a name has at most {n} characters", n=MAX_PLAYER_NAME), rule="players")])
    return name


@transaction.atomic
def rename_player(*, player: Player, name: str) -> Player:
    """Rename a player everywhere: one row, whatever the history (deals hold seats, not names).
    The table's ``names`` is bumped: it is in the key of its games' cached results and fragments
    (``engine.game_result``, ``present.version_key``) and in their pages' validators
    (``live.answers.etag``), so every game of the table, a finished one too, shows the new name to a phone
    holding its page, and the phones watching one live are told (``live.signals.names_changed``). No
    game's version changes: a rename costs the same after 200 games as after 5,000 (issue 23)."""
    name = _check_name(name)
    player = Player.objects.select_for_update().get(pk=player.pk)
    clash = Player.objects.filter(table_id=player.table_id, key=name_key(name)).exclude(pk=player.pk).first()
    if clash is not None:
        raise RecordInvalid(
            [RecordError(msg("'{name}' is another player: merge the two instead", name=clash.name), rule="players")]
        )
    if player.name != name:
        player.name = name
        player.save(update_fields=["name", "key"])
        Table.objects.filter(pk=player.table_id).update(names=F("names") + 1)
        signals.names_changed(player.table_id)
    return player


@transaction.atomic
def merge_players(*, source: Player, into: Player) -> Player:
    """Merge ``source`` into ``into``: every game of ``source`` becomes ``into``'s. Refused when
    both sat at the same game (a game's players are distinct people) or are at different tables."""
    if source.pk == into.pk:
        raise RecordInvalid([RecordError(msg("a player cannot be merged into himself"), rule="players")])
    source = Player.objects.select_for_update().get(pk=source.pk)
    into = Player.objects.select_for_update().get(pk=into.pk)
    if source.table_id != into.table_id:
        raise RecordInvalid([RecordError(msg("these players are at different tables"), rule="players")])
    shared = Game.objects.filter(seats__player=source).filter(seats__player=into).values_list("pk", flat=True)
    if shared:
        ids = ", ".join(f"#{pk}" for pk in sorted(shared)[:10])
        raise RecordInvalid(
            [
                RecordError(
                    msg(
                        "{first} and {second} played together in game {ids}: they are two people",
                        first=source.name,
                        second=into.name,
                        ids=ids,
                    ),
                    rule="players",
                )
            ]
        )
    games = list(Game.objects.filter(seats__player=source).values_list("pk", flat=True))
    Game.objects.filter(pk__in=games).update(version=F("version") + 1)
    signals.games_changed(games)
    merged(source=source.pk, into=into.pk).write()  # source's figures become into's
    Seat.objects.filter(player=source).update(player=into)
    source.delete()  # with his figures
    return into
