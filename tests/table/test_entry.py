"""The deal form as Django forms: card-list fields, one form per player, errors where they belong
(once), the accessibility attributes, the focus after a failed save; and around the entry: the
deal list, the rematch."""

import html
import re

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from scorekeeper.table.entry.cards import CardListField
from scorekeeper.table.entry.deal import deal_entry
from scorekeeper.table.models import Device, Game, Role
from scorekeeper.table.scoring import deals as deal_services
from tests.app_data import GIN_BIG, OK_BIG, OK_SMALL, gin_post, ok_post, ok_record_deal
from tests.conftest import NAMES, as_phone

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def text(response) -> str:
    return html.unescape(response.content.decode())


def tag(body: str, element_id: str) -> str:
    """The opening tag of the element with this id."""
    match = re.search(rf'<[^<>]*\bid="{re.escape(element_id)}"[^<>]*>', body)
    assert match, element_id
    return match.group(0)


# ---------------------------------------------------------------- the card-list field


def test_a_card_list_field_reads_the_notation_and_reports_every_typo():
    field = CardListField(wild=True)
    assert field.clean("qs 10h T♥ jk 2c=7h") == ["QS", "10H", "10H", "JK", "2C=7H"]
    with pytest.raises(ValidationError) as caught:
        field.clean("QS 4X 1H ZZ")
    messages = caught.value.messages
    assert len(messages) == 3
    assert any("4X" in m for m in messages) and any("1H" in m and "AH" in m for m in messages)


def test_a_melds_field_splits_at_slashes_and_a_gin_field_names_no_wild_card():
    assert CardListField(wild=True, groups=True).clean("QS QH QD / 5S 6S 7S /") == [
        ["QS", "QH", "QD"],
        ["5S", "6S", "7S"],
    ]
    with pytest.raises(ValidationError):
        CardListField().clean("2C=7H")
    assert CardListField(single=True).clean(" 7s ") == "7S"
    with pytest.raises(ValidationError):
        CardListField(single=True).clean("7S 8S")


def test_one_form_per_player_however_many_forms_the_post_claims():
    entry = deal_entry("oklahoma", players=NAMES, data={"p-TOTAL_FORMS": "999", "out": "stock"})
    assert [f.player for f in entry.hands.forms] == NAMES
    entry = deal_entry("oklahoma", players=NAMES, data={"p-TOTAL_FORMS": "1", "out": "stock"})
    assert len(entry.hands.forms) == 3


# ---------------------------------------------------------------- errors, once, where they belong


def test_a_typo_is_said_on_its_field_with_django_s_accessibility_attributes(client, ok_game):
    data = ok_post(OK_BIG)
    data["p-2-held"] = "QS 4X"
    body = text(client.post(reverse("table:deal_new", args=[ok_game.pk]), data))
    field = tag(body, "id_p-2-held")
    assert 'aria-invalid="true"' in field
    assert 'aria-describedby="id_p-2-held_check id_p-2-held_error"' in field
    assert "autofocus" in field  # the first field in error takes the focus
    assert body.count("'4X' is not a card") == 1  # shown once: beside the field, not again in a summary
    # a field without errors is not marked
    assert "aria-invalid" not in tag(body, "id_p-0-held")


def test_the_focus_goes_to_the_first_field_in_error_in_the_page_s_order(client, ok_game):
    data = ok_post(OK_BIG)
    data["p-1-held"] = "9X"
    data["p-2-held"] = "4X"
    body = text(client.post(reverse("table:deal_new", args=[ok_game.pk]), data))
    assert "autofocus" in tag(body, "id_p-1-held") and "autofocus" not in tag(body, "id_p-2-held")


def test_an_engine_error_sits_on_the_field_it_concerns_once(client, ok_game):
    data = ok_post(OK_BIG)
    data["p-1-melds"] = "5S 6S 8S"
    body = text(client.post(reverse("table:deal_new", args=[ok_game.pk]), data))
    errors = body.split('id="id_p-1-melds_error">')[1].split("</ul>")[0]
    assert "S0" in errors
    message = re.sub(r"<[^>]+>", "", errors.split("<li>")[1].split("</li>")[0])
    assert body.count(message) == 1
    assert "autofocus" in tag(body, "id_p-1-melds")
    assert '<details class="split" open>' in body.split('id="player-1"')[1].split("</fieldset>")[0]


def test_who_went_out_is_asked_once_and_takes_the_focus(client, ok_game):
    data = ok_post(OK_BIG)
    del data["out"]
    body = text(client.post(reverse("table:deal_new", args=[ok_game.pk]), data))
    assert body.count("Say who went out, or that the stock ran out.") == 1
    assert "autofocus" in tag(body, "id_out_0")


