"""A form of the game page refused with nothing changed (here a seat's, its field tampered with):
the browser holds the page it goes back to and revalidates it, and the message still shows, in
the phone's language, beside the seats, in view, once; a reload does not show it again."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from scorekeeper.table.models import Device, Role
from tests.app_data import OK_SMALL, ok_record_deal
from tests.browser.test_german_table import SIZES, _german_phone
from tests.conftest import NAMES, new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", ["390", "360"])
def test_a_refused_seat_says_why_on_the_page_the_browser_holds(page: Page, live_server, table, scorer, shot, size):
    game = new_game(table, players=NAMES, first_dealer=0, deals=[ok_record_deal(OK_SMALL, NAMES)], by=scorer)
    ben = Device.objects.create(table=table, name="Bens Handy", role=Role.FOLLOW)
    page.set_viewport_size(SIZES[size])
    url = live_server.url + reverse("table:game", args=[game.pk])
    _german_phone(page, live_server.url, ben)
    page.goto(url)
    page.goto(url)  # the browser holds the page: it asks with its validator
    page.evaluate("document.querySelector('#seat-0 input[name=seat]').value = '9'")
    page.locator("#seat-0 button").click()
    said = page.locator("#seats ul.messages li.bad")
    expect(said).to_be_visible(timeout=5000)
    expect(said).to_be_in_viewport()
    expect(said).to_contain_text("keine gültige Auswahl")
    refusal = page.evaluate("getComputedStyle(document.querySelector('#seats li.bad')).color")
    expect(page.locator("#seats ul.messages")).to_have_css("border-top-color", refusal)  # not a success's green
    expect(page.locator("html")).to_have_attribute("lang", "de")
    shot(page, f"refused-seat-de-{size}")
    page.reload()
    expect(page.locator("#live")).to_be_visible()
    expect(page.locator("ul.messages")).to_have_count(0)
