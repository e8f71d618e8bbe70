"""The phone alone (``/alone/``, issue 39), measured in Debian's Chromium against the app as ``make run``
serves it (gunicorn, WhiteNoise: static files compressed): a first visit (cold, online), then a visit
with the network cut from its start; unthrottled, then at 4× CPU slowdown (DevTools' CPU throttling).

- ready offline: from the navigation to ``window.scorekeeperAlone.ready`` with the network cut
  (Pyodide, the standard library and the engine from the phone's cache; target ≤ 6 s unthrottled);
- a deal scored: one 5-player Oklahoma deal played onto a game after its first deal (the worker
  plays only the new deal), the median over 12 deals of 4 games (target ≤ 150 ms);
- kept: what the phone keeps for /alone/ (its cache), and sent: what the first visit took over the
  network, compressed (the page, its files, and the worker's fetches; target ≤ 10 MB).

It ends with ``phone alone: ready offline in X s, a deal scored in Y ms, Z MB kept (W MB sent)``
(unthrottled; the 4× figures on the line before)."""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

PLAYERS = ("Ann", "Ben", "Cleo", "Dan", "Eve")
MB = 1024 * 1024

KEPT_BYTES = """async () => {
  const names = (await caches.keys()).filter((k) => k.startsWith("alone-"));
  let n = 0;
  for (const name of names) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) n += (await (await cache.match(request)).arrayBuffer()).byteLength;
  }
  return n;
}"""
SENT_BYTES = """async () => {
  const own = performance.getEntriesByType("navigation").concat(performance.getEntriesByType("resource"));
  const page = own.reduce((n, e) => n + (e.transferSize || 0), 0);
  return page + Number(await window.scorekeeperAlone.ask("sent"));
}"""
PLAY = """async ([key, records]) => {
  const times = [];
  for (const r of records) {
    const t = performance.now();
    await window.scorekeeperAlone.ask("play", key, JSON.stringify(r));
    times.push(performance.now() - t);
  }
  return times;
}"""


def games(count: int = 4, deals: int = 4) -> list[list[dict]]:
    """Each game as its records after deal 1, 2, ...: a 5-player Oklahoma game growing deal by deal."""
    from tests.rules import oklahoma_random

    rng = random.Random(39)
    out = []
    for _ in range(count):
        played = [oklahoma_random.deal(rng, PLAYERS) for _ in range(deals)]
        header = {"format": "oklahoma-scorekeeper/1", "game": "oklahoma", "rules": {"profile": "book"}}
        out.append([{**header, "players": list(PLAYERS), "deals": played[:n]} for n in range(1, deals + 1)])
    return out


def measure(browser, url: str, slowdown: int) -> dict[str, Any]:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    if slowdown > 1:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
    start = time.perf_counter()
    page.goto(url + "/alone/")
    page.wait_for_function("window.scorekeeperAlone && window.scorekeeperAlone.ready", timeout=120_000)
    page.evaluate("window.scorekeeperAlone.ready.then(() => true)")
    first = time.perf_counter() - start
    sent = page.evaluate(SENT_BYTES)
    page.wait_for_function("navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)")
    context.set_offline(True)
    readies = []
    for _ in range(3):
        start = time.perf_counter()
        page.reload()
        page.wait_for_function("window.scorekeeperAlone && window.scorekeeperAlone.ready", timeout=120_000)
        page.evaluate("window.scorekeeperAlone.ready.then(() => true)")
        readies.append(time.perf_counter() - start)
    kept = page.evaluate(KEPT_BYTES)
    later: list[float] = []
    for i, records in enumerate(games()):
        times = page.evaluate(PLAY, [f"bench-{i}", records])
        later += times[1:]  # the deals after the first
    context.close()
    return {
        "first": first,
        "ready": statistics.median(readies),
        "readies": readies,
        "deal": statistics.median(later),
        "deal_max": max(later),
        "kept": kept / MB,
        "sent": sent / MB,
    }


def main() -> None:
    import django
    from playwright.sync_api import sync_playwright

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    django.setup()

    from scorekeeper.alone import assets
    from tests.browser.conftest import ARGS, CHROMIUM
    from tests.server import app

    assets.fetch_pyodide()
    with tempfile.TemporaryDirectory() as tmp:
        server = app.start(Path(tmp))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                figures = {}
                for slowdown in (1, 4):
                    f = figures[slowdown] = measure(browser, server.url, slowdown)
                    readies = ", ".join(f"{x:.2f}" for x in f["readies"])
                    print(
                        f"  CPU ×{slowdown}: first visit ready in {f['first']:.2f} s; ready offline in "
                        f"{f['ready']:.2f} s ({readies}); a 5-player Oklahoma deal after the first "
                        f"{f['deal']:.1f} ms (median, most {f['deal_max']:.1f}); {f['kept']:.1f} MB kept, "
                        f"{f['sent']:.2f} MB sent",
                        flush=True,
                    )
                browser.close()
        finally:
            server.stop()
    f = figures[1]
    targets = f["ready"] <= 6 and f["deal"] <= 150 and f["sent"] <= 10
    print(f"  targets (ready ≤ 6 s, a deal ≤ 150 ms, sent ≤ 10 MB): {'met' if targets else 'NOT met'}")
    print(
        f"phone alone: ready offline in {f['ready']:.1f} s, a deal scored in {f['deal']:.0f} ms, "
        f"{f['kept']:.1f} MB kept ({f['sent']:.1f} MB sent)"
    )


if __name__ == "__main__":
    main()
