"""The players of a game: names in seat order, the first dealer, how many the rules take."""

from __future__ import annotations

from typing import Any

from . import profiles
from .errors import RecordError
from .profiles import Rules
from .words import plural

MAX_PLAYER_NAME = 40


def is_name_list(players: Any) -> bool:
    return isinstance(players, (list, tuple)) and all(isinstance(p, str) for p in players)


def player_errors(players: Any) -> list[RecordError]:
    """What is wrong with a list of player names in seat order (nothing: an empty list)."""
    if not is_name_list(players):
        return [RecordError("'players' must be a list of names in seat order", rule="players", field="players")]
    errors: list[RecordError] = []
    seen: set[str] = set()
    for name in players:
        if not name.strip():
            errors.append(RecordError("a player's name is empty", rule="players", field="players"))
        elif name != name.strip():
            errors.append(
                RecordError(
                    f"the name {name!r} begins or ends with a space", rule="players", player=name, field="players"
                )
            )
        elif len(name) > MAX_PLAYER_NAME:
            errors.append(
                RecordError(
                    f"the name {name[:20]!r}… is longer than {MAX_PLAYER_NAME} characters",
                    rule="players",
                    field="players",
                )
            )
        if name.casefold() in seen:
            errors.append(
                RecordError(
                    f"'{name}' is named twice: player names must be unique",
                    rule="players",
                    player=name,
                    field="players",
                )
            )
        seen.add(name.casefold())
    if len(players) < 2:
        errors.append(RecordError("a game needs 2 or more players", rule="players", field="players"))
    return errors


def first_dealer_errors(players: Any, first_dealer: Any) -> list[RecordError]:
    if first_dealer is not None and first_dealer not in players:
        return [
            RecordError(
                f"the first dealer {first_dealer!r} is not one of the players", rule="players", field="first_dealer"
            )
        ]
    return []


def player_count_errors(rules: Rules, players: Any) -> list[RecordError]:
    if rules.min_players <= len(players) <= rules.max_players:
        return []
    low, high = rules.min_players, rules.max_players
    take = plural(low, "player") if low == high else f"{low} to {high} players"
    return [
        RecordError(
            f"{plural(len(players), 'player')}: the {rules.profile} rules of {profiles.GAME_NAMES[rules.game]} "
            f"take {take}",
            rule="players",
            source=rules.cite("max_players").source,
            field="players",
        )
    ]
