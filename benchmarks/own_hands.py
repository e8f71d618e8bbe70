"""Every player enters his own hand at once (issue 22) against one scorer typing all of it, in the
same run, on the card picker, driving Debian's Chromium as the browser tests do: the three-player
Oklahoma deal of the taps benchmark (13 + 13 + 13 cards, tests/browser/entry_picker.py).

- One typist: the scorer enters every hand on the ordinary deal form, from the form ready to the
  saved deal's game page.
- Three phones at once: each seated phone enters its own hand on its own page (three browsers, one
  thread each, released together), then the scorer taps *Save deal 1* on the game page, which
  shows the deal come together live; from the three forms ready to the saved deal's game page.

Machines tap far faster than people, which would make the live page's one-second poll look large:
every tap is paced at ``PACE`` seconds, a person's pace (issue 22: 47 taps in about 35–50 s), on
both sides alike. Taps per phone are counted as in the taps benchmark (every card, "next", who went
out, the wild card named, Save). Ends with ``own hands: R of one typist's time, T taps a phone``
(R: the phones' wall-clock time over the typist's; T: the most taps a phone with 13 cards needed,
the target's case; every phone's taps and cards are printed on the line before).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from benchmarks.taps import CHROMIUM, ROOT, _landed, _serve  # the taps benchmark's server and browser

PACE = float(os.environ.get("OWN_HANDS_PACE", "0.75"))  # seconds a person takes for one tap
SIZE = {"width": 390, "height": 844}
TARGET_RATIO, TARGET_TAPS = 0.5, 16
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]

SEED = """
import json
from scorekeeper.table import access
from scorekeeper.table.games.services import create_game
from scorekeeper.table.hands.services import open_deal
from scorekeeper.table.phones.services import create_table, sit
from scorekeeper.table.models import Device, Role
from django.http import HttpResponse
from django.test import RequestFactory

def cookie(device):
    response = HttpResponse()
    access.remember(response, RequestFactory().get("/"), device)
    return response.cookies[access.COOKIE].value

table, scorer = create_table(name="Bench", device_name="Scorer's phone")
players = %(players)r
out = {"scorer": cookie(scorer), "games": []}
for _ in range(2):
    game = create_game(table=table, kind="oklahoma", profile="book", options={}, players=players)
    out["games"].append(game.pk)
phones = []
for i, name in enumerate(players):
    device = Device.objects.create(table=table, name=name + "'s phone", role=Role.FOLLOW)
    sit(game=game, position=i, phone=device, by=device)
    phones.append(cookie(device))
