"""THE htmx page helper: render a page, or for an htmx request only the fragment it asked for; a
form of the game page refused, said on the game page; an address by id for a whole list."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it: ``request.htmx`` says if htmx sent it."""

    htmx: HtmxDetails


def render_page(
    request: HtmxHttpRequest, template: str, context: dict[str, Any], partial: str | None = None, status: int = 200
) -> HttpResponse:
    """Render ``template``; for an htmx request, only its partial ``partial`` when one is named."""
    if partial and request.htmx:
        template = f"{template}#{partial}"
    return render(request, template, context, status=status)


def url_by_id(viewname: str, *args: Any) -> Callable[[int], str]:
    """The address of ``viewname`` by its last argument, an id, reversed once for a whole list
    (a list of hundreds of rows would otherwise reverse it hundreds of times)."""
    mark = 987654321
    head, tail = reverse(viewname, args=[*args, mark]).rsplit(str(mark), 1)
    return lambda pk: f"{head}{pk}{tail}"


# A refusal of a seat's form is said in the seats' section, beside the seats (its message's tag).
AT_SEATS = "seats"


def refused(request: HtmxHttpRequest, game_id: int, text: str, *, at: str = "") -> HttpResponseRedirect:
    """Back to the game page where the message says why (``components/messages.html``): beside the
    seats for a seat's refusal (``at=AT_SEATS``), else at the top."""
    messages.error(request, text, extra_tags=at)
    return HttpResponseRedirect(reverse("table:game", args=[game_id]) + ("#seats" if at == AT_SEATS else "#messages"))
