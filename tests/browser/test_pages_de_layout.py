"""The history pages, the rule book and the checker in German on small phones (390×844 and 360×740):
long German words must not push the page wider than the screen. Screenshots: pages-<name>-<width>.png."""

from __future__ import annotations

import pytest

from scorekeeper.table.scoring import deals as deal_services
from tests.app_data import GIN_BIG, GIN_KNOCK, OK_BIG, OK_SMALL, gin_record_deal, ok_record_deal
from tests.conftest import NAMES, new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = ((390, 844), (360, 740))


@pytest.fixture
def german_games(table):
    names = ["Annabel-Sophie", *NAMES[1:]]
    ok = new_game(
        table,
        kind="oklahoma",
        profile="book",
        players=names,
        first_dealer=0,
        deals=[ok_record_deal(d, names) for d in (OK_BIG, OK_SMALL)],
    )
    gin = new_game(
        table,
        kind="oklahoma-gin",
        profile="standard",
        players=["Ann", "Ben"],
        deals=[gin_record_deal(d, ["Ann", "Ben"]) for d in (GIN_KNOCK, GIN_BIG)],
    )
    deal_services.edit_deal(
        game=ok, deal_id=ok.deals.get(number=2).pk, version=None, deal=ok_record_deal(OK_SMALL, names)
    )
    return ok, gin


def test_the_german_pages_fit_small_phones(scorer_page, live_server, german_games, shot):
    ok, gin = german_games
    page = scorer_page
    page.context.add_cookies([{"name": "django_language", "value": "de", "url": live_server.url}])
    player = ok.seats.get(position=0).player_id
    pages = {
        "games": "/history/",
        "players": "/players/",
        "player": f"/players/{player}/",
        "review-ok": f"/history/{ok.pk}/",
        "review-gin": f"/history/{gin.pk}/",
        "changes": f"/history/{ok.pk}/changes/",
        "rescore": f"/history/{ok.pk}/rescore/?profile=laws",
        "import": "/history/import/",
        "rules": "/rules/",
        "book-ok": "/rules/oklahoma/book/book/",
        "book-gin": "/rules/oklahoma-gin/party/book/",
        "checker-meld": "/check/?kind=meld&cards=QS+QH+2C%3DQD",
        "checker-knock": "/check/?kind=knock&upcard=7S&cards=3C+4C+5C+9D+9H+9S+JH+QH+KH+2S",
    }
    too_wide = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        for name, url in pages.items():
            page.goto(live_server.url + url)
            assert page.locator("html").get_attribute("lang") == "de"
            # Open every <details> so that what it hides is measured and seen too.
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            wide = page.evaluate(
                """() => {
                    const w = document.documentElement.clientWidth;
                    const out = [];
                    const page = document.documentElement.scrollWidth;
                    if (page > w) out.push('page ' + page);
                    for (const el of document.querySelectorAll('main *')) {
                        if (el.closest('.scroll, pre, svg, table')) continue;  // scroll sideways by design
                        const r = el.getBoundingClientRect();
                        if (r.width && r.right > w + 1) {
                            out.push(el.tagName + '.' + el.className + ' ' + Math.round(r.right));
                        }
                    }
                    return out.slice(0, 5);
                }"""
            )
            if wide:
                too_wide.append(f"{name} at {width}: {wide}")
            if name == "player":  # the head to head's four columns fit without scrolling sideways
                box = page.locator(".scroll:has(> table.h2h)")
                if box.evaluate("b => b.scrollWidth > b.clientWidth"):
                    too_wide.append(f"player at {width}: the head to head scrolls sideways")
            shot(page, f"pages-{name}-{width}")
    assert not too_wide, "\n".join(too_wide)
