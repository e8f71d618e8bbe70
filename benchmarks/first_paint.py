"""First paint on a slow link: the home, game, entry and review pages as a phone on "Slow 3G" first
paints them, a cold cache each time. The app is served as ``make run`` serves it (gunicorn,
WhiteNoise, debug off) on 127.0.0.1; Chromium's own network throttling (DevTools' Slow 3G preset:
2,000 ms of latency a request, 400 kbit/s each way) stands between them. Printed: each page's first
contentful paint (median of 3, each run's figure beside it) and its size, beside the target."""

from __future__ import annotations

import os
import statistics
import tempfile
from pathlib import Path

SLOW_3G = {"offline": False, "latency": 2000, "downloadThroughput": 400_000 / 8, "uploadThroughput": 400_000 / 8}
TARGET_MS = 2500
RUNS = 3


def first_paint(browser, url: str, cookie: dict) -> tuple[float, int]:
    """A cold phone opens ``url`` on Slow 3G: its first contentful paint (ms) and the bytes it took."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    context.add_cookies([cookie])
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_3G)
    page.goto(url, wait_until="load", timeout=60_000)
    page.wait_for_function("performance.getEntriesByName('first-contentful-paint').length > 0", timeout=30_000)
    paint = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0].startTime")
    size = page.evaluate("performance.getEntriesByType('navigation')[0].transferSize")
    context.close()
    return float(paint), int(size)


def main() -> None:
    import django
    from playwright.sync_api import sync_playwright

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    django.setup()

    from scorekeeper.table import access
    from tests.browser.conftest import ARGS, CHROMIUM
    from tests.server import app

    with tempfile.TemporaryDirectory() as tmp:
        server = app.start(Path(tmp))
        try:
            seeded = server.seed(["Ann", "Ben", "Cleo"], first_dealer=0)
            cookie = {"name": access.COOKIE, "value": seeded["cookie"], "url": server.url}
            pages = {
                "home": "/",
                "game": f"/games/{seeded['game']}/",
                "entry": f"/games/{seeded['game']}/deals/new/",
                "review": f"/history/{seeded['game']}/",
            }
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                print(f"first contentful paint on Slow 3G, cold (median of {RUNS}; target {TARGET_MS} ms):")
                for name, path in pages.items():
                    runs = [first_paint(browser, server.url + path, cookie) for _ in range(RUNS)]
                    paints = [r[0] for r in runs]
                    median = statistics.median(paints)
                    mark = "met" if median <= TARGET_MS else "NOT met"
                    shown = ", ".join(f"{x:.0f}" for x in paints)
                    print(f"  {name:7s} {median:6.0f} ms ({shown}); page {runs[0][1] / 1024:.1f} KB  {mark}")
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