open_deal(game=game, by=scorer)
out["phones"] = phones
print(json.dumps(out))
"""


def _paced(picking_class: Any) -> Any:
    class Paced(picking_class):
        def tap(self, target: Any, what: str, check: bool = True) -> None:
            time.sleep(PACE)
            super().tap(target, what, check)

    return Paced


def _seed(env: dict[str, str], players: list[str]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "shell", "-c", SEED % {"players": players}],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def _page(p: Any, url: str, cookie: str, path: str) -> Any:
    browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    context = browser.new_context(viewport=SIZE)
    context.add_cookies([{"name": "sk_devices", "value": cookie, "url": url}])
    page = context.new_page()
    page.goto(url + path)
    return browser, page


def _one_phone(
    url: str,
    cookie: str,
    path: str,
    fields: list,
    did: str | None,
    ready: threading.Barrier,
    taps: dict[str, int],
    player: str,
) -> None:
    from playwright.sync_api import sync_playwright

    from tests.browser.entry_picker import Picking

    with sync_playwright() as p:
        browser, page = _page(p, url, cookie, path)
        page.get_by_role("group", name="Card picker").wait_for()
        picking = _paced(Picking)(page)
        ready.wait()
        for i, (who, what, cards) in enumerate(fields):
            if i:
                picking.key("next field")
            assert picking.target() == f"{who}: {what}", picking.target()
            if did and i == 0:
                picking.tap(page.get_by_label(f"{who} {did}"), f"{who} {did}")
            picking.cards(cards)
        picking.save("Send")  # the picker's key on a seated phone's hand
        page.wait_for_url(lambda u: "/open/hands/" not in u, timeout=30_000)
        taps[player] = picking.taps
        browser.close()


def main() -> None:
    from playwright.sync_api import sync_playwright

    from tests.browser.entry_picker import OKLAHOMA_DEAL

    deal = OKLAHOMA_DEAL
    with tempfile.TemporaryDirectory(prefix="scorekeeper-own-hands-") as tmp:
        server, url = _serve(tmp)
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{Path(tmp) / 'taps.sqlite3'}", "DJANGO_DEBUG": "1"}
        try:
            seeded = _seed(env, deal["players"])
            typed_game, own_game = seeded["games"]
            with sync_playwright() as p:
                typed = _one_typist(p, url, seeded["scorer"], typed_game, deal)
                own = _three_phones(p, url, seeded, own_game, deal)
        finally:
            server.terminate()
            server.wait(timeout=10)
    _report(deal, typed, own)


def _one_typist(p: Any, url: str, cookie: str, game: int, deal: dict[str, Any]) -> tuple[float, bool, int]:
    """One scorer types every hand on the deal form: (seconds, saved, taps)."""
    from tests.browser.entry_picker import Picking, enter_oklahoma

    browser, page = _page(p, url, cookie, f"/games/{game}/deals/new/")
    page.get_by_role("group", name="Card picker").wait_for()
    typist = _paced(Picking)(page)
    start = time.perf_counter()
    enter_oklahoma(typist, deal)
    saved = _landed(page)
    seconds = time.perf_counter() - start
    browser.close()
    return seconds, saved, typist.taps


def _three_phones(
    p: Any, url: str, seeded: dict[str, Any], game: int, deal: dict[str, Any]
) -> tuple[float, bool, dict[str, int]]:
    """Every seated phone enters its own hand at once, then the scorer's one tap on the game page:
    (seconds, saved, each phone's taps by player)."""
    players = deal["players"]
    scorer_browser, scoring = _page(p, url, seeded["scorer"], f"/games/{game}/")
    ready = threading.Barrier(len(players) + 1)
    taps: dict[str, int] = {}
    threads = []
    for seat, name in enumerate(players):
        fields = [f for f in deal["fields"] if f[0] == name]
        did = "went out" if name == deal["out"] else None
        args = (url, seeded["phones"][seat], f"/games/{game}/open/hands/{seat}/", fields, did, ready, taps, name)
        threads.append(threading.Thread(target=_one_phone, args=args))
    for t in threads:
        t.start()
    ready.wait()
    start = time.perf_counter()
    for t in threads:
        t.join()
    save = scoring.get_by_role("button", name="Save deal 1")
    save.wait_for(timeout=30_000)
    time.sleep(PACE)
    save.click()
    saved = _landed(scoring)
    seconds = time.perf_counter() - start
    scorer_browser.close()
    return seconds, saved, taps


def _report(deal: dict[str, Any], typed: tuple[float, bool, int], own: tuple[float, bool, dict[str, int]]) -> None:
    """The two ways side by side, each phone's taps, the ratio, and the closing line."""
    (typed_time, typed_ok, typed_taps), (own_time, own_ok, taps) = typed, own
    players = deal["players"]
    ratio = own_time / typed_time
    cards = {n: _cards(deal, n) for n in players}
    thirteen = [taps[n] for n in players if n in taps and cards[n][0] == 13]
    most = max(thirteen) if thirteen else 0
    each = ", ".join(_phone_taps(n, taps.get(n, "?"), *cards[n]) for n in players)
    print(f"one scorer types the deal: {typed_time:.1f} s, {typed_taps} taps ({_saved(typed_ok)})")
    print(f"three phones at once, then the scorer's one tap: {own_time:.1f} s ({_saved(own_ok)})")
    print(f"taps a phone: {each}; target <= {TARGET_TAPS} for 13 cards; paced {PACE} s a tap")
    print(f"ratio {ratio:.2f} ({'within' if ratio <= TARGET_RATIO else 'OVER'} the target of {TARGET_RATIO})")
    print(f"own hands: {ratio:.2f} of one typist's time, {most} taps a phone")


def _cards(deal: dict[str, Any], name: str) -> tuple[int, int]:
    """A player's cards in the deal, and how many wild cards he names (``=…``, not cards)."""
    typed = [c for f in deal["fields"] if f[0] == name for c in f[2].split()]
    named = sum(c.startswith("=") for c in typed)
    return len(typed) - named, named


def _phone_taps(name: str, taps: int | str, cards: int, named: int) -> str:
    """``Ann 15 (13 cards, 1 wild named)``."""
    return f"{name} {taps} ({cards} cards{f', {named} wild named' if named else ''})"


def _saved(ok: bool) -> str:
    return "saved" if ok else "NOT SAVED"


if __name__ == "__main__":
    main()
