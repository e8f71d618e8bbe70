"""The home page's QR code of the site's address, made once per address and process.

The plain path is ``lan.svg_qr(site)`` on every view; the address is the same on every view of an
installation, so its code is kept (``functools.lru_cache``, a few addresses: a machine answers
under its few names). Measured with ``python -m benchmarks web`` (home page of a phone at a table,
this 2-core machine): encoding the code took about 4 of the page's 24 ms in the issue's figures,
and the page's median drops by more than 10 % here (the figures are in the commit). It equals the
plain path: tests/table/test_site_qr.py.
"""

from __future__ import annotations

import functools

from scorekeeper.table import lan


@functools.lru_cache(maxsize=8)
def site_qr(site: str) -> str:
    """``lan.svg_qr(site)``, encoded once per address."""
    return lan.svg_qr(site)
