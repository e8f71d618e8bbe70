"""The live channel as ``make run`` serves it (``manage.py serve``: gunicorn with uvicorn workers):
a watching phone's stream of server-sent events says "changed" within a second of a save made
through the deal form, refuses a stranger and a phone taken off the table (which it tells at once,
as it holds the stream), and a stream opened again after a drop starts from the game as it is.

With PostgreSQL (``DATABASE_URL`` names one, as in ``make test``'s second run): two app servers on
one database, a phone watching through one sees a save made through the other within a second
(LISTEN/NOTIFY, no broker), and the per-client limits count across both (the database's cache)."""

from __future__ import annotations

import json
import os
import re
import shutil
import ssl
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from scorekeeper.guards import limits
from tests import postgres
from tests.phones import Phone, connection, form_fields, save_deal
from tests.server import app, deploy

PLAYERS = ["Ann", "Ben", "Cleo"]


class Stream:
    """A phone's EventSource, by hand: the events as they come (``tls``, ``at``: phones.connection)."""

    def __init__(
        self,
        server: app.AppServer | str,
        game: int,
        cookie: str | None,
        *,
        headers: dict[str, str] | None = None,
        tls: ssl.SSLContext | None = None,
        at: str | None = None,
    ) -> None:
        base = server if isinstance(server, str) else server.url
        self.conn = connection(base, timeout=10, tls=tls, at=at)
        headers = {"Host": urlsplit(base).netloc, **(headers or {})}
        headers.update({"Accept": "text/event-stream", "Accept-Encoding": "gzip, deflate"})
        if cookie:
            headers["Cookie"] = f"sk_devices={cookie}"
        self.conn.request("GET", f"/games/{game}/events/", headers=headers)
        self.response = self.conn.getresponse()
        self.status = self.response.status

    def next(self, within: float) -> tuple[str, str]:
        """The next event other than a ping, within ``within`` seconds."""
        deadline = time.monotonic() + within
        name, data = "message", ""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no event")
            assert self.conn.sock is not None
            self.conn.sock.settimeout(left)
            line = self.response.readline().decode()
            if not line:
                raise EOFError("the stream ended")
            line = line.rstrip("\n")
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data = line[5:].strip()
            elif line == "" and name != "message":
                if name != "ping":
                    return name, data
                name, data = "message", ""

    def close(self) -> None:
        self.conn.close()


def _device(cookie: str) -> int:
    return int(cookie.split(":")[0])


def _part(
    server: app.AppServer | str,
    game: int,
    cookie: str,
    tag: str,
    *,
    headers: dict[str, str] | None = None,
    tls: ssl.SSLContext | None = None,
    at: str | None = None,
) -> tuple[int, str]:
    base = server if isinstance(server, str) else server.url
    conn = connection(base, timeout=10, tls=tls, at=at)
    headers = {"Host": urlsplit(base).netloc, **(headers or {})}
    headers.update({"Cookie": f"sk_devices={cookie}", "HX-Request": "true", "If-None-Match": tag})
    conn.request("GET", f"/games/{game}/", headers=headers)
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.status, response.getheader("ETag") or ""


def _serve(tmp: Path, env: dict[str, str] | None = None) -> app.AppServer:
    port = app.free_port()
    command = [sys.executable, str(app.ROOT / "manage.py"), "serve", "--bind", "127.0.0.1", "--port", str(port)]
    return app.start(tmp, command=[*command, "--workers", "1"], port=port, env=env)


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[app.AppServer]:
    server = _serve(tmp_path_factory.mktemp("live"))
    yield server
    server.stop()


