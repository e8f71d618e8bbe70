"""A whole backup (issue 24, defect 4).

- ``manage.py backup --export PATH`` then ``loaddata PATH`` into an empty database gives back every
  row of every model it holds, ids and dates included (on SQLite and on PostgreSQL: ``make test``
  runs this folder in both passes).
- ``manage.py backup PATH`` copies a running SQLite database while phones save: every deal saved
  before the copy began is in it, and the copy is whole. On PostgreSQL it is ``pg_dump``'s copy,
  which ``pg_restore`` restores.
- ``manage.py backup --keep N FOLDER/`` (deploy/'s daily timer) names each copy by its time and
  keeps the N newest, on either database; nothing else in the folder is touched.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import threading
import time
import uuid
from collections.abc import Callable
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.db.backends.postgresql.client import DatabaseClient
from django.db.models import Model

from scorekeeper import backups
from scorekeeper.table.games import services as game_services
from scorekeeper.table.management.commands.backup import EXPORTED
from scorekeeper.table.models import Change, Deal, Game, Link, Role, Submission
from scorekeeper.table.phones import services as phone_services
from scorekeeper.table.scoring import deals as deal_services
from tests.app_data import GIN_BIG, GIN_KNOCK, OK_BIG, OK_SMALL, gin_record_deal, ok_record_deal

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ann", "Ben", "Cleo"]


def exported_models() -> list[type[Model]]:
    """Every model the export holds: each of the app ``table`` and each named ``app.model``."""
    found: list[type[Model]] = []
    for label in EXPORTED:
        if "." in label:
            found.append(apps.get_model(label))
        else:
            found.extend(apps.get_app_config(label).get_models())
    return found


def every_row() -> dict[str, list[dict[str, Any]]]:
    return {m._meta.label: list(m._default_manager.order_by("pk").values()) for m in exported_models()}


def two_tables() -> None:
    """Two tables that played: phones (one revoked, one following), links (one revoked), players
    of the same name at both tables, games with deals added, edited, deleted and undone, a rules
    switch, a remembered submission, and the admin's user."""
    for n, name in enumerate(("Kitchen", "Club")):
        table, scorer = phone_services.create_table(name=name, device_name=f"{name} scorer")
        follow = phone_services.create_link(table=table, role=Role.FOLLOW, by=scorer)
        ben = phone_services.join_table(link=follow, name="Ben's phone")
        phone_services.revoke_link(link=phone_services.create_link(table=table, role=Role.SCORE, by=scorer), by=scorer)
        if n:
            phone_services.revoke_device(device=ben, by=scorer)
        ok = game_services.create_game(
            table=table, kind="oklahoma", profile="book", options={}, players=NAMES, first_dealer=0, by=scorer
        )
        for deal in (OK_BIG, OK_SMALL, OK_BIG):
            deal_services.add_deal(game=ok, deal=ok_record_deal(deal, NAMES), by=scorer)
        Submission.objects.create(token=f"form-of-{name}", answer=f"/games/{ok.pk}/#deal-3")
        second = ok.deals.get(number=2)
        deal_services.edit_deal(game=ok, deal_id=second.pk, version=second.version, deal=ok_record_deal(OK_BIG, NAMES))
        deal_services.delete_deal(game=ok, deal_id=ok.deals.get(number=3).pk, version=None, by=ben)
        deleted = ok.changes.order_by("-id").first()
        assert deleted is not None
        deal_services.undo(game=ok, change_id=deleted.pk, by=scorer)
        deal_services.switch_rules(game=ok, profile="laws", options={}, by=scorer)
        gin = game_services.create_game(
            table=table, kind="oklahoma-gin", profile="standard", options={}, players=["Ann", "Dora"], by=scorer
        )
        for deal in (GIN_KNOCK, GIN_BIG):
            deal_services.add_deal(game=gin, deal=gin_record_deal(deal, ["Ann", "Dora"]), by=scorer)
    get_user_model().objects.create_superuser("owner", "owner@example.org", "right-password-1")


