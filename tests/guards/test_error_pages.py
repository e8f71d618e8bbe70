"""The app's own pages for 400, 403, 404 and 500: in its layout, saying what happened and what to
do; a refused save shows back the cards it carried."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.table.models import Device, Role
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
    from scorekeeper import error_pages

    for view, status, words in [
        (error_pages.bad_request, 400, "Not understood"),
        (error_pages.server_error, 500, "Something went wrong"),
    ]:
        from django.test import RequestFactory

        response = view(RequestFactory().get("/")) if status == 500 else view(RequestFactory().get("/"), None)
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
