"""The players of a game: names in seat order, the first dealer, how many the rules take."""

from __future__ import annotations

from typing import Any

from . import profiles
from .errors import RecordError
from .messages import N_, msg, nmsg
from .profiles import Rules

MAX_PLAYER_NAME = 40


def is_name_list(players: Any) -> bool:
    return isinstance(players, (list, tuple)) and all(isinstance(p, str) for p in players)


def player_errors(players: Any) -> list[RecordError]:
    """What is wrong with a list of player names in seat order (nothing: an empty list)."""
    if not is_name_list(players):
        return [
            RecordError(
                msg("'players' must be a list of names in seat order"),
                rule=N_("players"),
                source="RECORD.md",
                field="players",
            )
        ]
    errors: list[RecordError] = []
    seen: set[str] = set()
    for name in players:
        if not name.strip():
            errors.append(
                RecordError(msg("a player's name is empty"), rule=N_("players"), source="RECORD.md", field="players")
            )
        elif name != name.strip():
            errors.append(
                RecordError(
                    msg("the name {name} begins or ends with a space", name=repr(name)),
                    rule=N_("players"),
                    source="RECORD.md",
                    player=name,
                    field="players",
                )
            )
        elif len(name) > MAX_PLAYER_NAME:
            errors.append(
                RecordError(
                    msg(
                        "the name {name}… is longer than {limit} characters",
                        name=repr(name[:20]),
                        limit=MAX_PLAYER_NAME,
                    ),
                    rule=N_("players"),
                    source="RECORD.md",
                    field="players",
                )
            )
        if name.casefold() in seen:
            errors.append(
                RecordError(
                    msg("'{name}' is named twice: player names must be unique", name=name),
                    rule=N_("players"),
                    source="RECORD.md",
                    player=name,
                    field="players",
                )
            )
        seen.add(name.casefold())
    if len(players) < 2:
        errors.append(
            RecordError(msg("a game needs 2 or more players"), rule=N_("players"), source="RECORD.md", field="players")
        )
    return errors


def first_dealer_errors(players: Any, first_dealer: Any) -> list[RecordError]:
    if first_dealer is not None and first_dealer not in players:
        return [
            RecordError(
                msg("the first dealer {dealer} is not one of the players", dealer=repr(first_dealer)),
                rule=N_("players"),
                source="RECORD.md",
                field="first_dealer",
            )
        ]
    return []


def player_count_errors(rules: Rules, players: Any) -> list[RecordError]:
    if rules.min_players <= len(players) <= rules.max_players:
        return []
    low, high = rules.min_players, rules.max_players
    take = nmsg("{n} player", "{n} players", low) if low == high else msg("{low} to {high} players", low=low, high=high)
    return [
        RecordError(
            msg(
                "{count}: the {profile} rules of {game} take {take}",
                count=nmsg("{n} player", "{n} players", len(players)),
                profile=rules.profile,
                game=profiles.GAME_NAMES[rules.game],
                take=take,
            ),
            rule=N_("players"),
            source=rules.cite("max_players").source,
            field="players",
        )
    ]
