"""The pages of the phones and links: the table page (the phones at a table and the links that
let another phone in), joining by a link, and the phones at a game's seats.

Only a phone at the table sees it (404 for any other). A phone that scores sees the links (as a
QR code to scan and an address to send) and manages the phones: let one score, make one only
follow, take one's access away; it renews or revokes the links. A following phone sees who is at
the table and may rename itself. A link opened: the phone joins the table. The phones at a
game's seats ("This is Ben's phone"). Every write is in ``phones.services``.
"""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scorekeeper.guards.limits import JOINS, limited
from scorekeeper.table import access, qr
from scorekeeper.table.models import Device, Game, GameState, Link, Role, Seat, Table
from scorekeeper.table.pages import AT_SEATS, HtmxHttpRequest, refused, render_page
from scorekeeper.table.phones import services
from scorekeeper.table.phones.forms import JoinForm, PhoneNameForm, RoleForm, SeatForm, TableNameForm


def _back(table: Table) -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse("table:table", args=[table.pk]))


def invitation(request: HtmxHttpRequest, link: Link) -> dict[str, Any]:
    """A link as the table page shows it: its address and a QR code of it (none for a link whose
    token cannot be made again: ``Link.token``)."""
    expires = link.created + services.SCORE_LINK_LIFETIME if link.role == Role.SCORE else None
    token = link.token
    if token is None:
        return {"link": link, "url": None, "qr": None, "expires": expires}
    url = access.site_url(request, reverse("table:join", args=[token]))
    return {"link": link, "url": url, "qr": qr.svg_qr(url), "expires": expires}


