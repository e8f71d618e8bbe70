"""History: games list, review page, change history, player pages, rename/merge, re-scoring,
export and import (round trip, invalid records leave nothing behind), bounded queries."""

import csv
import io
import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper.history import imports as history_imports
from scorekeeper.history import rescore, stats, transfer
from scorekeeper.history import services as history_services
from scorekeeper.rules.record import result_json, score_record
from scorekeeper.table.changes import change_history
from scorekeeper.table.models import Change, ChangeAction, Deal, Game, Player, Seat
from scorekeeper.table.scoring import deals as deal_services
from scorekeeper.table.scoring import engine
from scorekeeper.table.scoring.store import SEAT_FIGURES
from tests.app_data import GIN_BIG, GIN_KNOCK, OK_BIG, OK_SMALL, gin_record_deal, ok_record_deal
from tests.conftest import NAMES, new_game

pytestmark = pytest.mark.django_db
TABLE: Any = None  # the test's table (set by the_table)


@pytest.fixture(autouse=True)
def the_table(table):
    """The games of this module's helpers are made at the test's table (the client's)."""
    global TABLE
    TABLE = table


PARTY_KNOCK = {
    "upcard": "5H",
    "knocker": "Ann",
    "hands": {
        "Ann": {"melds": [["3C", "4C", "5C"], ["9D", "9H", "9S"]], "deadwood": ["2S"]},
        "Ben": {"cards": ["KH", "KD", "QC", "7D", "8H", "AH", "6S"]},
        "Cleo": {"cards": ["2H", "3H", "4H", "JS", "JC", "10D", "6C"]},
    },
}


def ok_game(deals=(OK_BIG, OK_SMALL), profile="book", names=NAMES, options=None):
    return new_game(
        TABLE,
        kind="oklahoma",
        profile=profile,
        options=options,
        players=names,
        first_dealer=0,
        deals=[ok_record_deal(d, list(names)) for d in deals],
    )


def gin_game(deals=(GIN_KNOCK, GIN_BIG), profile="standard", names=("Ann", "Ben")):
    return new_game(
        TABLE,
        kind="oklahoma-gin",
        profile=profile,
        players=names,
        deals=[gin_record_deal(d, list(names)) for d in deals],
    )


def edit(game, number, deal):
    return deal_services.edit_deal(game=game, deal_id=game.deals.get(number=number).pk, version=None, deal=deal)


def delete(game, number):
    deal_services.delete_deal(game=game, deal_id=game.deals.get(number=number).pk, version=None)


def deals_as_entered(game):
    return engine.game_record(game)["deals"]


# ----------------------------------------------------------------------------------- games list


def test_games_list_newest_first_and_filters(client):
    g1 = ok_game()
    g2 = gin_game()
    g3 = ok_game(names=["Dora", "Eve", "Fay"])
    html = client.get("/history/").content.decode()
    assert html.index(f"/history/{g3.pk}/") < html.index(f"/history/{g2.pk}/") < html.index(f"/history/{g1.pk}/")
    html = client.get("/history/?player=ann").content.decode()
    assert f"/history/{g1.pk}/" in html and f"/history/{g2.pk}/" in html and f"/history/{g3.pk}/" not in html
    html = client.get("/history/?game=oklahoma-gin").content.decode()
    assert f"/history/{g2.pk}/" in html and f"/history/{g1.pk}/" not in html
    part = client.get("/history/?game=oklahoma", headers={"HX-Request": "true"}).content.decode()
    assert part.strip().startswith('<div id="game-list"') and "<html" not in part


@pytest.mark.parametrize("query", ["?page=zz", "?game=chess", "?state=%00", "?player=" + "x" * 500])
def test_games_list_bad_parameters(client, query):
    ok_game()
    assert client.get("/history/" + query).status_code == 200


# ---------------------------------------------------------------------------------- review page


