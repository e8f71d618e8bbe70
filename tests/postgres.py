"""A throwaway PostgreSQL server for `make test` and `make bench`.

``python -m tests.postgres -- COMMAND ...`` runs COMMAND with ``DATABASE_URL`` naming a PostgreSQL
database: the one ``DATABASE_URL`` already names when it is a PostgreSQL URL, else a fresh server
started for the command in a temporary directory (its own data directory, a unix socket in that
directory and no TCP port), stopped and removed afterwards, whatever the command's outcome.

PostgreSQL refuses to run as root: under root (CI runs ``make test`` as root) the server runs as the
``postgres`` user (``nobody`` where there is none), which owns the temporary directory.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

DATABASE = "scorekeeper"
SUPERUSER = "postgres"


class Unavailable(RuntimeError):
    """PostgreSQL's server programs are not installed."""


def bindir() -> Path | None:
    """The directory of PostgreSQL's server programs (initdb, pg_ctl), newest version first."""
    if os.environ.get("PG_BINDIR"):
        return Path(os.environ["PG_BINDIR"])
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
        reverse=True,
    )
    if versions:
        return versions[0].parent
    found = shutil.which("initdb")
    return Path(found).resolve().parent if found else None


def _server_user() -> str | None:
    """Whom the server runs as: None for the current user, or an unprivileged one under root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise RuntimeError("PostgreSQL does not run as root and there is no 'postgres' or 'nobody' user to run it as")


def _as(user: str | None, argv: list[str]) -> list[str]:
    if user is None:
        return argv
    if shutil.which("runuser"):
        return ["runuser", "-u", user, "--", *argv]
    return ["su", "-s", "/bin/sh", user, "-c", " ".join(quote_shell(a) for a in argv)]


def quote_shell(arg: str) -> str:
    return "'" + arg.replace("'", "'\"'\"'") + "'"


@dataclass(frozen=True)
class Server:
    """A throwaway server: the URL of its database ``scorekeeper``, and what restarts it."""

    url: str
    bins: Path
    data: Path
    log: Path
    user: str | None

    def restart(self) -> None:
        """Stop the server as an administrator's restart does (``-m fast``: every connection is
        ended) and start it again with the same settings, on the same socket."""
        argv = [str(self.bins / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-m", "fast", "-w", "-t", "60"]
        subprocess.run(
            _as(self.user, [*argv, "restart"]), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True
        )


@contextlib.contextmanager
def server(*, durable: bool = False) -> Iterator[str]:
    """Start a throwaway PostgreSQL server and yield the URL of its (empty) database ``scorekeeper``.

    ``durable=False`` (tests) turns fsync off: nothing to keep after the run. Benchmarks pass True
    to measure what a real server does on commit."""
    with started(durable=durable) as running:
        yield running.url


@contextlib.contextmanager
def started(*, durable: bool = False) -> Iterator[Server]:
    """``server``, yielding the ``Server`` (a test restarts it)."""
    bins = bindir()
    if bins is None or not (bins / "initdb").exists():
        raise Unavailable("PostgreSQL's server programs are not installed (Debian: apt-get install postgresql)")
    user = _server_user()
    root = Path(tempfile.mkdtemp(prefix="scorekeeper-pg-"))
    data, sock, log = root / "data", root / "run", root / "server.log"
    sock.mkdir()
    if user is not None:
        uid, gid = pwd.getpwnam(user).pw_uid, pwd.getpwnam(user).pw_gid
        for path in (root, sock):
            os.chown(path, uid, gid)

    def run(argv: list[str]) -> None:
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True, cwd=root)

    settings = f"-k {sock} -c listen_addresses='' -c max_connections=200"
    if not durable:
        settings += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    up = False
    try:
        run(
            _as(
                user,
                [str(bins / "initdb"), "-D", str(data), "-U", SUPERUSER, "-A", "trust", "-E", "UTF8", "--no-locale"],
            )
        )
        run(
            _as(
                user, [str(bins / "pg_ctl"), "-D", str(data), "-o", settings, "-l", str(log), "-w", "-t", "60", "start"]
            )
        )
        up = True
        createdb = bins / "createdb" if (bins / "createdb").exists() else Path("createdb")
        run([str(createdb), "-h", str(sock), "-U", SUPERUSER, DATABASE])
        url = f"postgres://{SUPERUSER}@{quote(str(sock), safe='')}/{DATABASE}"
        yield Server(url=url, bins=bins, data=data, log=log, user=user)
    except subprocess.CalledProcessError as exc:
        detail = (exc.stderr or b"").decode(errors="replace").strip()
        if log.exists():
            detail += "\n" + log.read_text(errors="replace")[-2000:]
        raise RuntimeError(f"the throwaway PostgreSQL server failed: {' '.join(exc.cmd)}\n{detail}") from None
    finally:
        if up:
            subprocess.run(
                _as(user, [str(bins / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                check=False,
                cwd=root,
            )
        shutil.rmtree(root, ignore_errors=True)


def is_postgres(url: str) -> bool:
    return url.startswith(("postgres://", "postgresql://", "pgsql://"))


def main(argv: list[str]) -> int:
    if argv[:1] == ["--"]:
        argv = argv[1:]
    if not argv:
        print("usage: python -m tests.postgres -- COMMAND ...", file=sys.stderr)
        return 2
    given = os.environ.get("DATABASE_URL", "")
    if is_postgres(given):
        print(f"PostgreSQL: the server DATABASE_URL names ({given.split('@')[-1]})", flush=True)
        return subprocess.run(argv, check=False).returncode
    with server() as url:
        print(f"PostgreSQL: a throwaway server ({url.split('@')[-1]})", flush=True)
        return subprocess.run(argv, env={**os.environ, "DATABASE_URL": url}, check=False).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
