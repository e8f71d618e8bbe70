"""Hosting as a club admin meets it (issue 37): the app as the README's Production section serves
it, on a PostgreSQL server of the test's own that the test can restart.

- A restart of PostgreSQL under a running app server costs no request: every kept connection is
  checked as a request takes it (``CONN_HEALTH_CHECKS``) and replaced if the server dropped it, and
  the live pages' LISTEN connects again (a save after the restart reaches a stream opened before it).
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests import postgres
from tests.phones import Phone, save_deal
from tests.server import app
from tests.server.test_live import PLAYERS, Stream, _serve


@pytest.fixture
def own_postgres() -> Iterator[postgres.Server]:
    """A throwaway PostgreSQL server of this test's own (``DATABASE_URL``'s may not be restarted)."""
    if postgres.bindir() is None:
        pytest.skip("PostgreSQL's server programs are not installed (make test installs them)")
    with postgres.started() as server:
        yield server


def test_a_postgresql_restart_under_a_running_app_fails_no_request(tmp_path: Path, own_postgres):
    env = {**app.app_env(tmp_path), "DATABASE_URL": own_postgres.url, "DJANGO_SECRET_KEY": "r" * 50}
    server = _serve(tmp_path, env)  # one process, four threads for the pages, connections kept 600 s
    try:
        seeded = server.seed(PLAYERS, watcher=True)
        game, scorer = seeded["game"], {"sk_devices": seeded["cookie"]}
        paths = ["/healthz", f"/games/{game}/"] * 4

        def answers() -> list[tuple[str, int]]:
            """Eight requests, four at a time: each thread of the pages takes its kept connection."""
            with ThreadPoolExecutor(4) as pool:
                return list(pool.map(lambda path: (path, Phone(server.url, scorer).get(path).status), paths))

        assert {status for _, status in answers()} == {200}  # every thread holds a connection now
        stream = Stream(server, game, seeded["watcher_cookie"])
        try:
            _, first = stream.next(5)
            own_postgres.restart()
            after = answers() + answers()
            assert [answer for answer in after if answer[1] != 200] == []
            saved, _, why = save_deal(Phone(server.url, scorer), game, 5)
            assert saved, why
            name, now = stream.next(5)  # heard, or found as the LISTEN connects again
            assert name == "change" and now != first
        finally:
            stream.close()
    finally:
        server.stop()
