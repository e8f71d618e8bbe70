"""The rule book and Hollywood's columns in Chromium, at the two phone sizes (390×844, 360×740):
nothing scrolls sideways; from a score line to the paragraph that explains it; the book read with
a house option; a Hollywood match on the game page, a deal page, the review and re-score.
Screenshots go to test-artifacts/screenshots/ (book-*, hollywood-*)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from tests.browser.conftest import SHOTS
from tests.conftest import new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES: dict[str, ViewportSize] = {"390": {"width": 390, "height": 844}, "360": {"width": 360, "height": 740}}
RECORD = json.loads(
    (Path(__file__).parents[1] / "rules" / "records" / "gin_hollywood_standard.json").read_text(encoding="utf-8")
)


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), page.url


def in_view(page: Page, selector: str) -> bool:
    return page.evaluate(
        """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                     return r.top >= 0 && r.top < window.innerHeight; }""",
        selector,
    )


@pytest.fixture(params=list(SIZES))
def size(request, page: Page) -> str:
    page.set_viewport_size(SIZES[request.param])
    return request.param


def test_reading_the_book_on_a_phone(page: Page, live_server, size, shot, console_errors):
    page.goto(live_server.url + "/rules/")
    page.get_by_role("link", name=re.compile("^Book rules")).click()
    expect(page.locator("h1")).to_have_text("Oklahoma: Book rules")
    no_sideways_scroll(page)
    shot(page, f"book-{size}-1-oklahoma-top")
    page.get_by_text("Contents").click()
    page.get_by_role("link", name="What the cards score").click()
    assert in_view(page, "#card-values")
    expect(page.locator("#value-joker")).to_contain_text("Left in hand it costs 200 (S0)")
    page.screenshot(path=str(_shot_path(f"book-{size}-2-card-values")), caret="initial")
    # The worked example: the engine's lines, each linking to its paragraph.
    example = page.locator("#ex-deal")
    expect(example.locator("figcaption")).to_contain_text("Ann went out: Ann +265")
    example.get_by_text("The score, line by line").click()
    example.locator("a.cite", has_text="a Joker left in hand costs 200").click()
    assert page.url.endswith("#value-joker") and in_view(page, "#value-joker")
    no_sideways_scroll(page)
    page.goto(live_server.url + "/rules/oklahoma-gin/standard/book/?hollywood=true&shutout=true")
    no_sideways_scroll(page)
    page.locator("#hollywood").scroll_into_view_if_needed()
    page.screenshot(path=str(_shot_path(f"book-{size}-3-gin-hollywood")), caret="initial")
    shot(page, f"book-{size}-4-gin-whole")
    assert not console_errors, console_errors


def test_the_book_read_with_a_house_option(page: Page, live_server, shot, console_errors):
    page.goto(live_server.url + "/rules/oklahoma-gin/standard/book/")
    expect(page.locator("#target")).to_contain_text("reach 200 (S2, Scoring 5)")
    page.get_by_text("Read it with house options").click()
    page.get_by_label("Game target").fill("150")
    page.get_by_label("Hollywood (three columns)").select_option("true")
    page.get_by_role("button", name="Show the rules with these").click()
    expect(page.locator("#target")).to_contain_text("reach 150 (house option)")
    expect(page.locator("#house-options")).to_contain_text("Game target: 150")
    expect(page.locator("#ex-hollywood")).to_contain_text("closed on deal")
    shot(page, "book-5-house-options")
    # A refused combination: Hollywood with penalty points, the engine's message next to the option.
    page.goto(live_server.url + "/rules/oklahoma-gin/party/book/?hollywood=true")
    expect(page.locator("#id_hollywood + .err, #id_hollywood ~ .err").first).to_contain_text("penalty points")
    shot(page, "book-6-refused-option")
    assert not console_errors, console_errors


def _shot_path(name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS / f"{name}.png"


def test_from_a_score_line_to_its_paragraph(scorer_page: Page, table, live_server, shot, console_errors):
    page = scorer_page
    deal = {
        "out": "Ann",
        "hands": {
            "Ann": {"melds": [["QS", "QH", "QD"], ["7H", "8H", "9H"]], "held": []},
            "Ben": {"melds": [["5S", "6S", "7S"]], "held": ["JK", "KD"]},
        },
    }
    game = new_game(table, kind="oklahoma", profile="book", players=["Ann", "Ben"], deals=[deal])
    page.goto(f"{live_server.url}/games/{game.pk}/deals/{game.deals.get().pk}/")
    row = page.locator("tr", has_text="JK in hand")
    expect(row).to_contain_text("−200")
    shot(page, "book-7-deal-page-lines")
    row.locator("a.cite").click()
    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/rules/#value-joker$"))
    assert in_view(page, "#value-joker")
    expect(page.locator("#value-joker")).to_contain_text("Left in hand it costs 200")
    page.screenshot(path=str(_shot_path("book-8-why-minus-200")), caret="initial")
    # The game page links its rule book.
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.get_by_role("link", name="The rules of this game").click()
    expect(page.locator("h1")).to_have_text("Oklahoma: Book rules")
    assert not console_errors, console_errors


def test_a_hollywood_match_on_every_page(scorer_page: Page, table, live_server, size, shot, console_errors):
    page = scorer_page
    game = new_game(
        table,
        kind="oklahoma-gin",
        profile="standard",
        players=RECORD["players"],
        options=RECORD["rules"]["options"],
        first_dealer=1,
        deals=RECORD["deals"],
    )
    page.goto(f"{live_server.url}/games/{game.pk}/")
    columns = page.locator("#hw")
    expect(columns.locator('[data-column-state="3"]')).to_have_text("closed on deal 9")
    expect(columns.locator('[data-column-winner="1"]')).to_have_text("Ann wins")
    expect(columns).to_contain_text("Ann wins the match with the larger sum of finals (3 of the three columns won)")
    no_sideways_scroll(page)
    columns.scroll_into_view_if_needed()
    page.screenshot(path=str(_shot_path(f"hollywood-{size}-1-game")), caret="initial")
    columns.get_by_text("Column 1: Ann wins").click()
    expect(columns).to_contain_text("game bonus +100")
    shot(page, f"hollywood-{size}-2-game-whole")

    closing = game.deals.get(number=5)
    page.goto(f"{live_server.url}/games/{game.pk}/deals/{closing.pk}/")
    expect(page.locator("#hw")).to_contain_text("went in columns 1, 2 and 3")
    expect(page.locator('#hw [data-column-state="1"]')).to_have_text("closed on deal 5")
    expect(page.locator('#hw [data-column-state="2"]')).to_have_text("open")
    no_sideways_scroll(page)
    page.locator("#hw").scroll_into_view_if_needed()
    page.screenshot(path=str(_shot_path(f"hollywood-{size}-3-deal")), caret="initial")

    page.goto(f"{live_server.url}/history/{game.pk}/")
    expect(page.locator("#hw")).to_contain_text("Ann wins the match")
    expect(page.locator("#deal-2")).to_contain_text("went in columns 1 and 2")
    no_sideways_scroll(page)
    page.locator("#hw").scroll_into_view_if_needed()
    page.screenshot(path=str(_shot_path(f"hollywood-{size}-4-review")), caret="initial")

    page.goto(f"{live_server.url}/history/{game.pk}/rescore/?profile=classic&o_hollywood=true&o_target=100")
    expect(page.locator("#columns-other")).to_contain_text("box bonus")
    expect(page.locator("#columns-now")).to_contain_text("Ann wins the match")
    no_sideways_scroll(page)
    page.locator("#columns-now").scroll_into_view_if_needed()
    page.screenshot(path=str(_shot_path(f"hollywood-{size}-5-rescore")), caret="initial")
    assert not console_errors, console_errors


def test_hollywood_refused_for_three_players_next_to_the_option(page: Page, live_server, shot, console_errors):
    page.goto(live_server.url + "/games/new/?game=oklahoma-gin")
    page.get_by_label("Standard", exact=False).check()
    # the standard rules take two players: a third seat shows once "Most players" says three
    page.get_by_text("House options").click()
    page.get_by_label("Most players").fill("3")
    for seat, name in enumerate(["Ann", "Ben", "Cleo"], start=1):
        page.get_by_label(f"Seat {seat}").fill(name)
    page.get_by_label("Hollywood (three columns)").select_option("true")
    page.get_by_role("button", name="Start the game").click()
    knob = page.locator(".knob", has=page.locator("#id_opt_hollywood"))
    expect(knob.locator(".err")).to_contain_text("Hollywood scoring is for two players; this game has 3")
    knob.scroll_into_view_if_needed()
    page.screenshot(path=str(_shot_path("hollywood-6-new-game-refused")), caret="initial")
    no_sideways_scroll(page)
    console_errors[:] = [e for e in console_errors if "status of 400" not in e]  # the refused form answers 400
    assert not console_errors, console_errors
