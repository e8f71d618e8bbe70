"""A phone alone takes a deal counted on paper (points only, not checked): a points field that is no
number is refused beside that player, as the engine says; saved, the board shows the race to the target."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_alone import new_game, save, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_points_only_deal_on_a_phone_alone(page: Page, live_server, shot):
    page.goto(f"{live_server.url}/alone/")
    wait_ready(page)
    new_game(page, "oklahoma-gin", ["Ann", "Ben"], {})
    page.locator("#game-view .actions a.button:not(.primary)").first.click()
    page.locator("#id_points-0").fill("40")
    page.locator("#id_points-1").fill("x")
    save(page)
    expect(page.locator("#points-1_errors .errorlist")).to_contain_text("whole number")
    page.locator("#id_points-1").fill("0")
    page.locator("#id_winner").select_option("0")
    save(page)
    expect(page.locator("#game-view .saved-note")).to_be_visible()
    expect(page.locator("#game-view progress")).to_have_count(2)
    page.locator("#game-view details.deal summary").first.click()
    expect(page.locator("#game-view details.deal")).to_contain_text("not checked")
    shot(page, "alone-points-only")