def test_a_save_reaches_the_watching_phone_within_a_second(served):
    seeded = served.seed(PLAYERS, watcher=True)
    game, watcher = seeded["game"], seeded["watcher_cookie"]
    stream = Stream(served, game, watcher)
    try:
        assert stream.status == 200
        assert stream.response.getheader("Content-Type", "").startswith("text/event-stream")
        assert stream.response.getheader("Content-Encoding") is None  # each event as it is sent
        name, first = stream.next(5)
        assert name == "change" and first.startswith('W/"g') and "-follow-" in first
        assert _part(served, game, watcher, first)[0] == 304  # the page holds it already

        saved, _, why = save_deal(Phone(served.url, {"sk_devices": seeded["cookie"]}), game, 1)
        assert saved, why
        began = time.monotonic()
        name, second = stream.next(5)
        assert time.monotonic() - began < 1.0
        assert name == "change" and second != first
        status, tag = _part(served, game, watcher, first)  # the page fetches its live part
        assert status == 200 and tag == second
    finally:
        stream.close()


# Ends the seeded game (as a save of its last deal would: its version bumped, its watchers told);
# renames Ann at its table.
FINISH = (
    "from django.db.models import F; from scorekeeper.table.live import signals; "
    "from scorekeeper.table.models import Game; "
    "Game.objects.filter(pk=%(game)d).update(state='finished', winner=0, version=F('version') + 1); "
    "signals.games_changed([%(game)d])"
)
RENAME = (
    "from scorekeeper.history.services import rename_player; from scorekeeper.table.models import Player; "
    "rename_player(player=Player.objects.get(table_id=%d, key='ann'), name='Annabel')"
)


def test_a_rename_reaches_the_phones_watching_a_finished_game_of_the_table(served):
    """A rename bumps no finished game's version, but its table's names are in the validator: the
    phone watching a finished game there is told within a second; one at another table is not."""
    seeded, elsewhere = served.seed(PLAYERS, watcher=True), served.seed(PLAYERS, watcher=True)
    game, watcher = seeded["game"], seeded["watcher_cookie"]
    done = served.manage("shell", "-c", FINISH % {"game": game})
    assert done.returncode == 0, done.stderr
    stream, theirs = Stream(served, game, watcher), Stream(served, elsewhere["game"], elsewhere["watcher_cookie"])
    try:
        _, first = stream.next(5)
        assert theirs.next(5)[0] == "change"
        done = served.manage("shell", "-c", RENAME % seeded["table"])
        assert done.returncode == 0, done.stderr
        began = time.monotonic()
        name, second = stream.next(5)
        assert time.monotonic() - began < 1.0
        assert name == "change" and second != first
        assert _part(served, game, watcher, first) == (200, second)  # the page fetches its live part
        with pytest.raises(TimeoutError):
            theirs.next(1.5)  # nothing changed at the other table
    finally:
        stream.close()
        theirs.close()


def test_strangers_are_refused_and_a_phone_taken_off_is_told_at_once(served):
    seeded = served.seed(PLAYERS, watcher=True)
    game, watcher = seeded["game"], seeded["watcher_cookie"]
    assert Stream(served, game, None).status == 404
    other = served.seed(PLAYERS)  # a phone of another table
    assert Stream(served, game, other["cookie"]).status == 404
    assert Stream(served, 10**12, watcher).status == 404

    stream = Stream(served, game, watcher)
    try:
        assert stream.next(5)[0] == "change"
        revoke = (
            "from scorekeeper.table.phones import services; from scorekeeper.table.models import Device; "
            f"services.revoke_device(device=Device.objects.get(pk={_device(watcher)}), by=None)"
        )
        done = served.manage("shell", "-c", revoke)
        assert done.returncode == 0, done.stderr
        began = time.monotonic()
        assert stream.next(5)[0] == "gone"
        assert time.monotonic() - began < 1.0
        with pytest.raises(EOFError):
            stream.next(2)  # the server ends the stream
    finally:
        stream.close()
    # EventSource connects again by itself: refused; the live part is refused too (the page then
    # reloads, and the whole page says why: 403, tests/table/test_access.py).
    assert Stream(served, game, watcher).status == 404
    assert _part(served, game, watcher, "")[0] == 404


