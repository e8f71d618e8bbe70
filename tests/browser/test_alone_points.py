"""A phone alone takes a deal counted on paper (points only, not checked): a points field that is no
number is refused beside that player, as the engine says; saved, the board shows the race to the
target. A hand-over the server turns away with a page (a limit, a database that cannot write) is
said as such, not as a lost connection."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_alone import new_game, save, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_points_only_deal_on_a_phone_alone(page: Page, live_server, shot):
    page.goto(f"{live_server.url}/alone/")
    wait_ready(page)
    new_game(page, "oklahoma-gin", ["Ann", "Ben"], {})
    page.locator("#game-view .actions a.button:not(.primary)").first.click()
    page.locator("#id_points-0").fill("40")
    page.locator("#id_points-1").fill("x")
    save(page)
    expect(page.locator("#points-1_errors .errorlist")).to_contain_text("whole number")
    page.locator("#id_points-1").fill("0")
    page.locator("#id_winner").select_option("0")
    save(page)
    expect(page.locator("#game-view .saved-note")).to_be_visible()
    expect(page.locator("#game-view progress")).to_have_count(2)
    page.locator("#game-view details.deal summary").first.click()
    expect(page.locator("#game-view details.deal")).to_contain_text("not checked")
    shot(page, "alone-points-only")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_hand_over_the_server_turns_away_says_why_and_keeps_the_game(page: Page, live_server, lang):
    """The hand-over's refusals that are pages, not the view's JSON: a limit (429, with Retry-After)
    and a database that cannot write (503). The phone says which, in its language, and keeps the game."""
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page.goto(f"{live_server.url}/alone/")
    wait_ready(page)
    new_game(page, "oklahoma-gin", ["Ann", "Ben"], {})
    answers = iter([(429, {"Retry-After": "600"}), (503, {})])

    def turned_away(route):
        status, headers = next(answers)
        route.fulfill(status=status, headers=headers, content_type="text/html", body="<!doctype html><p>no</p>")

    page.route("**/alone/hand-over/", turned_away)
    said = page.locator("#game-view .hand-over [role=status]")
    page.locator("#game-view .hand-over button").click()
    expect(said).to_contain_text("10 Min" if lang == "de" else "10 min")
    expect(said).to_contain_text("Handy" if lang == "de" else "phone")
    page.locator("#game-view .hand-over button").click()
    expect(said).to_contain_text("503")
    assert len(page.evaluate("window.scorekeeperAlone.games()")) == 1
