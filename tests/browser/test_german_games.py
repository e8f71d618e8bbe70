"""Whole games played in German at 390×844, as a German table plays them (issue 25): an Oklahoma game
to 1,000 with the language chosen by the header's switch, an Oklahoma Gin game to its target, a
German and an English phone watching the same game live, and two phones in Chicago and Berlin
seeing the same change at their own local times. Screenshots are named ``de-*``."""

import re
import zoneinfo
from datetime import datetime

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from scorekeeper.table import access
from scorekeeper.table.models import Change
from scorekeeper.table.scoring import deals as deal_services
from tests.app_data import GIN_BIG, GIN_KNOCK, OK_BIG, OK_SMALL, gin_record_deal, ok_record_deal
from tests.conftest import NAMES, new_game, phone_cookie

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE: ViewportSize = {"width": 390, "height": 844}
GIN_NAMES = ["Ann", "Ben"]


def german(context: BrowserContext, url: str) -> None:
    """A phone that chose German before (the cookie Django's ``set_language`` leaves)."""
    context.add_cookies([{"name": "django_language", "value": "de", "url": url}])


def no_sideways_scroll(page: Page) -> None:
    """No sideways scroll, and no element wider than the screen: long German words wrap."""
    viewport = page.viewport_size
    assert viewport is not None
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    wide = page.evaluate(
        """() => [...document.querySelectorAll('main *, header *')].filter((e) => {
             const r = e.getBoundingClientRect();
             return r.width > 0 && r.right > document.documentElement.clientWidth + 1
               && !e.closest('.scroll') && getComputedStyle(e).position !== 'fixed';
           }).map((e) => e.tagName + '.' + e.className + ': ' + (e.textContent || '').trim().slice(0, 40))"""
    )
    assert wide == [], wide


def type_deal(page: Page, deal: dict) -> None:
    """Type an Oklahoma deal through the German labels: melds split by "/", cards held."""
    page.locator(f'input[name=out][value="{deal["out"]}"]').check()
    for seat, melds in deal["melds"].items():
        split = page.locator(f"#player-{seat} details.split")
        if split.get_attribute("open") is None:
            split.locator("summary").click()
        name = NAMES[seat]
        page.get_by_label(f"{name}: Meldungen, getrennt durch „/“", exact=True).fill(" / ".join(melds))
        page.get_by_label(f"{name}: In der Hand behalten", exact=True).fill(deal["held"][seat])


def type_gin(page: Page, deal: dict) -> None:
    """Type a Gin deal through the German labels: a spread (melds, deadwood) or all the cards."""
    page.get_by_label("Startkarte").fill(deal["upcard"])
    page.locator(f'input[name=knocker][value="{deal["knocker"]}"]').check()
    for seat, melds in deal["melds"].items():
        name = GIN_NAMES[seat]
        spread = page.locator(f"#player-{seat} details.split")
        if spread.get_attribute("open") is None:
            spread.locator("summary").click()
        page.get_by_label(f"{name}: Meldungen wie ausgelegt, getrennt durch „/“", exact=True).fill(" / ".join(melds))
        page.get_by_label(f"{name}: Restkarten", exact=True).fill(deal["deadwood"][seat])
        page.get_by_label(f"{name}: Karten", exact=True).fill(deal["cards"][seat])


def set_meld(page: Page, name: str, number: int, meld: str) -> None:
    field = page.get_by_label(f"{name}: Meldungen wie ausgelegt, getrennt durch „/“", exact=True)
    melds = field.input_value().split(" / ")
    melds[number - 1] = meld
    field.fill(" / ".join(melds))


