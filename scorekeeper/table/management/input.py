"""Input for the management commands that read a file named on the command line."""

from __future__ import annotations

import sys
from pathlib import Path

from django.core.management.base import CommandError


def read_input(file: str) -> bytes:
    """The bytes of ``file``, or of standard input when it is ``-``; a file that cannot be read is a
    CommandError saying why."""
    if file == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(file).read_bytes()
    except OSError as exc:
        raise CommandError(f"cannot read {file}: {exc.strerror}") from None
