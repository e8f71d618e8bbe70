"""A game an earlier version of the engine stored that today's rules refuse (issue 37, defect 6): the
upgrade's re-scoring (``refresh_results``) cannot score it again, so it keeps the results stored
then, and its pages show them — the game page's board and deal list, the deal page, the review —
with each refusal said where it applies and what scores it again. Nothing is ever shown as empty.

This round's rulings make such games: party (penalty points) with a game bonus, and three players
scoring to the hand's winner. A deal of its own refused stands for a deal an earlier engine took."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

from scorekeeper.table.models import Deal, Game
from scorekeeper.table.scoring import deals as deal_services
from scorekeeper.table.scoring import engine
from tests.app_data import OK_BIG, OK_SMALL, ok_record_deal
from tests.conftest import NAMES, new_game
from tests.history.test_history import PARTY_KNOCK

pytestmark = pytest.mark.django_db

EARLIER = "2026.11.2"  # the engine's version before this round's rulings


def stored_by_the_earlier_engine(game: Game, **changes: object) -> Game:
    """The game as the earlier engine left it: its results stored then, under rules it took."""
    Game.objects.filter(pk=game.pk).update(scored_with=EARLIER, **changes)
    return Game.objects.prefetch_related("seats__player").get(pk=game.pk)


def stored_results(game: Game) -> list[tuple[Any, ...]]:
    return list(game.deals.order_by("number").values_list("number", "outcome", "points", "totals"))


@pytest.fixture
def party_with_a_bonus(table):
    """Three players at party with a game bonus of 100 (refused now: penalty scoring takes none),
    three deals stored by the earlier engine."""
    game = new_game(
        table, kind="oklahoma-gin", profile="party", players=NAMES, deals=[PARTY_KNOCK] * 3, options={"target": 500}
    )
    return stored_by_the_earlier_engine(game, options={"target": 500, "game_bonus": 100})


def test_the_upgrade_keeps_the_stored_results_of_a_game_today_s_rules_refuse(client, party_with_a_bonus):
    game = party_with_a_bonus
    before = stored_results(game)
    assert [row[1] for row in before] == ["knock"] * 3

    call_command("refresh_results", verbosity=0)

    assert Game.objects.get(pk=game.pk).scored_with == EARLIER  # not scored again
    assert stored_results(game) == before  # nothing lost
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "No deals yet" not in html
    assert all(f'id="deal-{n}"' in html for n in (1, 2, 3))
    assert "refused by today&#x27;s rules: penalty scoring has no game bonus" in html
    assert "switch the game to other rules to score it again" in html
    assert "The scores shown are those an earlier version of the score keeper stored." in html
    totals = before[-1][3]
    for name, total in zip(NAMES, totals, strict=True):  # the board: the totals stored with the last deal
        assert f'aria-label="{name}: {total} of 500"' in html


def test_the_deal_page_and_the_review_show_what_was_stored_and_why_it_is_refused(client, party_with_a_bonus):
    game = party_with_a_bonus
    deal = game.deals.get(number=2)
    page = client.get(f"/games/{game.pk}/deals/{deal.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "penalty scoring has no game bonus" in html
    assert "As an earlier version of the score keeper stored it" in html
    for cell in deal.totals:
        assert f'<td class="n">{cell}</td>' in html

    review = client.get(f"/history/{game.pk}/").content.decode()
    assert "No deals yet" not in review
    assert all(f'id="deal-{n}"' in review for n in (1, 2, 3))
    assert "penalty scoring has no game bonus" in review
    assert "<polyline" in review  # the running totals stored then


def test_a_switch_to_rules_that_take_the_game_scores_it_again(client, party_with_a_bonus):
    game = party_with_a_bonus
    page = client.get(f"/history/{game.pk}/rescore/?profile=party&o_target=500").content.decode()
    assert 'id="switch-rules"' in page  # today's rules refuse the game: the switch is what mends it

    answer = client.post(f"/history/{game.pk}/rescore/", {"profile": "party", "o_target": "500", "submission": "s1"})
    assert answer.status_code == 302
    fresh = Game.objects.get(pk=game.pk)
    assert fresh.scored_with == engine.RESULTS_VERSION and fresh.options == {"target": 500}
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "refused by today" not in html and 'id="deal-3"' in html


def test_a_deal_today_s_rules_refuse_is_flagged_and_an_edit_scores_it_again(client, table):
    deals = [ok_record_deal(d, NAMES) for d in (OK_SMALL, OK_BIG, OK_SMALL)]
    game = new_game(table, options={"target": 10000}, deals=deals)
    second = game.deals.get(number=2)
    refused = {**second.cards, "hands": [{**second.cards["hands"][0], "held": ["ZZ"]}, *second.cards["hands"][1:]]}
    Deal.objects.filter(pk=second.pk).update(cards=refused)
    game = stored_by_the_earlier_engine(game)
    before = stored_results(game)

    call_command("refresh_results", verbosity=0)
    assert stored_results(game) == before

    html = client.get(f"/games/{game.pk}/").content.decode()
    row = html[html.index('id="deal-2"') : html.index('id="deal-3"')]
    assert "refused by today&#x27;s rules: Ann: " in row and "edit it to score it again" in row
    assert "refused by today" not in html[html.index('id="deal-3"') :]  # deal 3's own row: not refused
    assert "deal 2 is refused by today&#x27;s rules" in html  # at the top of the page
    deal_page = client.get(f"/games/{game.pk}/deals/{second.pk}/").content.decode()
    assert "edit it to score it again" in deal_page and "As an earlier version" in deal_page
    review = client.get(f"/history/{game.pk}/").content.decode()
    assert review.count("edit it to score it again") == 2  # the top of the page and deal 2's part

    assert client.get(f"/games/{game.pk}/deals/{second.pk}/edit/").status_code == 200
    deal_services.edit_deal(game=game, deal_id=second.pk, version=second.version, deal=deals[1])
    assert Game.objects.get(pk=game.pk).scored_with == engine.RESULTS_VERSION
    assert "refused by today" not in client.get(f"/games/{game.pk}/").content.decode()


def test_a_refused_game_s_pages_are_in_german_too(client, party_with_a_bonus):
    html = client.get(f"/games/{party_with_a_bonus.pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "nach heutigen Regeln abgelehnt" in html
