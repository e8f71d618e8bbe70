"""Check a ruling: verdicts with rule and source, shareable GET links, htmx fragments, no 500s.

The engine's ``checker.answer`` on a ``checker.Question`` built as the web form builds it (``question``
below), and the page at /check/ ("WEB SIDE"). The reading of the request is in test_checker_form.py.
"""

import dataclasses
import json
from urllib.parse import urlencode

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import checker, profiles


def get(client, **params):
    """WEB SIDE: the checker page for these GET parameters."""
    return client.get("/check/?" + urlencode(params))


def question(kind, profile=None, **fields):
    """A question as the web form builds it: the game from the kind, or from the profile for a deal."""
    game = checker.KIND_GAME[kind] or next(g for g in profiles.GAMES if profile in profiles.PROFILES[g])
    return checker.Question(kind=kind, game=game, profile=profile or checker.DEFAULT_PROFILE[game], **fields)


def verdict(client, kind="knock", profile=None, **fields):
    return checker.answer(question(kind, profile, **fields))


def test_blank_page(client):
    """WEB SIDE."""
    r = client.get("/check/")
    assert r.status_code == 200
    assert b'method="get"' in r.content and b'hx-get="/check/"' in r.content
    assert b"input changed delay:300ms" in r.content


def test_can_knock(client):
    v = verdict(client, kind="knock", upcard="7S", cards="3C 4C 5C 9D 9H 9S JH QH KH 2S")
    assert v.ok is True and "least deadwood 2, limit 7" in v.headline
    assert any(c["source"] == "S2, Gameplay 1" for c in v.cites)  # the knock limit, cited as the engine cites it
    assert any("Spade upcard" in c["rule"] and c["value"] == "×2" for c in v.cites)  # standard: ×2 (S2)
    assert v.deadwood == ["2♠"]


def test_cannot_knock_over_the_limit(client):
    v = verdict(client, kind="knock", upcard="3H", cards="3C 4C 5C 9D 9H 9S JH QH KH 5S")
    assert v.ok is False and "over the limit of 3" in v.headline


def test_ace_upcard_means_gin_only(client):
    v = verdict(client, kind="knock", upcard="AD", cards="3C 4C 5C 9D 9H 9S JH QH KH AS")
    assert v.ok is False and "gin only" in v.headline
    assert any(c["source"] == "S4, BO" for c in v.cites)


def test_gin_with_eleven_cards_finds_the_discard(client):
    v = verdict(client, kind="knock", upcard="5D", cards="3C 4C 5C 9D 9H 9S JH QH KH 10H KS")
    assert v.ok is True and v.headline.startswith("Gin") and v.discard == "K♠"


def test_big_gin_is_gin_unless_played(client):
    v = verdict(client, kind="knock", upcard="5D", cards="3C 4C 5C 9D 9H 9S JH QH KH 10H 9H".replace("9H", "9C", 1))
    assert v.ok is True and "big gin is not played" in v.headline


def test_spade_upcard_casino_is_a_ruling(client):
    v = verdict(client, kind="knock", profile="casino", upcard="7S", cards="3C 4C 5C 9D 9H 9S JH QH KH 2S")
    cite = next(c for c in v.cites if "Spade" in c["rule"])
    assert cite["basis"] == "ruling" and cite["value"] == "×1"


@pytest.mark.parametrize(
    "params, fragment",
    [
        ({"upcard": "7S", "cards": "3C 4C 5X"}, "the suit must be S, H, D or C"),
        ({"upcard": "7S", "cards": "3C 3C 4C 5C 6C 7C 8C 9C 10C JC"}, "entered twice"),
        ({"upcard": "7S", "cards": "3C 4C"}, "not 2"),
        ({"upcard": "", "cards": "3C 4C 5C"}, "enter the first upcard"),
        ({"upcard": "JK", "cards": "3C 4C 5C"}, "no Joker"),
    ],
)
def test_bad_knock_input_says_what_is_wrong(client, params, fragment):
    v = verdict(client, kind="knock", **params)
    assert v.ok is False and any(fragment in e["message"] for e in v.errors), v.errors
    assert get(client, kind="knock", **params).status_code == 200


