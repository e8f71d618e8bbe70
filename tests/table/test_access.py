"""Who may read or change a table's games: its phones, and nobody else.

A stranger (a new browser with no link, or a phone at another table) gets nothing of the table:
not in the home page, the lists, the player pages, the exports, nor by trying ids or URLs, and
changes nothing. A follower reads and changes nothing. Revoked access stops at once. Every change
says which phone made it.
"""

from __future__ import annotations

import html
import json
from datetime import timedelta
from typing import Any

import pytest
from django.http import Http404
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from scorekeeper.table import access
from scorekeeper.table.models import Change, Device, Game, Link, Player, Role, Table
from scorekeeper.table.phones import services as phone_services
from tests.app_data import OK_BIG, OK_SMALL, ok_post, ok_record_deal
from tests.conftest import as_phone, body, new_game, phone_cookie

pytestmark = pytest.mark.django_db

SECRET_NAMES = ["Zelda", "Quentin", "Xavier"]


@pytest.fixture
def game(table: Table, scorer: Device) -> Game:
    return new_game(
        table, players=SECRET_NAMES, first_dealer=0, deals=[ok_record_deal(OK_BIG, SECRET_NAMES)], by=scorer
    )


@pytest.fixture
def link(table: Table, scorer: Device) -> Link:
    return phone_services.create_link(table=table, role=Role.FOLLOW, by=scorer)


@pytest.fixture(params=["new browser", "phone at another table"])
def outsider(request: Any, db: Any) -> Client:
    """Someone not at the table: a browser with no link, or a phone that scores at its own table."""
    if request.param == "new browser":
        return Client()
    _, device = phone_services.create_table(name="Other table", device_name="Other phone")
    new_game(device.table, players=["Olga", "Pete"], by=device)
    return as_phone(Client(), device)


@pytest.fixture
def follower_client(scorer: Device, follower: Device) -> Client:
    return as_phone(Client(), follower)


def _state(table: Table) -> tuple[Any, ...]:
    """Everything a write could change at the table."""
    return (
        list(Game.objects.filter(table=table).values_list("pk", "version", "profile", "state")),
        list(Player.objects.filter(table=table).order_by("pk").values_list("pk", "name")),
        Change.objects.filter(game__table=table).count(),
        list(Device.objects.filter(table=table).order_by("pk").values_list("pk", "name", "role", "revoked")),
        list(Link.objects.filter(table=table).order_by("pk").values_list("pk", "digest", "revoked")),
        Table.objects.get(pk=table.pk).name,
    )


def _reads(game: Game, link: Link) -> list[str]:
    deal = game.deals.get()
    player = game.seats.get(position=0).player
    return [
        reverse("table:game", args=[game.pk]),
        reverse("table:deal", args=[game.pk, deal.pk]),
        reverse("history:review", args=[game.pk]),
        reverse("history:changes", args=[game.pk]),
        reverse("history:changes", args=[game.pk]) + f"?deal={deal.pk}",
        reverse("history:rescore", args=[game.pk]),
        reverse("history:rescore", args=[game.pk]) + "?profile=laws",
        reverse("history:export_game", args=[game.pk, "json"]),
        reverse("history:export_game", args=[game.pk, "csv"]),
        reverse("history:player", args=[player.pk]),
        reverse("table:table", args=[game.table_id]),
    ]


def _writes(game: Game, link: Link, scorer: Device, follower: Device | None = None) -> list[tuple[str, dict[str, str]]]:
    deal = game.deals.get()
    player = game.seats.get(position=0).player
    other = game.seats.get(position=1).player
    change = game.changes.order_by("pk").last()
    assert change is not None
    victim = follower or scorer
    t = game.table_id
    return [
        (reverse("table:deal_new", args=[game.pk]), ok_post(OK_SMALL)),
        (reverse("table:deal_edit", args=[game.pk, deal.pk]), {**ok_post(OK_SMALL), "version": str(deal.version)}),
        (reverse("table:deal_delete", args=[game.pk, deal.pk]), {"version": str(deal.version)}),
        (reverse("table:deal_new", args=[game.pk]), {"action": "preview", "p-0-melds": "QS QH QD"}),
        (reverse("history:undo", args=[game.pk, change.pk]), {}),
        (reverse("history:rescore", args=[game.pk]), {"profile": "laws"}),
        (reverse("history:player_rename", args=[player.pk]), {"name": "Hacked"}),
        (reverse("history:player_merge", args=[player.pk]), {"into": str(other.pk)}),
        (reverse("table:link_new", args=[t]), {"role": "score"}),
        (reverse("table:link_renew", args=[t, link.pk]), {}),
        (reverse("table:link_revoke", args=[t, link.pk]), {}),
        (reverse("table:phone_role", args=[t, victim.pk]), {"role": "follow" if victim.role == "score" else "score"}),
        (reverse("table:phone_revoke", args=[t, victim.pk]), {}),
        (reverse("table:phone_rename", args=[t]), {"name": "Hacked"}),
        (reverse("table:table_rename", args=[t]), {"name": "Hacked"}),
    ]


