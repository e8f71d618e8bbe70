"""Editing a deal on a phone alone: the form comes back as it was saved, as the table's form shows a
deal for an edit (phone.form_values) — who went out or knocked, the deal's facts and flags, each
hand's cards and a split the players gave, the upcard and Big Gin; a points-only deal comes back in
the points form. A change saved is scored again, as the server scores the record."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_alone import new_game, phone_games, save, server_score, typed, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def edit(page: Page, number: int) -> None:
    page.locator(f"#game-view #deal-{number} summary").click()
    page.locator(f"#game-view #deal-{number} a[href*='/{number}']").click()
    expect(page.locator("#deal-form")).to_be_visible()


@pytest.mark.parametrize(("size", "lang"), [((390, 844), "en"), ((360, 740), "de")], ids=["390x844-en", "360x740-de"])
def test_an_oklahoma_deal_comes_back_as_saved_and_an_edit_is_scored_again(page: Page, live_server, shot, size, lang):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page.goto(f"{live_server.url}/alone/")
    wait_ready(page)
    new_game(page, "oklahoma", ["Ann", "Ben"], {})
    page.locator("#game-view .actions a.primary").click()
    page.locator("#id_out_0").check()
    page.locator("#id_concealed").check()
    typed(page, "p-0-melded", "QS QH QD 5S 6S 7S")
    page.locator("#player-0 details.split summary").click()
    typed(page, "p-0-melds", "QS QH QD / 5S 6S 7S")
    typed(page, "p-1-held", "8H 4C")
    expect(page.locator("#preview table.preview")).to_be_visible()
    save(page)
    expect(page.locator("#game-view .saved-note")).to_be_visible()

    edit(page, 1)
    expect(page.locator("#id_out_0")).to_be_checked()
    expect(page.locator("#id_out_stock")).not_to_be_checked()
    expect(page.locator("#id_concealed")).to_be_checked()
    expect(page.locator("#id_first_turn")).not_to_be_checked()
    expect(page.locator("#id_p-0-melded")).to_have_value("QS QH QD 5S 6S 7S")
    expect(page.locator("#id_p-0-melds")).to_have_value("QS QH QD / 5S 6S 7S")
    expect(page.locator("#id_p-1-held")).to_have_value("8H 4C")
    expect(page.locator("#deal-form .errorlist")).to_have_count(0)  # the record's letters read in either language
    shot(page, f"alone-edit-oklahoma-{size[0]}-{lang}")
    typed(page, "p-1-held", "8H 4C KD")
    expect(page.locator("#preview table.preview")).to_be_visible()
    save(page)
    expect(page.locator("#game-view .saved-note")).to_be_visible()
    [game] = phone_games(page)
    [deal] = game["record"]["deals"]
    assert deal["concealed"] is True and deal["out"] == "Ann"
    assert deal["hands"]["Ann"]["melds"] == [["QS", "QH", "QD"], ["5S", "6S", "7S"]]
    assert deal["hands"]["Ben"]["held"] == ["8H", "4C", "KD"]
    assert page.evaluate("r => window.scorekeeperAlone.score(r)", game["record"]) == server_score(game["record"])


def test_a_gin_hand_and_a_points_only_deal_come_back_as_saved(page: Page, live_server):
    page.goto(f"{live_server.url}/alone/")
    wait_ready(page)
    new_game(page, "oklahoma-gin", ["Ann", "Ben"], {})
    page.locator("#game-view .actions a.primary").click()
    typed(page, "upcard", "5C")
    page.locator("#id_knocker_0").check()
    typed(page, "p-0-cards", "AS 2S 3S 4H 5H 6H 7C 7D 7H 2D")
    typed(page, "p-1-cards", "KS QS JC 10D 9H 8C 4C 3D 2C AH")
    expect(page.locator("#preview table.preview")).to_be_visible()
    save(page)
    expect(page.locator("#game-view .saved-note")).to_be_visible()
    page.locator("#game-view .actions a.button:not(.primary)").first.click()  # deal 2: points only
    page.locator("#id_points-0").fill("0")
    page.locator("#id_points-1").fill("25")
    page.locator("#id_winner").select_option("1")
    save(page)
    expect(page.locator("#game-view .saved-note")).to_be_visible()

    edit(page, 1)
    expect(page.locator("#id_upcard")).to_have_value("5C")
    expect(page.locator("#id_knocker_0")).to_be_checked()
    expect(page.locator("#id_p-0-cards")).to_have_value("AS 2S 3S 4H 5H 6H 7C 7D 7H 2D")
    expect(page.locator("#id_p-1-cards")).to_have_value("KS QS JC 10D 9H 8C 4C 3D 2C AH")
    expect(page.locator("#id_p-0-big_gin")).not_to_be_checked()
    page.locator("#game-view a, #deal-form a", has_text="Cancel").click()

    edit(page, 2)  # the points form, not the cards form
    expect(page.locator("#id_points-0")).to_have_value("0")
    expect(page.locator("#id_points-1")).to_have_value("25")
    expect(page.locator("#id_winner")).to_have_value("1")
    expect(page.locator("#id_upcard")).to_have_count(0)


def test_a_double_tap_on_save_saves_one_deal_and_a_refusal_leaves_the_player_where_they_type(page: Page, live_server):
    """Save tapped twice before the first is answered stores the deal once; a save refused while the
    player has gone on typing elsewhere shows its errors without pulling the focus away from them."""
    page.goto(f"{live_server.url}/alone/")
    wait_ready(page)
    new_game(page, "oklahoma", ["Ann", "Ben"], {})
    page.locator("#game-view .actions a.primary").click()
    page.locator("#id_out_0").check()
    typed(page, "p-0-melded", "QS QH QD 5S 6S 7S")
    typed(page, "p-1-held", "8H XX")  # a typo: refused
    # the answer comes back only after the player has moved to Ann's cards left in hand
    page.evaluate(
        """() => {
            const held = document.getElementById("id_p-0-held");
            document.querySelector("#deal-form .actions button[value=save]").click();
            held.focus();
        }"""
    )
    expect(page.locator("#deal-form[aria-busy]")).to_have_count(0)
    expect(page.locator("#id_p-1-held_feedback .errorlist")).to_be_visible()
    assert page.evaluate("document.activeElement.id") == "id_p-0-held"

    typed(page, "p-1-held", "8H 4C")
    expect(page.locator("#preview table.preview")).to_be_visible()
    page.locator("#deal-form .actions button[value=save]").dblclick()
    expect(page.locator("#game-view .saved-note")).to_be_visible()
    [game] = phone_games(page)
    assert len(game["record"]["deals"]) == 1