def test_oklahoma_to_1000_in_german(page: Page, live_server, shot, console_errors):
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + "/games/new/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    # The header's switch: "DE" turns the phone German, and the phone keeps it.
    page.get_by_role("button", name="Deutsch").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("button", name="Partie beginnen")).to_be_visible()
    expect(page.get_by_role("button", name="English")).to_have_text("EN")
    page.get_by_label("Buchregeln", exact=False).check()
    page.get_by_label("Platz 1", exact=True).fill("Ann")
    page.get_by_label("Platz 2", exact=True).fill("Ben")
    page.get_by_label("Platz 3", exact=True).fill("Cleo")
    page.get_by_role("radio", name=re.compile("^Ben gibt zuerst")).check()
    page.get_by_text("Hausregeln").click()
    expect(page.get_by_label("K–8 in der Hand")).to_be_visible()
    no_sideways_scroll(page)
    shot(page, "de-oklahoma-1-new-game")
    page.get_by_role("button", name="Partie beginnen").click()

    expect(page.locator("html")).to_have_attribute("lang", "de")  # remembered on the next page
    expect(page.locator(".status")).to_contain_text("Als Nächstes gibt: Ben")
    expect(page.get_by_role("link", name=re.compile("^Unser Tisch"))).to_be_visible()  # the new table's name
    page.get_by_role("link", name="Runde 1 eingeben").click()

    # Deal 1: typed, a meld rejected in German then corrected, one hand tapped on the picker,
    # and the queen of spades typed once with the German letters (D for Dame).
    type_deal(page, OK_BIG)
    ben = page.get_by_label("Ben: Meldungen, getrennt durch „/“", exact=True)
    ben.fill("5S 6S 8S")
    page.get_by_label("Ben: In der Hand behalten", exact=True).focus()  # the field's check on leaving it
    feedback = page.locator("#id_p-1-melds_feedback")
    expect(feedback).to_contain_text("✗")
    expect(feedback).to_contain_text("nicht lückenlos: 7♠ fehlt, und kein Joker füllt die Lücke")
    expect(feedback).to_contain_text("— Folge: lückenlos, S0")  # the rule cited in German, its source as written
    expect(feedback).not_to_contain_text("sequence")
    shot(page, "de-oklahoma-2-rejected-meld")
    ben.fill("5S 6S 7S")
    expect(feedback).to_contain_text("✓ Folge")
    ann = page.get_by_label("Ann: Meldungen, getrennt durch „/“", exact=True)
    ann.fill(ann.input_value().replace("QS QH QD", "DS DH DD"))  # Dame: Pik, Herz, Karo
    expect(page.locator("#id_p-0-melds_feedback")).to_contain_text("✓ Satz")
    cleo = page.get_by_label("Cleo: In der Hand behalten", exact=True)
    cleo.fill("")
    cleo.focus()
    picker = page.get_by_role("group", name="Kartenauswahl")
    picker.get_by_role("button", name=re.compile(r"^Pik-Dame,")).click()
    picker.get_by_role("button", name=re.compile(r"^Kreuz-4,")).click()
    expect(cleo).to_have_value("QS 4C")
    # Q♠: one melded by Ann (typed "DS"), one held by Cleo: none left of the double pack
    expect(picker.get_by_role("button", name="Pik-Dame, 0 übrig")).to_be_disabled()
    expect(page.locator("#preview")).to_contain_text("+395")
    no_sideways_scroll(page)
    shot(page, "de-oklahoma-3-deal-entry")
    page.get_by_role("button", name="Runde speichern").click()
    expect(page.locator(".total").first).to_contain_text("395")

    page.get_by_role("link", name="Runde 2 eingeben").click()
    type_deal(page, OK_SMALL)
    expect(page.locator("#preview")).to_contain_text("+145")
    page.get_by_role("button", name="Runde speichern").click()
    expect(page.locator(".status")).to_contain_text("Als Nächstes gibt: Ben")

    # Edit deal 1: Cleo held only the 4♣ after all.
    page.get_by_role("link", name=re.compile("^Runde 1")).click()
    expect(page.get_by_role("heading", name="Runde 1", exact=True)).to_be_visible()
    shot(page, "de-oklahoma-4-deal-page")
    page.get_by_role("link", name="Runde bearbeiten").click()
    page.get_by_label("Cleo: In der Hand behalten", exact=True).fill("4C")
    page.get_by_role("button", name="Runde speichern").click()
    expect(page.locator(".total").nth(2)).to_contain_text("15")  # -5 then +20

    for n in (3, 4):
        page.get_by_role("link", name=f"Runde {n} eingeben").click()
        type_deal(page, OK_BIG)
        page.get_by_role("button", name="Runde speichern").click()
    expect(page.get_by_text("Ann gewinnt die Partie.")).to_be_visible()
    expect(page.get_by_role("heading", name="Endabrechnung")).to_be_visible()
    expect(page.locator(".final")).to_contain_text("1.380")  # German thousands
    expect(page.locator(".final")).not_to_contain_text("1,380")
    no_sideways_scroll(page)
    shot(page, "de-oklahoma-5-finished")
    assert not [e for e in console_errors if "Content Security Policy" in e], console_errors


