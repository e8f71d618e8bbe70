"""Pages that do not grow with the game (issue 23): the game page lists the last deals and sends
the phone to the review for the others."""

from __future__ import annotations

import pytest

from scorekeeper.table import present
from tests.app_data import OK_BIG, OK_SMALL, ok_record_deal
from tests.conftest import NAMES, new_game

pytestmark = pytest.mark.django_db


def test_the_game_page_lists_the_last_deals_and_links_the_review(table, client):
    game = new_game(table, options={"target": 10000}, deals=[ok_record_deal(OK_SMALL, NAMES)] * (present.SHOWN + 3))
    html = client.get(f"/games/{game.pk}/").content.decode()
    shown = [n for n in range(1, present.SHOWN + 4) if f'id="deal-{n}"' in html]
    assert shown == list(range(4, present.SHOWN + 4))
    assert "Deals 1 to 3 are in the" in html and f'href="/history/{game.pk}/"' in html


def test_a_short_game_lists_every_deal(table, client):
    game = new_game(table, options={"target": 10000}, deals=[ok_record_deal(OK_SMALL, NAMES)] * 3)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert all(f'id="deal-{n}"' in html for n in (1, 2, 3)) and "are in the" not in html


def test_the_review_is_paged_and_each_page_plays_its_own_deals(table, client, plays):
    from scorekeeper.history.review import PER_PAGE
    from scorekeeper.table.scoring import engine

    game = new_game(table, options={"target": 10000}, deals=[ok_record_deal(OK_SMALL, NAMES)] * (PER_PAGE + 5))
    engine.clear_caches()
    plays.clear()
    first = client.get(f"/history/{game.pk}/").content.decode()
    assert 'id="deal-1"' in first and f'id="deal-{PER_PAGE}"' in first and f'id="deal-{PER_PAGE + 1}"' not in first
    assert len(plays) == PER_PAGE  # cold: the page's deals alone are played
    assert '<svg class="chart"' in first and first.count("<polyline") == 3  # the chart has every deal
    assert 'href="?page=2#deals"' in first and "Later deals" in first
    plays.clear()
    second = client.get(f"/history/{game.pk}/?page=2").content.decode()
    assert f'id="deal-{PER_PAGE + 1}"' in second and f'id="deal-{PER_PAGE + 5}"' in second
    assert 'id="deal-1"' not in second and "Earlier deals" in second
    assert len(plays) == 5
    for page in ("0", "99", "x", "-1", "1" * 30):
        assert client.get(f"/history/{game.pk}/?page={page}").status_code == 200


def test_a_review_page_equals_the_whole_game_s_deals(table, client):
    """The deals a page plays from the stored standings are those of scoring the whole game."""
    from scorekeeper.table.scoring import engine

    game = new_game(table, options={"target": 10000}, deals=[ok_record_deal(OK_SMALL, NAMES)] * 7)
    whole, digests = engine.reviewed(game)
    played = engine.played_deals(game, 3, 6)
    assert played is not None
    assert digests is not None
    assert played[0] == list(whole.deals[2:6]) and played[1] == digests[2:6]


def test_a_rename_keeps_every_games_version_and_shows_everywhere(table, client):
    """A rename changes its table's ``names`` alone (no game's version: issue 23), which the games'
    cached fragments and results and their pages' validators hold: every game shows the new name."""
    from scorekeeper.history.services import rename_player
    from scorekeeper.table.models import Game

    done = new_game(table, options={"target": 100}, deals=[ok_record_deal(OK_BIG, NAMES)])
    assert Game.objects.get(pk=done.pk).finished
    playing = new_game(table, options={"target": 10000}, deals=[ok_record_deal(OK_SMALL, NAMES)])
    for url in (f"/games/{done.pk}/", f"/history/{done.pk}/"):
        assert "Annabel" not in client.get(url).content.decode()  # its fragments cached
    versions = dict(Game.objects.values_list("pk", "version"))
    rename_player(player=done.seats.get(position=0).player, name="Annabel")
    after = dict(Game.objects.values_list("pk", "version"))
    assert after == versions
    for url in (f"/games/{done.pk}/", f"/history/{done.pk}/", f"/games/{playing.pk}/"):
        assert "Annabel" in client.get(url).content.decode()


def test_a_long_game_s_chart_is_drawn_at_a_fixed_number_of_deals_and_its_pager_is_short():
    from scorekeeper.history import review
    from scorekeeper.history.charts import sampled

    assert sampled(7, 60) == [1, 2, 3, 4, 5, 6, 7] and sampled(0, 60) == []
    assert sampled(300, 60) == list(range(5, 301, 5)) and sampled(301, 60)[-1] == 301
    assert len(sampled(10_000, 60)) <= 61
    pager = review._pager(15, 30, 300)
    assert pager is not None
    shown = [link["page"] for link in pager["links"]]
    assert shown == [1, None, 13, 14, 15, 16, 17, None, 30]
    assert (pager["first"], pager["last"], pager["previous"], pager["next"]) == (141, 150, 14, 16)