def test_an_error_of_the_deal_as_a_whole_is_said_at_the_top_and_takes_the_focus(client, ok_game):
    for deal in (OK_BIG, OK_BIG, OK_BIG):
        deal_services.add_deal(game=ok_game, deal=ok_record_deal(deal, NAMES))
    body = text(client.post(reverse("table:deal_new", args=[ok_game.pk]), ok_post(OK_SMALL)))
    top = tag(body, "deal-errors")
    assert "autofocus" in top and 'tabindex="-1"' in top
    assert body.count("the game is over") == 1


def test_a_split_that_holds_other_cards_than_the_melded_ones_is_refused(client, ok_game):
    data = ok_post(OK_SMALL)
    data["p-1-melded"] = "9C 10C JC 6H 6D 6C"
    data["p-1-melds"] = "9C 10C JC / 6H 6D 6S"
    r = client.post(reverse("table:deal_new", args=[ok_game.pk]), data)
    assert r.status_code == 400
    errors = text(r).split('id="id_p-1-melds_error">')[1].split("</ul>")[0]
    assert "not melded: 6♠" in errors and "missing: 6♣" in errors
    data["p-1-melds"] = "9C 10C JC / 6H 6D 6C"  # the same cards, split by hand: taken as the melds
    assert client.post(reverse("table:deal_new", args=[ok_game.pk]), data).status_code == 302
    assert ok_game.deals.get().cards["hands"][1]["melds"] == [["9C", "10C", "JC"], ["6H", "6D", "6C"]]


def test_while_the_deal_is_entered_what_is_not_entered_yet_is_not_nagged(client, ok_game):
    url = reverse("table:deal_new", args=[ok_game.pk])
    body = text(client.post(url, {"action": "preview", "p-0-held": "QS 4X"}, headers=HX))
    assert "'4X' is not a card" in body  # what is typed is checked
    assert "Say who went out" not in body and "id_p-1-held_error" not in body
    # a save says everything that is missing
    assert "Say who went out" in text(client.post(url, {"p-0-held": "QS"}))


def test_the_live_check_shows_the_cards_grouped_by_meld(client, ok_game):
    """The form's live check (its preview, sent by htmx while the cards are typed) checks every field."""
    url = reverse("table:deal_new", args=[ok_game.pk])
    body = text(client.post(url, {"action": "preview", "p-0-melds": "QS QH QD / 5S 6S 7S"}, headers=HX))
    check = body.split('id="id_p-0-melds_check"')[1].split("</div>")[0]
    assert check.count('class="meld"') == 2 and "✓ set" in check and "✓ sequence" in check
    assert "2 cards" in text(client.post(url, {"action": "preview", "p-0-held": "QS 4C"}, headers=HX))


def test_gin_upcard_and_both_ways_of_giving_a_hand(client, gin_game):
    url = reverse("table:deal_new", args=[gin_game.pk])
    data = gin_post(GIN_BIG)
    data["upcard"] = "9S 9H"
    body = text(client.post(url, data))
    assert "Enter one card." in body and 'aria-invalid="true"' in tag(body, "id_upcard")
    data = gin_post(GIN_BIG)
    data["p-0-cards"] = "3C 4C 5C"
    body = text(client.post(url, data))
    player = body.split('id="p-0_errors"')[1].split("</div>")[0]
    assert "not both" in player and body.count("not both") == 1


def test_the_gin_hint_offers_no_joker_and_without_javascript_nothing_says_tap(client, ok_game, gin_game):
    gin = text(client.get(reverse("table:deal_new", args=[gin_game.pk])))
    hint = re.sub(r"<[^>]+>", "", gin.split('<p class="hint">')[1].split("</p>")[0])
    assert "JK" not in hint and "=" not in hint and "QS 10H 7C" in hint
    ok = text(client.get(reverse("table:deal_new", args=[ok_game.pk])))
    hint = ok.split('<p class="hint">')[1].split("</p>")[0]
    # the picker's line only shows where the picker is (static/app.css: .with-picker)
    assert 'class="picker-hint"' in hint and "tap" not in hint.split('class="picker-hint"')[0].lower()


# ---------------------------------------------------------------- around the entry


def test_the_deal_list_says_who_went_out_or_knocked_and_who_dealt(client, ok_game, gin_game):
    deal_services.add_deal(game=ok_game, deal=ok_record_deal(OK_SMALL, NAMES))
    row = text(client.get(reverse("table:game", args=[ok_game.pk]))).split('id="deal-1"')[1].split("</tbody>")[0]
    assert "Ben went out" in row and "dealt by Ann" in row and "(Ben)" not in row  # who did it, said first
    url = reverse("table:deal_new", args=[gin_game.pk])
    assert client.post(url, gin_post(GIN_BIG)).status_code == 302
    row = text(client.get(reverse("table:game", args=[gin_game.pk]))).split('id="deal-1"')[1].split("</tbody>")[0]
    assert "Ann went gin" in row and "×2" in row


