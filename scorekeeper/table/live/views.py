"""A game page's stream of server-sent events (``live``): the one way a stream is answered."""

from __future__ import annotations

import logging

from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from scorekeeper.guards.clients import client_ip
from scorekeeper.table import access
from scorekeeper.table.live import hub

log = logging.getLogger(__name__)


@require_safe
async def game_events(request: HttpRequest, game_id: int) -> HttpResponse | StreamingHttpResponse:
    """The game page's stream (``hub``): the phone's access is checked as it opens (every
    reconnect is a new opening); then it says when the live part changed. 404 for a phone that is
    not (or no longer) at the game's table; 429 for one more stream than a phone or an address
    may hold (``hub.PHONE_STREAMS``, ``hub.ADDRESS_STREAMS``). Under a WSGI server (``make dev``'s runserver) a stream
    cannot stay open: 204, and the page polls instead. ``make run`` hands the streams to Django's
    ASGI handler (``scorekeeper.asgi``)."""
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)  # EventSource stops; live.js asks every second
    try:
        stream = await hub.open_stream(
            access.device_ids(request), game_id, get_language() or "", client_ip(request) or ""
        )
    except hub.TooMany:
        return too_many()
    except DatabaseError as exc:  # the page asks again (EventSource reconnects)
        log.warning("live: a stream could not be opened (%s)", exc)
        return HttpResponse("The server could not read the game; the page asks again.", status=503)
    if stream is None:
        raise Http404("No such game")
    response = StreamingHttpResponse(stream, headers=hub.HEADERS)
    # Not gzipped (GZipMiddleware reads this as the response passes): a compressor per stream.
    request.META.pop("HTTP_ACCEPT_ENCODING", None)
    return response


def too_many() -> HttpResponse:
    """A stream more than the phone (or its address) may hold (``hub.TooMany``): refused before
    anything is read, and the connection closed (its file is free at once). EventSource does not
    connect again after a 429: live.js polls the live part instead (no storm of reconnects)."""
    response = HttpResponse(
        "Too many open streams from this phone or address; the page asks every second instead.",
        status=429,
        content_type="text/plain; charset=utf-8",
    )
    response["Retry-After"] = "60"
    response["Connection"] = "close"
    return response
