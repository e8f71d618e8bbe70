"""A server's processes as /proc shows them (Linux): a process and its descendants, and their CPU
time. Shared by the benchmarks that time a server of several processes (``live``, ``start``,
``import_run``)."""

from __future__ import annotations

import os
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def family(pid: int) -> list[int]:
    """``pid`` and its descendants (those still running)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        try:
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except OSError:  # it ended meanwhile
            pass
    return found


def cpu_seconds(pid: int, *, ended_children: bool = False) -> float:
    """The CPU seconds (user + system) of one process; with ``ended_children``, those of the
    children it waited for as well."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(f) for f in fields[11 : 15 if ended_children else 13]) / TICKS  # utime, stime, cutime, cstime
