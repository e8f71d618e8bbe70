"""The live game page in the browser: it holds one stream of server-sent events and asks for its
live part only when the stream says the game changed (nothing while it is unchanged); hidden,
it lets the stream go and asks nothing and, back on screen, listens again and asks at once; a
phone taken off the table is told at once. Without EventSource it asks every second instead,
each answer a 304 that swaps nothing."""

from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import APIResponse, Page, Request, Route, expect
from playwright.sync_api import Error as PlaywrightError

from scorekeeper.table import access
from scorekeeper.table.phones import services as phone_services
from scorekeeper.table.scoring import deals as deal_services
from tests.app_data import OK_BIG, ok_record_deal
from tests.conftest import NAMES, new_game, phone_cookie

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


def _requests(page: Page, game_id: int) -> tuple[list[Request], list[Request]]:
    """(the page's streams, its requests for the live part), as they are made."""
    streams: list[Request] = []
    parts: list[Request] = []

    def seen(request: Request) -> None:
        if request.url.endswith(f"/games/{game_id}/events/"):
            streams.append(request)
        elif request.url.endswith(f"/games/{game_id}/") and request.resource_type in ("xhr", "fetch"):
            parts.append(request)

    page.on("request", seen)
    return streams, parts


def test_the_page_follows_its_stream_and_asks_only_after_a_change(scorer_page, live_server, table, console_errors):
    game = new_game(table, players=NAMES, first_dealer=0)
    page = scorer_page
    streams, parts = _requests(page, game.pk)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("#live")).to_be_visible()
    page.evaluate("document.getElementById('live').dataset.marker = 'first'")

    page.wait_for_timeout(2500)  # (Playwright's events arrive while it waits)
    assert len(streams) == 1 and streams[0].resource_type == "eventsource", streams
    assert parts == [], "the page asked for its live part while nothing changed"
    assert page.evaluate("document.getElementById('live').dataset.marker") == "first"

    deal_services.add_deal(game=game, deal=ok_record_deal(OK_BIG, NAMES), number=1)  # another phone saves
    expect(page.locator(".total").first).to_contain_text("395", timeout=3000)
    assert page.evaluate("document.getElementById('live').dataset.marker") is None  # swapped in
    assert len(parts) == 1 and parts[0].all_headers().get("if-none-match", "").startswith('W/"g')

    # Hidden, the page asks nothing; back on screen it asks at once and catches up.
    _set_visibility(page, "hidden")
    page.wait_for_timeout(300)
    deal_services.add_deal(game=game, deal=ok_record_deal(OK_BIG, NAMES), number=2)
    page.wait_for_timeout(1500)
    assert len(parts) == 1, "a hidden page asked the server"
    _set_visibility(page, "visible")
    expect(page.locator(".total").first).to_contain_text("790", timeout=3000)
    assert len(streams) == 2, "hidden, the page did not let its stream go and open it again"
    assert not console_errors, console_errors


def test_a_change_said_while_the_page_asks_for_the_one_before_is_not_lost(
    page, live_server, table, follower, console_errors
):
    """Two saves close together, on a slow line: the stream says the second while the page's request
    for the first is still on its way. The page asks again, and shows the second save. (htmx
    dropped that request while the first was out, and the page showed the first save until the
    next change: seen as a phone that never showed "Enter my hand".)"""
    game = new_game(table, players=NAMES, first_dealer=0)
    page.context.add_cookies([{"name": access.COOKIE, "value": phone_cookie(follower), "url": live_server.url}])
    held: list[tuple[Route, APIResponse]] = []

    def slow_line(route: Route) -> None:
        if route.request.resource_type in ("xhr", "fetch") and not held:
            held.append((route, route.fetch()))  # the server answers at once; the phone hears it late
        else:
            route.continue_()

    page.route(f"**/games/{game.pk}/", slow_line)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("#live")).to_be_visible()
    page.wait_for_timeout(500)  # the stream is open
    deal_services.add_deal(game=game, deal=ok_record_deal(OK_BIG, NAMES), number=1)
    for _ in range(50):
        if held:
            break
        page.wait_for_timeout(100)  # (Playwright's routes run while it waits)
    assert held, "the page did not ask for the first save"
    deal_services.add_deal(game=game, deal=ok_record_deal(OK_BIG, NAMES), number=2)
    page.wait_for_timeout(1500)  # the stream says the second save meanwhile
    route, first = held[0]
    with contextlib.suppress(PlaywrightError):  # (the page gave up on it and asked again)
        route.fulfill(response=first)  # the answer for the first save comes in at last
    expect(page.locator(".total").first).to_contain_text("790", timeout=5000)
    assert page.locator("#deal-2").count() == 1
    assert not [e for e in console_errors if "ERR_ABORTED" not in e], console_errors


