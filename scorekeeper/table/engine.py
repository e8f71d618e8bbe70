"""The app's adapter to the rules engine (``scorekeeper.rules``).

The app never scores anything itself. This module builds a game's record (RECORD.md) from what is
stored — THE one builder of a game's record — converts deals between the record's form (player
names) and the stored "seat form" (seat numbers), and hands them to the engine. An unexpected
failure inside the engine is logged and reported as a record error, so a page shows a clear
message instead of a server error and nothing is saved.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from scorekeeper.rules import games, profiles
from scorekeeper.rules.errors import RecordError, RecordInvalid
from scorekeeper.rules.messages import msg
from scorekeeper.rules.profiles import Rules
from scorekeeper.rules.record import FORMAT, check_header
from scorekeeper.rules.results import DealResult, GameResult, Standing
from scorekeeper.table.models import Game

log = logging.getLogger(__name__)

PLAYER_KEYS = ("out", "knocker", "winner")  # the deal keys that name a player (winner: a points-only deal's)
SEAT_KEYS = ("hands", "points")  # the deal keys with one entry per player (a list by seat when stored)
# The version of the engine's results the stored results come from. Change it with any change to
# how the engine scores: after `migrate`, every game scored with another version is scored again.
RESULTS_VERSION = "2026.11.3"


# ------------------------------------------------------------------------------------ deals


def seat_deal(deal: Mapping[str, Any], names: Sequence[str], seats: Mapping[str, int] | None = None) -> dict[str, Any]:
    """A RECORD.md deal (player names) in seat form: names become seat numbers, ``hands`` a list
    in seat order. Keys naming someone who is not a player are kept as they are, so the engine
    still reports them. ``seats``: each name's seat (``seats_of(names)``), for many deals of a game."""
    seat = seats_of(names) if seats is None else seats
    out: dict[str, Any] = {}
    for key, value in deal.items():
        if key in PLAYER_KEYS and isinstance(value, str) and value in seat:
            out[key] = seat[value]
        elif key in SEAT_KEYS and isinstance(value, Mapping) and value.keys() <= seat.keys():
            out[key] = [value.get(name) for name in names]
        else:
            out[key] = value
    return out


def seats_of(names: Sequence[str]) -> dict[str, int]:
    """Each player's seat, by name."""
    return {name: i for i, name in enumerate(names)}