def _secret_free(body: str, link: Link) -> None:
    for name in SECRET_NAMES:
        assert name not in body
    assert "Test table" not in body
    assert link.token and link.token not in body


# ------------------------------------------------------------------------ strangers


def test_a_stranger_finds_nothing_in_the_home_page_the_lists_and_the_exports(outsider, game, link):
    for url in [
        reverse("table:home"),
        reverse("history:games"),
        reverse("history:players"),
        reverse("history:export_all", args=["json"]),
        reverse("history:export_all", args=["csv"]),
        reverse("history:export_all", args=["json"]) + "?player=Zelda",
        reverse("rulebook:checker"),
        reverse("table:new_game"),
    ]:
        r = outsider.get(url)
        assert r.status_code == 200, url
        _secret_free(body(r).decode(), link)
    searched = outsider.get(reverse("history:games") + "?player=Zelda").content.decode()
    assert "0 games with Zelda" in searched and "Quentin" not in searched  # Zelda only as typed
    exported = json.loads(body(outsider.get(reverse("history:export_all", args=["json"]))))
    assert len(exported) == Game.objects.exclude(table=game.table).count()  # its own games, if any


def test_a_stranger_gets_404_for_every_page_of_the_table(outsider, game, link):
    for url in _reads(game, link):
        r = outsider.get(url)
        assert r.status_code == 404, url
        _secret_free(r.content.decode(), link)


def test_a_stranger_trying_ids_finds_nothing(outsider, game, link):
    top = game.pk + 5
    own = set(Game.objects.exclude(table=game.table).values_list("pk", flat=True))
    for pk in range(1, top):
        if pk in own:
            continue
        for url in (reverse("table:game", args=[pk]), reverse("history:review", args=[pk])):
            assert outsider.get(url).status_code == 404, url
    for pk in Player.objects.filter(table=game.table).values_list("pk", flat=True):
        assert outsider.get(reverse("history:player", args=[pk])).status_code == 404
    assert outsider.get(reverse("table:table", args=[game.table_id])).status_code == 404


def test_a_stranger_changes_nothing(outsider, game, link, scorer, follower):
    before = _state(game.table)
    for url, data in _writes(game, link, scorer, follower):
        r = outsider.post(url, data)
        assert r.status_code == 404, url
        _secret_free(r.content.decode(), link)
    assert _state(game.table) == before


def test_a_stranger_cannot_import_into_the_table(game, link):
    before = _state(game.table)
    r = Client().post(reverse("history:import"), {"text": "[]"})
    assert r.status_code == 403
    assert Client().get(reverse("history:import")).status_code == 403
    assert _state(game.table) == before


def test_a_wrong_or_dead_link_lets_nobody_in(game, link, scorer):
    stranger = Client()
    for token in ["nope", link.token[:-1], link.token + "x", "x" * 300]:
        r = stranger.get(reverse("table:join", args=[token]))
        assert r.status_code == 404 and "does not work" in r.content.decode()
        assert stranger.post(reverse("table:join", args=[token]), {"name": "Eve"}).status_code == 404
    phone_services.revoke_link(link=link, by=scorer)
    assert stranger.get(reverse("table:join", args=[link.token])).status_code == 404
    assert stranger.post(reverse("table:join", args=[link.token]), {"name": "Eve"}).status_code == 404
    old = phone_services.create_link(table=game.table, role=Role.SCORE, by=scorer)
    Link.objects.filter(pk=old.pk).update(created=timezone.now() - timedelta(hours=25))
    assert stranger.post(reverse("table:join", args=[old.token]), {"name": "Eve"}).status_code == 404
    assert stranger.get(reverse("table:game", args=[game.pk])).status_code == 404
    assert not Device.objects.filter(name="Eve").exists()


