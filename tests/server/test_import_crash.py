"""A web import killed in its write phase (issue 37, defect 3: kill -9 during a 3 MB import left 300
of 2,763 games, and the retry made 3,063). The app as ``make run`` serves it (gunicorn) takes a
file of 1,500 game records; once its first games are in the database and before its last, every
process of the server is killed (SIGKILL). The phone's table then holds none of the import's games;
the server started again, the same form sent again imports them once: games = records. On SQLite,
and on PostgreSQL in make test's second run.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from scorekeeper.table import access
from tests.history.test_stats_at_scale import random_record
from tests.phones import Answer, Phone, hidden_fields
from tests.server import app
from tests.server.test_live import shared_postgres  # noqa: F401  (the fixture, for PostgreSQL)

RECORDS = 1500


def upload(phone: Phone, path: str, fields: dict[str, str], file: bytes, timeout: float = 300) -> Answer:
    """A multipart POST of a form with a file (``file``, as games.json), as a browser sends it."""
    boundary = uuid.uuid4().hex
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in fields.items()
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="games.json"\r\n'
        "Content-Type: application/json\r\n\r\n".encode()
        + file
        + f"\r\n--{boundary}--\r\n".encode()
    )
    body = b"".join(parts)
    url = urlsplit(phone.base)
    conn = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=timeout)
    headers = {
        **phone.headers,
        "Cookie": "; ".join(f"{k}={v}" for k, v in phone.cookies.items()),
        "Content-Type": f"multipart/form-data; boundary={boundary}",
        "Origin": phone.origin,
        "Referer": phone.origin + path,
    }
    try:
        conn.request("POST", path, body=body, headers=headers)
        response = conn.getresponse()
        return Answer(response.status, response.headers.get("Location", ""), response.read().decode(errors="replace"))
    finally:
        conn.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[dict[str, str], Callable[[str], int]]]:
    """The server's environment, and a count of the rows a query finds in its database (read
    from this process, as the server writes)."""
    env = app.app_env(tmp_path, DJANGO_SECRET_KEY="i" * 50)
    if request.param == "sqlite":

        def count(sql: str) -> int:
            with sqlite3.connect(tmp_path / "db.sqlite3", timeout=30) as db:
                return int(db.execute(sql).fetchone()[0])

        yield env, count
        return
    url = request.getfixturevalue("shared_postgres")
    import psycopg

    def count_pg(sql: str) -> int:
        with psycopg.connect(url.replace("postgres://", "postgresql://", 1), autocommit=True) as conn:
            row = conn.execute(sql).fetchone()
            return int(row[0]) if row else 0

    yield {**env, "DATABASE_URL": url}, count_pg


def test_an_import_killed_in_its_write_phase_leaves_nothing_and_its_retry_imports_once(tmp_path: Path, database):
    env, count = database
    rng = random.Random(37)
    file = json.dumps([random_record(rng) for _ in range(RECORDS)]).encode()
    server = app.start(tmp_path, env=env)
    try:
        seeded = server.seed(["Ann", "Ben"])
        at_table = f"SELECT count(*) FROM table_game WHERE table_id = {int(seeded['table'])}"
        phone = Phone(server.url, {access.COOKIE: seeded["cookie"]})
        fields = hidden_fields(phone.get("/history/import/").body, "/history/import/")
        before = count("SELECT count(*) FROM table_game")
        answered: list[Any] = []

        def send() -> None:
            try:
                answered.append(upload(phone, "/history/import/", fields, file))
            except OSError as exc:  # the server killed under it: no answer
                answered.append(exc)

        sending = threading.Thread(target=send)
        sending.start()
        deadline = time.monotonic() + 240
        while count("SELECT count(*) FROM table_game") == before:  # until the write phase
            assert time.monotonic() < deadline and not answered, answered
            time.sleep(0.002)
        os.killpg(server.process.pid, signal.SIGKILL)
        server.process.wait(timeout=30)
        sending.join(timeout=60)
        written = count("SELECT count(*) FROM table_game") - before
        assert 0 < written < RECORDS and not isinstance(answered[0], Answer), (written, answered)
        assert count(at_table) == 1  # the seeded game alone: none of the import's
    finally:
        server.stop()

    server = app.start(tmp_path, env=env)  # the same installation, started again
    try:
        again = upload(Phone(server.url, phone.cookies), "/history/import/", fields, file)
        assert again.status == 302, again.body[-2000:]
        assert count(at_table) == 1 + RECORDS  # games = records
    finally:
        server.stop()
