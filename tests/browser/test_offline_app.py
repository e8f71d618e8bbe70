"""The installable app offline: a service worker keeps the shell and every page this phone opened,
shows a kept page marked as a saved copy without a connection, and an offline page for the rest.
The game and entry pages keep the screen awake, with a switch the phone remembers."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import NAMES, new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

READY = "navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller || 'waiting')"


@pytest.mark.parametrize("size", [(390, 844), (360, 740)], ids=["390x844", "360x740"])
def test_pages_opened_before_open_offline_marked_as_saved(scorer_page: Page, live_server, table, shot, size):
    page = scorer_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    game = new_game(table, kind="oklahoma", profile="book", players=NAMES, first_dealer=0)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("!!navigator.serviceWorker.controller")
    # Opened while the worker runs: kept.
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.goto(f"{live_server.url}/rules/")
    page.context.set_offline(True)

    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(".saved-copy")).to_contain_text("Saved copy from")
    expect(page.get_by_role("heading", name=f"Oklahoma #{game.pk}")).to_be_visible()
    assert page.evaluate("getComputedStyle(document.querySelector('.top')).display") == "flex"  # styled
    shot(page, f"offline-saved-copy-{size[0]}")

    page.goto(f"{live_server.url}/rules/")
    expect(page.locator(".saved-copy")).to_be_visible()

    page.goto(f"{live_server.url}/check/")  # never opened on this phone
    expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    page.context.set_offline(False)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(".saved-copy")).to_have_count(0)


def test_the_worker_leaves_polls_and_posts_alone(scorer_page: Page, live_server):
    response = scorer_page.request.get(f"{live_server.url}/sw.js")
    assert response.status == 200
    assert response.headers["service-worker-allowed"] == "/"
    body = response.text()
    assert 'request.method !== "GET"' in body and 'request.mode === "navigate"' in body


MOCK_WAKE_LOCK = """
window.__wake = {requests: 0, released: 0};
Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {
  request: () => { window.__wake.requests++; const s = new EventTarget();
    s.release = () => { window.__wake.released++; s.dispatchEvent(new Event("release")); return Promise.resolve(); };
    return Promise.resolve(s); }
}});
"""


def test_the_screen_stays_on_with_a_switch_the_phone_remembers(scorer_page: Page, live_server, table):
    page = scorer_page
    page.add_init_script(MOCK_WAKE_LOCK)
    game = new_game(table, kind="oklahoma", profile="book", players=NAMES, first_dealer=0)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    switch = page.get_by_role("button", name="Keep the screen on")
    expect(switch).to_have_attribute("aria-pressed", "true")
    page.wait_for_function("window.__wake.requests === 1")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "false")
    page.wait_for_function("window.__wake.released === 1")
    page.goto(f"{live_server.url}/games/{game.pk}/deals/new/")
    expect(page.get_by_role("button", name="Keep the screen on")).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("window.__wake.requests") == 0
    page.goto(f"{live_server.url}/rules/")
    expect(page.locator("button.wake")).to_have_count(0)  # only the game and entry pages


@pytest.mark.parametrize("width,height", [(390, 844), (360, 740)])
def test_the_switch_sits_beside_the_brand_and_the_header_keeps_two_rows(
    scorer_page: Page, live_server, table, width, height
):
    """In German, the menu and the language switch fill the header's second row at 360 px: the
    screen's switch sits on the first, beside the brand, and the header stays two rows high."""
    page = scorer_page
    page.add_init_script(MOCK_WAKE_LOCK)
    page.context.add_cookies([{"name": "django_language", "value": "de", "url": live_server.url}])
    page.set_viewport_size({"width": width, "height": height})
    game = new_game(table, kind="oklahoma", profile="book", players=NAMES, first_dealer=0)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    switch = page.get_by_role("button", name="Bildschirm anlassen")
    expect(switch).to_be_visible()
    brand, menu = page.locator(".top .brand").bounding_box(), page.locator(".top .mainnav").bounding_box()
    box = switch.bounding_box()
    assert brand and menu and box
    assert abs(box["y"] - brand["y"]) < brand["height"] and box["x"] + box["width"] <= width
    assert menu["y"] > brand["y"]  # the menu on the second row, as before
    header = page.locator("header.top").bounding_box()
    assert header and header["height"] < 100, header  # two rows of 44 px targets, not three
