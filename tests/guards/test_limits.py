"""Per-client limits: a client over a limit gets the 429 page and Retry-After; others go on. What is
counted is what was done, per phone (its device cookie) and per address."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.test import RequestFactory, override_settings

from scorekeeper.guards import limits
from scorekeeper.table import access
from tests.conftest import phone_cookie

LOCAL = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "limits": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "limits-test"},
}
SMALL = limits.Limit(name="tests", what="tests", phone=2, address=3, seconds=600)


@limits.limited(SMALL)
def _view(request: HttpRequest) -> HttpResponse:
    """Done (a redirect) unless the form is refused (400)."""
    return HttpResponse("refused", status=400) if request.POST.get("bad") else HttpResponseRedirect("/done/")


@pytest.fixture(autouse=True)
def _local_cache():
    with override_settings(CACHES=LOCAL):
        caches[limits.CACHE].clear()
        yield


def _post(address: str, *, cookie: str = "", **data: str) -> HttpResponse:
    request = RequestFactory().post("/x", data, REMOTE_ADDR=address)
    if cookie:
        request.COOKIES[access.COOKIE] = cookie
    return _view(request)


def test_posts_over_the_limit_get_429_with_when_to_try_again():
    assert [_post("10.0.0.1").status_code for _ in range(3)] == [302, 302, 302]
    refused = _post("10.0.0.1")
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 600
    assert b"Too many tests from this address" in refused.content
    assert b"try again in" in refused.content


def test_another_address_is_not_limited_and_gets_are_never():
    for _ in range(5):
        _post("10.0.0.1")
    assert _post("10.0.0.2").status_code == 302
    assert _view(RequestFactory().get("/x", REMOTE_ADDR="10.0.0.1")).status_code == 302


def test_refused_forms_count_nothing():
    """A form refused did nothing: a client may be refused any number of times and still do its share."""
    assert {_post("10.0.0.4", bad="1").status_code for _ in range(20)} == {400}
    assert [_post("10.0.0.4").status_code for _ in range(4)] == [302, 302, 302, 429]


def test_a_phone_is_counted_by_its_cookie_and_another_phone_at_its_address_goes_on(scorer, follower):
    """A phone meets its own limit (the page says "from this phone") wherever it connects from;
    the other phones behind its address are not held back by it."""
    mine, theirs = phone_cookie(scorer), phone_cookie(follower)
    assert [_post(a, cookie=mine).status_code for a in ("10.0.0.5", "10.0.0.6")] == [302, 302]
    refused = _post("10.0.0.7", cookie=mine)
    assert refused.status_code == 429 and b"Too many tests from this phone" in refused.content
    assert _post("10.0.0.5", cookie=theirs).status_code == 302


def test_a_phone_that_joins_more_tables_is_still_the_same_phone(scorer, follower):
    """Its cookie gains a device with each table it joins (``follower``, made after ``scorer``); it
    is counted by its oldest."""
    assert _post("10.0.0.8", cookie=phone_cookie(scorer)).status_code == 302
    assert _post("10.0.0.9", cookie=phone_cookie(scorer, follower)).status_code == 302
    assert _post("10.0.0.10", cookie=phone_cookie(scorer, follower)).status_code == 429


def test_spoofed_forwarding_headers_change_nothing():
    """Not behind a proxy: a client that writes another X-Forwarded-For on every request is counted
    by its own address all the same."""
    answers = [
        _view(RequestFactory().post("/x", REMOTE_ADDR="10.0.0.11", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}")).status_code
        for i in range(4)
    ]
    assert answers == [302, 302, 302, 429]


def test_a_new_window_starts_afresh():
    request = RequestFactory().post("/x", REMOTE_ADDR="10.0.0.3")
    for _ in range(3):
        limits.count(SMALL, request, now=1000.0)
    refusal = limits.refused(SMALL, request, now=1000.0)
    assert refusal is not None and refusal.wait == 200 and not refusal.by_phone
    assert limits.refused(SMALL, request, now=1000.0 + 600) is None


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
    caches[limits.CACHE].set(f"{limit.name}:a:10.9.9.9:{window}", limit.address, timeout=limit.seconds)
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
        for _ in range(3):
            assert limits.refused(SMALL, request, now=50.0) is None
            limits.count(SMALL, request, now=50.0)
        assert limits.refused(SMALL, request, now=50.0) == limits.Refusal(wait=550, by_phone=False)


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
