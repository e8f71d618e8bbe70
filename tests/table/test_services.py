from typing import Any

import pytest
from django.utils import translation

from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.table import submissions
from scorekeeper.table.games import services as game_services
from scorekeeper.table.models import Change, Device, Game, Player, Table
from scorekeeper.table.scoring import deals as deal_services
from scorekeeper.table.scoring import engine
from tests.app_data import GIN_BIG, GIN_KNOCK, OK_BIG, OK_SMALL, gin_record_deal, ok_record_deal
from tests.conftest import NAMES

pytestmark = pytest.mark.django_db


@pytest.fixture
def new_ok(table, scorer):
    def make(**kw):
        args: dict[str, Any] = {
            "kind": "oklahoma",
            "profile": "book",
            "options": {},
            "players": NAMES,
            "first_dealer": 1,
        }
        args.update(kw)
        return game_services.create_game(table=table, by=scorer, **args)

    return make


def deal_id(game, number):
    return game.deals.get(number=number).pk


def test_create_game_keeps_rules_players_and_first_dealer(new_ok):
    game = new_ok(options={"k8_in_hand": -10})
    assert game.player_names() == NAMES
    assert engine.rules_of(game)[0].target == 1000 and game.options == {"k8_in_hand": -10}
    record = engine.game_record(game)
    assert record["first_dealer"] == "Ben" and record["deals"] == []
    assert record["rules"] == {"profile": "book", "options": {"k8_in_hand": -10}}


def test_create_game_reuses_a_known_player_whatever_the_case(new_ok):
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
def test_create_game_refuses_what_the_rules_refuse(new_ok, kwargs):
    with pytest.raises(RecordInvalid):
        new_ok(first_dealer=0, **kwargs)
    # nothing half-written
    assert not Game.objects.exists()


START: dict[str, Any] = {"kind": "oklahoma", "profile": "book", "options": {}, "players": NAMES, "first_dealer": 0}


def test_start_game_by_a_phone_of_no_table_starts_the_table_with_the_game(db):
    game, device = game_services.start_game(device=None, **START, submission="s" * 24)
    assert device.table == game.table and device.role == "score" and game.player_names() == NAMES
    assert Change.objects.filter(game=game).count() == 0 and Table.objects.count() == 1
    # submitted again: answered as the first time, no second table
    with pytest.raises(submissions.Duplicate):
        game_services.start_game(device=None, **START, submission="s" * 24)
    assert Table.objects.count() == 1 and Game.objects.count() == 1


def test_a_table_started_by_a_german_phone_has_german_names(db):
    with translation.override("de"):
        game, device = game_services.start_game(device=None, **START)
    assert (game.table.name, device.name) == ("Unser Tisch", "Handy des Schreibers")
    game, device = game_services.start_game(device=None, **START)
    assert (game.table.name, device.name) == ("Our table", "Scorer's phone")


def test_start_game_refused_leaves_no_table_behind(db):
    with pytest.raises(RecordInvalid):
        game_services.start_game(device=None, **{**START, "players": ["Ann"]})
    assert not Table.objects.exists() and not Device.objects.exists()


def test_start_game_by_a_scoring_phone_starts_it_at_its_table(table, scorer):
    game, device = game_services.start_game(device=scorer, **START)
    assert device == scorer and game.table == table and Table.objects.count() == 1


def test_add_deal_scores_and_logs_the_change(new_ok):
    game = new_ok()
    data = ok_record_deal(OK_BIG, NAMES)
    deal = deal_services.add_deal(game=game, deal=data)
    assert deal.number == 1 and engine.record_deal(deal.cards, NAMES) == data
    result = engine.game_result(game)
    assert result.totals["Ann"] == 395
    change = Change.objects.get()
    assert (
        change.action == "added"
        and change.after is not None
        and engine.record_deal(change.after, NAMES) == data
        and change.before is None
    )