def test_a_page_that_swapped_in_a_change_does_not_say_it_lost_the_connection(
    page, live_server, table, follower, console_errors
):
    """After the live part is swapped in, the page does not count the request as unanswered: it
    said "No connection since …" 6 s after every change it showed (htmx says a swapped request's end
    on the part's parent, which live.js did not take for the live part's)."""
    game = new_game(table, players=NAMES, first_dealer=0)
    page.context.add_cookies([{"name": access.COOKIE, "value": phone_cookie(follower), "url": live_server.url}])
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("#live")).to_be_visible()
    page.wait_for_timeout(500)  # the stream is open
    deal_services.add_deal(game=game, deal=ok_record_deal(OK_BIG, NAMES), number=1)
    expect(page.locator(".total").first).to_contain_text("395", timeout=3000)
    page.wait_for_timeout(7500)  # past live.js's STALE_AFTER (6 s), short of a ping's contact (10 s)
    expect(page.locator("#live-stale")).to_be_hidden()
    expect(page.locator("html")).not_to_have_class("offline")
    assert not console_errors, console_errors


def test_a_phone_taken_off_the_table_is_told_at_once(page, live_server, table, scorer, follower):
    game = new_game(table, players=NAMES, first_dealer=0)
    page.context.add_cookies([{"name": access.COOKIE, "value": phone_cookie(follower), "url": live_server.url}])
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("#live")).to_be_visible()
    page.wait_for_timeout(500)  # the stream is open
    phone_services.revoke_device(device=follower, by=scorer)
    expect(page.get_by_text("The scorer took this phone off the table")).to_be_visible(timeout=3000)


def test_without_event_source_the_page_polls_every_second(scorer_page, live_server, table, console_errors):
    game = new_game(table, players=NAMES, first_dealer=0)
    page = scorer_page
    page.add_init_script("delete window.EventSource")
    streams, parts = _requests(page, game.pk)
    answers: list[int] = []
    page.on("response", lambda r: answers.append(r.status) if r.request in parts else None)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("#live")).to_be_visible()
    page.evaluate("document.getElementById('live').dataset.marker = 'first'")
    page.wait_for_timeout(3200)
    assert streams == []
    assert len(parts) >= 2, parts
    assert answers and set(answers) == {304}, answers
    assert page.evaluate("document.getElementById('live').dataset.marker") == "first"

    deal_services.add_deal(game=game, deal=ok_record_deal(OK_BIG, NAMES), number=1)
    expect(page.locator(".total").first).to_contain_text("395", timeout=3000)
    assert not console_errors, console_errors


def test_a_stream_more_than_the_phone_may_hold_is_refused_and_the_page_polls(
    scorer_page, live_server, table, monkeypatch
):
    """A phone opens more game pages than it may hold streams (``hub.PHONE_STREAMS``, one here):
    the tab refused (429) does not connect again and again; it asks for its live part every second
    instead, and still shows the next save."""
    from scorekeeper.table.live import hub

    monkeypatch.setattr(hub, "PHONE_STREAMS", 1)
    game = new_game(table, players=NAMES, first_dealer=0)
    first = scorer_page
    first.goto(f"{live_server.url}/games/{game.pk}/")
    expect(first.locator("#live")).to_be_visible()
    first.wait_for_timeout(500)  # its stream is open
    second = first.context.new_page()
    streams, parts = _requests(second, game.pk)
    refused: list[int] = []
    second.on("response", lambda r: refused.append(r.status) if r.request in streams else None)
    second.goto(f"{live_server.url}/games/{game.pk}/")
    expect(second.locator("#live")).to_be_visible()
    second.wait_for_timeout(3500)
    assert len(streams) == 1 and refused == [429], refused  # no reconnect after the refusal
    assert len(parts) >= 2, parts  # it polls
    deal_services.add_deal(game=game, deal=ok_record_deal(OK_BIG, NAMES), number=1)
    expect(second.locator(".total").first).to_contain_text("395", timeout=3000)
    expect(first.locator(".total").first).to_contain_text("395", timeout=3000)
    assert len(streams) == 1