def test_review_page_shows_every_deal_lines_and_chart(client):
    game = ok_game()
    html = client.get(f"/history/{game.pk}/").content.decode()
    assert '<svg class="chart"' in html and html.count("<polyline") == 3
    assert 'id="deal-1"' in html and 'id="deal-2"' in html
    assert "Q♠" in html and "S0" in html  # cards with symbols, lines with sources
    result = engine.game_result(game)
    for name, total in result.totals.items():
        assert f"{name} {total:,}".replace("-", "−") in html  # chart end labels, with a true minus sign
    assert "style=" not in html


def test_review_of_unknown_game_is_404(client):
    assert client.get("/history/99999/").status_code == 404
    assert client.get("/history/99999/rescore/").status_code == 404
    assert client.get("/history/99999/export.json").status_code == 404


def test_review_queries_do_not_grow_with_deals(client):
    small = ok_game(deals=[OK_SMALL] * 2, options={"target": 10000})
    big = ok_game(deals=[OK_SMALL] * 12, options={"target": 10000})
    client.get(f"/history/{small.pk}/")
    client.get(f"/history/{big.pk}/")
    with CaptureQueriesContext(connection) as q1:
        client.get(f"/history/{small.pk}/")
    with CaptureQueriesContext(connection) as q2:
        client.get(f"/history/{big.pk}/")
    assert len(q1) == len(q2) <= 10


def test_change_history_shows_created_edited_deleted(client):
    game = ok_game()
    first, second = game.deals.order_by("number").values_list("pk", flat=True)  # ids: not 1, 2 on PostgreSQL
    edit(game, 1, ok_record_deal(OK_SMALL, NAMES))
    delete(game, 2)
    html = client.get(f"/history/{game.pk}/changes/").content.decode()
    assert "Deal 1 edited" in html and "Deal 2 deleted" in html and "Deal 1 entered" in html
    assert "before" in html and "after" in html
    one = client.get(f"/history/{game.pk}/changes/?deal={second}").content.decode()
    assert "Deal 2 deleted" in one and "Deal 1 edited" not in one
    review = client.get(f"/history/{game.pk}/").content.decode()
    assert "change" in review and f"/history/{game.pk}/changes/?deal={first}" in review


# ---------------------------------------------------------------------------------- player pages


def test_player_stats_oklahoma():
    game = ok_game()
    result = engine.game_result(game)
    ann = Player.objects.get(name="Ann")
    s = stats.player_stats(ann)
    k = s.kinds[0]
    assert s.played == 1 and k.games == 1 and k.deals == 2
    pts = [d.players["Ann"].points for d in result.deals]
    assert k.points == sum(pts) and k.average == round(sum(pts) / 2, 1)
    assert k.out == 1  # Ann went out in OK_BIG
    assert k.best is not None and k.worst is not None
    assert k.best["points"] == max(pts) and k.worst["points"] == min(pts)
    assert {o["name"] for o in s.opponents} == {"Ben", "Cleo"}


def test_player_stats_gin_undercuts_and_head_to_head():
    undercut = {
        "upcard": "10H",
        "knocker": 0,
        "melds": {0: ["5S 6S 7S", "JD JC JS"], 1: []},
        "deadwood": {0: "AS 2D 3C 4C", 1: ""},
        "cards": {0: "", 1: "KH KD KC 2H 3H 4H 9C 9H 9D AD"},
    }
    game = gin_game(deals=(undercut,))
    result = engine.game_result(game)
    assert result.deals[0].outcome == "undercut"
    ann = stats.player_stats(Player.objects.get(name="Ann")).kinds[0]
    ben = stats.player_stats(Player.objects.get(name="Ben")).kinds[0]
    assert ann.undercuts_suffered == 1 and ann.knocks == 1 and ben.undercuts_given == 1


