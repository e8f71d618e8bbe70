"""The live streams' hub (``watchers``) hears of a rename: a watched game's live part changes with
its table's names as with its version (its validator holds both: ``answers.etag``). On SQLite the
check compares both for every watched game; on PostgreSQL a rename's NOTIFY ("n<table>") makes the
watches of the table's games (and those whose first look is not done) check again, no other; and a
stream sends the new validator. The served streams: tests/server/test_live.py."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.db import connection

from scorekeeper.history.services import rename_player
from scorekeeper.table import access
from scorekeeper.table.live import answers
from scorekeeper.table.live import hub as watchers
from scorekeeper.table.models import Game, Player, Role
from scorekeeper.table.phones import services as phone_services
from tests.app_data import OK_BIG, ok_record_deal
from tests.conftest import NAMES, new_game

pytestmark = pytest.mark.django_db


def _read(games: list[int]) -> dict[int, watchers.Seen]:
    watchers._data_version[0] = None  # as if another connection wrote (this one's writes do not count)
    found = watchers._read(games, [])
    assert found is not None
    return found[0]


def _watching(hub: watchers.Hub, game: int) -> watchers.Watch:
    w = watchers.Watch(game, [])
    hub.games.setdefault(game, set()).add(w)
    return w


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's check (PostgreSQL: NOTIFY)")
def test_the_sqlite_check_sees_a_rename_at_the_watched_games_table_only(table):
    done = new_game(
        table, players=NAMES, first_dealer=0, options={"target": 100}, deals=[ok_record_deal(OK_BIG, NAMES)]
    )
    other, _ = phone_services.create_table(name="Other table", device_name="Their phone")
    theirs = new_game(other, players=NAMES, first_dealer=0)
    loop = asyncio.new_event_loop()
    try:
        hub = watchers.Hub(loop)
        mine, their = _watching(hub, done.pk), _watching(hub, theirs.pk)
        hub._compare(_read([done.pk, theirs.pk]), {})
        assert mine.latest == watchers.Seen(done.version, 0) and their.latest == watchers.Seen(theirs.version, 0)
        mine.woken.clear()
        their.woken.clear()
        rename_player(player=Player.objects.get(table=table, key="ann"), name="Annabel")
        hub._compare(_read([done.pk, theirs.pk]), {})
        assert mine.woken.is_set() and mine.latest == watchers.Seen(done.version, 1)  # the same version
        assert not their.woken.is_set() and their.latest == watchers.Seen(theirs.version, 0)
    finally:
        loop.close()


def test_a_notified_rename_makes_the_tables_watches_check_again():
    loop = asyncio.new_event_loop()
    try:
        hub = watchers.Hub(loop)
        mine, theirs, opening = _watching(hub, 1), _watching(hub, 2), _watching(hub, 3)
        hub.place(mine, 10)
        hub.place(theirs, 20)  # ``opening``: its first look is under way, its table not known yet
        hub.heard("n10")
        assert mine.recheck and opening.recheck and not theirs.recheck
        hub.heard("g2:7:3")  # a save: the game's version and its table's names
        assert theirs.latest == watchers.Seen(7, 3) and theirs.woken.is_set()
    finally:
        loop.close()


def test_the_stream_sends_the_validator_of_the_new_names(table, follower):
    done = new_game(
        table, players=NAMES, first_dealer=0, options={"target": 100}, deals=[ok_record_deal(OK_BIG, NAMES)]
    )
    state = access.live_state([follower.pk], done.pk)
    assert state is not None and state.role == Role.FOLLOW

    async def stream() -> list[str]:
        hub = watchers.hub()
        w = _watching(hub, done.pk)
        hub.place(w, state.table)
        events = watchers.events(hub, w, state, "en")
        seen = [await anext(events) for _ in range(2)]  # the retry, the validator it holds
        w.offer(watchers.Seen(state.version, state.names + 1))  # as the check finds it after a rename
        seen.append(await anext(events))
        return [e.decode() for e in seen]

    retry, first, second = asyncio.run(stream())
    assert retry.startswith("retry:")
    assert first == f"event: change\ndata: {answers.etag(state.version, state.names, Role.FOLLOW, partial=True)}\n\n"
    assert (
        second == f"event: change\ndata: {answers.etag(state.version, state.names + 1, Role.FOLLOW, partial=True)}\n\n"
    )
    assert Game.objects.get(pk=done.pk).version == state.version


def _events_after_the_first(w: watchers.Watch, state: access.LiveState) -> tuple[watchers.Hub, Any]:
    hub = watchers.hub()
    hub.games.setdefault(w.game, set()).add(w)
    hub.place(w, state.table)
    return hub, watchers.events(hub, w, state, "en")


def _tag(state: access.LiveState, version: int) -> str:
    return f"event: change\ndata: {answers.etag(version, state.names, state.role, partial=True)}\n\n"


def test_a_change_is_said_within_the_spread_and_changes_meanwhile_with_it(table, follower, monkeypatch):
    """The phones of a table ask for a new version one by one: each stream waits a moment, at
    random, before it says its game changed; a change made meanwhile is said with it."""
    monkeypatch.setattr(watchers, "SPREAD_SECONDS", 0.3)
    game = new_game(table, players=NAMES, first_dealer=0)
    state = access.live_state([follower.pk], game.pk)
    assert state is not None

    async def stream() -> tuple[list[str], list[float]]:
        w = watchers.Watch(game.pk, [follower.pk])
        _, events = _events_after_the_first(w, state)
        seen = [(await anext(events)).decode() for _ in range(2)]
        waits: list[float] = []
        for _ in range(8):
            began = asyncio.get_running_loop().time()
            w.offer(watchers.Seen(state.version + len(waits) * 2 + 1, state.names))
            await asyncio.sleep(0)
            w.offer(watchers.Seen(state.version + len(waits) * 2 + 2, state.names))  # meanwhile
            seen.append((await anext(events)).decode())
            waits.append(asyncio.get_running_loop().time() - began)
        await events.aclose()
        return seen, waits

    seen, waits = asyncio.run(stream())
    assert seen[2:] == [_tag(state, state.version + k * 2 + 2) for k in range(8)]  # one event each time: the newest
    assert all(w <= 0.3 + 0.1 for w in waits)
    assert max(waits) - min(waits) > 0.01  # at random, not all after the same time


def test_a_change_of_access_is_said_at_once_even_while_a_change_waits(table, follower, monkeypatch):
    monkeypatch.setattr(watchers, "SPREAD_SECONDS", 30)
    game = new_game(table, players=NAMES, first_dealer=0)
    state = access.live_state([follower.pk], game.pk)
    assert state is not None

    async def stream() -> tuple[str, float]:
        w = watchers.Watch(game.pk, [2**40])  # a device the database does not hold: taken off, as the check finds it
        _, events = _events_after_the_first(w, state)
        for _ in range(2):
            await anext(events)
        began = asyncio.get_running_loop().time()
        w.offer(watchers.Seen(state.version + 1, state.names))
        asyncio.get_running_loop().call_later(0.05, w.check_again)
        said = (await anext(events)).decode()
        return said, asyncio.get_running_loop().time() - began

    try:
        said, waited = asyncio.run(stream())
    finally:
        watchers.close_connection()  # the recheck's, on the streams' database thread
    assert said == "event: gone\ndata: \n\n" and waited < 5
