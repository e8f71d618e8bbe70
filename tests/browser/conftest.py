"""Browser tests: Playwright (sync API) driving Debian's Chromium against pytest-django's live server."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorekeeper.table import access
from tests.conftest import phone_cookie

# Playwright's sync API runs an event loop in this thread; Django's ORM must still be usable.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = "/usr/bin/chromium"
# A loaded CI machine answers htmx requests more slowly than a developer's: wait up to 15 s.
expect.set_options(timeout=15_000)
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    # Never a downloaded browser: Debian's Chromium only.
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 390, "height": 844}}


@pytest.fixture
def shot():
    """Screenshots that leave the page as it was: Playwright's default caret hiding sets style=""
    on inputs, and htmx's history snapshot (hx-push-url) would then re-parse that inline style,
    which the CSP reports as a violation."""
    SHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> None:
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True, caret="initial")

    return take


@pytest.fixture
def scorer_page(page, live_server, scorer):
    """The browser is the table's scoring phone (its games made through the services show)."""
    page.context.add_cookies([{"name": access.COOKIE, "value": phone_cookie(scorer), "url": live_server.url}])
    return page


@pytest.fixture
def console_errors(page):
    """Console errors (a CSP violation shows up here) collected during the test."""
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors
