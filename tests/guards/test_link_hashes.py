"""Link tokens stored as hashes (issue 23): a copy of the database holds no token that opens a
table; the links made before (tokens in clear) are hashed by migration and keep working."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import reverse

from scorekeeper.table.models import Link, Role, link_digest
from scorekeeper.table.phones import services as phone_services
from tests.schema import upgraded


def _every_text_in_the_database() -> set[str]:
    """Every text value of every row of every table of the database, and each of its words."""
    found: set[str] = set()
    with connection.cursor() as cursor:
        for name in connection.introspection.table_names(cursor):
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(name)}")
            for row in cursor.fetchall():
                for value in row:
                    if isinstance(value, str):
                        found.add(value)
                        found.update(value.replace('"', " ").replace("/", " ").split())
    return found


@pytest.mark.django_db
def test_no_row_of_the_database_holds_a_token_that_opens_the_table(table, scorer):
    follow = phone_services.create_link(table=table, role=Role.FOLLOW, by=scorer)
    score = phone_services.create_link(table=table, role=Role.SCORE, by=scorer)
    assert follow.token is not None and score.token is not None
    tokens = {follow.token, score.token}
    for token in tokens:  # the links work
        assert Client().get(reverse("table:join", args=[token])).status_code == 200
    texts = _every_text_in_the_database()
    assert not tokens & texts
    assert all(token not in text for token in tokens for text in texts)
    stranger = Client()
    tried = [t for t in texts if t and len(t) <= 64 and t.replace("-", "").replace("_", "").isalnum()]
    assert link_digest(follow.token) in tried  # what the database holds: the digest (and the salt) ...
    for value in tried:  # ... and no value of it opens a table
        assert stranger.get(reverse("table:join", args=[value])).status_code == 404, value


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif("connection.vendor != 'sqlite'")
def test_a_backup_of_the_database_opens_no_table(table, scorer, tmp_path: Path):
    link = phone_services.create_link(table=table, role=Role.FOLLOW, by=scorer)
    copy = tmp_path / "copy.sqlite3"
    call_command("backup", str(copy), verbosity=0)
    assert link.token and link.token.encode() not in copy.read_bytes()
    with sqlite3.connect(copy) as db:
        assert db.execute("SELECT count(*) FROM table_link WHERE digest = ?", [link.digest]).fetchone() == (1,)


@pytest.mark.django_db
def test_a_link_made_under_another_secret_key_works_but_is_not_shown(table, scorer, settings):
    link = phone_services.create_link(table=table, role=Role.FOLLOW, by=scorer)
    token = link.token
    assert token is not None
    settings.SECRET_KEY = "another-secret-key-" + "x" * 40
    assert Link.objects.get(pk=link.pk).token is None
    assert Link.opened_by(token).get() == link


@pytest.mark.django_db(transaction=True)
def test_the_migration_hashes_the_tokens_and_the_old_links_keep_working():
    with upgraded([("table", "0005_table_names")], [("table", "0006_link_digests")]) as old:
        table = old.get_model("table", "Table").objects.create(name="Kitchen")
        old.get_model("table", "Link").objects.create(table=table, role="follow", token="an-old-link-token-in-clear")
    assert "an-old-link-token-in-clear" not in _every_text_in_the_database()
    link = Link.objects.get()
    assert link.digest == link_digest("an-old-link-token-in-clear") and link.token is None
    page = Client().get(reverse("table:join", args=["an-old-link-token-in-clear"]))
    assert page.status_code == 200 and "Kitchen" in page.content.decode()
