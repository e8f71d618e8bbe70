"""Who may read or score a table's games: the phones at the table, and nobody else.

A phone has no account. When it starts a table or opens a table's link it becomes a ``Device`` of
that table, and its browser keeps a signed cookie listing its devices. A page of a game resolves
the game's table and this phone's device there: no device, the game does not exist for this
phone (404, so a stranger cannot even learn the id is taken); a device that only follows cannot
write (403). A revoked device stops working at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any, Concatenate, ParamSpec

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse

from scorekeeper.table import poll, rawgame
from scorekeeper.table.models import Device, Game, Role, Table
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
    """The tables this phone is at."""
    return Table.objects.filter(pk__in=[d.table_id for d in devices(request)])


def device_at(request: HttpRequest, table_id: int) -> Device | None:
    """This phone's device at the table (one that scores, if it holds two)."""
    mine = [d for d in devices(request) if d.table_id == table_id]
    return next((d for d in mine if d.role == Role.SCORE), mine[0] if mine else None)


class OffTable(PermissionDenied):
    """This phone was at the table and the scorer took it off: it is told so (the 403 page), and no
    link it already used brings it back until a scorer lets it back."""


def off_table(request: HttpRequest, table_id: int) -> Device | None:
    """This phone's device at the table that a scorer took off the table, if the phone holds one."""
    ids = device_ids(request)
    if not ids or not 0 < table_id < 2**63:  # an id the database cannot hold names no table
        return None
    return Device.objects.filter(pk__in=ids, table_id=table_id, revoked__isnull=False).order_by("-revoked").first()


def _not_at(request: HttpRequest, table_id: int) -> Exception:
    """Why a phone is not let in: taken off the table (it is told), or never at it (404)."""
    if off_table(request, table_id) is not None:
        return OffTable("The scorer took this phone off the table.")
    return Http404("No such game")


def require(request: HttpRequest, table_id: int, role: str) -> Device:
    """This phone's device at the table, allowed to ``role``; else 404 (not at the table), or 403
    (taken off the table, or not allowed to ``role``)."""
    device = device_at(request, table_id)
    if device is None:
        raise _not_at(request, table_id)
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
    (as ``device_at`` finds it), in one query (``rawgame``): what every page of a game needs first.
    404 when there is no such game or the phone is not at its table (a stranger cannot even learn
    that the id is taken)."""
    game, device = rawgame.game_and_device(device_ids(request), game_id)
    if game is None:
        raise Http404("No such game")
    if device is None:
        raise _not_at(request, game.table_id)
    return game, device


def watching(request: HttpRequest, game_id: int) -> poll.LiveState:
    """A live page's cheap check: the game's version, its table's names and this phone's role at
    its table (404 as ``game_and_device``), in one raw query (``poll``: the once-a-second poll,
    where it matters)."""
    found = poll.live_state(device_ids(request), game_id)
    if found is None:
        raise Http404("No such game")
    return found


def with_players(game: Game) -> Game:
    """The game with its seats, their players and the phones at them (one query, once: ``rawgame``)."""
    if "seats" not in getattr(game, "_prefetched_objects_cache", {}):
        rawgame.seats(game)
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


def client_ip(request: HttpRequest) -> str | None:
    """The address a request came from, for the admin's login throttling: the last address of
    X-Forwarded-For when a proxy that sets it stands in front (``DJANGO_BEHIND_PROXY``), else
    the peer's. Never the first X-Forwarded-For address: a client can write that one."""
    if settings.BEHIND_PROXY:
        forwarded = [a.strip() for a in request.headers.get("x-forwarded-for", "").split(",") if a.strip()]
        if forwarded:
            return forwarded[-1]
    return request.META.get("REMOTE_ADDR")


MAX_LOGIN_NAME = 150  # django.contrib.auth's user names


def login_username(request: HttpRequest, credentials: Mapping[str, Any] | None = None) -> str | None:
    """The name a failed admin login is counted under by the throttling (django-axes): as typed,
    cut to the longest a user name can be. The login form lets any length through to the check,
    and the throttling's table holds 255 characters: PostgreSQL refused a longer one (a 500)."""
    source = credentials if credentials else getattr(request, "POST", {})
    name = source.get("username")
    return name[:MAX_LOGIN_NAME] if isinstance(name, str) else None
