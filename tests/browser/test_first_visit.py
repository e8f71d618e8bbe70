"""A phone's first visit (issue 38): its first page shows every time in the phone's own zone, in the
page's language, with no reload — the server cannot know the zone yet (it writes its own, UTC here)
and app.js writes the times again — and says the zone in the ``tz`` cookie for the next pages,
which the server then writes in it."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime

import pytest
from django.utils import dateformat, formats, translation
from playwright.sync_api import Browser, Page, expect

from scorekeeper.table import access
from scorekeeper.table.models import Game
from tests.app_data import OK_SMALL, ok_record_deal
from tests.conftest import NAMES, new_game, phone_cookie

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Half past eleven at night in UTC: the next day, and another month, in Auckland (UTC+13 in summer).
LATE = datetime(2026, 11, 30, 23, 30, 15, 123456, tzinfo=UTC)


def _written(at: datetime, zone: str, lang: str, *names: str) -> str:
    """The time as Django writes it on a page in ``lang`` for a phone in ``zone``."""
    with translation.override(lang):
        pattern = ", ".join(str(formats.get_format(n)) for n in names)
        return dateformat.format(at.astimezone(zoneinfo.ZoneInfo(zone)), pattern)


def _first_visit(browser: Browser, url: str, device, zone: str, lang: str) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport={"width": 360, "height": 740}, timezone_id=zone)
    context.add_cookies(
        [
            {"name": access.COOKIE, "value": phone_cookie(device), "url": url},
            {"name": "django_language", "value": lang, "url": url},
        ]
    )
    page = context.new_page()
    documents: list[str] = []
    page.on("framenavigated", lambda frame: documents.append(frame.url) if frame == page.main_frame else None)
    return page, documents


@pytest.mark.parametrize(
    ("zone", "lang"), [("Pacific/Auckland", "en"), ("Europe/Berlin", "de"), ("America/Chicago", "de")]
)
def test_the_first_page_shows_the_phones_times_with_no_reload(browser, live_server, table, scorer, shot, zone, lang):
    game = new_game(table, players=NAMES, first_dealer=0, deals=[ok_record_deal(OK_SMALL, NAMES)])
    Game.objects.filter(pk=game.pk).update(created=LATE, updated=LATE)
    for path, names in (("/", ("SHORT_DATETIME_FORMAT",)), (f"/history/{game.pk}/", ("DATE_FORMAT", "TIME_FORMAT"))):
        page, documents = _first_visit(browser, live_server.url, scorer, zone, lang)
        page.goto(live_server.url + path)
        time = page.locator(f"time[datetime^='{LATE.date().isoformat()}']").first
        expect(time).to_have_text(_written(LATE, zone, lang, *names))
        page.wait_for_timeout(1500)  # a reload would have started by now
        assert documents == [live_server.url + path], documents
        cookies = {c["name"]: c["value"] for c in page.context.cookies()}
        assert cookies.get("tz", "").replace("%2F", "/") == zone
        shot(page, f"first-visit-{lang}-{zone.split('/')[1].lower()}-{'home' if path == '/' else 'review'}")
        # The next page comes from the server in the phone's zone, and app.js leaves it as it is.
        page.reload()
        expect(page.locator("time").first).to_have_text(_written(LATE, zone, lang, *names))
        page.context.close()


def test_every_time_on_the_pages_is_filled_in(browser, live_server, table, scorer):
    """Every ``<time>`` of the pages a first visit may open says the format it is written in, so that
    app.js can write it in the phone's zone (those in a sentence of the table page are written by the
    server, in the zone the phone said: it opens that page only after another one)."""
    game = new_game(table, players=NAMES, first_dealer=0, deals=[ok_record_deal(OK_SMALL, NAMES)])
    page, _ = _first_visit(browser, live_server.url, scorer, "Asia/Kolkata", "en")
    for path in ("/", f"/history/{game.pk}/", "/history/", f"/history/{game.pk}/changes/"):
        page.goto(live_server.url + path)
        assert page.locator("time").count() >= 1, path
        assert page.locator("time:not([data-format])").count() == 0, path
    page.context.close()
