"""`python manage.py serve [--port 8000]`: how a table plays (``make run``).

Serves the app to every phone on the local network, safely: gunicorn with uvicorn workers
(ASGI: several processes, each holding the live pages' streams and a pool of threads for the
pages, ``scorekeeper.asgi``), debug off, static files collected and served by WhiteNoise, the secret key
generated once under ``var/``, ``ALLOWED_HOSTS`` set to this machine's addresses and names. Prints
the address to open and a QR code of it.

Given a certificate and its key (``--cert`` and ``--key``, or ``CERT=... KEY=... make run``) it
serves HTTPS only, with secure-only cookies and HSTS. Without them it serves plain HTTP (cookies
that work without TLS) and says what that exposes and how to make a certificate.
"""

from __future__ import annotations

import contextlib
import os
import resource
import sys
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation
from django.utils.translation import gettext

from scorekeeper.server import lan, startup
from scorekeeper.table import qr


class Command(BaseCommand):
    help = "Serve the app to the phones on the local network (gunicorn, debug off) and print its address."
    # Django's system checks import every view (the URLconf) in this process, which only prepares
    # and then becomes gunicorn: a third of a warm start (make bench start). They run in the tests
    # (manage.py check --deploy) and with every other command.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT") or 8000))
        parser.add_argument("--bind", default="0.0.0.0", help="the address to listen on (default: every one)")
        parser.add_argument("--workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY") or 2))
        parser.add_argument("--threads", type=int, default=4, help="threads per worker for the pages")
        parser.add_argument("--access-log", action="store_true", help="log every request (each poll too)")
        parser.add_argument(
            "--cert", default=os.environ.get("CERT") or None, help="serve HTTPS with this certificate (PEM; env CERT)"
        )
        parser.add_argument("--key", default=os.environ.get("KEY") or None, help="the certificate's key (PEM; env KEY)")

    def handle(
        self,
        *args: Any,
        port: int,
        bind: str,
        workers: int,
        threads: int,
        access_log: bool,
        cert: str | None,
        key: str | None,
        **options: Any,
    ) -> None:
        raise_open_file_limit()  # before gunicorn: it and its workers inherit it
        _check_tls(cert, key)
        https = bool(cert)
        found = lan.addresses() if bind in ("0.0.0.0", "::") else [bind]
        address = found[0] if found else "127.0.0.1"
        site = os.environ.get("SCOREKEEPER_URL", "").strip() or lan.url(address, port, "https" if https else "http")
        env = _environment(site, found, https)
        env["SCOREKEEPER_THREADS"] = str(threads)
        # Every process signs the phones' cookies with one key: DJANGO_SECRET_KEY, or the one the
        # settings generated under var/ as this command started, which each process reads there.
        # Migrations and static files only when something changed (startup): a warm start is quick.
        startup.migrate_if_needed()
        writable = startup.writes_at_start(
            startup.refresh_if_needed,
            lambda: call_command("purge_submissions"),  # forms submitted over 30 days ago: no repeat to answer
        )
        try:
            startup.collect_if_changed(env)
        except RuntimeError as exc:
            raise CommandError(str(exc)) from exc
        with translation.override(terminal_language()):
            self.stdout.write(self._banner(site, found, port, https))
            if not writable:
                self.stderr.write(
                    gettext(
                        "The database takes no changes (it is read-only, or its disk is full): every page is "
                        "served, and each save answers that nothing was saved until it takes changes again."
                    )
                )
        self.stdout.flush()
        command = _gunicorn(bind, port, workers, access_log, (cert, key) if https else None)
        os.execvpe(command[0], command, env)

    def _banner(self, site: str, found: list[str], port: int, https: bool) -> str:
        others = [lan.url(a, port, "https" if https else "http") for a in found[1:]]
        lines = [
            "",
            gettext("Oklahoma Scorekeeper is serving the phones on this network."),
            gettext("Open {site} on each phone at the table (on the same Wi-Fi), or scan:").format(site=site),
            "",
            qr.terminal_qr(site).rstrip("\n"),
            "",
        ]
        if others:
            lines.append(gettext("Other addresses of this machine: {addresses}").format(addresses=", ".join(others)))
        if not found:
            lines.append(gettext("No network address found: only this machine can open the app."))
        if https:
            lines.append(gettext("HTTPS only: cookies are sent encrypted (secure-only, with HSTS)."))
        else:
            # One message of several lines (each under 100 characters, as a terminal shows them).
            lines += gettext(
                "Plain HTTP: anyone on this Wi-Fi can read the traffic, the scoring phone's cookie (which\n"
                "lets its holder score) and the join links included. To serve HTTPS, make a certificate\n"
                "for this machine once:"
            ).split("\n")
            lines += [
                "  " + lan.certificate_command(found),
                gettext("then: CERT=var/cert.pem KEY=var/key.pem make run (each phone accepts the certificate once)."),
            ]
        lines += [gettext("Press Ctrl-C to stop."), ""]
        return "\n".join(lines) + "\n"


