"""The app's adapter to the rules engine (``scorekeeper.rules``).

The app never scores anything itself. This module builds a game's record (RECORD.md) from what is
stored — THE one builder of a game's record — converts deals between the record's form (player
names) and the stored "seat form" (seat numbers), and hands them to the engine. An unexpected
failure inside the engine is logged and reported as a record error, so a page shows a clear
message instead of a server error and nothing is saved.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from scorekeeper.rules import games, gin, oklahoma, profiles
from scorekeeper.rules.cards import Card
from scorekeeper.rules.errors import RecordError, RecordInvalid
from scorekeeper.rules.profiles import OklahomaRules, Rules
from scorekeeper.rules.record import FORMAT, check_header
from scorekeeper.rules.results import DealResult, GameResult, Standing
from scorekeeper.table.models import Game

log = logging.getLogger(__name__)

PLAYER_KEYS = ("out", "knocker")  # the deal keys that name a player
# The version of the engine's results the stored results come from. Change it with any change to
# how the engine scores: after `migrate`, every game scored with another version is scored again.
RESULTS_VERSION = "2026.11.1"


# ------------------------------------------------------------------------------------ deals


def seat_deal(deal: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """A RECORD.md deal (player names) in seat form: names become seat numbers, ``hands`` a list
    in seat order. Keys naming someone who is not a player are kept as they are, so the engine
    still reports them."""
    seat = {name: i for i, name in enumerate(names)}
    out: dict[str, Any] = {}
    for key, value in deal.items():
        if key in PLAYER_KEYS and isinstance(value, str) and value in seat:
            out[key] = seat[value]
        elif key == "hands" and isinstance(value, Mapping) and set(value) <= set(names):
            out[key] = [value.get(name) for name in names]
        else:
            out[key] = value
    return out


def record_deal(cards: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """A stored deal (seat form) as the RECORD.md deal with the players' current names."""
    out: dict[str, Any] = {}
    for key, value in cards.items():
        if key in PLAYER_KEYS and isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
            out[key] = names[value]
        elif key == "hands" and isinstance(value, list):
            out[key] = {names[i]: hand for i, hand in enumerate(value) if i < len(names) and hand is not None}
        else:
            out[key] = value
    return out


# ----------------------------------------------------------------------------------- records


