"""The watching phones of one app process, and the news that reaches them (``live`` says how).

Each open stream of a game page (``views.game_events``) is a ``Watch`` in this
process's ``Hub``, filed under its game and the phone's devices; it knows its game's table once its
first look found it. The hub learns of changes from the database, for all its watches at once:

- PostgreSQL: one connection per process (psycopg 3, async) LISTENs on ``signals.CHANNEL``; a save's
  NOTIFY ("g<game>:<version>:<names>") wakes the watches of that game, a rename's ("n<table>")
  makes the watches of the table's games check again (a finished game's too: its page shows the
  name), a phone's ("d<device>") makes its watches check the phone's access again. After the
  connection is lost and made again, every watch checks again (what was sent meanwhile is lost).
- SQLite: one check every ``CHECK_SECONDS`` while any phone watches: when anything was written
  since the last (``PRAGMA data_version``), the versions and tables' names of the watched games and
  the state (role, taken off) of the watching devices, in two indexed queries.

What the streams need from the database (the access check as a stream opens, the check again
after a change of access, SQLite's check) runs on one thread of its own with one connection
(``run_db``): a watching phone holds no connection and no query runs per phone while nothing
changes. A stream sends a ``ping`` every ``PING_SECONDS`` (the page knows the line is alive; a
dead client is found), and nothing else until its game changes; then it waits a moment, at random
up to ``SPREAD_SECONDS``, before it says so, so that the phones of a table do not all ask for the
new live part in the same instant as the phone that saved asks for its page. Each stream's pings keep a
phase of their own (the first after 5-10 s): phones that connected at once (a restart of the
server, a table that opened together) would otherwise all be pinged in the same moment.

Each stream holds a connection, and so a file of the process: a process gives one phone (its device
cookie) at most ``PHONE_STREAMS`` of them and one address ``ADDRESS_STREAMS``; one more is refused
(``TooMany``, 429) before anything is read, and the page polls instead. One client cannot take every
file of a process and shut the server to everyone else.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import Counter
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple

from django.db import DatabaseError, connection

from scorekeeper.table import access
from scorekeeper.table.live import answers, signals
from scorekeeper.table.models import Device, Game

log = logging.getLogger(__name__)

CHECK_SECONDS = 0.25  # SQLite: how often a process compares the watched games' versions
PING_SECONDS = 10  # a stream says it is alive this often (live.js: no word for 25 s, it is stale)
# A stream told its game changed waits a moment, at random up to this long, before it says so:
# the phones of a table then ask for the new live part one by one, not all in the same instant
# (and mostly after the phone that saved has its own page), and a second change meanwhile is
# sent with the first (``events``). A change of access is said at once.
SPREAD_SECONDS = 0.25
RETRY_MS = 1000  # EventSource waits this long before it connects again after a drop
READY_SECONDS = 5  # PostgreSQL: how long a stream waits for the process's LISTEN as it opens
# The streams a process holds for one phone (its device cookie): its open game page, a couple of
# tabs; and for one address: a club's Wi-Fi puts every phone of the evening behind one.
PHONE_STREAMS = 4
ADDRESS_STREAMS = 300


class TooMany(Exception):
    """This phone, or this address, holds as many streams as a process gives one."""


class Seen(NamedTuple):
    """What a watched game's live part changes with: its version and its table's names (both only grow)."""

    version: int
    names: int

    def newest(self, other: Seen) -> Seen:
        return Seen(max(self.version, other.version), max(self.names, other.names))


_db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-db")
_data_version: list[int | None] = [None]  # SQLite's, as the watchers' thread last saw it


def _in_db_thread[T](fn: Callable[..., T], *args: Any) -> T:
    """``fn`` (a read) on the thread's kept connection; once more on a new one when the database had
    dropped that connection (a PostgreSQL restart: no stream ends on it)."""
    try:
        return fn(*args)
    except DatabaseError:
        dropped = connection.connection is not None and not connection.is_usable()
        _let_go()  # the next call connects again (a restarted database, a lost link)
        if not dropped:
            raise
    return fn(*args)


def _let_go() -> None:
    connection.close()
    _data_version[0] = None  # a new connection counts from its own start


async def run_db[T](fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn`` on the watchers' database thread (its own connection, kept)."""
    return await asyncio.get_running_loop().run_in_executor(_db, _in_db_thread, fn, *args)


