"""The per-process cache of games' results is shared by a server's threads (gunicorn runs four in
each process): readers and writers at once must never see an error, nor another version's result."""

from __future__ import annotations

import copy
import itertools
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from scorekeeper.table.models import Game
from scorekeeper.table.scoring import engine
from tests.app_data import OK_BIG, ok_record_deal
from tests.conftest import NAMES

READERS, WRITERS = 3, 2
OLDEST = 272  # readers ask for versions this many writes back (a cache keeps a few hundred)
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


def test_concluded_under_readers_and_writers(make_game: Any, switching: None) -> None:
    """Three threads read the oldest versions still cached of a game while two write newer ones
    (each new version a new key, the oldest pushed out), no database in the threads: no thread
    raises, and every answer is its game's."""
    game = make_game(players=NAMES, first_dealer=0, deals=[ok_record_deal(OK_BIG, NAMES)])
    standing = game.deals.get().standing
    expected = engine.concluded(game, standing)
    assert expected is not None
    latest = itertools.count(game.version + 1)
    newest = [game.version]

    def at(version: int) -> Game:
        copied = copy.copy(game)  # the seats stay prefetched: no query in a thread
        copied.version = version
        return copied

    def write(writer: int, i: int) -> None:
        newest[0] = version = next(latest)
        engine.concluded(at(version), standing)

    def read(i: int) -> None:
        version = max(game.version, newest[0] - OLDEST + i % 32)
        assert engine.concluded(at(version), standing) == expected

    failures = hammer(read, write)
    assert not failures, failures[:3]
