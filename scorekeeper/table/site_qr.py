"""The home page's QR code of the site's address, made once per address and process: the plain
path is ``qr.svg_qr(site)`` on every view, and the address is the same on every view of an
installation (a few addresses: a machine answers under its few names). Kept because ``make bench
web`` measured it (benchmarks/README.md); tests/table/test_site_qr.py proves it equals the plain path.
"""

from __future__ import annotations

import functools

from scorekeeper.table import qr


@functools.lru_cache(maxsize=8)
def site_qr(site: str) -> str:
    """``qr.svg_qr(site)``, encoded once per address."""
    return qr.svg_qr(site)
