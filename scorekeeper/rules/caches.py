"""The engine's one cache policy: ``functools.lru_cache`` on pure functions, every one of them
registered here so that ``clear_caches()`` forgets them all (tests, benchmarks).

A function is cached only if it is pure (its answer depends on its arguments alone, all hashable)
and ``make bench`` shows the cache saves at least 10 % of something a user waits for.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

_CACHED: list[Any] = []


def cached[F: Callable[..., Any]](maxsize: int | None = 1024) -> Callable[[F], F]:
    """``functools.lru_cache(maxsize)``, registered for ``clear_caches``."""

    def wrap(function: F) -> F:
        wrapped = functools.lru_cache(maxsize=maxsize)(function)
        _CACHED.append(wrapped)
        return wrapped  # type: ignore[return-value]

    return wrap


def clear_caches() -> None:
    """Forget every cached answer of the engine."""
    for function in _CACHED:
        function.cache_clear()
