"""The settings as an installation gets them: safe by default, production from the environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management.utils import get_random_secret_key
from django.test import Client

from scorekeeper import settings as project
from tests.server import app

ROOT = Path(__file__).resolve().parents[2]


def production_env() -> dict[str, str]:
    """The environment the README's "Production" section exports on every app server (with a
    real secret key for its placeholder)."""
    env, _ = app.production_recipe()
    assert {"DATABASE_URL", "DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS", "DJANGO_HTTPS", "DJANGO_BEHIND_PROXY"} <= set(
        env
    )
    env["DJANGO_SECRET_KEY"] = get_random_secret_key()
    return env


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SCOREKEEPER_", "DATABASE_"))}
    return {**env, **extra}


def _manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_check_deploy_is_clean_with_the_production_settings(tmp_path):
    env = _clean_env(**production_env(), SCOREKEEPER_VAR_DIR=str(tmp_path))
    done = _manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout
    probe = (
        "from django.conf import settings as s; "
        "print(s.DEBUG, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, "
        "s.SECURE_HSTS_SECONDS, s.SECURE_PROXY_SSL_HEADER[0], s.DATABASES['default']['ENGINE'])"
    )
    shown = _manage("shell", "-c", probe, env=env).stdout.splitlines()[-1]
    assert shown == "False True True True 31536000 HTTP_X_FORWARDED_PROTO django.db.backends.postgresql"


def test_debug_is_off_unless_asked_and_the_secret_key_is_generated_once(tmp_path):
    probe = (
        "from django.conf import settings as s; "
        "print(s.DEBUG, s.SECRET_KEY, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE)"
    )
    env = _clean_env(SCOREKEEPER_VAR_DIR=str(tmp_path / "var"), DJANGO_SETTINGS_MODULE="scorekeeper.settings")
    first = _manage("shell", "-c", probe, env=env)
    assert first.returncode == 0, first.stderr
    debug, key, session_secure, csrf_secure = first.stdout.splitlines()[-1].split()
    # Off by default; plain HTTP on the local network keeps its cookies.
    assert (debug, session_secure, csrf_secure) == ("False", "False", "False")
    stored = (tmp_path / "var" / "secret_key").read_text().strip()
    assert key == stored and len(key) >= 50
    assert (tmp_path / "var" / "secret_key").stat().st_mode & 0o077 == 0  # readable by its owner only
    again = _manage("shell", "-c", probe, env=env)
    assert again.stdout.splitlines()[-1].split()[1] == key  # generated once, then kept
    dev = _manage("shell", "-c", probe, env={**env, "DJANGO_DEBUG": "1"})
    assert dev.stdout.splitlines()[-1].split()[0] == "True"


def test_the_secret_key_stays_out_of_the_repository():
    ignored = subprocess.run(["git", "check-ignore", "-q", "var/secret_key"], cwd=ROOT, check=False)
    assert ignored.returncode == 0
    assert "var/" in (ROOT / ".gitignore").read_text().split()


def test_secret_key_file_is_shared_by_processes_starting_at_once(tmp_path):
    keys = {project.secret_key(tmp_path) for _ in range(3)}
    assert len(keys) == 1


@pytest.mark.parametrize(
    ("meta", "behind_proxy", "expected"),
    [
        ({"REMOTE_ADDR": "10.1.1.1", "HTTP_X_FORWARDED_FOR": "6.6.6.6"}, False, "10.1.1.1"),
        ({"REMOTE_ADDR": "10.1.1.1", "HTTP_X_FORWARDED_FOR": "6.6.6.6, 203.0.113.9"}, True, "203.0.113.9"),
        ({"REMOTE_ADDR": "10.1.1.1"}, True, "10.1.1.1"),
    ],
)
def test_login_throttling_counts_the_real_client(rf, settings, meta, behind_proxy, expected):
    from scorekeeper.guards.clients import client_ip

    settings.BEHIND_PROXY = behind_proxy
    request = rf.get("/", **meta)
    assert client_ip(request) == expected


def test_admin_login_is_throttled_per_address(client, db, django_user_model):
    """5 wrong passwords from address A lock A only: the owner still logs in from address B."""
    django_user_model.objects.create_superuser("owner", "owner@example.org", "right-password-1")
    url = "/admin/login/?next=/admin/"
    a, b = "203.0.113.5", "198.51.100.7"
    for _ in range(4):
        r = client.post(url, {"username": "owner", "password": "wrong"}, REMOTE_ADDR=a)
        assert r.status_code == 200
    assert client.post(url, {"username": "owner", "password": "wrong"}, REMOTE_ADDR=a).status_code == 429  # the fifth
    locked = client.post(url, {"username": "owner", "password": "right-password-1"}, REMOTE_ADDR=a)
    assert locked.status_code == 429  # A is refused, even the right password, until the cool-off ends
    other_name = client.post(url, {"username": "someone", "password": "x"}, REMOTE_ADDR=a)
    assert other_name.status_code == 429  # whatever the name A tries
    owner = Client()
    r = owner.post(url, {"username": "owner", "password": "right-password-1"}, REMOTE_ADDR=b)
    assert r.status_code == 302 and r["Location"] == "/admin/"  # B is not locked out
    assert owner.get("/admin/", REMOTE_ADDR=b).status_code == 200


def test_admin_login_works(client, db, django_user_model):
    django_user_model.objects.create_superuser("owner", "owner@example.org", "right-password-1")
    r = client.post("/admin/login/?next=/admin/", {"username": "owner", "password": "right-password-1"})
    assert r.status_code == 302 and r["Location"] == "/admin/"


def test_behind_a_proxy_the_app_is_https_only_unless_told_otherwise(tmp_path):
    """The hosted setup: behind a proxy, secure-only cookies, HTTP redirected and HSTS by default."""
    probe = (
        "from django.conf import settings as s; "
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS)"
    )
    env = _clean_env(SCOREKEEPER_VAR_DIR=str(tmp_path), DJANGO_BEHIND_PROXY="1")
    assert _manage("shell", "-c", probe, env=env).stdout.splitlines()[-1] == "True True True 31536000"
    plain = _manage("shell", "-c", probe, env={**env, "DJANGO_HTTPS": "0"})
    assert plain.stdout.splitlines()[-1] == "False False False 0"
