"""Every player enters his own hand on his own phone, at the same time.

A phone at the table sits at a seat of a game ("This is Ben's phone"; the scorer changes or clears
it). When a deal ends, a seated phone or the scorer opens it (``table.services.open_deal``); each
seated phone then enters its own hand with the deal form of the game (``forms.DealEntry`` shown for
one seat), the deal's own facts given once by whoever knows them first. Each hand is stored on the
server as it is submitted, versioned (``services.submit_hand``); every phone sees the deal come
together on the game page's live part (``table.opendeal``); the scorer saves it when every hand
is in and valid, or it saves itself (the table's setting). Small views: every write is a service.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.views.decorators.http import require_POST

from scorekeeper.table import access, services
from scorekeeper.table.forms import SeatForm
from scorekeeper.table.models import Device, Game, Role, Seat
from scorekeeper.table.pages import HtmxHttpRequest


def _game_page(game: Game) -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse("table:game", args=[game.pk]) + "#seats")


def game_context(game: Game, device: Device) -> dict[str, Any]:
    """What the game page shows of the phones at its seats (read when the template uses it)."""
    return {"seating": SimpleLazyObject(lambda: seating(game, device))}


def seating(game: Game, device: Device) -> dict[str, Any]:
    """The game's seats with the phone at each, this phone's seat, and the phones a scorer may seat."""
    seats = list(Seat.objects.filter(game=game).select_related("player", "phone").order_by("position"))
    rows = [
        {
            "position": s.position,
            "name": s.player.name,
            "phone": s.phone.name if s.phone and s.phone.revoked is None else "",
            "phone_id": s.phone_id if s.phone and s.phone.revoked is None else None,
            "mine": s.phone_id == device.pk,
        }
        for s in seats
    ]
    mine = next((r for r in rows if r["mine"]), None)
    phones = (
        list(game.table.devices.filter(revoked__isnull=True).order_by("created", "pk").values_list("pk", "name"))
        if device.scores
        else []
    )
    return {"rows": rows, "mine": mine, "phones": phones}


def seat_form(game: Game, data: object = None) -> SeatForm:
    phones = list(game.table.devices.filter(revoked__isnull=True).order_by("created", "pk").values_list("pk", "name"))
    return SeatForm(data, seats=game.player_names(), phones=phones)


@require_POST
@access.game_view(Role.FOLLOW)
def seat_phone(request: HtmxHttpRequest, game: Game, device: Device) -> HttpResponse:
    """This phone sits at a seat (or none); a scorer seats any phone of the table, or clears a seat."""
    form = seat_form(game, request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return _game_page(game)
    position = form.cleaned_data["seat"]
    try:
        if form.names_phone and position is not None:
            phone_id = form.cleaned_data["phone"]
            if phone_id is None:
                services.clear_seat(game=game, position=position, by=device)
            else:
                phone = game.table.devices.get(pk=phone_id)
                services.sit(game=game, position=position, phone=phone, by=device)
        else:
            services.sit(game=game, position=position, phone=device, by=device)
    except (services.AccessRefused, services.SeatTaken) as exc:
        messages.error(request, str(exc))
    return _game_page(game)
