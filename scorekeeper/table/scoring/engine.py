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
from scorekeeper.rules.games import RecordDeal
from scorekeeper.rules.messages import msg
from scorekeeper.rules.profiles import Rules
from scorekeeper.rules.record import check_header, new_record
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
    return {key: _named(key, value, names) for key, value in cards.items()}


def _named(key: str, value: Any, names: Sequence[str]) -> Any:
    """One stored value of a deal by the players' names: a seat a player's name, a list by seat a
    mapping by name (the seats without an entry left out); anything else as it is."""
    if key in PLAYER_KEYS and type(value) is int and 0 <= value < len(names):
        return names[value]
    if key in SEAT_KEYS and isinstance(value, list):
        return {names[i]: entry for i, entry in enumerate(value[: len(names)]) if entry is not None}
    return value


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
    rec = new_record(game=kind, profile=profile, options=options, players=list(names), first_dealer=first_dealer)
    rec["deals"] = [record_deal(d, names) for d in deals]
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
def guarded() -> Iterator[None]:
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
    with guarded():
        rules, players, deals, first_dealer = check_header(rec)
        return games.score_game(rules, players, deals, first_dealer)


@dataclass(frozen=True)
class Played:
    """Deals scored one at a time from a standing: the deals from ``start`` on, the standing after
    each, where the game stands after the last (``end``: the standing it started from when no deal
    was played) and the game's result there (its ``deals`` are only those scored here)."""

    start: int
    deals: tuple[DealResult, ...]
    standings: tuple[Standing, ...]
    end: Standing
    result: GameResult


def play_from(game: Game, deals: Sequence[RecordDeal], *, start: int = 1, standing: Standing | None = None) -> Played:
    """Score ``deals`` (RECORD.md: by name), the game's deals from deal ``start`` on, from
    ``standing``, the game's standing after deal ``start - 1`` (from the start of the game when
    None: then ``deals`` are all its deals), under the game's rules, with its players. Work in
    proportion to the deals scored, not to the game. Raises RecordInvalid with the errors of the
    first deal that is not valid."""
    with guarded():
        if standing is None or start <= 1:
            rules, players, _, first = check_header(game_record(game, ()))
            start, standing = 1, games.begin(rules, players, first)
        else:
            rules, players = resolve(game.kind, game.profile, game.options), tuple(game.player_names())
        return _fold(rules, players, standing, deals, start)


def _fold(
    rules: Rules, players: tuple[str, ...], standing: Standing, deals: Sequence[RecordDeal], start: int
) -> Played:
    """``deals`` played one by one from ``standing`` as the game's deals from ``start`` on."""
    scored: list[DealResult] = []
    standings: list[Standing] = []
    for number, deal in enumerate(deals, start=start):
        result, standing = games.play(rules, players, standing, deal, number)
        scored.append(result)
        standings.append(standing)
    return Played(start, tuple(scored), tuple(standings), standing, games.conclude(rules, players, standing, scored))


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


def result_or_errors(game: Game) -> tuple[GameResult | None, tuple[RecordError, ...]]:
    """``game_result``, or None and what the engine finds wrong with the stored game: a game stored
    by an earlier version of the engine that today's rules refuse (``refresh_results`` left it as
    it was). Its pages show the results stored then with the refusals (``present.Refused``): never
    a 500, never an empty game."""
    try:
        return game_result(game), ()
    except RecordInvalid as exc:
        return None, exc.errors


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
    played = _from_stored(game, rows, _start(game)) if game.scored_with == RESULTS_VERSION else None
    if played is None:
        return score(game_record(game, [cards for _, cards, _ in rows]))
    deals, keys, end = played
    rules, _ = rules_of(game)
    with guarded():
        result = games.conclude(rules, game.player_names(), Standing.from_json(end), deals)
    if digests is not None:
        digests.extend(keys)
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
    if first > 1:  # the deal before the page: its stored standing is where the page starts
        if not rows or rows[0][0] != first - 1:
            return None
        before, rows = rows[0][2], rows[1:]
    else:
        before = _start(game)
    if [number for number, _, _ in rows] != list(range(first, last + 1)):
        return None
    played = _from_stored(game, rows, before)
    return None if played is None else (played[0], played[1])


def _start(game: Game) -> dict[str, Any] | None:
    """Where the game stands before its first deal (as JSON), or None when its rules or players
    are not this engine's (the whole record is then scored, which says why)."""
    names = game.player_names()
    fd = game.first_dealer
    try:
        with guarded():
            rules, _ = rules_of(game)
            return games.begin(rules, names, names[fd] if fd is not None and fd < len(names) else None).to_json()
    except RecordInvalid:
        return None


Row = tuple[int, Any, Any]  # a stored deal: its number, cards (seat form) and the standing after it


def _from_stored(
    game: Game, rows: list[Row], before: dict[str, Any] | None
) -> tuple[list[DealResult], list[str], dict[str, Any]] | None:
    """The stored deals ``rows`` played one by one from ``before`` (the standing stored before the
    first of them), each from the standing stored with the one before it (or taken from the
    per-deal cache): their results, their digests and the standing after the last. None when a
    standing is missing, or a deal does not play into the standing stored with it (the stored
    results are not this engine's), or does not play at all."""
    names, rules_key = tuple(game.player_names()), _rules_key(game)
    deals: list[DealResult] = []
    digests: list[str] = []
    if not before:
        return None
    try:
        with guarded():
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
    return deals, digests, before


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
    with guarded():
        rules, players, deals, first = check_header(rec)
        if not all(isinstance(d, Mapping) for d in deals):
            score(rec)  # a deal that is no object: the whole-record check names it (never played)
        played = _fold(rules, players, games.begin(rules, players, first), deals, 1)
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
    with guarded():
        return games.conclude(rules, at.game.player_names(), Standing.from_json(at.standing), ())


# ----------------------------------------------------------------------------- live checks
