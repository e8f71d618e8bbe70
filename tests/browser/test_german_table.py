"""A German phone at the table (scorekeeper/i18n.py): the table's pages, the picker's keys and words,
cards typed with the German letters (D for the queen), at 390×844 and 360×740; screenshots of each
page for a look at long German words (SHOTS, or I18N_SHOTS when set)."""

import os
import re
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, ViewportSize, expect

from scorekeeper.table import access
from scorekeeper.table.models import Device, Role
from scorekeeper.table.phones import services as phone_services
from tests.app_data import OK_BIG, OK_SMALL, ok_record_deal
from tests.browser.conftest import SHOTS
from tests.conftest import NAMES, new_game, phone_cookie
from tests.rulebook.test_hollywood_pages import hollywood_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SIZES: dict[str, ViewportSize] = {"390": {"width": 390, "height": 844}, "360": {"width": 360, "height": 740}}


def _german_phone(page: Page, url: str, device: Device) -> None:
    page.context.add_cookies(
        [
            {"name": access.COOKIE, "value": phone_cookie(device), "url": url},
            {"name": "django_language", "value": "de", "url": url},
        ]
    )


def _no_overflow(page: Page) -> None:
    """Nothing wider than the screen: a long German word wraps (or hyphenates) instead."""
    wide = page.evaluate(
        """() => [...document.querySelectorAll('main *, header *')].filter((e) => {
             const r = e.getBoundingClientRect();
             return r.width > 0 && r.right > document.documentElement.clientWidth + 1
               && !e.closest('.scroll') && getComputedStyle(e).position !== 'fixed';
           }).map((e) => e.tagName + '.' + e.className + ': ' + (e.textContent || '').trim().slice(0, 40))"""
    )
    assert wide == [], wide


def test_the_table_pages_in_german_at_both_sizes(page: Page, live_server, table, scorer):
    folder = Path(os.environ.get("I18N_SHOTS") or SHOTS)
    folder.mkdir(parents=True, exist_ok=True)
    game = new_game(table, deals=[ok_record_deal(OK_SMALL, NAMES), ok_record_deal(OK_BIG, NAMES)], first_dealer=0)
    gin = new_game(table, kind="oklahoma-gin", profile="standard", players=["Ann", "Ben"])
    hollywood = hollywood_game(table)
    phone_services.create_link(table=table, role=Role.FOLLOW, by=scorer)
    phone_services.create_link(table=table, role=Role.SCORE, by=scorer)
    _german_phone(page, live_server.url, scorer)
    deal = game.deals.get(number=1)
    pages = {
        "home": reverse("table:home"),
        "new-game": reverse("table:new_game"),
        "new-gin": reverse("table:new_game") + "?game=oklahoma-gin",
        "table": reverse("table:table", args=[table.pk]),
        "game": reverse("table:game", args=[game.pk]),
        "gin-game": reverse("table:game", args=[gin.pk]),
        "hollywood-game": reverse("table:game", args=[hollywood.pk]),
        "deal": reverse("table:deal", args=[game.pk, deal.pk]),
        "deal-new": reverse("table:deal_new", args=[game.pk]),
        "gin-deal-new": reverse("table:deal_new", args=[gin.pk]),
        "deal-delete": reverse("table:deal_delete", args=[game.pk, deal.pk]),
        "not-found": "/no/such/page/",
    }
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        for name, path in pages.items():
            page.goto(live_server.url + path)
            expect(page.locator("html")).to_have_attribute("lang", "de")
            _no_overflow(page)
            page.screenshot(path=str(folder / f"de-{name}-{size}.png"), full_page=True, caret="initial")


def test_a_german_phone_picks_and_types_cards_in_german(page: Page, live_server, table, scorer):
    game = new_game(table, first_dealer=0)
    _german_phone(page, live_server.url, scorer)
    page.set_viewport_size(SIZES["360"])
    page.goto(live_server.url + reverse("table:deal_new", args=[game.pk]))
    picker = page.get_by_role("group", name="Kartenauswahl")
    expect(picker).to_be_visible()
    queen = picker.get_by_role("button", name=re.compile(r"^Pik-Dame,"))
    expect(queen).to_have_accessible_name("Pik-Dame, 2 übrig")
    expect(queen.locator(".rank")).to_have_text("D")  # German letters on the keys: D for Dame, B for Bube
    expect(picker.get_by_role("button", name=re.compile(r"^Pik-Bube,")).locator(".rank")).to_have_text("B")
    expect(picker.get_by_role("button", name=re.compile(r"^Herz-10,"))).to_have_count(1)
    queen.click()
    melded = page.get_by_label("Ann: Ausgelegt", exact=True)
    expect(melded).to_have_value("QS")  # the record's notation, as typed and stored
    expect(page.locator("#id_p-0-melded_check .card").first).to_have_text("D♠")
    expect(queen).to_have_accessible_name("Pik-Dame, 1 übrig")
    picker.get_by_role("button", name="mit der Tastatur tippen").click()
    page.keyboard.type(" DH DD")  # D for Dame: the queens of hearts and diamonds
    expect(page.locator("#id_p-0-melded_check")).to_contain_text("Satz")
    expect(page.locator("#id_p-0-melded_check")).to_contain_text("3 Karten")
    expect(page.locator("#id_p-0-melded_feedback .errorlist")).to_have_count(0)
    picker.get_by_role("button", name="Karten auswählen").click()
    # the picker counts what was typed with the German letters: one Q♥ of two is used
    expect(picker.get_by_role("button", name=re.compile(r"^Herz-Dame,"))).to_have_accessible_name("Herz-Dame, 1 übrig")
    page.get_by_label("Ben: In der Hand behalten", exact=True).fill("8X")
    expect(page.locator("#id_p-1-held_feedback")).to_contain_text("„8X“ ist keine Karte")
    page.screenshot(path=str(SHOTS / "de-picker-360.png"), full_page=True, caret="initial")
