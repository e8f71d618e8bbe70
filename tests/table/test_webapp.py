"""The app can go on a phone's home screen: a web manifest with the icons, linked from every page."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from scorekeeper.table import webapp


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


@pytest.mark.django_db
def test_every_page_links_the_manifest_icons_and_theme(client):
    body = client.get(reverse("table:home")).content.decode()
    assert f'<link rel="manifest" href="{reverse("table:manifest")}">' in body
    assert '<meta name="theme-color" content="#0b5cad">' in body
    assert "icons/icon.svg" in body and "icons/icon-192.png" in body and "apple-touch-icon" in body


def test_the_manifest_names_the_app_and_its_icons(client):
    r = client.get(reverse("table:manifest"))
    assert r.status_code == 200 and r["Content-Type"] == "application/manifest+json"
    manifest = r.json()
    assert manifest["name"] == "Oklahoma Scorekeeper" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["theme_color"] == webapp.THEME_COLOR
    sizes = {icon["sizes"]: icon for icon in manifest["icons"]}
    assert set(sizes) == {"any", "192x192", "512x512"}
    for size, icon in sizes.items():
        name = icon["src"].removeprefix("/static/")
        found = finders.find(name)
        assert found, name
        if size != "any":
            width, height = _png_size(Path(found))
            assert f"{width}x{height}" == size
        else:
            assert Path(found).read_text().startswith("<svg")
