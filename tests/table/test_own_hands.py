"""Every player enters his own hand on his own phone: phones at seats, the open deal, its hands,
the live part, the save (``table.hands``, ``table.opendeal``, ``table.services``)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from scorekeeper.table import services
from scorekeeper.table.models import Device, Game, Role, Seat, Table
from tests.conftest import as_phone


@pytest.fixture
def phones(table: Table, scorer: Device) -> list[Device]:
    """Three following phones: Ann's, Ben's and Cleo's."""
    return [Device.objects.create(table=table, name=f"{n}'s phone", role=Role.FOLLOW) for n in ("Ann", "Ben", "Cleo")]


def phone_at(game: Game, position: int) -> int | None:
    return Seat.objects.get(game=game, position=position).phone_id


# ---------------------------------------------------------------------------- phones at seats


def test_a_phone_sits_at_its_seat_and_moves(ok_game: Game, phones: list[Device]) -> None:
    services.sit(game=ok_game, position=1, phone=phones[1], by=phones[1])
    assert phone_at(ok_game, 1) == phones[1].pk
    services.sit(game=ok_game, position=2, phone=phones[1], by=phones[1])
    assert phone_at(ok_game, 1) is None and phone_at(ok_game, 2) == phones[1].pk
    services.sit(game=ok_game, position=None, phone=phones[1], by=phones[1])
    assert phone_at(ok_game, 2) is None


def test_one_phone_per_seat_only_the_scorer_changes_it(ok_game: Game, phones: list[Device], scorer: Device) -> None:
    services.sit(game=ok_game, position=0, phone=phones[0], by=phones[0])
    with pytest.raises(services.SeatTaken, match="Ann's phone sits at Ann's seat"):
        services.sit(game=ok_game, position=0, phone=phones[1], by=phones[1])
    assert phone_at(ok_game, 0) == phones[0].pk
    with pytest.raises(services.AccessRefused):
        services.clear_seat(game=ok_game, position=0, by=phones[1])
    with pytest.raises(services.AccessRefused):
        services.sit(game=ok_game, position=1, phone=phones[2], by=phones[1])
    services.sit(game=ok_game, position=0, phone=phones[1], by=scorer)  # the scorer changes it
    assert phone_at(ok_game, 0) == phones[1].pk
    services.clear_seat(game=ok_game, position=0, by=scorer)
    assert phone_at(ok_game, 0) is None


def test_sitting_bumps_the_version_the_live_pages_follow(ok_game: Game, phones: list[Device]) -> None:
    before = Game.objects.get(pk=ok_game.pk).version
    services.sit(game=ok_game, position=0, phone=phones[0], by=phones[0])
    assert Game.objects.get(pk=ok_game.pk).version == before + 1


def test_a_phone_of_another_table_or_taken_off_sits_nowhere(ok_game: Game, phones: list[Device]) -> None:
    other, _ = services.create_table(name="Other", device_name="Zed's phone")
    stranger = other.devices.get()
    with pytest.raises(services.AccessRefused):
        services.sit(game=ok_game, position=0, phone=stranger, by=stranger)
    with pytest.raises(services.AccessRefused):
        services.sit(game=ok_game, position=7, phone=phones[0], by=phones[0])


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