def record_deal(cards: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """A stored deal (seat form) as the RECORD.md deal with the players' current names."""
    out: dict[str, Any] = {}
    for key, value in cards.items():
        if key in PLAYER_KEYS and isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
            out[key] = names[value]
        elif key in SEAT_KEYS and isinstance(value, list):
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
    rules, errors = _rules(*_rules_key(game))
    return rules, list(errors)


@functools.lru_cache(maxsize=256)
def _rules(kind: str, profile: str, options: str) -> tuple[Rules, tuple[str, ...]]:
    """A rule set by (game, profile, options as JSON): resolving the profile is not free, and every
    page needs it."""
    try:
        return resolve(kind, profile, json.loads(options)), ()
    except RecordInvalid as exc:
        return resolve(kind, profile), tuple(str(e) for e in exc.errors)


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
                    msg(
                        "the score keeper could not check this entry ({error}); nothing was saved",
                        error=type(exc).__name__,
                    ),
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
    """Score ``cards``, the game's deals from deal ``start`` on (seat form), from ``standing``, the
    game's standing after deal ``start - 1`` (from the start of the game when None: then ``cards``
    are all its deals). Work in proportion to the deals scored, not to the game. Raises
    RecordInvalid with the errors of the first deal that is not valid."""
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
        for number, seated in enumerate(cards, start=start):
            deal, standing = games.play(rules, players, standing, record_deal(seated, players), number)
            scored.append(deal)
            standings.append(standing)
        return Played(start, tuple(scored), tuple(standings), games.conclude(rules, players, standing, scored))


# The app's caches, per process: functools.lru_cache on functions whose answer depends on their
# key alone (thread-safe: a server's threads share them). A game's results are keyed by its id,
# creation and version (``_GameAt``): the version changes with every write, so an entry is never
# stale, and a game's older versions simply age out.


@dataclass(frozen=True)
class _GameAt:
    """A game at one version, as a cache key: (id, created) name the game even where a database
    reuses the id of a deleted game, ``version`` changes with every write, ``names`` (its table's)
    with a rename of a player (a result names the players), ``scored_with`` with the engine.
    ``game`` (and ``standing``, the one stored with its last deal) ride along for a miss and are no
    part of the key."""

    pk: int
    created: datetime | None
    version: int
    names: int
    scored_with: str
    game: Game = field(compare=False, repr=False)
    standing: Mapping[str, Any] | None = field(default=None, compare=False, repr=False)


def clear_caches() -> None:
    """Forget every cached result (benchmarks measure the cold path with this)."""
    for cached in (_rules, _reviewed, _played, _concluded):
        cached.cache_clear()


def _rules_key(game: Game) -> tuple[str, str, str]:
    return (game.kind, game.profile, json.dumps(game.options or {}, sort_keys=True))


def game_result(game: Game) -> GameResult:
    """The scored game with every line, cached per process by (game, version): the version
    changes with every write, so a cached result is never stale (the version is read afresh, so
    an old ``Game`` object is no risk). On a miss the result is rebuilt deal by deal from the
    standings the writes store (``replay``): only the deals whose cards or standing before them
    changed are played again; a game whose stored results are missing or come from another
    version of the engine is scored from its first deal."""
    return reviewed(game)[0]


def result_or_errors(game: Game) -> tuple[GameResult | None, list[str]]:
    """``game_result``, or None and what the engine found wrong with the stored game (a page shows
    the errors instead of the scores: never a 500)."""
    try:
        return game_result(game), []
    except RecordInvalid as exc:
        return None, [str(e) for e in exc.errors]


def reviewed(game: Game) -> tuple[GameResult, list[str] | None]:
    """``game_result``, and for each deal a digest of all that decides its result (the rules, the
    players, its number, its cards, the standing before it): what a page showing one deal's result
    may be cached by. None when the game was scored from its record (``replay``)."""
    created, version, names, scored_with = Game.objects.filter(pk=game.pk).values_list(
        "created", "version", "table__names", "scored_with"
    ).first() or (None, -1, -1, "")
    at = _GameAt(pk=game.pk, created=created, version=version, names=names, scored_with=scored_with, game=game)
    result, digests = _reviewed(at)
    return result, None if digests is None else list(digests)


@functools.lru_cache(maxsize=64)
def _reviewed(at: _GameAt) -> tuple[GameResult, tuple[str, ...] | None]:
    """``reviewed`` of the game at this version."""
    digests: list[str] = []
    result = replay(at.game, digests)
    return result, tuple(digests) if len(digests) == len(result.deals) else None


def replay(game: Game, digests: list[str] | None = None) -> GameResult:
    """The game's result from its stored deals, each played from the standing stored with the
    deal before it (or taken from the per-deal cache); the same result as scoring the whole
    record (``score``), which it falls back to — raising every error — when a deal does not play
    from the stored standing into the one stored after it. Appends each deal's digest to
    ``digests`` (``reviewed``) unless it falls back."""
    rows = list(game.deals.order_by("number").values_list("number", "cards", "standing"))
    if game.scored_with != RESULTS_VERSION or any(not standing for _, _, standing in rows):
        return score(game_record(game, [cards for _, cards, _ in rows]))
    names = tuple(game.player_names())
    first = names[game.first_dealer] if game.first_dealer is not None and game.first_dealer < len(names) else None
    rules_key = _rules_key(game)
    keys = []
    try:
        with _guarded():
            rules, _ = rules_of(game)
            before = games.begin(rules, names, first).to_json()
            deals: list[DealResult] = []
            for number, cards, after in rows:
                key = (rules_key, names, number, json.dumps(cards), json.dumps(before))
                keys.append(key)
                deal, standing = _played(*key)
                if standing != after:
                    raise RecordInvalid([])  # the stored results are not this engine's: score it all
                deals.append(deal)
                before = after
            result = games.conclude(rules, names, Standing.from_json(before), deals)
    except RecordInvalid:
        return score(game_record(game, [cards for _, cards, _ in rows]))
    if digests is not None:
        digests.extend(hashlib.blake2b(repr(key).encode(), digest_size=12).hexdigest() for key in keys)
    return result


def played_deals(game: Game, first: int, last: int) -> tuple[list[DealResult], list[str]] | None:
    """Deals ``first`` to ``last`` of the game, each played from the standing stored with the deal
    before it (or taken from the per-deal cache), with their digests (``reviewed``): a page of the
    review costs its own deals, however long the game. None when the stored results cannot be
    used (another version of the engine, a standing missing or not this engine's): then the whole
    game is scored (``reviewed``), which reports any error."""
    if game.scored_with != RESULTS_VERSION or first > last:
        return None
    rows = list(
        game.deals.filter(number__gte=first - 1, number__lte=last)
        .order_by("number")
        .values_list("number", "cards", "standing")
    )
    names = tuple(game.player_names())
    rules_key = _rules_key(game)
    deals: list[DealResult] = []
    digests: list[str] = []
    try:
        with _guarded():
            if first == 1:
                rules, _ = rules_of(game)
                fd = game.first_dealer
                before = games.begin(rules, names, names[fd] if fd is not None and fd < len(names) else None).to_json()
            else:
                if not rows or rows[0][0] != first - 1 or not rows[0][2]:
                    return None
                before = rows[0][2]
                rows = rows[1:]
            if [number for number, _, _ in rows] != list(range(first, last + 1)):
                return None
            for number, cards, after in rows:
                key = (rules_key, names, number, json.dumps(cards), json.dumps(before))
                deal, standing = _played(*key)
                if not after or standing != after:
                    return None
                deals.append(deal)
                digests.append(hashlib.blake2b(repr(key).encode(), digest_size=12).hexdigest())
                before = after
    except RecordInvalid:
        return None
    return deals, digests


@functools.lru_cache(maxsize=4096)
def _played(
    rules_key: tuple[str, str, str], names: tuple[str, ...], number: int, cards: str, before: str
) -> tuple[DealResult, dict[str, Any]]:
    """One deal (its cards as JSON, in seat form) played from the standing before it (as JSON):
    its result and the standing after it (as JSON). A deal saved, edited or deleted changes only
    the keys from that deal on, so after a save the game's result is rebuilt by playing the
    changed deals alone."""
    rules, _ = _rules(*rules_key)
    deal, standing = games.play(
        rules, names, Standing.from_json(json.loads(before)), record_deal(json.loads(cards), names), number
    )
    return deal, standing.to_json()


@dataclass(frozen=True)
class PlayedRecord:
    """A game record scored deal by deal from its first deal (``play_record``): its rules, its
    players as named in the record, the first dealer's seat, its deals in seat form and what the
    engine made of them."""

    rules: Rules
    names: tuple[str, ...]
    first_dealer: int | None
    cards: list[dict[str, Any]]
    played: Played


def play_record(rec: Any) -> PlayedRecord:
    """Score a game record deal by deal, keeping each deal's result and the standing after it
    (what the app stores). Raises RecordInvalid with the errors of the first deal that is not
    valid; ``score`` lists every error of a record."""
    with _guarded():
        rules, players, deals, first = check_header(rec)
        if not all(isinstance(d, Mapping) for d in deals):
            score(rec)  # a deal that is no object: the whole-record check names it (never played)
        standing = games.begin(rules, players, first)
        scored: list[DealResult] = []
        standings: list[Standing] = []
        for number, deal in enumerate(deals, start=1):
            result, standing = games.play(rules, players, standing, deal, number)
            scored.append(result)
            standings.append(standing)
        played = Played(1, tuple(scored), tuple(standings), games.conclude(rules, players, standing, scored))
        seats = seats_of(players)
        return PlayedRecord(
            rules=rules,
            names=players,
            first_dealer=players.index(first) if first in players else None,
            cards=[seat_deal(deal, players, seats) for deal in deals],
            played=played,
        )


def concluded(game: Game, standing: Mapping[str, Any] | None) -> GameResult | None:
    """Where the game stands from the standing stored with its last deal (None: no deal yet):
    totals, state, winner and the final tally with its lines, without playing any deal (its
    ``deals`` are empty). Cached by the game (id, creation), its version, its table's names and the
    engine's version."""
    if not standing:
        return None
    return _concluded(
        _GameAt(
            pk=game.pk,
            created=game.created,
            version=game.version,
            names=game.table.names,
            scored_with=game.scored_with,
            game=game,
            standing=standing,
        )
    )


@functools.lru_cache(maxsize=256)
def _concluded(at: _GameAt) -> GameResult:
    """``concluded`` of the game at this version."""
    assert at.standing is not None
    rules, _ = rules_of(at.game)
    with _guarded():
        return games.conclude(rules, at.game.player_names(), Standing.from_json(at.standing), ())


# ----------------------------------------------------------------------------- live checks
