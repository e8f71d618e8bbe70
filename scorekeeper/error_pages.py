"""The app's own pages for 400, 403, 500 and 503, in its layout, saying what happened and what to do.

Django's own 400 and 500 views run the CSRF check again (``requires_csrf_token``): a request whose
body cannot be read (a form declaring ``charset=utf-16``) made them raise in turn, and the phone got
no answer at all. These read nothing of the request but what a page needs. The 403 page says why
(taken off the table, at no table, or not allowed at its table) and shows back
the cards a refused save carried (a phone that lost scoring while entering a deal), read-only: the
phone also keeps them (static/drafts.js). The 503 page (``not_written``: a write the database
refused) keeps the whole form. 404 is Django's, with templates/404.html."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.template import loader
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, gettext_lazy

from scorekeeper.table import access
from scorekeeper.table.access import OffTable

CARD_FIELDS = ("melded", "held", "melds", "cards", "deadwood", "upcard")
# The fields a person types beside the card fields and a new game's players (``seat_0``...): a
# name, a pasted record. The 503 page shows them back.
TYPED_FIELDS = ("name", "text")


def _posted_form(request: HttpRequest) -> QueryDict | None:
    """The fields of a form the request posts (None: no form posted, or a body that cannot be read)."""
    if request.method != "POST" or not (request.content_type or "").startswith(
        ("application/x-www-form", "multipart/")
    ):
        return None
    try:
        return request.POST
    except Exception:  # a body that cannot be read: nothing to show back
        return None


def _field_label(name: str) -> str:
    """A field as the page names it: "Player 2: held" for ``p-1-held``, "Player 2" for ``seat_1``
    (a new game's), "Name", "Game record" (a pasted one); another name as it is."""
    seat, _, kind = name.removeprefix("p-").partition("-")
    if seat.isdigit() and kind:
        return gettext("Player {number}: {field}").format(number=int(seat) + 1, field=kind)
    if name.startswith("seat_") and name[5:].isdigit():
        return gettext("Player {number}").format(number=int(name[5:]) + 1)
    return {"name": gettext("Name"), "text": gettext("Game record")}.get(name, name)


def _typed(request: HttpRequest, *, cards_only: bool = False) -> list[tuple[str, str]]:
    """What a person typed into the form the request posts — its card fields, and unless
    ``cards_only`` its names and pasted record (``TYPED_FIELDS``) and a new game's players —, as
    (label, text), the empty ones left out; not its choices or hidden fields."""
    posted = _posted_form(request)
    if posted is None:
        return []
    return [
        (_field_label(name), value)
        for name in posted
        if name.endswith(CARD_FIELDS) or not cards_only and (name in TYPED_FIELDS or name.startswith("seat_"))
        for value in posted.getlist(name)
        if isinstance(value, str) and value.strip()
    ]


# What a write the database refused says (the 503 page, the phone alone's JSON).
NOT_WRITTEN = gettext_lazy(
    "The server could not save this: its database takes no changes just now (its disk may be full, or it is "
    "read-only). Nothing was changed."
)


def not_written(request: HttpRequest) -> HttpResponse:
    """503 for a write the database refused (``recovery.RefusedWrites``), which keeps what the
    phone sent: our page with what was typed and the whole form posted again by its Try again
    button (its once-only token too: a retry the first did write is answered as the first was),
    or, for a JSON post (the phone alone's hand-over, which keeps its game), the reason as JSON."""
    said = str(NOT_WRITTEN)
    if (request.content_type or "").startswith("application/json"):
        return JsonResponse({"errors": [{"message": said}]}, status=503, headers={"Retry-After": "30"})
    posted, files = _posted_form(request), []
    if posted is None:  # no form posted, or a body that cannot be read: nothing to keep
        posted = QueryDict()
    else:
        files = [upload.name for name in request.FILES for upload in request.FILES.getlist(name)]
    referer = request.headers.get("referer", "")
    back = referer if url_has_allowed_host_and_scheme(referer, {request.get_host()}) else "/"
    context = {
        "said": said,
        "typed": _typed(request),
        # Every field to send again, but a password (the admin's login): it is typed again.
        "fields": [(name, value) for name, values in posted.lists() if "password" not in name for value in values],
        "files": files,
        "action": request.get_full_path(),
        "back": back,
    }
    page = loader.render_to_string("503.html", context, request=request)
    # What was typed is on the page: no cache keeps it.
    return HttpResponse(page, status=503, headers={"Retry-After": "30", "Cache-Control": "no-store"})


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return HttpResponse(loader.render_to_string("400.html"), status=400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """403: why this phone may not. The scorer took it off the table (the page names the table,
    ``X-Off-Table`` and ``data-off-table``: its service worker drops its copies of the table's pages,
    and the page the drafts of the table's deals: templates/offline/sw.js, static/app.js); it belongs
    to no table at all (a stranger: nobody demoted it); or it may not do that at its table."""
    off_table = exception.table if isinstance(exception, OffTable) else None
    context = {
        "typed": _typed(request, cards_only=True),
        "off_table": off_table,
        "stranger": not access.devices(request),
    }
    page = loader.render_to_string("403.html", context, request=request)
    response = HttpResponse(page, status=403)
    if off_table is not None:
        response["X-Off-Table"] = str(off_table)
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    return HttpResponse(loader.render_to_string("500.html"), status=500)
