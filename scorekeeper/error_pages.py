"""The app's own pages for 400, 403 and 500, in its layout, saying what happened and what to do.

Django's own 400 and 500 views run the CSRF check again (``requires_csrf_token``): a request whose
body cannot be read (a form declaring ``charset=utf-16``) made them raise in turn, and the phone got
no answer at all. These read nothing of the request but what a page needs. The 403 page shows back
the cards a refused save carried (a phone that lost scoring while entering a deal), read-only: the
phone also keeps them (static/drafts.js). 404 is Django's, with templates/404.html."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, QueryDict
from django.template import loader
from django.utils.translation import gettext

from scorekeeper.table.access import OffTable

CARD_FIELDS = ("melded", "held", "melds", "cards", "deadwood", "upcard")


def _typed_cards(request: HttpRequest) -> list[tuple[str, str]]:
    """The card fields of a refused deal form, as typed: (field, cards), the empty ones left out."""
    posted = _posted_form(request)
    if posted is None:
        return []
    typed = []
    for name in posted:
        value = posted.get(name, "")
        if name.endswith(CARD_FIELDS) and isinstance(value, str) and value.strip():
            typed.append((_field_label(name), value))
    return typed


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
    """A card field as the page names it: "Player 2: held" for ``p-1-held``; another name as it is."""
    seat, _, kind = name.removeprefix("p-").partition("-")
    if seat.isdigit() and kind:
        return gettext("Player {number}: {field}").format(number=int(seat) + 1, field=kind)
    return name


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return HttpResponse(loader.render_to_string("400.html"), status=400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """403. A phone taken off a table is told so, and the page names the table (``X-Off-Table``,
    ``data-off-table``): its service worker drops its copies of the table's pages, and the page the
    drafts of the table's deals (templates/offline/sw.js, static/app.js)."""
    off_table = exception.table if isinstance(exception, OffTable) else None
    context = {"typed": _typed_cards(request), "off_table": off_table}
    page = loader.render_to_string("403.html", context, request=request)
    response = HttpResponse(page, status=403)
    if off_table is not None:
        response["X-Off-Table"] = str(off_table)
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    return HttpResponse(loader.render_to_string("500.html"), status=500)
