"""Live game pages: what a watching phone costs the server, how fast a save reaches the others, and
what the watchers cost a save — the live channel (server-sent events under ASGI) beside the poll it
replaced (WSGI, every second, ``If-None-Match``), in one run.

The app runs as ``make run`` serves it (``manage.py serve``: gunicorn with uvicorn workers, two
processes, debug off) on a SQLite file, with the benchmarks' URLs (a bare view beside the pages);
the poll runs under what ``make run`` served before (gunicorn, gthread, two processes of four
threads, kept connections) on the same database. Tables of four phones (one scoring, three
following) watch a game each. The phones are played by a process of their own (``Phones``: one
asyncio loop of raw sockets, uvloop as the server's): a stream per phone that fetches the game's
live part, as ``static/live.js`` does, whenever the stream says it changed — but for the scoring
phone's own saves: its browser lands on the page the save redirects to (which this process times)
and opens a new stream there. They share the two cores with the server and with this process,
which times the saves, but hold no lock it waits for (in this process, as before, their event loop
delayed the saves' own answers); their CPU is shown.

Figures, all on this machine (2 cores, the clients included):

- CPU: the server processes' CPU time (user + system, from /proc) over an interval, per request
  for the bare view and the poll, per phone and second for a phone watching through its stream.
- a stream's opening and closing: the server's CPU for one, as every visit of a game page costs
  it (the request, the access check, the first events, the phone going away).
- a save: the scoring phone's POST of the deal form and the GET of the page it lands on (what the
  phone waits for), one at a time, up to half a second apart, on the watched games; p99 with no
  phone watching and with ``BENCH_LIVE_FEW`` (200) watching, the poll's and the stream's. The
  machine is shared and its other work comes and goes: ``BENCH_LIVE_ROUNDS`` (5) rounds of
  ``BENCH_LIVE_SAVES`` (100) saves alone and 100 watched, in turn (alone first, then watched
  first, ...); the figure is the p99 of every watched save over the p99 of every save alone (500
  each), with each round's own ratio beside it (a p99 of 100 saves is the second slowest: one
  stall of the machine, a checkpoint of the database, decides it, and the rounds' ratios went
  from 0.54 to 1.84 in one quiet run).
- a save reaching the other phones: from the POST sent to each of the three other phones having
  fetched the new live part, with ``BENCH_LIVE_PHONES`` (1,000) phones watching.
- granian in gunicorn's place, when it is importable (``pip install granian``; not a dependency of
  the app): the same app and environment, two processes; its CPU per bare view, 304 poll and
  stream, and with every phone watching — the figures ``make run``'s server was chosen by.
"""

from __future__ import annotations

import asyncio
import http.client
import importlib.util
import json
import os
import random
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks import procs

PHONES = int(os.environ.get("BENCH_LIVE_PHONES", "1000"))
FEW = int(os.environ.get("BENCH_LIVE_FEW", "200"))
PER_TABLE = 4
SAVES = int(os.environ.get("BENCH_LIVE_SAVES", "100"))  # a round's saves, alone and watched: a p99 each
ROUNDS = int(os.environ.get("BENCH_LIVE_ROUNDS", "5"))  # the streams' rounds (the figure: their saves together)
WSGI_ROUNDS = 2  # the poll's (the figure before: no target)
WATCH_SECONDS = float(os.environ.get("BENCH_LIVE_SECONDS", "20"))  # two of the streams' pings

