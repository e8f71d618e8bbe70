"""The pages through Django's test client: happy paths, bad input, tampered posts, 404s, htmx."""

from typing import Any

import pytest
from django.urls import reverse

from scorekeeper.table.models import Game
from scorekeeper.table.scoring import deals as deal_services
from scorekeeper.table.scoring import engine
from scorekeeper.table.text import cite_class, cite_text
from tests.app_data import GIN_BIG, GIN_KNOCK, OK_BIG, OK_SMALL, gin_post, ok_post, ok_record_deal
from tests.conftest import NAMES

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def deal_url(name, game, number):
    """The page of the deal that is number ``number`` now (deals are addressed by their id)."""
    return reverse(f"table:{name}", args=[game.pk, game.deals.get(number=number).pk])


def text(response) -> str:
    return response.content.decode()


def errors_of(body: str, name: str) -> str:
    """The errors Django lists for the field ``name`` (its error list, which the field's
    aria-describedby names)."""
    return body.split(f'id="id_{name}_error">')[1].split("</ul>")[0]


# ---------------------------------------------------------------- pages


def test_home_and_new_game_pages(client):
    assert client.get("/").status_code == 200
    page = text(client.get(reverse("table:new_game")))
    # each house option with its meaning and where each profile's value comes from
    assert "K–8 left in hand" in page and "S1 law 12" in page and "Concealed bonus" in page
    gin = text(client.get(reverse("table:new_game") + "?game=oklahoma-gin"))
    assert "Spade upcard multiplier" in gin and "ruling" in gin and "Party" in gin


def test_start_a_game(client):
    r = client.post(
        reverse("table:new_game"),
        {
            "game": "oklahoma",
            "profile": "laws",
            "seat_0": "Ann",
            "seat_1": "Ben",
            "seat_2": "Cleo",
            "first_dealer": "2",
            "opt_k8_in_hand": "-20",
            "target": "1500",
        },
    )
    assert r.status_code == 302
    game = Game.objects.get()
    assert game.options == {"k8_in_hand": -20, "target": 1500} and engine.rules_of(game)[0].target == 1500
    assert engine.game_record(game)["first_dealer"] == "Cleo"
    page = text(client.get(r["Location"]))
    assert "Cleo</strong> deals next" in page and "1500 to win" in page


@pytest.mark.parametrize(
    "post,message",
    [
        ({"seat_0": "Ann"}, "required"),
        ({"seat_0": "Ann", "seat_1": "ann"}, "named twice"),
        ({"seat_0": "Ann", "seat_1": "", "seat_2": "Cleo"}, "without gaps"),
        ({"seat_0": "Ann", "seat_1": "Ben", "first_dealer": "4"}, "filled seats"),
        ({"seat_0": "A", "seat_1": "B", "seat_2": "C", "seat_3": "D", "seat_4": "E", "profile": "laws"}, "2 to 4"),
        ({"seat_0": "Ann", "seat_1": "Ben", "opt_k8_in_hand": "-15"}, "valid choice"),
        ({"seat_0": "Ann", "seat_1": "Ben", "profile": "hacked"}, "valid choice"),
        ({"seat_0": "Ann", "seat_1": "Ben", "target": "abc"}, "whole number"),
    ],
)
def test_new_game_bad_input_is_explained(client, post, message):
    data = {"game": "oklahoma", "profile": "book", "first_dealer": "0", **post}
    r = client.post(reverse("table:new_game"), data)
    assert r.status_code == 400
    assert message in text(r)
    assert not Game.objects.exists()


def test_unknown_game_kind_falls_back(client):
    assert client.get(reverse("table:new_game") + "?game=chess").status_code == 200


@pytest.mark.parametrize(
    "url",
    [
        "/games/999/",
        "/games/999/deals/new/",
        "/games/999/deals/1/",
        "/games/999/deals/1/edit/",
        "/games/999/deals/1/delete/",
        "/nope/",
    ],
)
def test_unknown_ids_are_404(client, url):
    r = client.get(url)
    assert r.status_code == 404


def test_unknown_deal_of_a_known_game_is_404(client, ok_game):
    assert client.get(f"/games/{ok_game.pk}/deals/1/").status_code == 404
    assert client.post(f"/games/{ok_game.pk}/deals/3/edit/", ok_post(OK_BIG)).status_code == 404


# ---------------------------------------------------------------- deals