def test_a_finished_game_offers_a_rematch_once(client, ok_game):
    page = text(client.get(reverse("table:game", args=[ok_game.pk])))
    assert "Rematch" not in page
    url = reverse("table:rematch", args=[ok_game.pk])
    assert client.post(url, {"submission": "early"}).status_code == 302
    assert Game.objects.count() == 1  # not before the game is over
    for deal in (OK_BIG, OK_BIG, OK_BIG):
        deal_services.add_deal(game=ok_game, deal=ok_record_deal(deal, NAMES))
    page = text(client.get(reverse("table:game", args=[ok_game.pk])))
    token = page.split('name="submission" value="')[1].split('"')[0]
    first = client.post(url, {"submission": token})
    again = client.post(url, {"submission": token})  # a double tap, a retry
    assert first.status_code == again.status_code == 302 and first["Location"] == again["Location"]
    assert Game.objects.count() == 2
    new = Game.objects.exclude(pk=ok_game.pk).get()
    assert (new.kind, new.profile, new.options, new.player_names()) == (
        ok_game.kind,
        ok_game.profile,
        ok_game.options,
        ok_game.player_names(),
    )
    assert new.first_dealer == 0  # Ann won the last hand: she would have dealt next
    assert first["Location"] == reverse("table:game", args=[new.pk])


def test_each_scoring_phone_gets_a_rematch_form_that_passes_its_csrf_check(ok_game, scorer, table):
    """The game page's parts are cached by version; the rematch form is not (its CSRF token is the
    phone's own): two scoring phones that opened the finished game both get through."""
    other = Device.objects.create(table=table, name="Ben's phone", role=Role.SCORE)
    for deal in (OK_BIG, OK_BIG, OK_BIG):
        deal_services.add_deal(game=ok_game, deal=ok_record_deal(deal, NAMES))
    url = reverse("table:rematch", args=[ok_game.pk])
    for device in (scorer, other):
        phone = as_phone(Client(enforce_csrf_checks=True), device)
        page = text(phone.get(reverse("table:game", args=[ok_game.pk])))
        fields = {
            name: page.split(f'name="{name}" value="')[1].split('"')[0]
            for name in ("csrfmiddlewaretoken", "submission")
        }
        r = phone.post(url, fields)
        assert r.status_code == 302 and r["Location"] != reverse("table:game", args=[ok_game.pk])
    assert Game.objects.count() == 3  # a rematch each: each pressed it with a form of its own


def test_a_follower_cannot_start_a_rematch(client, ok_game, follower):
    for deal in (OK_BIG, OK_BIG, OK_BIG):
        deal_services.add_deal(game=ok_game, deal=ok_record_deal(deal, NAMES))
    as_phone(client, follower)
    assert "Rematch" not in text(client.get(reverse("table:game", args=[ok_game.pk])))
    assert client.post(reverse("table:rematch", args=[ok_game.pk]), {"submission": "x"}).status_code == 403
    assert Game.objects.count() == 1


FIELDS = ["upcard", "p-0-cards", "p-1-melds", "p-0-deadwood", "p-0-big_gin", "p-7-cards", "\x00"]


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("value", ["9S", "JK 2C=7H / / x", "\x00", "٩S " * 100])
def test_the_live_check_takes_anything(client, gin_game, field, value):
    url = reverse("table:deal_new", args=[gin_game.pk])
    r = client.post(url, {"action": "preview", field: value, "p-0-melds": value}, headers=HX)
    assert r.status_code == 200


def test_a_late_misdeal_is_a_fact_of_the_deal(client, ok_game):
    url = reverse("table:deal_new", args=[ok_game.pk])

    def bens_points(data: dict[str, str]) -> str:
        body = text(client.post(url, {**data, "action": "preview"})).split('id="preview"')[1]
        return body.split('<th scope="row">Ben</th>')[1].split("</td>")[0]

    data = {**ok_post(OK_SMALL), "late_misdeal": "on"}
    assert bens_points(ok_post(OK_SMALL)) == '<td class="n">+145'  # Ben went out: +100 of it
    assert bens_points(data) == '<td class="n">+45'  # no going-out bonus (S1 law 4)
    assert client.post(reverse("table:deal_new", args=[ok_game.pk]), data).status_code == 302
    assert ok_game.deals.get().cards["late_misdeal"] is True
    edit = text(client.get(reverse("table:deal_edit", args=[ok_game.pk, ok_game.deals.get().pk])))
    assert re.search(r'<input type="checkbox" name="late_misdeal"[^>]* checked', edit)