# ------------------------------------------------------------------------ followers


def test_a_follower_reads_every_page_and_sees_no_link(follower_client, game, link):
    for url in _reads(game, link):
        r = follower_client.get(url)
        assert r.status_code == 200, url
        assert link.token not in r.content.decode(), url
    page = follower_client.get(reverse("table:game", args=[game.pk])).content.decode()
    assert "Zelda" in page and "Enter deal" not in page


def test_a_follower_changes_nothing(follower_client, game, link, scorer):
    before = _state(game.table)
    for url, data in _writes(game, link, scorer):
        if url == reverse("table:phone_rename", args=[game.table_id]):
            continue  # a phone may name itself (below)
        r = follower_client.post(url, data)
        assert r.status_code == 403, url
        assert "follows" in r.content.decode() or r.status_code == 403
    for url in [
        reverse("table:deal_new", args=[game.pk]),
        reverse("table:deal_edit", args=[game.pk, game.deals.get().pk]),
        reverse("table:deal_delete", args=[game.pk, game.deals.get().pk]),
        reverse("history:import"),
    ]:
        assert follower_client.get(url).status_code == 403, url
    assert follower_client.post(reverse("history:import"), {"text": "[]"}).status_code == 403
    assert _state(game.table) == before


def test_a_follower_may_name_itself(follower_client, follower, game):
    r = follower_client.post(reverse("table:phone_rename", args=[game.table_id]), {"name": "Ben's tablet"})
    assert r.status_code == 302
    follower.refresh_from_db()
    assert follower.name == "Ben's tablet"


# ------------------------------------------------------------------------ joining, handing over, revoking


def test_joining_by_a_follow_link_then_being_let_score(client, game, link, scorer):
    phone = Client()
    page = phone.get(reverse("table:join", args=[link.token]))
    assert page.status_code == 200 and "follow" in page.content.decode()
    r = phone.post(reverse("table:join", args=[link.token]), {"name": "Ben's phone"})
    assert r.status_code == 302 and r["Location"] == reverse("table:game", args=[game.pk])  # the game in progress
    joined = Device.objects.get(table=game.table, name="Ben's phone")
    assert joined.role == Role.FOLLOW and joined.added_by == scorer
    assert phone.get(reverse("table:game", args=[game.pk])).status_code == 200
    assert phone.post(reverse("table:deal_new", args=[game.pk]), ok_post(OK_SMALL)).status_code == 403
    # The scorer lets it score.
    r = client.post(reverse("table:phone_role", args=[game.table_id, joined.pk]), {"role": "score"})
    assert r.status_code == 302
    assert phone.post(reverse("table:deal_new", args=[game.pk]), ok_post(OK_SMALL)).status_code == 302
    # And makes it follow again.
    client.post(reverse("table:phone_role", args=[game.table_id, joined.pk]), {"role": "follow"})
    assert phone.post(reverse("table:deal_new", args=[game.pk]), ok_post(OK_SMALL)).status_code == 403


def test_a_score_link_works_once(client, game, scorer):
    r = client.post(reverse("table:link_new", args=[game.table_id]), {"role": "score"})
    assert r.status_code == 302
    link = Link.objects.get(table=game.table, role=Role.SCORE)
    page = client.get(reverse("table:table", args=[game.table_id])).content.decode()
    assert link.token in page and "<svg" in page  # shown as a link and a QR code
    first = Client()
    assert first.post(reverse("table:join", args=[link.token]), {"name": "Cleo's phone"}).status_code == 302
    assert first.post(reverse("table:deal_new", args=[game.pk]), ok_post(OK_SMALL)).status_code == 302
    second = Client()
    assert second.post(reverse("table:join", args=[link.token]), {"name": "Eve"}).status_code == 404
    assert second.get(reverse("table:game", args=[game.pk])).status_code == 404


def test_revoking_a_phone_stops_it_at_once(client, game, follower, follower_client):
    url = reverse("table:game", args=[game.pk])
    assert follower_client.get(url).status_code == 200
    r = client.post(reverse("table:phone_revoke", args=[game.table_id, follower.pk]))
    assert r.status_code == 302
    # Told what happened (issue 21), not "does not exist"; its live page's poll stops (404).
    r = follower_client.get(url)
    assert r.status_code == 403 and "The scorer took this phone off the table" in r.content.decode()
    assert follower_client.get(url, headers={"HX-Request": "true", "If-None-Match": '"x"'}).status_code in (403, 404)
    assert json.loads(body(follower_client.get(reverse("history:export_all", args=["json"])))) == []
    page = html.unescape(client.get(reverse("table:table", args=[game.table_id])).content.decode())
    phones, taken_off = page.split("Taken off the table", 1)
    assert "Ben's phone" not in phones.split("Phones at the table", 1)[1] and "Ben's phone" in taken_off