def test_gin_to_its_target_in_german(page: Page, live_server, shot, console_errors):
    german(page.context, live_server.url)
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + "/games/new/")
    page.get_by_role("button", name="Oklahoma Gin").click()
    page.get_by_label("Standard", exact=False).check()
    page.get_by_label("Platz 1", exact=True).fill("Ann")
    page.get_by_label("Platz 2", exact=True).fill("Ben")
    no_sideways_scroll(page)
    shot(page, "de-gin-1-new-game")
    page.get_by_role("button", name="Partie beginnen").click()
    expect(page.locator(".status")).to_contain_text("Als Nächstes gibt: Ann")
    shot(page, "de-gin-2-board")

    page.get_by_role("link", name="Runde 1 eingeben").click()
    type_gin(page, GIN_BIG)
    # A run with the ace high is rejected beside the meld, in German, then corrected.
    set_meld(page, "Ann", 3, "JH QH KH AH")
    expect(page.locator("#id_p-0-melds_check")).to_contain_text("✗")
    expect(page.locator("#id_p-0-melds_error")).to_contain_text("zählt das Ass nur niedrig")
    shot(page, "de-gin-3-rejected-meld")
    set_meld(page, "Ann", 3, "10H BH DH KH")  # B for Bube, D for Dame
    expect(page.locator("#id_p-0-melds_error")).to_have_count(0)
    expect(page.locator("#id_p-0-melds_check")).to_contain_text("✓ Folge")
    expect(page.locator("#preview")).to_contain_text("+164")
    no_sideways_scroll(page)
    page.get_by_role("button", name="Runde speichern").click()
    expect(page.locator(".total").first).to_contain_text("164")

    page.get_by_role("link", name="Runde 2 eingeben").click()
    type_gin(page, GIN_KNOCK)
    page.get_by_role("button", name="Runde speichern").click()
    expect(page.locator(".total").nth(1)).to_contain_text("57")

    # The deal page: the German outcome words, the arrangement and the layoffs.
    page.get_by_role("link", name=re.compile("^Runde 2")).click()
    main = page.locator("main")
    expect(main).to_contain_text("hat geklopft")
    expect(page.locator(".player-deal").first).to_contain_text("Restkarten")
    expect(main).not_to_contain_text("knocked")
    expect(main).not_to_contain_text("Deadwood")
    no_sideways_scroll(page)
    shot(page, "de-gin-4-deal-page")

    # Edit deal 2: the upcard was a spade after all: every point doubled.
    page.get_by_role("link", name="Runde bearbeiten").click()
    page.get_by_label("Startkarte").fill("10S")
    expect(page.locator("#preview")).to_contain_text("+114")
    expect(page.locator("#preview")).to_contain_text("Pik")
    shot(page, "de-gin-5-spade-upcard")
    page.get_by_role("button", name="Runde speichern").click()
    expect(page.locator(".total").nth(1)).to_contain_text("114")

    page.get_by_role("link", name="Runde 3 eingeben").click()
    type_gin(page, GIN_BIG)
    page.get_by_role("button", name="Runde speichern").click()
    expect(page.get_by_text("Ann gewinnt die Partie.")).to_be_visible()
    expect(page.get_by_role("heading", name="Endabrechnung")).to_be_visible()
    expect(page.locator(".final")).to_contain_text("428")
    no_sideways_scroll(page)
    shot(page, "de-gin-6-finished")
    assert not [e for e in console_errors if "Content Security Policy" in e], console_errors


