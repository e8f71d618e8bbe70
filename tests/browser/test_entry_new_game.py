"""The new-game form as a scorer uses it: the seats the rules take, the names kept when the game is
switched, the first dealer chosen by name."""

import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", [(390, 844), (360, 740)])
def test_new_game_keeps_the_names_and_shows_the_seats_the_rules_take(page: Page, live_server, shot, size):
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    page.goto(live_server.url + "/games/new/")
    seats = page.locator(".seat")
    # the Laws take four players: the fifth seat shows once the book rules (five) are chosen
    expect(page.get_by_label("Seat 5")).to_be_hidden()
    page.get_by_label("Book rules", exact=False).check()
    expect(page.get_by_label("Seat 5")).to_be_visible()
    page.get_by_label("Seat 1").fill("Ann")
    page.get_by_label("Seat 2").fill("Ben")
    page.get_by_label("Seat 3").fill("Cleo")
    page.get_by_role("radio", name="Cleo deals first").check()
    page.get_by_role("button", name="Oklahoma Gin").click()

    expect(page.get_by_text("Oklahoma Gin", exact=True)).to_have_attribute("aria-current", "true")
    expect(page.get_by_label("Seat 1")).to_have_value("Ann")
    expect(page.get_by_label("Seat 3")).to_have_value("Cleo")
    expect(page.get_by_role("radio", name="Cleo deals first")).to_be_checked()
    # the standard rules take two: a third seat shows only because it holds a name
    expect(page.get_by_label("Seat 3")).to_be_visible()
    expect(page.get_by_label("Seat 4")).to_be_hidden()
    assert seats.count() == 4
    shot(page, f"entry-new-game-switched-{width}")
    page.get_by_label("Party", exact=False).check()
    expect(page.get_by_label("Seat 4")).to_be_visible()
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".status")).to_contain_text("Cleo deals next")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
