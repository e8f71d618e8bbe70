"""The app's own pages for 400, 403, 404 and 500: in its layout, saying what happened and what to
do; a refused save shows back the cards it carried."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.table.models import Device, Role
from scorekeeper.table.phones import services as phone_services
from tests.app_data import OK_SMALL, ok_post
from tests.conftest import as_phone

pytestmark = pytest.mark.django_db


def test_a_demoted_phone_saving_gets_our_403_with_its_cards(ok_game, scorer):
    demoted = Device.objects.create(table=ok_game.table, name="Ben's phone", role=Role.FOLLOW)
    phone = as_phone(Client(), demoted)
    r = phone.post(reverse("table:deal_new", args=[ok_game.pk]), ok_post(OK_SMALL))
    assert r.status_code == 403
    page = r.content.decode()
    assert "Not allowed on this phone" in page and 'class="brand"' in page  # the app's layout
    assert "Let it score" in page
    for cards in ("9C 10C JC / 6H 6D 6C", "KC KD KH", "3D 4D 5D"):
        assert cards.split(" / ")[0] in page, cards


def test_a_stranger_gets_our_404():
    r = Client().get("/games/9223372036854775808/")
    assert r.status_code == 404 and "Not found" in r.content.decode() and 'class="brand"' in r.content.decode()


def test_the_400_and_500_pages_are_ours(settings):
    from django.test import RequestFactory

    from scorekeeper import error_pages

    request = RequestFactory().get("/")
    for response, status, words in [
        (error_pages.bad_request(request, None), 400, "Not understood"),
        (error_pages.server_error(request), 500, "Something went wrong"),
    ]:
        assert response.status_code == status
        assert words in response.content.decode() and "<style>" in response.content.decode()


def test_an_out_of_date_form_gets_our_csrf_page(ok_game, scorer):
    phone = as_phone(Client(enforce_csrf_checks=True), scorer)
    r = phone.post(reverse("table:deal_new", args=[ok_game.pk]), ok_post(OK_SMALL))
    assert r.status_code == 403 and "This page was out of date" in r.content.decode()


def test_the_import_link_is_shown_only_to_a_phone_that_may_import(ok_game, scorer):
    listing = reverse("history:games")
    assert "Import game records" in as_phone(Client(), scorer).get(listing).content.decode()
    follower = Device.objects.create(table=ok_game.table, name="Ben's phone", role=Role.FOLLOW)
    assert "Import game records" not in as_phone(Client(), follower).get(listing).content.decode()
    assert "Import game records" not in Client().get(listing).content.decode()


def test_taking_a_phone_off_replaces_the_links_it_knew(client, ok_game, scorer):
    """Its table page or its history holds them: with its cookie cleared it would join again by them
    as a new phone. The link to follow is replaced whoever is taken off; a link to score when the
    phone scored (its table page showed it). The scorer is told, and its page shows the new code."""
    table = ok_game.table
    follow = phone_services.create_link(table=table, role=Role.FOLLOW, by=scorer)
    score = phone_services.create_link(table=table, role=Role.SCORE, by=scorer)
    follower = Device.objects.create(table=table, name="Ben's phone", role=Role.FOLLOW)
    second = Device.objects.create(table=table, name="Cleo's phone", role=Role.SCORE)

    r = client.post(reverse("table:phone_revoke", args=[table.pk, follower.pk]), follow=True)
    assert "links are new" in r.content.decode()
    (renewed,) = table.links.filter(revoked__isnull=True, role=Role.FOLLOW)
    assert renewed.token in r.content.decode() and follow.token not in r.content.decode()
    assert table.links.get(pk=score.pk).revoked is None  # a follower never saw it
    for token, answer in ((follow.token, 404), (renewed.token, 200)):
        assert Client().get(reverse("table:join", args=[token])).status_code == answer
    assert Client().post(reverse("table:join", args=[follow.token]), {"name": "New phone"}).status_code == 404

    phone_services.revoke_device(device=second, by=scorer)
    assert table.links.get(pk=score.pk).revoked is not None and table.links.get(pk=renewed.pk).revoked is not None
    assert table.links.filter(revoked__isnull=True, role=Role.SCORE).count() == 1
    assert Device.objects.filter(table=table, revoked__isnull=True).count() == 1


def test_the_pages_of_a_table_say_so_and_its_403_names_it(client, ok_game, scorer):
    """For the phone's service worker: the tables each page shows (X-Tables), and the table a phone
    was taken off (X-Off-Table, and on the page for its drafts)."""
    table = ok_game.table
    for name, args in (("table:game", [ok_game.pk]), ("table:table", [table.pk]), ("history:review", [ok_game.pk])):
        assert client.get(reverse(name, args=args))["X-Tables"] == str(table.pk), name
    assert client.get(reverse("table:home"))["X-Tables"] == str(table.pk)
    assert "X-Tables" not in client.get(reverse("rulebook:index"))
    ben = Device.objects.create(table=table, name="Ben's phone", role=Role.FOLLOW)
    phone = as_phone(Client(), ben)
    phone_services.revoke_device(device=ben, by=scorer)
    r = phone.get(reverse("table:game", args=[ok_game.pk]))
    assert r.status_code == 403 and r["X-Off-Table"] == str(table.pk)
    assert f'data-off-table="{table.pk}"' in r.content.decode()
    assert "X-Off-Table" not in Client().get(reverse("table:game", args=[ok_game.pk]))  # a stranger: 404


def test_a_phone_taken_off_is_told_and_cannot_rejoin_until_let_back(client, ok_game, scorer):

    link = phone_services.create_link(table=ok_game.table, role=Role.FOLLOW, by=scorer)
    phone = Client()
    join = reverse("table:join", args=[link.token])
    assert phone.post(join, {"name": "Ben's phone"}).status_code == 302
    ben = Device.objects.get(name="Ben's phone")
    game_page = reverse("table:game", args=[ok_game.pk])
    assert phone.get(game_page).status_code == 200
    # Taken off the table: told so, on every page of the table, not "does not exist".
    assert client.post(reverse("table:phone_revoke", args=[ok_game.table_id, ben.pk])).status_code == 302
    r = phone.get(game_page)
    assert r.status_code == 403 and "The scorer took this phone off the table" in r.content.decode()
    # Its old link does not bring it back.
    r = phone.post(join, {"name": "Ben's phone"})
    assert r.status_code == 403 and "The scorer took this phone off the table" in r.content.decode()
    assert Device.objects.filter(table=ok_game.table, revoked__isnull=True).count() == 1
    # The scorer sees it and lets it back: the same phone, its role and name.
    table_page = client.get(reverse("table:table", args=[ok_game.table_id])).content.decode()
    assert "Taken off the table" in table_page and "Let it back" in table_page
    assert client.post(reverse("table:phone_let_back", args=[ok_game.table_id, ben.pk])).status_code == 302
    assert phone.get(game_page).status_code == 200
    # A stranger still learns nothing.
    assert Client().get(game_page).status_code == 404