def test_enter_a_deal_and_see_the_board(client, ok_game):
    url = reverse("table:deal_new", args=[ok_game.pk])
    assert "Who went out?" in text(client.get(url))
    r = client.post(url, ok_post(OK_BIG))
    assert r.status_code == 302 and r["Location"].endswith("#deal-1")
    page = text(client.get(reverse("table:game", args=[ok_game.pk])))
    assert "395" in page and "Ann</span>" in page and "605 to win" in page
    assert "Ann</strong> deals next" in page  # the winner of a hand deals the next


def test_a_tie_at_the_top_names_no_one_as_leading(client, ok_game):
    """Ann and Ben share the top total: neither leads (before, the first seat was said to, and a
    table argued over it); once Ben is ahead alone, he leads."""
    tie: dict[str, Any] = {"out": None, "melds": {0: [], 1: [], 2: []}, "held": {0: "8S", 1: "8H", 2: "KS QS"}}
    deal_services.add_deal(game=ok_game, deal=ok_record_deal(tie, NAMES))
    board = text(client.get(reverse("table:game", args=[ok_game.pk])))
    assert "leads" not in board and 'class="total leader"' not in board
    ahead: dict[str, Any] = {"out": None, "melds": {0: [], 1: [], 2: []}, "held": {0: "8S 9S", 1: "4H", 2: "KS QS"}}
    deal_services.add_deal(game=ok_game, deal=ok_record_deal(ahead, NAMES))
    board = text(client.get(reverse("table:game", args=[ok_game.pk])))
    assert "Ben\nleads." in board or "Ben leads." in " ".join(board.split())
    assert board.count('class="total leader"') == 1


def test_deal_page_shows_lines_with_rule_and_source(client, ok_game):
    deal_services.add_deal(game=ok_game, deal=ok_record_deal(OK_BIG, NAMES))
    page = text(client.get(deal_url("deal", ok_game, 1)))
    assert "S0" in page and "+395" in page and "Q♠" in page
    assert 'class="card red"' in page  # red suits by colour as well as symbol


def test_preview_before_saving_saves_nothing(client, ok_game):
    r = client.post(reverse("table:deal_new", args=[ok_game.pk]), ok_post(OK_BIG, action="preview"))
    assert r.status_code == 200 and "+395" in text(r)
    assert ok_game.deals.count() == 0


def test_htmx_preview_is_a_fragment(client, ok_game):
    r = client.post(reverse("table:deal_new", args=[ok_game.pk]), ok_post(OK_BIG, action="preview"), headers=HX)
    body = text(r)
    assert r.status_code == 200 and body.lstrip().startswith('<section id="preview"')
    assert "<html" not in body and "+395" in body
    assert 'hx-swap-oob="true"' in body


def test_htmx_game_page_is_its_live_fragment(client, ok_game):
    body = text(client.get(reverse("table:game", args=[ok_game.pk]), headers=HX))
    assert body.lstrip().startswith('<div id="live"') and "<html" not in body and '<section id="board"' in body


def test_impossible_meld_is_shown_beside_the_meld(client, ok_game):
    data = ok_post(OK_BIG)
    data["p-1-melds"] = "5S 6S 8S"
    r = client.post(reverse("table:deal_new", args=[ok_game.pk]), data)
    assert r.status_code == 400
    body = text(r)
    # the error sits in the slot of Ben's melds, with the rule
    slot = errors_of(body, "p-1-melds")
    assert "S0" in slot and slot.strip()
    assert 'value="5S 6S 8S"' in body  # what was typed is kept
    assert ok_game.deals.count() == 0


def test_card_typo_is_shown_beside_the_field(client, ok_game):
    data = ok_post(OK_BIG)
    data["p-2-held"] = "QS 4X"
    r = client.post(reverse("table:deal_new", args=[ok_game.pk]), data)
    assert r.status_code == 400
    slot = errors_of(text(r), "p-2-held")
    assert "4X" in slot


def test_a_card_used_three_times(client, ok_game):
    data = ok_post(OK_BIG)
    data["p-1-held"] = "QS"
    data["p-2-held"] = "QS QH"
    r = client.post(reverse("table:deal_new", args=[ok_game.pk]), data)
    assert r.status_code == 400 and "Q♠" in text(r)
    assert ok_game.deals.count() == 0


