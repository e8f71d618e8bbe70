"""Four and five players on a phone: the board, the Enter button above the fold, the deals table
scrolling sideways under a sticky first column, and the picker's preview of every player's points."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.table.scoring import deals as deal_services
from tests.conftest import new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES5 = ["Annabelle", "Benjamin", "Cleopatra", "Dominic", "Evangeline"]
RUNS = [["3D", "4D", "5D"], ["9C", "10C", "JC"], ["KC", "KD", "KH"], ["QS", "QH", "QD"]]
SINGLES = ["5S", "6S", "7S", "8S", "9S"]


def _deal(names: list[str], out: int) -> dict:
    hands = {
        name: {"melds": RUNS, "held": []} if seat == out else {"melds": [], "held": [SINGLES[seat]]}
        for seat, name in enumerate(names)
    }
    return {"out": names[out], "first_turn": False, "concealed": False, "hands": hands}


SIZES = [(390, 844), (360, 740)]


def _played(table, names: list[str], deals: int = 3):
    """A game of ``names`` (the book's rules) with ``deals`` deals saved, each player out in turn (round the table)."""
    game = new_game(table, kind="oklahoma", profile="book", players=names, first_dealer=0)
    for n in range(deals):
        deal_services.add_deal(game=game, deal=_deal(names, n % len(names)), number=n + 1)
    return game


# Every cell of the deals table inside the table's box and not wider than its cell, as a person sees it.
CELLS_INSIDE = """box => {
  const edge = box.getBoundingClientRect();
  const out = [];
  for (const e of box.querySelectorAll('th, td, .run, .delta, thead th > span:not(.vh)')) {
    const r = e.getBoundingClientRect();
    if (r.left < edge.left - 0.5 || r.right > edge.right + 0.5 || e.scrollWidth > e.clientWidth + 1)
      out.push(e.tagName + '.' + e.className + ' ' + e.textContent.trim().slice(0, 20) + ' ' + r.left + '-' + r.right);
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
@pytest.mark.parametrize("players", [4, 5])
def test_the_game_page_fits_four_and_five_players(scorer_page: Page, live_server, table, shot, size, players, lang):
    page = scorer_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    names = NAMES5[:players]
    game = _played(table, names, deals=12)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    # Every player's total on the board, and the button to enter the next deal above the fold.
    for name in names:
        expect(page.locator(".total", has_text=name)).to_be_visible()
    enter = "Enter deal 13" if lang == "en" else "Runde 13 eingeben"
    button = page.get_by_role("link", name=enter).bounding_box()
    assert button and button["y"] + button["height"] <= size[1], button
    # The deals table: every player's column on the screen with no sideways scroll, every running
    # total whole, each column named (whole for a screen reader), what happened under each deal.
    box = page.locator(".scroll:has(table.deals)")
    assert box.evaluate("b => b.scrollWidth <= b.clientWidth"), box.evaluate("b => [b.scrollWidth, b.clientWidth]")
    assert box.evaluate(CELLS_INSIDE) == []
    heads = page.locator(".deals thead th.n")
    expect(heads).to_have_count(players)
    for i, name in enumerate(names):
        expect(heads.nth(i)).to_contain_text(name)  # the visually hidden whole name
        assert heads.nth(i).inner_text().strip()[:4] == name[:4]
    last = page.locator("#deal-12")
    expect(last.locator(".run")).to_have_count(players)
    went_out = "went out" if lang == "en" else "hat ausgemacht"
    expect(last.locator("tr.about")).to_contain_text(f"{names[11 % players]} {went_out}")  # who, said first
    shot(page, f"players-{players}-game-{lang}-{size[0]}")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_five_players_losing_thousands_still_fit_at_360(scorer_page: Page, live_server, table, shot, lang):
    """The widest figures a game shows (German writes −1.995 and −2.000) in every column at once."""
    page = scorer_page
    page.set_viewport_size({"width": 360, "height": 740})
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    far = dict.fromkeys(NAMES5, -1995)
    game = new_game(table, kind="oklahoma", profile="book", players=NAMES5, first_dealer=0)
    deal_services.add_deal(game=game, deal={"points": {**far, NAMES5[0]: 995}, "winner": NAMES5[0]}, number=1)
    deal_services.add_deal(game=game, deal={"points": {**far, NAMES5[0]: -5}, "winner": NAMES5[1]}, number=2)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    box = page.locator(".scroll:has(table.deals)")
    assert box.evaluate("b => b.scrollWidth <= b.clientWidth"), box.evaluate("b => [b.scrollWidth, b.clientWidth]")
    assert box.evaluate(CELLS_INSIDE) == []
    expect(page.locator("#deal-2 .run").nth(1)).to_have_text("−3990" if lang == "en" else "−3.990")
    shot(page, f"players-5-thousands-{lang}-360")


@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
def test_the_picker_shows_every_players_preview_points(scorer_page: Page, live_server, table, shot, size):
    page = scorer_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    game = new_game(table, kind="oklahoma", profile="book", players=NAMES5, first_dealer=0)
    page.goto(f"{live_server.url}/games/{game.pk}/deals/new/")
    page.locator('input[name=out][value="0"]').check()
    for seat, name in enumerate(NAMES5):
        if seat == 0:
            page.get_by_label(f"{name}: Melded", exact=True).fill(" ".join(" ".join(m) for m in RUNS))
        else:
            page.get_by_label(f"{name}: Left in hand", exact=True).fill(SINGLES[seat])
    summary = page.locator(".picker .psum")
    expect(summary).to_contain_text("Evangeline")
    for name in NAMES5:
        expect(summary).to_contain_text(name)
    # Not cut: the line wraps rather than hiding a player behind an ellipsis.
    assert summary.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    shot(page, f"players-5-entry-{size[0]}")


@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
def test_the_review_chart_keeps_its_labels_inside(scorer_page: Page, live_server, table, shot, size):
    page = scorer_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    game = _played(table, NAMES5)
    page.goto(f"{live_server.url}/history/{game.pk}/")
    chart = page.locator("svg.chart").first
    box = chart.bounding_box()
    assert box
    labels = chart.locator("text.end-label")
    assert labels.count() == 5
    for i in range(5):
        label = labels.nth(i).bounding_box()
        assert label and label["x"] + label["width"] <= box["x"] + box["width"] + 0.5, (i, label, box)
    shot(page, f"players-5-review-{size[0]}")
