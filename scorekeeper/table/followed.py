"""A following phone's live part, made once a version (issue 23): the plain path is the game view
(``views._game_page``); tests/table/test_followed.py proves the two give the same answer.

When a save reaches the phones watching a game (``live``), every phone that only follows asks for
the game page's live part at once. For all of them it is the same page, but for each phone's CSRF
token in its forms: it is made of the game's version and its table's names, the phone's role and
its language (its validator, ``live.etag``), and of the seat the phone sits at (its own forms). So
the first follower's live part is kept in the cache, cut at its CSRF tokens, under those; the
next follower's is that, with its own token put in. Kept only when no deal is open: the open deal's
status holds a one-time submission token and changes by itself (a hand being typed).

Why a second path: the live part was the only work a save left the server per watching phone.
Measured (``python -m benchmarks live``: make run's server, SQLite, this 2-core machine): a
follower's fetch of it costs 2.65-2.78 ms of server CPU kept, 3.50-3.88 ms made by the game view
(a bare Django view: 0.9 ms). An id is never reused in a server's database; a database restored
from a copy is restored with the app stopped (README), and the cache goes with it.
"""

from __future__ import annotations

import re

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils.html import format_html

from scorekeeper.table import live
from scorekeeper.table.models import Seat

# The CSRF token's field as ``{% csrf_token %}`` writes it, and what the kept part is cut at.
FIELD = '<input type="hidden" name="csrfmiddlewaretoken" value="{}">'
TOKEN_FIELD = re.compile(re.escape(FIELD).replace(r"\{\}", "[A-Za-z0-9]+"))
KEPT_SECONDS = 3600  # a version's live part: the phones of a table ask for it within seconds


def _key(game_id: int, tag: str, seat: int | None) -> str:
    return f"followed:{game_id}:{seat}:{tag}"


def seat_of(game_id: int, device_id: int) -> int | None:
    """The seat the phone's device sits at in the game, if any."""
    return Seat.objects.filter(game_id=game_id, phone_id=device_id).values_list("position", flat=True).first()


def answer(request: HttpRequest, game_id: int, tag: str, seat: int | None) -> HttpResponse | None:
    """The live part kept for this version, seat and language, with this request's CSRF token
    (the token is asked for only where the part has a form, as the template does); None if none
    is kept."""
    parts = cache.get(_key(game_id, tag, seat))
    if parts is None:
        return None
    field = format_html(FIELD, get_token(request)) if len(parts) > 1 else ""
    return live.mark(HttpResponse(field.join(parts)), tag)


def keep(response: HttpResponse, game_id: int, tag: str, seat: int | None) -> None:
    """Keep a follower's live part as the game view made it (``tag`` its validator), for the next."""
    parts = TOKEN_FIELD.split(response.content.decode())
    cache.set(_key(game_id, tag, seat), parts, KEPT_SECONDS)