@pytest.mark.parametrize(
    "tamper",
    [
        {"out": "7"},
        {"out": "Ann"},
        {"out": ""},
        {"p-0-melds": "x" * 5000},
        {"p-9-melds": "QS QH QD"},
        {"p-TOTAL_FORMS": "1000"},
        {"p-TOTAL_FORMS": "1"},
        {"first_turn": "maybe"},
        {"action": "drop-tables"},
        {"p-0-melds": "2C=JK"},
        {"p-0-melds": "QS=QH"},
        {"p-0-melds": "QS QH QD / / /"},
        {"p-0-auto": "x" * 5000},
        {"number": "x", "version": "-1", "submission": "s" * 500},
        {"p-0-held": "8S\x00", "p-1-melded": "５S ６S ７S", "p-2-melds": "١٢S"},
        {"out": "\x00", "late_misdeal": "on", "p-0-auto": "QS / QH"},
    ],
)
def test_tampered_posts_never_fail(client, ok_game, tamper):
    data = {**ok_post(OK_BIG), **tamper}
    r = client.post(reverse("table:deal_new", args=[ok_game.pk]), data)
    assert r.status_code in (200, 302, 400)
    if r.status_code != 302:
        assert ok_game.deals.count() == 0


def test_an_empty_post_asks_for_the_deal(client, ok_game):
    r = client.post(reverse("table:deal_new", args=[ok_game.pk]), {})
    assert r.status_code == 400 and "Say who went out" in text(r)


def test_melds_split_by_a_slash(client, ok_game):
    data = ok_post(OK_BIG)
    assert data["p-0-melds"] == "QS QH QD / AS AH AD AC / JK=KD KS KH / 2C=7H 8H 9H"
    assert client.post(reverse("table:deal_new", args=[ok_game.pk]), data).status_code == 302
    hand = engine.record_deal(ok_game.deals.get().cards, NAMES)["hands"]["Ann"]
    assert hand["melds"] == [["QS", "QH", "QD"], ["AS", "AH", "AD", "AC"], ["JK=KD", "KS", "KH"], ["2C=7H", "8H", "9H"]]


def test_edit_an_earlier_deal_recomputes(client, ok_game):
    deal_services.add_deal(game=ok_game, deal=ok_record_deal(OK_BIG, NAMES))
    deal_services.add_deal(game=ok_game, deal=ok_record_deal(OK_SMALL, NAMES))
    edit = deal_url("deal_edit", ok_game, 1)
    form = text(client.get(edit))
    assert 'value="QS QH QD / AS AH AD AC / JK=KD KS KH / 2C=7H 8H 9H"' in form
    assert 'value="0" id="id_out_0" checked' in form
    r = client.post(edit, ok_post(OK_SMALL))
    assert r.status_code == 302
    assert engine.game_result(ok_game).totals["Ben"] == 290


def test_delete_asks_then_deletes(client, ok_game):
    deal_services.add_deal(game=ok_game, deal=ok_record_deal(OK_BIG, NAMES))
    url = deal_url("deal_delete", ok_game, 1)
    assert "Delete deal 1?" in text(client.get(url))
    assert ok_game.deals.count() == 1
    assert client.post(url).status_code == 302
    assert ok_game.deals.count() == 0


def test_finished_game_shows_winner_and_final_table(client, ok_game):
    for d in (OK_BIG, OK_BIG, OK_BIG):
        deal_services.add_deal(game=ok_game, deal=ok_record_deal(d, NAMES))
    page = text(client.get(reverse("table:game", args=[ok_game.pk])))
    assert "Ann wins the game" in page and "Final table" in page and "game bonus" in page.lower()
    # no new deal once it is over
    r = client.get(reverse("table:deal_new", args=[ok_game.pk]))
    assert r.status_code == 302
    r = client.post(reverse("table:deal_new", args=[ok_game.pk]), ok_post(OK_SMALL))
    assert r.status_code == 400 and "game is over" in text(r)


def live(client, game, melds: str) -> str:
    """The deal form's live check of a player's melds (its preview, as htmx sends it while typing)."""
    url = reverse("table:deal_new", args=[game.pk])
    return text(client.post(url, {"action": "preview", "p-0-melds": melds}, headers=HX))


def test_live_meld_check(client, ok_game):
    assert "✓ set" in live(client, ok_game, "QS QH 2D")
    bad = live(client, ok_game, "QS QH 5D")
    assert "✗" in bad and "S0" in bad
    assert "not a card" in live(client, ok_game, "QS 1H")
    assert client.post(reverse("table:deal_new", args=[ok_game.pk]), {}, headers=HX).status_code in (200, 400)


# ---------------------------------------------------------------- gin


