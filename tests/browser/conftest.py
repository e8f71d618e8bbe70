"""Browser tests: Playwright (sync API) driving Debian's Chromium against the app as ``make run``
serves it — ``scorekeeper.asgi`` under uvicorn (the live pages' streams need an ASGI server:
pytest-django's live server is WSGI) —, in a thread of the test process, on the test database."""

import os
import socket
import threading
import time
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


class AsgiLiveServer:
    """What pytest-django's ``live_server`` is, served by uvicorn: the app's ASGI application (the
    static files from the apps' folders, as the WSGI live server serves them)."""

    def __init__(self) -> None:
        import uvicorn
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
        from django.test.utils import modify_settings

        from scorekeeper.asgi import application

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        config = uvicorn.Config(
            ASGIStaticFilesHandler(application),  # type: ignore[arg-type]
            host="127.0.0.1",
            port=port,
            log_level="warning",
            lifespan="off",
        )
        config.timeout_graceful_shutdown = 1
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)
        # pytest-django's helper turns this on for each test that uses the server.
        self._live_server_modified_settings = modify_settings(ALLOWED_HOSTS={"append": "127.0.0.1"})

    def stop(self) -> None:
        from scorekeeper.table.live import hub as watchers

        self.server.should_exit = True
        self.thread.join(10)
        watchers.close_connection()


@pytest.fixture(scope="session")
def live_server(django_db_setup, django_db_blocker):
    """The app under uvicorn (``AsgiLiveServer``), for the whole session."""
    with django_db_blocker.unblock():
        server = AsgiLiveServer()
    yield server
    server.stop()


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
