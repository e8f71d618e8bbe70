"""Phones the scorer changed: a phone taken off the table that opens its old link is told so and
stays off; a phone made to follow that saves the deal it typed is told why, its cards shown back."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from scorekeeper.table import access
from scorekeeper.table.models import Device, Role
from scorekeeper.table.phones import services as phone_services
from tests.app_data import OK_BIG
from tests.browser.test_oklahoma_game import type_deal
from tests.conftest import NAMES, new_game, phone_cookie

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SIZES = [(390, 844), (360, 740)]


def _phone(browser: Browser, live_server, size: tuple[int, int], device: Device | None = None) -> Page:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    if device is not None:
        context.add_cookies([{"name": access.COOKIE, "value": phone_cookie(device), "url": live_server.url}])
    return context.new_page()


@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
def test_a_phone_taken_off_opens_its_old_link(browser: Browser, live_server, table, scorer, shot, size):
    game = new_game(table, players=NAMES, first_dealer=0)
    link = phone_services.create_link(table=table, role=Role.FOLLOW, by=scorer)
    phone = _phone(browser, live_server, size)
    phone.goto(f"{live_server.url}/join/{link.token}/")
    phone.get_by_label("Who is this phone?").fill("Ben's phone")
    phone.get_by_role("button", name="Join the table").click()
    expect(phone.locator("#live")).to_be_visible()
    phone_services.revoke_device(device=Device.objects.get(name="Ben's phone"), by=scorer)
    # Its live page stops and says why.
    heading = phone.get_by_role("heading", name="The scorer took this phone off the table")
    expect(heading).to_be_visible(timeout=5000)
    # Its old link does not bring it back.
    phone.goto(f"{live_server.url}/join/{link.token}/")
    expect(heading).to_be_visible()
    shot(phone, f"taken-off-{size[0]}")
    assert phone.evaluate("document.documentElement.scrollWidth") <= size[0]
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    expect(heading).to_be_visible()
    phone.context.close()


@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
def test_a_phone_made_to_follow_saving_its_deal(browser: Browser, live_server, table, scorer, shot, size):
    game = new_game(table, players=NAMES, first_dealer=0)
    second = Device.objects.create(table=table, name="Cleo's phone", role=Role.SCORE)
    phone = _phone(browser, live_server, size, second)
    phone.goto(f"{live_server.url}/games/{game.pk}/deals/new/")
    type_deal(phone, OK_BIG)
    phone_services.set_role(device=second, role=Role.FOLLOW, by=scorer)
    phone.get_by_role("button", name="Save deal").click()
    expect(phone.get_by_role("heading", name="Not allowed on this phone")).to_be_visible()
    expect(phone.locator(".typed")).to_contain_text("QS 4C")  # the cards it typed, shown back
    shot(phone, f"made-to-follow-{size[0]}")
    assert not game.deals.exists()
    # The scorer lets it score again: back on the form, its cards are there (kept on the phone).
    phone_services.set_role(device=second, role=Role.SCORE, by=scorer)
    phone.goto(f"{live_server.url}/games/{game.pk}/deals/new/")
    expect(phone.get_by_label("Cleo: Left in hand", exact=True)).to_have_value("QS 4C")
    expect(phone.locator(".draft-status")).to_contain_text("Restored the cards typed on this phone")
    phone.context.close()
