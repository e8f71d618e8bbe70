"""THE htmx page helper: render a page, or for an htmx request only the fragment it asked for."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
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