def test_renewing_a_link_stops_the_old_one(client, game, link):
    r = client.post(reverse("table:link_renew", args=[game.table_id, link.pk]))
    assert r.status_code == 302
    new = Link.objects.get(table=game.table, revoked__isnull=True)
    assert new.token != link.token and new.role == Role.FOLLOW
    assert Client().get(reverse("table:join", args=[link.token])).status_code == 404
    assert Client().get(reverse("table:join", args=[new.token])).status_code == 200


def test_the_last_scoring_phone_cannot_be_taken_away(client, game, scorer, follower):
    other = Device.objects.create(table=game.table, name="Other scorer", role=Role.SCORE)
    assert client.post(reverse("table:phone_revoke", args=[game.table_id, other.pk])).status_code == 302
    # The scorer's own phone is the last one that scores: it stays.
    with pytest.raises(phone_services.AccessRefused):
        phone_services.revoke_device(device=scorer, by=scorer)
    with pytest.raises(phone_services.AccessRefused):
        phone_services.set_role(device=scorer, role=Role.FOLLOW, by=scorer)
    scorer.refresh_from_db()
    assert scorer.revoked is None and scorer.role == Role.SCORE


def test_a_phone_of_another_table_cannot_be_managed_from_this_one(client, game):
    _, elsewhere = phone_services.create_table(name="Other", device_name="Their phone")
    for url in [
        reverse("table:phone_revoke", args=[game.table_id, elsewhere.pk]),
        reverse("table:phone_role", args=[game.table_id, elsewhere.pk]),
    ]:
        assert client.post(url, {"role": "follow"}).status_code == 404
    theirs = phone_services.create_link(table=elsewhere.table, role=Role.FOLLOW, by=elsewhere)
    assert client.post(reverse("table:link_revoke", args=[game.table_id, theirs.pk])).status_code == 404
    elsewhere.refresh_from_db()
    theirs.refresh_from_db()
    assert elsewhere.revoked is None and theirs.revoked is None


def test_the_table_page_lists_phones_and_links_for_the_scorer(client, game, link, follower):
    page = client.get(reverse("table:table", args=[game.table_id])).content.decode()
    assert "Scorer&#x27;s phone" in page and "Ben&#x27;s phone" in page and "this phone" in page
    assert link.token in page and "<svg" in page and 'class="qr"' in page
    assert "style=" not in page  # the CSP forbids inline style: the QR code carries none
    assert "Let it score" in page and "Take access away" in page


def test_every_change_says_which_phone_made_it(client, game, table):
    second = Device.objects.create(table=table, name="Cleo's phone", role=Role.SCORE)
    cleo = as_phone(Client(), second)
    assert cleo.post(reverse("table:deal_new", args=[game.pk]), ok_post(OK_SMALL)).status_code == 302
    assert client.post(reverse("table:deal_new", args=[game.pk]), ok_post(OK_SMALL)).status_code == 302
    assert [c.by_name for c in game.changes.order_by("pk")] == ["Scorer's phone", "Cleo's phone", "Scorer's phone"]
    assert game.changes.filter(by=second).count() == 1
    page = client.get(reverse("history:changes", args=[game.pk])).content.decode()
    assert "Cleo&#x27;s phone" in page and "Scorer&#x27;s phone" in page


def test_a_new_phone_starting_a_game_gets_a_table_of_its_own(game):
    phone = Client()
    r = phone.post(
        reverse("table:new_game"),
        {"game": "oklahoma", "profile": "book", "seat_0": "Ann", "seat_1": "Ben", "first_dealer": "0"},
    )
    assert r.status_code == 302
    home = phone.get(reverse("table:home")).content.decode()
    assert "Zelda" not in home
    mine = Game.objects.exclude(table=game.table).get()
    assert phone.get(reverse("table:game", args=[mine.pk])).status_code == 200
    assert phone.get(reverse("table:game", args=[game.pk])).status_code == 404


