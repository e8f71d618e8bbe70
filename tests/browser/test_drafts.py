"""Drafts: what is typed into a deal survives a reload, a dropped connection at Save and a return to
the form, and is sent again by itself once the connection is back — saved once."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.table.models import Deal
from tests.app_data import OK_BIG
from tests.browser.test_oklahoma_game import type_deal
from tests.conftest import NAMES, new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(params=[(390, 844), (360, 740)], ids=["390x844", "360x740"])
def phone(request, scorer_page: Page) -> Page:
    width, height = request.param
    scorer_page.set_viewport_size({"width": width, "height": height})
    return scorer_page


def _open_entry(page: Page, live_server, table):
    game = new_game(table, kind="oklahoma", profile="book", players=NAMES, first_dealer=0)
    page.goto(f"{live_server.url}/games/{game.pk}/deals/new/")
    expect(page.get_by_role("heading", name="Deal 1")).to_be_visible()
    return game


def test_a_reload_mid_entry_keeps_the_cards(phone: Page, live_server, table, shot, console_errors):
    _open_entry(phone, live_server, table)
    held = phone.get_by_label("Cleo: Left in hand", exact=True)
    held.fill("QS 4C")
    phone.wait_for_timeout(400)  # the draft is kept a moment after the last key
    phone.reload()
    expect(phone.get_by_label("Cleo: Left in hand", exact=True)).to_have_value("QS 4C")
    expect(phone.locator(".draft-status")).to_contain_text("Restored the cards typed on this phone")
    shot(phone, f"draft-restored-{(phone.viewport_size or {'width': 0})['width']}")
    # Start again: the draft is forgotten and the form is empty.
    phone.get_by_role("button", name="Start again").click()
    expect(phone.get_by_label("Cleo: Left in hand", exact=True)).to_have_value("")
    phone.reload()
    expect(phone.get_by_label("Cleo: Left in hand", exact=True)).to_have_value("")
    assert not console_errors, console_errors


def test_offline_at_save_keeps_the_cards_and_sends_them_when_back(
    phone: Page, live_server, table, shot, console_errors
):
    game = _open_entry(phone, live_server, table)
    type_deal(phone, OK_BIG)
    expect(phone.locator("#preview")).to_contain_text("+395")
    phone.context.set_offline(True)
    phone.get_by_role("button", name="Save deal").click()
    expect(phone.locator(".draft-status")).to_contain_text("Not sent — your cards are kept")
    shot(phone, f"draft-offline-{(phone.viewport_size or {'width': 0})['width']}")
    assert not Deal.objects.filter(game=game).exists()
    expect(phone.get_by_label("Cleo: Left in hand", exact=True)).to_have_value("QS 4C")
    phone.context.set_offline(False)
    # Sent again by itself: the game page, the deal saved once, the draft forgotten.
    expect(phone).to_have_url(re.compile(rf"/games/{game.pk}/(\?saved=1)?(#.*)?$"), timeout=20_000)
    expect(phone.locator(".total").first).to_contain_text("395")
    assert Deal.objects.filter(game=game).count() == 1
    assert phone.evaluate("Object.keys(localStorage).filter(k => k.startsWith('draft:')).length") == 0
    errors = [e for e in console_errors if "ERR_INTERNET_DISCONNECTED" not in e]
    assert not errors, errors


def test_offline_while_typing_then_leaving_and_coming_back(phone: Page, live_server, table):
    game = _open_entry(phone, live_server, table)
    phone.context.set_offline(True)
    phone.get_by_label("Ben: Left in hand", exact=True).fill("AD")
    phone.wait_for_timeout(400)
    phone.context.set_offline(False)
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    phone.goto(f"{live_server.url}/games/{game.pk}/deals/new/")
    expect(phone.get_by_label("Ben: Left in hand", exact=True)).to_have_value("AD")


def test_a_refused_save_shows_the_errors_with_the_cards(phone: Page, live_server, table):
    game = _open_entry(phone, live_server, table)
    phone.get_by_label("Cleo: Left in hand", exact=True).fill("QS 4C")
    phone.get_by_role("button", name="Save deal").click()
    # The server's page, with its errors, and the cards as typed.
    expect(phone.get_by_label("Cleo: Left in hand", exact=True)).to_have_value("QS 4C")
    expect(phone.locator(".errorlist, .errs").first).to_be_attached()
    assert not Deal.objects.filter(game=game).exists()
