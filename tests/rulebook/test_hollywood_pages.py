"""Hollywood (three columns, a Gin house option) on every page of a game: the game page, the deal
pages, the review and re-score show each column's points, its winner, its bonuses and its final
tally, all from the engine's result; a refused combination gives the engine's message next to the
option on the new-game and re-score forms."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules import gin, profiles
from scorekeeper.rules.results import Standing
from scorekeeper.table.games.forms import option_words
from scorekeeper.table.models import Game
from scorekeeper.table.scoring import engine
from scorekeeper.table.text import signed_text
from tests.conftest import new_game

pytestmark = pytest.mark.django_db

RECORD = json.loads(
    (Path(__file__).parents[1] / "rules" / "records" / "gin_hollywood_standard.json").read_text(encoding="utf-8")
)
PLAYERS = RECORD["players"]


def hollywood_game(table, deals=None, profile="standard", options=None) -> Game:
    return new_game(
        table,
        kind="oklahoma-gin",
        profile=profile,
        players=PLAYERS,
        options=options if options is not None else RECORD["rules"]["options"],
        first_dealer=PLAYERS.index(RECORD["first_dealer"]),
        deals=RECORD["deals"] if deals is None else deals,
    )


def page(client, url: str, status: int = 200) -> str:
    r = client.get(url)
    assert r.status_code == status, r.content.decode()[:3000]
    return r.content.decode()


def section(text: str, key: str = "hw") -> str:
    start = text.index(f'<section class="hollywood" id="{key}"')
    return text[start : text.index("</section>", start)]


def found(pattern: str, text: str) -> re.Match[str]:
    match = re.search(pattern, text, re.S)
    assert match is not None, pattern
    return match


def plain(fragment: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", fragment))).strip()


def assert_columns(part: str, totals: list[dict[str, int]], winners: list[str | None], ended: list[int | None]) -> None:
    for k, column_totals in enumerate(totals, start=1):
        for name, total in column_totals.items():
            assert f'data-column="{k}" data-player="{name}" data-total="{total}"' in part
        state = found(rf'data-column-state="{k}">([^<]*)<', part).group(1)
        assert state == (f"closed on deal {ended[k - 1]}" if ended[k - 1] else "open")
        winner = re.search(rf'data-column-winner="{k}">([^<]*)<', part)
        assert (winner.group(1).removesuffix(" wins") if winner else None) == winners[k - 1]


def assert_result_columns(part: str, result: Any) -> None:
    """``assert_columns`` with a scored game's columns: their totals, winners and closing deals."""
    columns = result.columns
    assert_columns(part, [dict(c.totals) for c in columns], [c.winner for c in columns], [c.ended_on for c in columns])


def assert_finals(part: str, result) -> None:
    """Each closed column's final tally, with every line (bonuses) and its link to the rule book."""
    for column in result.columns:
        if column.final is None:
            continue
        for name, value in column.final.items():
            cell = found(rf'data-column="{column.number}" data-player="{name}" data-total="\d+">(.*?)</td>', part)
            assert f'data-final="{value}"' in cell.group(1)
        tally = part[part.index(f"Final tally of column {column.number},") :]
        for name, lines in (column.final_lines or {}).items():
            row = tally[tally.index(f'<th scope="row">{name}</th>') :]
            row = row[: row.index("</tr>")]
            for line in lines:
                assert f"{html.escape(str(line.label))} {signed_text(line.points)}" in row.replace("&#x27;", "'")
            assert f"<strong>{column.final[name]}</strong>" in row