def test_an_export_restores_into_an_empty_database_row_for_row(tmp_path):
    two_tables()
    before = every_row()
    assert len(before["table.Table"]) == 2 and len(before["table.Player"]) == 8  # Ann at both tables
    # Revoked: a link to score at each table, and the Club's link to follow (replaced as Ben was taken off).
    assert Link.objects.exclude(revoked=None).count() == 3 and Submission.objects.count() == 2
    assert Change.objects.filter(action="restored").exists() and Change.objects.filter(action="rules").exists()
    path = tmp_path / "scores.xml"

    call_command("backup", str(path), "--export", verbosity=0)
    call_command("flush", "--noinput", verbosity=0)  # an empty database, migrated
    assert Game.objects.count() == 0 and get_user_model().objects.count() == 0
    call_command("loaddata", str(path), verbosity=0)

    after = every_row()
    for label, rows in before.items():
        assert after[label] == rows, label
    assert sum(len(rows) for rows in after.values()) > 50
    # The database goes on from there: new ids after the restored ones.
    table, _ = phone_services.create_table(name="After", device_name="Phone")
    assert table.pk > max(row["id"] for row in before["table.Table"])


def test_an_export_never_overwrites_a_file(tmp_path):
    path = tmp_path / "there.xml"
    path.write_text("keep")
    with pytest.raises(CommandError, match="exists already"):
        call_command("backup", str(path), "--export")
    assert path.read_text() == "keep"


def make_copies(folder: Path, n: int, *args: str) -> list[str]:
    """``backup --keep 2 FOLDER/`` n times; the names of the copies made, in order."""
    made: list[str] = []
    for _ in range(n):
        before = set(os.listdir(folder))
        call_command("backup", *args, "--keep", "2", f"{folder}/", stdout=StringIO())
        (new,) = set(os.listdir(folder)) - before
        made.append(new)
    return made


@pytest.mark.parametrize("export", [False, True], ids=["copy", "export"])
def test_a_folder_of_copies_keeps_the_newest_and_nothing_else_is_touched(tmp_path, export):
    if not export and connection.vendor == "postgresql" and not backups.tools_installed():
        pytest.skip("pg_dump is not installed")
    two_tables()
    folder = tmp_path / "backups"
    folder.mkdir()
    others = {"notes.txt": "mine", "scores.sqlite3": "a copy named by hand", "scores-2020-01-01.csv": "not a copy"}
    for name, text in others.items():
        (folder / name).write_text(text)
    made = make_copies(folder, 3, *(["--export"] if export else []))
    kind = "xml" if export else {"sqlite": "sqlite3", "postgresql": "dump"}[connection.vendor]
    assert len(set(made)) == 3 and all(name.startswith("scores-") and name.endswith(f".{kind}") for name in made)
    assert sorted(p.name for p in folder.iterdir()) == sorted([*made[1:], *others])  # the oldest removed
    assert all((folder / name).read_text() == text for name, text in others.items())


def test_keep_takes_a_folder_and_at_least_one(tmp_path):
    with pytest.raises(CommandError, match="folder"):
        call_command("backup", "--keep", "3", str(tmp_path / "one.sqlite3"))
    with pytest.raises(CommandError, match="at least 1"):
        call_command("backup", "--keep", "0", f"{tmp_path}/")
    assert list(tmp_path.iterdir()) == []


def test_without_pg_dump_the_backup_says_which_package_to_install(tmp_path, monkeypatch):
    monkeypatch.setattr(backups.shutil, "which", lambda name: None)
    with pytest.raises(CommandError, match="apt-get install postgresql-client"):
        backups.dump_postgresql({"NAME": "scores", "OPTIONS": {}}, tmp_path / "copy.dump")
    assert not (tmp_path / "copy.dump").exists()


def psql_args(program: str, database: str, *args: str) -> tuple[list[str], dict[str, str]]:
    """A PostgreSQL client program's command line for ``database`` on the test's server."""
    argv, env = DatabaseClient.settings_to_cmd_args_env({**connection.settings_dict, "NAME": database}, [])
    return [program, *args, *argv[1:-1]], {**os.environ, **(env or {})}


