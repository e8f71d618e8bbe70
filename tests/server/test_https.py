"""``make run`` (``manage.py serve``) serves HTTPS when given a certificate and its key (issue 24,
defect 9): a self-signed certificate for 127.0.0.1 is made here (``openssl``), the app is served
as a table serves it, and a phone that trusts the certificate opens it over HTTPS, joins a table
and is given secure-only cookies, with HSTS; plain HTTP on that port gets nothing."""

from __future__ import annotations

import json
import os
import shutil
import ssl
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.server import app
from tests.server.test_run import PROBE


def self_signed(tmp: Path) -> tuple[Path, Path]:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed: no certificate for the HTTPS test")
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
            "-keyout", str(key), "-out", str(cert), "-addext", "subjectAltName=IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )  # fmt: skip
    return cert, key


def test_serve_with_a_certificate_answers_over_https_with_secure_cookies(tmp_path: Path):
    cert, key = self_signed(tmp_path)
    port = app.free_port()
    command = [sys.executable, str(app.ROOT / "manage.py"), "serve", "--bind", "127.0.0.1", "--port", str(port)]
    served = app.start(tmp_path, command=command, port=port, env=app.app_env(tmp_path, CERT=str(cert), KEY=str(key)))
    try:
        seeded = served.seed(["Ann", "Ben"])
        link = served.manage("table_link", str(seeded["table"]), "--follow")
        token = link.stdout.strip().rstrip("/").rsplit("/", 1)[-1]
        base = f"https://127.0.0.1:{port}"
        trusting = ssl.create_default_context(cafile=str(cert))
        with urllib.request.urlopen(base + "/", context=trusting, timeout=10) as r:
            status, hsts = r.status, r.headers.get("Strict-Transport-Security")
        probe = tmp_path / "phone.py"
        probe.write_text(PROBE)
        done = subprocess.run(
            [sys.executable, str(probe), base, token],
            env={**os.environ, "SSL_CERT_FILE": str(cert)},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr + served.output()
        seen = json.loads(done.stdout)
        with pytest.raises(OSError):  # no plain HTTP on the port
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).read()
    finally:
        served.stop()
    assert status == 200
    assert hsts is not None and "max-age=31536000" in hsts
    assert "includeSubDomains" not in hsts and "preload" not in hsts  # this machine only
    assert f"Open {base}/ on each phone" in served.output()
    assert seen["join_page"] == 200 and seen["post"][0] == 302, seen
    assert {"sk_devices", "csrftoken"} <= set(seen["secure_cookies"])  # the phone's cookie travels encrypted
    assert all("secure" in [p.strip() for p in c.lower().split(";")] for c in seen["post"][2])
    assert seen["after"] == 200 and seen["post_without_csrf"] == 403


def test_serve_without_a_certificate_says_what_plain_http_exposes():
    from scorekeeper.server.management.commands.serve import Command

    banner = Command()._banner("http://192.0.2.7:8000/", ["192.0.2.7"], 8000, https=False)
    assert "scoring phone's cookie" in banner and "join links" in banner
    assert "openssl req -x509" in banner and "IP:192.0.2.7" in banner
    assert "CERT=var/cert.pem KEY=var/key.pem make run" in banner


def test_serve_needs_both_the_certificate_and_its_key(tmp_path: Path):
    env = app.app_env(tmp_path, CERT=str(tmp_path / "cert.pem"))
    done = app.manage(env, "serve", "--bind", "127.0.0.1", "--port", str(app.free_port()))
    assert done.returncode != 0 and "both a certificate" in done.stderr
