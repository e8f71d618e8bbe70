"""The files of ``deploy/`` (issue 37, hosting): each one is checked by its own tool or used here.

- The systemd units pass ``systemd-analyze verify`` (where it is installed), and their commands run
  as written: the backup and the purge with the environment file, the app server as the README's
  Production recipe (tests/server/test_live.py serves it twice behind Caddy).
- The environment file lists every variable the settings read, and nothing else; systemd and a
  shell read it alike; it holds the README's exports.
- The Caddyfile passes ``caddy validate`` and adapts to what the README says: automatic HTTPS for
  the public name, both app servers, their /healthz probed.
- The README's commands for hosting run as written (the secret key's, the cron line's).
"""

from __future__ import annotations

import ast
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.server import app, deploy

UNITS = sorted(p.name for p in deploy.DEPLOY.glob("*.service")) + sorted(p.name for p in deploy.DEPLOY.glob("*.timer"))
README = (app.ROOT / "README.md").read_text(encoding="utf-8")


def read_by(path: Path) -> set[str]:
    """The environment variables a module reads: each name given to ``os.environ.get``,
    ``os.environ[...]``, ``os.getenv`` or the settings' ``env_bool``/``env_list``, and
    ``DATABASE_URL`` where it calls ``dj_database_url.config``."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = ast.unparse(node.func)
            first = node.args[0] if node.args else None
            if func in {"os.environ.get", "os.getenv", "env_bool", "env_list"} and isinstance(first, ast.Constant):
                names.add(str(first.value))
            if func == "dj_database_url.config":
                names.add("DATABASE_URL")
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ":
            names.update([str(node.slice.value)] if isinstance(node.slice, ast.Constant) else [])
    return names


def listed() -> set[str]:
    """Every variable the environment file names, set or left commented out (``#NAME=``)."""
    text = (deploy.DEPLOY / "scorekeeper.env").read_text(encoding="utf-8")
    return set(re.findall(r"^#?([A-Z][A-Z0-9_]+)=", text, flags=re.MULTILINE))


def test_the_environment_file_lists_every_variable_the_settings_read_and_no_other():
    settings = read_by(app.ROOT / "scorekeeper" / "settings.py")
    assert {"DATABASE_URL", "DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS", "DJANGO_BEHIND_PROXY"} <= settings
    served = read_by(app.ROOT / "scorekeeper" / "asgi.py")  # SCOREKEEPER_THREADS: the pages' threads
    assert listed() == settings | served, (settings | served) ^ listed()


def test_the_environment_file_reads_alike_in_systemd_and_in_a_shell():
    """NAME=value lines with nothing a shell would change: ``set -a; . FILE`` (the README's cron
    line) gives what systemd's EnvironmentFile= gives."""
    script = f"set -a; . {shlex.quote(str(deploy.DEPLOY / 'scorekeeper.env'))}; exec {shlex.quote(sys.executable)} -c "
    script += shlex.quote("import json, os; print(json.dumps(dict(os.environ)))")
    done = subprocess.run(
        ["sh", "-c", script], env={"PATH": os.environ.get("PATH", "")}, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    shell = json.loads(done.stdout)
    assert {k: shell.get(k) for k in deploy.environment_file()} == deploy.environment_file()


def test_the_environment_file_holds_the_readme_s_production_settings():
    exports, _ = app.production_recipe()
    given = deploy.environment_file()
    placeholders = {"DATABASE_URL", "DJANGO_SECRET_KEY"}  # the site's own: the file leaves them to fill in
    assert {k: given.get(k) for k in exports if k not in placeholders} == {
        k: v for k, v in exports.items() if k not in placeholders
    }
    assert placeholders <= set(given)


def test_the_app_server_unit_runs_the_readme_s_gunicorn_line_on_its_instance_s_port():
    _, commands = app.production_recipe()
    readme = commands[-1]
    readme[readme.index("--bind") + 1] = "127.0.0.1:8000"
    assert deploy.command("scorekeeper@.service", Path("/tmp"), "8000") == readme
    service = deploy.unit("scorekeeper@.service")
    for name in UNITS:
        if name.endswith(".service"):
            settings = deploy.unit(name)
            assert settings["EnvironmentFile"] == [deploy.ENV_FILE] and settings["User"] == ["scorekeeper"], name
            assert settings["WorkingDirectory"] == [deploy.CODE], name
    assert service["LimitNOFILE"] == ["65536"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_the_units_pass_systemd_analyze_verify(tmp_path: Path):
    """Copies of the units with this checkout's paths (verify checks that each program exists)."""
    for name in UNITS:
        (tmp_path / name).write_text(deploy.moved((deploy.DEPLOY / name).read_text(encoding="utf-8"), tmp_path))
    (tmp_path / "scorekeeper@8000.service").symlink_to(tmp_path / "scorekeeper@.service")
    names = [n for n in UNITS if n != "scorekeeper@.service"] + ["scorekeeper@8000.service"]
    done = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", *[f"./{n}" for n in names]],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr
    for timer in ("scorekeeper-backup.timer", "scorekeeper-purge.timer"):
        assert (deploy.DEPLOY / timer.replace(".timer", ".service")).exists()
        assert deploy.unit(timer)["Persistent"] == ["true"]


def test_the_backup_and_purge_units_run_as_written_with_the_environment_file(tmp_path: Path):
    """Their commands with the environment file (a SQLite database in the test's folder in place of
    PostgreSQL): the backup writes a dated copy into its folder and keeps at most 14."""
    env = deploy.environment(tmp_path, DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    assert env["SCOREKEEPER_VAR_DIR"] == f"{tmp_path}/scorekeeper"
    assert app.manage(env, "migrate", "--noinput").returncode == 0
    folder = tmp_path / "scorekeeper-backups"
    folder.mkdir()
    for n in range(15):
        (folder / f"scores-2026-01-{n + 1:02d}-040000.sqlite3").write_text("an older copy")
    for name in ("scorekeeper-backup.service", "scorekeeper-purge.service"):
        done = subprocess.run(
            deploy.command(name, tmp_path), cwd=app.ROOT, env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, (name, done.stdout, done.stderr)
    copies = sorted(p.name for p in folder.iterdir())
    assert len(copies) == 14 and "scores-2026-01-02-040000.sqlite3" not in copies
    assert sum(1 for p in folder.iterdir() if p.read_bytes().startswith(b"SQLite format 3")) == 1


def caddy(tmp_path: Path, command: str, **site: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["caddy", command, "--config", str(deploy.DEPLOY / "Caddyfile"), "--adapter", "caddyfile"],
        env=deploy.caddy_env(tmp_path, **site),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.skipif(shutil.which("caddy") is None, reason="Caddy is not installed (make test installs it)")
def test_the_caddyfile_is_valid_and_serves_the_public_name_over_https(tmp_path: Path):
    checked = caddy(tmp_path, "validate")
    assert checked.returncode == 0 and "Valid configuration" in checked.stdout + checked.stderr, checked.stderr
    adapted = caddy(tmp_path, "adapt")
    assert adapted.returncode == 0, adapted.stderr
    config = json.loads(adapted.stdout)
    (server,) = config["apps"]["http"]["servers"].values()
    assert server["listen"] == [":443"]  # automatic HTTPS: a certificate for the name, HTTP redirected
    assert "automatic_https" not in server and "tls" not in config["apps"]  # no certificate of its own
    (route,) = server["routes"]
    assert route["match"] == [{"host": ["scores.example.org"]}]
    proxy = route["handle"][0]["routes"][0]["handle"][0]
    assert proxy["handler"] == "reverse_proxy"
    assert [u["dial"] for u in proxy["upstreams"]] == ["127.0.0.1:8000", "127.0.0.1:8001"]
    assert proxy["health_checks"]["active"]["uri"] == "/healthz"
    assert proxy["load_balancing"]["selection_policy"]["policy"] == "least_conn"
    # SCOREKEEPER_DOMAIN and SCOREKEEPER_UPSTREAMS in Caddy's environment name another site.
    other = caddy(tmp_path, "adapt", SCOREKEEPER_DOMAIN="cards.example.net", SCOREKEEPER_UPSTREAMS="10.0.0.2:8000")
    (server,) = json.loads(other.stdout)["apps"]["http"]["servers"].values()
    assert server["routes"][0]["match"] == [{"host": ["cards.example.net"]}]
    assert [u["dial"] for u in server["routes"][0]["handle"][0]["routes"][0]["handle"][0]["upstreams"]] == [
        "10.0.0.2:8000"
    ]


def hosting() -> str:
    return README.split("## Hosting", 1)[1].split("\n## ", 1)[0]


def test_the_readme_s_secret_key_command_runs_without_the_app_s_environment():
    """Run as written by the system's python3 (no virtual environment, no Django): a key that
    ``check --deploy`` takes (50 characters or more, of many kinds) and that needs no quoting."""
    (line,) = [x for x in hosting().splitlines() if "secrets.token_urlsafe" in x]
    command = line.strip().strip("`")
    python3 = shutil.which("python3", path="/usr/bin:/bin") or "python3"
    done = subprocess.run(
        ["sh", "-c", command], env={"PATH": str(Path(python3).parent)}, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    key = done.stdout.strip()
    assert len(key) >= 50 and len(set(key)) >= 5 and re.fullmatch(r"[A-Za-z0-9_-]+", key)


def test_the_readme_s_cron_lines_read_the_environment_file(tmp_path: Path):
    """The cron line for a machine without systemd, as written but for its paths: it reads the
    environment file before the command (cron's own environment has none of it)."""
    lines = [x.strip().strip("`") for x in hosting().splitlines() if "scorekeeper.env" in x and "* * *" in x]
    assert lines
    db = tmp_path / "db.sqlite3"
    env_file = tmp_path / "scorekeeper.env"
    env_file.write_text(
        deploy.moved((deploy.DEPLOY / "scorekeeper.env").read_text(encoding="utf-8"), tmp_path).replace(
            "DATABASE_URL=postgres://scores:PASSWORD@127.0.0.1:5432/scores", f"DATABASE_URL=sqlite:///{db}"
        )
    )
    assert app.manage(dict(deploy.environment(tmp_path, DATABASE_URL=f"sqlite:///{db}")), "migrate").returncode == 0
    for line in lines:
        command = deploy.moved(line.split(None, 5)[5], tmp_path).replace(deploy.ENV_FILE, str(env_file))
        cron = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "SHELL": "/bin/sh"}  # what cron gives
        done = subprocess.run(["sh", "-c", command], env=cron, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
    assert any(p.name.startswith("scores-") for p in (tmp_path / "scorekeeper-backups").iterdir())
