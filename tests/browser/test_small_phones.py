"""A seated phone's hand on a small phone (issue 38), at 390×844 and 360×740, in English and German: a
scoring phone at a table of four has *Save deal N* on screen when the last hand arrives, live; *Next
deal: enter my hand* opens this phone's own hand form (after a deal saved live, too), whose picker
sends with the form's own verb."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from scorekeeper.table import access
from scorekeeper.table.hands import services as hand_services
from scorekeeper.table.models import Device
from scorekeeper.table.phones import services as phone_services
from scorekeeper.table.scoring import deals as deal_services
from tests.conftest import new_game, phone_cookie

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES4 = ["Annabelle", "Benjamin", "Cleopatra", "Dominic"]
RUNS = [["3D", "4D", "5D"], ["9C", "10C", "JC"], ["KC", "KD", "KH"], ["QS", "QH", "QD"]]
SINGLES = ["5S", "6S", "7S", "8S"]
SIZES = [(390, 844), (360, 740)]
WORDS = {
    "en": {
        "save": "Save deal {n}",
        "open": "Next deal: enter my hand",
        "hand": "Deal {n}: Benjamin's hand",
        "send": "Send",
        "promise": "the scorer saves the deal once every hand is in",
    },
    "de": {
        "save": "Runde {n} speichern",
        "open": "Nächste Runde: meine Hand eingeben",
        "hand": "Runde {n}: Hand von Benjamin",
        "send": "Senden",
        "promise": "der Schreiber speichert die Runde, sobald alle Hände da sind",
    },
}


def _hand(seat: int, out: int) -> dict:
    return {"melds": RUNS, "held": []} if seat == out else {"melds": [], "held": [SINGLES[seat]]}


def _facts(out: int) -> dict:
    return {"out": NAMES4[out], "first_turn": False, "concealed": False}


def _phone(browser: Browser, url: str, device: Device, size: tuple[int, int], lang: str) -> Page:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.add_cookies(
        [
            {"name": access.COOKIE, "value": phone_cookie(device), "url": url},
            {"name": "django_language", "value": lang, "url": url},
        ]
    )
    return context.new_page()


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
def test_save_deal_is_on_screen_when_the_last_hand_arrives(browser, live_server, table, scorer, shot, size, lang):
    game = new_game(table, kind="oklahoma", profile="book", players=NAMES4, first_dealer=0)
    deal_services.add_deal(game=game, deal={**_facts(3), "hands": {n: _hand(i, 3) for i, n in enumerate(NAMES4)}})
    row = hand_services.open_deal(game=game, by=scorer)
    for seat in range(3):
        facts = _facts(0) if seat == 0 else None
        hand_services.submit_hand(game=game, seat=seat, hand=_hand(seat, 0), facts=facts, number=row.number, by=scorer)
    page = _phone(browser, live_server.url, scorer, size, lang)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("#open-hand-2")).to_have_attribute("data-state", "in")
    save = page.get_by_role("button", name=WORDS[lang]["save"].format(n=2))
    expect(save).to_have_count(0)
    # The last hand arrives (another phone sends it): the page, as it is, shows the Save.
    hand_services.submit_hand(game=game, seat=3, hand=_hand(3, 0), number=row.number, by=scorer)
    expect(save).to_be_visible()
    box = save.bounding_box()
    assert box and box["y"] + box["height"] <= size[1], box
    expect(page.locator("#open-deal table.preview")).to_contain_text("Dominic")
    shot(page, f"own-hands-4-complete-{lang}-{size[0]}")
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
def test_next_deal_enter_my_hand_opens_this_phones_hand_form(
    browser, live_server, table, scorer, follower, shot, size, lang
):
    words = WORDS[lang]
    game = new_game(table, kind="oklahoma", profile="book", players=NAMES4, first_dealer=0)
    phone_services.sit(game=game, position=1, phone=follower, by=follower)
    row = hand_services.open_deal(game=game, by=scorer)
    page = _phone(browser, live_server.url, follower, size, lang)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("#open-deal")).to_be_visible()
    # The others send their hands and the scorer saves deal 1: Ben's page follows, live.
    for seat in range(4):
        facts = _facts(1) if seat == 0 else None
        hand_services.submit_hand(game=game, seat=seat, hand=_hand(seat, 1), facts=facts, number=row.number, by=scorer)
    hand_services.save_open_deal(game=game, by=scorer)
    expect(page.locator("#open-deal")).to_have_count(0)
    page.get_by_role("button", name=words["open"]).click()
    expect(page.get_by_role("heading", name=words["hand"].format(n=2))).to_be_visible()
    assert page.url.endswith(f"/games/{game.pk}/open/hands/1/"), page.url
    # One verb for one act: the picker's key sends, as the form's button does; the form says who saves.
    picker = page.get_by_role("group", name="Card picker" if lang == "en" else "Kartenauswahl")
    expect(picker.get_by_role("button", name=words["send"], exact=True)).to_be_visible()
    expect(page.locator("#preview")).to_contain_text(words["promise"])
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    shot(page, f"own-hand-form-{lang}-{size[0]}")
    page.context.close()
