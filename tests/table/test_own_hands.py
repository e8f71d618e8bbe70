"""Every player enters his own hand on his own phone: phones at seats, the open deal, its hands,
the live part, the save (``table.hands``, ``table.opendeal``, ``table.services``)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.table import submissions
from scorekeeper.table.hands import opendeal
from scorekeeper.table.hands import services as hand_services
from scorekeeper.table.models import Device, Game, OpenDeal, OpenHand, Role, Seat, Table
from scorekeeper.table.phones import services as phone_services
from scorekeeper.table.scoring import deals as deal_services
from tests.app_data import GIN_KNOCK, gin_record_deal
from tests.conftest import as_phone


@pytest.fixture
def phones(table: Table, scorer: Device) -> list[Device]:
    """Three following phones: Ann's, Ben's and Cleo's."""
    return [Device.objects.create(table=table, name=f"{n}'s phone", role=Role.FOLLOW) for n in ("Ann", "Ben", "Cleo")]


def phone_at(game: Game, position: int) -> int | None:
    return Seat.objects.get(game=game, position=position).phone_id


# ---------------------------------------------------------------------------- phones at seats


def test_a_phone_sits_at_its_seat_and_moves(ok_game: Game, phones: list[Device]) -> None:
    phone_services.sit(game=ok_game, position=1, phone=phones[1], by=phones[1])
    assert phone_at(ok_game, 1) == phones[1].pk
    phone_services.sit(game=ok_game, position=2, phone=phones[1], by=phones[1])
    assert phone_at(ok_game, 1) is None and phone_at(ok_game, 2) == phones[1].pk
    phone_services.sit(game=ok_game, position=None, phone=phones[1], by=phones[1])
    assert phone_at(ok_game, 2) is None


def test_one_phone_per_seat_only_the_scorer_changes_it(ok_game: Game, phones: list[Device], scorer: Device) -> None:
    phone_services.sit(game=ok_game, position=0, phone=phones[0], by=phones[0])
    with pytest.raises(phone_services.SeatTaken, match="Ann's phone sits at Ann's seat"):
        phone_services.sit(game=ok_game, position=0, phone=phones[1], by=phones[1])
    assert phone_at(ok_game, 0) == phones[0].pk
    with pytest.raises(phone_services.AccessRefused):
        phone_services.clear_seat(game=ok_game, position=0, by=phones[1])
    with pytest.raises(phone_services.AccessRefused):
        phone_services.sit(game=ok_game, position=1, phone=phones[2], by=phones[1])
    phone_services.sit(game=ok_game, position=0, phone=phones[1], by=scorer)  # the scorer changes it
    assert phone_at(ok_game, 0) == phones[1].pk
    phone_services.clear_seat(game=ok_game, position=0, by=scorer)
    assert phone_at(ok_game, 0) is None


def test_sitting_bumps_the_version_the_live_pages_follow(ok_game: Game, phones: list[Device]) -> None:
    before = Game.objects.get(pk=ok_game.pk).version
    phone_services.sit(game=ok_game, position=0, phone=phones[0], by=phones[0])
    assert Game.objects.get(pk=ok_game.pk).version == before + 1


def test_a_phone_of_another_table_or_taken_off_sits_nowhere(ok_game: Game, phones: list[Device]) -> None:
    other, _ = phone_services.create_table(name="Other", device_name="Zed's phone")
    stranger = other.devices.get()
    with pytest.raises(phone_services.AccessRefused):
        phone_services.sit(game=ok_game, position=0, phone=stranger, by=stranger)
    with pytest.raises(phone_services.AccessRefused):
        phone_services.sit(game=ok_game, position=7, phone=phones[0], by=phones[0])


def test_the_game_page_seats_a_phone(ok_game: Game, phones: list[Device]) -> None:
    ben = as_phone(Client(), phones[1])
    page = ben.get(f"/games/{ok_game.pk}/")
    assert "This is Ben's phone" in page.content.decode()
    answer = ben.post(f"/games/{ok_game.pk}/seats/", {"seat": "1"})
    assert answer.status_code == 302 and phone_at(ok_game, 1) == phones[1].pk
    text = ben.get(f"/games/{ok_game.pk}/").content.decode()
    assert "Ben&#x27;s phone" in text and "this phone" in text and "Not my seat" in text
    # Cleo's phone cannot take Ben's seat: told so, nothing changed
    cleo = as_phone(Client(), phones[2])
    answer = cleo.post(f"/games/{ok_game.pk}/seats/", {"seat": "1"}, follow=True)
    assert "ask the scorer" in answer.content.decode() and phone_at(ok_game, 1) == phones[1].pk
    ben.post(f"/games/{ok_game.pk}/seats/", {"seat": ""})
    assert phone_at(ok_game, 1) is None


