"""The card picker by keyboard: the grid is one Tab stop right after its target field, the arrow
keys move inside it, keys go to the field that was chosen, and a used-up key keeps the focus."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import NAMES, new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

IN_GRID = "document.activeElement && document.activeElement.parentElement.classList.contains('pgrid')"
LABEL = "document.activeElement ? (document.activeElement.getAttribute('aria-label') || '') : ''"


@pytest.fixture(params=[(390, 844), (360, 740)], ids=["390x844", "360x740"])
def entry(request, scorer_page: Page, live_server, table) -> Page:
    scorer_page.set_viewport_size({"width": request.param[0], "height": request.param[1]})
    game = new_game(table, kind="oklahoma", profile="book", players=NAMES, first_dealer=0)
    scorer_page.goto(f"{live_server.url}/games/{game.pk}/deals/new/")
    scorer_page.get_by_role("group", name="Card picker").wait_for()
    return scorer_page


def _tab_into_grid(page: Page, limit: int = 6) -> int:
    for n in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate(IN_GRID):
            return n
    raise AssertionError("Tab never reached the grid of keys")


def test_tab_goes_from_the_field_into_the_grid_and_arrows_move_inside(entry: Page):
    page = entry
    ben = page.get_by_label("Ben: Left in hand", exact=True)
    ben.focus()
    assert _tab_into_grid(page) <= 4
    assert page.evaluate(LABEL).startswith("ace of spades")
    page.keyboard.press("ArrowRight")
    assert page.evaluate(LABEL).startswith("2 of spades")
    page.keyboard.press("ArrowDown")
    assert page.evaluate(LABEL).startswith("9 of spades")
    page.keyboard.press("End")
    assert page.evaluate(LABEL).startswith("Joker")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.evaluate(LABEL).startswith("8 of hearts"), page.evaluate(LABEL)
    page.keyboard.press("Enter")
    # The card went to the field chosen before tabbing, the one the picker names.
    expect(ben).to_have_value("8H")
    expect(page.locator("#picker-target")).to_contain_text("Ben: Left in hand")
    # One Tab leaves the grid: it is a single Tab stop.
    page.keyboard.press("Tab")
    assert not page.evaluate(IN_GRID)


def test_the_grid_is_one_tab_stop_after_each_card_field(entry: Page):
    """Tabbing through the page: the grid is met once after each card field (the picker follows
    its target) and one Tab always leaves it; it never holds a Tab stop per key."""
    page = entry
    page.locator("h1").click()
    trail: list[str] = []
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate(IN_GRID):
            trail.append("grid")
        elif page.evaluate("document.activeElement.matches('.cardfield input.cards')"):
            trail.append("field")
    assert "grid" in trail
    for i, where in enumerate(trail):
        if where == "grid":
            assert i > 0 and trail[i - 1] == "field", trail  # right after a field, never twice in a row


def test_a_used_up_key_keeps_the_focus(entry: Page):
    page = entry
    page.get_by_label("Ann: Melded", exact=True).focus()
    _tab_into_grid(page)
    for _ in range(4):
        page.keyboard.press("ArrowRight")  # 5♠
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    expect(page.get_by_label("Ann: Melded", exact=True)).to_have_value("5S 5S")
    assert page.evaluate(IN_GRID)
    assert page.evaluate(LABEL) == "5 of spades, 0 left"
    assert page.evaluate("document.activeElement.getAttribute('aria-disabled')") == "true"
    page.keyboard.press("Enter")  # used up: nothing happens, the focus stays
    expect(page.get_by_label("Ann: Melded", exact=True)).to_have_value("5S 5S")
    assert page.evaluate(LABEL) == "5 of spades, 0 left"


def test_the_picker_is_inside_the_main_landmark(entry: Page):
    assert entry.evaluate("!!document.querySelector('main .picker')")
