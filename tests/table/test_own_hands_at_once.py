"""Phones entering their own hands at once, against a live server, over real HTTP through the real
hand forms (issue 22): two phones sending at once both count, a double tap counts once, two stale
corrections of one hand at once are one saved and one refused, a deal saving itself is saved once.
"""

from __future__ import annotations

import pytest

from scorekeeper.table import access
from scorekeeper.table.hands import services as hand_services
from scorekeeper.table.models import Change, Device, Game, OpenDeal, OpenHand, Role, Table
from scorekeeper.table.phones import services as phone_services
from tests.conftest import new_game, phone_cookie
from tests.phones import Answer, Phone, hidden_fields
from tests.table.test_concurrency import assert_stored_results_are_the_engines, at_once

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ann", "Ben", "Cleo"]
# Ann goes out; each phone types its own hand (the deal form's own fields, seat by seat).
TYPED = [
    {"out": "0", "p-0-melded": "QS QH QD 5S 6S 7S", "p-0-held": ""},
    {"p-1-melded": "KH KD KC", "p-1-held": "9C QS"},
    {"p-2-melded": "", "p-2-held": "4C 5D 8H"},
]


def seated_phones(live_server: object, table: Table, game: Game) -> list[Phone]:
    """Three phones of the table, each sitting at its player's seat."""
    phones = []
    for i, name in enumerate(NAMES):
        device = Device.objects.create(table=table, name=f"{name}'s phone", role=Role.FOLLOW)
        phone_services.sit(game=game, position=i, phone=device, by=device)
        phones.append(Phone(live_server.url, {access.COOKIE: phone_cookie(device)}))  # type: ignore[attr-defined]
    return phones


def hand_form(phone: Phone, game: Game, seat: int, typed: dict[str, str]) -> tuple[str, dict[str, str]]:
    path = f"/games/{game.pk}/open/hands/{seat}/"
    page = phone.get(path)
    assert page.status == 200, page.body[:500]
    return path, {**hidden_fields(page.body, path), **typed, "action": "save"}


def test_three_phones_sending_their_hands_at_once_all_count(live_server, table):
    game = new_game(table, players=NAMES, first_dealer=0)
    phones = seated_phones(live_server, table, game)
    assert (
        phones[0]
        .post(
            f"/games/{game.pk}/open/",
            hidden_fields(phones[0].get(f"/games/{game.pk}/").body, f"/games/{game.pk}/open/"),
        )
        .status
        == 302
    )
    forms = [hand_form(p, game, i, TYPED[i]) for i, p in enumerate(phones)]

    answers = at_once(*[lambda p=p, f=f: p.post(*f) for p, f in zip(phones, forms, strict=True)])

    assert all(isinstance(a, Answer) and a.status == 302 for a in answers), answers
    hands = OpenHand.objects.filter(deal__game=game).order_by("seat")
    assert [h.seat for h in hands] == [0, 1, 2] and {h.version for h in hands} == {1}
    assert [h.by_name for h in hands] == ["Ann's phone", "Ben's phone", "Cleo's phone"]
    assert OpenDeal.objects.get(game=game).facts["out"] == 0


def test_a_double_tap_counts_once_and_stale_corrections_at_once_one_wins(live_server, table):
    game = new_game(table, players=NAMES, first_dealer=0)
    phones = seated_phones(live_server, table, game)
    hand_services.open_deal(game=game, by=table.devices.filter(role=Role.SCORE).get())
    path, form = hand_form(phones[1], game, 1, TYPED[1])
    first, second = at_once(lambda: phones[1].post(path, form), lambda: phones[1].post(path, form))
    assert isinstance(first, Answer) and isinstance(second, Answer)
    assert (first.status, second.status) == (302, 302) and first.location == second.location
    assert OpenHand.objects.get(deal__game=game, seat=1).version == 1

    # two forms opened on version 1 (Ben's phone and the scorer's), corrected at once
    scorer = Phone(live_server.url, {access.COOKIE: phone_cookie(table.devices.filter(role=Role.SCORE).get())})
    _, ben_form = hand_form(phones[1], game, 1, {"p-1-held": "9C"})
    _, scorer_form = hand_form(scorer, game, 1, {"p-1-held": "QS"})
    answers = at_once(lambda: phones[1].post(path, ben_form), lambda: scorer.post(path, scorer_form))
    assert all(isinstance(a, Answer) for a in answers), answers
    assert sorted(a.status for a in answers) == [302, 409], [a.body[:300] for a in answers]
    ben, by_scorer = answers
    if ben.status == 409:  # the scorer's came first: Ben's phone no longer changes the hand the scorer entered
        assert "was entered on Scorer" in ben.body
    else:
        assert "sent again from Ben" in by_scorer.body
    assert OpenHand.objects.get(deal__game=game, seat=1).version == 2


def test_a_deal_saving_itself_with_every_hand_at_once_is_saved_once(live_server, table):
    Table.objects.filter(pk=table.pk).update(save_when_complete=True)
    game = new_game(table, players=NAMES, first_dealer=0)
    phones = seated_phones(live_server, table, game)
    hand_services.open_deal(game=game, by=table.devices.filter(role=Role.SCORE).get())
    forms = [hand_form(p, game, i, TYPED[i]) for i, p in enumerate(phones)]

    answers = at_once(*[lambda p=p, f=f: p.post(*f) for p, f in zip(phones, forms, strict=True)])

    assert all(isinstance(a, Answer) and a.status == 302 for a in answers), answers
    assert game.deals.count() == 1 and not OpenDeal.objects.filter(game=game).exists()
    added = Change.objects.get(game=game, action="added")
    assert added.hands_by == ["Ann's phone", "Ben's phone", "Cleo's phone"]
    assert_stored_results_are_the_engines(game)
