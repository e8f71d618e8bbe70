import pytest
from django.db import IntegrityError

from scorekeeper.models import Deal, DealChange, Game, Player, Seat

pytestmark = pytest.mark.django_db


def test_player_names_are_unique_whatever_the_case():
    Player.objects.create(name="Ann")
    with pytest.raises(IntegrityError):
        Player.objects.create(name="ann")


def test_game_lists_players_in_seat_order():
    game = Game.objects.create(game="oklahoma", profile="book", target=1000)
    for pos, name in [(1, "Ben"), (0, "Ann"), (2, "Cleo")]:
        Seat.objects.create(game=game, player=Player.objects.create(name=name), position=pos)
    assert game.player_names() == ["Ann", "Ben", "Cleo"]
    assert not game.finished
    assert str(game) == f"Oklahoma #{game.pk}"


def test_a_seat_and_a_deal_number_are_taken_once():
    game = Game.objects.create(game="oklahoma", profile="book", target=1000)
    Deal.objects.create(game=game, number=1, data={})
    with pytest.raises(IntegrityError):
        Deal.objects.create(game=game, number=1, data={})


def test_deal_change_keeps_the_deal_after_the_deal_is_gone():
    game = Game.objects.create(game="oklahoma", profile="book", target=1000)
    deal = Deal.objects.create(game=game, number=1, data={"out": None})
    change = DealChange.objects.create(game=game, deal=deal, number=1, action="created", new=deal.data)
    deal.delete()
    change.refresh_from_db()
    assert change.deal is None and change.new == {"out": None}
