"""The thin seam between the app and the rules engine (scorekeeper.rules).

The app never scores anything itself: it builds the game record of RECORD.md and hands it to
``score_record``. An unexpected failure inside the engine is logged and reported as a record
error, so a page shows a clear message instead of a server error.
"""
from __future__ import annotations

import hashlib
import json
import logging
from collections import OrderedDict
from typing import Any

from scorekeeper.rules import profiles
from scorekeeper.rules.errors import RecordError, RecordInvalid
from scorekeeper.rules.results import GameResult

log = logging.getLogger(__name__)

_CACHE: OrderedDict[str, GameResult] = OrderedDict()
_CACHE_SIZE = 64


def score(record: dict[str, Any]) -> GameResult:
    """Score a whole record; raise RecordInvalid (every error) when it is not valid."""
    from scorekeeper.rules.record import score_record

    try:
        return score_record(record)
    except RecordInvalid:
        raise
    except Exception as exc:  # an engine bug must not become a 500 page
        log.exception("the engine failed on a record")
        raise RecordInvalid([RecordError(
            f"the score keeper could not check this entry ({type(exc).__name__}); nothing was saved",
            rule="internal")]) from exc


def cached_score(record: dict[str, Any]) -> GameResult:
    """``score`` with a small in-process cache keyed by the record's content."""
    key = hashlib.sha256(json.dumps(record, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
        return hit
    result = score(record)
    _CACHE[key] = result
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return result


def resolve(game: str, profile: str, options: dict[str, Any] | None = None) -> profiles.Rules:
    return profiles.resolve(game, profile, options or {})


def check_meld(tokens: list, rules: profiles.Rules):
    """The engine's live check of one Oklahoma meld, or None while the engine has none."""
    try:
        from scorekeeper.rules.oklahoma import check_meld as engine_check
    except ImportError:
        return None
    try:
        return engine_check(tokens, rules)
    except Exception:
        log.exception("check_meld failed")
        return None


def pack_counts(rules: profiles.Rules) -> dict[str, int] | None:
    """How many of each card the pack holds (Oklahoma's double pack), keyed by card code."""
    if rules.game != profiles.OKLAHOMA:
        return None
    counts = {}
    from scorekeeper.rules.cards import PACK_52
    for card in PACK_52:
        counts[card.code] = 2
    if getattr(rules, "joker", True):
        counts["JK"] = 1
    return counts


def check_gin_meld(cards: list) -> tuple[str | None, str | None]:
    """(kind, None) for a legal Oklahoma Gin meld, else (None, what is wrong with its rule)."""
    try:
        from scorekeeper.rules import gin
    except ImportError:
        return None, None
    if len({c for c in cards}) != len(cards):
        return None, "a card is named twice in this meld"
    if any(c.is_joker for c in cards):
        return None, "Oklahoma Gin is played without the Joker"
    mask = 0
    for c in cards:
        mask |= 1 << c.index
    try:
        problem = gin.meld_problem(mask)
        kind = gin.gf.meld_kind(mask)
    except Exception:
        log.exception("gin meld check failed")
        return None, None
    if problem:
        return None, f"{problem} — {gin.MELD_RULE}, {gin.MELD_SOURCE}"
    return kind, None
