"""Live game pages: every phone at the table follows a save on another phone within a second.

A watching phone holds one connection open: ``static/live.js`` opens the game's stream of
server-sent events (``views.game_events``; under ``make run``, ``stream``; both ``watchers``), which
says only "the game changed" — the validator of the live part this phone should now hold (its
``etag``: the game's version, its table's names, the phone's role, the language). When it differs
from the one the page shows, the page fetches its live part as before (``If-None-Match``, through
the ordinary game view, which checks the phone's access on every fetch) and swaps it in. The stream
checks the phone's access as it opens (and so on every reconnect, which ``EventSource`` makes by
itself after a drop); a phone taken off the table is told at once (``gone``) and the page reloads
to say why.

How a save reaches the streams, with no broker of our own (several app processes, one database):

- Every write that changes what a game page shows calls ``games_changed`` (it bumps
  ``Game.version``), a rename of a player ``names_changed`` (it bumps ``Table.names``: every game
  of the table shows the name, finished ones too) and every change of a phone's access
  ``devices_changed``, inside the write's transaction. On PostgreSQL they send ``NOTIFY`` on
  ``CHANNEL`` (delivered on commit, to every app process); each process LISTENs on one connection
  shared by all its watchers.
- On SQLite they do nothing: each process with watchers asks the database for the versions (and
  their tables' names) of the watched games and the state of the watching phones, once per
  ``watchers.CHECK_SECONDS`` for all of them.

A browser without ``EventSource``, or served by a WSGI server (``make dev``'s runserver, where the
stream answers 204), polls the live part every ``POLL_SECONDS`` as before; without JavaScript a
reload shows the latest. Unchanged, the answer is ``304 Not Modified``, found with one indexed
query and nothing rendered.

Measured (``python -m benchmarks live``, 1,000 phones, SQLite, this 2-core machine): a watching
phone costs the server 0.016-0.051 ms of CPU a second (the poll: 0.8-1.3 ms), and a save reaches
the other phones of its table in 0.28-0.31 s (p50), 0.50-0.55 s (p99): each stream waits up to
``watchers.SPREAD_SECONDS`` at random before it says so, so that the phones of a table do not all
ask at once. A save's p99 with 200 phones watching went from 1.57x its p99 alone to 1.27-1.36x,
then to 1.15-1.26x (1.20, 1.15, 1.26, 1.22, 1.20 in five runs whose rounds went from 0.34 to 3.32)
once a game page's first loads were raw SQL (``rawgame``: a follower's fetch of the live part
costs half what it did). A stream's opening and closing cost 3.4-4.5 ms through Django's ASGI
handler, 0.73-0.90 ms answered on ASGI itself (``stream``); with that, in paired runs of 300 saves
alone and 300 watched (the machine slower that day), a watched save cost the server 35.6-37.3 ms
of CPU more than one alone, against 45.7-49.8 before, and the ratio was 1.17-1.19x against
1.45-1.59x; two runs of ``make bench live`` on the same code gave 1.31x and 1.34x. On the code of
2026-11-27 (the same channel; the game pages' fixes since), four runs gave 1.08x, 1.08x, 0.82x and
1.09x (target 1.2x), their rounds from 0.42 to 2.24: the machine's noise, not the channel, moves it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from datetime import datetime

from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags
from django.utils.translation import get_language

from scorekeeper.table.models import Game, Table

# How often a phone without EventSource asks (seconds).
POLL_SECONDS = 1
# The end of a tag held until a time (``etag``'s ``until``): its Unix time.
HELD = re.compile(r'-u(\d+)"$')
# The NOTIFY channel of a PostgreSQL database: payload "g<game id>:<version>:<its table's names>",
# "n<table id>" (a rename) or "d<device id>".
CHANNEL = "scorekeeper_live"


def etag(
    version: int, names: int, role: str, *, partial: bool, language: str | None = None, until: datetime | None = None
) -> str:
    """The validator of a game page as this phone sees it: of the game's version and its table's
    ``names`` (a rename of a player shows on every game of the table, finished ones included,
    without bumping their versions), the phone's role (the page and its live part differ, and so do
    the languages: a German and an English phone may watch the same game). ``until``: the time what
    it shows changes with no write (a hand shown being typed is missing again): the validator holds
    only until then (``unchanged``)."""
    lang = language if language is not None else (get_language() or "")
    held = f"-u{math.ceil(until.timestamp())}" if until is not None else ""
    return f'W/"g{version}.{names}-{role}-{lang}-{"p" if partial else "f"}{held}"'


def unchanged(request: HttpRequest, tag: str) -> bool:
    """Whether the phone holds this version already (``If-None-Match``, weak comparison; a tag
    held until a time is this version's until then, and no version's after)."""
    header = request.headers.get("if-none-match")
    if not header:
        return False
    bare = tag.removeprefix("W/")
    return any(_holding(t.removeprefix("W/")) == bare or t == "*" for t in parse_etags(header))


def _holding(tag: str) -> str:
    held = HELD.search(tag)
    if held is None:
        return tag
    return tag[: held.start()] + '"' if int(held[1]) > timezone.now().timestamp() else ""


def mark(response: HttpResponse, tag: str) -> HttpResponse:
    """Give a game page (or its 304) its validator: the phone revalidates it on every visit."""
    response["ETag"] = tag
    response["Cache-Control"] = "private, no-cache"
    patch_vary_headers(response, ("Cookie", "HX-Request"))
    return response


def not_modified(tag: str) -> HttpResponse:
    return mark(HttpResponseNotModified(), tag)


def _notify(sql: str, ids: list[int]) -> None:
    if ids and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(sql, [CHANNEL, ids])


def games_changed(game_ids: Iterable[int]) -> None:
    """Tell the watchers of these games that they changed (call it inside the write's transaction,
    after bumping their versions): on PostgreSQL a NOTIFY of each game's version and its table's
    names, sent on commit; on SQLite nothing (the processes watching compare them)."""
    qn = connection.ops.quote_name
    games, tables = qn(Game._meta.db_table), qn(Table._meta.db_table)
    _notify(
        f"SELECT pg_notify(%s, 'g' || g.id || ':' || g.version || ':' || t.names) FROM {games} g"
        f" JOIN {tables} t ON t.id = g.table_id WHERE g.id = ANY(%s)",
        sorted(set(game_ids)),
    )


def names_changed(table_id: int) -> None:
    """Tell the watchers of every game of this table that its players' names changed (a rename;
    call it inside the write's transaction, after bumping the table's ``names``): each checks its
    game again. On SQLite nothing (the processes watching compare the tables' names)."""
    _notify("SELECT pg_notify(%s, 'n' || t) FROM unnest(%s::bigint[]) AS t", [table_id])


def devices_changed(device_ids: Iterable[int]) -> None:
    """Tell the streams of these phones that their access changed (taken off the table, let back,
    another role): each checks it again, and a phone taken off the table is told at once."""
    _notify("SELECT pg_notify(%s, 'd' || d) FROM unnest(%s::bigint[]) AS d", sorted(set(device_ids)))