def test_player_page_and_bounded_queries(client):
    for _ in range(2):
        ok_game(deals=[OK_SMALL] * 2)
    ann = Player.objects.get(name="Ann")
    r = client.get(f"/players/{ann.pk}/")
    assert r.status_code == 200 and "Head to head" in r.content.decode()
    assert Seat.objects.filter(player=ann, deals=2).count() == 2  # the figures the writes keep
    with CaptureQueriesContext(connection) as q1:
        client.get(f"/players/{ann.pk}/")
    for _ in range(3):
        ok_game(deals=[OK_SMALL] * 6)
    client.get(f"/players/{ann.pk}/")
    with CaptureQueriesContext(connection) as q2:
        client.get(f"/players/{ann.pk}/")
    assert len(q1) == len(q2) <= 12


def test_summary_is_recomputed_after_an_edit():
    game = ok_game()
    ann = Player.objects.get(name="Ann")
    before = stats.player_stats(ann).kinds[0].points
    edit(game, 1, ok_record_deal(OK_SMALL, NAMES))
    after = stats.player_stats(ann).kinds[0].points
    assert before != after


def test_unknown_player_404(client):
    assert client.get("/players/424242/").status_code == 404


# ------------------------------------------------------------------------------ rename / merge


def test_rename_player_renames_inside_every_deal(client):
    game = ok_game()
    ann = Player.objects.get(name="Ann")
    r = client.post(f"/players/{ann.pk}/rename/", {"name": "Annie"})
    assert r.status_code == 302
    game.refresh_from_db()
    assert game.player_names() == ["Annie", "Ben", "Cleo"]
    assert all("Annie" in d["hands"] and "Ann" not in d["hands"] for d in deals_as_entered(game))
    assert deals_as_entered(game)[0]["out"] == "Annie"
    assert engine.game_result(game).totals["Annie"] > 0


def test_a_rename_shows_on_a_finished_games_pages_seen_before(client):
    """A finished game's version is not bumped by a rename (issue 23): its review, deal page and game
    page, each seen (and cached) before the rename, show the new name after it."""
    game = ok_game(deals=(OK_BIG,), options={"target": 100})
    assert game.finished
    pages = [f"/games/{game.pk}/", f"/history/{game.pk}/", f"/games/{game.pk}/deals/{game.deals.get().pk}/"]
    for url in pages:
        assert "Ann" in client.get(url).content.decode()
    version = game.version
    history_services.rename_player(player=Player.objects.get(name="Ann"), name="Zora")
    assert Game.objects.get(pk=game.pk).version == version
    for url in pages:
        body = client.get(url).content.decode()
        assert "Zora" in body and "Ann" not in body, url


def test_rename_to_another_players_name_is_refused(client):
    ok_game()
    ann = Player.objects.get(name="Ann")
    r = client.post(f"/players/{ann.pk}/rename/", {"name": "ben"})
    assert r.status_code == 400 and "merge" in r.content.decode()
    r = client.post(f"/players/{ann.pk}/rename/", {"name": "  "})
    assert r.status_code == 400
    assert Player.objects.filter(name="Ann").exists()


def test_merge_players(client):
    ok_game(names=["Ann", "Ben", "Cleo"])
    ok_game(names=["Annie", "Dora", "Eve"])
    annie, ann = Player.objects.get(name="Annie"), Player.objects.get(name="Ann")
    r = client.post(f"/players/{annie.pk}/merge/", {"into": ann.pk})
    assert r.status_code == 302
    assert not Player.objects.filter(name="Annie").exists()
    assert stats.player_stats(ann).played == 2
    g = Game.objects.filter(seats__player__name="Dora").get()
    assert "Ann" in deals_as_entered(g)[0]["hands"] and engine.game_result(g).totals["Ann"] != 0


def test_merge_refused_when_both_at_one_table(client):
    ok_game()
    ann, ben = Player.objects.get(name="Ann"), Player.objects.get(name="Ben")
    r = client.post(f"/players/{ann.pk}/merge/", {"into": ben.pk})
    assert r.status_code == 400 and "two people" in r.content.decode()
    assert client.post(f"/players/{ann.pk}/merge/", {"into": "x"}).status_code == 400


