"""Issue 10's budgets: a deal entered only with the card picker, every tap counted, at 390 × 844 and
360 × 740; after every tap the field being filled (and its live check) is in view above the
picker, and the phone's keyboard stays closed."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import SHOTS
from tests.browser.entry_picker import GIN_DEAL, OKLAHOMA_DEAL, Picking, enter_gin, enter_oklahoma, start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SIZES = [(390, 844), (360, 740)]
GIN_BUDGET = 26
OKLAHOMA_BUDGET = 50


@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
def test_an_oklahoma_deal_in_at_most_50_taps(page: Page, live_server, shot, console_errors, size):
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    start_game(page, live_server.url, "oklahoma", OKLAHOMA_DEAL["players"], "Book rules")
    picking = Picking(page)

    def look() -> None:
        expect(page.locator("#preview")).to_contain_text("Cleo")
        expect(page.locator(".picker .psum")).to_contain_text("Cleo +")
        shot(page, f"entry-taps-oklahoma-{width}")
        page.screenshot(path=str(SHOTS / f"entry-taps-oklahoma-{width}-screen.png"))

    enter_oklahoma(picking, before_save=look)
    print(f"Oklahoma deal at {width}×{height}: {picking.taps} taps")
    expect(page.locator("#deal-1")).to_contain_text("Cleo went out")
    assert picking.problems == []
    assert picking.taps <= OKLAHOMA_BUDGET, picking.log
    shot(page, f"entry-taps-oklahoma-saved-{width}")
    assert not [e for e in console_errors if "Content Security Policy" in e], console_errors


@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
def test_a_gin_deal_in_at_most_26_taps(page: Page, live_server, shot, console_errors, size):
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    start_game(page, live_server.url, "oklahoma-gin", GIN_DEAL["players"], "Standard")
    picking = Picking(page)

    def look() -> None:
        expect(page.locator("#preview")).to_contain_text("+")
        shot(page, f"entry-taps-gin-{width}")
        page.screenshot(path=str(SHOTS / f"entry-taps-gin-{width}-screen.png"))

    enter_gin(picking, before_save=look)
    print(f"Gin deal at {width}×{height}: {picking.taps} taps")
    expect(page.locator(".total").nth(1)).to_contain_text("Ben")
    assert picking.problems == []
    assert picking.taps <= GIN_BUDGET, picking.log
    row = page.locator("#deal-1")
    expect(row).to_contain_text("Ben knocked")
    shot(page, f"entry-taps-gin-saved-{width}")
    assert not [e for e in console_errors if "Content Security Policy" in e], console_errors
