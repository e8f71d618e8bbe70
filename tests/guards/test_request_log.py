"""The request log (issue 23): one line per request, and no secret in any line — no join token, no
cookie, no query string — nor in Django's own lines about a request ("Not Found: /join/…/")."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.request_log import NoSecrets, redacted
from scorekeeper.table.models import Role
from scorekeeper.table.phones import services as phone_services
from tests.conftest import as_phone, phone_cookie

pytestmark = pytest.mark.django_db


def test_one_line_per_request_and_no_secret_in_any(table, scorer, caplog):
    caplog.set_level(logging.INFO)
    link = phone_services.create_link(table=table, role=Role.FOLLOW, by=scorer)
    token = link.token
    assert token is not None
    phone = as_phone(Client(), scorer)
    cookie = phone_cookie(scorer)
    answers = [
        phone.get("/?next=private-value-1"),
        Client().get(reverse("table:join", args=[token]) + "?ref=private-value-2"),
        Client().post(reverse("table:join", args=[token]), {"name": "Ben's phone"}),
        Client().get(reverse("table:join", args=["not-a-link-token"])),  # 404: Django logs it too
        Client().get("/healthz"),
    ]
    assert [a.status_code for a in answers] == [200, 200, 302, 404, 200]
    lines = caplog.records
    ours = [re.sub(r" [0-9.]+ ms$", "", r.getMessage()) for r in lines if r.name == "scorekeeper.requests"]
    assert ours == [
        "GET /?… 200",
        "GET /join/[token]/?… 200",
        "POST /join/[token]/ 302",
        "GET /join/[token]/ 404",
        "GET /healthz 200",
    ]
    written = "\n".join(r.getMessage() for r in lines)
    assert any(r.name == "django.request" for r in lines)  # "Not Found: ..." went through the filter
    for secret in (token, "not-a-link-token", "private-value", cookie, phone.cookies["sk_devices"].value):
        assert secret not in written


def test_the_filter_takes_tokens_and_query_strings_out_of_any_message():
    record = logging.LogRecord(
        "django.request", logging.WARNING, __file__, 1, "%s: %s", ("Not Found", "/join/abc/?x=1"), None
    )
    assert NoSecrets().filter(record) and record.getMessage() == "Not Found: /join/[token]/?…"
    assert redacted('"GET /join/Zx_9-a/ HTTP/1.1" 404') == '"GET /join/[token]/ HTTP/1.1" 404'
    assert redacted("/games/12/deals/3/") == "/games/12/deals/3/"


def test_the_app_s_handler_and_django_s_request_loggers_carry_the_filter():
    from django.conf import settings

    config: Any = settings.LOGGING
    assert "no_secrets" in config["handlers"]["console"]["filters"]
    for name in ("django.request", "django.server", "django.security"):
        assert "no_secrets" in config["loggers"][name]["filters"]
    assert any(isinstance(f, NoSecrets) for f in logging.getLogger("django.request").filters)