# ----------------------------------------------------------------------------------- rescoring


def test_rescore_compares_line_by_line_without_changing_the_game(client):
    game = ok_game(profile="book")
    r = client.get(f"/history/{game.pk}/rescore/?profile=laws")
    html = r.content.decode()
    assert r.status_code == 200
    book = engine.game_result(game)
    laws = score_record(dict(engine.game_record(game), rules={"profile": "laws"}))
    assert book.totals != laws.totals
    table = html[html.index('id="totals-compare"') : html.index("</table>", html.index('id="totals-compare"'))]
    table = " ".join(table.split())
    for name in NAMES:
        shown = [str(t).replace("-", "−") for t in (book.totals[name], laws.totals[name])]  # a true minus sign
        assert f'<td class="n">{shown[0]}</td><td class="n">{shown[1]}</td>' in table
    assert "Under the other rules" in html and "would have" in html
    game.refresh_from_db()
    assert game.profile == "book"


def test_compare_sentence_and_pairs():
    game = ok_game(deals=[OK_SMALL], profile="book")
    cmp = rescore.compare(game, profile="laws", number=1)
    assert cmp.rows and cmp.rows[0]["number"] == 1
    cleo = next(p for p in cmp.rows[0]["players"] if p["name"] == "Cleo")
    # Cleo held 4♠ 4♥ only: no K–8 in hand, same under both
    ann = next(p for p in cmp.rows[0]["players"] if p["name"] == "Ann")
    assert ann["points"] != ann["other"]  # Ann held 8♠: −20 (book) vs −10 (laws)
    # Ann melded 3♦ 4♦ 5♦ (+15) and held 8♠: −20 in the book, −10 under the Laws
    assert "Deal 1: under Laws of Oklahoma Ann would have scored 5, not lost 5." in cmp.sentences
    assert all(a is None or b is None or a.rule == b.rule for a, b in ann["pairs"])
    assert cleo["diff"] == cleo["other"] - cleo["points"]


def test_rescore_with_house_option_and_bad_option(client):
    game = ok_game(deals=[OK_SMALL], profile="book")
    r = client.get(f"/history/{game.pk}/rescore/?profile=book&o_k8_in_hand=-10")
    assert "Ann would have scored 5, not lost 5." in r.content.decode()
    r = client.get(f"/history/{game.pk}/rescore/?profile=book&o_k8_in_hand=-15")
    assert r.status_code == 200 and "must be one of" in r.content.decode()
    r = client.get(f"/history/{game.pk}/rescore/?profile=book&o_target=abc")
    assert r.status_code == 200 and "whole number" in r.content.decode()
    part = client.get(f"/history/{game.pk}/rescore/?profile=laws", headers={"HX-Request": "true"}).content.decode()
    assert part.strip().startswith('<div id="comparison"')


def test_switch_rules_is_a_post(client):
    game = ok_game(profile="book")
    laws_totals = score_record(dict(engine.game_record(game), rules={"profile": "laws"})).totals
    r = client.post(f"/history/{game.pk}/rescore/", {"profile": "laws"})
    assert r.status_code == 302
    game.refresh_from_db()
    assert game.profile == "laws" and engine.game_result(game).totals == laws_totals


def test_switch_refused_when_invalid_under_new_rules(client):
    game = ok_game(profile="book", names=["A", "B", "C", "D", "E"], deals=[])
    r = client.post(f"/history/{game.pk}/rescore/", {"profile": "laws"})
    assert r.status_code == 400 and "take 2 to 4" in r.content.decode()
    game.refresh_from_db()
    assert game.profile == "book"


def test_compare_stops_where_the_game_would_have_ended():
    game = ok_game(deals=[OK_BIG] * 3, profile="book", options={"target": 10000})
    cmp = rescore.compare(game, profile="book", options={"target": 500})
    assert "would have ended with deal" in cmp.note and len(cmp.rows) >= 1