def test_a_german_and_an_english_phone_watch_one_game_live(
    browser: Browser, live_server, table, scorer, follower, shot
):
    game = new_game(table, kind="oklahoma-gin", profile="standard", players=GIN_NAMES, first_dealer=0)
    url = f"{live_server.url}/games/{game.pk}/"
    pages: dict[str, Page] = {}
    contexts = []
    for lang, device in (("de", follower), ("en", scorer)):
        context = browser.new_context(viewport=PHONE, locale=lang)
        contexts.append(context)
        cookies = [{"name": access.COOKIE, "value": phone_cookie(device), "url": live_server.url}]
        cookies.append({"name": "django_language", "value": lang, "url": live_server.url})
        context.add_cookies(cookies)  # type: ignore[arg-type]
        pages[lang] = context.new_page()
        pages[lang].goto(url)
        expect(pages[lang].locator("html")).to_have_attribute("lang", lang)
        expect(pages[lang].locator("#live")).to_be_visible()
    pages["de"].wait_for_timeout(500)  # both streams are open

    # A third client saves Ben's knock: both phones show it, each in its own language.
    deal_services.add_deal(game=game, deal=gin_record_deal(GIN_KNOCK, GIN_NAMES), by=scorer)
    de, en = pages["de"].locator("#live"), pages["en"].locator("#live")
    expect(de).to_contain_text("57", timeout=5000)
    expect(en).to_contain_text("57", timeout=5000)
    expect(de).to_contain_text("Ben hat geklopft")  # the new deal's outcome, in each phone's words
    expect(en).to_contain_text("Ben knocked")
    expect(de).to_contain_text("Als Nächstes gibt: Ben")
    expect(en).to_contain_text("Ben deals next")
    for text in ("knock", "deals next", "leads", "to win"):
        expect(de).not_to_contain_text(text)
    for text in ("Klopfen", "gibt als", "führt", "zum Sieg"):
        expect(en).not_to_contain_text(text)
    shot(pages["de"], "de-live-german-phone")
    shot(pages["en"], "de-live-english-phone")
    for context in contexts:
        context.close()


def test_chicago_and_berlin_see_one_change_at_their_own_times(browser: Browser, live_server, table, follower, shot):
    game = new_game(table, deals=[ok_record_deal(OK_SMALL, NAMES)], first_dealer=0)
    change = Change.objects.filter(game=game).latest("at")
    seen: dict[str, str] = {}
    for zone, lang in (("America/Chicago", "en"), ("Europe/Berlin", "de")):
        context = browser.new_context(viewport=PHONE, timezone_id=zone)
        context.add_cookies(
            [
                {"name": access.COOKIE, "value": phone_cookie(follower), "url": live_server.url},
                {"name": "django_language", "value": lang, "url": live_server.url},
            ]
        )
        page = context.new_page()
        page.goto(f"{live_server.url}/history/{game.pk}/changes/")
        local = change.at.astimezone(zoneinfo.ZoneInfo(zone))
        when = page.locator(f"#change-{change.pk} time")
        # The first page a phone opens: app.js writes the time in the phone's zone (the server's is
        # UTC), with no reload, and says the zone in the tz cookie.
        expect(when).to_contain_text(local.strftime("%H:%M:%S"))
        assert datetime.fromisoformat(when.get_attribute("datetime") or "") == change.at
        assert {c["name"]: c["value"] for c in context.cookies()}.get("tz", "").replace("%2F", "/") == zone
        seen[zone] = when.inner_text()
        shot(page, f"de-changes-{zone.split('/')[1].lower()}")
        context.close()
    assert seen["America/Chicago"] != seen["Europe/Berlin"], seen
