import pytest

from scorekeeper import services
from scorekeeper.models import DealChange, Player
from scorekeeper.rules.errors import RecordInvalid
from tests.app_data import GIN_BIG, GIN_KNOCK, OK_BIG, OK_SMALL, gin_record_deal, ok_record_deal

pytestmark = pytest.mark.django_db
NAMES = ["Ann", "Ben", "Cleo"]


def new_ok(**kw):
    args = {"game": "oklahoma", "profile": "book", "options": {}, "players": NAMES, "first_dealer": 1}
    args.update(kw)
    return services.create_game(**args)


def test_create_game_keeps_rules_players_and_first_dealer():
    game = new_ok(options={"k8_in_hand": -10})
    assert game.player_names() == NAMES
    assert game.target == 1000 and game.options == {"k8_in_hand": -10}
    record = services.game_record(game)
    assert record["first_dealer"] == "Ben" and record["deals"] == []
    assert record["rules"] == {"profile": "book", "options": {"k8_in_hand": -10}}


def test_create_game_reuses_a_known_player_whatever_the_case():
    new_ok()
    game = new_ok(players=["ann", "BEN"])
    assert game.player_names() == ["Ann", "Ben"]
    assert Player.objects.count() == 3


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": ["Ann"]},
        {"players": ["Ann", "ann"]},
        {"profile": "laws", "players": ["A", "B", "C", "D", "E"]},
        {"options": {"k8_in_hand": -15}},
        {"options": {"nonsense": 1}},
        {"profile": "nope"},
    ],
)
def test_create_game_refuses_what_the_rules_refuse(kwargs):
    with pytest.raises(RecordInvalid):
        new_ok(first_dealer=0, **kwargs)
    # nothing half-written
    assert not services.Game.objects.exists()


def test_add_deal_scores_and_logs_the_change():
    game = new_ok()
    data = ok_record_deal(OK_BIG, NAMES)
    deal = services.add_deal(game=game, data=data)
    assert deal.number == 1 and deal.data == data
    result = services.score_game(game)
    assert result.totals["Ann"] == 395
    change = DealChange.objects.get()
    assert change.action == "created" and change.new == data and change.old is None


def test_an_invalid_deal_is_never_saved():
    game = new_ok()
    bad = ok_record_deal(OK_BIG, NAMES)
    bad["hands"]["Ben"]["melds"] = [["5S", "6S", "8S"]]
    with pytest.raises(RecordInvalid) as exc:
        services.add_deal(game=game, data=bad)
    assert any(e.player == "Ben" for e in exc.value.errors)
    assert game.deals.count() == 0 and DealChange.objects.count() == 0


def test_a_card_used_three_times_is_refused():
    game = new_ok()
    bad = ok_record_deal(OK_BIG, NAMES)
    bad["hands"]["Cleo"]["held"] = ["QS", "QH", "4C"]  # QH: Ann melds one, Cleo holds one... and QS twice more
    bad["hands"]["Ben"]["held"] = ["QS"]
    with pytest.raises(RecordInvalid):
        services.add_deal(game=game, data=bad)
    assert game.deals.count() == 0


def test_edit_recomputes_every_total_after():
    game = new_ok()
    for d in (OK_BIG, OK_SMALL, OK_SMALL):
        services.add_deal(game=game, data=ok_record_deal(d, NAMES))
    before = services.score_game(game).totals["Ann"]
    services.edit_deal(game=game, number=1, data=ok_record_deal(OK_SMALL, NAMES))
    after = services.score_game(game)
    assert after.totals["Ann"] == before - 395 - 5
    assert DealChange.objects.filter(action="edited").get().old["out"] == "Ann"


def test_an_invalid_edit_keeps_the_deal_as_it_was():
    game = new_ok()
    services.add_deal(game=game, data=ok_record_deal(OK_BIG, NAMES))
    bad = ok_record_deal(OK_BIG, NAMES)
    bad["out"] = "Nobody"
    with pytest.raises(RecordInvalid):
        services.edit_deal(game=game, number=1, data=bad)
    assert game.deals.get().data["out"] == "Ann"


def test_delete_renumbers_and_recomputes():
    game = new_ok()
    for d in (OK_BIG, OK_SMALL, OK_BIG):
        services.add_deal(game=game, data=ok_record_deal(d, NAMES))
    services.delete_deal(game=game, number=2)
    assert list(game.deals.values_list("number", flat=True)) == [1, 2]
    assert services.score_game(game).totals["Ann"] == 790
    assert DealChange.objects.filter(action="deleted", number=2).get().old["out"] == "Ben"


def test_the_game_ends_at_the_target_and_takes_no_more_deals():
    game = new_ok()
    for d in (OK_BIG, OK_BIG, OK_BIG):
        services.add_deal(game=game, data=ok_record_deal(d, NAMES))
    game.refresh_from_db()
    assert game.state == "finished" and game.winner == "Ann"
    with pytest.raises(RecordInvalid):
        services.add_deal(game=game, data=ok_record_deal(OK_SMALL, NAMES))
    # deleting the last deal reopens the game
    services.delete_deal(game=game, number=3)
    game.refresh_from_db()
    assert game.state == "in_progress" and game.winner == ""


def test_gin_game_to_target():
    game = services.create_game(game="oklahoma-gin", profile="standard", options={}, players=["Ann", "Ben"])
    for d in (GIN_BIG, GIN_KNOCK, GIN_BIG):
        services.add_deal(game=game, data=gin_record_deal(d, ["Ann", "Ben"]))
    result = services.score_game(game)
    assert result.state == "finished" and result.winner == "Ann"
    assert result.final["Ann"] == 428
