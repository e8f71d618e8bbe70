"""The rules pages are generated from the engine's profile data: every knob, value and source."""

import pytest

from scorekeeper.rules import profiles


@pytest.mark.parametrize("game, profile", [(g, p) for g in profiles.GAMES for p in profiles.PROFILES[g]])
def test_every_knob_of_every_profile_is_shown_with_its_value_and_source(client, game, profile):
    r = client.get(f"/rules/{game}/{profile}/")
    assert r.status_code == 200
    html = r.content.decode()
    for knob in profiles.knobs(game):
        setting = knob.settings[profile]
        assert f'id="knob-{knob.name}"' in html
        assert knob.label.replace("'", "&#x27;") in html
        assert setting.source in html
        if setting.note:
            assert setting.note.replace("'", "&#x27;").replace('"', "&quot;") in html


def test_disagreement_shows_each_profile_and_the_one_taken(client):
    html = client.get("/rules/oklahoma/laws/").content.decode()
    start = html.index('id="knob-k8_in_hand"')
    block = html[start : html.index("</li>", html.index("</details>", start))]
    assert "The rule sets disagree" in block
    assert "Laws of Oklahoma" in block and "Book rules" in block
    assert "−10" in block or "-10" in block
    assert "-20" in block
    assert "S1 law 12" in block and "S0" in block
    assert "Laws of Oklahoma takes <strong>-10</strong> from S1 law 12" in block


def test_rulings_are_marked_as_rulings(client):
    html = client.get("/rules/oklahoma-gin/casino/").content.decode()
    start = html.index('id="knob-spade_multiplier"')
    block = html[start : html.index("</li>", start)]
    assert "ruling" in block and "S3 is silent on spades" in block
    assert "Rulings in this rule set" in html


def test_agreeing_knob_has_no_dispute_box(client):
    html = client.get("/rules/oklahoma/book/").content.decode()
    start = html.index('id="knob-out_bonus"')
    block = html[start : html.index("</li>", start)]
    assert "disagree" not in block


def test_index_lists_every_profile(client):
    html = client.get("/rules/").content.decode()
    for g in profiles.GAMES:
        for p in profiles.PROFILES[g].values():
            assert f"/rules/{g}/{p.name}/" in html


@pytest.mark.parametrize("url", ["/rules/chess/laws/", "/rules/oklahoma/standard/", "/rules/oklahoma-gin/x%00/"])
def test_unknown_game_or_profile_is_404(client, url):
    assert client.get(url).status_code == 404


def test_no_inline_script_or_style(client):
    html = client.get("/rules/oklahoma-gin/standard/").content.decode()
    assert "style=" not in html and "onclick" not in html


def test_oklahoma_card_values_come_from_the_engine(client):
    laws = client.get("/rules/oklahoma/laws/").content.decode()
    book = client.get("/rules/oklahoma/book/").content.decode()
    assert 'id="card-values"' in laws
    assert "K Q J 10 9 8 left in hand cost 10" in laws and "K Q J 10 9 8 left in hand cost 20" in book
    assert "Q♠ melded scores 50" in laws and "Joker left in hand costs 200" in book
    assert "scores as a low card, 5" in laws  # a ruling, marked as such
    assert 'id="card-values"' not in client.get("/rules/oklahoma-gin/standard/").content.decode()