# Tables with a game each, their scoring phone and three following phones: the game ids and cookies.
SEED = """
import json
from django.http import HttpResponse
from django.test import RequestFactory
from scorekeeper.table import access
from scorekeeper.table.games.services import create_game
from scorekeeper.table.phones.services import create_table
from scorekeeper.table.models import Device, Role
from tests.phones import OPTIONS, PLAYERS

def cookie(device):
    response = HttpResponse()
    access.remember(response, RequestFactory().get("/"), device)
    return response.cookies[access.COOKIE].value

tables = []
for t in range(%(tables)d):
    table, scorer = create_table(name=f"Table {t}", device_name="Scorer")
    game = create_game(
        table=table, kind="oklahoma", profile="book", options=OPTIONS, players=PLAYERS, by=scorer
    )
    others = [Device.objects.create(table=table, name=f"Phone {k}", role=Role.FOLLOW) for k in range(%(followers)d)]
    tables.append({"game": game.pk, "scorer": cookie(scorer), "followers": [cookie(d) for d in others]})
print(json.dumps(tables))
"""


def _rss_mb(pids: list[int]) -> float:
    total = 0
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except FileNotFoundError:
            pass
    return total / 1024


class Cpu:
    def __init__(self, pid: int) -> None:
        self.pids = procs.family(pid)

    def now(self) -> float:
        return sum(procs.cpu_seconds(p) for p in self.pids)


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


# ------------------------------------------------------------------------------------ request loops


def _per_request(port: int, path: str, headers: dict[str, str], cpu: Cpu, seconds: float = 3.0) -> float:
    """Server CPU ms per request, 4 keep-alive clients asking as fast as they are answered."""
    counts: list[int] = []
    stop = time.monotonic() + seconds

    def loop() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        done = 0
        while time.monotonic() < stop:
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            response.read()
            assert response.status in (200, 304), response.status
            done += 1
        conn.close()
        counts.append(done)

    threads = [threading.Thread(target=loop) for _ in range(4)]
    before = cpu.now()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return (cpu.now() - before) / sum(counts) * 1e3


def _saves(
    port: int, tables: list[dict[str, Any]], count: int, *, gap: float = 0.0
) -> Iterator[tuple[int, float, float]]:
    """``count`` saves by the tables' scoring phones in turn: (game, when the POST was sent, seconds
    the phone waited for the POST and the page it lands on)."""
    from tests.phones import Phone, deal_fields, form_fields

    base = f"http://127.0.0.1:{port}"
    phones = [Phone(base, {"sk_devices": t["scorer"]}) for t in tables]
    for i in range(count):
        k = i % len(tables)
        game = tables[k]["game"]
        path = f"/games/{game}/deals/new/"
        page = phones[k].get(path)
        assert page.status == 200, page.status
        data = {**form_fields(page.body, path), **deal_fields(i % 1000), "action": "save"}
        if gap:
            time.sleep(random.uniform(0, gap))  # the saves fall anywhere in the servers' check interval
        began = time.monotonic()
        answer = phones[k].post(path, data)
        assert answer.status == 302, (answer.status, answer.body[:300])
        landed = phones[k].get(answer.location)
        assert landed.status == 200, landed.status
        yield game, began, time.monotonic() - began


def _save_times(port: int, tables: list[dict[str, Any]], count: int) -> list[float]:
    """A save's wait, ``count`` saves up to half a second apart (a table saves every few minutes:
    back to back, each save would meet the fetches the one before set off, on 2 cores)."""
    return [waited for _, _, waited in _saves(port, tables, count, gap=0.5)]


# ------------------------------------------------------------------------------------ watching phones


@dataclass
class Watcher:
    game: int
    cookie: str
    etag: str = ""
    fetched: list[tuple[int, float]] = field(default_factory=list)  # (version seen, when)
    events: int = 0
    saves: bool = False  # the table's scoring phone: here the only phone that writes to its game
    address: str = "127.0.0.1"  # where it connects from: a phone of its own on the Wi-Fi (``phone_address``)


def phone_address(n: int) -> str:
    """Phone ``n``'s own loopback address, as each phone on a Wi-Fi has its own: a process holds a
    few hundred streams for one address (``hub.ADDRESS_STREAMS``), and the watching phones here
    are a thousand."""
    return f"127.1.{n // 250}.{n % 250 + 1}"


