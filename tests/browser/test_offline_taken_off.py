"""A phone taken off a table keeps nothing of it offline (issue 37, defect 10): when the server says
so (the stream's ``gone``, then the page's 403 that names the table), its service worker drops every
kept page of the table and the page the drafts of its deals — with its cookies cleared and offline,
the phone shows none of the table's pages. *Take access away* replaces the table's links, which the
phone's kept table page held: a new phone cannot join by the old one, and the scorer sees the new
code. Kept pages expire: at most ``webapp.KEPT_PAGES``, none older than ``webapp.KEPT_DAYS``."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from scorekeeper.table import access, webapp
from scorekeeper.table.models import Device, Game, Role, Table
from scorekeeper.table.phones import services as phone_services
from tests.conftest import NAMES, new_game, phone_cookie

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = pytest.mark.parametrize("size", [(390, 844), (360, 740)], ids=["390x844", "360x740"])
KEPT = "caches.open('pages-v2').then(c => c.keys()).then(ks => ks.map(k => new URL(k.url).pathname))"
DRAFTS = "Object.keys(localStorage).filter(k => k.startsWith('draft:')).map(k => JSON.parse(localStorage[k]).table)"


@pytest.fixture
def phone(browser: Browser, live_server, table: Table, scorer: Device) -> Iterator[tuple[Page, Device]]:
    """Ben's phone, a second phone that scores at the table (beside ``scorer``), in a browser of its own."""
    device = Device.objects.create(table=table, name="Ben's phone", role=Role.SCORE)
    context: BrowserContext = browser.new_context()
    context.add_cookies([{"name": access.COOKIE, "value": phone_cookie(device), "url": live_server.url}])
    yield context.new_page(), device
    context.close()


def _with_worker(page: Page, url: str) -> None:
    page.goto(url)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("!!navigator.serviceWorker.controller")


def _keep_the_table(page: Page, base: str, game: Game) -> list[str]:
    """The phone opens the table's pages while its worker runs (each kept) and types a deal (a
    draft); the pages kept."""
    table = game.table_id
    _with_worker(page, f"{base}/games/{game.pk}/")
    for path in (f"/tables/{table}/", f"/history/{game.pk}/", "/rules/", "/", f"/games/{game.pk}/deals/new/"):
        page.goto(base + path)
    page.locator("#id_p-0-held").fill("QS QH")
    page.wait_for_function("() => Object.keys(localStorage).some(k => k.startsWith('draft:'))")
    assert page.evaluate(DRAFTS) == [str(table)]
    page.goto(f"{base}/games/{game.pk}/")
    kept = page.evaluate(KEPT)
    assert {f"/games/{game.pk}/", f"/tables/{table}/", f"/history/{game.pk}/", "/rules/", "/"} <= set(kept), kept
    return kept


def _offline_shows_nothing_of(page: Page, base: str, game: Game) -> None:
    """With its cookies cleared and no connection: no page of the table; the rule book still."""
    page.context.clear_cookies()
    page.context.set_offline(True)
    for path in (f"/games/{game.pk}/", f"/tables/{game.table_id}/", f"/history/{game.pk}/", "/"):
        page.goto(base + path)
        expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    page.goto(f"{base}/rules/")
    expect(page.locator(".saved-copy")).to_be_visible()
    page.context.set_offline(False)


@SIZES
def test_a_phone_told_at_once_drops_the_table_s_pages_and_drafts(phone, live_server, table, scorer, shot, size):
    page, ben = phone
    page.set_viewport_size({"width": size[0], "height": size[1]})
    phone_services.create_link(table=table, role=Role.FOLLOW, by=scorer)
    game = new_game(table, players=NAMES, first_dealer=0)
    _keep_the_table(page, live_server.url, game)
    page.wait_for_timeout(500)  # the game page's stream is open

    phone_services.revoke_device(device=ben, by=scorer)  # the stream says "gone": the page reloads
    expect(page.get_by_role("heading", name="The scorer took this phone off the table")).to_be_visible(timeout=5000)
    shot(page, f"taken-off-{size[0]}")
    assert page.evaluate(KEPT) == ["/rules/"]  # the table's pages, and the list of its games, are gone
    assert page.evaluate(DRAFTS) == []
    _offline_shows_nothing_of(page, live_server.url, game)


