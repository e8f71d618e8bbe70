"""The table page: the phones at a table and the links that let another phone in.

Only a phone at the table sees it (404 for any other). A phone that scores sees the links (as a
QR code to scan and an address to send) and manages the phones: let one score, make one only
follow, take one's access away; it renews or revokes the links. A following phone sees who is at
the table and may rename itself. Every write is in ``table.services``.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from scorekeeper.table import access, lan, services
from scorekeeper.table.forms import PhoneNameForm, RoleForm, TableNameForm
from scorekeeper.table.models import Device, Game, Link, Role, Table
from scorekeeper.table.pages import HtmxHttpRequest, render_page


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
    return {"link": link, "url": url, "qr": lan.svg_qr(url), "expires": expires}


def _page(
    request: HtmxHttpRequest, table: Table, device: Device, status: int = 200, problem: str = "", **forms: Any
) -> HttpResponse:
    phones = list(table.devices.filter(revoked__isnull=True).order_by("role", "created", "pk"))
    scores = device.role == Role.SCORE
    taken_off = list(table.devices.filter(revoked__isnull=False).order_by("-revoked", "-pk")[:20]) if scores else []
    links = []
    if scores:
        live = [link for link in table.links.order_by("-created", "-pk") if services.link_works(link)]
        links = [invitation(request, link) for link in live]
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
        services.revoke_device(device=phone, by=device)
    except services.AccessRefused as exc:
        return _refused(request, table, device, str(exc))
    if phone.pk == device.pk:
        return HttpResponseRedirect(reverse("table:home"))
    messages.success(
        request, gettext("{name} no longer has access to the table. Let it back below to undo.").format(name=phone.name)
    )
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