def raise_open_file_limit() -> tuple[int, int]:
    """Raise this process's soft limit of open files to its hard limit, as far as the system lets
    it: each watching phone holds a connection, and the common soft limit (1,024) would refuse every
    new client after about 1,000 of them. Returns the soft limit before and after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
        with contextlib.suppress(ValueError, OSError):  # an unlimited hard limit the kernel refuses
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return soft, resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def _check_tls(cert: str | None, key: str | None) -> None:
    """A certificate and its key, both or neither, each a file there (CommandError otherwise)."""
    if bool(cert) != bool(key):
        raise CommandError("HTTPS needs both a certificate (--cert, CERT) and its key (--key, KEY)")
    for path in (cert, key):
        if path and not os.path.isfile(path):
            raise CommandError(f"no such file: {path}")


def terminal_language(environ: Mapping[str, str] = os.environ) -> str:
    """The language of the terminal's user, as the C library reads it: ``LC_ALL``, else ``LC_MESSAGES``,
    else ``LANG`` (``de_DE.UTF-8`` is German); the app's default for any language it does not have."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            code = value.split(".")[0].split("@")[0].split("_")[0].lower()
            known = {c for c, _ in settings.LANGUAGES}
            return code if code in known else settings.LANGUAGE_CODE
    return settings.LANGUAGE_CODE


def _environment(site: str, found: list[str], https: bool) -> dict[str, str]:
    """The app processes' environment: debug off, hashed static files, this machine's addresses as
    the allowed hosts, the site's address, connections kept; with HTTPS, secure cookies and HSTS."""
    given = [h for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "").split(",") if h]
    hosts = list(dict.fromkeys([*given, *lan.allowed_hosts(found)]))
    env = {
        **os.environ,
        "DJANGO_DEBUG": "0",
        "DJANGO_STATIC_MANIFEST": "1",
        "DJANGO_ALLOWED_HOSTS": ",".join(hosts),
        "SCOREKEEPER_URL": site,
        # Each thread of the pages keeps its database connection (scorekeeper.asgi: the pages go
        # to Django's WSGI handler on a pool of threads); the live streams share one per process.
        "DATABASE_CONN_MAX_AGE": os.environ.get("DATABASE_CONN_MAX_AGE") or "600",
    }
    if https:
        # Secure-only cookies and HSTS (settings.HTTPS), for this machine's address only: no
        # subdomains, no preload list (a table's network is nobody's domain).
        env.update(DJANGO_HTTPS="1", DJANGO_HSTS_INCLUDE_SUBDOMAINS="0", DJANGO_HSTS_PRELOAD="0")
        hsts = ("DJANGO_HSTS_INCLUDE_SUBDOMAINS", "DJANGO_HSTS_PRELOAD")
        env.update({k: os.environ[k] for k in hsts if k in os.environ})
    return env


def _gunicorn(
    bind: str, port: int, workers: int, access_log: bool, tls: tuple[str | None, str | None] | None
) -> list[str]:
    """The gunicorn command line that serves the app (``tls``: the certificate and its key)."""
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "scorekeeper.asgi:application",
        "--bind",
        f"{bind}:{port}" if ":" not in bind else f"[{bind}]:{port}",
        "--workers",
        str(workers),
        "--worker-class",
        "uvicorn_worker.UvicornWorker",
        # The app (Django, every view) is loaded once, before the workers are forked from it: not
        # once in each worker at the same time (a warm start's first answer waited for both).
        "--preload",
        "--graceful-timeout",
        "3",  # the live pages' streams stay open: a restart closes them (the phones connect again)
        "--keep-alive",
        "5",
        "--log-level",
        "warning",
        "--chdir",
        str(settings.BASE_DIR),
    ]
    if tls is not None:
        command += ["--certfile", str(tls[0]), "--keyfile", str(tls[1])]
    if access_log:
        command += ["--access-logfile", "-"]
    return command
