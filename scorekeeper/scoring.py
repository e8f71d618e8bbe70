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

from scorekeeper.rules import gin, oklahoma, profiles
from scorekeeper.rules.cards import Card
from scorekeeper.rules.errors import RecordError, RecordInvalid
from scorekeeper.rules.record import score_record
from scorekeeper.rules.results import GameResult

log = logging.getLogger(__name__)

_CACHE: OrderedDict[str, GameResult] = OrderedDict()
_CACHE_SIZE = 64


def score(record: dict[str, Any]) -> GameResult:
    """Score a whole record; raise RecordInvalid (every error) when it is not valid."""
    try:
        return score_record(record)
    except RecordInvalid:
        raise
    except Exception as exc:  # an engine bug must not become a 500 page
        log.exception("the engine failed on a record")
        raise RecordInvalid(
            [
                RecordError(
                    f"the score keeper could not check this entry ({type(exc).__name__}); nothing was saved",
                    rule="internal",
                )
            ]
        ) from exc


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


def check_meld(tokens: list, rules: profiles.Rules) -> oklahoma.MeldCheck | None:
    """The engine's live check of one Oklahoma meld (None if the engine failed: logged)."""
    try:
        return oklahoma.check_meld(tokens, rules)
    except Exception:
        log.exception("check_meld failed")
        return None


def pack_counts(rules: profiles.Rules) -> dict[str, int] | None:
    """How many of each card the pack holds (Oklahoma's double pack), keyed by card code."""
    if rules.game != profiles.OKLAHOMA:
        return None
    return {card.code: n for card, n in oklahoma.pack_counts(rules).items()}


def check_gin_meld(cards: list[Card]) -> tuple[str | None, str | None]:
    """The engine's live check of one Oklahoma Gin meld: (kind, None) or (None, the problem)."""
    try:
        return gin.check_meld(cards)
    except Exception:
        log.exception("gin meld check failed")
        return None, None
