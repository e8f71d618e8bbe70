"""`python manage.py serve [--port 8000]`: how a table plays (``make run``).

Serves the app to every phone on the local network, safely: gunicorn (several processes, a
thread pool each), debug off, static files collected and served by WhiteNoise, the secret key
generated once under ``var/``, ``ALLOWED_HOSTS`` set to this machine's addresses and names, and
cookies that work over plain HTTP. Prints the address to open and a QR code of it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorekeeper.table import lan


class Command(BaseCommand):
    help = "Serve the app to the phones on the local network (gunicorn, debug off) and print its address."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT") or 8000))
        parser.add_argument("--bind", default="0.0.0.0", help="the address to listen on (default: every one)")
        parser.add_argument("--workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY") or 2))
        parser.add_argument("--threads", type=int, default=4, help="threads per worker")
        parser.add_argument("--access-log", action="store_true", help="log every request (each poll too)")

    def handle(
        self, *args: Any, port: int, bind: str, workers: int, threads: int, access_log: bool, **options: Any
    ) -> None:
        found = lan.addresses() if bind in ("0.0.0.0", "::") else [bind]
        address = found[0] if found else "127.0.0.1"
        site = os.environ.get("SCOREKEEPER_URL", "").strip() or lan.url(address, port)
        hosts = list(
            dict.fromkeys(
                [*[h for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "").split(",") if h], *lan.allowed_hosts(found)]
            )
        )
        env = {
            **os.environ,
            "DJANGO_DEBUG": "0",
            "DJANGO_STATIC_MANIFEST": "1",
            "DJANGO_ALLOWED_HOSTS": ",".join(hosts),
            "SCOREKEEPER_URL": site,
            # Each thread keeps its database connection: a watching phone's poll then costs one
            # query, not a connection.
            "DATABASE_CONN_MAX_AGE": os.environ.get("DATABASE_CONN_MAX_AGE") or "600",
        }
        # Every process signs the phones' cookies with one key: DJANGO_SECRET_KEY, or the one the
        # settings generated under var/ as this command started, which each process reads there.
        manage = [sys.executable, str(settings.BASE_DIR / "manage.py")]
        done = subprocess.run([*manage, "collectstatic", "--noinput", "--verbosity", "0"], env=env, check=False)
        if done.returncode:
            raise CommandError("collectstatic failed")
        self.stdout.write(self._banner(site, found, port))
        self.stdout.flush()
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "scorekeeper.wsgi:application",
            "--bind",
            f"{bind}:{port}" if ":" not in bind else f"[{bind}]:{port}",
            "--workers",
            str(workers),
            "--threads",
            str(threads),
            "--worker-class",
            "gthread",
            "--keep-alive",
            "5",
            "--log-level",
            "warning",
            "--chdir",
            str(settings.BASE_DIR),
        ]
        if access_log:
            command += ["--access-logfile", "-"]
        os.execvpe(command[0], command, env)

    def _banner(self, site: str, found: list[str], port: int) -> str:
        others = [lan.url(a, port) for a in found[1:]]
        lines = [
            "",
            "Oklahoma Scorekeeper is serving the phones on this network.",
            f"Open {site} on each phone at the table (on the same Wi-Fi), or scan:",
            "",
            lan.terminal_qr(site).rstrip("\n"),
            "",
        ]
        if others:
            lines.append("Other addresses of this machine: " + ", ".join(others))
        if not found:
            lines.append("No network address found: only this machine can open the app.")
        lines += ["Press Ctrl-C to stop.", ""]
        return "\n".join(lines) + "\n"