# -------------------------------------------------------------------------------- export/import


def test_export_import_round_trip_same_game_same_scores(client):
    g1 = ok_game(options={"k8_in_hand": -10})
    g2 = gin_game()
    data = json.loads(client.get("/history/export.json").getvalue())  # streamed
    assert [r["game"] for r in data] == ["oklahoma", "oklahoma-gin"]
    before = [result_json(engine.game_result(g)) for g in (g1, g2)]
    Game.objects.all().delete()
    Player.objects.all().delete()
    up = SimpleUploadedFile("games.json", json.dumps(data).encode(), content_type="application/json")
    r = client.post("/history/import/", {"file": up})
    assert r.status_code == 302
    games = list(Game.objects.order_by("id"))
    assert len(games) == 2
    assert transfer.export_records(games) == data
    assert [result_json(engine.game_result(g)) for g in games] == before
    assert Change.objects.filter(action="added").count() == 4


def test_export_one_game_json_and_csv(client):
    game = ok_game()
    rec = json.loads(client.get(f"/history/{game.pk}/export.json").content)
    assert rec == engine.game_record(game)
    rows = list(csv.DictReader(io.StringIO(client.get(f"/history/{game.pk}/export.csv").content.decode())))
    assert len(rows) == 2 * 3
    result = engine.game_result(game)
    for row in rows:
        d = result.deals[int(row["deal"]) - 1]
        assert int(row["points"]) == d.players[row["player"]].points
        assert int(row["total"]) == d.totals[row["player"]]
    assert client.get(f"/history/{game.pk}/export.xml").status_code == 404


def test_csv_names_cannot_become_formulas():
    game = ok_game(names=["=cmd", "Ben", "Cleo"], deals=[])
    deal_services.add_deal(game=game, deal=ok_record_deal(OK_SMALL, ["=cmd", "Ben", "Cleo"]))
    text = transfer.export_csv([game])
    assert "'=cmd" in text and "\n=cmd" not in text


def test_invalid_import_saves_nothing_and_names_the_errors(client):
    good = engine.game_record(ok_game())
    Game.objects.all().delete()
    Player.objects.all().delete()
    bad = json.loads(json.dumps(good))
    bad["deals"][1]["hands"]["Ben"]["melds"][0] = ["9C", "10C", "2S"]  # not a meld...
    bad["deals"][1]["hands"]["Cleo"]["held"] = ["QS", "QS", "QS", "QS"]
    r = client.post("/history/import/", {"file": SimpleUploadedFile("x.json", json.dumps([good, bad]).encode())})
    html = r.content.decode()
    assert r.status_code == 400 and "Nothing was imported" in html and "Record 2" in html and "Deal 2" in html
    assert Game.objects.count() == 0 and Player.objects.count() == 0 and Deal.objects.count() == 0


@pytest.mark.parametrize(
    "payload, fragment",
    [
        (b"{not json", "not valid JSON"),
        (b"[]", "empty list"),
        (b"[" * 100000, "nested too deeply"),
        (b'{"format": "oklahoma-scorekeeper/1"}', "has no"),
        ("\xff\xfe".encode("latin-1"), "not valid JSON"),
    ],
)
def test_import_rejects_bad_files(client, payload, fragment):
    r = client.post("/history/import/", {"file": SimpleUploadedFile("x.json", payload)})
    assert r.status_code == 400 and fragment in r.content.decode()
    assert Game.objects.count() == 0


def test_import_form_and_empty_post(client):
    assert client.get("/history/import/").status_code == 200
    assert client.post("/history/import/", {}).status_code == 400


