"""A whole Oklahoma Gin game to its target, played through the pages; and the app without JavaScript."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.app_data import GIN_BIG, GIN_KNOCK

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
NAMES = ["Ann", "Ben"]


def type_gin(page: Page, deal: dict) -> None:
    """Type the deal: a spread (melds split by "/", deadwood) or all the cards."""
    page.get_by_label("First upcard").fill(deal["upcard"])
    page.locator(f'input[name=knocker][value="{deal["knocker"]}"]').check()
    for seat, melds in deal["melds"].items():
        name = NAMES[seat]
        spread = page.locator(f"#player-{seat} details.split")
        if spread.get_attribute("open") is None:
            spread.locator("summary").click()
        page.get_by_label(f"{name}: Melds as laid down, split by “/”", exact=True).fill(" / ".join(melds))
        page.get_by_label(f"{name}: Deadwood", exact=True).fill(deal["deadwood"][seat])
        page.get_by_label(f"{name}: Cards", exact=True).fill(deal["cards"][seat])


def set_meld(page: Page, name: str, number: int, meld: str) -> None:
    """Type meld ``number`` (from 1) of the player's spread anew."""
    field = page.get_by_label(f"{name}: Melds as laid down, split by “/”", exact=True)
    melds = field.input_value().split(" / ")
    melds[number - 1] = meld
    field.fill(" / ".join(melds))


def test_gin_game_to_its_target(page: Page, live_server, shot, console_errors):
    page.goto(live_server.url + "/games/new/")
    page.get_by_role("button", name="Oklahoma Gin").click()
    page.get_by_label("Standard", exact=False).check()
    page.get_by_label("Seat 1").fill("Ann")
    page.get_by_label("Seat 2").fill("Ben")
    shot(page, "gin-1-new-game")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".status")).to_contain_text("Ann deals next")
    shot(page, "gin-2-board")

    page.get_by_role("link", name="Enter deal 1").click()
    type_gin(page, GIN_BIG)
    # A run with the ace high is rejected beside the meld, then corrected.
    set_meld(page, "Ann", 3, "JH QH KH AH")
    expect(page.locator("#id_p-0-melds_check")).to_contain_text("✗")
    expect(page.locator("#id_p-0-melds_error")).to_contain_text("ace is low")
    shot(page, "gin-3-rejected-meld")
    set_meld(page, "Ann", 3, "10H JH QH KH")
    expect(page.locator("#id_p-0-melds_error")).to_have_count(0)
    expect(page.locator("#id_p-0-melds_check")).to_contain_text("✓ run")
    expect(page.locator("#preview")).to_contain_text("+164")
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator(".total").first).to_contain_text("164")

    page.get_by_role("link", name="Enter deal 2").click()
    type_gin(page, GIN_KNOCK)
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator(".total").nth(1)).to_contain_text("57")

    # Deal page: the arrangement and the layoffs the engine found for Ann's cards.
    page.get_by_role("link", name=re.compile("^Deal 2")).click()
    expect(page.locator(".player-deal").first).to_contain_text("Deadwood")
    shot(page, "gin-4-deal-page")

    # Edit deal 2: the upcard was a spade after all (every point doubled).
    page.get_by_role("link", name="Edit this deal").click()
    page.get_by_label("First upcard").fill("10S")
    expect(page.locator("#preview")).to_contain_text("+114")
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator(".total").nth(1)).to_contain_text("114")

    page.get_by_role("link", name="Enter deal 3").click()
    type_gin(page, GIN_BIG)
    page.get_by_role("button", name="Save deal").click()
    expect(page.get_by_text("Ann wins the game.")).to_be_visible()
    expect(page.locator(".final")).to_contain_text("428")
    shot(page, "gin-5-finished")
    assert not [e for e in console_errors if "Content Security Policy" in e], console_errors


def test_the_app_works_without_javascript(browser, live_server, shot):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.goto(live_server.url + "/games/new/?game=oklahoma-gin")
    page.get_by_label("Seat 1").fill("Ann")
    page.get_by_label("Seat 2").fill("Ben")
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="Enter deal 1").click()
    assert page.locator(".picker").count() == 0  # the picker is JavaScript's extra
    type_gin(page, GIN_BIG)
    set_meld(page, "Ann", 3, "JH QH KH AH")
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("#id_p-0-melds_error")).to_contain_text("ace is low")
    set_meld(page, "Ann", 3, "10H JH QH KH")
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("#preview")).to_contain_text("+164")
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator(".total").first).to_contain_text("164")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()


def test_phone_sized_pages_have_big_tap_targets(page: Page, live_server, shot):
    page.set_viewport_size({"width": 360, "height": 740})
    page.emulate_media(color_scheme="dark")
    page.goto(live_server.url + "/games/new/")
    page.get_by_label("Seat 1").fill("Ann")
    page.get_by_label("Seat 2").fill("Ben")
    page.get_by_label("Seat 3").fill("Cleo")
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="Enter deal 1").click()
    expect(page.get_by_role("group", name="Card picker")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    small = page.evaluate("""() => [...document.querySelectorAll(
        'button, input[type=text], input[type=number], select, .pill, a.button, .picker button')]
        .filter(e => e.offsetParent !== null || getComputedStyle(e).position === 'fixed')
        .map(e => [e.name || e.textContent.trim(), e.getBoundingClientRect()])
        .filter(([n, r]) => r.height < 44 || r.width < 44).map(([n, r]) => n + ' ' + r.width + 'x' + r.height)""")
    assert small == []
    shot(page, "dark-360-deal-entry")
