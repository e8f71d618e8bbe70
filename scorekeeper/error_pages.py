"""The app's own pages for 400, 403 and 500, in its layout, saying what happened and what to do.

Django's own 400 and 500 views run the CSRF check again (``requires_csrf_token``): a request whose
body cannot be read (a form declaring ``charset=utf-16``) made them raise in turn, and the phone got
no answer at all. These read nothing of the request but what a page needs. The 403 page shows back
the cards a refused save carried (a phone that lost scoring while entering a deal), read-only: the
phone also keeps them (static/drafts.js). 404 is Django's, with templates/404.html."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.utils.translation import gettext

from scorekeeper.table.access import OffTable

CARD_FIELDS = ("melded", "held", "melds", "cards", "deadwood", "upcard")


def _typed_cards(request: HttpRequest) -> list[tuple[str, str]]:
    """The card fields of a refused deal form, as typed: (field, cards), the empty ones left out."""
    if request.method != "POST" or not (request.content_type or "").startswith(
        ("application/x-www-form", "multipart/")
    ):
        return []
    try:
        posted = request.POST
    except Exception:  # a body that cannot be read: nothing to show back
        return []
    typed = []
    for name in posted:
        value = posted.get(name, "")
        if name.endswith(CARD_FIELDS) and isinstance(value, str) and value.strip():
            seat, _, kind = name.removeprefix("p-").partition("-")
            shown = (
                gettext("Player {number}: {field}").format(number=int(seat) + 1, field=kind)
                if seat.isdigit() and kind
                else name
            )
            typed.append((shown, value))
    return typed


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return HttpResponse(loader.render_to_string("400.html"), status=400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    context = {"typed": _typed_cards(request), "off_table": isinstance(exception, OffTable)}
    page = loader.render_to_string("403.html", context, request=request)
    return HttpResponse(page, status=403)


def server_error(request: HttpRequest) -> HttpResponse:
    return HttpResponse(loader.render_to_string("500.html"), status=500)