def test_a_stream_opened_again_after_a_drop_starts_from_the_game_as_it_is(served):
    seeded = served.seed(PLAYERS, watcher=True)
    game, watcher = seeded["game"], seeded["watcher_cookie"]
    stream = Stream(served, game, watcher)
    _, first = stream.next(5)
    stream.close()  # the Wi-Fi drops; meanwhile the scorer saves
    saved, _, why = save_deal(Phone(served.url, {"sk_devices": seeded["cookie"]}), game, 2)
    assert saved, why
    again = Stream(served, game, watcher)
    try:
        name, now = again.next(5)
        assert name == "change" and now != first  # the page sees it differs and fetches
        assert _part(served, game, watcher, first) == (200, now)
    finally:
        again.close()


@pytest.fixture
def shared_postgres() -> Iterator[str]:
    """A database of its own on the PostgreSQL server ``DATABASE_URL`` names, dropped after."""
    given = os.environ.get("DATABASE_URL", "")
    if not postgres.is_postgres(given):
        pytest.skip("DATABASE_URL names no PostgreSQL server (make test's second run does)")
    import psycopg

    name = f"scorekeeper_live_{uuid.uuid4().hex[:8]}"
    parts = urlsplit(given)
    url = urlunsplit(parts._replace(path=f"/{name}"))
    with psycopg.connect(given.replace("postgres://", "postgresql://", 1), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield url
    finally:
        with psycopg.connect(given.replace("postgres://", "postgresql://", 1), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_two_app_servers_on_one_postgresql_database_stay_in_step(tmp_path, shared_postgres):
    env_of = {
        side: {**app.app_env(tmp_path / side), "DATABASE_URL": shared_postgres, "DJANGO_SECRET_KEY": "k" * 50}
        for side in ("one", "two")
    }
    for side in env_of:
        (tmp_path / side).mkdir()
    one = _serve(tmp_path / "one", env_of["one"])
    try:
        two = _serve(tmp_path / "two", env_of["two"])
        try:
            seeded = one.seed(PLAYERS, watcher=True)
            game, watcher = seeded["game"], seeded["watcher_cookie"]
            stream = Stream(one, game, watcher)  # the phone watches through the first server
            try:
                _, first = stream.next(5)
                for tag in (3, 4):  # saved through the second server
                    saved, _, why = save_deal(Phone(two.url, {"sk_devices": seeded["cookie"]}), game, tag)
                    assert saved, why
                    began = time.monotonic()
                    name, now = stream.next(5)
                    assert time.monotonic() - began < 1.0, "the save took over a second to reach the phone"
                    assert name == "change" and now != first
                    assert _part(one, game, watcher, first) == (200, now)
                    first = now
                # The game ends; a rename through the second server (its NOTIFY of the table) reaches
                # the phone watching the finished game through the first.
                for command in (FINISH % {"game": game}, RENAME % seeded["table"]):
                    done = two.manage("shell", "-c", command)
                    assert done.returncode == 0, done.stderr
                    began = time.monotonic()
                    name, now = stream.next(5)
                    assert time.monotonic() - began < 1.0, "the change took over a second to reach the phone"
                    assert name == "change" and now != first
                    assert _part(one, game, watcher, first) == (200, now)
                    first = now
            finally:
                stream.close()
            _limits_count_across(one, two, seeded["cookie"])
        finally:
            two.stop()
    finally:
        one.stop()


def _limits_count_across(one: app.AppServer, two: app.AppServer, cookie: str) -> None:
    """The per-client limits count in the database's cache, which both servers share: the scoring
    phone starts game after game, each through the other server, and meets its limit on both."""
    left = limits.TABLES.seconds - time.time() % limits.TABLES.seconds
    if left < 120:  # every start in one window of the limits
        time.sleep(left + 1)
    phones = [Phone(server.url, {"sk_devices": cookie}) for server in (one, two)]
    statuses = [_start_game(phones[k % 2]) for k in range(limits.TABLES.phone + 1)]
    assert statuses == [302] * limits.TABLES.phone + [429], statuses
    assert [_start_game(phone) for phone in phones] == [429, 429]


def _start_game(phone: Phone) -> int:
    form = form_fields(phone.get("/games/new/").body, "/games/new/")
    return phone.post("/games/new/", {**form, "seat_0": "Ann", "seat_1": "Ben", "first_dealer": "0"}).status


PUBLIC = "scores.example.org"  # the README's Production name, served here by Caddy on 127.0.0.1


def test_the_readme_s_production_recipe_twice_behind_caddy(tmp_path, shared_postgres):
    """The README's Production section as deploy/ installs it: its settings (deploy/scorekeeper.env,
    which holds its exports), its commands in order, and its gunicorn line run twice, as
    scorekeeper@.service runs it, on two ports, behind Caddy serving deploy/Caddyfile (HTTPS by
    Caddy's own local authority) — with this test's database and secret key, and its folders.
    Caddy's probes of /healthz (by address, no proxy headers) find both servers healthy; the phones
    come through Caddy; six streams of one game, spread over both servers (each holds some), each see
    two saves within a second, whichever server answered the save (LISTEN/NOTIFY). That the per-client
    limits count across both servers: ``_limits_count_across``, with two servers on one database."""
    if shutil.which("caddy") is None:
        pytest.skip("Caddy is not installed (make test installs Debian's caddy)")
    _, commands = app.production_recipe()
    env = deploy.environment(tmp_path, DATABASE_URL=shared_postgres, DJANGO_SECRET_KEY="p" * 50)
    *steps, _ = commands
    assert [step[2:] for step in steps] == [
        ["check", "--deploy"],
        ["migrate"],
        ["refresh_results"],
        ["collectstatic", "--noinput"],
        ["purge_submissions"],
    ]
    for step in steps:
        done = subprocess.run(step, cwd=app.ROOT, env=env, capture_output=True, text=True, timeout=180)
        assert done.returncode == 0, (step, done.stdout, done.stderr)
    servers: list[app.AppServer] = []
    caddy = None
    try:
        for side in ("one", "two"):
            (tmp_path / side).mkdir()
            port = app.free_port()
            command = deploy.command("scorekeeper@.service", tmp_path, str(port))
            servers.append(app.start(tmp_path / side, command=command, port=port, env=env))
        for server in servers:  # a load balancer's probe: the server's address, no proxy headers
            health = Phone(server.url, {}).get("/healthz")
            assert (health.status, json.loads(health.body)) == (200, {"ok": True})
        caddy = deploy.start_caddy(tmp_path, PUBLIC, [urlsplit(s.url).netloc for s in servers])
        site = f"https://{PUBLIC}:{caddy.port}"
        tls = ssl.create_default_context(cafile=str(caddy.root))
        health = Phone(site, {}, tls=tls, at="127.0.0.1").get("/healthz")
        assert (health.status, json.loads(health.body)) == (200, {"ok": True})
        seeded = servers[0].seed(PLAYERS, watcher=True)
        game, watcher = seeded["game"], seeded["watcher_cookie"]
        streams = [Stream(site, game, watcher, tls=tls, at="127.0.0.1") for _ in range(6)]
        try:
            assert [s.status for s in streams] == [200] * 6
            tags = {s.next(5)[1] for s in streams}
            assert len(tags) == 1
            first = tags.pop()
            opened = re.compile(rf"^GET /games/{game}/events/ 200 ", re.MULTILINE)
            held = [len(opened.findall(server.output())) for server in servers]
            assert sorted(held) == [3, 3], held  # Caddy gives each stream to the server holding fewest
            scorer = Phone(site, {"sk_devices": seeded["cookie"]}, tls=tls, at="127.0.0.1")
            for tag in (1, 2):
                saved, _, why = save_deal(scorer, game, tag)
                assert saved, why
                began = time.monotonic()
                seen = [s.next(5) for s in streams]
                assert time.monotonic() - began < 1.0, "a save took over a second to reach the phones"
                assert {name for name, _ in seen} == {"change"}
                now = seen[0][1]
                assert {t for _, t in seen} == {now} and now != first
                assert _part(site, game, watcher, first, tls=tls, at="127.0.0.1") == (200, now)
                first = now
        finally:
            for s in streams:
                s.close()
    finally:
        if caddy is not None:
            caddy.stop()
        for server in servers:
            server.stop()
    for server in servers:
        assert "Traceback" not in server.output()
