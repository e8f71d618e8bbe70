"""The app recovers by itself once a read-only database can be written again (issue 24, defect 5).

The app is served as ``make run`` serves it (gunicorn, two processes of four threads, each thread
keeping its database connection for ``DATABASE_CONN_MAX_AGE``, 600 s). Its SQLite file is made
read-only (``chmod 444``; the server runs without the capability that lets root write anyway),
phones save meanwhile (each save fails: SQLite opens the file read-only), then the file is made
writable again: every save after that must succeed. Before, a connection opened on the read-only
file stayed read-only until it aged out: saves kept failing for minutes."""

from __future__ import annotations

import secrets
import shutil
import sys
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from scorekeeper.table.phones import services as phone_services
from tests.server import app

# Root writes a file whatever its mode; without these capabilities it is held to the mode.
NO_OVERRIDE = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--inh-caps=-all"]


def save(base: str, table: int, cookie: str, name: str) -> int:
    """A write from the scoring phone (the table's name; CSRF as a browser sends it): its status."""
    csrf = secrets.token_hex(16)  # a 32-character secret, in the cookie and the form
    request = urllib.request.Request(
        f"{base}/tables/{table}/name/",
        data=urllib.parse.urlencode({"name": name, "csrfmiddlewaretoken": csrf}).encode(),
        headers={"Cookie": f"sk_devices={cookie}; csrftoken={csrf}"},
    )

    class Keep(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None

    try:
        with urllib.request.build_opener(Keep).open(request, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_saves_succeed_again_as_soon_as_the_database_is_writable(tmp_path: Path):
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv (util-linux) is needed to hold the server to the file's mode")
    port = app.free_port()
    command = [*NO_OVERRIDE, sys.executable, str(app.ROOT / "manage.py"), "serve", "--bind", "127.0.0.1"]
    served = app.start(tmp_path, command=[*command, "--port", str(port)], port=port)
    database = tmp_path / "db.sqlite3"
    try:
        seeded = served.seed(["Ann", "Ben"])
        base, table, cookie = served.url, seeded["table"], seeded["cookie"]
        assert save(base, table, cookie, "Before") == 302
        database.chmod(0o444)
        with ThreadPoolExecutor(8) as pool:  # every thread of the server meets the read-only file
            meanwhile = list(pool.map(lambda n: save(base, table, cookie, f"Read-only {n}"), range(48)))
        assert meanwhile.count(302) < len(meanwhile), meanwhile  # (connections opened before may still write)
        database.chmod(0o644)
        with ThreadPoolExecutor(8) as pool:
            after = list(pool.map(lambda n: save(base, table, cookie, f"Writable {n}"), range(64)))
    finally:
        database.chmod(0o644)
        served.stop()
    assert after == [302] * 64, f"{64 - after.count(302)} of 64 saves failed after the database was writable again"


@pytest.mark.django_db(transaction=True)
def test_a_connection_whose_write_failed_is_closed_after_the_request(client):
    """The mechanism, on the database of the pass (SQLite, then PostgreSQL): a write the database
    refuses (the connection made read-only) closes the request's connection afterwards, and the next
    save works; a request that went well keeps its connection."""
    from django.db import connection

    table, device = phone_services.create_table(name="Kept", device_name="Phone")
    client.cookies["sk_devices"] = _cookie(device)

    assert client.get(f"/tables/{table.pk}/").status_code == 200
    connection.ensure_connection()
    kept = connection.connection
    assert client.get(f"/tables/{table.pk}/").status_code == 200
    assert connection.connection is kept  # a request that went well keeps its connection
    client.raise_request_exception = False
    with connection.cursor() as cursor:  # this connection is read-only from here: the database refuses
        cursor.execute(
            "PRAGMA query_only = ON" if connection.vendor == "sqlite" else "SET default_transaction_read_only = on"
        )
    failed = client.post(f"/tables/{table.pk}/name/", {"name": "Refused"})
    assert failed.status_code >= 400
    assert connection.connection is None  # closed: the next request opens a fresh one
    client.raise_request_exception = True
    assert client.post(f"/tables/{table.pk}/name/", {"name": "Written"}).status_code == 302
    table.refresh_from_db()
    assert table.name == "Written"


def _cookie(device: object) -> str:
    from tests.conftest import phone_cookie

    return phone_cookie(device)  # type: ignore[arg-type]