def _request(*devices: Device) -> Any:
    """A request from a phone holding these devices (none: a browser with no cookie)."""
    request = RequestFactory().get("/")
    if devices:
        request.COOKIES[access.COOKIE] = phone_cookie(*devices)
    return request


def test_a_game_page_finds_the_game_its_table_and_the_phone(game, scorer, follower, django_assert_num_queries):
    """``game_and_device`` gives the game and its table as the ORM reads them, and the phone's
    device there (a phone holding two devices at the table scores), in one query
    (tests/table/test_rawgame.py compares it with the ORM's on every case of access)."""
    with django_assert_num_queries(1):
        found, device = access.game_and_device(_request(follower, scorer), game.pk)
    orm = Game.objects.select_related("table").get(pk=game.pk)
    fields = [f.attname for f in Game._meta.concrete_fields]
    assert [getattr(found, f) for f in fields] == [getattr(orm, f) for f in fields]
    assert isinstance(found.options, dict) and found.created.tzinfo is not None
    assert (found.table, found.table.name, found.table.created) == (orm.table, orm.table.name, orm.table.created)
    assert device == scorer and device.table == orm.table and device.created == scorer.created
    assert access.game_and_device(_request(follower), game.pk)[1] == follower
    state = (orm.version, orm.table.names, Role.SCORE, orm.table_id)
    assert access.watching(_request(follower, scorer), game.pk) == state
    assert access.watching(_request(follower), game.pk) == (*state[:2], Role.FOLLOW, orm.table_id)


def test_no_game_and_device_for_a_revoked_phone_another_table_or_no_game(game, scorer, follower):
    follower.revoked = timezone.now()
    follower.save()
    _, other = phone_services.create_table(name="Other table", device_name="Other phone")
    with pytest.raises(access.OffTable):  # the revoked phone is told so
        access.game_and_device(_request(follower), game.pk)
    with pytest.raises(Http404):  # its live poll stops
        access.watching(_request(follower), game.pk)
    for request, game_id in [
        (_request(other), game.pk),
        (_request(scorer), game.pk + 1000),
        (_request(scorer), 2**63),
        (_request(), game.pk),
    ]:
        with pytest.raises(Http404):
            access.game_and_device(request, game_id)
        with pytest.raises(Http404):
            access.watching(request, game_id)


def test_an_id_beyond_the_databases_integers_is_not_found(client, game):
    """Issue 24, 7a: an id of 2**63 or more in a URL is a 404, not an OverflowError (a 500)."""
    deal = game.deals.get().pk
    change = Change.objects.filter(game=game).first()
    assert change is not None
    for big in (2**63, 2**64 + 5, 10**30):
        for name, args in [
            ("table:game", [big]),
            ("table:deal_new", [big]),
            ("table:deal", [big, deal]),
            ("table:deal", [game.pk, big]),
            ("table:table", [big]),
            ("rulebook:game", [big]),
            ("history:review", [big]),
            ("history:changes", [big]),
            ("history:undo", [game.pk, big]),
            ("history:export_game", [big, "json"]),
            ("history:player", [big]),
        ]:
            assert client.get(reverse(name, args=args)).status_code in (404, 405), (name, args)


def test_a_warm_game_page_costs_four_queries(client, game, django_assert_num_queries):
    """The live check (the game's version), then the game with its table, its open deal (none) and
    the phone's device there; the board and the deal list come from the cache. Then what is this phone's
    own: the seats with their players and phones, and (a scoring phone's page) the table's phones it
    may seat. tests/table/test_own_hands.py counts it with phones at the seats and a deal open."""
    url = reverse("table:game", args=[game.pk])
    assert client.get(url).status_code == 200
    with django_assert_num_queries(4):
        assert client.get(url).status_code == 200


def test_a_form_posted_in_utf16_is_a_bad_request(table, scorer):
    """Issue 24, 7b: a form declaring ``charset=utf-16`` (Django reads only UTF-8 forms) is a 400.
    The CSRF check reads the body and raises BadRequest; Django's 400 view runs the CSRF check
    again (``requires_csrf_token``) and raises again, then its 500 view does: no answer at all."""
    phone = as_phone(Client(enforce_csrf_checks=True, raise_request_exception=False), scorer)
    for url in [reverse("table:new_game"), reverse("history:import")]:
        assert phone.get(url).status_code == 200  # the form's page gives the CSRF cookie
        response = phone.post(url, data="a=1", content_type="application/x-www-form-urlencoded; charset=utf-16")
        assert response.status_code == 400, url
