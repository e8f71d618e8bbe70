"""Every write the app makes. Each validates through the engine BEFORE it writes: an invalid
game or deal is never saved, and nothing already saved is lost."""

from __future__ import annotations

import copy
from typing import Any

from django.db import transaction
from django.db.models.functions import Lower

from scorekeeper import scoring
from scorekeeper.models import Deal, DealChange, Game, Player, Seat
from scorekeeper.rules.errors import RecordError, RecordInvalid
from scorekeeper.rules.record import FORMAT
from scorekeeper.rules.results import GameResult


def game_record(game: Game, deals: list[dict] | None = None) -> dict[str, Any]:
    """The game as the record of RECORD.md (the saved deals, or ``deals`` in their place)."""
    players = game.player_names()
    record: dict[str, Any] = {
        "format": FORMAT,
        "game": game.game,
        "rules": {"profile": game.profile, "options": dict(game.options or {})},
        "players": players,
        "deals": [d.data for d in game.deals.order_by("number")] if deals is None else deals,
    }
    if game.first_dealer is not None and 0 <= game.first_dealer < len(players):
        record["first_dealer"] = players[game.first_dealer]
    return record


def score_game(game: Game) -> GameResult:
    return scoring.cached_score(game_record(game))


def _player(name: str) -> Player:
    player = Player.objects.filter(name__iexact=name).order_by("id").first()
    if player is None:
        player = Player.objects.create(name=name)
    return player


@transaction.atomic
def create_game(
    *, game: str, profile: str, options: dict[str, Any] | None, players: list[str], first_dealer: int | None = None
) -> Game:
    """A new game; raises RecordInvalid when the rules or players are not valid."""
    names = [n.strip() for n in players]
    # Use the stored spelling of a known player ("ann" plays as "Ann").
    known = {
        p.name.casefold(): p.name
        for p in Player.objects.annotate(n=Lower("name")).filter(n__in=[n.casefold() for n in names])
    }
    names = [known.get(n.casefold(), n) for n in names]
    options = dict(options or {})
    record = {
        "format": FORMAT,
        "game": game,
        "rules": {"profile": profile, "options": options},
        "players": names,
        "deals": [],
    }
    if first_dealer is not None:
        if not 0 <= first_dealer < len(names):
            raise RecordInvalid(
                [RecordError("the first dealer must be one of the players", rule="players", field="first_dealer")]
            )
        record["first_dealer"] = names[first_dealer]
    rules = scoring.resolve(game, profile, options)
    scoring.score(record)  # checks players, counts and names
    row = Game.objects.create(
        game=game, profile=profile, options=rules.options(), target=rules.target, first_dealer=first_dealer
    )
    for position, name in enumerate(names):
        Seat.objects.create(game=row, player=_player(name), position=position)
    return row


def _locked(game: Game) -> Game:
    return Game.objects.select_for_update().get(pk=game.pk)


def _finish(game: Game, result: GameResult) -> None:
    game.state = result.state
    game.winner = result.winner or ""
    game.save(update_fields=["state", "winner", "updated"])


def check_deal(*, game: Game, data: dict, number: int | None = None) -> GameResult:
    """Score the game with ``data`` as deal ``number`` (a new last deal when None); nothing is saved."""
    deals = [d.data for d in game.deals.order_by("number")]
    if number is None:
        deals.append(data)
    else:
        deals[number - 1] = data
    return scoring.score(game_record(game, deals))


@transaction.atomic
def add_deal(*, game: Game, data: dict) -> Deal:
    game = _locked(game)
    current = score_game(game)
    if current.state == "finished":
        raise RecordInvalid(
            [
                RecordError(
                    f"the game is over: {current.winner} won. Edit or delete a deal to change it.", rule="game over"
                )
            ]
        )
    number = game.deals.count() + 1
    result = check_deal(game=game, data=data)
    deal = Deal.objects.create(game=game, number=number, data=data)
    DealChange.objects.create(game=game, deal=deal, number=number, action=DealChange.CREATED, new=data)
    _finish(game, result)
    return deal


@transaction.atomic
def edit_deal(*, game: Game, number: int, data: dict) -> Deal:
    game = _locked(game)
    deal = game.deals.get(number=number)
    result = check_deal(game=game, data=data, number=number)
    old = copy.deepcopy(deal.data)
    deal.data = data
    deal.save(update_fields=["data", "updated"])
    DealChange.objects.create(game=game, deal=deal, number=number, action=DealChange.EDITED, old=old, new=data)
    _finish(game, result)
    return deal


@transaction.atomic
def delete_deal(*, game: Game, number: int) -> None:
    """Delete deal ``number``; later deals move up one and every total after is recomputed."""
    game = _locked(game)
    deals = list(game.deals.order_by("number"))
    target = next((d for d in deals if d.number == number), None)
    if target is None:
        raise Deal.DoesNotExist(f"no deal {number}")
    remaining = [d.data for d in deals if d.number != number]
    result = scoring.score(game_record(game, remaining))
    DealChange.objects.create(game=game, deal=None, number=number, action=DealChange.DELETED, old=target.data)
    target.delete()
    for d in deals:
        if d.number > number:
            d.number -= 1
            d.save(update_fields=["number"])
    _finish(game, result)