def _page(
    request: HtmxHttpRequest, table: Table, device: Device, status: int = 200, problem: str = "", **forms: Any
) -> HttpResponse:
    phones = list(table.devices.filter(revoked__isnull=True).order_by("role", "created", "pk"))
    scores = device.role == Role.SCORE
    taken_off = list(table.devices.filter(revoked__isnull=False).order_by("-revoked", "-pk")[:20]) if scores else []
    links = _links(request, table) if scores else []
    context = {
        "table": table,
        "device": device,
        "scores": scores,
        "phones": phones,
        "taken_off": taken_off,
        "follow_links": [i for i in links if i["link"].role == Role.FOLLOW],
        "score_links": [i for i in links if i["link"].role == Role.SCORE],
        "games": Game.objects.filter(table=table).listed()[:5],
        "rename": forms.get("rename") or PhoneNameForm(initial={"name": device.name}),
        "table_name": forms.get("table_name") or TableNameForm(initial={"name": table.name}),
        "lifetime_hours": int(services.SCORE_LINK_LIFETIME.total_seconds() // 3600),
        "problem": problem,
    }
    return render_page(request, "table/table.html", context, status=status)


def _links(request: HtmxHttpRequest, table: Table) -> list[dict[str, Any]]:
    """The table's links that work, newest first, as the table page shows them to a scorer."""
    return [invitation(request, link) for link in table.links.order_by("-created", "-pk") if services.link_works(link)]


@require_safe
@access.table_view(Role.FOLLOW)
def table_page(request: HtmxHttpRequest, table: Table, device: Device) -> HttpResponse:
    return _page(request, table, device)


@require_POST
@access.table_view(Role.SCORE)
def link_new(request: HtmxHttpRequest, table: Table, device: Device) -> HttpResponse:
    form = RoleForm(request.POST)
    if form.is_valid():
        role = form.cleaned_data["role"]
        link = services.create_link(table=table, role=role, by=device)
        return HttpResponseRedirect(reverse("table:table", args=[table.pk]) + f"#link-{link.pk}")
    return _page(request, table, device, status=400)


def _link(table: Table, link_id: int) -> Link:
    return get_object_or_404(Link, table=table, pk=link_id)


@require_POST
@access.table_view(Role.SCORE)
def link_renew(request: HtmxHttpRequest, table: Table, device: Device, link_id: int) -> HttpResponse:
    link = services.renew_link(link=_link(table, link_id), by=device)
    messages.success(request, gettext("A new link: the old one no longer works."))
    return HttpResponseRedirect(reverse("table:table", args=[table.pk]) + f"#link-{link.pk}")


@require_POST
@access.table_view(Role.SCORE)
def link_revoke(request: HtmxHttpRequest, table: Table, device: Device, link_id: int) -> HttpResponse:
    services.revoke_link(link=_link(table, link_id), by=device)
    messages.success(
        request, gettext("The link no longer works. Phones that joined by it stay until you take them off.")
    )
    return _back(table)


def _phone(table: Table, device_id: int) -> Device:
    return get_object_or_404(Device, table=table, pk=device_id, revoked__isnull=True)


def _refused(request: HtmxHttpRequest, table: Table, device: Device, message: str) -> HttpResponse:
    return _page(request, table, device, status=409, problem=message)


@require_POST
@access.table_view(Role.SCORE)
def phone_role(request: HtmxHttpRequest, table: Table, device: Device, device_id: int) -> HttpResponse:
    phone = _phone(table, device_id)
    form = RoleForm(request.POST)
    if not form.is_valid():
        return _page(request, table, device, status=400)
    try:
        services.set_role(device=phone, role=form.cleaned_data["role"], by=device)
    except services.AccessRefused as exc:
        return _refused(request, table, device, str(exc))
    if phone.role == Role.SCORE:
        messages.success(request, gettext("{name} scores now.").format(name=phone.name))
    else:
        messages.success(request, gettext("{name} only follows now.").format(name=phone.name))
    return _back(table)


@require_POST
@access.table_view(Role.SCORE)
def phone_revoke(request: HtmxHttpRequest, table: Table, device: Device, device_id: int) -> HttpResponse:
    phone = _phone(table, device_id)
    try:
        renewed = services.revoke_device(device=phone, by=device)
    except services.AccessRefused as exc:
        return _refused(request, table, device, str(exc))
    if phone.pk == device.pk:
        return HttpResponseRedirect(reverse("table:home"))
    if renewed:  # the links it knew: the page shows the new ones
        said = gettext(
            "{name} no longer has access to the table. The table's links are new: the old ones no longer work, "
            "show the new code to a new phone. Let it back below to undo."
        )
    else:
        said = gettext("{name} no longer has access to the table. Let it back below to undo.")
    messages.success(request, said.format(name=phone.name))
    return _back(table)


@require_POST
@access.table_view(Role.SCORE)
def phone_let_back(request: HtmxHttpRequest, table: Table, device: Device, device_id: int) -> HttpResponse:
    phone = get_object_or_404(Device, table=table, pk=device_id)
    services.let_back(device=phone, by=device)
    messages.success(request, gettext("{name} is back at the table.").format(name=phone.name))
    return _back(table)


@require_POST
@access.table_view(Role.FOLLOW)
def phone_rename(request: HtmxHttpRequest, table: Table, device: Device) -> HttpResponse:
    """This phone's name, which the change history shows beside what it changed."""
    form = PhoneNameForm(request.POST)
    if not form.is_valid():
        return _page(request, table, device, status=400, rename=form)
    services.rename_device(device=device, name=form.cleaned_data["name"])
    messages.success(request, gettext("Renamed."))
    return _back(table)


@require_POST
@access.table_view(Role.SCORE)
def table_rename(request: HtmxHttpRequest, table: Table, device: Device) -> HttpResponse:
    form = TableNameForm(request.POST)
    if not form.is_valid():
        return _page(request, table, device, status=400, table_name=form)
    services.rename_table(table=table, name=form.cleaned_data["name"], by=device)
    messages.success(request, gettext("Renamed."))
    return _back(table)


@require_POST
@access.table_view(Role.SCORE)
def table_settings(request: HtmxHttpRequest, table: Table, device: Device) -> HttpResponse:
    """The table's settings: whether a deal the players enter on their phones saves itself."""
    services.set_save_when_complete(table=table, value=request.POST.get("save_when_complete") == "on", by=device)
    messages.success(request, gettext("Saved."))
    return _back(table)


@require_http_methods(["GET", "POST"])
@limited(JOINS)
def join(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """A table's link: this phone joins the table, to score or to follow as the link says, and
    goes to the table's game in progress (or the table's page)."""
    link = _link_of(token)
    already = access.device_at(request, link.table_id) if link is not None else None
    if link is not None and already is None and access.off_table(request, link.table_id) is not None:
        raise access.OffTable(link.table_id)  # told so, by this link or an old one (replaced as it was taken off)
    if link is None or not services.link_works(link):
        return render(request, "table/join.html", {"link": None}, status=404)
    form = JoinForm(request.POST or None, initial={"name": already.name if already else ""})
    if request.method == "POST" and form.is_valid():
        try:
            device = services.join_table(link=link, name=form.cleaned_data["name"], replacing=already)
        except services.AccessRefused:
            return render(request, "table/join.html", {"link": None}, status=404)
        return _joined(request, link, device)
    return render(
        request,
        "table/join.html",
        {"link": link, "form": form, "already": already},
        status=400 if form.is_bound else 200,
    )


def _link_of(token: str) -> Link | None:
    """The link this token opened, whether it still works or not (a token no link could have opens
    none: a NUL would reach PostgreSQL, which refuses it)."""
    return (
        Link.opened_by(token).select_related("table").first() if re.fullmatch(r"[A-Za-z0-9_-]{1,64}", token) else None
    )


def _joined(request: HtmxHttpRequest, link: Link, device: Device) -> HttpResponse:
    """A phone joined by ``link``: to the table's game in progress (or the table's page), its cookie set."""
    playing = link.table.games.filter(state=GameState.IN_PROGRESS).order_by("-updated", "-pk").first()
    where = reverse("table:game", args=[playing.pk]) if playing else reverse("table:table", args=[link.table_id])
    response = HttpResponseRedirect(where)
    access.remember(response, request, device)
    return response


def seating(game: Game, device: Device, seats: list[Seat]) -> dict[str, Any]:
    """The game's seats (``seats``, with their players and phones) with the phone at each, this
    phone's seat, and the phones a scorer may seat."""
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
        return refused(
            request, game.pk, " ".join(str(e) for errors in form.errors.values() for e in errors), at=AT_SEATS
        )
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
        return refused(request, game.pk, str(exc), at=AT_SEATS)
    return HttpResponseRedirect(reverse("table:game", args=[game.pk]) + "#seats")
