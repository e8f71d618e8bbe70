"""``make run`` serves the phones of the local network: the test runs it inside a network namespace
of its own, on an address that is not loopback (198.51.100.1, a documentation range, on one end
of a veth pair), and plays a phone from a second namespace across the veth: the page answers with
debug off, the static files are served, and a form's POST over plain HTTP is taken.

Nothing leaves the machine: both namespaces are made here and removed after. Where network
namespaces cannot be made (not root, no ``ip``), the test is skipped and says why.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server import app

SERVER_ADDRESS = "198.51.100.1"
CLIENT_ADDRESS = "198.51.100.2"

# A phone across the network: plain HTTP, cookies kept, forms posted with their CSRF token.
PROBE = r"""
import http.cookiejar, json, re, sys, urllib.error, urllib.request
base, token = sys.argv[1], sys.argv[2]
jar = http.cookiejar.CookieJar()
opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None

no_redirect = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)

def get(path, opener=opener, headers=None):
    request = urllib.request.Request(base + path, headers=headers or {})
    try:
        with opener.open(request, timeout=10) as r:
            return r.status, {k.title(): v for k, v in r.headers.items()}, r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, {k.title(): v for k, v in e.headers.items()}, e.read().decode("utf-8", "replace")

out = {}
out["home"] = get("/")[0]
status, headers, body = get("/")
js = re.search(r'src="(/static/[^"]+\.js)"', body).group(1)
css = js  # the stylesheet is inlined in each page: a script stands for the static files
s, h, b = get(css)
out["css"] = [css, s, h.get("Content-Type"), len(b), h.get("Cache-Control")]
s, h, b = get(css, headers={"Accept-Encoding": "gzip"})
out["css_gzip"] = h.get("Content-Encoding")
out["js"] = [js, get(js)[0]]
s, h, b = get("/no/such/page/")
out["missing"] = [s, "Using the URLconf" in b or "Traceback" in b or "DEBUG" in b, "Not found" in b]
s, h, b = get("/", headers={"Host": "evil.example"})
out["bad_host"] = s
s, h, b = get("/join/" + token + "/")
out["join_page"] = s
csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', b).group(1)
out["cookies_before"] = sorted(c.name for c in jar)
data = urllib.parse.urlencode({"csrfmiddlewaretoken": csrf, "name": "Ben's phone"}).encode()
page = base + "/join/" + token + "/"
request = urllib.request.Request(page, data=data, headers={"Origin": base, "Referer": page})
try:
    with no_redirect.open(request, timeout=10) as r:
        out["post"] = [r.status, r.headers.get("Location"), r.headers.get_all("Set-Cookie")]
except urllib.error.HTTPError as e:
    out["post"] = [e.code, e.headers.get("Location"), e.headers.get_all("Set-Cookie") or []]
out["secure_cookies"] = [c.name for c in jar if c.secure]
location = out["post"][1] or "/"
out["after"] = get(location if location.startswith("/") else "/" + location.split("/", 3)[-1])[0]
request = urllib.request.Request(base + "/join/" + token + "/", data=urllib.parse.urlencode({"name": "Eve"}).encode())
try:
    no_redirect.open(request, timeout=10)
    out["post_without_csrf"] = 200
except urllib.error.HTTPError as e:
    out["post_without_csrf"] = e.code
print(json.dumps(out))
"""


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check, timeout=30)


@pytest.fixture
def namespaces() -> Iterator[tuple[str, str]]:
    """Two network namespaces joined by a veth pair: the server's and a phone's."""
    if shutil.which("ip") is None:
        pytest.skip("network namespaces need iproute2's ip (make test installs it): the LAN test cannot run")
    if os.geteuid() != 0:
        pytest.skip("network namespaces need root: the make run LAN test cannot run here")
    tag = f"sk{os.getpid() % 100000}"
    server, phone = f"{tag}s", f"{tag}c"
    made: list[str] = []
    try:
        for ns in (server, phone):
            done = _ip("netns", "add", ns, check=False)
            if done.returncode:
                pytest.skip(f"cannot make a network namespace ({done.stderr.strip()}): the LAN test cannot run")
            made.append(ns)
        _ip("-n", server, "link", "add", f"{tag}a", "type", "veth", "peer", "name", f"{tag}b", "netns", phone)
        _ip("-n", server, "addr", "add", f"{SERVER_ADDRESS}/24", "dev", f"{tag}a")
        _ip("-n", phone, "addr", "add", f"{CLIENT_ADDRESS}/24", "dev", f"{tag}b")
        for ns, dev in ((server, f"{tag}a"), (phone, f"{tag}b")):
            _ip("-n", ns, "link", "set", dev, "up")
            _ip("-n", ns, "link", "set", "lo", "up")
        yield server, phone
    finally:
        for ns in made:
            _ip("netns", "del", ns, check=False)


def test_make_run_serves_the_local_network_with_debug_off(namespaces, tmp_path: Path):
    server_ns, phone_ns = namespaces
    port = 8000
    env = app.app_env(tmp_path, DJANGO_DEBUG="1")  # make run turns debug off whatever the shell says
    served = app.start(
        tmp_path,
        command=["make", "--no-print-directory", "run", f"PORT={port}"],
        host=SERVER_ADDRESS,
        port=port,
        prefix=["ip", "netns", "exec", server_ns],
        env=env,
        wait_for=SERVER_ADDRESS,
    )
    try:
        seeded = served.seed(["Ann", "Ben"])
        link = served.manage("table_link", str(seeded["table"]), "--follow")
        assert link.returncode == 0, link.stderr
        token = link.stdout.strip().rstrip("/").rsplit("/", 1)[-1]
        probe = tmp_path / "phone.py"
        probe.write_text(PROBE)
        url = f"http://{SERVER_ADDRESS}:{port}"
        done = subprocess.run(
            ["ip", "netns", "exec", phone_ns, sys.executable, str(probe), url, token],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr + served.output()
        seen = json.loads(done.stdout)
    finally:
        served.stop()
    banner = served.output()
    # It says where to go, with a QR code of it, on the address of the network (not loopback).
    assert f"Open {url}/ on each phone" in banner and "█" in banner
    assert seen["home"] == 200
    css, status, content_type, size, cache = seen["css"]
    assert status == 200 and "javascript" in content_type and size > 1000
    assert "max-age=315360000" in cache and "immutable" in cache  # collected with hashed names
    assert seen["css_gzip"] in ("gzip", "br")
    assert seen["js"][1] == 200
    missing_status, shows_debug, our_page = seen["missing"]
    assert missing_status == 404 and not shows_debug and our_page  # debug is off
    assert seen["bad_host"] == 400  # hosts are this machine's only
    assert seen["join_page"] == 200
    status, location, cookies = seen["post"]
    assert status == 302, seen
    assert any(c.startswith("sk_devices=") for c in cookies)
    assert not any(part.strip() == "secure" for c in cookies for part in c.lower().split(";"))
    assert seen["secure_cookies"] == []  # plain HTTP keeps its cookies
    assert seen["after"] == 200  # the joined phone sees the game
    assert seen["post_without_csrf"] == 403
