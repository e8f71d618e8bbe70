"""Oklahoma melds given as one flat list of the cards laid down (RECORD.md ``melded``): the engine
splits them, the form shows the split (chips grouped by meld, the melds field filled with it), the
split can be changed, and where the engine asks for a split or a wild card's name (or finds a player
with no cards), its message sits beside that player's field."""

import html
import re

import pytest
from django.urls import reverse

from scorekeeper.table.scoring import engine
from tests.conftest import NAMES

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def game(make_game):
    return make_game(kind="oklahoma", profile="book", players=NAMES, first_dealer=0)


def text(response) -> str:
    return html.unescape(response.content.decode())


def post(**fields: str) -> dict[str, str]:
    """A deal where Ann goes out with a set of queens; the fields given replace the others."""
    data = {
        "out": "0",
        "p-0-melded": "QS QH QD",
        "p-1-melded": "8H 9H 2C=7H 6S 6H 6D",
        "p-1-held": "KD",
        "p-2-held": "4C",
    }
    data.update(fields)
    return data


def value_of(body: str, name: str) -> str:
    match = re.search(rf'<input[^>]*name="{re.escape(name)}"[^>]*>', body)
    assert match, name
    found = re.search(r'value="([^"]*)"', match.group(0))
    return found.group(1) if found else ""


def melds_of(text_value: str) -> set[tuple[str, ...]]:
    return {tuple(m.split()) for m in text_value.split("/") if m.strip()}


def test_melded_cards_are_split_by_the_engine_and_saved_as_given(client, game):
    url = reverse("table:deal_new", args=[game.pk])
    body = text(client.post(url, post(action="preview")))
    feedback = body.split('id="id_p-1-melded_feedback"')[1].split('<div class="cardfield')[0]
    assert feedback.count('class="meld"') == 2 and "✓ set" in feedback and "✓ sequence" in feedback
    # the split found fills the melds field, marked as the engine's (not a split the player gave)
    split = value_of(body, "p-1-melds")
    assert melds_of(split) == {("6S", "6H", "6D"), ("2C=7H", "8H", "9H")}
    assert value_of(body, "p-1-auto") == split
    # the preview shows each player's melds as the engine scored them
    preview = body.split('id="preview"')[1]
    assert preview.count('class="meld"') == 3
    r = client.post(url, post())
    assert r.status_code == 302
    saved = engine.record_deal(game.deals.get().cards, NAMES)["hands"]["Ben"]
    assert saved == {"melded": ["8H", "9H", "2C=7H", "6S", "6H", "6D"], "held": ["KD"]}


def test_the_split_shown_and_left_alone_is_not_taken_as_given(client, game):
    url = reverse("table:deal_new", args=[game.pk])
    shown = "6S 6H 6D / 2C=7H 8H 9H"
    assert client.post(url, post(**{"p-1-melds": shown, "p-1-auto": shown})).status_code == 302
    assert "melded" in game.deals.get().cards["hands"][1]


def test_the_split_can_be_changed(client, game):
    url = reverse("table:deal_new", args=[game.pk])
    data = post(**{"p-1-melded": "5S 6S 7S 8S 9S 10S", "p-1-melds": "5S 6S 7S / 8S 9S 10S"})
    body = text(client.post(url, {**data, "action": "preview"}))
    assert value_of(body, "p-1-melds") == "5S 6S 7S / 8S 9S 10S"  # the player's split stays
    assert client.post(url, data).status_code == 302
    assert game.deals.get().cards["hands"][1]["melds"] == [["5S", "6S", "7S"], ["8S", "9S", "10S"]]


def test_splits_that_score_differently_are_asked_for_beside_the_field(client, game):
    r = client.post(reverse("table:deal_new", args=[game.pk]), post(**{"p-1-melded": "8H 9H 2C 6S 6H 6D"}))
    assert r.status_code == 400
    body = text(r)
    errors = body.split('id="id_p-1-melded_error">')[1].split("</ul>")[0]
    assert "several ways that score differently" in errors and "2♣" in errors
    message = re.sub(r"<[^>]+>", "", errors.split("<li>")[1].split("</li>")[0])
    assert body.count(message) == 1  # beside the field, once
    ben = body.split('id="player-1"')[1].split("</fieldset>")[0]
    assert '<details class="split" open>' in ben  # the split can be given right there
    assert "autofocus" in re.search(r'<input[^>]*id="id_p-1-melded"[^>]*>', body).group(0)  # type: ignore[union-attr]
    # naming the 2 (in two taps on the picker: "=", then the card) settles it
    ok = client.post(reverse("table:deal_new", args=[game.pk]), post(**{"p-1-melded": "8H 9H 2C=10H 6S 6H 6D"}))
    assert ok.status_code == 302


def test_a_player_with_no_cards_is_told_beside_his_cards(client, game):
    r = client.post(reverse("table:deal_new", args=[game.pk]), post(**{"p-2-held": ""}))
    assert r.status_code == 400
    body = text(r)
    cleo = body.split('id="p-2_errors"')[1].split("</div>")[0]
    message = "Cleo has no cards: every player who did not go out holds at least one card"
    assert message in cleo and body.count(message) == 1
    assert "autofocus" in re.search(r'<input[^>]*id="id_p-2-melded"[^>]*>', body).group(0)  # type: ignore[union-attr]
    assert not game.deals.exists()


