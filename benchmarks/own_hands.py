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
        picking.save()
        page.wait_for_url(lambda u: "/open/hands/" not in u, timeout=30_000)
        taps[player] = picking.taps
        browser.close()


def main() -> None:
    from playwright.sync_api import sync_playwright

    from tests.browser.entry_picker import OKLAHOMA_DEAL, Picking, enter_oklahoma

    deal = OKLAHOMA_DEAL
    players = deal["players"]
    with tempfile.TemporaryDirectory(prefix="scorekeeper-own-hands-") as tmp:
        server, url = _serve(tmp)
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{Path(tmp) / 'taps.sqlite3'}", "DJANGO_DEBUG": "1"}
        try:
            seeded = _seed(env, players)
            typed_game, own_game = seeded["games"]
            with sync_playwright() as p:
                # One scorer types every hand.
                browser, page = _page(p, url, seeded["scorer"], f"/games/{typed_game}/deals/new/")
                page.get_by_role("group", name="Card picker").wait_for()
                typist = _paced(Picking)(page)
                start = time.perf_counter()
                enter_oklahoma(typist, deal)
                typed_ok = _landed(page)
                typed_time = time.perf_counter() - start
                browser.close()

                # Three phones at once, then the scorer's one tap.
                scorer_browser, scoring = _page(p, url, seeded["scorer"], f"/games/{own_game}/")
                ready = threading.Barrier(len(players) + 1)
                taps: dict[str, int] = {}
                threads = []
                for seat, name in enumerate(players):
                    fields = [f for f in deal["fields"] if f[0] == name]
                    did = "went out" if name == deal["out"] else None
                    args = (
                        url,
                        seeded["phones"][seat],
                        f"/games/{own_game}/open/hands/{seat}/",
                        fields,
                        did,
                        ready,
                        taps,
                        name,
                    )
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
                own_ok = _landed(scoring)
                own_time = time.perf_counter() - start
                scorer_browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
    ratio = own_time / typed_time
    cards = {
        n: sum(len([c for c in f[2].split() if not c.startswith("=")]) for f in deal["fields"] if f[0] == n)
        for n in players
    }
    named = {n: sum(c.startswith("=") for f in deal["fields"] if f[0] == n for c in f[2].split()) for n in players}
    thirteen = [taps[n] for n in players if n in taps and cards[n] == 13]
    most = max(thirteen) if thirteen else 0
    each = ", ".join(
        f"{n} {taps.get(n, '?')} ({cards[n]} cards{f', {named[n]} wild named' if named[n] else ''})" for n in players
    )
    print(f"one scorer types the deal: {typed_time:.1f} s, {typist.taps} taps ({'saved' if typed_ok else 'NOT SAVED'})")
    print(f"three phones at once, then the scorer's one tap: {own_time:.1f} s ({'saved' if own_ok else 'NOT SAVED'})")
    print(f"taps a phone: {each}; target <= {TARGET_TAPS} for 13 cards; paced {PACE} s a tap")
    print(f"ratio {ratio:.2f} ({'within' if ratio <= TARGET_RATIO else 'OVER'} the target of {TARGET_RATIO})")
    print(f"own hands: {ratio:.2f} of one typist's time, {most} taps a phone")


if __name__ == "__main__":
    main()