def test_the_game_page_shows_three_columns_with_winners_bonuses_and_final_tallies(client, table):
    game = hollywood_game(table)
    result = engine.game_result(game)
    assert game.state == "finished" and len(result.columns) == 3
    text = page(client, f"/games/{game.pk}/")
    part = section(text)
    assert_result_columns(part, result)
    assert_finals(part, result)
    assert "game bonus +100" in plain(part)
    match = plain(part[part.index('<p class="winner"') :])
    assert match.startswith(
        f"{result.winner} wins the match with the larger sum of finals (3 of the three columns won)"
    )
    for name, total in (result.final or {}).items():
        assert f"{name} {total}" in match
    # The game bonus line of each column links to its paragraph in the game's rule book.
    assert f'href="/games/{game.pk}/rules/#game-bonus"' in part
    # An htmx refresh of the board carries the columns too.
    fragment = client.get(f"/games/{game.pk}/", headers={"HX-Request": "true"}).content.decode()
    assert '<section class="hollywood"' in fragment


def test_an_unfinished_match_shows_open_columns(client, table):
    game = hollywood_game(table, deals=RECORD["deals"][:3])
    result = engine.game_result(game)
    assert result.state == "in_progress"
    part = section(page(client, f"/games/{game.pk}/"))
    assert_columns(part, [dict(c.totals) for c in result.columns], [None] * 3, [None] * 3)
    assert "the match ends when all three are closed" in plain(part)


def test_each_deal_page_shows_the_columns_its_hand_went_in_and_the_columns_after_it(client, table):
    game = hollywood_game(table)
    result = engine.game_result(game)
    for deal in game.deals.order_by("number"):
        text = page(client, f"/games/{game.pk}/deals/{deal.pk}/")
        part = section(text)
        entered = result.deals[deal.number - 1].columns
        words = {1: "column 1", 2: "columns 1 and 2", 3: "columns 1, 2 and 3"}
        went = plain(part[: part.index("<table")])
        if entered == tuple(range(1, len(entered) + 1)):
            assert f"went in {words[len(entered)]}" in went
        else:
            assert "went in column" in went and all(str(k) in went for k in entered)
        # The columns as the engine's standing after this deal holds them.
        standing = Standing.from_json(deal.standing)
        assert_columns(
            part,
            [dict(zip(PLAYERS, c.totals, strict=True)) for c in standing.columns],
            [PLAYERS[c.winner] if c.winner is not None else None for c in standing.columns],
            [c.ended_on for c in standing.columns],
        )
    # The deal that closed column 1: it shows column 1's final tally; columns 2 and 3 still open.
    assert result.columns[0].ended_on is not None
    closing = game.deals.get(number=result.columns[0].ended_on)
    part = section(page(client, f"/games/{game.pk}/deals/{closing.pk}/"))
    assert "Final tally of column 1," in part and "Final tally of column 2," not in part


def test_the_review_shows_the_columns_and_which_columns_each_hand_went_in(client, table):
    game = hollywood_game(table)
    result = engine.game_result(game)
    text = page(client, f"/history/{game.pk}/")
    part = section(text)
    assert_result_columns(part, result)
    assert_finals(part, result)
    for d in result.deals:
        article = text[text.index(f'id="deal-{d.number}"') :]
        article = plain(article[: article.index("</article>")])
        assert "Hollywood: the hand went in" in article
        for k in d.columns:
            assert str(k) in article.split("Hollywood: the hand went in", 1)[1].split(".")[0]


def test_rescore_shows_the_columns_now_and_under_the_other_rules(client, table):
    game = hollywood_game(table)
    text = page(client, f"/history/{game.pk}/rescore/?profile=classic&o_hollywood=true&o_target=100")
    now = section(text, "columns-now")
    other = section(text, "columns-other")
    current = engine.game_result(game)
    assert_result_columns(now, current)
    rec = dict(engine.game_record(game), rules={"profile": "classic", "options": {"hollywood": True, "target": 100}})
    alt = engine.score(rec)
    assert_columns(
        other, [dict(c.totals) for c in alt.columns], [c.winner for c in alt.columns],
        [c.ended_on for c in alt.columns],
    )  # fmt: skip
    assert_finals(other, alt)
    # Classic boxes: the box bonus of the other rules' columns links to the other rules' book.
    assert 'href="/rules/oklahoma-gin/classic/book/?hollywood=true&amp;target=100#box-bonus"' in other
    # Without Hollywood under the other rules, only the columns of now show.
    text = page(client, f"/history/{game.pk}/rescore/?profile=standard&o_hollywood=false")
    assert 'id="columns-now"' in text and 'id="columns-other"' not in text


