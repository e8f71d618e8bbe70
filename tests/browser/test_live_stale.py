"""The live game page when the server cannot be reached: it says since when it shows what it had,
and catches up once the connection is back."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.table.scoring import deals as deal_services
from tests.app_data import OK_BIG, ok_record_deal
from tests.conftest import NAMES, new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", [(390, 844), (360, 740)], ids=["390x844", "360x740"])
def test_offline_the_page_says_it_is_stale_and_catches_up(scorer_page: Page, live_server, table, shot, size):
    page = scorer_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    game = new_game(table, kind="oklahoma", profile="book", players=NAMES, first_dealer=0)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("#live")).to_be_visible()
    expect(page.locator("#live-stale")).to_have_count(0)

    page.context.set_offline(True)
    stale = page.locator("#live-stale")
    expect(stale).to_be_visible(timeout=10_000)
    expect(stale).to_contain_text("No connection since")
    expect(stale).to_contain_text("showing what we had")
    shot(page, f"live-stale-{size[0]}")

    # Another phone saves a deal meanwhile; back online, this page shows it without a reload.
    deal_services.add_deal(game=game, deal=ok_record_deal(OK_BIG, NAMES), number=1)
    page.context.set_offline(False)
    expect(stale).to_be_hidden(timeout=10_000)
    expect(page.locator(".total").first).to_contain_text("395")