def close_connection() -> None:
    """Close the watchers' database connection (the next use opens another): a test database is
    dropped only when nobody is connected to it."""
    _db.submit(_let_go).result(10)


class Watch:
    """One open stream: a phone (its devices, from its cookie) watching a game."""

    __slots__ = ("devices", "fresh", "game", "holders", "latest", "recheck", "table", "woken")

    def __init__(self, game: int, devices: list[int], holders: tuple[str, ...] = ()) -> None:
        self.game = game
        self.devices = devices
        self.holders = holders  # what its stream is counted under (``Hub.held``) while it is filed
        self.table: int | None = None  # the game's table, once the stream's first look found it
        self.latest: Seen | None = None  # the newest the hub heard of
        self.recheck = False  # the phone's access (or its table's names) changed: ask the database again
        self.fresh = True  # SQLite: not yet seen by a check
        self.woken = asyncio.Event()

    def offer(self, seen: Seen) -> None:
        if seen != self.latest:
            self.latest = seen
            self.woken.set()

    def check_again(self) -> None:
        self.recheck = True
        self.woken.set()


class Hub:
    """The watches of this process (of its event loop) and the task that brings them news."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.games: dict[int, set[Watch]] = {}
        self.devices: dict[int, set[Watch]] = {}
        self.postgres = connection.vendor == "postgresql"
        self.ready = asyncio.Event()  # PostgreSQL: LISTEN is in place (SQLite: at once)
        self.versions: dict[int, Seen] = {}  # SQLite: the last versions (and tables' names) seen
        self.states: dict[int, tuple[str, bool]] = {}  # SQLite: the devices' (role, revoked) seen
        self.held: Counter[str] = Counter()  # the streams of each phone ("p…") and address ("a…")
        self.task: asyncio.Task[None] | None = None

    @property
    def watching(self) -> int:
        return sum(len(w) for w in self.games.values())

    async def watch(self, game: int, devices: list[int], address: str = "") -> Watch:
        """File a new watch before its first look at the database: no change after it is missed.
        ``TooMany`` when the phone (``devices``: its cookie's) or the ``address`` holds as many
        streams as it may (counted and filed in one step: no other stream opens in between)."""
        holders = (f"a{address}", *([f"p{min(devices)}"] if devices else []))
        if self.held[holders[0]] >= ADDRESS_STREAMS or any(self.held[h] >= PHONE_STREAMS for h in holders[1:]):
            raise TooMany(address)
        if self.task is None or self.task.done():
            self.task = self.loop.create_task(self._listen() if self.postgres else self._check())
        if not self.postgres:
            self.ready.set()
        w = Watch(game, devices, holders)
        self.held.update(holders)
        self.games.setdefault(game, set()).add(w)
        for d in devices:
            self.devices.setdefault(d, set()).add(w)
        if not self.ready.is_set():
            try:
                await asyncio.wait_for(self.ready.wait(), READY_SECONDS)
            except TimeoutError:
                log.warning("live: no LISTEN connection yet; the stream opens all the same")
        return w

    def place(self, w: Watch, table: int) -> None:
        """The watch's game is at this table (its first look found it): a rename there reaches it
        from now on (before, ``names_changed`` wakes every watch not placed yet)."""
        w.table = table

    def forget(self, w: Watch) -> None:
        """The stream ended: its watch leaves the hub (once; a second call does nothing)."""
        self.held.subtract(w.holders)
        for holder in w.holders:
            if self.held[holder] <= 0:
                del self.held[holder]
        w.holders = ()
        for key, index in ((w.game, self.games), *((d, self.devices) for d in w.devices)):
            found = index.get(key)
            if found is not None:
                found.discard(w)
                if not found:
                    del index[key]
                    if index is self.games:
                        self.versions.pop(key, None)
                    else:
                        self.states.pop(key, None)

    def game_changed(self, game: int, seen: Seen) -> None:
        for w in self.games.get(game, ()):
            w.offer(seen)

    def names_changed(self, table: int) -> None:
        """A player of the table was renamed: the watches of its games (and those not placed yet)
        check again. Renames are rare: every watch of the process is looked at."""
        for watches in self.games.values():
            for w in watches:
                if w.table is None or w.table == table:
                    w.check_again()

    def device_changed(self, device: int) -> None:
        for w in self.devices.get(device, ()):
            w.check_again()

    def everyone_again(self) -> None:
        for watches in self.games.values():
            for w in watches:
                w.check_again()

    def heard(self, payload: str) -> None:
        """A NOTIFY of ``signals.games_changed``, ``signals.names_changed`` or ``signals.devices_changed``."""
        try:
            if payload.startswith("g"):
                game, version, names = payload[1:].split(":")
                self.game_changed(int(game), Seen(int(version), int(names)))
            elif payload.startswith("n"):
                self.names_changed(int(payload[1:]))
            elif payload.startswith("d"):
                self.device_changed(int(payload[1:]))
        except ValueError:
            log.warning("live: a notification not understood: %r", payload)

    async def _listen(self) -> None:
        """PostgreSQL: LISTEN on one connection of this process, for ever (again after a loss)."""
        import psycopg

        params = connection.get_connection_params()
        for key in ("cursor_factory", "context", "prepare_threshold", "server_side_binding", "pool"):
            params.pop(key, None)
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(**params, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {signals.CHANNEL}")
                    if self.ready.is_set():
                        self.everyone_again()  # reconnected: what was sent meanwhile is lost
                    self.ready.set()
                    async for note in conn.notifies():
                        self.heard(note.payload)
            except (psycopg.Error, OSError) as exc:
                log.warning("live: the LISTEN connection failed (%s); connecting again", exc)
            await asyncio.sleep(1)

    async def _check(self) -> None:
        """SQLite: compare the watched games' versions and devices' states, for every watch at once."""
        while True:
            await asyncio.sleep(CHECK_SECONDS)
            if not self.games:
                continue
            try:
                found = await run_db(_read, list(self.games), list(self.devices))
            except DatabaseError as exc:
                log.warning("live: checking the versions failed (%s)", exc)
                continue
            if found is not None:
                self._compare(*found)

    def _compare(self, versions: dict[int, Seen], states: dict[int, tuple[str, bool]]) -> None:
        """SQLite: what a check read, against what the last one read: the watches of a game that
        changed (or are new) are offered its version, those of a game gone check again (their
        stream says so), and the watches of a phone whose access changed check it again."""
        for game, watches in self.games.items():
            self._compare_game(game, versions.get(game), watches)
        for device, state in states.items():
            seen = self.states.get(device)
            self.states[device] = state
            if seen != state and (seen is not None or state[1]):  # a device seen taken off at once: check too
                self.device_changed(device)
        for watches in self.games.values():
            for w in watches:
                w.fresh = False

    def _compare_game(self, game: int, version: Seen | None, watches: set[Watch]) -> None:
        if version is None:
            for w in watches:
                w.check_again()  # no such game any more: the stream says so
            return
        changed = self.versions.get(game) != version
        self.versions[game] = version
        for w in watches:
            if changed or w.fresh:
                w.offer(version)


def _read(games: list[int], devices: list[int]) -> tuple[dict[int, Seen], dict[int, tuple[str, bool]]] | None:
    """The games' versions and their tables' names, and the devices' (role, taken off), or None
    when no other connection wrote to the database since the last look (SQLite's ``data_version``:
    a table that plays nothing costs this process one pragma per check)."""
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA data_version")
        (now,) = cursor.fetchone()
    if now == _data_version[0]:
        return None
    _data_version[0] = now
    versions = {
        pk: Seen(version, names)
        for pk, version, names in Game.objects.filter(pk__in=games).values_list("pk", "version", "table__names")
    }
    states = {
        pk: (role, revoked is not None)
        for pk, role, revoked in Device.objects.filter(pk__in=devices).values_list("pk", "role", "revoked")
    }
    return versions, states


_hub: Hub | None = None


def hub() -> Hub:
    """This process's hub (one per event loop: a server has one)."""
    global _hub
    loop = asyncio.get_running_loop()
    if _hub is None or _hub.loop is not loop:
        _hub = Hub(loop)
    return _hub


# A stream's headers: its type, never cached, and passed on by a proxy (nginx) event by event.
HEADERS = {"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


class Stream:
    """A phone's stream as its response holds it: the events, and the watch let go of when Django
    closes the response, or drops it unsent — when the phone went away before the first event, the
    events' own ``finally`` never runs, and the stream would stay counted against the phone."""

    def __init__(self, h: Hub, w: Watch, events: AsyncGenerator[bytes]) -> None:
        self.h, self.w, self.events = h, w, events
        self.closed = False

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self.events

    def close(self) -> None:
        """Called by Django as it closes the response, from a thread of its own, or by the garbage
        collector when Django dropped the response (the phone left while the view still ran, in
        the middleware's thread): the hub is the event loop's."""
        if not self.closed:
            self.closed = True
            with contextlib.suppress(RuntimeError):  # the loop is closed: its hub went with it
                self.h.loop.call_soon_threadsafe(self.h.forget, self.w)

    __del__ = close


async def open_stream(devices: list[int], game: int, language: str, address: str = "") -> Stream | None:
    """The stream of a phone (its ``devices``, from its cookie; its ``address``) watching ``game``,
    in ``language``; None when the phone is not (or no longer) at the game's table; ``TooMany``
    when the phone or its address holds as many streams as it may. The watch is filed before the
    access check reads the game: a save after this point is not missed."""
    h = hub()
    w = await h.watch(game, devices, address)
    try:
        found = await run_db(access.live_state, devices, game)
    except BaseException:
        h.forget(w)
        raise
    if found is None:
        h.forget(w)
        return None
    h.place(w, found.table)  # a rename at its table reaches it from now on
    return Stream(h, w, events(h, w, found, language))


def event(name: str, data: str = "") -> bytes:
    return f"event: {name}\ndata: {data}\n\n".encode()


async def events(h: Hub, w: Watch, state: access.LiveState, language: str) -> AsyncGenerator[bytes]:
    """The stream of one phone: the validator of the live part it should hold (``change``) at
    once and whenever it changes, ``gone`` when the phone lost its access, and a ``ping`` now and
    then. Ends when the phone goes away (Django cancels it) or lost its access."""
    sent = None
    seen, role = Seen(state.version, state.names), state.role
    loop = asyncio.get_running_loop()
    ping_at = loop.time() + random.uniform(PING_SECONDS / 2, PING_SECONDS)
    try:
        yield f"retry: {RETRY_MS}\n\n".encode()
        while True:
            w.woken.clear()
            if w.recheck:
                w.recheck = False
                found = await run_db(access.live_state, w.devices, w.game)
                if found is None:
                    yield event("gone")
                    return
                seen, role = Seen(found.version, found.names), found.role
                w.latest = seen
            elif w.latest is not None:
                seen = seen.newest(w.latest)  # a check begun before the stream's own look
            tag = answers.etag(seen.version, seen.names, role, partial=True, language=language)
            if tag != sent:
                yield event("change", tag)
                sent = tag
            try:
                await asyncio.wait_for(w.woken.wait(), max(0.0, ping_at - loop.time()))
            except TimeoutError:
                yield event("ping")
                ping_at = loop.time() + PING_SECONDS
            else:
                await _spread(w, loop.time() + random.uniform(0, SPREAD_SECONDS))
    finally:
        h.forget(w)


async def _spread(w: Watch, until: float) -> None:
    """Wait until ``until`` (``SPREAD_SECONDS``) before the stream says its game changed, unless
    the phone's access is to be checked again (that is said at once)."""
    loop = asyncio.get_running_loop()
    while not w.recheck and (left := until - loop.time()) > 0:
        w.woken.clear()
        try:
            await asyncio.wait_for(w.woken.wait(), left)
        except TimeoutError:
            return
