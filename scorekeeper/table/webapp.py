"""The app on a phone's home screen: its web manifest (name, colours, icons), linked from every
page (``templates/base.html``). Served by Django so that the icons' addresses are the collected,
hashed ones."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_safe

THEME_COLOR = "#0b5cad"  # the stylesheet's accent (static/app.css --accent)
BACKGROUND_COLOR = "#ffffff"


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    body = {
        "name": "Oklahoma Scorekeeper",
        "short_name": "Scorekeeper",
        "description": "Scores Oklahoma and Oklahoma Gin at the table, on every phone.",
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
    return response
