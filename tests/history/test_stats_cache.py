"""The player page's kept figures (``stats_cache.kept_player_stats``) equal the plain path's
(``stats.player_stats``) after every kind of write to the table's games and players."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from scorekeeper.history import services as history_services
from scorekeeper.history.stats import player_stats
from scorekeeper.history.stats_cache import kept_player_stats
from scorekeeper.rules.record import FORMAT
from scorekeeper.table import services
from scorekeeper.table.models import Change, Player
from tests.app_data import OK_BIG, OK_SMALL, ok_record_deal
from tests.conftest import NAMES, new_game

pytestmark = pytest.mark.django_db


def _same(pk: int) -> None:
    player = Player.objects.select_related("table").get(pk=pk)
    kept = kept_player_stats(player)
    assert kept == player_stats(player)
    assert kept_player_stats(Player.objects.select_related("table").get(pk=pk)) == kept  # kept now


def test_the_kept_figures_follow_every_write(table, scorer):
    cache.clear()
    game = new_game(table, options={"target": 10000}, deals=[ok_record_deal(OK_SMALL, NAMES)])
    ann = Player.objects.get(table=table, key="ann")
    _same(ann.pk)
    services.add_deal(game=game, deal=ok_record_deal(OK_BIG, NAMES))
    _same(ann.pk)
    first = game.deals.get(number=1)
    services.edit_deal(game=game, deal_id=first.pk, version=first.version, deal=ok_record_deal(OK_BIG, NAMES))
    _same(ann.pk)
    services.delete_deal(game=game, deal_id=game.deals.get(number=2).pk, version=None)
    _same(ann.pk)
    last = Change.objects.filter(game=game).order_by("-id").first()
    assert last is not None
    services.undo(game=game, change_id=last.pk)
    _same(ann.pk)
    services.switch_rules(game=game, profile="laws", options={"target": 10000}, by=scorer)
    _same(ann.pk)
    new_game(table, players=["Ann", "Dora", "Ben"], deals=[ok_record_deal(OK_BIG, ["Ann", "Dora", "Ben"])])
    _same(ann.pk)
    deal = ok_record_deal(OK_SMALL, NAMES)
    record = {"format": FORMAT, "game": "oklahoma", "rules": {"profile": "book"}, "players": NAMES, "deals": [deal]}
    assert history_services.import_records(table=table, records=[record]).ok
    _same(ann.pk)
    history_services.rename_player(player=Player.objects.get(table=table, key="ben"), name="Benjamin")
    _same(ann.pk)  # head to head names him
    history_services.rename_player(player=ann, name="Annabel")
    _same(ann.pk)
    dora = Player.objects.get(table=table, key="dora")
    history_services.merge_players(source=Player.objects.get(table=table, key="cleo"), into=dora)
    _same(ann.pk)
    _same(dora.pk)
