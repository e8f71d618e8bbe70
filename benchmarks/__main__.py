"""Run every benchmark, engine first, then the web app's; name parts to run only those."""

from __future__ import annotations

import importlib
import sys

PARTS = (
    "engine_gin",
    "engine_oklahoma",
    "web",
    "web_history",
    "live",
    "concurrency",
    "taps",
    "own_hands",
    "first_paint",
    "start",
    "alone",
)


def main() -> int:
    only = set(sys.argv[1:])
    unknown = only - set(PARTS)
    if unknown:
        print(f"unknown part {', '.join(sorted(unknown))}: the parts are {', '.join(PARTS)}", file=sys.stderr)
        return 2
    for name in PARTS:
        if only and name not in only:
            continue
        print(f"== {name}", flush=True)
        importlib.import_module(f"benchmarks.{name}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
