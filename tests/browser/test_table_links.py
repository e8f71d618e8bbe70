"""The table page by hand: Copy and Share beside each link, and a second tap to take a link or a
phone away (a first tap alone changes nothing)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.table.models import Device, Link, Role

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MOCK_SHARE = """window.__shared = [];
navigator.share = (data) => { window.__shared.push(data.url); return Promise.resolve(); };"""


@pytest.mark.parametrize("size", [(390, 844), (360, 740)], ids=["390x844", "360x740"])
def test_copy_and_share_a_link(scorer_page: Page, live_server, table, shot, size):
    page = scorer_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page.add_init_script(MOCK_SHARE)
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    page.get_by_role("button", name="Show a link to follow").click()
    url = page.get_by_role("textbox", name="The link to follow").input_value()
    page.get_by_role("button", name="Copy the link to follow").click()
    expect(page.get_by_role("button", name="Copy the link to follow")).to_have_text("Copied ✓")
    assert page.evaluate("navigator.clipboard.readText()") == url
    page.get_by_role("button", name="Share the link to follow").click()
    assert page.evaluate("window.__shared") == [url]
    shot(page, f"table-share-{size[0]}")


def test_revoke_and_take_access_away_ask_for_a_second_tap(scorer_page: Page, live_server, table):
    page = scorer_page
    Device.objects.create(table=table, name="Ben's phone", role=Role.FOLLOW)
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    page.get_by_role("button", name="Show a link to follow").click()
    revoke = page.locator(".invite").get_by_role("button", name="Revoke")
    revoke.click()
    expect(revoke).to_have_text("Tap again: revoke")
    assert Link.objects.filter(table=table, revoked__isnull=True).count() == 1  # not yet
    take = page.locator("li", has_text="Ben's phone").get_by_role("button", name="Take access away")
    take.click()
    expect(take).to_have_text("Tap again: take access away")
    assert Device.objects.filter(table=table, name="Ben's phone").exists()
    take.click()
    expect(page.get_by_text("Ben's phone no longer has access")).to_be_visible()
