"""The pages read what the writes store: the game page's board and deal list come from the
stored results without scoring a deal, and a game's full result is rebuilt deal by deal from the
stored standings. Both must always be exactly what scoring the whole game from scratch gives."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings

from scorekeeper.table import present
from scorekeeper.table.models import Deal, Game
from scorekeeper.table.scoring import deals as deal_services
from scorekeeper.table.scoring import engine
from tests.app_data import OK_SMALL, ok_record_deal
from tests.conftest import NAMES, as_phone, new_game
from tests.table.test_incremental import GIN_POOL, OK_POOL, apply, long_game, ops, scratch

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("kind, pool", [("oklahoma", OK_POOL), ("oklahoma-gin", GIN_POOL)])
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=ops)
def test_pages_from_stored_results_are_those_of_scoring_from_scratch(table, kind, pool, steps):
    game = long_game(table, kind)
    for op, index, which in steps:
        apply(game, op, index, which, pool)
        fresh = Game.objects.prefetch_related("seats__player").get(pk=game.pk)
        whole = scratch(fresh)
        assert engine.replay(fresh) == whole
        assert engine.replay(fresh) == whole  # the second time from the per-deal cache
        assert engine.game_result(fresh) == whole
        rules, _ = engine.rules_of(fresh)
        page = present.GamePage(fresh, rules)
        assert page.board == present.board_of_result(fresh, rules, whole)
        assert page.deals == present.rows_of_result(fresh, whole)[-present.SHOWN :]
        assert present.deal_rows(fresh) == present.rows_of_result(fresh, whole)
        assert page.count == len(whole.deals)


def test_a_save_replays_only_the_deals_it_changed(table, plays):
    game = new_game(table, options={"target": 10000}, deals=OK_POOL[:2] * 5)
    engine.game_result(game)
    calls = plays
    calls.clear()

    deal_services.add_deal(game=game, deal=OK_POOL[1])
    assert calls == [11]  # the save
    calls.clear()
    assert engine.game_result(game) == scratch(game)
    assert calls == [11]  # the page after it: the new deal alone
    calls.clear()
    third = Deal.objects.get(game=game, number=3)
    deal_services.edit_deal(game=game, deal_id=third.pk, version=third.version, deal=OK_POOL[1])
    calls.clear()
    assert engine.game_result(game) == scratch(game)
    assert calls == list(range(3, 12))


def test_replay_of_a_corrupted_standing_scores_from_scratch(table):
    game = new_game(table, options={"target": 10000}, deals=OK_POOL[:2] * 2)
    Deal.objects.filter(game=game, number=2).update(standing={**game.deals.get(number=2).standing, "totals": [1, 2, 3]})
    assert engine.replay(game) == scratch(game)


def test_game_page_plays_no_deal_and_its_queries_do_not_grow(client, table, monkeypatch):
    small = new_game(table, options={"target": 10000}, deals=[ok_record_deal(OK_SMALL, NAMES)] * 2)
    big = new_game(table, options={"target": 10000}, deals=[ok_record_deal(OK_SMALL, NAMES)] * 12)

    def refused(*args: Any) -> Any:
        raise AssertionError("the game page scored a deal")

    monkeypatch.setattr(engine.games, "play", refused)
    monkeypatch.setattr(engine.games, "score_game", refused)
    counts = []
    for game in (small, big, small, big):  # the first two fill the page's cached fragments
        with CaptureQueriesContext(connection) as q:
            response = client.get(f"/games/{game.pk}/")
        assert response.status_code == 200
        counts.append(len(q))
    assert counts[0] == counts[1] and counts[2] == counts[3] <= counts[0]
    html = client.get(f"/games/{big.pk}/").content.decode()
    assert 'id="deal-12"' in html and "Enter deal 13" in html


def test_a_following_phone_takes_the_board_and_deal_list_the_scorer_made(table, scorer, follower):
    """After a save every phone of the table asks for the new version: the board and the deal
    list are made once a version for all of them, whatever their role (the Enter-deal link,
    a scorer's alone, is a fragment of its own)."""
    game = new_game(table, options={"target": 10000}, deals=[ok_record_deal(OK_SMALL, NAMES)] * 3)
    page = f"/games/{game.pk}/"
    scoring = as_phone(Client(), scorer).get(page).content.decode()
    with CaptureQueriesContext(connection) as q:
        following = as_phone(Client(), follower).get(page).content.decode()
    assert not [x["sql"] for x in q.captured_queries if '"table_deal"' in x["sql"]]

    def deals(html: str) -> str:
        return html[html.index('<section aria-labelledby="deals-h">') : html.index('<section id="seats"')]

    assert 'id="deal-3"' in deals(following) and deals(following) == deals(scoring)
    assert "Enter deal 4" in scoring and "Enter deal 4" not in following


def test_a_game_scored_by_another_engine_version_is_scored_from_its_record(client, table):
    game = new_game(table, options={"target": 10000}, deals=[ok_record_deal(OK_SMALL, NAMES)] * 3)
    Game.objects.filter(pk=game.pk).update(scored_with="an older engine")
    fresh = Game.objects.prefetch_related("seats__player").get(pk=game.pk)
    rules, _ = engine.rules_of(fresh)
    page = present.GamePage(fresh, rules)
    whole = scratch(fresh)
    assert page.board == present.board_of_result(fresh, rules, whole) and page.count == 3
    assert engine.replay(fresh) == whole
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="deal-3"' in html and "Enter deal 4" in html
