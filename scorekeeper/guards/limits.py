"""Per-client limits on the public writes: new tables and games, joining, importing, checking.

A stranger with no link can still start a table, open a join link, upload an import or ask the
checker: each costs the server work and the tables' database. What was done is counted — a game
started, a phone joined, games imported, a check answered; never a form refused, the other game's
form asked for or a page read — in a fixed window, twice:

- per phone, by its device cookie (``clients.client_phone``): one phone does only so much
  (``Limit.phone``), however it connects;
- per address (``clients.client_ip``: the peer, or the proxy's last X-Forwarded-For entry) with a
  ceiling a club never reaches (``Limit.address``): a club's Wi-Fi puts every phone of every table
  behind one address, while a client that drops its cookie to start table after table meets it.

The counts are kept in Django's cache ``limits`` (the database cache by default, shared by every
app process and server). A client at a limit is answered 429 with a page that says when to try
again (and ``Retry-After``), and nothing is done. GET requests are never limited.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from scorekeeper.guards.clients import client_ip, client_phone

CACHE = "limits"


@dataclass(frozen=True, slots=True)
class Limit:
    name: str
    what: str | Promise  # what the client did too often, as the 429 page says it (translated)
    phone: int  # done by one phone (its device cookie) in a window
    address: int  # done from one address in a window: more than a club's evening ever needs
    seconds: int  # the window


# An evening of 25 tables behind one address (tests/guards/test_club_evening.py) starts 75 games and
# joins 75 phones; one phone starts a game every few minutes at most.
TABLES = Limit(name="tables", what=gettext_lazy("new tables and games"), phone=60, address=200, seconds=3600)
JOINS = Limit(name="joins", what=gettext_lazy("joins"), phone=30, address=300, seconds=600)
IMPORTS = Limit(name="imports", what=gettext_lazy("imports"), phone=30, address=60, seconds=3600)
# The checker checks as one types.
CHECKS = Limit(name="checks", what=gettext_lazy("checks"), phone=600, address=1200, seconds=600)


@dataclass(frozen=True, slots=True)
class Refusal:
    wait: int  # seconds until the window ends
    by_phone: bool  # the phone's own limit (else its address's)


def _counters(limit: Limit, request: HttpRequest, window: int) -> list[tuple[str, int, bool]]:
    """The counts a request of this client is kept in: (key, most allowed, the phone's?)."""
    counters = [(f"{limit.name}:a:{client_ip(request) or '-'}:{window}", limit.address, False)]
    phone = client_phone(request)
    if phone is not None:
        counters.append((f"{limit.name}:p:{phone}:{window}", limit.phone, True))
    return counters


def refused(limit: Limit, request: HttpRequest, now: float | None = None) -> Refusal | None:
    """Whether this client (its phone, or its address) has done all ``limit`` allows in this
    window: for how long, and by whose count. Counts nothing."""
    now = time.time() if now is None else now
    window = int(now // limit.seconds)
    counters = _counters(limit, request, window)
    counts = caches[CACHE].get_many([key for key, _, _ in counters])
    for key, most, by_phone in reversed(counters):  # the phone's own first
        if counts.get(key, 0) >= most:
            return Refusal(wait=max(1, math.ceil((window + 1) * limit.seconds - now)), by_phone=by_phone)
    return None


def count(limit: Limit, request: HttpRequest, now: float | None = None) -> None:
    """Count one thing done against ``limit``, for the client's phone and for its address."""
    now = time.time() if now is None else now
    cache = caches[CACHE]
    for key, _, _ in _counters(limit, request, int(now // limit.seconds)):
        cache.add(key, 0, timeout=limit.seconds + 60)
        try:
            cache.incr(key)
        except ValueError:  # the entry expired between add and incr
            cache.set(key, 1, timeout=limit.seconds + 60)


def too_many(request: HttpRequest, limit: Limit, refusal: Refusal) -> HttpResponse:
    minutes = max(1, math.ceil(refusal.wait / 60))
    context = {"limit": limit, "minutes": minutes, "by_phone": refusal.by_phone}
    response = render(request, "429.html", context, status=429)
    response["Retry-After"] = str(refusal.wait)
    return response


def made(response: HttpResponseBase) -> bool:
    """Whether a form's answer says it did what it was sent for: a redirect (to the game started,
    the table joined, the games imported) or 201 Created. A form refused (400), shown again (the
    other game's new-game form, 200) or turned away (403, 404, 409, 413) did nothing."""
    return response.status_code in (201, 302, 303)


def answered(response: HttpResponseBase) -> bool:
    """Whether a request was answered with what it asked for (the checker's verdict)."""
    return response.status_code < 400


def limited(
    limit: Limit, done: Callable[[HttpResponseBase], bool] = made
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A view's POSTs limited by ``limit``: a client at it gets the 429 page instead of the view;
    a POST the view answers as ``done`` counts."""

    def wrap(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def inner(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method != "POST":
                return view(request, *args, **kwargs)
            now = time.time()
            refusal = refused(limit, request, now)
            if refusal is not None:
                return too_many(request, limit, refusal)
            response = view(request, *args, **kwargs)
            if done(response):
                count(limit, request, now)
            return response

        return inner

    return wrap
