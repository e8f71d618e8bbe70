"""The home page's QR code of the site's address, made once per address and process.

The plain path is ``lan.svg_qr(site)`` on every view; the address is the same on every view of an
installation, so its code is kept (``functools.lru_cache``, a few addresses: a machine answers
under its few names). Measured in one process, the two paths interleaved (the home page of a phone
at a table, median CPU time of 40 views each, this 2-core machine): 7.2 ms with the code encoded on
every view, 4.2 ms with it kept, 41 % saved (the issue measured 4 of the page's 24 ms). The home
page is in ``make bench web``'s growth table. It equals the plain path: tests/table/test_site_qr.py.
"""

from __future__ import annotations

import functools

from scorekeeper.table import lan


@functools.lru_cache(maxsize=8)
def site_qr(site: str) -> str:
    """``lan.svg_qr(site)``, encoded once per address."""
    return lan.svg_qr(site)
