"""Enter (or Go on a phone's keyboard) in a player's name starts the game as set up: it does not
switch to the other game (the game tabs are submit buttons that come first in the form)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.table.models import Game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_enter_in_a_name_starts_the_game(page: Page, live_server):
    page.goto(live_server.url + "/games/new/")
    page.get_by_label("Book rules", exact=False).check()
    page.get_by_label("Seat 1").fill("Ann")
    page.get_by_label("Seat 2").fill("Ben")
    page.get_by_label("Seat 3").fill("Cleo")
    page.get_by_label("Seat 3").press("Enter")
    expect(page.get_by_role("link", name="Enter deal 1")).to_be_visible()
    game = Game.objects.get()
    assert game.kind == "oklahoma" and game.profile == "book"