@pytest.mark.skipif("connection.vendor != 'postgresql'")
def test_on_postgresql_the_backup_is_a_pg_dump_that_restores(tmp_path):
    two_tables()
    copy = tmp_path / "scores.dump"
    call_command("backup", str(copy), verbosity=0)
    restored = f"restored_{uuid.uuid4().hex[:8]}"
    with connection.cursor() as cursor:
        cursor.execute(f'CREATE DATABASE "{restored}"')
    try:
        argv, env = psql_args("pg_restore", restored, "--no-owner", f"--dbname={restored}")
        done = subprocess.run([*argv, str(copy)], env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        argv, env = psql_args("psql", restored, "-tAc", "SELECT count(*) FROM table_game")
        done = subprocess.run([*argv, restored], env=env, capture_output=True, text=True, timeout=60)
        assert int(done.stdout) == Game.objects.count() == 4
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{restored}" WITH (FORCE)')


def wait_for(condition: Callable[[], bool], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the phones stopped saving"
        time.sleep(0.01)


@pytest.mark.skipif("connection.vendor != 'sqlite'")
def test_a_backup_taken_while_phones_save_holds_every_saved_deal(tmp_path):
    """Four phones save deals into four games through the services, each in its own thread and
    connection; a backup is taken meanwhile. Every deal whose save had returned before the backup
    began is in the copy, the copy is whole, and it holds nothing that was never saved."""
    table, scorer = phone_services.create_table(name="Busy", device_name="Phone")
    saved: list[tuple[float, int]] = []  # (when the save returned, the deal's id)
    stop = threading.Event()
    errors: list[BaseException] = []

    def phone() -> None:
        try:
            while not stop.is_set():  # a game of two deals, then the next game (none ends)
                game = game_services.create_game(
                    table=table, kind="oklahoma", profile="book", options={}, players=NAMES, by=scorer
                )
                for _ in range(2):
                    deal = deal_services.add_deal(game=game, deal=ok_record_deal(OK_SMALL, NAMES), by=scorer)
                    saved.append((time.monotonic(), deal.pk))
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=phone) for _ in range(4)]
    for thread in threads:
        thread.start()
    wait_for(lambda: len(saved) >= 20 or bool(errors))
    began = time.monotonic()
    copy = tmp_path / "copy.sqlite3"
    call_command("backup", str(copy), verbosity=0)
    after = len(saved)
    wait_for(lambda: len(saved) >= after + 20 or bool(errors))  # saves go on after the backup too
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors

    before_backup = {pk for at, pk in saved if at <= began}
    with sqlite3.connect(copy) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        in_copy = {pk for (pk,) in db.execute("SELECT id FROM table_deal")}
        numbers = db.execute("SELECT game_id, count(*), max(number) FROM table_deal GROUP BY game_id").fetchall()
    assert before_backup <= in_copy
    assert in_copy <= set(Deal.objects.values_list("pk", flat=True))
    assert all(count == top for _, count, top in numbers)  # each game's deals 1..n: no half-written save
    assert len(saved) > len(before_backup)


@pytest.mark.skipif("connection.vendor != 'sqlite'")
def test_a_backup_opens_as_the_app_s_database(tmp_path):
    two_tables()
    copy = tmp_path / "copy.sqlite3"
    call_command("backup", str(copy), verbosity=0)
    with sqlite3.connect(copy) as db:
        games = db.execute("SELECT count(*) FROM table_game").fetchone()[0]
        changes = db.execute("SELECT count(*) FROM table_change").fetchone()[0]
    assert (games, changes) == (Game.objects.count(), Change.objects.count())
    with pytest.raises(CommandError, match="exists already"):
        call_command("backup", str(copy))
    assert Path(copy).stat().st_size > 0
    # The README's daily line writes into a folder of copies of their own: the first makes it.
    daily = tmp_path / "backups" / "scores-2026-11-27.sqlite3"
    call_command("backup", str(daily), verbosity=0)
    with sqlite3.connect(daily) as db:
        assert db.execute("SELECT count(*) FROM table_game").fetchone()[0] == Game.objects.count()
