"""Phones at a table, over real HTTP: the concurrency tests and ``make bench`` (``benchmarks.concurrency``)
drive a running server with them.

A ``Phone`` is a browser at the table: it holds its cookies (the signed device cookie that makes it
a phone of the table, the CSRF cookie) and goes through the real forms: it opens the deal form, types
the cards and submits the form with every hidden field the page gave it (CSRF token, the deal
number the form was opened for, the submission token). ``enter_deals`` lets several phones do that
at once and counts what they were answered; ``audit`` then counts in the database what was lost or
doubled.

Every deal a phone enters is different (Ann holds a pair of cards that names the phone and the
save), so a deal saved twice or never is seen. The deals are valid Oklahoma deals (book rules) on
which every total goes down: a game of them never ends, however many are saved.
"""

from __future__ import annotations

import http.client
import itertools
import socket
import ssl
import threading
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlencode, urlsplit

PLAYERS = ["Ann", "Ben", "Cleo"]
OPTIONS = {"target": 10000}
# The natural cards (no 2s: they are wild) of a pack; two of them in Ann's hand tag a deal.
_NATURALS = [
    f"{rank}{suit}" for rank in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A") for suit in "SHDC"
]
TAGS = list(itertools.combinations(_NATURALS, 2))  # 1,128 different deals


def deal_fields(tag: int) -> dict[str, str]:
    """The deal form's fields for deal number ``tag``: the stock ran out; Ann holds the tag's pair."""
    first, second = TAGS[tag]
    return {
        "out": "stock",
        "p-0-held": f"{first} {second}",
        "p-1-melds": "9C 10C JC",
        "p-1-held": "KS KH",
        "p-2-held": "QH",
    }


def deal_record(tag: int) -> dict[str, Any]:
    """The same deal as a record's deal (RECORD.md), for the services."""
    first, second = TAGS[tag]
    return {
        "out": None,
        "first_turn": False,
        "concealed": False,
        "hands": {
            "Ann": {"melds": [], "held": [first, second]},
            "Ben": {"melds": [["9C", "10C", "JC"]], "held": ["KS", "KH"]},
            "Cleo": {"melds": [], "held": ["QH"]},
        },
    }


def tag_of(cards: Mapping[str, Any]) -> int | None:
    """Which tag a stored deal (seat form) carries."""
    try:
        held = tuple(cards["hands"][0]["held"])
    except (KeyError, IndexError, TypeError):
        return None
    return _TAG_INDEX.get(held)


_TAG_INDEX = {pair: i for i, pair in enumerate(TAGS)}


# ------------------------------------------------------------------------------------ HTTP


@dataclass
class Answer:
    status: int
    location: str
    body: str


class _Forms(HTMLParser):
    """What a browser would submit for each form of a page, by the form's action: hidden and text
    fields with their values, checked radio buttons and boxes (no submit buttons)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: dict[str, dict[str, str]] = {}
        self._action: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._action = a.get("action", "")
            self.forms.setdefault(self._action, {})
            return
        if tag != "input" or self._action is None or not a.get("name"):
            return
        kind = a.get("type", "text")
        if kind in ("radio", "checkbox"):
            if "checked" in a:
                self.forms[self._action][a["name"]] = a.get("value") or "on"
        elif kind not in ("submit", "button", "file", "image", "reset"):
            self.forms[self._action][a["name"]] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._action = None


def form_fields(html: str, action: str) -> dict[str, str]:
    """What a browser submits for the page's form that posts to ``action``, as the page shows it."""
    parser = _Forms()
    parser.feed(html)
    return parser.forms.get(action, {})


def hidden_fields(html: str, action: str) -> dict[str, str]:
    """The hidden fields (CSRF token, deal number, version, submission token...) of the page's form
    that posts to ``action``; the fields a person types are left out."""
    parser = _HiddenOnly()
    parser.feed(html)
    return parser.forms.get(action, {})


class _HiddenOnly(_Forms):
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "input" and dict(attrs).get("type") != "hidden":
            return
        super().handle_starttag(tag, attrs)