def test_the_scorer_seats_and_clears_from_the_game_page(client: Client, ok_game: Game, phones: list[Device]) -> None:
    page = client.get(f"/games/{ok_game.pk}/").content.decode()
    assert 'id="seat-phone-2"' in page
    client.post(f"/games/{ok_game.pk}/seats/", {"seat": "2", "phone": str(phones[2].pk)})
    assert phone_at(ok_game, 2) == phones[2].pk
    client.post(f"/games/{ok_game.pk}/seats/", {"seat": "2", "phone": ""})
    assert phone_at(ok_game, 2) is None


@pytest.mark.parametrize("data", [{"seat": "9"}, {"seat": "x"}, {"seat": "1", "phone": "999999"}, {"seat": "\0"}])
def test_bad_seat_posts_say_so_never_a_500(client: Client, ok_game: Game, data: dict[str, Any]) -> None:
    answer = client.post(f"/games/{ok_game.pk}/seats/", data, follow=True)
    assert answer.status_code == 200
    assert not Seat.objects.filter(game=ok_game, phone__isnull=False).exists()


def test_a_stranger_cannot_sit(stranger: Client, ok_game: Game) -> None:
    assert stranger.post(f"/games/{ok_game.pk}/seats/", {"seat": "0"}).status_code == 404


# ---------------------------------------------------------------------------- the open deal

# One Oklahoma deal of the book's rules, Ann out: the same cards a scorer types in the deal form.
ANN = {"melded": ["QS", "QH", "QD", "5S", "6S", "7S"], "held": []}
BEN = {"melded": ["KH", "KD", "KC"], "held": ["9C", "QS"]}
CLEO = {"melded": [], "held": ["4C", "5D", "8H"]}
DEAL = {"out": "Ann", "first_turn": False, "concealed": False, "hands": {"Ann": ANN, "Ben": BEN, "Cleo": CLEO}}


@pytest.fixture
def seated(ok_game: Game, phones: list[Device]) -> list[Device]:
    for i, phone in enumerate(phones):
        phone_services.sit(game=ok_game, position=i, phone=phone, by=phone)
    return phones


def send(game: Game, seat: int, hand: dict[str, Any], by: Device, **kwargs: Any) -> Any:
    return hand_services.submit_hand(game=game, seat=seat, hand=hand, by=by, **kwargs)


def test_hands_sent_one_by_one_make_the_deal_the_scorer_types(
    ok_game: Game, seated: list[Device], scorer: Device, make_game: Any
) -> None:
    hand_services.open_deal(game=ok_game, by=seated[1])
    send(ok_game, 0, ANN, seated[0], facts={"out": 0, "first_turn": False, "concealed": False, "late_misdeal": False})
    send(ok_game, 1, BEN, seated[1])
    state = opendeal.state(ok_game)
    assert state is not None and [h.entered for h in state.hands] == [True, True, False]
    assert not state.complete and not state.valid
    send(ok_game, 2, CLEO, seated[2])
    state = opendeal.state(ok_game)
    assert state is not None and state.complete and state.valid
    saved = hand_services.save_open_deal(game=ok_game, by=scorer)
    typed = make_game(kind="oklahoma", profile="book", players=["Ann", "Ben", "Cleo"], first_dealer=0, deals=[DEAL])
    one = typed.deals.get()
    assert (saved.points, saved.totals, saved.outcome) == (one.points, one.totals, one.outcome)
    change = ok_game.changes.get(deal_id=saved.pk)
    assert change.hands_by == ["Ann's phone", "Ben's phone", "Cleo's phone"] and change.by_name == scorer.name
    assert not OpenDeal.objects.filter(game=ok_game).exists()


def test_a_stale_correction_is_refused_two_seats_at_once_both_count(ok_game: Game, seated: list[Device]) -> None:
    hand_services.open_deal(game=ok_game, by=seated[0])
    first = send(ok_game, 1, BEN, seated[1])
    send(ok_game, 2, CLEO, seated[2])  # another seat: no conflict
    send(ok_game, 1, {**BEN, "held": ["9C"]}, seated[1], version=first.version)  # a correction, current
    with pytest.raises(submissions.Conflict, match="Ben's hand was sent again from Ben's phone"):
        send(ok_game, 1, BEN, seated[1], version=first.version)  # stale
    assert OpenHand.objects.get(seat=1).hand["held"] == ["9C"]