async def _http(
    port: int, request: str, address: str = "127.0.0.1"
) -> tuple[int, dict[str, str], asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    writer.write(request.encode())
    status = int((await reader.readline()).split()[1])
    headers: dict[str, str] = {}
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode().partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, reader, writer


async def _fetch(port: int, w: Watcher) -> None:
    """The live part, as live.js asks for it (htmx, If-None-Match)."""
    request = (
        f"GET /games/{w.game}/ HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: sk_devices={w.cookie}\r\n"
        f"HX-Request: true\r\nIf-None-Match: {w.etag or 'none'}\r\nConnection: close\r\n\r\n"
    )
    status, headers, reader, writer = await _http(port, request, w.address)
    await reader.read()
    writer.close()
    if status == 200:
        w.etag = headers["etag"]
        w.fetched.append((int(w.etag.split('"g')[1].split("-")[0].split(".")[0]), time.monotonic()))  # g<v>.<names>
    elif status != 304:
        raise RuntimeError(f"live part: {status}")


async def _sse_events(reader: asyncio.StreamReader, chunked: bool) -> Any:
    buffer = b""
    while True:
        if chunked:
            size = int((await reader.readline()).strip() or b"0", 16)
            if size == 0:
                return
            buffer += (await reader.readexactly(size + 2))[:-2]
        else:
            data = await reader.read(4096)
            if not data:
                return
            buffer += data
        while b"\n\n" in buffer:
            block, buffer = buffer.split(b"\n\n", 1)
            name, data_line = "message", ""
            for line in block.decode().splitlines():
                if line.startswith("event:"):
                    name = line[6:].strip()
                elif line.startswith("data:"):
                    data_line = line[5:].strip()
            yield name, data_line


def _stream_request(game: int, cookie: str) -> str:
    """A phone's request for its game's stream, as EventSource sends it."""
    return (
        f"GET /games/{game}/events/ HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: sk_devices={cookie}\r\n"
        "Accept: text/event-stream\r\n\r\n"
    )


async def _watch(port: int, w: Watcher, opened: asyncio.Event) -> None:
    """A phone's stream, as live.js holds it: the live part fetched whenever it changed. The scoring
    phone's changes are its own saves: its browser lands on the game page the save redirects to
    (which holds the new version: the timing process fetches it) and opens a new stream there."""
    request = _stream_request(w.game, w.cookie)
    landed = True
    while landed:
        landed = False
        status, headers, reader, writer = await _http(port, request, w.address)
        if status != 200:
            raise RuntimeError(f"stream: {status}")
        try:
            async for name, data in _sse_events(reader, headers.get("transfer-encoding") == "chunked"):
                w.events += 1
                if name == "change":
                    if data != w.etag and w.saves and w.etag:
                        w.etag, landed = data, True
                        break
                    if data != w.etag:
                        await _fetch(port, w)
                    opened.set()
        finally:
            writer.close()


class _Loop:
    """Watching phones on an event loop (a thread of the phones' process), streams or polls."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.loop: asyncio.AbstractEventLoop
        try:
            import uvloop  # what uvicorn runs on: the least CPU a phone's socket costs here

            self.loop = uvloop.new_event_loop()
        except ImportError:
            self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.watchers: list[Watcher] = []
        self.tasks: list[Any] = []

    def run(self, coro: Any, timeout: float = 120) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def stream(self, tables: list[dict[str, Any]]) -> None:
        """Every phone of these tables opens its stream (a hundred at a time) and fetches its part."""

        async def open_all() -> None:
            for start in range(0, len(tables) * PER_TABLE, 100):
                batch = []
                for t in tables[start // PER_TABLE : (start + 100) // PER_TABLE]:
                    for cookie in (t["scorer"], *t["followers"]):
                        w = Watcher(t["game"], cookie, saves=cookie == t["scorer"])
                        w.address = phone_address(len(self.watchers))
                        opened = asyncio.Event()
                        self.watchers.append(w)
                        self.tasks.append(asyncio.ensure_future(_watch(self.port, w, opened)))
                        batch.append(opened.wait())
                await asyncio.wait_for(asyncio.gather(*batch), 60)

        self.run(open_all())

    def poll(self, tables: list[dict[str, Any]]) -> None:
        """Every phone of these tables asks for its part every second (the poll this replaced)."""

        async def every_second(w: Watcher) -> None:
            await asyncio.sleep(random.random())
            while True:
                began = time.monotonic()
                await _fetch(self.port, w)
                await asyncio.sleep(max(0.0, 1 - (time.monotonic() - began)))

        async def start() -> None:
            for t in tables:
                for cookie in (t["scorer"], *t["followers"]):
                    w = Watcher(t["game"], cookie, address=phone_address(len(self.watchers)))
                    self.watchers.append(w)
                    self.tasks.append(asyncio.ensure_future(every_second(w)))

        self.run(start())

    def stop(self) -> None:
        async def cancel() -> None:
            for task in self.tasks:
                task.cancel()
            await asyncio.gather(*self.tasks, return_exceptions=True)

        self.run(cancel())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        failed = [t for t in self.tasks if t.done() and not t.cancelled() and t.exception()]
        if failed:
            raise RuntimeError(f"{len(failed)} phones failed: {failed[0].exception()!r}")


def _phones_process(conn: Any, port: int) -> None:
    """The phones' process: does what the benchmark's process asks (``Phones``), answers each."""
    phones = _Loop(port)
    while True:
        command, *args = conn.recv()
        try:
            getattr(phones, command)(*args)
            conn.send(phones.watchers if command == "stop" else None)
        except Exception as exc:  # told to the benchmark's process, which raises it
            conn.send(RuntimeError(f"phones: {exc!r}"))
        if command == "stop":
            return


class Phones:
    """Watching phones in a process of their own: one event loop of raw sockets (``_Loop``). The
    phones share the machine's two cores with the server, as the benchmark's process does: in a
    process of their own they hold no lock the process timing the saves waits for (Python's GIL),
    and their CPU is measured (``cpu``) and reported beside the server's."""

    def __init__(self, port: int) -> None:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_phones_process, args=(child, port), daemon=True)
        self.process.start()
        child.close()
        self.watchers: list[Watcher] = []

    def _ask(self, *command: Any) -> Any:
        self.conn.send(command)
        answer = self.conn.recv()
        if isinstance(answer, Exception):
            raise answer
        return answer

    def stream(self, tables: list[dict[str, Any]]) -> None:
        self._ask("stream", tables)

    def poll(self, tables: list[dict[str, Any]]) -> None:
        self._ask("poll", tables)

    def cpu(self) -> float:
        """The phones' process's CPU seconds so far."""
        return procs.cpu_seconds(self.process.pid or 0)

    def stop(self) -> None:
        """Every phone stops; ``watchers`` then holds what each fetched and when."""
        self.watchers = self._ask("stop")
        self.process.join(10)
        self.conn.close()


# ------------------------------------------------------------------------------------ servers


@contextmanager
def _server(tmp: Path, kind: str) -> Iterator[tuple[int, Cpu, Callable[[int], list[dict[str, Any]]]]]:
    from tests.server import app

    port = app.free_port()
    env = app_env = app.app_env(tmp, DJANGO_SETTINGS_MODULE="benchmarks.bench_settings")
    if kind == "asgi":  # make run
        command = [sys.executable, str(app.ROOT / "manage.py"), "serve", "--bind", "127.0.0.1", "--port", str(port)]
    else:  # what make run served before (WSGI, gthread), or granian in its place: kept connections
        env = {
            **app_env,
            "DJANGO_DEBUG": "0",
            "DJANGO_STATIC_MANIFEST": "1",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DATABASE_CONN_MAX_AGE": "600",
        }
        if kind == "granian":  # the same ASGI app and threads as make run, two processes
            command = [
                *(sys.executable, "-m", "granian", "--interface", "asgi", "--loop", "uvloop", "--workers", "2"),
                *("--host", "127.0.0.1", "--port", str(port), "--log-level", "warning", "scorekeeper.asgi:application"),
            ]
        else:
            command = [
                *(sys.executable, "-m", "gunicorn", "scorekeeper.wsgi:application", "--bind", f"127.0.0.1:{port}"),
                *("--workers", "2", "--threads", "4", "--worker-class", "gthread", "--log-level", "warning"),
            ]
        app.manage(env, "collectstatic", "--noinput", "--verbosity", "0")  # serve does it for make run
    server = app.start(tmp, command=command, port=port, env=env)
    try:

        def seed(tables: int) -> list[dict[str, Any]]:
            done = server.manage("shell", "-c", SEED % {"tables": tables, "followers": PER_TABLE - 1})
            assert done.returncode == 0, done.stderr
            return list(json.loads(done.stdout.strip().splitlines()[-1]))

        time.sleep(1)  # the workers are up
        yield port, Cpu(server.process.pid), seed
    finally:
        server.stop()


def _bare_and_poll(port: int, cpu: Cpu, table: dict[str, Any]) -> tuple[float, float]:
    bare = _per_request(port, "/bench/bare/", {}, cpu)
    headers = {"HX-Request": "true", "Cookie": f"sk_devices={table['followers'][0]}"}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", f"/games/{table['game']}/", headers=headers)
    first = conn.getresponse()
    first.read()
    conn.close()
    poll = _per_request(port, f"/games/{table['game']}/", {**headers, "If-None-Match": first.headers["ETag"]}, cpu)
    return bare, poll


def _stream_opening(port: int, cpu: Cpu, table: dict[str, Any], count: int = 300) -> float:
    """Server CPU ms for a stream's opening and closing, as each visit of a game page costs it:
    the request, the access check, the first events, then the phone goes (one at a time)."""
    request = _stream_request(table["game"], table["followers"][0]).encode()
    before = cpu.now()
    for _ in range(count):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(request)
            data = b""
            while b"event: change" not in data:
                part = sock.recv(4096)
                if not part:
                    raise RuntimeError(f"stream: closed before its first change: {data[:100]!r}")
                data += part
    time.sleep(0.3)  # each stream's end, after its phone went
    return (cpu.now() - before) / count * 1e3


def _rounds(
    port: int, tables: list[dict[str, Any]], watch: Callable[[Phones], None], rounds: int
) -> list[tuple[list[float], list[float], float]]:
    """A save's wait (``SAVES`` saves each time) with no phone watching and with the phones
    ``watch`` sets going, in ``rounds`` rounds that alternate which comes first (alone then
    watched, watched then alone, ...): the two halves of a round meet the same load of the
    machine's other work, as far as one run can tell. Each round: (alone, watched, the phones'
    process's CPU ms per save)."""
    done = []
    for r in range(rounds):
        waits: dict[str, list[float]] = {}
        for kind in ("alone", "watched") if r % 2 == 0 else ("watched", "alone"):
            if kind == "alone":
                waits[kind] = _save_times(port, tables, SAVES)
                continue
            phones = Phones(port)
            watch(phones)
            time.sleep(1)
            before = phones.cpu()
            waits[kind] = _save_times(port, tables, SAVES)
            client = (phones.cpu() - before) / SAVES * 1e3
            phones.stop()
        done.append((waits["alone"], waits["watched"], client))
    return done


def _save_figures(done: list[tuple[list[float], list[float], float]]) -> dict[str, Any]:
    """A save's p99 alone and watched over every round's saves (the figure: a p99 of one round's
    100 saves is its second slowest, and one stall of the machine decides it), and each round's
    ratio beside it (a round's two halves share the machine's load); p50s over every round."""
    alone = [t for a, _, _ in done for t in a]
    watched = [t for _, w, _ in done for t in w]
    return {
        "ratio": _p99(watched) / _p99(alone),
        "ratios": [_p99(w) / _p99(a) for a, w, _ in done],
        "alone": _p99(alone),
        "watched": _p99(watched),
        "alone_p50": statistics.median(alone),
        "watched_p50": statistics.median(watched),
        "client": statistics.median(c for _, _, c in done),
    }


def _wsgi(tmp: Path) -> dict[str, Any]:
    """The poll under WSGI: a 304's CPU, a save's p99 with none and FEW phones polling."""
    with _server(tmp, "wsgi") as (port, cpu, seed):
        tables = seed(FEW // PER_TABLE)
        bare, poll = _bare_and_poll(port, cpu, tables[0])
        saves = _save_figures(_rounds(port, tables, lambda phones: phones.poll(tables), WSGI_ROUNDS))
    return {"bare": bare, "poll": poll, **saves}


def _watching(phones: Phones, cpu: Cpu, tables: list[dict[str, Any]]) -> tuple[float, float]:
    """Every table's phones watching, no save: the server's RSS (MB) and its CPU ms a phone a second."""
    phones.stream(tables)
    time.sleep(1)
    rss = _rss_mb(cpu.pids)
    before, began = cpu.now(), time.monotonic()
    time.sleep(WATCH_SECONDS)
    return rss, (cpu.now() - before) / (time.monotonic() - began) / (len(tables) * PER_TABLE) * 1e3


def _granian(tmp: Path) -> dict[str, Any]:
    """The same app under granian (ASGI, two processes) in make run's place: the figures of a server
    with no saves, to choose between them."""
    results: dict[str, Any] = {}
    with _server(tmp, "granian") as (port, cpu, seed):
        tables = seed(PHONES // PER_TABLE)
        results["bare"], results["poll"] = _bare_and_poll(port, cpu, tables[0])
        results["opening"] = _stream_opening(port, cpu, tables[0])
        phones = Phones(port)
        results["rss"], results["watching"] = _watching(phones, cpu, tables)
        phones.stop()
    return results


def _asgi(tmp: Path) -> dict[str, Any]:
    results: dict[str, Any] = {}
    with _server(tmp, "asgi") as (port, cpu, seed):
        tables = seed(PHONES // PER_TABLE)
        few = tables[: FEW // PER_TABLE]
        results["bare"], results["poll"] = _bare_and_poll(port, cpu, tables[0])
        results["opening"] = _stream_opening(port, cpu, tables[0])
        # A save's p99, with none watching and FEW watching, in interleaved rounds.
        results.update(_save_figures(_rounds(port, few, lambda phones: phones.stream(few), ROUNDS)))
        # Every phone watching: the CPU of doing nothing, then saves reaching the others.
        phones = Phones(port)
        results["rss"], results["watching"] = _watching(phones, cpu, tables)
        count = len(tables) * PER_TABLE
        sent: dict[int, float] = {}
        before, began = cpu.now(), time.monotonic()
        for game, at, _ in _saves(port, random.sample(tables, min(SAVES, len(tables))), SAVES, gap=0.5):
            sent[game] = at
        time.sleep(1.5)
        results["saves_seconds"] = time.monotonic() - began
        results["with_saves"] = (cpu.now() - before) / (time.monotonic() - began) / count * 1e3
        phones.stop()
        reached, missing = _reached(tables, phones.watchers, sent)
        results["reach_p50"] = statistics.median(reached)
        results["reach_p99"] = _p99(reached)
        results["reach_missing"] = missing
        results["reached"] = len(reached)
    return results


def _reached(tables: list[dict[str, Any]], watchers: list[Watcher], sent: dict[int, float]) -> tuple[list[float], int]:
    """Seconds from each save ``sent`` (a game's, at a time) to each of its table's followers having
    fetched the live part after it; and how many followers never did."""
    reached = []
    missing = 0
    for t in tables:
        if t["game"] not in sent:
            continue
        followers = [w for w in watchers if w.game == t["game"] and w.cookie in t["followers"]]
        for w in followers:
            seconds = _reach(w, sent[t["game"]])
            if seconds is None:
                missing += 1
            else:
                reached.append(seconds)
    return reached, missing


def _reach(watcher: Watcher, sent: float) -> float | None:
    """Seconds from a save sent at ``sent`` to the watcher's first fetch after it (None: none)."""
    after = [when for _, when in watcher.fetched if when >= sent]
    return after[0] - sent if after else None


def _ratios(found: dict[str, Any]) -> str:
    rounds = ", ".join(f"{r:.2f}" for r in found["ratios"])
    n = len(found["ratios"])
    return f"{found['ratio']:.2f}x over {n} rounds of {SAVES} saves each; each round's: {rounds}"


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-live-") as tmp_name:
        tmp = Path(tmp_name)
        (tmp / "wsgi").mkdir()
        (tmp / "asgi").mkdir()
        (tmp / "granian").mkdir()
        before = _wsgi(tmp / "wsgi")
        after = _asgi(tmp / "asgi")
        granian = _granian(tmp / "granian") if importlib.util.find_spec("granian") else None

    print("before: the page polls every second under WSGI (gunicorn gthread, 2 x 4 threads, SQLite)")
    print(f"  a 304 poll: {before['poll']:.2f} ms CPU (bare view {before['bare']:.2f} ms): a watching phone")
    print(f"    costs {before['poll']:.2f} ms CPU a second")
    print(
        f"  a save's p99: {before['alone'] * 1e3:.0f} ms alone, {before['watched'] * 1e3:.0f} ms with {FEW} polling"
        f" ({_ratios(before)}; p50 {before['alone_p50'] * 1e3:.0f} and {before['watched_p50'] * 1e3:.0f} ms)"
    )
    print("after: one stream of server-sent events per phone under ASGI (make run: gunicorn + uvicorn, 2 workers)")
    print(f"  a 304 poll (browsers without EventSource): {after['poll']:.2f} ms CPU (bare view {after['bare']:.2f} ms)")
    print(f"  a stream's opening and closing (each visit of a page): {after['opening']:.2f} ms CPU")
    print(
        f"  a save's p99: {after['alone'] * 1e3:.0f} ms alone, {after['watched'] * 1e3:.0f} ms with {FEW} watching"
        f" ({_ratios(after)}; target <= 1.2x; p50 {after['alone_p50'] * 1e3:.0f}"
        f" and {after['watched_p50'] * 1e3:.0f} ms; the phones' own process {after['client']:.1f} ms CPU a save)"
    )
    print(
        f"  {PHONES} phones watching ({PHONES // PER_TABLE} tables of {PER_TABLE}): server RSS {after['rss']:.0f} MB;"
        f" with {SAVES} saves in {after['saves_seconds']:.0f} s, {after['with_saves']:.3f} ms CPU a phone a second"
    )
    print(
        f"  a save reaching the other phones (live part fetched): p50 {after['reach_p50'] * 1e3:.0f} ms,"
        f" p99 {after['reach_p99'] * 1e3:.0f} ms over {after['reached']} phones"
        f" ({after['reach_missing']} never reached; target p99 <= 1000 ms)"
    )
    if granian is None:
        print("granian instead (not installed: `pip install granian` for the side-by-side figures)")
    else:
        print("granian instead (ASGI, 2 processes, the same app; no saves):")
        print(
            f"  bare view {granian['bare']:.2f} ms CPU, a 304 poll {granian['poll']:.2f} ms, a stream's opening and"
            f" closing {granian['opening']:.2f} ms; {PHONES} phones watching: {granian['watching']:.3f} ms CPU a phone"
            f" a second, RSS {granian['rss']:.0f} MB"
        )
    print(f"watching phone: {after['watching']:.3f} ms CPU a second (bare view {after['bare']:.3f} ms)")
