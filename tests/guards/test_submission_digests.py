"""Form tokens stored as digests (issue 37, defect 1): a copy of the database — ``manage.py backup``
or its ``--export`` — holds no token that, posted again, opens a table. The tokens remembered
before (in clear) are hashed by migration and still answer a repeat of their form. A new-game
form's repeat hands back the phone its first submit made only to the browser that sent it first
(the lost answer of a double tap, tests/table/test_stale_and_undo.py)."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from xml.etree import ElementTree

import pytest
from django.core.cache import caches
from django.core.management import call_command
from django.db import connection  # noqa: F401 (the skipif condition below reads it)
from django.test import Client

from scorekeeper.guards import limits
from scorekeeper.table import access
from scorekeeper.table.models import Game, Submission
from scorekeeper.table.submissions import digest
from tests.schema import upgraded

pytestmark = pytest.mark.django_db(transaction=True)

NEW_GAME = {"game": "oklahoma", "profile": "book", "seat_0": "Ann", "seat_1": "Ben", "first_dealer": "0"}
TABLES = 5


def form_token(client: Client) -> str:
    found = re.search(r'name="submission" value="([^"]+)"', client.get("/games/new/").content.decode())
    assert found
    return found.group(1)


def founded_tables() -> tuple[list[str], set[str]]:
    """Phones at no table start a game each through the new-game form: the games' addresses, and
    the tokens their forms carried."""
    caches[limits.CACHE].clear()
    games, tokens = [], set()
    for _ in range(TABLES):
        phone = Client()
        token = form_token(phone)
        started = phone.post("/games/new/", {**NEW_GAME, "submission": token})
        assert started.status_code == 302 and phone.get(started["Location"]).status_code == 200
        games.append(started["Location"])
        tokens.add(token)
    return games, tokens


def opened_by_replays(games: list[str], stored: set[str]) -> int:
    """How many of the ``games`` the stored values open, each posted as a new-game form's token by a
    browser that holds it as its secret too (as the audit did: ``games - opened`` must stay
    closed)."""
    opened = 0
    for value in stored:
        replay = Client()
        replay.cookies[access.BROWSER] = value
        answer = replay.post("/games/new/", {**NEW_GAME, "submission": value})
        assert answer.status_code in (200, 302, 400)
        opened += sum(replay.get(game).status_code == 200 for game in games)
    return opened


def test_every_token_stored_in_an_export_opens_no_table(tmp_path: Path):
    games, tokens = founded_tables()
    export = tmp_path / "scores.xml"
    call_command("backup", str(export), "--export", verbosity=0)
    assert all(token not in export.read_text() for token in tokens)
    rows = [o for o in ElementTree.parse(export).getroot() if o.get("model") == "table.submission"]
    stored = {o.get("pk", "") for o in rows} | {f.text or "" for o in rows for f in o}
    assert len(rows) == TABLES and {digest(t) for t in tokens} <= stored
    assert opened_by_replays(games, stored - {""}) == 0


@pytest.mark.skipif("connection.vendor != 'sqlite'")
def test_every_token_stored_in_a_backup_copy_opens_no_table(tmp_path: Path):
    games, tokens = founded_tables()
    copy = tmp_path / "copy.sqlite3"
    call_command("backup", str(copy), verbosity=0)
    assert all(token.encode() not in copy.read_bytes() for token in tokens)
    with sqlite3.connect(copy) as db:
        stored = {value for row in db.execute("SELECT token, browser FROM table_submission") for value in row}
    assert len(stored) == 2 * TABLES
    assert opened_by_replays(games, stored) == 0


def test_the_migration_hashes_the_tokens_and_a_repeat_is_still_answered_as_the_first():
    with upgraded([("table", "0010_phones_in_names")], [("table", "0011_submission_digests")]) as old:
        old.get_model("table", "Submission").objects.create(token="an-old-form-token-in-clear", answer="/games/7/")
    assert Submission.objects.get().token == digest("an-old-form-token-in-clear")
    caches[limits.CACHE].clear()
    phone = Client()
    again = phone.post("/games/new/", {**NEW_GAME, "submission": "an-old-form-token-in-clear"})
    assert again.status_code == 302 and again["Location"] == "/games/7/"
    assert Game.objects.count() == 0 and access.COOKIE not in again.cookies  # no second game, no cookie
