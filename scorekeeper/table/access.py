"""Who may read or score a table's games: the phones at the table, and nobody else.

A phone has no account. When it starts a table or opens a table's link it becomes a ``Device`` of
that table, and its browser keeps a signed cookie listing its devices. A page of a game resolves
the game's table and this phone's device there: no device, the game does not exist for this
phone (404, so a stranger cannot even learn the id is taken); a device that only follows cannot
write (403). A revoked device stops working at once.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from functools import wraps
from typing import Any, Concatenate, NamedTuple, ParamSpec

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db.models import FilteredRelation, Prefetch, Q, QuerySet, prefetch_related_objects
from django.http import Http404, HttpRequest, HttpResponse

from scorekeeper.table.models import Device, Game, Role, Seat, Table
from scorekeeper.table.pages import HtmxHttpRequest

COOKIE = "sk_devices"
SALT = "scorekeeper.devices"
MAX_AGE = 60 * 60 * 24 * 365 * 5  # five years: a table plays for years
MAX_DEVICES = 20  # tables one phone can be at

P = ParamSpec("P")


def device_ids(request: HttpRequest) -> list[int]:
    """The ids of the devices this phone's signed cookie lists (checked against the database by the callers)."""
    value = request.get_signed_cookie(COOKIE, default="", salt=SALT, max_age=MAX_AGE) or ""
    try:
        return [int(x) for x in value.split(",") if x][:MAX_DEVICES]
    except ValueError:
        return []


def devices(request: HttpRequest) -> list[Device]:
    """This phone's devices that still work, newest first (cached on the request)."""
    cached: list[Device] | None = getattr(request, "_sk_devices", None)
    if cached is None:
        ids = device_ids(request)
        cached = (
            list(Device.objects.filter(pk__in=ids, revoked__isnull=True).select_related("table").order_by("-pk"))
            if ids
            else []
        )
        request._sk_devices = cached  # type: ignore[attr-defined]
    return cached


def tables(request: HttpRequest) -> QuerySet[Table]:
    """The tables this phone is at (the page shows them: ``shows``)."""
    ids = [d.table_id for d in devices(request)]
    shows(request, *ids)
    return Table.objects.filter(pk__in=ids)


def shows(request: HttpRequest, *tables: int) -> None:
    """The page answering ``request`` shows these tables' games or phones: the phone's service
    worker files its offline copy under them (``webapp.mark_tables``), and drops it when the phone
    is taken off one of them (``OffTable``)."""
    shown: set[int] = request.__dict__.setdefault("_sk_tables", set())
    shown.update(tables)


def shown(request: HttpRequest) -> set[int]:
    """The tables the page answering ``request`` shows (``shows``)."""
    return request.__dict__.get("_sk_tables", set())


def device_at(request: HttpRequest, table_id: int) -> Device | None:
    """This phone's device at the table (one that scores, if it holds two)."""
    mine = [d for d in devices(request) if d.table_id == table_id]
    return next((d for d in mine if d.role == Role.SCORE), mine[0] if mine else None)


class OffTable(PermissionDenied):
    """This phone was at the table and the scorer took it off: it is told so (the 403 page, which
    names the table: the phone's offline copies of its pages and its drafts are dropped), and no
    link it already used brings it back until a scorer lets it back."""

    def __init__(self, table: int) -> None:
        super().__init__("The scorer took this phone off the table.")
        self.table = table


def _an_id(pk: int) -> bool:
    """Whether the database can hold ``pk`` as an id: one it cannot names nothing (and a query
    with it would fail on an integer too large)."""
    return 0 < pk < 2**63


def off_table(request: HttpRequest, table_id: int) -> Device | None:
    """This phone's device at the table that a scorer took off the table, if the phone holds one."""
    ids = device_ids(request)
    if not ids or not _an_id(table_id):
        return None
    return Device.objects.filter(pk__in=ids, table_id=table_id, revoked__isnull=False).order_by("-revoked").first()


def _not_at(request: HttpRequest, table_id: int) -> Exception:
    """Why a phone is not let in: taken off the table (it is told), or never at it (404)."""
    if off_table(request, table_id) is not None:
        return OffTable(table_id)
    return Http404("No such game")


def require(request: HttpRequest, table_id: int, role: str) -> Device:
    """This phone's device at the table, allowed to ``role``; else 404 (not at the table), or 403
    (taken off the table, or not allowed to ``role``)."""
    device = device_at(request, table_id)
    if device is None:
        raise _not_at(request, table_id)
    shows(request, table_id)
    return _allowed(device, role)


def _allowed(device: Device, role: str) -> Device:
    """The device, when it may ``role``; else 403."""
    if role == Role.SCORE and device.role != Role.SCORE:
        raise PermissionDenied("This phone follows the game: ask the scorer to let it score.")
    return device


def remember(response: HttpResponse, request: HttpRequest, device: Device) -> None:
    """Add ``device`` to this phone's cookie."""
    ids = [device.pk] + [i for i in device_ids(request) if i != device.pk]
    response.set_signed_cookie(
        COOKIE,
        ",".join(str(i) for i in ids[:MAX_DEVICES]),
        salt=SALT,
        max_age=MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )


BROWSER = "sk_browser"
BROWSER_AGE = 400 * 24 * 3600  # as long as a browser keeps a cookie


