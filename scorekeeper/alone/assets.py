"""What the phone alone (``/alone/``) runs in its browser, made from the checkout: Pyodide, pinned,
and the engine, zipped.

- **Pyodide** is the npm package ``pyodide`` at ``PYODIDE_VERSION``, fetched from the npm registry
  as its tarball and checked against ``PYODIDE_INTEGRITY`` (the registry's sha512, as a
  package-lock.json pins it) before anything of it is unpacked; only ``PYODIDE_FILES`` (what
  ``loadPyodide`` fetches, and no package of its lock file: the engine needs the standard library
  only) go to ``build/alone/pyodide/``. Standard library only (urllib, tarfile): ``make run`` on a
  fresh machine needs no node or npm. ``python -m scorekeeper.alone.assets`` does it (the
  Makefile); nothing is fetched again while the files are there.
- **The engine** is ``scorekeeper/rules`` (its Python and the compiled German catalog) and the
  worker's side of the page (``scorekeeper/alone/phone.py``), zipped with fixed dates so the same
  checkout gives the same bytes: ``build/alone/engine.zip``, made again whenever a source is newer
  (``engine_zip``; the static files finder asks for it, so ``collectstatic``, tests and ``make dev``
  always get the checkout's engine).

This module imports nothing of Django: the Makefile runs it before Django is set up.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import sys
import tarfile
import urllib.request
import zipfile
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
BUILD = BASE_DIR / "build" / "alone"
PYODIDE_DIR = BUILD / "pyodide"
ENGINE_ZIP = BUILD / "engine.zip"

PYODIDE_VERSION = "314.0.7"
PYODIDE_TARBALL = f"https://registry.npmjs.org/pyodide/-/pyodide-{PYODIDE_VERSION}.tgz"
PYODIDE_INTEGRITY = "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
# What loadPyodide fetches: its module, the runtime (JS and WebAssembly), the standard library and
# the lock file it reads as it starts (it loads no package of it).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
STAMP = ".version"

ENGINE_PACKAGES = ("scorekeeper/rules",)
ENGINE_EXTRA = ("scorekeeper/__init__.py", "scorekeeper/alone/__init__.py", "scorekeeper/alone/phone.py")
CATALOG = "scorekeeper/rules/locale/de/LC_MESSAGES/django.mo"
ZIP_DATE = (2020, 1, 1, 0, 0, 0)


class IntegrityError(Exception):
    """The tarball fetched is not the one pinned."""


def check_integrity(data: bytes, integrity: str = PYODIDE_INTEGRITY) -> None:
    """Raise IntegrityError unless ``data`` has the pinned sha512 (Subresource Integrity form)."""
    algorithm, _, expected = integrity.partition("-")
    if algorithm != "sha512":
        raise IntegrityError(f"unsupported integrity {algorithm}")
    actual = base64.b64encode(hashlib.sha512(data).digest()).decode()
    if actual != expected:
        raise IntegrityError(f"pyodide {PYODIDE_VERSION}: sha512 {actual} is not the pinned {expected}")


def unpack_pyodide(data: bytes, dest: Path = PYODIDE_DIR) -> None:
    """Check the tarball, then write ``PYODIDE_FILES`` of it (and the version stamp) to ``dest``."""
    check_integrity(data)
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for name in PYODIDE_FILES:
            member = tar.getmember(f"package/{name}")
            source = tar.extractfile(member)
            if source is None:
                raise IntegrityError(f"{name} is not a file in the package")
            part = dest / f"{name}.part"
            part.write_bytes(source.read())
            part.replace(dest / name)
    (dest / STAMP).write_text(PYODIDE_VERSION + "\n")


def pyodide_ready(dest: Path = PYODIDE_DIR) -> bool:
    stamp = dest / STAMP
    return (
        stamp.is_file()
        and stamp.read_text().strip() == PYODIDE_VERSION
        and all((dest / name).is_file() for name in PYODIDE_FILES)
    )


def fetch_pyodide(dest: Path = PYODIDE_DIR, *, log=print) -> bool:
    """Fetch and unpack the pinned Pyodide unless it is there already; whether it fetched."""
    if pyodide_ready(dest):
        return False
    log(f"Fetching Pyodide {PYODIDE_VERSION} (npm package pyodide, checked by its sha512) for /alone/")
    with urllib.request.urlopen(PYODIDE_TARBALL, timeout=120) as response:
        data = response.read()
    unpack_pyodide(data, dest)
    return True


def engine_sources(base: Path = BASE_DIR) -> list[Path]:
    """Every file of the engine's zip: the packages' Python, the German catalog, the worker's side."""
    files = [p for package in ENGINE_PACKAGES for p in sorted((base / package).rglob("*.py"))]
    files += [base / CATALOG] + [base / extra for extra in ENGINE_EXTRA]
    return files


def engine_bytes(base: Path = BASE_DIR) -> bytes:
    """The zip of ``engine_sources``: the same checkout gives the same bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for path in engine_sources(base):
            info = zipfile.ZipInfo(path.relative_to(base).as_posix(), date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, path.read_bytes())
    return out.getvalue()


def engine_zip(base: Path = BASE_DIR, dest: Path = ENGINE_ZIP) -> Path:
    """``build/alone/engine.zip``, made again when missing or older than a source of it."""
    newest = max(p.stat().st_mtime_ns for p in engine_sources(base))
    if not dest.is_file() or dest.stat().st_mtime_ns < newest:
        dest.parent.mkdir(parents=True, exist_ok=True)
        data = engine_bytes(base)
        if not dest.is_file() or dest.read_bytes() != data:
            part = dest.with_suffix(".part")
            part.write_bytes(data)
            part.replace(dest)
        else:
            os.utime(dest)
    return dest


def main() -> int:
    try:
        fetch_pyodide()
    except (OSError, IntegrityError) as exc:
        print(f"Error: Pyodide for /alone/ could not be fetched: {exc}", file=sys.stderr)
        return 1
    engine_zip()
    return 0


if __name__ == "__main__":
    sys.exit(main())
