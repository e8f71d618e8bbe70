"""The live game page in the browser: it asks every second while on screen, each answer a 304 that
swaps nothing while the game is unchanged; hidden, it asks nothing; back on screen, it asks at once."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Request, expect

from tests.conftest import NAMES, new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _set_visibility(page: Page, state: str) -> None:
    page.evaluate(
        """state => {
            Object.defineProperty(document, "visibilityState", {value: state, configurable: true});
            Object.defineProperty(document, "hidden", {value: state === "hidden", configurable: true});
            document.dispatchEvent(new Event("visibilitychange"));
        }""",
        state,
    )


def test_the_page_polls_only_while_visible_and_304s_swap_nothing(scorer_page, live_server, table, console_errors):
    game = new_game(table, players=NAMES, first_dealer=0)
    page = scorer_page
    polls: list[Request] = []
    answers: list[int] = []

    def seen(request: Request) -> None:
        if request.url.endswith(f"/games/{game.pk}/") and request.resource_type in ("xhr", "fetch"):
            polls.append(request)

    page.on("request", seen)
    page.on("response", lambda r: answers.append(r.status) if r.request in polls else None)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("#live")).to_be_visible()
    marker = page.evaluate("document.getElementById('live').dataset.marker = 'first'")
    assert marker == "first"

    page.wait_for_timeout(3200)  # (Playwright's events arrive while it waits)
    visible_polls = len(polls)
    assert visible_polls >= 2, visible_polls
    assert answers and set(answers) == {304}, answers
    assert polls[0].all_headers().get("if-none-match", "").startswith('W/"g')
    # Nothing was swapped: the element that was there is still there.
    assert page.evaluate("document.getElementById('live').dataset.marker") == "first"

    _set_visibility(page, "hidden")
    page.wait_for_timeout(300)
    before = len(polls)
    page.wait_for_timeout(2500)
    assert len(polls) == before, "a hidden page asked the server"

    _set_visibility(page, "visible")
    page.wait_for_timeout(400)
    assert len(polls) > before, "back on screen, the page did not ask at once"
    assert not console_errors, console_errors
