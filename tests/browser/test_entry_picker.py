"""The card picker's keys and the phone's keyboard: the targets never raise the keyboard unless the
player chooses to type; undo, back and next; a wild card named in two taps, or in one on the way the
check offers; the pack's counts."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.entry_picker import label, start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
INPUTMODES = "() => [...document.querySelectorAll('input.cards')].map(i => i.getAttribute('inputmode'))"


def key(page: Page, name: str):
    return page.get_by_role("group", name="Card picker").get_by_role("button", name=name, exact=True)


def card(page: Page, name: str):
    """The key of a card written as on its face (Q♠), found by its name as a player says it."""
    spoken = label(name)
    return page.get_by_role("group", name="Card picker").get_by_role("button", name=re.compile(rf"^{spoken}(,|$)"))


def test_the_keyboard_opens_only_when_the_player_chooses_to_type(page: Page, live_server, shot):
    page.set_viewport_size({"width": 360, "height": 740})
    start_game(page, live_server.url, "oklahoma", ["Ann", "Ben", "Cleo"], "Book rules")
    assert set(page.evaluate(INPUTMODES)) == {"none"}  # while picking, no card field raises the keyboard
    held = page.get_by_label("Ben: Left in hand", exact=True)
    held.click()  # tapping a field makes it the target, without the keyboard
    expect(held).to_be_focused()
    expect(held).to_have_attribute("inputmode", "none")
    expect(page.locator(".picker .target-name")).to_have_text("Ben: Left in hand")
    card(page, "Q♠").click()
    expect(held).to_have_value("QS")
    assert page.evaluate("document.activeElement.getAttribute('inputmode')") in (None, "none")

    key(page, "type with the keyboard").click()  # the player chooses to type
    expect(held).to_be_focused()
    assert set(page.evaluate(INPUTMODES)) == {None}
    expect(page.locator(".picker .pgrid")).to_be_hidden()
    page.keyboard.type(" 4c")
    expect(held).to_have_value("QS 4c")
    expect(page.locator("#id_p-1-held_check")).to_contain_text("2 cards")
    shot(page, "entry-picker-typing-360")
    key(page, "pick the cards").click()
    assert set(page.evaluate(INPUTMODES)) == {"none"}
    expect(page.locator(".picker .pgrid")).to_be_visible()


def test_a_wild_card_named_in_one_tap_on_a_way_the_check_offers(page: Page, live_server, shot):
    """The check under the field offers each way the 2♣ may be taken, with what it scores; a tap names
    it in the field, and a card tapped after the check stays where it was."""
    page.set_viewport_size({"width": 360, "height": 740})
    start_game(page, live_server.url, "oklahoma", ["Ann", "Ben", "Cleo"], "Book rules")
    melded = page.get_by_label("Ann: Melded", exact=True)
    for name in ("8♥", "9♥", "2♣"):
        card(page, name).click()
    ways = page.get_by_role("group", name="Name the wild cards in one tap")
    expect(ways.get_by_role("button")).to_have_text(["2♣=7♥ +25", "2♣=10♥ +30"])
    page.route("**/deals/new/", lambda route: route.abort())  # the next check does not come back
    with page.expect_event("requestfailed"):
        card(page, "6♠").click()
    page.unroute("**/deals/new/")
    shot(page, "entry-wild-one-tap-360")
    ways.get_by_role("button", name="2♣=10♥ +30").click()
    expect(melded).to_have_value("8H 9H 2C=10H 6S")
    expect(page.locator(".cardfield.target label")).to_have_text("Ann: Melded")  # still the target
    card(page, "6♥").click()
    card(page, "6♦").click()
    expect(page.locator("#id_p-0-melded_check")).to_contain_text("+45")  # 10♥ 15, the sixes 15, 8♥ 9♥ 20
    expect(ways).to_have_count(0)


def test_undo_back_next_and_a_wild_card_named_in_two_taps(page: Page, live_server):
    start_game(page, live_server.url, "oklahoma", ["Ann", "Ben", "Cleo"], "Book rules")
    melded = page.get_by_label("Ann: Melded", exact=True)
    for name in ("8♥", "9♥", "2♣"):
        card(page, name).click()
    key(page, "name the last wild card: it stands for the next card tapped").click()
    card(page, "7♥").click()
    expect(melded).to_have_value("8H 9H 2C=7H")
    # the named card is not used up: two 7♥ are left
    expect(card(page, "7♥")).to_have_accessible_name("7 of hearts, 2 left")
    key(page, "undo the last card").click()
    expect(melded).to_have_value("8H 9H 2C")
    key(page, "undo the last card").click()
    expect(melded).to_have_value("8H 9H")
    # the Joker: one in the pack
    card(page, "Joker").click()
    expect(card(page, "Joker")).to_be_disabled()
    key(page, "next field").click()
    expect(page.locator(".cardfield.target label")).to_have_text("Ann: Left in hand")
    key(page, "back to the previous field").click()
    expect(page.locator(".cardfield.target label")).to_have_text("Ann: Melded")
    # the player who went out holds nothing: next skips his cards left in hand
    page.get_by_label("Ann went out").click()
    key(page, "next field").click()
    expect(page.locator(".cardfield.target label")).to_have_text("Ben: Melded")


@pytest.mark.parametrize("javascript", [True, False], ids=["picker", "no-javascript"])
def test_after_a_failed_save_the_focus_is_on_the_first_field_in_error(browser, live_server, javascript):
    context = browser.new_context(java_script_enabled=javascript, viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.goto(live_server.url + "/games/new/")
    for i, name in enumerate(["Ann", "Ben", "Cleo"]):
        page.get_by_label(f"Seat {i + 1}").fill(name)
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="Enter deal 1").click()
    page.get_by_label("Cleo: Left in hand", exact=True).fill("QS 9X")
    page.get_by_label("Ben: Left in hand", exact=True).fill("4Y")
    page.locator("form#deal-form").get_by_role("button", name="Save deal").click()
    ben = page.get_by_label("Ben: Left in hand", exact=True)
    expect(ben).to_be_focused()
    expect(ben).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#id_p-1-held_error")).to_contain_text("4Y")
    if javascript:
        expect(ben).to_have_attribute("inputmode", "none")  # the focus does not raise the keyboard
        expect(page.locator(".cardfield.target label")).to_have_text("Ben: Left in hand")
    context.close()


def test_typing_the_melded_cards_shows_the_split_as_they_are_typed(page: Page, live_server, shot):
    page.set_viewport_size({"width": 390, "height": 844})
    start_game(page, live_server.url, "oklahoma", ["Ann", "Ben", "Cleo"], "Book rules")
    key(page, "type with the keyboard").click()
    page.keyboard.type("qs qh qd 5s 6s 7s")  # into Ann's melded cards, the target
    check = page.locator("#id_p-0-melded_check")
    expect(check.locator(".meld")).to_have_count(2)
    expect(check).to_contain_text("✓ set")
    expect(check).to_contain_text("✓ sequence")
    page.locator("#player-0 details.split summary").click()
    expect(page.get_by_label("Ann: Melds, split by “/”", exact=True)).to_have_value(re.compile(r"QS QH QD|5S 6S 7S"))
    page.get_by_label("Ann went out").check()
    page.get_by_label("Ben: Left in hand", exact=True).fill("KD")
    page.get_by_label("Cleo: Left in hand", exact=True).fill("4C")
    expect(page.locator(".picker .psum")).to_contain_text("Ann +")
    shot(page, "entry-picker-typed-melded-390")
    key(page, "Save").click()
    expect(page.locator("#deal-1")).to_contain_text("Ann went out")
