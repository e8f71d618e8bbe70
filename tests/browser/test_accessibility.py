"""axe-core on every page a player opens, in light and dark mode, at a phone's size: no violation
(WCAG 2 A/AA and axe's best practices: landmarks, names of every control, contrast, unique regions)."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser

from scorekeeper.table import access
from scorekeeper.table.hands import services as hand_services
from scorekeeper.table.phones import services as phone_services
from tests.app_data import GIN_BIG, OK_BIG, gin_record_deal, ok_record_deal
from tests.conftest import NAMES, new_game, phone_cookie

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_axe_violation_on_any_page(browser: Browser, live_server, table, scorer, scheme):
    ok = new_game(table, players=NAMES, first_dealer=0, deals=[ok_record_deal(OK_BIG, NAMES)])
    gin = new_game(
        table,
        kind="oklahoma-gin",
        profile="standard",
        players=["Ann", "Ben"],
        deals=[gin_record_deal(GIN_BIG, ["Ann", "Ben"])],
    )
    deal = ok.deals.get()
    # A deal the players enter on their phones, one hand in with a card too many; a points-only deal.
    own = new_game(table, players=NAMES, first_dealer=0)
    phone_services.sit(game=own, position=1, phone=scorer, by=scorer)
    hand_services.open_deal(game=own, by=scorer)
    hand_services.submit_hand(game=own, seat=0, hand={"melded": ["QS", "QS", "QS"], "held": ["4C"]}, by=scorer)
    typed = new_game(table, players=NAMES, deals=[{"points": {"Ann": 120, "Ben": -35, "Cleo": 40}}])
    pages = [
        f"/games/{own.pk}/",
        f"/games/{own.pk}/open/hands/0/",
        f"/games/{own.pk}/open/hands/1/",
        f"/games/{typed.pk}/deals/points/",
        f"/games/{typed.pk}/deals/{typed.deals.get().pk}/",
        f"/history/{typed.pk}/changes/",
        "/",
        "/games/new/",
        f"/games/{ok.pk}/",
        f"/games/{ok.pk}/deals/new/",
        f"/games/{ok.pk}/deals/{deal.pk}/",
        f"/games/{ok.pk}/deals/{deal.pk}/edit/",
        f"/games/{gin.pk}/",
        f"/games/{gin.pk}/deals/new/",
        f"/history/{ok.pk}/",
        f"/history/{ok.pk}/changes/",
        f"/history/{ok.pk}/rescore/",
        "/history/",
        "/players/",
        f"/tables/{table.pk}/",
        "/rules/",
        "/rules/oklahoma/book/book/",
        "/rules/oklahoma-gin/standard/book/?hollywood=true",
        "/check/",
        "/check/?kind=meld&cards=QS+QS+QS",
        "/history/import/",
        "/offline/",
        "/no/such/page/",
    ]
    context = browser.new_context(color_scheme=scheme, viewport={"width": 390, "height": 844})
    context.add_cookies([{"name": access.COOKIE, "value": phone_cookie(scorer), "url": live_server.url}])
    page = context.new_page()
    axe = Axe()
    found = {}
    for path in pages:
        page.goto(live_server.url + path)
        violations = axe.run(page).response["violations"]
        if violations:
            found[path] = [(v["id"], [n["target"] for n in v["nodes"][:3]]) for v in violations]
    context.close()
    assert found == {}