class _Resolved(http.client.HTTPSConnection):
    """HTTPS to ``host`` (its name for TLS and the Host header) at another address (curl's --resolve):
    a public name served on 127.0.0.1 in a test."""

    def __init__(self, host: str, port: int | None, *, at: str, timeout: float, context: ssl.SSLContext) -> None:
        super().__init__(host, port, timeout=timeout, context=context)
        self.at = at

    def connect(self) -> None:
        sock = socket.create_connection((self.at, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def connection(
    base: str, *, timeout: float, tls: ssl.SSLContext | None = None, at: str | None = None
) -> http.client.HTTPConnection:
    """A connection to ``base`` (``http://host:port``; ``https://`` with ``tls``, the context that
    trusts its certificate), made to the address ``at`` in place of the host when given."""
    url = urlsplit(base)
    host = url.hostname or "127.0.0.1"
    if url.scheme == "https":
        assert tls is not None, "HTTPS needs the context that trusts the server's certificate"
        return _Resolved(host, url.port or 443, at=at or host, timeout=timeout, context=tls)
    return http.client.HTTPConnection(at or host, url.port or 80, timeout=timeout)


def proxy_headers(origin: str) -> dict[str, str]:
    """What a reverse proxy serving ``origin`` sets on each request it passes on (README, Production)."""
    url = urlsplit(origin)
    return {"Host": url.netloc, "X-Forwarded-Proto": url.scheme, "X-Forwarded-For": "203.0.113.7"}


class Phone:
    """One phone: its cookies, one HTTP connection per request, redirects not followed."""

    def __init__(
        self,
        base: str,
        cookies: Mapping[str, str],
        *,
        timeout: float = 60,
        proxied_as: str | None = None,
        tls: ssl.SSLContext | None = None,
        at: str | None = None,
    ) -> None:
        """``proxied_as``: the public origin (``https://scores.example.org``) of a reverse proxy in
        front of ``base``: each request comes with the headers the proxy sets. ``tls`` and ``at``:
        an HTTPS ``base`` and the address its name stands for (``connection``)."""
        url = urlsplit(base)
        self.base, self.tls, self.at = base, tls, at
        self.origin = proxied_as or f"{url.scheme}://{url.netloc}"
        self.headers = proxy_headers(proxied_as) if proxied_as else {"Host": url.netloc}
        self.cookies = dict(cookies)
        self.timeout = timeout

    def request(self, method: str, path: str, data: Mapping[str, str] | None = None) -> Answer:
        conn = connection(self.base, timeout=self.timeout, tls=self.tls, at=self.at)
        headers = {**self.headers, "Connection": "close"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            body = urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = self.origin
            headers["Referer"] = self.origin + path
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            text = response.read().decode("utf-8", errors="replace")
            for header in response.headers.get_all("Set-Cookie") or []:
                jar: SimpleCookie = SimpleCookie()
                jar.load(header)
                for name, morsel in jar.items():
                    self.cookies[name] = morsel.value
            return Answer(response.status, response.headers.get("Location", ""), text)
        finally:
            conn.close()

    def get(self, path: str) -> Answer:
        return self.request("GET", path)

    def post(self, path: str, data: Mapping[str, str]) -> Answer:
        return self.request("POST", path, data)


# ------------------------------------------------------------------------------------ load


@dataclass
class Tally:
    """What the phones were answered."""

    saved: list[tuple[int, int]] = field(default_factory=list)  # (game id, tag) answered "saved"
    conflicts: int = 0  # answered "another phone saved that deal first": the phone saved it again
    most_conflicts: int = 0  # the most one save met before it was saved
    failed: list[str] = field(default_factory=list)  # saves never answered "saved": why
    seconds: float = 0.0

    @property
    def rate(self) -> float:
        return len(self.saved) / self.seconds if self.seconds else 0.0


def save_deal(phone: Phone, game: int, tag: int, *, tries: int = 500) -> tuple[bool, int, str]:
    """A phone enters deal ``tag`` through the form: (saved?, conflicts met, what went wrong).

    When the answer is that another phone saved the deal number first (409), the phone does what
    the page says: it saves again the form as the page gives it back, with the cards it had typed
    (the audit then finds the tag in the game: the page kept them)."""
    path = f"/games/{game}/deals/new/"
    page = phone.get(path)
    if page.status != 200:
        return False, 0, f"GET {path}: {page.status}"
    data = {**form_fields(page.body, path), **deal_fields(tag)}  # typed into the empty form
    conflicts = 0
    for _ in range(tries):
        page = phone.post(path, {**data, "action": "save"})
        if page.status == 302 and page.location.startswith(f"/games/{game}/"):
            return True, conflicts, ""
        if page.status == 409 and 'id="conflict"' in page.body:
            conflicts += 1
            data = form_fields(page.body, path)  # as the page gives it back
            continue
        return False, conflicts, f"POST {path}: {page.status} {_gist(page.body)}"
    return False, conflicts, f"still in conflict after {tries} tries"


def _gist(html: str) -> str:
    text = " ".join(html.replace("<", " <").split())
    return text[:300]


def enter_deals(
    base: str, phones: Sequence[Mapping[str, str]], games: Sequence[int], saves: int, *, first_tag: int = 0
) -> Tally:
    """Every phone (its cookies) enters ``saves`` deals at once with the others, phone ``k`` into
    ``games[k % len(games)]``; each deal is tagged ``first_tag + k * saves + i``."""
    tally = Tally()
    lock = threading.Lock()
    start = threading.Barrier(len(phones) + 1)

    def run(k: int, cookies: Mapping[str, str]) -> None:
        phone = Phone(base, cookies)
        game = games[k % len(games)]
        start.wait()
        for i in range(saves):
            tag = first_tag + k * saves + i
            try:
                ok, conflicts, why = save_deal(phone, game, tag)
            except (OSError, http.client.HTTPException) as exc:
                ok, conflicts, why = False, 0, f"{type(exc).__name__}: {exc}"
            with lock:
                tally.conflicts += conflicts
                tally.most_conflicts = max(tally.most_conflicts, conflicts)
                if ok:
                    tally.saved.append((game, tag))
                else:
                    tally.failed.append(why)

    threads = [threading.Thread(target=run, args=(k, c), daemon=True) for k, c in enumerate(phones)]
    for t in threads:
        t.start()
    start.wait()
    began = time.perf_counter()
    for t in threads:
        t.join()
    tally.seconds = time.perf_counter() - began
    return tally


@dataclass
class Audit:
    """What the database holds after the phones are done, against what they were answered."""

    deals: int
    lost: list[tuple[int, int | None]]  # answered "saved", not in the game
    duplicated: list[tuple[int, int | None]]  # in the game more than once
    unanswered: list[tuple[int, int | None]]  # in the game, though the phone was not answered "saved"


def audit(tally: Tally, stored: Iterable[tuple[int, Mapping[str, Any]]]) -> Audit:
    """``stored``: every (game id, cards) the games hold."""
    held = Counter((game, tag_of(cards)) for game, cards in stored)
    answered: Counter[tuple[int, int | None]] = Counter(tally.saved)
    return Audit(
        deals=sum(held.values()),
        lost=sorted(k for k in answered if k not in held),
        duplicated=sorted(k for k, n in held.items() if n > 1),
        unanswered=sorted(k for k in held if k not in answered),
    )