def test_a_follower_at_a_free_seat_cannot_take_a_hand_another_phone_entered(
    ok_game: Game, phones: list[Device], scorer: Device
) -> None:
    """Issue 37, defect 2: the scorer enters Ben's hand and Ann's phone Ann's; Dora's phone sits at
    Ben's free seat, then the scorer seats it at Ann's: it replaces neither, and with the deal
    saving itself its hand saves nothing. The scorer corrects any hand."""
    Table.objects.filter(pk=ok_game.table_id).update(save_when_complete=True)
    ann, cleo = phones[0], phones[2]
    phone_services.sit(game=ok_game, position=0, phone=ann, by=ann)
    phone_services.sit(game=ok_game, position=2, phone=cleo, by=cleo)
    hand_services.open_deal(game=ok_game, by=ann)
    facts = {"out": 0, "first_turn": False, "concealed": False, "late_misdeal": False}
    send(ok_game, 0, ANN, ann, facts=facts)
    ben = send(ok_game, 1, BEN, scorer)
    send(ok_game, 2, {"melded": [], "held": ["QS"]}, cleo)  # every hand in, a third Q♠: not saved
    dora = Device.objects.create(table=ok_game.table, name="Dora's phone", role=Role.FOLLOW)
    phone_services.sit(game=ok_game, position=1, phone=dora, by=dora)
    with pytest.raises(submissions.Conflict, match="Ben's hand was entered on Scorer's phone"):
        send(ok_game, 1, {"melded": ["KH", "KD", "KC"], "held": ["9C"]}, dora, version=ben.version)
    phone_services.clear_seat(game=ok_game, position=0, by=scorer)
    phone_services.sit(game=ok_game, position=0, phone=dora, by=scorer)  # a seat taken while the deal is open
    with pytest.raises(submissions.Conflict, match="Ann's hand was entered on Ann's phone"):
        send(ok_game, 0, {"melded": ["QS", "QH", "QD"], "held": []}, dora, version=1)
    with pytest.raises(submissions.Conflict, match="does not sit at Ann's seat any more"):
        send(ok_game, 0, {"melded": ["QS", "QH", "QD"], "held": []}, ann, version=1)  # Ann's, sent as it left
    assert [h.hand for h in OpenHand.objects.order_by("seat")] == [ANN, BEN, {"melded": [], "held": ["QS"]}]
    assert not ok_game.deals.exists()
    send(ok_game, 2, CLEO, scorer, version=1)  # the scorer corrects any hand: now the deal saves itself
    assert ok_game.deals.count() == 1


def test_the_hand_page_of_a_hand_another_phone_entered_says_so_and_keeps_it(
    ok_game: Game, phones: list[Device], scorer: Device
) -> None:
    hand_services.open_deal(game=ok_game, by=scorer)
    send(ok_game, 1, BEN, scorer)
    dora = Device.objects.create(table=ok_game.table, name="Dora's phone", role=Role.FOLLOW)
    phone_services.sit(game=ok_game, position=1, phone=dora, by=dora)
    phone = as_phone(Client(), dora)
    page = phone.get(f"/games/{ok_game.pk}/open/hands/1/").content.decode()
    assert "Ben&#x27;s hand was entered on Scorer&#x27;s phone" in page
    answer = phone.post(f"/games/{ok_game.pk}/open/hands/1/", hand_post(page, {"p-1-held": "9C"}))
    assert answer.status_code == 409 and "only a scoring phone changes it" in answer.content.decode()
    assert 'value="9C"' in answer.content.decode() and OpenHand.objects.get(seat=1).hand == BEN


def test_the_facts_are_given_once_a_contrary_stale_one_is_refused(ok_game: Game, seated: list[Device]) -> None:
    row = hand_services.open_deal(game=ok_game, by=seated[0])
    ann_out = {"out": 0, "first_turn": False, "concealed": False, "late_misdeal": False}
    send(ok_game, 0, ANN, seated[0], facts=ann_out, facts_version=0)
    send(ok_game, 2, CLEO, seated[2], facts=ann_out, facts_version=0)  # the same facts: fine
    with pytest.raises(submissions.Conflict, match="How the deal ended was given on Ann's phone"):
        send(ok_game, 1, BEN, seated[1], facts={**ann_out, "out": 1}, facts_version=0)
    row.refresh_from_db()
    assert row.facts["out"] == 0 and row.facts_version == 1


