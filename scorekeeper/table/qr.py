"""QR codes of an address: for a page (a join link, the site's address) and for a terminal
(``manage.py serve``'s banner)."""

from __future__ import annotations

import io

import segno


def terminal_qr(text: str) -> str:
    """A QR code of ``text`` drawn with block characters, for a terminal."""
    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def svg_qr(text: str) -> str:
    """A QR code of ``text`` as an inline SVG: attributes only, no style (the page's CSP), sized
    by the stylesheet (class ``qr``), dark on light whatever the page's colours."""
    return segno.make(text, error="m").svg_inline(
        scale=1, border=2, omitsize=True, dark="#000", light="#fff", svgclass="qr", lineclass=None
    )
