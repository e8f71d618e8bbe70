"""Per-client limits on the public writes: new tables, joining, importing, checking.

A stranger with no link can still start a table, open a join link, upload an import or ask the
checker: each costs the server work and the tables' database. Each is limited per client address
(``clients.client_ip``: the peer, or the proxy's last X-Forwarded-For entry) in a fixed window,
counted in Django's cache ``limits`` (the database cache by default, shared by every app process
and server). A request over the limit is answered 429 with a page that says when to try again
(and ``Retry-After``); nothing else happens. GET requests are never limited.

The limits are generous on purpose: a club's Wi-Fi puts every phone behind one address.
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
from django.shortcuts import render
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from scorekeeper.guards.clients import client_ip

CACHE = "limits"


@dataclass(frozen=True, slots=True)
class Limit:
    name: str
    what: str | Promise  # what the client did too often, as the 429 page says it (translated)
    count: int  # requests allowed in a window
    seconds: int  # the window


TABLES = Limit(name="tables", what=gettext_lazy("new tables and games"), count=60, seconds=3600)
JOINS = Limit(name="joins", what=gettext_lazy("joins"), count=120, seconds=600)
IMPORTS = Limit(name="imports", what=gettext_lazy("imports"), count=20, seconds=3600)
CHECKS = Limit(name="checks", what=gettext_lazy("checks"), count=1200, seconds=600)  # the checker checks as one types


def over(limit: Limit, request: HttpRequest, now: float | None = None) -> int:
    """Count this request against ``limit``; the seconds to wait if it is over it, else 0."""
    now = time.time() if now is None else now
    window = int(now // limit.seconds)
    key = f"{limit.name}:{client_ip(request) or '-'}:{window}"
    cache = caches[CACHE]
    cache.add(key, 0, timeout=limit.seconds + 60)
    try:
        count = cache.incr(key)
    except ValueError:  # the entry expired between add and incr
        cache.set(key, 1, timeout=limit.seconds + 60)
        count = 1
    if count <= limit.count:
        return 0
    return max(1, math.ceil((window + 1) * limit.seconds - now))


def too_many(request: HttpRequest, limit: Limit, wait: int) -> HttpResponse:
    minutes = max(1, math.ceil(wait / 60))
    response = render(request, "429.html", {"limit": limit, "minutes": minutes}, status=429)
    response["Retry-After"] = str(wait)
    return response


def limited(limit: Limit) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A view's POSTs counted against ``limit``: over it, the 429 page instead of the view."""

    def wrap(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def inner(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method == "POST":
                wait = over(limit, request)
                if wait:
                    return too_many(request, limit, wait)
            return view(request, *args, **kwargs)

        return inner

    return wrap
