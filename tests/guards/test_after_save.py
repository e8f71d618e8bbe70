"""After a save: "Deal N saved · Undo" on the game page of the phone that saved, for a while; and a
save the database refuses keeps the typed cards on the form with what went wrong (never a 500)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import OperationalError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper.table.models import Change, Device, Role
from scorekeeper.table.scoring import deals as deal_services
from scorekeeper.table.submissions import new_submission
from tests.app_data import OK_BIG, ok_post
from tests.conftest import as_phone

pytestmark = pytest.mark.django_db


def test_deal_saved_undo_on_the_game_page(client, ok_game, scorer):
    r = client.post(reverse("table:deal_new", args=[ok_game.pk]), ok_post(OK_BIG))
    assert r.status_code == 302 and r["Location"].endswith("?saved=1#deal-1")
    page = client.get(r["Location"]).content.decode()
    assert "Deal 1 saved" in page and ">Undo</button>" in page
    # Another phone that follows the same link sees no note; neither does this phone later.
    other = as_phone(Client(), Device.objects.create(table=ok_game.table, name="Cleo's phone", role=Role.SCORE))
    assert "Deal 1 saved" not in other.get(r["Location"]).content.decode()
    change = Change.objects.get(game=ok_game, number=1)
    # Undo from the note: back on the game page, the deal gone, the undo in the history.
    undo = client.post(
        reverse("history:undo", args=[ok_game.pk, change.pk]), {"back": "game", "submission": new_submission()}
    )
    assert undo.status_code == 302 and undo["Location"] == reverse("table:game", args=[ok_game.pk])
    assert not ok_game.deals.exists()
    assert "Deal 1 saved" not in client.get(r["Location"]).content.decode()  # undone: no note


def test_the_note_goes_after_a_while(client, ok_game, scorer, monkeypatch):
    r = client.post(reverse("table:deal_new", args=[ok_game.pk]), ok_post(OK_BIG))
    later = timezone.now() + timedelta(minutes=11)
    monkeypatch.setattr(timezone, "now", lambda: later)
    assert "Deal 1 saved" not in client.get(r["Location"]).content.decode()


def test_a_save_the_database_refuses_keeps_the_cards(client, ok_game, monkeypatch):
    def refuse(**kwargs):
        raise OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(deal_services, "add_deal", refuse)
    r = client.post(reverse("table:deal_new", args=[ok_game.pk]), ok_post(OK_BIG))
    assert r.status_code == 503
    page = r.content.decode()
    assert "could not write the deal" in page and "your cards are kept" in page
    assert "QS 4C" in page  # Cleo's held cards, as typed
    assert not ok_game.deals.exists()