def test_import_reuses_known_players_spelling():
    ok_game()
    rec = engine.game_record(Game.objects.get())
    text = json.dumps(rec).replace('"Ann"', '"ANN"')
    report = history_imports.import_text(table=TABLE, text=text)
    assert report.ok
    g = report.games[0]
    assert g.player_names() == ["Ann", "Ben", "Cleo"] and Player.objects.count() == 3
    original = Game.objects.order_by("id").first()
    assert original is not None
    assert engine.game_result(g).totals == engine.game_result(original).totals


def test_one_deals_changes_for_the_deal_page():
    from django.template.loader import render_to_string

    game = ok_game()
    edit(game, 2, ok_record_deal(OK_BIG, NAMES))
    rows = change_history(game, game.deals.get(number=2).pk)
    html = render_to_string("components/changes.html", {"game": game, "rows": rows, "number": 2})
    assert "Deal 2 edited" in html and "Deal 2 entered" in html and "Deal 1" not in html
    assert html.index("Deal 2 edited") < html.index("Deal 2 entered")  # newest first


def test_import_stores_fresh_figures():
    original = ok_game()
    rec = engine.game_record(original)
    report = history_imports.import_text(table=TABLE, text=json.dumps(rec))
    g = report.games[0]
    fields = (
        "position",
        *SEAT_FIGURES,
    )
    assert list(g.seats.order_by("position").values_list(*fields)) == list(
        original.seats.order_by("position").values_list(*fields)
    )
    assert list(g.deals.values_list("number", "outcome", "points", "totals")) == list(
        original.deals.values_list("number", "outcome", "points", "totals")
    )


# What an import may write otherwise than the saves that made the game: ids, times, and the game's
# version (the count of its writes: one for an import).
NOT_AS_SAVED = {
    Game: {"id", "created", "updated", "version"},
    Seat: {"id", "game"},
    Deal: {"id", "game", "created", "updated"},
}


@pytest.mark.parametrize(
    "make", [ok_game, gin_game, lambda: ok_game((OK_BIG,), options={"target": 150}), lambda: gin_game(())]
)
def test_an_import_writes_every_field_of_its_games_seats_and_deals_as_the_saves_do(make):
    """Every concrete field of ``Game``, ``Seat`` and ``Deal`` (read from the models, so a new
    field is checked too) holds after an import what the saves that made the game put there."""
    original = make()
    report = history_imports.import_text(table=TABLE, text=json.dumps(engine.game_record(original)))
    assert report.ok, report.errors
    imported = report.games[0]
    assert imported.pk != original.pk and imported.version == 1
    for model, of in [(Game, "pk"), (Seat, "game"), (Deal, "game")]:
        fields = [f.attname for f in model._meta.concrete_fields if f.name not in NOT_AS_SAVED[model]]
        assert len(fields) >= 3
        rows = [list(model._default_manager.filter(**{of: g.pk}).values_list(*fields)) for g in (original, imported)]
        assert rows[1] == rows[0] and (rows[0] or model is Deal), model.__name__
    assert Game.objects.get(pk=imported.pk).scored_with == engine.RESULTS_VERSION
    # each deal's change (history/import_rows.py makes them from the deals): as a save's, every
    # concrete field but its id, its deal's id, when and by whom; those: the imported deal's, the import's
    by_who = {"id", "deal_id", "at", "by", "by_name"}
    fields = [f.attname for f in Change._meta.concrete_fields if f.name not in by_who and f.name != "game"]
    added = [
        Change.objects.filter(game=g, action=ChangeAction.DEAL_ADDED).order_by("number") for g in (original, imported)
    ]
    assert [list(q.values_list(*fields)) for q in added[1:]] == [list(added[0].values_list(*fields))]
    deal_ids = list(Deal.objects.filter(game=imported).order_by("number").values_list("pk", flat=True))
    assert list(added[1].values_list("deal_id", flat=True)) == deal_ids
    assert set(added[1].values_list("by_id", "by_name")) <= {(None, "import")}
    assert all(at == imported.created for at in added[1].values_list("at", flat=True))


