"""The shared table with phones side by side (browser contexts of 390×844 each), against the app
as ``make run`` serves it (gunicorn with two uvicorn workers, debug off, a SQLite file): the scorer
brings in a phone to follow by its link and another to score; a deal saved on the scorer's phone
shows on the others within 2 seconds, with no reload (through their streams of server-sent
events): the board, the deal list, who deals next, and the *Enter deal* button on a scoring phone
only."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from scorekeeper.table import access
from tests.app_data import OK_BIG
from tests.browser.test_oklahoma_game import type_deal
from tests.conftest import NAMES
from tests.server import app

pytestmark = [pytest.mark.browser]

PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.fixture
def phones(browser: Browser) -> Iterator[list[BrowserContext]]:
    opened: list[BrowserContext] = []
    yield opened
    for context in opened:
        context.close()


@pytest.fixture
def served(tmp_path) -> Iterator[app.AppServer]:
    server = app.start(tmp_path)
    yield server
    server.stop()


def _phone(browser: Browser, phones: list[BrowserContext], errors: list[str]) -> Page:
    context = browser.new_context(viewport=PHONE)
    phones.append(context)
    page = context.new_page()
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return page


def _join(page: Page, url: str, name: str) -> None:
    page.goto(url)
    page.get_by_label("Who is this phone?").fill(name)
    page.get_by_role("button", name="Join the table").click()


def test_a_deal_saved_on_one_phone_shows_on_the_others_within_2_seconds(browser: Browser, phones, served, shot):
    seeded = served.seed(NAMES, first_dealer=1)
    game, url = seeded["game"], served.url
    errors: list[str] = []
    scoring = _phone(browser, phones, errors)
    scoring.context.add_cookies([{"name": access.COOKIE, "value": seeded["cookie"], "url": url}])

    # The scorer shows a link to follow on the table page (a QR code and the address).
    scoring.goto(f"{url}/games/{game}/")
    scoring.get_by_role("link", name="phones and links").click()
    scoring.get_by_role("button", name="Show a link to follow").click()
    expect(scoring.get_by_role("img", name="QR code of the link to follow")).to_be_visible()
    shot(scoring, "shared-1-table-page")
    follow_url = scoring.get_by_role("textbox", name="The link to follow").input_value()

    # Ben's phone opens it: it lands on the game in progress, to follow.
    following = _phone(browser, phones, errors)
    asked: list[str] = []  # what the following phone's live page asks for, after it loaded
    path = f"/games/{game}/"
    following.on("request", lambda r: asked.append(r.resource_type) if path in r.url else None)
    _join(following, follow_url, "Ben's phone")
    expect(following.locator(".status")).to_contain_text("Ben deals next")
    expect(following.get_by_text("No deals yet.")).to_be_visible()
    expect(following.get_by_role("link", name="Enter deal 1")).to_have_count(0)

    # Cleo's phone gets a link to score (it works once).
    scoring.get_by_text("Hand scoring to another phone").click()
    scoring.get_by_role("button", name="Make a link to score").click()
    score_url = scoring.get_by_role("textbox", name="The link to score").input_value()
    second = _phone(browser, phones, errors)
    _join(second, score_url, "Cleo's phone")
    expect(second.get_by_role("link", name="Enter deal 1")).to_be_visible()

    # Cleo's phone joining changed the table's phones (a game page names them): the follower's
    # page asked for its live part once.
    for _ in range(30):
        if asked.count("xhr") + asked.count("fetch"):
            break
        following.wait_for_timeout(100)
    joined, asked[:] = list(asked), []

    # The scorer saves deal 1.
    scoring.goto(f"{url}/games/{game}/")
    scoring.get_by_role("link", name="Enter deal 1").click()
    type_deal(scoring, OK_BIG)
    expect(scoring.locator("#preview")).to_contain_text("+395")
    scoring.get_by_role("button", name="Save deal").click()
    expect(scoring.locator(".total").first).to_contain_text("395")
    saved = time.monotonic()

    # Within 2 s, with no reload, the others show it: deal list, board, who deals next, buttons.
    following.evaluate("window.__noReload = true")
    expect(following.locator("#deal-1")).to_be_visible(timeout=2000)
    left = max(0.1, 2 - (time.monotonic() - saved))
    expect(second.get_by_role("link", name="Enter deal 2")).to_be_visible(timeout=left * 1000)
    elapsed = time.monotonic() - saved
    assert elapsed < 2.0, elapsed
    expect(following.locator(".total").first).to_contain_text("395")
    expect(following.locator(".status")).to_contain_text("Ann deals next")
    expect(following.get_by_role("link", name="Enter deal 2")).to_have_count(0)
    expect(second.locator("#deal-1")).to_be_visible()
    assert following.evaluate("window.__noReload") is True  # the same page: swapped, not reloaded
    # Through its stream of server-sent events: one stream, one request for each change, no poll.
    assert joined.count("eventsource") == 1 and joined.count("xhr") + joined.count("fetch") == 1, joined
    assert asked in (["xhr"], ["fetch"]), asked
    shot(following, "shared-2-follower-after-save")
    shot(second, "shared-3-second-scorer-after-save")

    # The follower's phone is taken off the table: its stream tells its page at once.
    scoring.goto(f"{url}/tables/{seeded['table']}/")
    take = scoring.locator("li", has_text="Ben's phone").get_by_role("button", name="Take access away")
    take.click()
    take.click()  # the second tap confirms
    expect(scoring.get_by_text("Ben's phone no longer has access")).to_be_visible()
    expect(following.get_by_role("heading", name="The scorer took this phone off the table")).to_be_visible(
        timeout=5000
    )
    # The only errors: that phone's requests refused, 404 or 403 (no CSP violation, no script error).
    assert not [e for e in errors if "404" not in e and "403" not in e], errors