def test_a_cross_hand_conflict_is_on_both_hands(ok_game: Game, seated: list[Device]) -> None:
    hand_services.open_deal(game=ok_game, by=seated[0])
    send(ok_game, 0, {"melded": ["QS", "QH", "QD"], "held": ["QS"]}, seated[0])
    send(ok_game, 1, BEN, seated[1])  # the third Q♠
    state = opendeal.state(ok_game)
    assert state is not None
    ann, ben, cleo = state.hands
    assert any("Q♠ is entered 3 times" in e for e in ann.errors)
    assert any("Q♠ is entered 3 times" in e for e in ben.errors)
    assert not cleo.errors and not cleo.entered
    assert not any("has no hand" in e for h in state.hands for e in h.errors)


def test_the_deal_saves_itself_when_the_table_says_so(ok_game: Game, seated: list[Device]) -> None:
    Table.objects.filter(pk=ok_game.table_id).update(save_when_complete=True)
    hand_services.open_deal(game=ok_game, by=seated[0])
    facts = {"out": 0, "first_turn": False, "concealed": False, "late_misdeal": False}
    send(ok_game, 0, ANN, seated[0], facts=facts)
    send(ok_game, 1, {**BEN, "held": ["QS"]}, seated[1])
    send(ok_game, 2, {"melded": [], "held": ["QS"]}, seated[2])  # a third Q♠: not valid, not saved
    assert not ok_game.deals.exists()
    hand = OpenHand.objects.get(seat=2)
    send(ok_game, 2, CLEO, seated[2], version=hand.version)
    assert ok_game.deals.count() == 1 and not OpenDeal.objects.filter(game=ok_game).exists()


def test_a_deal_not_complete_is_not_saved(ok_game: Game, seated: list[Device], scorer: Device) -> None:
    hand_services.open_deal(game=ok_game, by=seated[0])
    send(ok_game, 0, ANN, seated[0], facts={"out": 0, "first_turn": False, "concealed": False})
    with pytest.raises(RecordInvalid, match="hand is not in yet"):
        hand_services.save_open_deal(game=ok_game, by=scorer)
    assert not ok_game.deals.exists()


def test_a_deal_entered_by_the_scorer_closes_the_open_one(ok_game: Game, seated: list[Device], scorer: Device) -> None:
    hand_services.open_deal(game=ok_game, by=seated[0])
    send(ok_game, 0, ANN, seated[0])
    deal_services.add_deal(game=ok_game, deal=DEAL, by=scorer)
    assert not OpenDeal.objects.filter(game=ok_game).exists()
    with pytest.raises(submissions.Conflict, match="not open any more"):
        send(ok_game, 1, BEN, seated[1], number=1)


@pytest.mark.parametrize("saves_itself", [False, True])
def test_the_hand_form_promises_what_the_tables_setting_does(
    ok_game: Game, seated: list[Device], saves_itself: bool
) -> None:
    """One verb for one act (the form's button and the picker's key both send), and the deal saved
    "when every hand is in" only where the table saves it by itself; else the scorer saves it."""
    Table.objects.filter(pk=ok_game.table_id).update(save_when_complete=saves_itself)
    ben = as_phone(Client(), seated[1])
    ben.post(f"/games/{ok_game.pk}/open/")
    page = ben.get(f"/games/{ok_game.pk}/open/hands/1/").content.decode()
    assert re.search(r'value="save"\s+class="primary" data-verb="send">Send my hand</button>', page)
    itself = "the deal is saved when every hand is in"
    scorer_saves = "the scorer saves the deal once every hand is in"
    assert (itself in page, scorer_saves in page) == (saves_itself, not saves_itself)
    german = ben.get(f"/games/{ok_game.pk}/open/hands/1/", headers={"Accept-Language": "de"}).content.decode()
    said = "die Runde wird gespeichert" if saves_itself else "der Schreiber speichert die Runde"
    assert said in german and "Meine Hand senden" in german


def test_the_hand_page_sends_a_hand_and_shows_the_others(ok_game: Game, seated: list[Device]) -> None:
    ben = as_phone(Client(), seated[1])
    assert ben.post(f"/games/{ok_game.pk}/open/")["Location"] == f"/games/{ok_game.pk}/open/hands/1/"
    page = ben.get(f"/games/{ok_game.pk}/open/hands/1/").content.decode()
    assert "Deal 1: Ben&#x27;s hand" in page and 'name="p-1-melded"' in page and 'name="p-0-melded"' not in page
    assert "Send my hand" in page and 'id="open-live"' in page
    form = hand_post(page, {"p-1-melded": "KH KD KC", "p-1-held": "9C QS"})
    answer = ben.post(f"/games/{ok_game.pk}/open/hands/1/", form)
    assert answer.status_code == 302, answer.content.decode()[-3000:]
    assert OpenHand.objects.get(seat=1).hand == {"melded": ["KH", "KD", "KC"], "held": ["9C", "QS"]}
    assert ben.post(f"/games/{ok_game.pk}/open/hands/1/", form).status_code == 302  # a repeat counts once
    assert OpenHand.objects.get(seat=1).version == 1
    game_page = ben.get(f"/games/{ok_game.pk}/").content.decode()
    assert 'data-state="in"' in game_page and game_page.count('data-state="missing"') == 2
    # a second phone's stale correction: refused with a clear message, what was typed kept
    answer = ben.post(f"/games/{ok_game.pk}/open/hands/1/", {**form, "submission": "x" * 24, "p-1-held": "9C"})
    assert answer.status_code == 409 and "sent again from Ben" in answer.content.decode()
    assert 'value="9C"' in answer.content.decode()


