"""Who may read or score a table's games: the phones at the table, and nobody else.

A phone has no account. When it starts a table or opens a table's link it becomes a ``Device`` of
that table, and its browser keeps a signed cookie listing its devices. A page of a game resolves
the game's table and this phone's device there: no device, the game does not exist for this
phone (404, so a stranger cannot even learn the id is taken); a device that only follows cannot
write (403). A revoked device stops working at once.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, Concatenate, ParamSpec

from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch, QuerySet
from django.http import Http404, HttpRequest, HttpResponse

from scorekeeper.table.models import Device, Game, Role, Seat, Table
from scorekeeper.table.pages import HtmxHttpRequest

COOKIE = "sk_devices"
SALT = "scorekeeper.devices"
MAX_AGE = 60 * 60 * 24 * 365 * 5  # five years: a table plays for years
MAX_DEVICES = 20  # tables one phone can be at

P = ParamSpec("P")


def _ids(request: HttpRequest) -> list[int]:
    value = request.get_signed_cookie(COOKIE, default="", salt=SALT, max_age=MAX_AGE) or ""
    try:
        return [int(x) for x in value.split(",") if x][:MAX_DEVICES]
    except ValueError:
        return []


def devices(request: HttpRequest) -> list[Device]:
    """This phone's devices that still work, newest first (cached on the request)."""
    cached: list[Device] | None = getattr(request, "_sk_devices", None)
    if cached is None:
        ids = _ids(request)
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
    return next((d for d in devices(request) if d.table_id == table_id), None)


def require(request: HttpRequest, table_id: int, role: str) -> Device:
    """This phone's device at the table, allowed to ``role``; else 404 (not at the table) or 403."""
    device = device_at(request, table_id)
    if device is None:
        raise Http404("No such game")
    if role == Role.SCORE and device.role != Role.SCORE:
        raise PermissionDenied("This phone follows the game: ask the scorer to let it score.")
    return device


def remember(response: HttpResponse, request: HttpRequest, device: Device) -> None:
    """Add ``device`` to this phone's cookie."""
    ids = [device.pk] + [i for i in _ids(request) if i != device.pk]
    response.set_signed_cookie(
        COOKIE,
        ",".join(str(i) for i in ids[:MAX_DEVICES]),
        salt=SALT,
        max_age=MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )


def game_view(role: str) -> Callable[[Callable[Concatenate[HtmxHttpRequest, Game, Device, P], HttpResponse]], Any]:
    """A view of one game (URL argument ``game_id``) for a phone at its table with ``role``:
    the view gets ``(request, game, device, ...)``."""

    def wrap(view: Callable[Concatenate[HtmxHttpRequest, Game, Device, P], HttpResponse]) -> Any:
        @wraps(view)
        def inner(request: HtmxHttpRequest, game_id: int, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
            seats = Prefetch("seats", Seat.objects.select_related("player").order_by("position"))
            game = next(iter(Game.objects.filter(pk=game_id).order_by().prefetch_related(seats)), None)
            if game is None:
                raise Http404("No such game")
            device = require(request, game.table_id, role)
            return view(request, game, device, *args, **kwargs)

        return inner

    return wrap
