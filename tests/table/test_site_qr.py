"""The home page's QR code, kept per address (``site_qr``), equals the plain path (``qr.svg_qr``)."""

from __future__ import annotations

from scorekeeper.table import qr
from scorekeeper.table.site_qr import site_qr


def test_the_kept_code_equals_the_code_made_again():
    for site in ("http://192.168.1.20:8000/", "https://scores.example.org/", "http://127.0.0.1:8000/"):
        assert site_qr(site) == qr.svg_qr(site)
        assert site_qr(site) is site_qr(site)  # made once