def browser(request: HttpRequest) -> str:
    """This browser's secret (its cookie ``sk_browser``, "" when it has none): what binds a form it
    submitted to it (``submissions.remember``), so that a repeat of the form from another browser,
    whoever read the form, is given nothing the first submit made."""
    value = request.COOKIES.get(BROWSER, "")
    return value if _SECRET.fullmatch(value) else ""


_SECRET = re.compile(r"[A-Za-z0-9_-]{32}")  # secrets.token_urlsafe(24)


def keep_browser(response: HttpResponse, request: HttpRequest) -> None:
    """Give this browser a secret (``browser``) if it has none yet: a form's page does, before its submit."""
    if not browser(request):
        response.set_cookie(
            BROWSER,
            secrets.token_urlsafe(24),
            max_age=BROWSER_AGE,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure(),
        )


def table_view(role: str) -> Callable[[Callable[Concatenate[HtmxHttpRequest, Table, Device, P], HttpResponse]], Any]:
    """A view of one table (URL argument ``table_id``) for a phone at it with ``role``: the view
    gets ``(request, table, device, ...)``."""

    def wrap(view: Callable[Concatenate[HtmxHttpRequest, Table, Device, P], HttpResponse]) -> Any:
        @wraps(view)
        def inner(request: HtmxHttpRequest, table_id: int, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
            device = require(request, table_id, role)
            return view(request, device.table, device, *args, **kwargs)

        return inner

    return wrap


def site_url(request: HttpRequest, path: str = "/") -> str:
    """The address another phone opens for ``path``: on the address ``make run`` printed (or the
    production one) when set, else on the one this page was opened at."""
    if settings.SITE_URL:
        return settings.SITE_URL + path
    return request.build_absolute_uri(path)


def game_and_device(request: HttpRequest, game_id: int) -> tuple[Game, Device]:
    """The game with its table and the deal the players are entering, if one is open (``open_deal``
    read with it: a game with none costs no query to say so), and this phone's device at that table
    (as ``device_at`` finds it: a ``FilteredRelation`` of the table's devices to the phone's own),
    in one query: what every page of a game needs first. 404 when there is no such game or the
    phone is not at its table (a stranger cannot even learn that the id is taken)."""
    ids = device_ids(request)
    games = Game.objects.select_related("table", "open_deal")
    if ids:
        mine = Q(table__devices__pk__in=ids, table__devices__revoked__isnull=True)
        games = games.annotate(mine=FilteredRelation("table__devices", condition=mine))
        games = games.select_related("mine")  # type: ignore[misc]  # django-stubs knows no FilteredRelation here
        games = games.order_by("-mine__role", "-mine__pk")  # one that scores ("score" > "follow"), else the newest
    game = games.filter(pk=game_id).first() if _an_id(game_id) else None
    if game is None:
        raise Http404("No such game")
    device: Device | None = getattr(game, "mine", None)
    if device is None:
        raise _not_at(request, game.table_id)
    device.table = game.table
    shows(request, game.table_id)
    return game, device


class LiveState(NamedTuple):
    """What a game's live page shows changes with (``live.answers.etag``), and the phone's role there."""

    version: int  # the game's: bumped by every write to it
    names: int  # its table's: bumped by a rename of one of its players (every game of the table shows it)
    role: str
    table: int


def live_state(device_ids: list[int], game_id: int) -> LiveState | None:
    """The game's version and its table's names, and the role of the phone's device at its table
    (``device_at``'s: one that scores, if the phone holds two; a revoked one does not count), in
    one query; None when there is no such game or none of ``device_ids`` is at its table. What a
    live page's fetch is answered by before anything is loaded (a 304), and a stream's access check."""
    if not device_ids or not _an_id(game_id):
        return None
    found = (
        Device.objects.filter(pk__in=device_ids, revoked__isnull=True, table__games=game_id)
        .order_by("-role", "-pk")  # "score" sorts after "follow"; else the newest
        .values_list("table__games__version", "table__names", "role", "table_id")
        .first()
    )
    return None if found is None else LiveState(*found)


def watching(request: HttpRequest, game_id: int) -> LiveState:
    """A live page's cheap check (``live_state``), 404 as ``game_and_device``."""
    found = live_state(device_ids(request), game_id)
    if found is None:
        raise Http404("No such game")
    return found


def with_players(game: Game) -> Game:
    """The game with its seats in order, their players and the phones at them (one query, once)."""
    prefetch_related_objects(
        [game], Prefetch("seats", Seat.objects.select_related("player", "phone").order_by("position"))
    )
    return game


def game_view(
    role: str, *, players: bool = True
) -> Callable[[Callable[Concatenate[HtmxHttpRequest, Game, Device, P], HttpResponse]], Any]:
    """A view of one game (URL argument ``game_id``) for a phone at its table with ``role``:
    the view gets ``(request, game, device, ...)``, the game with its table and, unless
    ``players=False`` (a view that loads them when it needs them: ``with_players``), its seats
    and their players."""

    def wrap(view: Callable[Concatenate[HtmxHttpRequest, Game, Device, P], HttpResponse]) -> Any:
        @wraps(view)
        def inner(request: HtmxHttpRequest, game_id: int, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
            game, device = game_and_device(request, game_id)
            _allowed(device, role)
            if players:
                with_players(game)
            return view(request, game, device, *args, **kwargs)

        return inner

    return wrap
