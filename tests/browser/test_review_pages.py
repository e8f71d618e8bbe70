"""Browser tests at 390×844: settle a dispute on the checker page; re-score a finished game under
another profile; open the chart. Screenshots go to test-artifacts/screenshots/."""

import re

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.table.scoring import deals as deal_services
from tests.app_data import GIN_BIG, GIN_KNOCK, OK_BIG, OK_SMALL, gin_record_deal, ok_record_deal
from tests.browser.conftest import SHOTS
from tests.conftest import new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_settle_a_dispute_on_the_checker_page(page: Page, live_server, shot, console_errors):
    page.set_default_timeout(10000)
    page.goto(live_server.url + "/check/?kind=layoff")
    page.get_by_role("link", name=re.compile("Can I knock")).click()
    page.get_by_label("Rules").select_option("standard")
    page.get_by_label("First upcard").fill("3H")
    page.get_by_label("The hand").press_sequentially("3C 4C 5C 9D 9H 9S JH QH KH 5S", delay=5)
    verdict = page.locator("#verdict")
    expect(verdict).to_contain_text("No, you may not knock: least deadwood 5, over the limit of 3")
    expect(verdict).to_contain_text("S2, Gameplay 1")  # the knock limit, cited as the engine cites it
    shot(page, "review-1-checker-no")
    # The other player: "but with the 2 of spades instead I could" — fix the card, the answer follows live.
    page.get_by_label("The hand").fill("3C 4C 5C 9D 9H 9S JH QH KH 2S")
    expect(verdict).to_contain_text("Yes, you may knock: least deadwood 2, limit 3")
    assert "upcard=3H" in page.url and "cards=" in page.url  # the verdict is a link (htmx pushed it)
    link = page.locator("#share-link").get_attribute("href")
    assert link is not None
    no_sideways_scroll(page)
    shot(page, "review-2-checker-yes")
    # The shared link opens the same verdict, without htmx.
    page.goto(link)
    expect(page.locator("#verdict")).to_contain_text("Yes, you may knock")
    # A meld dispute in Oklahoma: round the corner is not allowed.
    page.get_by_role("link", name=re.compile("Is this meld legal")).click()
    page.get_by_label("The meld").fill("QH KH AH 2H 3H")
    expect(page.locator("#verdict")).to_contain_text("Not a legal meld")
    shot(page, "review-3-checker-meld")
    assert not console_errors, console_errors


def test_rescore_a_finished_game_under_another_profile(scorer_page: Page, table, live_server, shot, console_errors):
    page = scorer_page
    game = new_game(
        table,
        kind="oklahoma-gin",
        profile="standard",
        players=["Ann", "Ben"],
        deals=[gin_record_deal(d, ["Ann", "Ben"]) for d in (GIN_KNOCK, GIN_BIG, GIN_BIG)],
    )
    assert game.state == "finished"
    page.set_default_timeout(10000)
    page.goto(live_server.url + f"/history/{game.pk}/")
    expect(page.locator("h1")).to_contain_text(f"#{game.pk}")
    page.get_by_role("link", name="Re-score under other rules").click()
    page.get_by_label("Other rules").select_option("classic")
    comparison = page.locator("#comparison")
    # Classic plays to 150: the game would have ended a deal earlier, so the table cannot switch to it.
    expect(comparison).to_contain_text("would have ended with deal 2: Ann wins")
    expect(page.locator("#totals-compare")).to_be_visible()
    expect(page.get_by_role("button", name="Switch this game to these rules")).to_have_count(0)
    no_sideways_scroll(page)
    shot(page, "review-4-rescore-classic")
    page.get_by_label("Other rules").select_option("casino")
    expect(comparison).to_contain_text("would have")
    expect(comparison).not_to_contain_text("would have ended")
    # A house option too: spades triple.
    page.get_by_text("House options").click()
    page.get_by_label("Spade upcard multiplier").select_option("3")
    expect(comparison).to_contain_text("×3")
    game.refresh_from_db()
    assert game.profile == "standard"  # comparing changes nothing
    page.get_by_label("Spade upcard multiplier").select_option("")
    expect(comparison).not_to_contain_text("×3")
    page.get_by_role("button", name="Switch this game to these rules").click()
    expect(page.locator(".messages")).to_contain_text("Casino")
    game.refresh_from_db()
    assert game.profile == "casino" and game.winner_name() == "Ann"
    shot(page, "review-5-switched")
    assert not console_errors, console_errors


