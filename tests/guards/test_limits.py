"""Per-client limits: a client over a limit gets the 429 page and Retry-After; others go on."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory, override_settings

from scorekeeper.guards import limits

LOCAL = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "limits": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "limits-test"},
}
SMALL = limits.Limit(name="tests", what="tests", count=3, seconds=600)


@limits.limited(SMALL)
def _view(request: HttpRequest) -> HttpResponse:
    return HttpResponse("done")


@pytest.fixture(autouse=True)
def _local_cache():
    with override_settings(CACHES=LOCAL):
        caches[limits.CACHE].clear()
        yield


def _post(address: str) -> HttpResponse:
    return _view(RequestFactory().post("/x", REMOTE_ADDR=address))


def test_posts_over_the_limit_get_429_with_when_to_try_again():
    assert [_post("10.0.0.1").status_code for _ in range(3)] == [200, 200, 200]
    refused = _post("10.0.0.1")
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 600
    assert b"Too many tests from this address" in refused.content
    assert b"try again in" in refused.content


def test_another_address_is_not_limited_and_gets_are_never():
    for _ in range(5):
        _post("10.0.0.1")
    assert _post("10.0.0.2").status_code == 200
    assert _view(RequestFactory().get("/x", REMOTE_ADDR="10.0.0.1")).status_code == 200


def test_a_new_window_starts_afresh():
    request = RequestFactory().post("/x", REMOTE_ADDR="10.0.0.3")
    assert [limits.over(SMALL, request, now=1000.0) for _ in range(4)][-1] > 0
    assert limits.over(SMALL, request, now=1000.0 + 600) == 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url, limit",
    [
        ("/games/new/", limits.TABLES),
        ("/join/sometoken/", limits.JOINS),
        ("/history/import/", limits.IMPORTS),
        ("/check/", limits.CHECKS),
    ],
)
def test_the_public_writes_are_limited_per_client(url, limit):
    """New tables, joins, imports and checks: a client over its limit gets 429 and nothing is done."""
    import time

    from django.test import Client

    from scorekeeper.table.models import Table

    window = int(time.time() // limit.seconds)
    caches[limits.CACHE].set(f"{limit.name}:10.9.9.9:{window}", limit.count, timeout=limit.seconds)
    post = {"game": "oklahoma", "profile": "book", "seat_0": "Ann", "seat_1": "Ben", "first_dealer": "0"}
    r = Client(REMOTE_ADDR="10.9.9.9").post(url, post)
    assert r.status_code == 429 and int(r["Retry-After"]) > 0
    assert not Table.objects.exists()
    # Another client is not held back by it.
    assert Client(REMOTE_ADDR="10.9.9.8").post(url, post).status_code != 429


@pytest.mark.django_db
def test_the_limits_count_in_the_database_cache():
    """Every app process and server counts together: the default settings count in the database (its
    table made by migration)."""
    from scorekeeper import settings

    assert "DatabaseCache" in str(settings.CACHES[limits.CACHE]["BACKEND"])
    with override_settings(CACHES=settings.CACHES):
        request = RequestFactory().post("/x", REMOTE_ADDR="10.0.0.7")
        assert [limits.over(SMALL, request, now=50.0) for _ in range(4)] == [0, 0, 0, 550]


@pytest.mark.django_db
def test_an_import_too_large_for_a_phone_is_refused_before_it_is_read(scorer):
    """A phone's import is at most 16 MB: a larger one is refused at once (413, the message on the
    form), before its body is read; the server's command line imports any size."""
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    from scorekeeper.history.forms import MAX_UPLOAD
    from tests.conftest import as_phone

    phone = as_phone(Client(), scorer)
    big = SimpleUploadedFile("history.json", b"[" + b" " * (MAX_UPLOAD + 100_000) + b"]")
    r = phone.post("/history/import/", {"file": big})
    assert r.status_code == 413 and "larger than 16 MB" in r.content.decode()
