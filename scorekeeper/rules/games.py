"""The two games behind one interface: begin a game, play one deal onto where it stands,
conclude it, or score a whole game at once.

``play`` scores one deal from the ``Standing`` after the deals before it, so an app that keeps
each deal's standing scores one deal when a deal is added and re-scores only from an edited or
deleted deal on. Folding ``play`` from ``begin`` gives exactly the deals ``score_game`` gives.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

from . import gin, oklahoma
from .profiles import GIN, OKLAHOMA, Rules
from .results import DealResult, GameResult, Standing

_GAMES: dict[str, ModuleType] = {OKLAHOMA: oklahoma, GIN: gin}


def begin(rules: Rules, players: Sequence[str], first_dealer: str | None = None) -> Standing:
    """Where a game stands before its first deal."""
    standing: Standing = _GAMES[rules.game].begin(rules, tuple(players), first_dealer)
    return standing


def play(
    rules: Rules, players: Sequence[str], standing: Standing, deal: Any, number: int
) -> tuple[DealResult, Standing]:
    """Check and score deal ``number`` from ``standing``; raise RecordInvalid with every error of the deal."""
    played: tuple[DealResult, Standing] = _GAMES[rules.game].play(rules, tuple(players), standing, deal, number)
    return played


def conclude(rules: Rules, players: Sequence[str], standing: Standing, deals: Sequence[DealResult]) -> GameResult:
    """The game's result from its scored deals and where it stands after them."""
    result: GameResult = _GAMES[rules.game].conclude(rules, tuple(players), standing, tuple(deals))
    return result


def score_game(rules: Rules, players: Sequence[str], deals: Sequence[Any], first_dealer: str | None) -> GameResult:
    """Check and score a whole game; raise RecordInvalid with every error found in every deal."""
    result: GameResult = _GAMES[rules.game].score_game(rules, tuple(players), deals, first_dealer)
    return result
