"""Taps to enter a deal with the card picker (issue 10's budgets), counted by driving Debian's
Chromium as the browser tests do (tests/browser/entry_picker.py): a three-player Oklahoma deal
(13 + 13 + 13 cards) and a two-player Gin deal (upcard, 11 + 10 cards), at 390 × 844 and
360 × 740, every tap counted from the empty form to Save, including who went out or knocked."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SIZES = [(390, 844), (360, 740)]
BUDGETS = {"oklahoma": 50, "oklahoma-gin": 26}
CHROMIUM = "/usr/bin/chromium"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(tmp: str) -> tuple[subprocess.Popen[bytes], str]:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{Path(tmp) / 'taps.sqlite3'}", "DJANGO_DEBUG": "1"}
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], env=env, check=True, cwd=ROOT)
    port = _free_port()
    server = subprocess.Popen(
        [*manage, "runserver", "--noreload", f"127.0.0.1:{port}"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(url + "/", timeout=1)
            break
        except OSError:
            time.sleep(0.1)
    return server, url


def _landed(page: Any) -> bool:
    """Whether the save landed on the game page (Save goes through fetch: the page moves a moment
    after the last tap, to the address the save's redirect gave, which names the deal)."""
    try:
        page.wait_for_url(lambda url: "saved=1" in url, timeout=15_000)
    except Exception:  # Playwright's TimeoutError: the deal was not saved
        return False
    return True


def _line(title: str, size: tuple[int, int], taps: int, budget: int, saved: bool, problems: list[str]) -> str:
    verdict = f"{'within' if taps <= budget else 'OVER'} the budget of {budget}, {'saved' if saved else 'NOT SAVED'}"
    if problems:
        verdict += f"; {len(problems)} taps left the field being filled out of view"
    return f"{title} at {size[0]}×{size[1]}: {taps} taps ({verdict})"


def main() -> None:
    from playwright.sync_api import sync_playwright

    from tests.browser.entry_picker import GIN_DEAL, OKLAHOMA_DEAL, Picking, enter_gin, enter_oklahoma, start_game

    games = [
        ("oklahoma", "Oklahoma, 3 players, 13 + 13 + 13 cards", OKLAHOMA_DEAL, "Book rules", enter_oklahoma),
        ("oklahoma-gin", "Gin, upcard + 11 + 10 cards", GIN_DEAL, "Standard", enter_gin),
    ]
    with tempfile.TemporaryDirectory(prefix="scorekeeper-taps-") as tmp:
        server, url = _serve(tmp)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
                for kind, title, deal, profile, enter in games:
                    for width, height in SIZES:
                        page = browser.new_context(viewport={"width": width, "height": height}).new_page()
                        start_game(page, url, kind, deal["players"], profile)
                        picking = Picking(page)
                        enter(picking)
                        saved = _landed(page)
                        print(_line(title, (width, height), picking.taps, BUDGETS[kind], saved, picking.problems))
                        page.context.close()
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