def record(
    *,
    kind: str,
    profile: str,
    options: Mapping[str, Any] | None,
    names: Sequence[str],
    first_dealer: int | None,
    deals: Iterable[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """A game record of RECORD.md from its parts; ``deals`` in seat form."""
    names = list(names)
    rec: dict[str, Any] = {
        "format": FORMAT,
        "game": kind,
        "rules": {"profile": profile, "options": dict(options or {})},
        "players": names,
        "deals": [record_deal(d, names) for d in deals],
    }
    if first_dealer is not None and 0 <= first_dealer < len(names):
        rec["first_dealer"] = names[first_dealer]
    return rec


def game_record(game: Game, deals: Iterable[Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """The game as its record: the saved deals (seat form, in order), or ``deals`` in their place."""
    if deals is None:
        deals = game.deals.order_by("number").values_list("cards", flat=True)
    return record(
        kind=game.kind,
        profile=game.profile,
        options=game.options,
        names=game.player_names(),
        first_dealer=game.first_dealer,
        deals=deals,
    )


# ----------------------------------------------------------------------------------- scoring


def resolve(kind: str, profile: str, options: Mapping[str, Any] | None = None) -> Rules:
    return profiles.resolve(kind, profile, dict(options or {}))


def rules_of(game: Game) -> tuple[Rules, list[str]]:
    """The game's rules; options the engine no longer knows are dropped with a message, never a 500."""
    try:
        return resolve(game.kind, game.profile, game.options), []
    except RecordInvalid as exc:
        return resolve(game.kind, game.profile), [str(e) for e in exc.errors]


@contextmanager
def _guarded() -> Iterator[None]:
    """An unexpected failure inside the engine is logged and becomes a RecordInvalid: a clear
    message on the page, nothing saved, never a 500."""
    try:
        yield
    except RecordInvalid:
        raise
    except Exception as exc:
        log.exception("the engine failed")
        raise RecordInvalid(
            [
                RecordError(
                    f"the score keeper could not check this entry ({type(exc).__name__}); nothing was saved",
                    rule="internal",
                )
            ]
        ) from exc


def score(rec: Mapping[str, Any]) -> GameResult:
    """Score a whole record; raise RecordInvalid (every error) when it is not valid."""
    with _guarded():
        rules, players, deals, first_dealer = check_header(rec)
        return games.score_game(rules, players, deals, first_dealer)


@dataclass(frozen=True)
class Played:
    """Deals scored one at a time from a standing: the deals from ``start`` on, the standing after
    each, and the game's result where it then stands (its ``deals`` are only those scored here)."""

    start: int
    deals: tuple[DealResult, ...]
    standings: tuple[Standing, ...]
    result: GameResult


def play_from(
    *,
    kind: str,
    profile: str,
    options: Mapping[str, Any] | None,
    names: Sequence[str],
    first_dealer: int | None,
    cards: Sequence[Mapping[str, Any]],
    start: int = 1,
    standing: Standing | None = None,
) -> Played:
    """Score the deals ``cards[start - 1:]`` (seat form) from ``standing``, the game's standing after
    deal ``start - 1`` (from the start of the game when None). Work in proportion to the deals
    scored, not to the game. Raises RecordInvalid with the errors of the first deal that is not valid."""
    with _guarded():
        if standing is None or start <= 1:
            rules, players, _, first = check_header(
                record(kind=kind, profile=profile, options=options, names=names, first_dealer=first_dealer)
            )
            start, standing = 1, games.begin(rules, players, first)
        else:
            rules, players = resolve(kind, profile, options), tuple(names)
        scored: list[DealResult] = []
        standings: list[Standing] = []
        for number in range(start, len(cards) + 1):
            deal, standing = games.play(rules, players, standing, record_deal(cards[number - 1], players), number)
            scored.append(deal)
            standings.append(standing)
        return Played(start, tuple(scored), tuple(standings), games.conclude(rules, players, standing, scored))


_RESULTS: OrderedDict[tuple[Any, ...], GameResult] = OrderedDict()
_RESULTS_SIZE = 64


def game_result(game: Game) -> GameResult:
    """The scored game with every line, cached per process by (game, version): the version
    changes with every write, so a cached result is never stale (the version is read afresh, so
    an old ``Game`` object is no risk)."""
    # (id, created) names the game even where a database reuses the id of a deleted game.
    key = (game.pk, *(Game.objects.filter(pk=game.pk).values_list("created", "version").first() or (None, -1)))
    hit = _RESULTS.get(key)
    if hit is not None:
        _RESULTS.move_to_end(key)
        return hit
    result = score(game_record(game))
    _RESULTS[key] = result
    if len(_RESULTS) > _RESULTS_SIZE:
        _RESULTS.popitem(last=False)
    return result


# ----------------------------------------------------------------------------- live checks


def check_meld(tokens: list[Any], rules: Rules) -> oklahoma.MeldCheck | None:
    """The engine's live check of one Oklahoma meld (None if the engine failed: logged)."""
    if not isinstance(rules, OklahomaRules):
        return None
    try:
        return oklahoma.check_meld(tokens, rules)
    except Exception:
        log.exception("check_meld failed")
        return None


def check_melded(tokens: list[Any], rules: Rules) -> oklahoma.MeldedCheck | None:
    """The engine's live check of one Oklahoma player's melded cards as one flat list: the melds
    it splits them into, or why it cannot (None if the engine failed: logged)."""
    if not isinstance(rules, OklahomaRules):
        return None
    try:
        return oklahoma.check_melded(tokens, rules)
    except Exception:
        log.exception("check_melded failed")
        return None


def pack_counts(rules: Rules) -> dict[str, int] | None:
    """How many of each card the pack holds (Oklahoma's double pack), keyed by card code."""
    if not isinstance(rules, OklahomaRules):
        return None
    return {card.code: n for card, n in oklahoma.pack_counts(rules).items()}


def check_gin_meld(cards: list[Card]) -> tuple[str | None, str | None]:
    """The engine's live check of one Oklahoma Gin meld: (kind, None) or (None, the problem)."""
    try:
        return gin.check_meld(cards)
    except Exception:
        log.exception("gin meld check failed")
        return None, None