def test_a_phone_enters_only_its_own_hand(ok_game: Game, seated: list[Device], client: Client) -> None:
    hand_services.open_deal(game=ok_game, by=seated[0])
    ben = as_phone(Client(), seated[1])
    assert ben.get(f"/games/{ok_game.pk}/open/hands/0/").status_code == 403
    assert client.get(f"/games/{ok_game.pk}/open/hands/0/").status_code == 200  # the scorer enters any
    loose = Device.objects.create(table=ok_game.table, name="Dora's phone", role=Role.FOLLOW)
    assert as_phone(Client(), loose).post(f"/games/{ok_game.pk}/open/").status_code == 403


def test_the_live_cross_hand_check_is_beside_the_field(ok_game: Game, seated: list[Device]) -> None:
    hand_services.open_deal(game=ok_game, by=seated[0])
    send(ok_game, 0, {"melded": ["QS", "QH", "QD"], "held": ["QS"]}, seated[0])
    ben = as_phone(Client(), seated[1])
    page = ben.get(f"/games/{ok_game.pk}/open/hands/1/").content.decode()
    form = hand_post(page, {"p-1-melded": "KH KD KC", "p-1-held": "9C QS", "action": "preview"})
    answer = ben.post(f"/games/{ok_game.pk}/open/hands/1/", form, headers={"HX-Request": "true"})
    text = answer.content.decode()
    assert answer.status_code == 200 and "Q♠ is entered 3 times" in text


def test_the_scorer_saves_with_one_tap(client: Client, ok_game: Game, seated: list[Device]) -> None:
    hand_services.open_deal(game=ok_game, by=seated[0])
    send(ok_game, 0, ANN, seated[0], facts={"out": 0, "first_turn": False, "concealed": False, "late_misdeal": False})
    send(ok_game, 1, BEN, seated[1])
    send(ok_game, 2, CLEO, seated[2])
    page = client.get(f"/games/{ok_game.pk}/").content.decode()
    assert "Save deal 1" in page
    token = re.search(r'name="submission" value="([^"]+)"', page[page.index('id="open-deal"') :])
    assert token
    answer = client.post(f"/games/{ok_game.pk}/open/save/", {"number": "1", "submission": token[1]})
    assert answer.status_code == 302 and ok_game.deals.count() == 1
    again = client.post(f"/games/{ok_game.pk}/open/save/", {"number": "1", "submission": token[1]})
    assert again.status_code == 302 and ok_game.deals.count() == 1
    history = client.get(f"/history/{ok_game.pk}/changes/").content.decode()
    assert "entered on Cleo&#x27;s phone" in history


@pytest.mark.parametrize("partial", [False, True], ids=["page", "live part"])
@pytest.mark.parametrize(
    ("scoring", "sitting", "opened", "queries"),
    [
        (True, False, False, 4),
        (False, False, False, 3),
        (True, True, False, 4),
        (False, True, False, 3),
        (True, True, True, 8),
        (False, True, True, 7),
    ],
    ids=["scorer", "follower", "scorer, seats", "follower, seats", "scorer, deal open", "follower, deal open"],
)
def test_a_warm_game_page_costs_a_fixed_number_of_queries(
    ok_game: Game,
    phones: list[Device],
    scorer: Device,
    django_assert_num_queries: Any,
    partial: bool,
    scoring: bool,
    sitting: bool,
    opened: bool,
    queries: int,
) -> None:
    """The live check, the game with its table, its open deal and the phone's device there (one
    query, a deal open or not), the seats with their players and phones (however many phones sit), and on
    a scoring phone the table's phones it may seat. A deal open adds its hands, its number (the
    deals before it) and the engine's check of them (the deals before it again, the standing stored
    with the last)."""
    deal_services.add_deal(game=ok_game, deal=DEAL)
    if sitting:
        for i, phone in enumerate(phones):
            phone_services.sit(game=ok_game, position=i, phone=phone, by=phone)
    if opened:
        hand_services.open_deal(game=ok_game, by=phones[0])
        send(ok_game, 0, ANN, phones[0], facts={"out": 0, "first_turn": False, "concealed": False})
        send(ok_game, 1, BEN, phones[1])
    browser = as_phone(Client(), scorer if scoring else phones[1])
    url, headers = f"/games/{ok_game.pk}/", {"HX-Request": "true"} if partial else {}
    assert browser.get(url, headers=headers).status_code == 200  # the cached fragments made
    with django_assert_num_queries(queries):
        page = browser.get(url, headers=headers)
    assert page.status_code == 200 and ('id="open-deal"' in page.content.decode()) == opened


