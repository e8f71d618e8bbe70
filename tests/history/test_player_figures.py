"""The players' figures the writes keep (``PlayerFigures``, ``HeadToHead``, each seat's kind and
signed best and worst values: ``table.figures``) equal the calculation from scratch after every kind
of write — a game made, deals saved, edited, deleted, restored and undone, a game's end and its
undoing, a rules switch to penalty points and back, the players' own hands, the results scored
again, an import, a rename, a merge, a game deleted — and so does the player page's every figure
(``stats.player_stats`` against adding up every seat, ``test_stats_at_scale.reference``). The
migration that made them fills them from the seats as the writes would have."""

from __future__ import annotations

import importlib
from collections import defaultdict
from typing import Any

import pytest
from django.apps import apps
from django.contrib.admin.sites import site
from django.test import RequestFactory

from scorekeeper.history import imports as history_imports
from scorekeeper.history import services as history_services
from scorekeeper.rules.record import FORMAT
from scorekeeper.table.games import services as game_services
from scorekeeper.table.hands import services as hand_services
from scorekeeper.table.models import (
    Change,
    Device,
    Game,
    GameState,
    HeadToHead,
    Player,
    PlayerFigures,
    Role,
    Seat,
    Table,
)
from scorekeeper.table.phones import services as phone_services
from scorekeeper.table.scoring import deals as deal_services
from scorekeeper.table.scoring import engine
from tests.app_data import GIN_BIG, GIN_KNOCK, OK_BIG, OK_SMALL, gin_record_deal, ok_record_deal
from tests.conftest import NAMES, new_game
from tests.history.test_stats_at_scale import figures, random_record, reference

pytestmark = pytest.mark.django_db

PLAYER_SUMS = ("games", "finished", "won", "deals", "points", "outs", "knocks", "undercuts_given", "undercuts_suffered")
PAIR_SUMS = ("games", "won", "lost", "finished")


def from_scratch(table: Table) -> tuple[dict[Any, list[int]], dict[Any, list[int]]]:
    """Every player's figures by game and against each other player, added up from every seat."""
    players: dict[Any, list[int]] = defaultdict(lambda: [0] * len(PLAYER_SUMS))
    pairs: dict[Any, list[int]] = defaultdict(lambda: [0] * len(PAIR_SUMS))
    at: dict[int, list[Seat]] = defaultdict(list)
    for seat in Seat.objects.filter(game__table=table).select_related("game"):
        at[seat.game_id].append(seat)
    for seats in at.values():
        game = seats[0].game
        ended = game.state == GameState.FINISHED
        for s in seats:
            mine = (1, ended, s.won, s.deals, s.points, s.outs, s.knocks, s.undercuts_given, s.undercuts_suffered)
            players[(s.player_id, game.kind)] = [
                a + int(b) for a, b in zip(players[(s.player_id, game.kind)], mine, strict=True)
            ]
            for o in seats:
                if o.player_id != s.player_id:
                    key = (s.player_id, o.player_id)
                    pairs[key] = [a + int(b) for a, b in zip(pairs[key], (1, s.won, o.won, ended), strict=True)]
    return dict(players), dict(pairs)


def stored(table: Table) -> tuple[dict[Any, list[int]], dict[Any, list[int]]]:
    """The rows kept, but those of nothing (a game deleted, say, leaves its players' rows at 0)."""
    players = {
        (f.player_id, f.kind): [getattr(f, n) for n in PLAYER_SUMS]
        for f in PlayerFigures.objects.filter(player__table=table)
    }
    rows = HeadToHead.objects.filter(player__table=table).select_related("other")
    assert all(h.other.table_id == table.pk for h in rows)  # two players of one table
    pairs = {(h.player_id, h.other_id): [getattr(h, n) for n in PAIR_SUMS] for h in rows}
    pairs = {key: sums for key, sums in pairs.items() if any(sums)}
    return {key: sums for key, sums in players.items() if any(sums)}, pairs


def check(table: Table) -> None:
    """The kept figures are those from scratch; so are the seats' kinds and signed values, and the
    player page's every figure for every player of the table."""
    assert stored(table) == from_scratch(table)
    for seat in Seat.objects.filter(game__table=table).select_related("game"):
        sign = -1 if engine.rules_of(seat.game)[0].penalty else 1
        assert seat.kind == seat.game.kind
        assert seat.best_value == (None if seat.best_points is None else sign * seat.best_points)
        assert seat.worst_value == (None if seat.worst_points is None else sign * seat.worst_points)
    for player in Player.objects.filter(table=table):
        assert figures(player) == reference(player), player.name


def _record(names: list[str], *deals: dict[str, Any]) -> dict[str, Any]:
    return {"format": FORMAT, "game": "oklahoma", "rules": {"profile": "book"}, "players": names, "deals": list(deals)}