def test_a_game_without_hollywood_shows_no_columns(client, table):
    game = hollywood_game(table, options={"target": 100}, deals=RECORD["deals"][:2])
    first = game.deals.get(number=1)
    for url in (f"/games/{game.pk}/", f"/history/{game.pk}/", f"/games/{game.pk}/deals/{first.pk}/"):
        assert '<section class="hollywood"' not in page(client, url)


def new_game_post(profile: str, seats: list[str]) -> dict[str, str]:
    data = {"game": "oklahoma-gin", "profile": profile, "first_dealer": "0", "opt_hollywood": "true"}
    data.update({f"seat_{i}": name for i, name in enumerate(seats)})
    return data


@pytest.mark.parametrize(
    "profile, seats, options",
    [
        ("standard", ["Ann", "Ben", "Cleo"], {"max_players": 3}),
        ("party", ["Ann", "Ben"], {}),
    ],
)
def test_the_new_game_form_gives_the_engines_refusal_next_to_the_hollywood_option(client, profile, seats, options):
    data = new_game_post(profile, seats)
    data.update({f"opt_{k}": str(v) for k, v in options.items()})
    r = client.post("/games/new/?game=oklahoma-gin", data)
    assert r.status_code == 400
    text = r.content.decode()
    knob = text[text.index('id="id_opt_hollywood"') :]
    knob = knob[: knob.index('<p class="hint">')]
    rules = profiles.resolve("oklahoma-gin", profile, {"hollywood": True, **options})
    (expected,) = [e for e in gin.setup_errors(rules, seats) if e.field == "rules.options.hollywood"]
    # the engine's message, each option named by its label as on the form ("Scoring", not 'scoring')
    assert option_words("oklahoma-gin", str(expected.message)) in html.unescape(knob)
    assert not Game.objects.exists()


def test_the_rescore_form_gives_the_engines_refusal_next_to_the_hollywood_option(client, table):
    game = new_game(
        table,
        kind="oklahoma-gin",
        profile="party",
        players=["Ann", "Ben", "Cleo"],
        options={"target": 60},
    )
    url = f"/history/{game.pk}/rescore/?profile=standard&o_hollywood=true&o_max_players=3"
    text = page(client, url)
    field = text[text.index('id="id_o_hollywood"') :]
    field = field[: field.index("</p>")]
    rules = profiles.resolve("oklahoma-gin", "standard", {"hollywood": True, "max_players": 3})
    (expected,) = [e for e in gin.setup_errors(rules, ["Ann", "Ben", "Cleo"]) if e.field == "rules.options.hollywood"]
    assert str(expected.message) in html.unescape(field)
    # With htmx only the comparison is sent, and the message next to the option comes out of band.
    fragment = client.get(url, headers={"HX-Request": "true"}).content.decode()
    oob = fragment[fragment.index('id="refused-o_hollywood"') :]
    assert 'hx-swap-oob="true"' in oob[:200] and str(expected.message) in html.unescape(oob[: oob.index("</span>")])


def test_a_deal_stored_without_its_columns_shows_the_columns_as_they_are_now(client, table):
    """A standing stored before Hollywood kept columns (an older engine's): the page says which
    columns the hand went in, and shows the columns as they are now, saying so."""
    game = hollywood_game(table, deals=RECORD["deals"][:2])
    deal = game.deals.get(number=1)
    legacy = {k: v for k, v in deal.standing.items() if k != "columns"}
    type(deal).objects.filter(pk=deal.pk).update(standing=legacy)
    part = section(page(client, f"/games/{game.pk}/deals/{deal.pk}/"))
    assert "went in column 1" in plain(part) and "The columns now:" in plain(part)
    now = engine.game_result(game)
    assert_columns(part, [dict(c.totals) for c in now.columns], [None] * 3, [None] * 3)