def test_layoffs_onto_runs_and_sets(client):
    v = verdict(client, kind="layoff", spread="3C 4C 5C / 9D 9H 9S", cards="6C 7C 9C 2H 3H 4H KD AC 5H 10S")
    assert v.layoffs == ["6♣", "7♣", "9♣"] and v.melds == [["2♥", "3♥", "4♥", "5♥"]]
    assert "deadwood left: 21" in v.headline
    assert any(c["source"] == "S2, Gameplay 5" for c in v.cites)


def test_party_layoffs_only_onto_original_melds(client):
    v = verdict(client, kind="layoff", profile="party", spread="3C 4C 5C", cards="6C 7C 8D 9D KH QH 2S")
    assert v.layoffs == ["6♣"]  # 7♣ would extend a layoff: not in 'original'
    assert any(c["source"] == "S4" for c in v.cites)


def test_layoff_rejects_a_bad_knocker_meld(client):
    v = verdict(client, kind="layoff", spread="3C 4C 6C", cards="6H 7C 9C 2H 3H 4H KD AC 5H 10S")
    assert v.ok is False and "neither a set" in v.errors[0]["message"]


def test_oklahoma_meld(client):
    v = verdict(client, kind="meld", profile="book", cards="QS QH 2C=QD")
    assert v.ok is True and "+70" in v.headline
    assert any("S0" in line["source"] for line in v.lines)


@pytest.mark.parametrize(
    "cards, card, times",
    [("QS QS QS", "Q♠", 3), ("7D 7D 7D 7D", "7♦", 4), ("QS 2S=QS QS QS", "Q♠", 3), ("JK JK QS", "JK", 2)],
)
def test_a_meld_the_pack_cannot_hold_is_refused(client, cards, card, times):
    """The 105-card pack has two of each natural card, eight 2s and one Joker: the checker applies the
    deal form's limits (``oklahoma.score_hand``), naming the card and the pack rule."""
    v = verdict(client, kind="meld", cards=cards)
    assert v.ok is False and not v.lines and not v.melds
    (error,) = v.errors
    assert error["cards"] == [card] and error["rule"] == "the pack" and error["source"] == "S0; S1 law 1"
    assert f"{card} is entered {times} times: the pack has" in error["message"]


def test_a_meld_within_the_pack_is_still_legal(client):
    v = verdict(client, kind="meld", cards="QS QS 2S")
    assert v.ok is True and not v.errors and "+110" in v.headline
    eight_twos = verdict(client, kind="meld", cards="2S 2S=3S 4S")
    assert eight_twos.ok is True, eight_twos.errors


def test_oklahoma_meld_round_the_corner_is_illegal(client):
    # RULING CHANGED: Q♥ K♥ A♥ 2♥ is now J-Q-K-A with the 2♥ as J♥, its one legal reading.
    v2 = verdict(client, kind="meld", cards="QH KH AH 2H 3H")
    assert v2.ok is False and any("round the corner" in e["message"] for e in v2.errors)
    v3 = verdict(client, kind="meld", cards="QH KH AH 2H")
    assert v3.ok is True and v3.melds == [["2♥=J♥", "Q♥", "K♥", "A♥"]]
    assert any("the only card it can be" in d for d in v3.details)


def test_oklahoma_meld_readings_that_score_the_same_are_explained(client):
    v = verdict(client, kind="meld", cards="JK QS KS")
    assert v.ok is True and any("with JK as A♠ it scores the same" in d for d in v.details)
    must = verdict(client, kind="meld", cards="AH 2H JK")
    assert must.ok is False and "name the wild cards" in must.errors[0]["message"]


