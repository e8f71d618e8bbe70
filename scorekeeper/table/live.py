"""Live game pages: every phone at the table follows a save on another phone within a second or two.

A game page polls itself (htmx, every second, only while the page is visible: ``static/live.js``)
with ``If-None-Match``. The answer's validator is the game's ``version`` (bumped by every write,
in the database: several app processes, SQLite or PostgreSQL, no broker) and the phone's role
(a scorer's page has the *Enter deal* button): unchanged, the answer is ``304 Not Modified``,
found with one indexed query and nothing rendered; changed, it is the whole game part of the page
(board, deals, who deals next, the winner, the buttons), which htmx swaps in.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags
from django.utils.translation import get_language

# How often a watching phone asks (seconds): a save shows on the other phones within this, plus
# the time of one request.
POLL_SECONDS = 1


def etag(version: int, role: str, *, partial: bool) -> str:
    """The validator of a game page as this phone sees it (the page and its live part differ; a page
    in another language than the default one is another page: its language ends the tag)."""
    language = get_language() or settings.LANGUAGE_CODE
    other = "" if language == settings.LANGUAGE_CODE else f"-{language}"
    return f'W/"g{version}-{role}-{"p" if partial else "f"}{other}"'


def unchanged(request: HttpRequest, tag: str) -> bool:
    """Whether the phone holds this version already (``If-None-Match``, weak comparison)."""
    header = request.headers.get("if-none-match")
    if not header:
        return False
    bare = tag.removeprefix("W/")
    return any(t.removeprefix("W/") == bare or t == "*" for t in parse_etags(header))


def mark(response: HttpResponse, tag: str) -> HttpResponse:
    """Give a game page (or its 304) its validator: the phone revalidates it on every visit."""
    response["ETag"] = tag
    response["Cache-Control"] = "private, no-cache"
    patch_vary_headers(response, ("Cookie", "HX-Request"))
    return response


def not_modified(tag: str) -> HttpResponse:
    return mark(HttpResponseNotModified(), tag)
