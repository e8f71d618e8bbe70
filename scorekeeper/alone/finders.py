"""The static files of the phone alone that are made, not written: the pinned Pyodide
(``alone/pyodide-<version>/``, fetched by ``python -m scorekeeper.alone.assets``) and the engine's
zip (``alone/engine.zip``, made from the checkout whenever it is asked for and a source changed).
A finder, so that ``collectstatic`` (``make run``), the development server and the tests all serve
them as any static file (hashed and compressed when collected), from ``build/alone`` (git-ignored)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.contrib.staticfiles.finders import BaseFinder
from django.core.checks import CheckMessage
from django.core.files.storage import FileSystemStorage

from scorekeeper.alone import assets

PYODIDE_PREFIX = f"alone/pyodide-{assets.PYODIDE_VERSION}/"
ENGINE = "alone/engine.zip"


class AloneFinder(BaseFinder):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pyodide = FileSystemStorage(location=assets.PYODIDE_DIR)
        self.pyodide.prefix = PYODIDE_PREFIX.rstrip("/")  # type: ignore[attr-defined]
        self.engine = FileSystemStorage(location=assets.BUILD)
        self.engine.prefix = "alone"  # type: ignore[attr-defined]

    def check(self, **kwargs: Any) -> list[CheckMessage]:
        return []

    def find(self, path: str, find_all: bool = False, **kwargs: Any) -> Any:
        found: str | None = None
        if path == ENGINE:
            found = str(assets.engine_zip())
        elif path.startswith(PYODIDE_PREFIX) and path.removeprefix(PYODIDE_PREFIX) in assets.PYODIDE_FILES:
            candidate = assets.PYODIDE_DIR / path.removeprefix(PYODIDE_PREFIX)
            found = str(candidate) if candidate.is_file() else None
        if found is None:
            return [] if find_all else None
        return [found] if find_all else found

    def list(self, ignore_patterns: Any) -> Iterator[tuple[str, FileSystemStorage]]:
        assets.engine_zip()
        yield "engine.zip", self.engine
        if assets.pyodide_ready():
            for name in assets.PYODIDE_FILES:
                yield name, self.pyodide