def test_a_deal_deleted_while_one_is_open_moves_its_number(
    client: Client, ok_game: Game, seated: list[Device], scorer: Device
) -> None:
    """The open deal is shown and saved as the next deal: deal 3 open, deal 1 deleted, it is deal 2
    on the game page, its status, its save button and its hands' pages; a hand form opened before
    the delete still sends it (the form names the deal as it was opened), and it saves as deal 2.
    An undo of the delete makes it deal 3 again."""
    for _ in range(2):
        deal_services.add_deal(game=ok_game, deal=DEAL, by=scorer)
    hand_services.open_deal(game=ok_game, by=seated[0])
    ben = as_phone(Client(), seated[1])
    form = ben.get(f"/games/{ok_game.pk}/open/hands/1/").content.decode()
    assert "Deal 3: Ben&#x27;s hand" in form
    first = ok_game.deals.get(number=1)
    deal_services.delete_deal(game=ok_game, deal_id=first.pk, version=first.version, by=scorer)
    send(ok_game, 0, ANN, seated[0], facts={"out": 0, "first_turn": False, "concealed": False}, number=3)
    typed = hand_post(form, {"p-1-melded": "KH KD KC", "p-1-held": "9C QS"})
    sent = ben.post(f"/games/{ok_game.pk}/open/hands/1/", typed)
    assert sent.status_code == 302, sent.content.decode()[-2000:]
    send(ok_game, 2, CLEO, seated[2])
    page = client.get(f"/games/{ok_game.pk}/").content.decode()
    assert "Deal 2: the players enter their hands" in page and "Save deal 2" in page and "Deal 3" not in page
    status = ben.get(f"/games/{ok_game.pk}/open/status/").content.decode()
    assert "Deal 2: the players enter their hands" in status
    assert "Deal 2: Cleo&#x27;s hand" in client.get(f"/games/{ok_game.pk}/open/hands/2/").content.decode()
    deleted = ok_game.changes.order_by("-pk").first()
    assert deleted is not None
    deal_services.undo(game=ok_game, change_id=deleted.pk, by=scorer)
    assert "Save deal 3" in client.get(f"/games/{ok_game.pk}/").content.decode()
    deal_services.delete_deal(game=ok_game, deal_id=first.pk, version=ok_game.deals.get(pk=first.pk).version, by=scorer)
    token = re.search(r'name="submission" value="([^"]+)"', page[page.index('id="open-deal"') :])
    number = re.search(r'name="number" value="(\d+)"', page[page.index('id="open-deal"') :])
    assert token and number
    saved = client.post(f"/games/{ok_game.pk}/open/save/", {"number": number[1], "submission": token[1]})
    assert saved.status_code == 302 and saved["Location"].endswith("?saved=2#deal-2")
    assert list(ok_game.deals.order_by("number").values_list("number", flat=True)) == [1, 2]


def test_the_open_status_is_a_live_part_answered_304_when_unchanged(ok_game: Game, seated: list[Device]) -> None:
    hand_services.open_deal(game=ok_game, by=seated[0])
    ben = as_phone(Client(), seated[1])
    url = f"/games/{ok_game.pk}/open/status/"
    first = ben.get(url)
    assert first.status_code == 200 and 'id="open-live"' in first.content.decode()
    assert ben.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 304
    send(ok_game, 0, ANN, seated[0])
    assert ben.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 200


def states(game: Game) -> list[str]:
    state = opendeal.state(game)
    assert state is not None
    return ["typing" if h.typing else "in" if h.entered else "missing" for h in state.hands]


