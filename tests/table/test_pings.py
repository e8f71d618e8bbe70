"""A stream's pings (``watchers.events``): each stream keeps a phase of its own, so that phones
that connected at once (a restart of the server, a table that opened together) are not all
pinged in the same moment, and then pings every ``PING_SECONDS``."""

from __future__ import annotations

import asyncio

import pytest

from scorekeeper.table import access
from scorekeeper.table.live import hub as watchers
from tests.conftest import run_async


def test_streams_opened_together_are_pinged_each_in_its_own_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(watchers, "PING_SECONDS", 0.2)
    asked: list[tuple[float, float]] = []
    phases = iter([0.15, 0.1])  # the first stream's first ping comes later than the second's

    def uniform(low: float, high: float) -> float:
        asked.append((low, high))
        return next(phases)

    monkeypatch.setattr(watchers.random, "uniform", uniform)
    pinged: list[str] = []

    async def watch(hub: watchers.Hub, name: str) -> None:
        state = access.LiveState(version=1, names=0, role="follow", table=1)
        stream = watchers.events(hub, watchers.Watch(1, [1]), state, "en")
        async for chunk in stream:
            if chunk.startswith(b"event: ping"):
                pinged.append(name)
                if pinged.count(name) == 2:
                    return  # the stream is closed as the loop ends (asyncio.run)

    async def both() -> None:
        hub = watchers.Hub(asyncio.get_running_loop())
        await asyncio.gather(watch(hub, "first"), watch(hub, "second"))

    run_async(both)
    assert asked == [(0.1, 0.2), (0.1, 0.2)]  # the first ping within 5-10 s of a stream's opening
    assert pinged == ["second", "first", "second", "first"]  # then every PING_SECONDS, each in its phase