def test_open_the_chart(scorer_page: Page, table, live_server, shot, console_errors):
    page = scorer_page
    names = ["Ann", "Ben", "Cleo"]
    game = new_game(
        table,
        kind="oklahoma",
        profile="book",
        players=names,
        first_dealer=0,
        deals=[ok_record_deal(d, names) for d in (OK_BIG, OK_SMALL, OK_BIG, OK_SMALL, OK_SMALL)],
    )
    page.set_default_timeout(10000)
    page.goto(live_server.url + "/history/")
    page.get_by_role("link", name=re.compile(f"Oklahoma #{game.pk}")).click()
    chart = page.locator("svg.chart")
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box is not None and box["width"] <= 390 and box["height"] > 150
    assert chart.locator("polyline").count() == 3
    expect(chart.locator("text.end-label").first).to_be_visible()
    no_sideways_scroll(page)
    page.locator("svg.chart").scroll_into_view_if_needed()
    shot(page, "review-6-chart")
    page.locator("figure#chart").screenshot(path=str(SHOTS / "review-6-chart-closeup.png"))
    page.get_by_text("The totals as a table").click()
    expect(page.locator(".totals-table table")).to_be_visible()
    page.emulate_media(color_scheme="dark")
    shot(page, "review-7-chart-dark")
    # The player page from the review.
    page.get_by_role("link", name="Ann", exact=True).first.click()
    expect(page.locator("h1")).to_have_text("Ann")
    expect(page.get_by_text("Head to head")).to_be_visible()
    no_sideways_scroll(page)
    shot(page, "review-8-player")
    assert not console_errors, console_errors


def test_rules_and_history_pages_at_360px(scorer_page: Page, table, live_server, shot, console_errors):
    page = scorer_page
    names = ["Ann", "Ben", "Cleo"]
    game = new_game(
        table, kind="oklahoma", profile="laws", players=names, first_dealer=0, deals=[ok_record_deal(OK_BIG, names)]
    )
    deal_services.edit_deal(game=game, deal_id=game.deals.get().pk, version=None, deal=ok_record_deal(OK_SMALL, names))
    page.set_default_timeout(10000)
    page.set_viewport_size({"width": 360, "height": 780})
    deal = (
        '{"upcard": "7S", "knocker": "Ann", "hands": {'
        '"Ann": {"cards": ["3C","4C","5C","9D","9H","9S","JH","QH","KH","2S"]}, '
        '"Ben": {"cards": ["2H","3H","4H","6D","6C","8S","10S","KD","AC","5H"]}}}'
    )
    pages = {
        "rules-laws": "/rules/oklahoma/laws/",
        "rules-party": "/rules/oklahoma-gin/party/",
        "history": "/history/",
        "import": "/history/import/",
        "players": "/players/",
        "changes": f"/history/{game.pk}/changes/",
        "checker-deal": "/check/?kind=deal&profile=standard&deal=" + deal.replace(" ", "%20").replace('"', "%22"),
    }
    for name, url in pages.items():
        page.goto(live_server.url + url)
        no_sideways_scroll(page)
        small = page.evaluate("""() => [...document.querySelectorAll(
            'main button, main select, main input:not([type=hidden]), main textarea, main .button, main .tabs a')]
            .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 44)
            .map(e => e.outerHTML.slice(0, 80))""")
        assert not small, (name, small)
        shot(page, f"review-360-{name}")
    expect(page.locator("#verdict")).to_contain_text("Ann")
    page.goto(live_server.url + pages["rules-laws"])  # the rules of a profile are its rule book
    page.get_by_text("Contents").click()
    page.get_by_role("link", name="Where the sources disagree").click()
    expect(page.locator("#dispute-k8-in-hand")).to_be_in_viewport()
    expect(page.locator("#dispute-k8-in-hand")).to_contain_text("Book rules")
    assert not console_errors, console_errors