def test_an_invalid_deal_is_never_saved(new_ok):
    game = new_ok()
    bad = ok_record_deal(OK_BIG, NAMES)
    bad["hands"]["Ben"]["melds"] = [["5S", "6S", "8S"]]
    with pytest.raises(RecordInvalid) as exc:
        deal_services.add_deal(game=game, deal=bad)
    assert any(e.player == "Ben" for e in exc.value.errors)
    assert game.deals.count() == 0 and Change.objects.count() == 0


def test_a_card_used_three_times_is_refused(new_ok):
    game = new_ok()
    bad = ok_record_deal(OK_BIG, NAMES)
    bad["hands"]["Cleo"]["held"] = ["QS", "QH", "4C"]  # QH: Ann melds one, Cleo holds one... and QS twice more
    bad["hands"]["Ben"]["held"] = ["QS"]
    with pytest.raises(RecordInvalid):
        deal_services.add_deal(game=game, deal=bad)
    assert game.deals.count() == 0


def test_edit_recomputes_every_total_after(new_ok):
    game = new_ok()
    for d in (OK_BIG, OK_SMALL, OK_SMALL):
        deal_services.add_deal(game=game, deal=ok_record_deal(d, NAMES))
    before = engine.game_result(game).totals["Ann"]
    deal_services.edit_deal(game=game, deal_id=deal_id(game, 1), version=None, deal=ok_record_deal(OK_SMALL, NAMES))
    after = engine.game_result(game)
    assert after.totals["Ann"] == before - 395 - 5
    assert (Change.objects.filter(action="edited").get().before or {})["out"] == NAMES.index("Ann")


def test_an_invalid_edit_keeps_the_deal_as_it_was(new_ok):
    game = new_ok()
    deal_services.add_deal(game=game, deal=ok_record_deal(OK_BIG, NAMES))
    bad = ok_record_deal(OK_BIG, NAMES)
    bad["out"] = "Nobody"
    with pytest.raises(RecordInvalid):
        deal_services.edit_deal(game=game, deal_id=deal_id(game, 1), version=None, deal=bad)
    assert game.deals.get().cards["out"] == NAMES.index("Ann")


def test_delete_renumbers_and_recomputes(new_ok):
    game = new_ok()
    for d in (OK_BIG, OK_SMALL, OK_BIG):
        deal_services.add_deal(game=game, deal=ok_record_deal(d, NAMES))
    deal_services.delete_deal(game=game, deal_id=deal_id(game, 2), version=None)
    assert list(game.deals.values_list("number", flat=True)) == [1, 2]
    assert engine.game_result(game).totals["Ann"] == 790
    assert (Change.objects.filter(action="deleted", number=2).get().before or {})["out"] == NAMES.index("Ben")


def test_the_game_ends_at_the_target_and_takes_no_more_deals(new_ok):
    game = new_ok()
    for d in (OK_BIG, OK_BIG, OK_BIG):
        deal_services.add_deal(game=game, deal=ok_record_deal(d, NAMES))
    game.refresh_from_db()
    assert game.state == "finished" and game.winner_name() == "Ann"
    with pytest.raises(RecordInvalid):
        deal_services.add_deal(game=game, deal=ok_record_deal(OK_SMALL, NAMES))
    # deleting the last deal reopens the game
    deal_services.delete_deal(game=game, deal_id=deal_id(game, 3), version=None)
    game.refresh_from_db()
    assert game.state == "in_progress" and game.winner_name() == ""


def test_gin_game_to_target(new_ok):
    game = new_ok(kind="oklahoma-gin", profile="standard", players=["Ann", "Ben"], first_dealer=None)
    for d in (GIN_BIG, GIN_KNOCK, GIN_BIG):
        deal_services.add_deal(game=game, deal=gin_record_deal(d, ["Ann", "Ben"]))
    result = engine.game_result(game)
    assert result.state == "finished" and result.winner == "Ann"
    assert result.final is not None and result.final["Ann"] == 428
