"""The rule book pages: one page per game and profile (and a game's own, with its house options),
written from the engine's rule book (``rules.rulebook``): every knob, value and source, the
disputes and rulings, worked examples whose numbers are the engine's."""

from __future__ import annotations

import html
import json
import re

import pytest

from scorekeeper.rules import oklahoma, profiles, record, rulebook
from scorekeeper.rules.cards import split_cards
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.table.text import signed_text
from tests.app_data import OK_BIG, ok_record_deal
from tests.conftest import NAMES, as_phone, new_game

EVERY_PROFILE = [(g, p) for g in profiles.GAMES for p in profiles.PROFILES[g]]


def page(client, url: str, status: int = 200) -> str:
    r = client.get(url)
    assert r.status_code == status, r.content.decode()[:2000]
    return r.content.decode()


def block(text: str, start_marker: str, end: str) -> str:
    start = text.index(start_marker)
    return text[start : text.index(end, start)]


def found(pattern: str | re.Pattern[str], text: str) -> re.Match[str]:
    match = pattern.search(text) if isinstance(pattern, re.Pattern) else re.search(pattern, text, re.S)
    assert match is not None, pattern
    return match


def plain(fragment: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", fragment))).strip()


@pytest.mark.parametrize("game, profile", EVERY_PROFILE)
def test_every_knob_of_every_profile_is_shown_with_its_value_and_source(client, game, profile):
    text = page(client, f"/rules/{game}/{profile}/book/")
    for knob in profiles.knobs(game):
        setting = knob.settings[profile]
        item = block(text, f'id="knob-{knob.name}"', "</li>")
        assert knob.label.replace("'", "&#x27;") in item
        assert rulebook.show_value(setting.value) in item
        assert (setting.source if setting.basis != "ruling" else "ruling") in item
        if setting.note:
            assert setting.note.replace("'", "&#x27;").replace('"', "&quot;") in item


@pytest.mark.parametrize("game, profile", EVERY_PROFILE)
def test_every_section_and_paragraph_of_the_engines_book_is_on_the_page(client, game, profile):
    text = page(client, f"/rules/{game}/{profile}/book/")
    book = rulebook.book(game, profile)
    for anchor in book.anchors:
        assert f'id="{anchor}"' in text
    shown = plain(text)
    for section in book.sections:
        for p in section.paragraphs:
            for part in p.parts:
                assert plain(part.text) in shown
                if part.cite:
                    assert f"{plain(part.text)} ({part.cite.label})" in shown


def test_the_old_address_of_a_profiles_rules_is_its_book(client):
    r = client.get("/rules/oklahoma-gin/classic/?target=250")
    assert r.status_code == 302 and r["Location"] == "/rules/oklahoma-gin/classic/book/?target=250"


def test_disagreement_shows_each_profile_and_the_one_taken(client):
    text = page(client, "/rules/oklahoma/laws/book/")
    item = block(text, 'id="dispute-k8-in-hand"', "</div>")
    assert "Laws of Oklahoma" in item and "Book rules" in item
    assert "−10" in item and "−20" in item and "S1 law 12" in item and "S0" in item
    assert plain(item).endswith("Taken here: −10 (S1 law 12) .") or "Taken here: <strong>−10</strong>" in item
    assert 'class="current"' in block(item, "Laws of Oklahoma", "</li>") or "these rules" in item


def test_rulings_are_marked_as_rulings(client):
    text = page(client, "/rules/oklahoma-gin/casino/book/")
    item = block(text, 'id="knob-spade_multiplier"', "</li>")
    assert "ruling" in item and "S3 is silent on spades" in item
    rulings = block(text, 'id="rulings"', "</ul>")
    assert "S3 is silent on spades" in rulings and 'href="#knob-spade_multiplier"' in rulings


def test_index_lists_every_book(client):
    text = page(client, "/rules/")
    for g in profiles.GAMES:
        for p in profiles.PROFILES[g].values():
            assert f"/rules/{g}/{p.name}/book/" in text


@pytest.mark.parametrize(
    "url",
    ["/rules/chess/laws/book/", "/rules/oklahoma/standard/book/", "/rules/oklahoma-gin/x%00/book/", "/rules/chess/x/"],
)
def test_unknown_game_or_profile_is_404(client, url):
    assert client.get(url).status_code == 404


def test_no_inline_script_or_style(client):
    text = page(client, "/rules/oklahoma-gin/standard/book/?hollywood=true")
    assert "style=" not in text and "onclick" not in text and "<script>" not in text


def test_oklahoma_card_values_come_from_the_engine(client):
    laws = page(client, "/rules/oklahoma/laws/book/")
    book = page(client, "/rules/oklahoma/book/book/")
    assert "each costs <strong" in laws
    high_laws = plain(block(laws, 'id="value-high"', "</p>"))
    high_book = plain(block(book, 'id="value-high"', "</p>"))
    assert "each costs 10 (S1 law 12)" in high_laws and "each costs 20 (S0)" in high_book
    assert "it costs 200 (S0)" in plain(block(book, 'id="value-joker"', "</p>"))
    assert "+50" in plain(block(laws, 'id="value-queen"', "</p>"))
    assert "+5 (ruling)" in plain(block(laws, 'id="two-as-two"', "</p>"))
    assert 'id="value-joker"' not in page(client, "/rules/oklahoma-gin/standard/book/")


# ----------------------------------------------------------------------------- house options


def test_a_house_option_changes_the_page(client):
    plain_book = page(client, "/rules/oklahoma-gin/standard/book/")
    house = page(client, "/rules/oklahoma-gin/standard/book/?target=150")
    target = block(plain_book, 'id="target"', "</p>")
    assert 'data-knob="target">200</strong> <span class="src source">(S2, Scoring 5)' in target
    target = block(house, 'id="target"', "</p>")
    assert 'data-knob="target">150</strong> <span class="src option">(house option)' in target
    assert "House options at this table" in house and "the rules say 200" in house
    # The example of the end of a game is played to 150 by the engine.
    end = block(house, 'id="ex-end"', "</figure>")
    assert '"target": 150' in html.unescape(end)


def test_a_value_the_engine_refuses_is_said_next_to_its_option(client):
    text = page(client, "/rules/oklahoma-gin/standard/book/?target=5&shutout=true")
    field = block(text, 'id="id_target"', "</p>")
    assert 'class="err"' in field and "10" in plain(field)
    # The options the engine takes still apply; the refused one is left as the profile says.
    assert 'data-knob="target">200</strong>' in text and 'data-knob="shutout"' in text


def test_hollywood_with_penalty_points_gives_the_engines_message_next_to_the_option(client):
    text = page(client, "/rules/oklahoma-gin/party/book/?hollywood=true")
    field = block(text, 'id="id_hollywood"', "</p>")
    expected = str(rulebook.refused(profiles.resolve("oklahoma-gin", "party", {"hollywood": True}))[0].message)
    assert html.escape(expected, quote=True).replace("&#x27;", "&#x27;") in field or expected in html.unescape(field)
    # The page shows the party rules without Hollywood.
    assert "Not played at this table" in plain(block(text, 'id="columns"', "</p>"))


def test_a_games_own_rule_book_has_its_house_options_and_needs_the_table(client, table, stranger):
    game = new_game(table, kind="oklahoma-gin", profile="standard", players=["Ann", "Ben"], options={"target": 150})
    text = page(client, f"/games/{game.pk}/rules/")
    assert f"The rules game #{game.pk} plays" in text
    assert 'data-knob="target">150</strong>' in text and "House options at this table" in text
    assert stranger.get(f"/games/{game.pk}/rules/").status_code == 404
    assert f'href="/games/{game.pk}/rules/"' in page(client, f"/games/{game.pk}/")


# ----------------------------------------------------------------------------- examples

FIGURE = re.compile(r'<figure class="example"[^>]*data-example="([^"]+)" data-show="(\w+)">(.*?)</figure>', re.S)
MELD = re.compile(
    r'<figure class="example meld-example" id="([^"]+)" data-meld="([^"]+)" data-ok="(\w+)"( data-points="(-?\d+)")?>'
)
PLAYER = re.compile(r'<section class="player-deal" aria-label="([^"]+)">(.*?)</section>', re.S)
LINE = re.compile(r"<tr[^>]*><td>(.*?)</td><td class=\"n\">(.*?)</td>")


def check_examples(text: str, game: str, rules: profiles.Rules) -> int:
    """Every number an example shows is the engine's: its record scored again gives the same."""
    checked = 0
    for example_id, show, body in FIGURE.findall(text):
        rec = json.loads(html.unescape(found(r'<pre class="record">(.*?)</pre>', body).group(1)))
        assert rec["rules"]["profile"] == rules.profile and rec["rules"]["options"] == rules.options()
        try:
            result = record.score_record(rec)
        except RecordInvalid as exc:
            for e in exc.errors:
                assert html.escape(str(e.message)).replace("&#x27;", "'") in body.replace("&#x27;", "'"), example_id
            checked += 1
            continue
        deal = result.deals[-1]
        headline = dict(re.findall(r'data-headline="([^"]+)">([^<]+)<', body))
        if show == "deal":
            assert headline == {n: signed_text(pd.points) for n, pd in deal.players.items()}, example_id
        elif show == "final":
            assert headline == {n: str(v) for n, v in (result.final or {}).items()}, example_id
        if show == "deal":
            shown = PLAYER.findall(body)
            assert [name for name, _ in shown] == list(deal.players)
            for name, part in shown:
                pd = deal.players[name]
                assert f'<span class="value">{signed_text(pd.points)}</span>' in part
                lines = [(html.unescape(a), html.unescape(b)) for a, b in LINE.findall(part)]
                want = [(str(x.label), signed_text(x.points)) for x in pd.lines] + [
                    (str(x.label), signed_text(x.points))
                    for x in pd.side_lines  # it says it is the side column
                ]
                assert lines == want, example_id
        elif show == "final":
            assert result.final is not None
            for name, final in result.final.items():
                row = block(body, f'<th scope="row">{name}</th><td class="n">', "</tr>")
                assert f"<strong>{final}</strong>" in row, example_id
        if show == "columns" or (show == "final" and result.columns):
            for column in result.columns:
                for name, total in column.totals.items():
                    assert f'data-column="{column.number}" data-player="{name}" data-total="{total}"' in body
        checked += 1
    for _, entered, ok, _, points in MELD.findall(text):
        if game == profiles.OKLAHOMA:
            assert isinstance(rules, profiles.OklahomaRules)
            check = oklahoma.check_meld(split_cards(html.unescape(entered)), rules)
            assert (ok == "true", int(points) if points else None) == (check.ok, check.points if check.ok else None)
        checked += 1
    return checked


@pytest.mark.parametrize(
    "game, profile, query",
    [
        *[(g, p, "") for g, p in EVERY_PROFILE],
        ("oklahoma", "laws", "?k8_in_hand=-20&joker=false&target=1500"),
        ("oklahoma-gin", "standard", "?hollywood=true&shutout=true&big_gin_bonus=31"),
        ("oklahoma-gin", "classic", "?hollywood=true&target=100"),
        ("oklahoma-gin", "party", "?max_players=3&target=60"),
    ],
)
def test_every_example_on_the_page_is_scored_by_the_engine(client, game, profile, query):
    text = page(client, f"/rules/{game}/{profile}/book/{query}")
    options = dict(re.findall(r"(\w+)=([\w-]+)", query))
    typed = {
        k: (v == "true") if profiles.knob(game, k).type is bool else int(v) if profiles.knob(game, k).type is int else v
        for k, v in options.items()
    }
    rules = profiles.resolve(game, profile, typed)
    book = rulebook.build(rules)
    assert check_examples(text, game, rules) == len(book.examples)


# ----------------------------------------------------------------------------- score lines link to the book

CITE = re.compile(r'<a href="([^"#]+)#([^"]+)" class="cite')


def assert_every_cite_links_to_a_paragraph(client, text: str) -> int:
    targets = CITE.findall(text)
    pages: dict[str, str] = {}
    for url, anchor in targets:
        url = html.unescape(url)
        if url not in pages:
            pages[url] = page(client, url)
        assert f'id="{anchor}"' in pages[url], (url, anchor)
    # No line is left without its link.
    assert 'span class="cite' not in re.sub(r"<p class=\"small muted\">.*?</p>", "", text)
    return len(targets)


def test_every_score_line_of_the_deal_page_review_and_final_tally_links_to_its_paragraph(client, table):
    deals = [ok_record_deal(OK_BIG, NAMES)] * 3
    game = new_game(table, kind="oklahoma", profile="book", players=NAMES, first_dealer=0, deals=deals)
    assert game.state == "finished"
    deal = game.deals.get(number=1)
    assert assert_every_cite_links_to_a_paragraph(client, page(client, f"/games/{game.pk}/deals/{deal.pk}/")) > 5
    assert assert_every_cite_links_to_a_paragraph(client, page(client, f"/history/{game.pk}/")) > 15
    assert assert_every_cite_links_to_a_paragraph(client, page(client, f"/games/{game.pk}/")) >= 3  # the final table


def test_why_did_i_get_minus_200_ends_on_the_joker_paragraph(client, table):
    deal = {
        "out": "Ann",
        "hands": {
            "Ann": {"melds": [["QS", "QH", "QD"], ["7H", "8H", "9H"]], "held": []},
            "Ben": {"melds": [["5S", "6S", "7S"]], "held": ["JK"]},
        },
    }
    game = new_game(table, kind="oklahoma", profile="book", players=["Ann", "Ben"], deals=[deal])
    text = page(client, f"/games/{game.pk}/deals/{game.deals.get().pk}/")
    row = block(text, "JK in hand", "</tr>")
    url, anchor = found(CITE, row).groups()
    assert (url, anchor) == (f"/games/{game.pk}/rules/", "value-joker")
    paragraph = plain(block(page(client, url), f'id="{anchor}"', "</p>"))
    assert "Left in hand it costs 200" in paragraph


def test_every_score_line_of_the_checker_links_to_the_book_of_its_rules(client):
    deal = json.dumps(
        {
            "upcard": "7S",
            "knocker": "Ann",
            "hands": {
                "Ann": {"cards": ["3C", "4C", "5C", "9D", "9H", "9S", "JH", "QH", "KH", "2S"]},
                "Ben": {"cards": ["2H", "3H", "4H", "6D", "6C", "8S", "10S", "KD", "AC", "5H"]},
            },
        }
    )
    text = page(client, "/check/?" + f"kind=deal&profile=classic&deal={deal}")
    assert assert_every_cite_links_to_a_paragraph(client, text) >= 2
    assert "/rules/oklahoma-gin/classic/book/#" in text
    text = page(client, "/check/?kind=meld&profile=book&cards=QS+QH+2C%3DQD")
    assert assert_every_cite_links_to_a_paragraph(client, text) == 3


def test_the_rescore_pages_other_side_links_to_the_other_rules_book(client, table):
    game = new_game(
        table, kind="oklahoma", profile="book", players=NAMES, first_dealer=0, deals=[ok_record_deal(OK_BIG, NAMES)]
    )
    text = page(client, f"/history/{game.pk}/rescore/?profile=laws&o_target=2000")
    assert f'href="/games/{game.pk}/rules/#value-' in text
    assert 'href="/rules/oklahoma/laws/book/?target=2000#value-' in text
    assert_every_cite_links_to_a_paragraph(client, text)


@pytest.mark.parametrize(
    "kind, profile, options, url",
    [
        ("oklahoma", "laws", {"joker": False}, "/check/?kind=meld&amp;profile=laws&amp;joker=false"),
        ("oklahoma", "book", {}, "/check/?kind=meld&amp;profile=book"),
        (
            "oklahoma-gin",
            "classic",
            {"target": 250, "shutout": True},
            "/check/?kind=knock&amp;profile=classic&amp;shutout=true&amp;target=250",
        ),
    ],
)
def test_a_games_book_opens_the_checker_on_its_first_question_under_its_rules(
    client, table, kind, profile, options, url
):
    """The checker opens on the meld question (Gin: the knock question) with the game's profile and house
    options preselected: a meld with the Joker is refused at a table that plays without it."""
    players = NAMES if kind == "oklahoma" else ["Ann", "Ben"]
    game = new_game(table, kind=kind, profile=profile, players=players, options=options)
    text = page(client, f"/games/{game.pk}/rules/")
    assert f'<a class="button" href="{url}">Check a ruling under these rules</a>' in text
    checker_page = page(client, html.unescape(url) + "&cards=JK+QS+KS")
    assert f'<option value="{profile}" selected>' in checker_page
    for name, value in options.items():
        shown = "true" if value is True else "false" if value is False else str(value)
        assert f'<input type="hidden" name="{name}" value="{shown}">' in checker_page
    if options.get("joker") is False:
        assert (
            "played without the Joker" in checker_page
            and "House options: Play with the Joker <strong>no</strong>" in checker_page
        )


def test_a_follower_reads_the_games_rule_book(client, table, follower):
    game = new_game(table, kind="oklahoma", profile="laws", players=NAMES)
    as_phone(client, follower)
    assert "The rules game" in page(client, f"/games/{game.pk}/rules/")


def test_checker_href_opens_the_checker_under_a_games_rules(table):
    """``{% checker_href game %}``: the link a game page (or a meld's score line) gives to the checker."""
    from django.template import Context, Template

    game = new_game(table, kind="oklahoma", profile="laws", players=NAMES, options={"joker": False})
    out = Template(
        "{% load book_links %}{% checker_href game as a %}{{ a }}|{% checker_href game cards=m as b %}{{ b }}"
    )
    text = html.unescape(out.render(Context({"game": game, "m": ["QS", "QH", "2C=QD"]})))
    assert text == (
        "/check/?kind=meld&profile=laws&joker=false|/check/?kind=meld&profile=laws&joker=false&cards=QS+QH+2C%3DQD"
    )
    assert Template("{% load book_links %}{% checker_href None %}").render(Context({})) == ""