def test_whole_gin_deal_is_scored_by_the_engine(client):
    deal = json.loads(checker.example_deal("oklahoma-gin"))
    r = get(client, kind="deal", profile="standard", deal=json.dumps(deal))
    assert r.status_code == 200
    v = verdict(client, kind="deal", profile="standard", deal=json.dumps(deal))
    assert not v.errors, v.errors
    assert v.deals and v.deals[0]["outcome"] in ("knock", "undercut", "gin")
    assert all(line["source"] for p in v.deals[0]["players"].values() for line in p["lines"])


def test_whole_oklahoma_deal(client):
    deal = checker.example_deal("oklahoma")
    v = verdict(client, kind="deal", profile="book", deal=deal)
    assert not v.errors, v.errors
    assert v.deals[0]["outcome"] == "out"


@pytest.mark.parametrize(
    "deal, fragment",
    [
        ("{", "not valid JSON"),
        ("[" * 15000, "nested too deeply"),
        ("[1, 2]", "a deal is a JSON object"),
        ('{"hands": 3}', "'hands'"),
    ],
)
def test_bad_deal_text(client, deal, fragment):
    v = verdict(client, kind="deal", profile="laws", deal=deal)
    assert v.ok is False and any(fragment in e["message"] for e in v.errors)
    assert get(client, kind="deal", profile="laws", deal=deal).status_code == 200


def test_verdict_is_a_shareable_link_and_htmx_gets_the_fragment(client):
    """WEB SIDE."""
    params = {"kind": "knock", "profile": "standard", "upcard": "7S", "cards": "3C 4C 5C 9D 9H 9S JH QH KH 2S"}
    full = get(client, **params).content.decode()
    assert "<html" in full and 'id="share-link"' in full and "Yes, you may knock" in full
    part = client.get("/check/?" + urlencode(params), headers={"HX-Request": "true"}).content.decode()
    assert "<html" not in part and part.strip().startswith('<div id="verdict"')
    assert "Yes, you may knock" in part
    assert 'href="http://testserver/check/?kind=knock&amp;profile=standard' in part
    assert 'id="share-url" class="share-url" readonly value="http://testserver/check/?kind=knock' in part


@pytest.mark.parametrize(
    "params",
    [
        {"kind": "nonsense", "cards": "x"},
        {"game": "chess", "cards": "x"},
        {"profile": "nope", "cards": "AS"},
        {"kind": "meld", "profile": "standard", "cards": "AS AH AD"},
        {"cards": "A" * 5000},
        {"kind": "deal", "deal": '{"hands": {"A": 1, "B": []}, "upcard": 5}'},
        {"kind": "deal", "deal": json.dumps({"format": "oklahoma-scorekeeper/1", "game": "x"})},
    ],
)
def test_tampered_parameters_never_500(client, params):
    """WEB SIDE."""
    assert get(client, **params).status_code == 200


def test_oklahoma_hand_scores_card_by_card(client):
    v = verdict(client, kind="hand", profile="laws", spread="QS QH 2C=QD", cards="KS JK 2D 7C")
    assert not v.errors, v.errors
    assert "−165" in v.headline
    labels = {line["label"]: line for line in v.lines}
    assert labels["K♠ in hand"]["points"] == -10 and labels["K♠ in hand"]["source"] == "S1 law 12"
    assert labels["JK in hand"]["points"] == -200
    book = verdict(client, kind="hand", profile="book", spread="QS QH 2C=QD", cards="KS JK 2D 7C")
    assert "−175" in book.headline  # K–8 in hand −20 in the book
    html = get(client, kind="hand", profile="book", spread="QS QH 2C=QD", cards="KS").content.decode()
    assert "K♠ in hand" in html and "S0" in html


def test_oklahoma_hand_with_a_bad_meld(client):
    v = verdict(client, kind="hand", profile="laws", spread="QH KH AH 2H 3H", cards="")
    assert v.ok is False and v.errors


def test_oklahoma_hand_of_melds_only_or_held_only(client):
    melded = verdict(client, kind="hand", profile="book", spread="QS QH QD", cards="")
    assert not melded.errors and "+70" in melded.headline
    held = verdict(client, kind="hand", profile="book", spread="", cards="QS QS")
    assert not held.errors and "−200" in held.headline
    three = verdict(client, kind="hand", profile="book", spread="QS QH QD", cards="QS QS")
    assert three.ok is False and "Q♠ is entered 3 times: the pack has two of each card" in three.errors[0]["message"]


