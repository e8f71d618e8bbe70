"""A server that guards itself: /healthz for a load balancer, old submission tokens forgotten."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.core.management import call_command
from django.db import DatabaseError, connection
from django.test import AsyncClient, Client, override_settings
from django.utils import timezone

from scorekeeper import health
from scorekeeper.table.models import Submission
from tests.conftest import run_async

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


# Hosted behind a proxy (README, Production): one public name, HTTPS only, the proxy's scheme trusted.
HOSTED = override_settings(
    ALLOWED_HOSTS=["scores.example.org"],
    SECURE_SSL_REDIRECT=True,
    SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"),
)


@HOSTED
@pytest.mark.parametrize("host", ["10.0.0.7:8000", "127.0.0.1", "app1.internal:8001", "scores.example.org"])
def test_a_load_balancer_s_probe_by_address_is_answered_whatever_its_host(host):
    """The probe names the app server's address (or anything) and comes without X-Forwarded-Proto:
    no 400 for the host, no redirect to HTTPS; the database is checked all the same."""
    r = Client().get("/healthz", headers={"host": host})
    assert (r.status_code, r.json()) == (200, {"ok": True})
    assert Client().head("/healthz", headers={"host": host}).status_code == 200


@HOSTED
def test_a_probe_through_the_async_handler_is_answered_whatever_its_host():
    async def probe():
        answer = await AsyncClient().get("/healthz", headers={"host": "10.0.0.7:8000"})
        await sync_to_async(lambda: connection.close())()  # the view's thread lets its connection go
        return answer

    r = run_async(probe)
    assert (r.status_code, r.json()) == (200, {"ok": True})


@HOSTED
def test_every_other_path_keeps_the_host_check_and_the_https_redirect():
    assert Client().get("/", headers={"host": "10.0.0.7:8000"}).status_code == 400
    assert Client().get("/healthz/", headers={"host": "10.0.0.7:8000"}).status_code == 400
    redirect = Client().get("/", headers={"host": "scores.example.org"})
    assert (redirect.status_code, redirect["Location"]) == (301, "https://scores.example.org/")
    proxied = Client().get("/", headers={"host": "scores.example.org", "x-forwarded-proto": "https"})
    assert proxied.status_code == 200


@HOSTED
def test_a_probe_that_is_not_a_read_is_refused():
    assert Client().post("/healthz", headers={"host": "10.0.0.7:8000"}).status_code == 405


def test_database_connections_are_checked_before_a_request_reuses_them():
    """A kept connection the database dropped (a PostgreSQL restart) is replaced, not failed on
    (tests/server/test_hosting.py restarts a PostgreSQL server under a running app)."""
    from django.conf import settings

    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True


def test_old_submission_tokens_are_forgotten_recent_ones_kept():
    now = timezone.now()
    Submission.objects.create(token="old" + "x" * 20, answer="/", created=now - timedelta(days=31))
    Submission.objects.create(token="new" + "x" * 20, answer="/", created=now - timedelta(days=13))
    call_command("purge_submissions")
    assert list(Submission.objects.values_list("token", flat=True)) == ["new" + "x" * 20]