def _own_hands(table: Table, scorer: Device, game: Game) -> None:
    """The next deal entered by the players on their own phones, and saved."""
    phones = [Device.objects.create(table=table, name=f"{n}'s phone", role=Role.FOLLOW) for n in NAMES]
    for i, phone in enumerate(phones):
        phone_services.sit(game=game, position=i, phone=phone, by=phone)
    hand_services.open_deal(game=game, by=phones[0])
    deal = ok_record_deal(OK_SMALL, NAMES)
    facts = {"out": 1, "first_turn": False, "concealed": False, "late_misdeal": False}
    for i, phone in enumerate(phones):
        hand = deal["hands"][NAMES[i]]
        melded = [card for meld in hand["melds"] for card in meld]
        hand_services.submit_hand(
            game=game,
            seat=i,
            hand={"melded": melded, "held": hand["held"]},
            facts=None if i else facts,
            by=phone,
        )
    hand_services.save_open_deal(game=game, by=scorer)


def test_the_kept_figures_follow_every_write(table, scorer):
    check(table)
    game = new_game(table, deals=[ok_record_deal(OK_SMALL, NAMES)])  # made, a deal saved
    check(table)
    deal_services.add_deal(game=game, deal=ok_record_deal(OK_BIG, NAMES))
    deal_services.add_deal(game=game, deal=ok_record_deal(OK_BIG, NAMES))
    check(table)
    deal_services.add_deal(game=game, deal=ok_record_deal(OK_BIG, NAMES))  # Ann reaches 1,000: the game ends
    game.refresh_from_db()
    assert game.finished
    check(table)
    last = game.deals.get(number=4)
    deal_services.edit_deal(game=game, deal_id=last.pk, version=last.version, deal=ok_record_deal(OK_SMALL, NAMES))
    game.refresh_from_db()
    assert not game.finished  # it goes on
    check(table)
    deal_services.delete_deal(game=game, deal_id=game.deals.get(number=2).pk, version=None)
    check(table)
    deleted = Change.objects.filter(game=game).order_by("-id").first()
    assert deleted is not None
    deal_services.undo(game=game, change_id=deleted.pk)  # the deal restored in its place
    check(table)
    edited = Change.objects.filter(game=game, action="edited").get()
    deal_services.undo(game=game, change_id=edited.pk)  # the edit undone: the game ended again
    game.refresh_from_db()
    assert game.finished
    check(table)

    gin = new_game(
        table,
        kind="oklahoma-gin",
        profile="standard",
        players=["Ann", "Dora"],
        deals=[gin_record_deal(GIN_KNOCK, ["Ann", "Dora"])],
    )
    deal_services.add_deal(game=gin, deal=gin_record_deal(GIN_BIG, ["Ann", "Dora"]))
    check(table)
    deal_services.switch_rules(
        game=gin, profile="standard", options={"scoring": "penalty", "game_bonus": 0, "target": 100}
    )
    check(table)  # penalty points: the seats' values and the best and worst deals turn round
    switched = Change.objects.filter(game=gin, action="rules").get()
    deal_services.undo(game=gin, change_id=switched.pk)
    check(table)

    playing = new_game(table, first_dealer=0, deals=[ok_record_deal(OK_SMALL, NAMES)])
    _own_hands(table, scorer, playing)
    check(table)
    Game.objects.filter(pk=playing.pk).update(scored_with="")  # stored by another version of the engine
    assert deal_services.refresh_results() == 1
    check(table)

    report = history_imports.import_records(
        table=table,
        records=[_record(["Ann", "Eve", "Ben"], ok_record_deal(OK_BIG, ["Ann", "Eve", "Ben"])), _record(NAMES)],
    )
    assert report.ok
    check(table)
    history_services.rename_player(player=Player.objects.get(table=table, key="ben"), name="Benjamin")
    check(table)
    dora, cleo = Player.objects.get(table=table, key="dora"), Player.objects.get(table=table, key="cleo")
    history_services.merge_players(source=cleo, into=dora)  # Cleo's games and opponents become Dora's
    check(table)
    game_services.delete_game(game=game)
    check(table)
    request = RequestFactory().post("/admin/")
    site.get_model_admin(Game).delete_queryset(request, Game.objects.filter(pk=gin.pk))  # the admin's delete
    assert not Game.objects.filter(pk=gin.pk).exists()
    check(table)


def test_two_tables_keep_their_own_figures(table):
    import random

    rng = random.Random(3)
    other, _ = phone_services.create_table(name="Other", device_name="Theirs")
    assert history_imports.import_records(table=table, records=[random_record(rng) for _ in range(12)]).ok
    assert history_imports.import_records(table=other, records=[random_record(rng) for _ in range(12)]).ok
    check(table)
    check(other)


def test_the_migration_fills_them_as_the_writes_keep_them(table):
    import random

    rng = random.Random(5)
    assert history_imports.import_records(table=table, records=[random_record(rng) for _ in range(20)]).ok
    new_game(table, players=["Ann", "Ben"], deals=[])  # a game of no deal yet
    check(table)
    kept = stored(table)
    PlayerFigures.objects.all().delete()
    HeadToHead.objects.all().delete()
    Seat.objects.update(kind="", best_value=None, worst_value=None)
    migration = importlib.import_module("scorekeeper.table.migrations.0009_player_figures")
    migration.fill(apps, None)
    assert stored(table) == kept
    check(table)
