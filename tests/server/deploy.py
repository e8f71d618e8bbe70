"""The files of ``deploy/`` as the tests use them: a unit's command line and the environment file,
with the installation's paths (``/srv/scorekeeper``, ``/var/lib/...``, ``/etc/scorekeeper``) moved
to this checkout and the test's own folder, and Caddy run on the deploy Caddyfile."""

from __future__ import annotations

import os
import shlex
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from tests.server import app

DEPLOY = app.ROOT / "deploy"
CODE = "/srv/scorekeeper"  # where the units expect the code (and its .venv)
ENV_FILE = "/etc/scorekeeper/scorekeeper.env"
STATE = "/var/lib/"  # the units' StateDirectory= folders


def unit(name: str) -> dict[str, list[str]]:
    """A unit file's settings, each key with its values in order (continued lines joined)."""
    text = (DEPLOY / name).read_text(encoding="utf-8").replace("\\\n", " ")
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith(("#", ";", "[")):
            key, value = line.split("=", 1)
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def moved(text: str, tmp: Path) -> str:
    """``text`` with the installation's paths moved: the code to this checkout (its programs to
    this interpreter's folder), the state folders into ``tmp``."""
    text = text.replace(f"{CODE}/.venv/bin/", str(Path(sys.executable).parent) + "/")
    return text.replace(CODE, str(app.ROOT)).replace(STATE, f"{tmp}/")


def command(name: str, tmp: Path, instance: str = "") -> list[str]:
    """The ``ExecStart=`` of unit ``name`` (``%i``: ``instance``), its paths moved."""
    (line,) = unit(name)["ExecStart"]
    return shlex.split(moved(line.replace("%i", instance), tmp))


def environment_file() -> dict[str, str]:
    """``deploy/scorekeeper.env`` read as systemd's ``EnvironmentFile=`` reads it (NAME=value lines)."""
    found = {}
    for line in (DEPLOY / "scorekeeper.env").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, value = line.split("=", 1)
            found[name] = value
    return found


def environment(tmp: Path, **given: str) -> dict[str, str]:
    """A process's environment as the units give it: this machine's, less the app's own variables,
    plus the environment file (its paths moved into ``tmp``), plus ``given`` (the test's database)."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SCOREKEEPER_", "DATABASE_"))}
    return {**base, **{k: moved(v, tmp) for k, v in environment_file().items()}, "PYTHONUNBUFFERED": "1", **given}


def free_port() -> int:
    return app.free_port()


@dataclass
class Caddy:
    """Caddy serving ``deploy/Caddyfile`` on 127.0.0.1: HTTPS on ``port`` by its own local
    certificate authority (``root``: its certificate, for the phones to trust)."""

    process: subprocess.Popen[str]
    port: int
    root: Path
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        app.stop(self.process)


def caddy_env(tmp: Path, **site: str) -> dict[str, str]:
    """Caddy's environment in a test: its data and configuration in ``tmp``, and ``site``
    (SCOREKEEPER_DOMAIN, SCOREKEEPER_UPSTREAMS, CADDY_OPTIONS)."""
    home = tmp / "caddy-home"
    home.mkdir(exist_ok=True)
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
        **site,
    }


def start_caddy(tmp: Path, domain: str, upstreams: list[str], timeout: float = 30) -> Caddy:
    """Run Caddy on deploy/Caddyfile for ``domain``: HTTPS on a free port of 127.0.0.1, with a
    certificate of Caddy's local authority (never installed into this machine's trust), no admin
    endpoint, HTTP's redirect on another free port."""
    https, http = free_port(), free_port()
    options = "\n".join(
        ["admin off", "default_bind 127.0.0.1", f"http_port {http}", f"https_port {https}", "local_certs"]
        + ["skip_install_trust"]
    )
    env = caddy_env(tmp, SCOREKEEPER_DOMAIN=domain, SCOREKEEPER_UPSTREAMS=" ".join(upstreams), CADDY_OPTIONS=options)
    log = tmp / "caddy.log"
    caddy = shutil.which("caddy") or "caddy"
    process = subprocess.Popen(
        [caddy, "run", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"],
        env=env,
        cwd=tmp,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    root = Path(env["XDG_DATA_HOME"]) / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    server = Caddy(process=process, port=https, root=root, log=log)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"caddy stopped ({process.returncode}):\n{server.output()}")
        if root.exists() and _answers(https):
            return server
        time.sleep(0.2)
    server.stop()
    raise AssertionError(f"caddy did not answer in {timeout} s:\n{server.output()}")


def _answers(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True
