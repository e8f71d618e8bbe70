"""The per-process cache of games' results is shared by a server's threads (gunicorn runs four in
each process): readers and writers at once must never see an error."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from scorekeeper.table import engine

READERS, WRITERS = 3, 2
SECONDS = 3.0  # how long the threads run at most (a failure stops them at once)


@pytest.fixture
def switching() -> Iterator[None]:
    """Threads switched as often as the interpreter can: a race shows in a second, not one run in many."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(before)


def hammer(read: Callable[[int], object], write: Callable[[int, int], object]) -> list[BaseException]:
    """Run ``READERS`` threads calling ``read(i)`` and ``WRITERS`` calling ``write(writer, i)``
    together, for ``SECONDS`` or until one raises; what they raised."""
    failures: list[BaseException] = []
    start = threading.Barrier(READERS + WRITERS)
    deadline = time.monotonic() + SECONDS

    def run(work: Callable[[int], object]) -> None:
        start.wait()
        i = 0
        while not failures and time.monotonic() < deadline:
            try:
                for _ in range(100):
                    work(i)
                    i += 1
            except BaseException as exc:  # reported by the test
                failures.append(exc)

    threads = [threading.Thread(target=run, args=(read,)) for _ in range(READERS)]
    threads += [threading.Thread(target=run, args=(lambda i, w=w: write(w, i),)) for w in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return failures


@pytest.mark.xfail(strict=True, raises=KeyError, reason="_Lru.hit reads, then moves the key: a writer pops it between")
def test_lru_under_readers_and_writers(switching: None) -> None:
    cache = engine._Lru(4)
    failures = hammer(lambda i: cache.hit(i % 16), lambda w, i: cache.keep((i % 8) * WRITERS + w, i))
    if failures:
        raise failures[0]
