"""The live part's answers: its validator (``etag``), whether the phone holds it already
(``unchanged``) and the bodiless ``304 Not Modified`` then, found before anything is loaded."""

from __future__ import annotations

import math
import re
from datetime import datetime

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags
from django.utils.translation import get_language

# How often a phone without EventSource asks (seconds).
POLL_SECONDS = 1
# The end of a tag held until a time (``etag``'s ``until``): its Unix time.
HELD = re.compile(r'-u(\d+)"$')


def etag(
    version: int, names: int, role: str, *, partial: bool, language: str | None = None, until: datetime | None = None
) -> str:
    """The validator of a game page as this phone sees it: of the game's version and its table's
    ``names`` (a rename of a player shows on every game of the table, finished ones included,
    without bumping their versions), the phone's role (the page and its live part differ, and so do
    the languages: a German and an English phone may watch the same game). ``until``: the time what
    it shows changes with no write (a hand shown being typed is missing again): the validator holds
    only until then (``unchanged``)."""
    lang = language if language is not None else (get_language() or "")
    held = f"-u{math.ceil(until.timestamp())}" if until is not None else ""
    return f'W/"g{version}.{names}-{role}-{lang}-{"p" if partial else "f"}{held}"'


def unchanged(request: HttpRequest, tag: str) -> bool:
    """Whether the phone holds this version already (``If-None-Match``, weak comparison; a tag
    held until a time is this version's until then, and no version's after)."""
    header = request.headers.get("if-none-match")
    if not header:
        return False
    bare = tag.removeprefix("W/")
    return any(_holding(t.removeprefix("W/")) == bare or t == "*" for t in parse_etags(header))


def _holding(tag: str) -> str:
    held = HELD.search(tag)
    if held is None:
        return tag
    return tag[: held.start()] + '"' if int(held[1]) > timezone.now().timestamp() else ""


def mark(response: HttpResponse, tag: str) -> HttpResponse:
    """Give a game page (or its 304) its validator: the phone revalidates it on every visit."""
    response["ETag"] = tag
    response["Cache-Control"] = "private, no-cache"
    patch_vary_headers(response, ("Cookie", "HX-Request"))
    return response


def not_modified(tag: str) -> HttpResponse:
    return mark(HttpResponseNotModified(), tag)
