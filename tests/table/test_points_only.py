"""A points-only deal (issue 22): each player's points typed on a number pad, no cards; the engine
takes them as typed (``rules.points``) and every place the deal shows says "not checked": the deal
list, the deal's page, the review, the change history, the exports (JSON: the deal as
``{"points": ..., "winner": ...}``, docs/record.md; CSV: outcome ``points``); the statistics that
depend on cards (times out or gin, knocks, undercuts) leave it out."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from scorekeeper.rules import record
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.table.models import Deal, Game, Seat
from scorekeeper.table.scoring import deals as deal_services
from tests.conftest import body

POINTS = {"points": {"Ann": 120, "Ben": -35, "Cleo": 40}, "winner": "Ann"}


def post(game: Game, client: Client, values: dict[str, str], path: str = "") -> Any:
    page = client.get(path or f"/games/{game.pk}/deals/points/").content.decode()
    hidden = {
        n: page.split(f'name="{n}" value="')[1].split('"')[0]
        for n in ("number", "submission")
        if f'name="{n}" value="' in page
    }
    if 'name="version" value="' in page:
        hidden["version"] = page.split('name="version" value="')[1].split('"')[0]
    return client.post(path or f"/games/{game.pk}/deals/points/", {**hidden, **values})


def test_the_number_pad_saves_a_deal_marked_not_checked_in_the_deal_list(client: Client, ok_game: Game) -> None:
    page = client.get(f"/games/{ok_game.pk}/").content.decode()
    assert "Points only (not checked)" in page
    form = client.get(f"/games/{ok_game.pk}/deals/points/").content.decode()
    assert 'inputmode="numeric"' in form and "card" not in form.split("<form")[1].split("</form>")[0].lower()
    answer = post(ok_game, client, {"points_0": "120", "points_1": "-35", "points_2": "40", "winner": "0"})
    assert answer.status_code == 302
    deal = Deal.objects.get(game=ok_game)
    assert deal.cards == {"points": [120, -35, 40], "winner": 0} and deal.points == [120, -35, 40]
    assert deal.outcome == "points" and deal.totals == [120, -35, 40]
    page = client.get(f"/games/{ok_game.pk}/").content.decode()
    assert "points only, not checked" in page and "Ann</strong> deals next" in page


def test_bad_points_are_said_beside_the_field_nothing_lost(client: Client, ok_game: Game) -> None:
    answer = post(ok_game, client, {"points_0": "12x", "points_1": "", "points_2": "99999999"})
    text = answer.content.decode()
    assert answer.status_code == 400 and 'value="12x"' in text and "Enter Ben&#x27;s points" in text
    assert not ok_game.deals.exists()


def test_the_deal_page_review_and_change_history_say_not_checked(client: Client, ok_game: Game) -> None:
    deal = deal_services.add_deal(game=ok_game, deal=POINTS)
    assert "points typed, not checked" in client.get(f"/games/{ok_game.pk}/deals/{deal.pk}/").content.decode()
    assert "points only, not checked" in client.get(f"/history/{ok_game.pk}/").content.decode()
    changes = client.get(f"/history/{ok_game.pk}/changes/").content.decode()
    assert "points only <strong>not checked</strong>" in changes and "<strong>−35</strong>" in changes


def test_a_points_only_deal_is_edited_as_points(client: Client, ok_game: Game) -> None:
    deal = deal_services.add_deal(game=ok_game, deal=POINTS)
    path = f"/games/{ok_game.pk}/deals/{deal.pk}/edit/"
    page = client.get(path).content.decode()
    assert 'name="points_1"' in page and 'value="-35"' in page
    answer = post(ok_game, client, {"points_0": "100", "points_1": "-35", "points_2": "40", "winner": "0"}, path)
    assert answer.status_code == 302
    deal.refresh_from_db()
    assert deal.points == [100, -35, 40] and deal.version == 2


def test_the_exports_say_what_it_is_and_it_imports_again(client: Client, ok_game: Game) -> None:
    deal_services.add_deal(game=ok_game, deal=POINTS)
    exported = json.loads(body(client.get(f"/history/{ok_game.pk}/export.json")))
    rec = exported[0] if isinstance(exported, list) else exported
    assert rec["deals"] == [POINTS]
    assert record.score_record(rec).deals[0].outcome == "points"
    csv = body(client.get(f"/history/{ok_game.pk}/export.csv")).decode()
    assert ',"points only, not checked",Ann,1,120,' in csv and ",points,in_progress\n" in csv  # said, and its code
    upload = SimpleUploadedFile("x.json", json.dumps([rec]).encode())
    assert client.post("/history/import/", {"file": upload}).status_code in (200, 302)
    again = Game.objects.exclude(pk=ok_game.pk).get()
    assert list(again.deals.values_list("cards", flat=True)) == [{"points": [120, -35, 40], "winner": 0}]


def test_stats_that_depend_on_cards_leave_it_out(ok_game: Game) -> None:
    deal_services.add_deal(game=ok_game, deal=POINTS)
    ann = Seat.objects.get(game=ok_game, position=0)
    assert (ann.outs, ann.knocks, ann.deals, ann.points) == (0, 0, 1, 120)


def test_gin_points_and_the_game_ends_as_after_cards(make_game: Any) -> None:
    game = make_game(kind="oklahoma-gin", profile="standard", players=["Ann", "Ben"])
    deal_services.add_deal(game=game, deal={"points": {"Ann": 250, "Ben": 0}, "winner": "Ann"})
    game.refresh_from_db()
    ann = Seat.objects.get(game=game, position=0)
    assert game.finished and game.winner == 0 and ann.final is not None and ann.final >= 250


@pytest.mark.parametrize(
    "deal",
    [
        {"points": {"Ann": 1, "Ben": 2}},  # Cleo missing
        {"points": {"Ann": 1, "Ben": 2, "Cleo": True}},
        {"points": {"Ann": 1, "Ben": 2, "Cleo": 3, "Dora": 4}},
        {"points": {"Ann": 1, "Ben": 2, "Cleo": 3}, "winner": "Dora"},
        {"points": {"Ann": 1, "Ben": 2, "Cleo": 3}, "held": []},
    ],
)
def test_the_engine_refuses_what_is_not_a_points_only_deal(ok_game: Game, deal: dict[str, Any]) -> None:
    with pytest.raises(RecordInvalid):
        deal_services.add_deal(game=ok_game, deal=deal)
    assert not ok_game.deals.exists()


def test_hollywood_refuses_points_only(make_game: Any) -> None:
    game = make_game(kind="oklahoma-gin", profile="standard", players=["Ann", "Ben"], options={"hollywood": True})
    with pytest.raises(RecordInvalid, match="three columns"):
        deal_services.add_deal(game=game, deal={"points": {"Ann": 25, "Ben": 0}})


def test_the_record_refuses_points_not_by_name() -> None:
    rec: dict[str, Any] = {"format": "oklahoma-scorekeeper/1", "game": "oklahoma", "rules": {"profile": "book"}}
    rec |= {"players": ["Ann", "Ben"], "deals": [{"points": [1, 2]}]}
    with pytest.raises(RecordInvalid, match="one number per player"):
        record.score_record(rec)
