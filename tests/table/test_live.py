"""The live game page: a watching phone's poll is answered 304 while nothing changed (one query,
nothing rendered), and the whole live part — board, deals, who deals next, the buttons of the
phone's role, the winner — as soon as anything did."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper.history import services as history_services
from scorekeeper.table.live import answers
from scorekeeper.table.models import Device, Game, Role
from scorekeeper.table.phones import services as phone_services
from tests.app_data import OK_BIG, OK_SMALL, ok_post, ok_record_deal
from tests.conftest import NAMES, as_phone, new_game

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def game(table, scorer) -> Game:
    return new_game(table, players=NAMES, first_dealer=0, deals=[ok_record_deal(OK_SMALL, NAMES)], by=scorer)


@pytest.fixture
def watcher(scorer, follower) -> Client:
    return as_phone(Client(), follower)


def _poll(phone: Client, game: Game, tag: str | None):
    headers = dict(HX)
    if tag:
        headers["If-None-Match"] = tag
    return phone.get(reverse("table:game", args=[game.pk]), headers=headers)


def _tag(response) -> str:
    return response["ETag"]


def test_the_page_and_its_live_part_carry_validators(client, table, game):
    page = client.get(reverse("table:game", args=[game.pk]))
    assert page.status_code == 200
    assert page["ETag"] == answers.etag(game.version, table.names, Role.SCORE, partial=False)
    assert page["Cache-Control"] == "private, no-cache" and "Cookie" in page["Vary"] and "HX-Request" in page["Vary"]
    body = page.content.decode()
    # The live part listens to the game's stream, holding the version it shows (in the language shown).
    assert 'id="live"' in body and 'hx-trigger="live"' in body and "live.js" in body
    assert f'data-live-events="{reverse("table:game_events", args=[game.pk])}"' in body
    assert 'data-live-poll="1"' in body  # without EventSource: every second
    assert f'data-live-etag="W/&quot;g{game.version}.{table.names}-score-en-p&quot;"' in body
    part = _poll(client, game, None)
    assert part["ETag"] == answers.etag(game.version, table.names, Role.SCORE, partial=True)


def test_an_unchanged_game_costs_one_query_and_no_rendering(watcher, game):
    tag = _tag(_poll(watcher, game, None))
    with CaptureQueriesContext(connection) as queries:
        r = _poll(watcher, game, tag)
    assert r.status_code == 304 and r.content == b""
    assert r["ETag"] == tag
    assert len(queries) == 1, [q["sql"] for q in queries]
    assert not hasattr(r, "templates") or not r.templates
    # A full page the browser revalidates is answered the same way.
    full = watcher.get(reverse("table:game", args=[game.pk]))
    again = watcher.get(reverse("table:game", args=[game.pk]), headers={"If-None-Match": full["ETag"]})
    assert again.status_code == 304
    # The page's validator does not answer for the live part, nor the other way round.
    assert _poll(watcher, game, full["ETag"]).status_code == 200


def test_a_save_on_another_phone_changes_the_whole_live_part(client, watcher, game):
    first = _poll(watcher, game, None)
    tag = _tag(first)
    assert "Enter deal" not in first.content.decode()  # a follower has no entry button
    assert client.post(reverse("table:deal_new", args=[game.pk]), ok_post(OK_BIG)).status_code == 302
    r = _poll(watcher, game, tag)
    assert r.status_code == 200 and r["ETag"] != tag
    body = r.content.decode()
    assert body.lstrip().startswith('<div id="live"') and "<html" not in body
    assert 'id="deal-2"' in body  # the deal list
    assert "Ann</strong> deals next" in body  # who deals next (the winner of the hand)
    assert f"W/&quot;g{Game.objects.get(pk=game.pk).version}.0-follow-en-p&quot;" in body
    assert _poll(watcher, game, r["ETag"]).status_code == 304
    # The scorer's own live part has the button for the next deal.
    assert "Enter deal 3" in _poll(client, game, None).content.decode()


def test_a_phone_let_score_gets_the_entry_button_at_the_next_poll(client, watcher, game, follower):
    tag = _tag(_poll(watcher, game, None))
    phone_services.set_role(device=follower, role=Role.SCORE, by=None)
    r = _poll(watcher, game, tag)
    assert r.status_code == 200 and "Enter deal 2" in r.content.decode()


def test_renaming_a_player_shows_on_the_watching_phones(watcher, game):
    tag = _tag(_poll(watcher, game, None))
    history_services.rename_player(player=game.seats.get(position=0).player, name="Annabel")
    r = _poll(watcher, game, tag)
    assert r.status_code == 200 and "Annabel" in r.content.decode()


def test_a_rename_reaches_a_phone_holding_a_finished_game_of_the_table_only(watcher, make_game, table):
    """A rename bumps no finished game's version (issue 23), but the table's names are in every game
    page's validator: a phone holding a finished game's page (or live part) gets it again, with the
    new name; a phone holding a game of another table still gets 304."""
    done = make_game(players=NAMES, first_dealer=0, options={"target": 100}, deals=[ok_record_deal(OK_BIG, NAMES)])
    assert done.finished
    other, theirs = phone_services.create_table(name="Other table", device_name="Their phone")
    their_game = new_game(other, players=NAMES, first_dealer=0, deals=[ok_record_deal(OK_BIG, NAMES)], by=theirs)
    their_phone = as_phone(Client(), theirs)
    url, their_url = reverse("table:game", args=[done.pk]), reverse("table:game", args=[their_game.pk])
    page, part, their_page = watcher.get(url), _poll(watcher, done, None), their_phone.get(their_url)
    assert "Ann wins the game." in page.content.decode()
    history_services.rename_player(player=done.seats.get(position=0).player, name="Annabel")
    assert Game.objects.get(pk=done.pk).version == done.version  # a finished game's version stays
    again = watcher.get(url, headers={"If-None-Match": page["ETag"]})
    assert again.status_code == 200 and again["ETag"] != page["ETag"]
    assert "Annabel wins the game." in again.content.decode()
    live_part = _poll(watcher, done, _tag(part))
    assert live_part.status_code == 200 and "Annabel wins the game." in live_part.content.decode()
    assert _poll(watcher, done, _tag(live_part)).status_code == 304
    assert their_phone.get(their_url, headers={"If-None-Match": their_page["ETag"]}).status_code == 304


def test_the_winner_shows_on_the_watching_phones(client, watcher, make_game):
    short = make_game(players=NAMES, first_dealer=0, options={"target": 100})
    tag = _tag(_poll(watcher, short, None))
    assert client.post(reverse("table:deal_new", args=[short.pk]), ok_post(OK_BIG)).status_code == 302
    body = _poll(watcher, short, tag).content.decode()
    assert "Ann wins the game." in body and "Enter deal" not in body


def test_the_phones_at_the_table_show_on_every_phone_holding_a_game_page(client, watcher, game, table, follower):
    """The seats name the phones, and the scorer's page lists them to seat one: a phone that joins,
    is renamed, is taken off the table or let back changes every game page of its table (its
    ``names``), which a phone holding one gets again (a reload of the page too), and so does a new
    name of the table; a phone holding a game of another table still gets 304."""
    phone_services.sit(game=game, position=1, phone=follower, by=follower)
    other, theirs = phone_services.create_table(name="Other table", device_name="Their phone")
    their_game = new_game(other, players=NAMES, first_dealer=0, deals=[ok_record_deal(OK_BIG, NAMES)], by=theirs)
    their_phone = as_phone(Client(), theirs)
    their_url = reverse("table:game", args=[their_game.pk])
    their_tag = their_phone.get(their_url)["ETag"]
    url = reverse("table:game", args=[game.pk])

    def again(phone: Client, response, partial: bool):
        headers = {**(HX if partial else {}), "If-None-Match": response["ETag"]}
        r = phone.get(url, headers=headers)
        assert r.status_code == 200, "a phone holding the page was not told the phones changed"
        return r

    page, part = client.get(url), _poll(watcher, game, None)
    link = phone_services.create_link(table=table, role=Role.FOLLOW, by=None)
    phone_services.join_table(link=link, name="Cleo's phone")
    page, part = again(client, page, False), again(watcher, part, True)
    assert "Cleo&#x27;s phone" in page.content.decode()  # the scorer may seat it

    phone_services.rename_device(device=follower, name="Benjamin's phone")
    page, part = again(client, page, False), again(watcher, part, True)
    assert "Benjamin&#x27;s phone" in page.content.decode() and "Benjamin&#x27;s phone" in part.content.decode()

    cleo = table.devices.get(name="Cleo's phone")
    phone_services.revoke_device(device=cleo, by=None)
    page = again(client, page, False)
    assert "Cleo&#x27;s phone" not in page.content.decode()
    phone_services.let_back(device=cleo, by=None)
    page = again(client, page, False)
    assert "Cleo&#x27;s phone" in page.content.decode()
    phone_services.rename_table(table=table, name="Friday table", by=None)  # above every game page
    page = again(client, page, False)
    assert "Friday table" in page.content.decode()
    assert their_phone.get(their_url, headers={"If-None-Match": their_tag}).status_code == 304


def test_a_refused_forms_message_shows_on_the_page_the_phone_holds(watcher, game):
    """A seat's form refused changes nothing: the page it goes back to, which the browser holds
    (``If-None-Match``), is not answered 304 but shown with the message, once, and with no
    validator (the browser's copy of it would show the message again)."""
    url = reverse("table:game", args=[game.pk])
    page = watcher.get(url)
    refused = watcher.post(reverse("table:seat_phone", args=[game.pk]), {"seat": "9"})
    assert refused.status_code == 302 and refused["Location"].startswith(url)
    assert refused["Location"].endswith("#seats")
    shown = watcher.get(url, headers={"If-None-Match": page["ETag"]})
    body = shown.content.decode()
    assert shown.status_code == 200 and body.count('class="bad"') == 1
    assert body.index('id="seats"') < body.index('class="bad"') < body.index('class="seats"')  # beside the seats
    assert 'id="messages"' not in body
    assert "ETag" not in shown and shown["Cache-Control"] == "private, no-cache"
    again = watcher.get(url)
    assert again.status_code == 200 and 'class="bad"' not in again.content.decode() and again["ETag"] == page["ETag"]
    assert watcher.get(url, headers={"If-None-Match": page["ETag"]}).status_code == 304


def test_a_refusal_of_the_open_deal_is_said_at_the_top_of_the_game_page(client, game):
    """A hand's page sent when no deal is open any more (the scorer closed it) goes back to the game
    page's top, where its message is (``#messages``), and no validator holds it."""
    url = reverse("table:game", args=[game.pk])
    page = client.get(url)
    refused = client.get(reverse("table:hand", args=[game.pk, 0]))
    assert refused.status_code == 302 and refused["Location"] == f"{url}#messages"
    body = client.get(url, headers={"If-None-Match": page["ETag"]}).content.decode()
    assert re.search(r'<ul\s+class="messages" id="messages"\s+role="status"><li class="bad">No deal is open', body)
    assert body.index('id="messages"') < body.index('id="live"')


def test_the_live_part_leaves_a_waiting_message_to_the_page(client, game):
    """The live part says no message: one waiting (a refusal said at the top, or beside the seats)
    is left for the whole page it was meant for, even when the live part is asked for first."""
    assert client.get(reverse("table:hand", args=[game.pk, 0])).status_code == 302  # no deal open
    part = _poll(client, game, None)
    assert part.status_code == 200 and "No deal is open" not in part.content.decode()
    assert "No deal is open" in client.get(reverse("table:game", args=[game.pk])).content.decode()


def test_a_revoked_phone_polls_into_a_404(watcher, game, follower):
    tag = _tag(_poll(watcher, game, None))
    phone_services.revoke_device(device=follower, by=None)
    assert _poll(watcher, game, tag).status_code == 404


def test_a_stranger_polling_with_a_guessed_validator_gets_404(game):
    tag = answers.etag(game.version, game.table.names, Role.FOLLOW, partial=True)
    assert _poll(Client(), game, tag).status_code == 404
    assert _poll(Client(), game, "*").status_code == 404
    _, other = phone_services.create_table(name="Other", device_name="Other phone")
    assert _poll(as_phone(Client(), other), game, tag).status_code == 404


def test_a_phone_with_two_devices_at_the_table_is_its_scorer(table, scorer, follower, game):
    phone = as_phone(Client(), scorer, follower)  # the follower's device is the newer in the cookie
    body = _poll(phone, game, None).content.decode()
    assert "Enter deal 2" in body
    assert Device.objects.filter(table=table).count() == 2


@pytest.mark.parametrize(
    ("header", "status"),
    [
        ('"g{v}-score-en-p"', 304),  # a strong validator compares weakly
        ('W/"x", W/"g{v}-score-en-p"', 304),
        ("*", 304),
        ('W/"g{old}-score-en-p"', 200),  # an older version
        ('W/"g{renamed}-score-en-p"', 200),  # the same version before a rename of a player of the table
        ('W/"g{v}-follow-en-p"', 200),  # another role's page
        ('W/"g{v}-score-en-f"', 200),  # the whole page's validator
        ('W/"g{v}-score-de-p"', 200),  # the page in another language
        ("garbage", 200),
    ],
)
def test_if_none_match_forms(client, table, game, header, status):
    table.names = 2
    table.save(update_fields=["names"])
    v, old, renamed = f"{game.version}.2", f"{game.version - 1}.2", f"{game.version}.1"
    tag = header.replace("{v}", v).replace("{old}", old).replace("{renamed}", renamed)
    assert _poll(client, game, tag).status_code == status
