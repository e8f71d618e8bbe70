"""The app on a phone's home screen: its web manifest (name, colours, icons), linked from every
page (``templates/base.html``). Served by Django so that the icons' addresses are the collected,
hashed ones."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_safe

from scorekeeper.table import access

THEME_COLOR = "#0b5cad"  # the stylesheet's accent (static/app.css --accent)
BACKGROUND_COLOR = "#ffffff"


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    body = {
        "name": "Oklahoma Scorekeeper",
        "short_name": "Scorekeeper",
        "description": gettext("Scores Oklahoma and Oklahoma Gin at the table, on every phone."),
        "lang": get_language(),
        "start_url": reverse("table:home"),
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [
            {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        ],
    }
    response = HttpResponse(json.dumps(body, indent=1), content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    patch_vary_headers(response, ("Accept-Language", "Cookie"))  # its words are in the phone's language
    return response


# The offline app: a service worker for the whole site (it must be served from the site's root to
# cover it) and the page it shows when it has kept nothing for an address. It keeps at most
# KEPT_PAGES pages, none older than KEPT_DAYS (as a draft of a deal: static/drafts.js).
KEPT_PAGES = 100
KEPT_DAYS = 14
SHELL_FILES = (  # the stylesheet is not one: every page carries it inline
    "app.js",
    "picker.js",
    "drafts.js",
    "live.js",
    "django_htmx/htmx-2.min.js",
    "icons/icon.svg",
    "icons/icon-192.png",
)


def saved_copy_notes() -> dict[str, str]:
    """The note on a page the service worker shows from its copy, in every language of the app."""
    notes = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            notes[code] = gettext("Saved copy from {time} — no connection. What you see may be out of date.")
    return notes


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    shell = [static(name) for name in SHELL_FILES] + [reverse("table:offline")]
    version = hashlib.sha256("\n".join(shell).encode()).hexdigest()[:12]
    body = render_to_string(
        "offline/sw.js",
        {
            "shell": json.dumps(shell),
            "version": version,
            "offline_url": reverse("table:offline"),
            "static_prefix": settings.STATIC_URL,
            "kept_pages": KEPT_PAGES,
            "kept_ms": KEPT_DAYS * 24 * 3600 * 1000,
            "saved_copy": json.dumps(saved_copy_notes(), ensure_ascii=False).replace("<", "\\u003c"),
        },
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "offline/offline.html")


def mark_tables(get_response: Callable[[HttpRequest], HttpResponseBase]) -> Callable[[HttpRequest], HttpResponseBase]:
    """Middleware: a page that shows tables (``access.shows``: a game's, a table's, a list of them)
    says which (``X-Tables: 3 12``). The service worker keeps that with its offline copy, and drops
    the copies of a table whose 403 says the phone is off it (``X-Off-Table``)."""

    def middleware(request: HttpRequest) -> HttpResponseBase:
        response = get_response(request)
        shown = access.shown(request)
        if shown:
            response["X-Tables"] = " ".join(str(t) for t in sorted(shown))
        return response

    return middleware