def test_a_hand_being_typed_is_seen_by_the_others_then_in(ok_game: Game, seated: list[Device]) -> None:
    hand_services.open_deal(game=ok_game, by=seated[0])
    ben, cleo = as_phone(Client(), seated[1]), as_phone(Client(), seated[2])
    status = f"/games/{ok_game.pk}/open/status/"
    seen = cleo.get(status)
    assert seen.content.decode().count('data-state="missing"') == 3
    page = ben.get(f"/games/{ok_game.pk}/open/hands/1/").content.decode()
    assert states(ok_game) == ["missing", "missing", "missing"]  # opening the form is not typing
    form = hand_post(page, {"p-1-melded": "KH KD", "action": "preview"})
    version = Game.objects.get(pk=ok_game.pk).version
    assert ben.post(f"/games/{ok_game.pk}/open/hands/1/", form, headers={"HX-Request": "true"}).status_code == 200
    assert states(ok_game) == ["missing", "typing", "missing"]
    assert Game.objects.get(pk=ok_game.pk).version == version + 1  # missing → typing: the others refresh
    ben.post(f"/games/{ok_game.pk}/open/hands/1/", {**form, "p-1-melded": "KH KD KC"}, headers={"HX-Request": "true"})
    assert Game.objects.get(pk=ok_game.pk).version == version + 1  # typing on: no bump per keystroke
    # Cleo's phone sees it: its 304 is over, Ben's hand "being typed"
    now = cleo.get(status, headers={"If-None-Match": seen["ETag"]})
    text = now.content.decode()
    assert now.status_code == 200 and 'id="open-hand-1"' in text
    assert text.count('data-state="typing"') == 1 and "being typed" in text.split('id="open-hand-1"')[1]
    assert 'data-state="typing"' in cleo.get(f"/games/{ok_game.pk}/").content.decode()
    cleo.cookies["django_language"] = "de"
    assert "wird eingegeben" in cleo.get(status).content.decode()
    # sent: in
    sent = ben.post(f"/games/{ok_game.pk}/open/hands/1/", {**form, "action": "save", "p-1-held": "9C QS"})
    assert sent.status_code == 302
    assert states(ok_game) == ["missing", "in", "missing"]


def test_a_hand_typed_long_ago_or_for_an_earlier_deal_is_missing(ok_game: Game, seated: list[Device]) -> None:
    row = hand_services.open_deal(game=ok_game, by=seated[0])
    hand_services.typing(game=ok_game, seat=0, open_deal=row)
    hand_services.typing(game=ok_game, seat=2, open_deal=row)
    assert states(ok_game) == ["typing", "missing", "typing"]
    stale = timezone.now() - opendeal.TYPING_FOR - timedelta(seconds=1)
    Seat.objects.filter(game=ok_game, position=0).update(typing_at=stale)
    assert states(ok_game) == ["missing", "missing", "typing"]
    version = Game.objects.get(pk=ok_game.pk).version
    hand_services.typing(game=ok_game, seat=0, open_deal=row)  # typing again after a pause: seen again
    assert states(ok_game) == ["typing", "missing", "typing"]
    assert Game.objects.get(pk=ok_game.pk).version == version + 1
    # the next deal opened: what was typed for the one before does not count
    OpenDeal.objects.filter(pk=row.pk).update(opened=timezone.now() + timedelta(seconds=1))
    assert states(ok_game) == ["missing", "missing", "missing"]


def test_being_typed_ends_on_the_watching_phones_with_no_write(
    ok_game: Game, seated: list[Device], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A phone that stops typing shows "missing" on the others ``TYPING_FOR`` after its last
    preview, though nothing is written then: a status showing a hand being typed tells the game
    page when to ask again (once: ``load delay``), and its validator holds until then only — a 304
    before, the status rendered again after (the game page, whole or its live part, and the open
    deal's status on a hand's page)."""
    row = hand_services.open_deal(game=ok_game, by=seated[0])
    hand_services.typing(game=ok_game, seat=1, open_deal=row)
    cleo = as_phone(Client(), seated[2])
    urls = [
        (f"/games/{ok_game.pk}/", {"HX-Request": "true"}),
        (f"/games/{ok_game.pk}/", {}),
        (f"/games/{ok_game.pk}/open/status/", {"HX-Request": "true"}),
    ]
    seen = [cleo.get(url, headers=headers) for url, headers in urls]
    for answer in seen:
        assert answer.status_code == 200 and 'data-state="typing"' in answer.content.decode()
        assert re.search(r'-u[0-9]+"$', answer["ETag"]), answer["ETag"]
    asks = re.search(r"load delay:([0-9]+)s", seen[0].content.decode())
    assert asks and 1 <= int(asks[1]) <= opendeal.TYPING_FOR.total_seconds() + 1
    for (url, headers), answer in zip(urls, seen, strict=True):
        assert cleo.get(url, headers={**headers, "If-None-Match": answer["ETag"]}).status_code == 304
    # The time the page was told to ask again: nothing was written since.
    later = timezone.now() + timedelta(seconds=int(asks[1]))
    monkeypatch.setattr(timezone, "now", lambda: later)
    for (url, headers), answer in zip(urls, seen, strict=True):
        again = cleo.get(url, headers={**headers, "If-None-Match": answer["ETag"]})
        text = again.content.decode()
        assert again.status_code == 200 and 'data-state="typing"' not in text and "load delay" not in text
        assert text.count('data-state="missing"') == 3 and not re.search(r'-u[0-9]+"$', again["ETag"])
        assert cleo.get(url, headers={**headers, "If-None-Match": again["ETag"]}).status_code == 304


def hand_post(page: str, values: dict[str, str]) -> dict[str, str]:
    """The hand form's hidden fields as the page has them, with ``values`` typed."""
    form = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page))
    form.pop("csrfmiddlewaretoken", None)
    return {**form, "action": "save", **values}