def test_whole_gin_hand_from_three_fields(client):
    v = verdict(
        client,
        kind="gin",
        profile="standard",
        upcard="7S",
        cards="3C 4C 5C 9D 9H 9S JH QH KH 2S",
        other="2H 3H 4H 6D 6C 8S 10S KD AC 5H",
    )
    assert not v.errors, v.errors
    d = v.deals[0]
    assert d["outcome"] == "knock" and d["multiplier"] == 2
    assert d["players"]["Knocker"]["points"] == 66 and "knocker scores 66" in v.headline
    casino = verdict(
        client,
        kind="gin",
        profile="casino",
        upcard="7S",
        cards="3C 4C 5C 9D 9H 9S JH QH KH 2S",
        other="2H 3H 4H 6D 6C 8S 10S KD AC 5H",
    )
    assert casino.deals[0]["players"]["Knocker"]["points"] == 33  # no spade doubling in S3 (ruling)
    bad = verdict(
        client, kind="gin", upcard="7S", cards="3C 4C 5C 9D 9H 9S JH QH KH 2S", other="2H 3H 4H 6D 6C 8S 10S KD AC 3C"
    )
    assert bad.ok is False and bad.errors
    assert get(client, kind="gin", upcard="7S", cards="3C").status_code == 200


# --- the Question and answer() ------------------------------------------------------------------


def test_question_is_a_plain_frozen_value():
    q = checker.Question(kind="meld", game="oklahoma", profile="book", cards="QS QH QD")
    assert [f.name for f in dataclasses.fields(q)] == [
        "kind",
        "game",
        "profile",
        "cards",
        "upcard",
        "spread",
        "other",
        "deal",
        "options",
    ]
    with pytest.raises(dataclasses.FrozenInstanceError):
        q.cards = "x"  # type: ignore[misc]
    assert q.asked and not dataclasses.replace(q, cards="  ").asked
    assert q.rules == profiles.resolve("oklahoma", "book")


@pytest.mark.parametrize(
    "q, fragment",
    [
        (checker.Question(kind="nonsense", game="oklahoma", profile="laws", cards="x"), "unknown question"),
        (checker.Question(kind="meld", game="oklahoma-gin", profile="standard", cards="AS"), "about Oklahoma"),
        (checker.Question(kind="knock", game="oklahoma-gin", profile="laws", cards="AS"), "unknown profile"),
        (checker.Question(kind="deal", game="chess", profile="laws", deal="{}"), "unknown game"),
    ],
)
def test_a_question_that_does_not_fit_its_rules_is_answered_with_the_reason(q, fragment):
    v = checker.answer(q)
    assert v.ok is False and any(fragment in e["message"] for e in v.errors), v.errors


TEXT = st.text(alphabet='AKQJT1234567890SHDC♠♥♦♣=/| ,xjk{}[]":', max_size=40)


@settings(max_examples=300, deadline=None)
@given(
    kind=st.sampled_from([k for k, _, _ in checker.KINDS]),
    profile=st.sampled_from(["laws", "book", "standard", "classic", "casino", "party"]),
    cards=TEXT,
    upcard=TEXT,
    spread=TEXT,
    other=TEXT,
    deal=TEXT,
)
def test_answer_never_raises_on_what_was_typed(kind, profile, cards, upcard, spread, other, deal):
    game = checker.KIND_GAME[kind] or next(g for g in profiles.GAMES if profile in profiles.PROFILES[g])
    if profile not in profiles.PROFILES[game]:
        profile = checker.DEFAULT_PROFILE[game]
    q = checker.Question(kind, game, profile, cards, upcard, spread, other, deal)
    v = checker.answer(q)
    assert v.ok is not False or v.errors
    for e in v.errors:
        assert e["message"]
