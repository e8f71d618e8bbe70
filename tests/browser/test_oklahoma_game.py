"""A whole three-player Oklahoma game to 1,000, played through the pages as a person would."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.app_data import OK_BIG, OK_SMALL

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def type_deal(page: Page, deal: dict) -> None:
    """Type the deal: each player's melds split by "/" (the split given by hand), cards held."""
    page.locator(f'input[name=out][value="{deal["out"]}"]').check()
    names = ["Ann", "Ben", "Cleo"]
    for seat, melds in deal["melds"].items():
        split = page.locator(f"#player-{seat} details.split")
        if split.get_attribute("open") is None:
            split.locator("summary").click()
        page.get_by_label(f"{names[seat]}: Melds, split by “/”", exact=True).fill(" / ".join(melds))
        page.get_by_label(f"{names[seat]}: Left in hand", exact=True).fill(deal["held"][seat])


def no_sideways_scroll(page: Page) -> None:
    viewport = page.viewport_size
    assert viewport is not None
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


def test_three_player_oklahoma_to_1000(page: Page, live_server, shot, console_errors):
    page.goto(live_server.url + "/games/new/")
    page.get_by_label("Book rules", exact=False).check()
    page.get_by_label("Seat 1").fill("Ann")
    page.get_by_label("Seat 2").fill("Ben")
    page.get_by_label("Seat 3").fill("Cleo")
    page.get_by_role("radio", name="Ben deals first").check()
    page.locator("summary").click()
    expect(page.get_by_text("K–8 left in hand")).to_be_visible()
    no_sideways_scroll(page)
    shot(page, "oklahoma-1-new-game")
    page.get_by_role("button", name="Start the game").click()

    expect(page.locator(".status")).to_contain_text("Ben deals next")
    page.get_by_role("link", name="Enter deal 1").click()

    # Deal 1: typed, with a meld rejected and then corrected, and one hand tapped on the picker.
    type_deal(page, OK_BIG)
    ben = page.get_by_label("Ben: Melds, split by “/”", exact=True)
    ben.fill("5S 6S 8S")
    expect(page.locator("#id_p-1-melds_feedback")).to_contain_text("✗")
    expect(page.locator("#id_p-1-melds_feedback")).to_contain_text("S0")
    shot(page, "oklahoma-2-rejected-meld")
    ben.fill("5S 6S 7S")
    expect(page.locator("#id_p-1-melds_feedback")).to_contain_text("✓ sequence")
    cleo = page.get_by_label("Cleo: Left in hand", exact=True)
    cleo.fill("")
    cleo.focus()
    picker = page.get_by_role("group", name="Card picker")
    picker.get_by_role("button", name=re.compile(r"^queen of spades")).click()
    picker.get_by_role("button", name=re.compile(r"^4 of clubs")).click()
    expect(cleo).to_have_value("QS 4C")
    # Q♠: one melded by Ann, one held by Cleo: none left of the double pack
    expect(picker.get_by_role("button", name="queen of spades, 0 left")).to_be_disabled()
    expect(page.locator("#preview")).to_contain_text("+395")
    no_sideways_scroll(page)
    shot(page, "oklahoma-3-deal-entry")
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator(".total").first).to_contain_text("395")

    page.get_by_role("link", name="Enter deal 2").click()
    type_deal(page, OK_SMALL)
    expect(page.locator("#preview")).to_contain_text("+145")
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator(".status")).to_contain_text("Ben deals next")

    # Edit deal 1: Cleo held only the 4♣ after all.
    page.get_by_role("link", name=re.compile("^Deal 1")).click()
    expect(page.get_by_role("heading", name="Deal 1", exact=True)).to_be_visible()
    shot(page, "oklahoma-4-deal-page")
    page.get_by_role("link", name="Edit this deal").click()
    page.get_by_label("Cleo: Left in hand", exact=True).fill("4C")
    page.get_by_role("button", name="Save deal").click()
    cleo_total = page.locator(".total").nth(2)
    expect(cleo_total).to_contain_text("15")  # -5 then +20

    for n in (3, 4):
        page.get_by_role("link", name=f"Enter deal {n}").click()
        type_deal(page, OK_BIG)
        page.get_by_role("button", name="Save deal").click()
    expect(page.get_by_text("Ann wins the game.")).to_be_visible()
    expect(page.get_by_role("heading", name="Final table")).to_be_visible()
    expect(page.locator(".final")).to_contain_text("1380")
    no_sideways_scroll(page)
    shot(page, "oklahoma-5-finished")
    assert not [e for e in console_errors if "Content Security Policy" in e], console_errors
