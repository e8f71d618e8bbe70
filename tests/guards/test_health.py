"""A server that guards itself: /healthz for a load balancer, old submission tokens forgotten."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import DatabaseError
from django.test import Client
from django.utils import timezone

from scorekeeper import health
from scorekeeper.table.models import Submission

pytestmark = pytest.mark.django_db


def test_healthz_says_ok_when_the_database_answers_and_is_migrated():
    r = Client().get("/healthz")
    assert r.status_code == 200 and r.json() == {"ok": True}
    assert "no-cache" in r["Cache-Control"]


def test_healthz_is_503_with_migrations_pending(monkeypatch):
    monkeypatch.setattr(health.MigrationExecutor, "migration_plan", lambda self, targets: [("a", False)])
    r = Client().get("/healthz")
    assert r.status_code == 503 and r.json() == {"ok": False, "migrations": "1 not applied"}


def test_healthz_is_503_when_the_database_does_not_answer(monkeypatch):
    def down(self, targets):
        raise DatabaseError("unable to open database file")

    monkeypatch.setattr(health.MigrationExecutor, "migration_plan", down)
    r = Client().get("/healthz")
    assert r.status_code == 503 and r.json()["database"] == "does not answer"


def test_old_submission_tokens_are_forgotten_recent_ones_kept():
    now = timezone.now()
    Submission.objects.create(token="old" + "x" * 20, answer="/", created=now - timedelta(days=31))
    Submission.objects.create(token="new" + "x" * 20, answer="/", created=now - timedelta(days=13))
    call_command("purge_submissions")
    assert list(Submission.objects.values_list("token", flat=True)) == ["new" + "x" * 20]
