"""Words for the engine's messages and explanations: counts with their noun, ranks with their article."""

from __future__ import annotations

from .cards import ACE, RANK_WORDS


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """``1 point``, ``2 points`` (``nouns`` for an irregular plural)."""
    return f"{n} {noun if n == 1 else (nouns or noun + 's')}"


def a_rank(rank: int) -> str:
    """One card of a rank, with its article: ``an ace``, ``a king``, ``an 8``, ``a 7``."""
    word = RANK_WORDS[rank]
    return f"{'an' if rank in (ACE, 8) else 'a'} {word}"


def ranks(rank: int) -> str:
    """Cards of a rank: ``aces``, ``kings``, ``10s``, ``7s``."""
    return RANK_WORDS[rank] + "s"


def either(options: list[str], word: str = "or") -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    if len(options) <= 1:
        return "".join(options)
    return f"{', '.join(options[:-1])} {word} {options[-1]}"
