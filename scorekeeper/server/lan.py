"""This machine on the local network: the addresses the other phones at the table can open (their QR
codes: ``table.qr``).

No traffic leaves the machine: the addresses are read from the interfaces (``ip``), else from the
route the kernel would pick (a UDP socket that connects sends nothing).
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import shutil
import socket
import subprocess
from typing import Any

# A documentation address (TEST-NET-3, RFC 5737): connecting a UDP socket to it only asks the
# kernel which local address would be used; no packet is sent.
_PROBE = ("203.0.113.1", 9)
_VIRTUAL = ("docker", "br-", "veth", "virbr", "vboxnet", "vmnet", "tailscale", "zt", "lxc", "podman", "cni")


def _from_ip_command() -> list[str]:
    """IPv4 addresses of the interfaces that are up, the default route's first (Linux ``ip``)."""
    ip = shutil.which("ip")
    if ip is None:
        return []
    try:
        links = json.loads(_ip(ip, "addr", "show", "up"))
        routes = json.loads(_ip(ip, "route", "show", "default") or b"[]")
    except (OSError, ValueError, subprocess.SubprocessError):
        return []
    default = {r.get("dev") for r in routes}
    found: list[tuple[int, str]] = []
    for link in links:
        rank = _rank(link.get("ifname", ""), default)
        found.extend((rank, address) for address in _link_addresses(link))
    return [a for _, a in sorted(found, key=lambda f: f[0])]


def _ip(ip: str, *args: str) -> bytes:
    """What ``ip -j -4 ARGS`` prints: JSON (nothing, for a route there is not)."""
    return subprocess.run([ip, "-j", "-4", *args], capture_output=True, timeout=5).stdout


def _rank(name: str, default: set[str | None]) -> int:
    """Where an interface's addresses come: the default route's first, virtual ones (containers,
    bridges, VPNs) last."""
    if name in default:
        return 0
    if name.startswith(_VIRTUAL):
        return 2
    return 1


def _link_addresses(link: dict[str, Any]) -> list[str]:
    """The IPv4 addresses of an interface (an entry of ``ip -j addr``), but this machine's own
    (host scope, loopback)."""
    found = []
    for info in link.get("addr_info", []):
        address = info.get("local", "")
        if address and info.get("scope") != "host" and not ipaddress.ip_address(address).is_loopback:
            found.append(address)
    return found


def _from_route() -> list[str]:
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(_PROBE)
        address = s.getsockname()[0]
        if not ipaddress.ip_address(address).is_loopback and address != "0.0.0.0":
            return [address]
    return []


def addresses() -> list[str]:
    """This machine's IPv4 addresses another device can reach, the most likely first."""
    found = _from_ip_command() or _from_route()
    return list(dict.fromkeys(found))


def host_names() -> list[str]:
    """The names this machine may be opened by: its host name, with and without ``.local``."""
    name = socket.gethostname().strip()
    names = [name] if name else []
    with contextlib.suppress(OSError):
        fqdn = socket.getfqdn()
        if fqdn and fqdn not in names:
            names.append(fqdn)
    if name and "." not in name:
        names.append(f"{name}.local")
    return [n.lower() for n in names if n and n != "localhost"]


def allowed_hosts(found: list[str]) -> list[str]:
    """What ``ALLOWED_HOSTS`` must hold for the phones on the network (and this machine)."""
    return list(dict.fromkeys([*found, *host_names(), "localhost", "127.0.0.1", "[::1]"]))


def url(address: str, port: int, scheme: str = "http") -> str:
    default = {"http": 80, "https": 443}[scheme]
    return f"{scheme}://{address}:{port}/" if port != default else f"{scheme}://{address}/"


def certificate_command(found: list[str], cert: str = "var/cert.pem", key: str = "var/key.pem") -> str:
    """The ``openssl`` command that makes a self-signed certificate for this machine's addresses
    and names (what ``serve --cert --key`` takes): the phones warn once, then the traffic is
    encrypted."""
    names = [f"IP:{a}" for a in [*found, "127.0.0.1"]] + [f"DNS:{n}" for n in [*host_names(), "localhost"]]
    return (
        f"openssl req -x509 -newkey rsa:2048 -nodes -days 825 -subj /CN=scorekeeper "
        f"-keyout {key} -out {cert} -addext subjectAltName={','.join(dict.fromkeys(names))}"
    )
