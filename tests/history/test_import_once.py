"""An import is whole or absent, and written once (issue 37, defects 3 and 4).

- Its games are written a batch at a time at a table of their own, and reach the table at once: while
  it writes, and after its writes stopped (tests/server/test_import_crash.py kills the server), a
  phone sees none of them; the next import removes a stopped one.
- The import form carries a once-only submission token: a double tap (at once, or after the first
  finished) imports once and both are answered alike.
"""

from __future__ import annotations

import json
import random
import re
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.cache import caches
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils import timezone

from scorekeeper.guards import limits
from scorekeeper.history import imports as history_imports
from scorekeeper.table import access
from scorekeeper.table.models import Game, Import, Player, Table
from tests.conftest import phone_cookie
from tests.history.test_player_figures import check
from tests.history.test_stats_at_scale import random_record
from tests.phones import Answer, Phone, hidden_fields
from tests.table.test_concurrency import at_once


def records(n: int, seed: int = 7) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [random_record(rng) for _ in range(n)]


def import_form(client: Client) -> dict[str, str]:
    page = client.get("/history/import/").content.decode()
    token = re.search(r'name="submission" value="([^"]+)"', page)
    assert token, "the import form has no submission token"
    return {"submission": token[1]}


@pytest.mark.django_db
def test_while_an_import_writes_a_phone_sees_none_of_its_games(client, table, monkeypatch):
    history_imports.import_records(table=table, records=records(2, seed=1))  # games the phone has
    new_game_ids = list(Game.objects.filter(table=table).values_list("pk", flat=True))
    monkeypatch.setattr(history_imports, "IMPORT_BATCH", 3)
    seen: list[tuple[int, int]] = []
    write = history_imports._Batch.write

    def watched(batch: Any) -> list[int]:
        ids = write(batch)
        listed = re.findall(r'<a href="/(?:history|games)/', client.get("/history/").content.decode())
        seen.append((Game.objects.filter(table=table).count(), len(listed)))
        return ids

    monkeypatch.setattr(history_imports._Batch, "write", watched)
    answer = client.post("/history/import/", {**import_form(client), "text": json.dumps(records(10))})
    assert answer.status_code == 302
    assert len(seen) == 4 and {count for count, _ in seen} == {len(new_game_ids)}  # none, batch after batch
    assert {links for _, links in seen} == {2}  # the phone's list of games did not change
    assert Game.objects.filter(table=table).count() == len(new_game_ids) + 10
    assert not Import.objects.exists() and Table.objects.count() == 1  # its own table is gone
    check(table)


@pytest.mark.django_db
def test_an_import_that_stopped_is_removed_by_the_next_one_a_running_one_is_not(table):
    report = history_imports.import_records(table=table, records=records(4))
    assert report.ok
    games = Game.objects.filter(table=table).count()
    stopped = Import.objects.create(staging=Table.objects.create(name="stopped"))
    running = Import.objects.create(staging=Table.objects.create(name="running"))
    for job in (stopped, running):  # games written at their tables, as a batch leaves them
        history_imports.import_records(table=job.staging, records=records(3, seed=job.pk))
    Import.objects.filter(pk=stopped.pk).update(touched=timezone.now() - history_imports.STOPPED - timedelta(1))

    assert history_imports.import_records(table=table, records=records(2, seed=9)).ok
    assert Game.objects.filter(table=table).count() == games + 2
    assert not Table.objects.filter(pk=stopped.staging_id).exists()
    assert not Game.objects.filter(table_id=stopped.staging_id).exists()
    assert not Player.objects.filter(table_id=stopped.staging_id).exists()
    assert Import.objects.get() == running and Game.objects.filter(table_id=running.staging_id).count() == 3
    check(table)


@pytest.mark.django_db
def test_an_import_the_database_stopped_leaves_nothing(client, table, monkeypatch):
    from django.db import OperationalError

    monkeypatch.setattr(history_imports, "IMPORT_BATCH", 2)
    calls = 0
    write = history_imports._Batch.write

    def failing(batch: Any) -> list[int]:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise OperationalError("database or disk is full")
        return write(batch)

    monkeypatch.setattr(history_imports._Batch, "write", failing)
    with pytest.raises(OperationalError):
        history_imports.import_records(table=table, records=records(8))
    assert not Game.objects.exists() and not Import.objects.exists() and Table.objects.count() == 1


@pytest.mark.django_db
def test_an_import_form_sent_twice_imports_once(client, table):
    form = {**import_form(client), "text": json.dumps(records(5))}
    first = client.post("/history/import/", form)
    again = client.post("/history/import/", form)  # a double tap after the first finished, a retry
    assert first.status_code == again.status_code == 302 and first["Location"] == again["Location"]
    assert Game.objects.filter(table=table).count() == 5
    one = {**import_form(client), "text": json.dumps(records(1, seed=3)[0])}
    assert client.post("/history/import/", one)["Location"] == client.post("/history/import/", one)["Location"]
    assert Game.objects.filter(table=table).count() == 6


@pytest.mark.django_db(transaction=True)
def test_a_double_tap_on_import_imports_once(live_server, table):
    """Two submits of one import form at once, through a live server (issue 37: 920 games for 460
    records): both score the records; the first to finish imports them, the other is answered as
    it was, having left nothing."""
    caches[limits.CACHE].clear()
    scorer = table.devices.get()
    phone = Phone(live_server.url, {access.COOKIE: phone_cookie(scorer)})
    page = phone.get("/history/import/")
    form = {**hidden_fields(page.body, "/history/import/"), "text": json.dumps(records(40))}
    answers = at_once(lambda: phone.post("/history/import/", form), lambda: phone.post("/history/import/", form))
    assert all(isinstance(a, Answer) and a.status == 302 for a in answers), answers
    assert answers[0].location == answers[1].location
    assert Game.objects.filter(table=table).count() == 40
    assert not Import.objects.exists() and Table.objects.count() == 1


@pytest.mark.django_db
def test_table_link_neither_lists_nor_opens_the_table_an_import_waits_at(table):
    job = Import.objects.create(staging=Table.objects.create(name=f"import into table {table.pk}"))
    listed = StringIO()
    call_command("table_link", stdout=listed)
    assert listed.getvalue().splitlines() == [f"{table.pk}\t{table.name}\t0 games"]
    with pytest.raises(CommandError, match=f"no table #{job.staging_id}"):
        call_command("table_link", str(job.staging_id), stdout=StringIO())