def test_gin_deal_with_spread_and_cards(client, gin_game):
    url = reverse("table:deal_new", args=[gin_game.pk])
    page = text(client.get(url))
    assert "First upcard" in page and "void hand" in page
    assert client.post(url, gin_post(GIN_BIG)).status_code == 302
    assert client.post(url, gin_post(GIN_KNOCK)).status_code == 302
    deal = text(client.get(deal_url("deal", gin_game, 2)))
    assert "Laid off" in deal or "Deadwood" in deal
    assert "knock" in deal


def test_gin_both_spread_and_cards_is_refused(client, gin_game):
    data = gin_post(GIN_BIG)
    data["p-0-cards"] = "3C 4C 5C"
    r = client.post(reverse("table:deal_new", args=[gin_game.pk]), data)
    assert r.status_code == 400 and "not both" in text(r)


def test_gin_bad_upcard_and_void(client, gin_game):
    data = gin_post(GIN_BIG)
    data["upcard"] = "JK"
    r = client.post(reverse("table:deal_new", args=[gin_game.pk]), data)
    assert r.status_code == 400
    assert errors_of(text(r), "upcard").strip()


def test_live_gin_meld_check(client, gin_game):
    assert "✓" in live(client, gin_game, "10H JH QH")
    bad = live(client, gin_game, "JH QH KH AH")
    assert "✗" in bad and "ace is low" in bad
    assert "✗" in live(client, gin_game, "JH JH JD")


def test_a_game_whose_stored_options_the_engine_refuses_still_shows(client, ok_game):
    Game.objects.filter(pk=ok_game.pk).update(options={"gone_knob": 1})
    r = client.get(reverse("table:game", args=[ok_game.pk]))
    assert r.status_code == 200 and "gone_knob" in text(r)
    assert client.get(reverse("table:deal_new", args=[ok_game.pk])).status_code == 200


# ---------------------------------------------------------------- ways between the pages


def test_every_page_reaches_games_checker_and_rules(client, ok_game):
    page = text(client.get(reverse("table:game", args=[ok_game.pk])))
    for name in ("history:games", "rulebook:checker", "rulebook:index"):
        assert f'href="{reverse(name)}"' in page
    assert f'href="{reverse("history:review", args=[ok_game.pk])}"' in page


def test_deal_page_shows_its_change_history(client, ok_game):
    deal_services.add_deal(game=ok_game, deal=ok_record_deal(OK_BIG, NAMES))
    deal_services.edit_deal(
        game=ok_game, deal_id=ok_game.deals.get().pk, version=None, deal=ok_record_deal(OK_SMALL, NAMES)
    )
    page = text(client.get(deal_url("deal", ok_game, 1)))
    assert "Changes to deal 1" in page
    assert "Deal 1 entered" in page and "Deal 1 edited" in page


def test_admin_cannot_rename_a_player_behind_the_deals_back(admin_client, ok_game):
    from scorekeeper.table.models import Player

    ann = Player.objects.get(name="Ann")
    page = text(admin_client.get(reverse("admin:table_player_change", args=[ann.pk])))
    assert 'name="name"' not in page  # read-only: renaming goes through the player's page
    admin_client.post(reverse("admin:table_player_change", args=[ann.pk]), {"name": "Zed"})
    assert Player.objects.get(pk=ann.pk).name == "Ann"


def test_edit_page_previews_the_saved_deal(client, ok_game):
    deal_services.add_deal(game=ok_game, deal=ok_record_deal(OK_BIG, NAMES))
    page = text(client.get(deal_url("deal_edit", ok_game, 1)))
    assert "+395" in page and "once the deal is complete" not in page


def test_head_requests_are_answered(client, ok_game):
    assert client.head("/").status_code == 200
    assert client.head(reverse("table:game", args=[ok_game.pk])).status_code == 200


@pytest.mark.parametrize(
    ("line", "text", "classes"),
    [
        ({"rule": "knock", "source": "S2, Scoring 1", "basis": "source"}, "knock — S2, Scoring 1", "cite"),
        ({"rule": "game bonus", "source": "", "basis": "ruling"}, "game bonus (ruling)", "cite ruling"),
        ({"rule": "game bonus", "source": "ruling", "basis": "ruling"}, "game bonus — ruling", "cite ruling"),
        ({"rule": "target", "source": "S3", "basis": "option"}, "target — S3 (house option)", "cite option"),
        ({"rule": "target", "source": "house option", "basis": "option"}, "target — house option", "cite option"),
    ],
)
def test_a_score_line_is_cited_with_its_rule_source_and_basis(line, text, classes):
    assert cite_text(line) == text and cite_class(line) == classes