def test_the_live_check_of_melded_cards_shows_the_split_and_fills_the_melds_field(client, game):
    url = reverse("table:deal_new", args=[game.pk])
    body = text(client.post(url, {**post(), "action": "preview"}, headers=HX))
    check = body.split('id="id_p-1-melded_check"')[1].split("</div>")[0]  # that field's live check
    assert check.count('class="meld"') == 2 and "6 cards, +40" in check
    # the melds field, swapped in with the split found
    assert 'id="id_p-1-melds_box"' in body and 'hx-swap-oob="true"' in body
    assert melds_of(value_of(body, "p-1-melds")) == {("6S", "6H", "6D"), ("2C=7H", "8H", "9H")}
    # a split the player gave is left alone
    mine = text(client.post(url, {**post(**{"p-1-melds": "6S 6H 6D / 8H 9H 2C=7H"}), "action": "preview"}, headers=HX))
    assert 'id="id_p-1-melds_box"' not in mine
    # while the cards do not split yet, the check says why
    partial = text(client.post(url, {**post(**{"p-1-melded": "QS QH"}), "action": "preview"}, headers=HX))
    assert "cannot be placed" in partial


SPLIT_GIVEN = [
    # issue 24: Ann's melds need a split (the flat list splits several ways that score differently)
    {
        "out": "0",
        "p-0-melds": "JK QS KS / KH AH 2H",
        "p-1-melded": "10D 2C 2D",
        "p-1-held": "5C",
        "p-2-melded": "2S 3S 4S",
        "p-2-held": "QC",
    },
    # Ben's cards split into a set of 2s and a set of 6s, or two sets with wild cards
    post(**{"p-1-melded": "", "p-1-melds": "6S 6H 2H / 6D 2D=6D 2C=6C"}),
    # the flat list typed too, with the split beside it
    post(**{"p-1-melded": "2C 2D 2H 6S 6H 6D", "p-1-melds": "6S 6H 2H / 6D 2D=7D 2C=8D"}),
]


@pytest.mark.parametrize("deal", SPLIT_GIVEN)
def test_a_deal_saved_with_its_split_given_opens_for_editing_and_saves_again_unchanged(client, game, deal):
    assert client.post(reverse("table:deal_new", args=[game.pk]), deal).status_code == 302
    saved = game.deals.get()
    cards = saved.cards
    url = reverse("table:deal_edit", args=[game.pk, saved.pk])
    r = client.get(url)
    assert r.status_code == 200
    body = text(r)
    assert "several ways that score differently" not in body  # the split is given: nothing to ask
    # the form as opened, posted back untouched, saves the same cards
    fields = dict(re.findall(r'<input type="(?:text|hidden)" name="([^"]+)" value="([^"]*)"', body))
    fields.update(re.findall(r'<input type="radio" name="(out)" value="([^"]*)"[^>]*checked', body))
    fields = {k: html.unescape(v) for k, v in fields.items() if k != "csrfmiddlewaretoken"}
    assert "p-0-melds" in fields and fields["out"] == "0"
    preview = text(client.post(url, {**fields, "action": "preview"}, headers=HX))
    assert "several ways that score differently" not in preview and "Not valid yet" not in preview
    r = client.post(url, fields)
    assert r.status_code == 302
    saved.refresh_from_db()
    assert saved.cards == cards and saved.version == 2


def fixes_of(body: str, field: str) -> list[tuple[str, str, str]]:
    """The one-tap fixes under a field: (from, to, what the button says)."""
    feedback = body.split(f'id="id_{field}_feedback"')[1].split('<div class="cardfield')[0]
    button = r'<button type="button"\s+class="fix"[^>]*data-from="([^"]*)"\s+data-to="([^"]*)">(.*?)</button>'
    found = re.findall(button, feedback, re.S)
    return [(a, b, " ".join(re.sub(r"<[^>]+>", "", c).split())) for a, b, c in found]


def test_a_wild_card_that_scores_differently_is_named_in_one_tap(client, game):
    """Ben's 2♣ beside 8♥ 9♥ may be the 7♥ or the 10♥: the check offers both, each one tap that
    names it in the field as typed (lower case and all), with what the melds then score."""
    url = reverse("table:deal_new", args=[game.pk])
    body = text(client.post(url, post(action="preview", **{"p-1-melded": "8h 9H 2c 6S 6H 6D"}), headers=HX))
    assert fixes_of(body, "p-1-melded") == [
        ("8H 9H 2C 6S 6H 6D", "8H 9H 2C=7H 6S 6H 6D", "2♣=7♥ +40"),
        ("8H 9H 2C 6S 6H 6D", "8H 9H 2C=10H 6S 6H 6D", "2♣=10♥ +45"),
    ]
    for _, mended, _ in fixes_of(body, "p-1-melded"):  # each one, as the page puts it in, is accepted
        again = text(client.post(url, post(action="preview", **{"p-1-melded": mended}), headers=HX))
        assert not fixes_of(again, "p-1-melded") and "✓ sequence" in again


def test_in_a_melds_field_the_fix_names_the_wild_card_of_its_own_meld(client, game):
    url = reverse("table:deal_new", args=[game.pk])
    melds = "2C 7S 7D / 8H 9H 2C"  # the first 2♣ is a 7 in the set; the second one is asked
    body = text(client.post(url, post(action="preview", **{"p-1-melded": "", "p-1-melds": melds}), headers=HX))
    assert [to for _, to, _ in fixes_of(body, "p-1-melds")] == ["2C 7S 7D / 8H 9H 2C=7H", "2C 7S 7D / 8H 9H 2C=10H"]


def test_a_field_with_a_card_that_does_not_read_offers_no_fix(client, game):
    url = reverse("table:deal_new", args=[game.pk])
    body = text(client.post(url, post(action="preview", **{"p-1-melded": "8H 9H 2C 6S 6H 6D XZ"}), headers=HX))
    assert not fixes_of(body, "p-1-melded")
