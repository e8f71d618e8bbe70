"""Run every benchmark that is present, engine first, then the web app's."""
from __future__ import annotations

import importlib
import sys

PARTS = ("engine_gin", "engine_oklahoma", "web", "web_history")


def main() -> int:
    only = set(sys.argv[1:])
    for name in PARTS:
        if only and name not in only:
            continue
        try:
            module = importlib.import_module(f"scorekeeper.bench.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"scorekeeper.bench.{name}":
                continue
            raise
        print(f"== {name}", flush=True)
        module.main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