def test_a_phone_that_meets_a_403_of_the_kind_drops_them_too(phone, live_server, table, scorer):
    """Not watching a game when it was taken off (the rule book open): the next page of the table it
    opens answers 403, which names the table."""
    page, ben = phone
    other, _ = phone_services.create_table(name="Other", device_name="Ben's other phone")
    theirs = Device.objects.create(table=other, name="Ben at the other table", role=Role.SCORE)
    page.context.add_cookies([{"name": access.COOKIE, "value": phone_cookie(ben, theirs), "url": live_server.url}])
    game, elsewhere = new_game(table, players=NAMES, first_dealer=0), new_game(other, players=NAMES, first_dealer=0)
    _keep_the_table(page, live_server.url, game)
    page.goto(f"{live_server.url}/games/{elsewhere.pk}/")
    page.goto(f"{live_server.url}/rules/")
    phone_services.revoke_device(device=ben, by=scorer)
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    expect(page.get_by_role("heading", name="The scorer took this phone off the table")).to_be_visible()
    assert sorted(page.evaluate(KEPT)) == sorted(["/rules/", f"/games/{elsewhere.pk}/"])
    assert page.evaluate(DRAFTS) == []
    _offline_shows_nothing_of(page, live_server.url, game)


# The scorer's words, in English at 390 px and in German at 360 px.
WORDS = {
    "en": ("The link to follow", "Take access away", "The table's links are new", "QR code of the link to follow"),
    "de": (
        "Der Link zum Zuschauen",
        "Zugang entziehen",
        "Die Links des Tisches sind neu",
        "QR-Code des Links zum Zuschauen",
    ),
}


@pytest.mark.parametrize("size, language", [((390, 844), "en"), ((360, 740), "de")], ids=["390x844", "360x740-de"])
def test_taking_access_away_replaces_the_links_the_phone_knew(
    scorer_page: Page, browser: Browser, live_server, table, scorer, shot, size, language
):
    """The scorer takes Ben's phone off: the table's link to follow is a new one (the page says so and
    shows its code); a new phone opening the old link is told it does not work, the new one works."""
    page = scorer_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    link, take_away, said, code = WORDS[language]
    ben = Device.objects.create(table=table, name="Ben's phone", role=Role.SCORE)
    phone_services.create_link(table=table, role=Role.FOLLOW, by=scorer)
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    old = page.get_by_role("textbox", name=link).input_value()
    take = page.locator(f"#phone-{ben.pk}").get_by_role("button", name=take_away)
    take.click()
    take.click()  # the second tap confirms
    expect(page.locator(".messages")).to_contain_text(said)
    new = page.get_by_role("textbox", name=link).input_value()
    assert new != old and re.search(r"/join/[\w-]+/$", new)
    expect(page.get_by_role("img", name=code)).to_be_visible()
    shot(page, f"links-renewed-{size[0]}-{language}")

    stranger = browser.new_context().new_page()
    stranger.goto(old)
    expect(stranger.get_by_role("heading", name="This link does not work")).to_be_visible()
    stranger.goto(new)
    expect(stranger.get_by_role("heading", name=re.compile("Join"))).to_be_visible()
    stranger.context.close()


def test_kept_pages_expire_by_age_and_by_count(scorer_page: Page, live_server, table):
    page = scorer_page
    game = new_game(table, players=NAMES, first_dealer=0)
    _with_worker(page, f"{live_server.url}/games/{game.pk}/")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    day = 24 * 3600 * 1000
    # Too old: the copy of the game page saved over KEPT_DAYS ago is not shown.
    page.evaluate(
        """([url, at]) => caches.open('pages-v2').then(async c => {
            const kept = await c.match(url);
            const headers = new Headers(kept.headers);
            headers.set('X-Saved-At', String(at));
            await c.put(url, new Response(await kept.text(), {status: 200, headers}));
        })""",
        [f"{live_server.url}/games/{game.pk}/", time.time() * 1000 - (webapp.KEPT_DAYS + 1) * day],
    )
    page.context.set_offline(True)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    page.context.set_offline(False)
    # Too many: KEPT_PAGES + 20 copies saved before; one more page opened: the oldest go.
    page.evaluate(
        """([base, count]) => caches.open('pages-v2').then(c => Promise.all(
            Array.from({length: count}, (_, i) => c.put(base + '/old/' + i + '/', new Response('old', {
                status: 200, headers: {'Content-Type': 'text/html', 'X-Saved-At': String(Date.now() - 3600e3 + i)},
            })))))""",
        [live_server.url, webapp.KEPT_PAGES + 20],
    )
    page.goto(f"{live_server.url}/rules/")
    deadline = time.monotonic() + 15
    while len(kept := page.evaluate(KEPT)) > webapp.KEPT_PAGES and time.monotonic() < deadline:
        page.wait_for_timeout(200)  # the worker prunes after it answered
    assert len(kept) == webapp.KEPT_PAGES and "/rules/" in kept and f"/games/{game.pk}/" not in kept
    assert "/old/0/" not in kept and f"/old/{webapp.KEPT_PAGES + 19}/" in kept  # the oldest went