def test_a_gin_deal_by_two_phones_scores_as_typed_by_one(gin_game: Game, scorer: Device, make_game: Any) -> None:
    ann, ben = (Device.objects.create(table=gin_game.table, name=f"{n}'s phone", role=Role.FOLLOW) for n in "AB")
    phone_services.sit(game=gin_game, position=0, phone=ann, by=ann)
    phone_services.sit(game=gin_game, position=1, phone=ben, by=ben)
    phones = [as_phone(Client(), ann), as_phone(Client(), ben)]
    assert phones[0].post(f"/games/{gin_game.pk}/open/").status_code == 302
    typed = {
        0: {"upcard": "10H", "p-0-cards": "KH QD 9C 9H 4S 8D 8C 2S 3S 10D"},
        1: {"knocker": "1", "p-1-cards": "5S 6S 7S JD JC JS AS 2D 3C AC"},
    }
    for seat, phone in enumerate(phones):
        page = phone.get(f"/games/{gin_game.pk}/open/hands/{seat}/").content.decode()
        answer = phone.post(f"/games/{gin_game.pk}/open/hands/{seat}/", hand_post(page, typed[seat]))
        assert answer.status_code == 302, answer.content.decode()
    state = opendeal.state(gin_game)
    assert state is not None and state.valid and state.facts == {"upcard": "10H", "knocker": "Ben"}
    saved = hand_services.save_open_deal(game=gin_game, by=scorer)
    one = make_game(
        kind="oklahoma-gin",
        profile="standard",
        players=["Ann", "Ben"],
        deals=[gin_record_deal(GIN_KNOCK, ["Ann", "Ben"])],
    )
    assert (saved.points, saved.outcome) == (one.deals.get().points, one.deals.get().outcome)


def test_gin_a_card_in_both_hands_is_on_both(gin_game: Game, scorer: Device) -> None:
    hand_services.open_deal(game=gin_game, by=scorer)
    hand_services.submit_hand(game=gin_game, seat=0, hand={"cards": ["KH", "QD"]}, by=scorer)
    hand_services.submit_hand(game=gin_game, seat=1, hand={"cards": ["KH", "2D"]}, by=scorer)
    state = opendeal.state(gin_game)
    assert state is not None
    assert all(any("K♥ is entered twice in this deal" in e for e in h.errors) for h in state.hands)


def test_the_table_chooses_to_save_when_complete(client: Client, table: Table, phones: list[Device]) -> None:
    assert "saves itself when every hand is in" in client.get(f"/tables/{table.pk}/").content.decode()
    client.post(f"/tables/{table.pk}/settings/", {"save_when_complete": "on"})
    assert Table.objects.get(pk=table.pk).save_when_complete
    client.post(f"/tables/{table.pk}/settings/", {})
    assert not Table.objects.get(pk=table.pk).save_when_complete
    follower = as_phone(Client(), phones[0])
    assert follower.post(f"/tables/{table.pk}/settings/", {"save_when_complete": "on"}).status_code == 403


def test_a_rematch_keeps_each_phone_at_its_player_s_seat(client: Client, ok_game: Game, seated: list[Device]) -> None:
    from tests.app_data import OK_BIG, ok_record_deal

    for _ in range(3):
        deal_services.add_deal(game=ok_game, deal=ok_record_deal(OK_BIG, ["Ann", "Ben", "Cleo"]))
    page = client.get(f"/games/{ok_game.pk}/").content.decode()
    token = page.split(f'action="/games/{ok_game.pk}/rematch/"')[1].split('name="submission" value="')[1].split('"')[0]
    assert client.post(f"/games/{ok_game.pk}/rematch/", {"submission": token}).status_code == 302
    new = Game.objects.exclude(pk=ok_game.pk).get()
    assert [phone_at(new, i) for i in range(3)] == [d.pk for d in seated]