@pytest.mark.parametrize(
    "query",
    [
        "?deal=abc",
        "?deal=999",
        "?deal=-1",
        "?profile=nonexistent",
        "?profile=laws&o_joker=maybe",
        "?profile=laws&o_stock_out=x",
        "?profile=laws&o_unknown=1",
        "?profile=laws&o_target=99999999999999999999",
        "?profile=laws&o_max_players=1",
        "?o_k8_in_hand=%00",
    ],
)
def test_rescore_tampered_parameters_never_500(client, query):
    game = ok_game(deals=[OK_SMALL])
    r = client.get(f"/history/{game.pk}/rescore/{query}")
    assert r.status_code == 200
    r = client.post(f"/history/{game.pk}/rescore/{query}", dict(p.split("=", 1) for p in query[1:].split("&")))
    assert r.status_code in (302, 400)
    game.refresh_from_db()


def test_rescore_a_gin_game_side_by_side(client):
    game = gin_game(deals=(GIN_KNOCK, GIN_BIG))
    r = client.get(f"/history/{game.pk}/rescore/?profile=casino")
    html = r.content.decode()
    assert r.status_code == 200 and "spade upcard ×2" in html and "S2, Scoring 4" in html
    assert "Deal 2: under Casino Ann would have" in html


def test_pasted_record_import_and_non_utf8(client):
    rec = engine.game_record(ok_game())
    r = client.post("/history/import/", {"text": json.dumps(rec)})
    assert r.status_code == 302 and Game.objects.count() == 2
    r = client.post("/history/import/", {"file": SimpleUploadedFile("x.json", b"\xc3\x28\xa0\xa1")})
    assert r.status_code == 400 and "UTF-8" in r.content.decode()


def test_review_of_a_gin_game_and_a_party_game(client):
    game = gin_game()
    html = client.get(f"/history/{game.pk}/").content.decode()
    assert "Upcard 9S" in html and "Deadwood" in html and "gin" in html
    party = new_game(TABLE, kind="oklahoma-gin", profile="party", players=["Ann", "Ben", "Cleo"])
    deal_services.add_deal(game=party, deal=PARTY_KNOCK)
    html = client.get(f"/history/{party.pk}/").content.decode()
    assert html.count("<polyline") == 3 and "Penalty points: the lowest total is best." in html
    cleo = stats.player_stats(Player.objects.get(name="Cleo")).kinds[0]
    assert cleo.worst is not None
    assert cleo.points == -28 and cleo.worst["points"] == 28  # penalty points count against
    ann = stats.player_stats(Player.objects.get(name="Ann")).kinds[0]
    assert ann.knocks == 1 and ann.out == 1 and ann.games == 2  # a party knock; a gin in the other game


def test_a_corrupted_stored_deal_shows_errors_not_500(client):
    game = ok_game()
    Deal.objects.filter(game=game, number=2).update(cards={"out": "Nobody", "hands": {}})
    r = client.get(f"/history/{game.pk}/")
    assert r.status_code == 200 and "errors" in r.content.decode()
    assert client.get(f"/history/{game.pk}/rescore/?profile=laws").status_code == 200
    ann = Player.objects.get(name="Ann")
    assert client.get(f"/players/{ann.pk}/").status_code == 200
    assert client.get(f"/history/{game.pk}/export.csv").status_code == 200


def test_games_list_shows_totals_with_bounded_queries(client):
    game = ok_game()
    totals = engine.game_result(game).totals
    html = client.get("/history/").content.decode()
    assert all(f"{n} {t}".replace("-", "−") in html for n, t in totals.items()) and "2 deals" in html
    with CaptureQueriesContext(connection) as q1:
        client.get("/history/")
    for _ in range(4):
        ok_game(deals=[OK_SMALL] * 3)
    client.get("/history/")
    with CaptureQueriesContext(connection) as q2:
        client.get("/history/")
    assert len(q1) == len(q2) <= 8
