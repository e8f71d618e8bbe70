"""The checker's question read from the request (GET for a shareable link, POST for a long one)."""

import pytest

from scorekeeper.rulebook.forms import CheckerForm
from scorekeeper.rules import checker, profiles


@pytest.mark.parametrize(
    "params, expected",
    [
        ({}, ("knock", "oklahoma-gin", "standard")),
        ({"kind": "meld"}, ("meld", "oklahoma", "laws")),
        ({"kind": "meld", "profile": "book"}, ("meld", "oklahoma", "book")),
        ({"kind": "meld", "profile": "standard"}, ("meld", "oklahoma", "laws")),
        ({"kind": "deal", "profile": "book"}, ("deal", "oklahoma", "book")),
        ({"game": "oklahoma"}, ("meld", "oklahoma", "laws")),
        ({"kind": "nonsense", "game": "chess", "profile": "nope"}, ("knock", "oklahoma-gin", "standard")),
    ],
)
def test_parameters_become_a_question(params, expected):
    q = CheckerForm(params).question()
    assert (q.kind, q.game, q.profile) == expected


def test_odd_parameters_are_said():
    form = CheckerForm({"kind": "nonsense", "game": "chess", "profile": "nope"})
    assert form.problems == ["unknown question 'nonsense'", "unknown game 'chess'", "unknown rule set 'nope'"]


def test_parameters_are_cut_to_length():
    q = CheckerForm({"cards": "A" * 5000, "deal": "{" * 30000}).question()
    assert len(q.cards) == checker.MAX_TEXT and len(q.deal) == checker.MAX_DEAL


def test_asked_only_when_something_was_entered():
    assert not CheckerForm({"kind": "meld"}).asked()
    assert CheckerForm({"kind": "meld", "cards": "QS QH QD"}).asked()


def test_house_options_are_read_as_the_rule_book_reads_them():
    q = CheckerForm({"kind": "meld", "profile": "laws", "joker": "false", "spade_multiplier": "3"}).question()
    assert q.options == {"joker": False}  # a knob of the other game is not this question's
    assert isinstance(q.rules, profiles.OklahomaRules) and q.rules.joker is False
    assert q.rules.cite("joker").basis == "option"
    form = CheckerForm({"kind": "meld", "joker": "perhaps"})
    assert form.question().options == {} and form.problems == [
        "Play with the Joker: Select a valid choice. perhaps is not one of the available choices."
    ]


def test_a_meld_is_checked_under_the_questions_options():
    with_joker = checker.answer(checker.Question(kind="meld", game="oklahoma", profile="laws", cards="JK QS KS"))
    assert with_joker.ok is True
    without = checker.Question(kind="meld", game="oklahoma", profile="laws", cards="JK QS KS", options={"joker": False})
    v = checker.answer(without)
    assert v.ok is False and any("without the Joker" in str(e["message"]) for e in v.errors), v.errors


def test_the_other_questions_of_the_game_keep_the_rules_chosen(client):
    """WEB SIDE: from the meld question at a table without the Joker, the hand question keeps its rules;
    the Gin questions start on their own game's rules. Without a choice, the tabs are plain."""
    page = client.get("/check/?kind=meld&profile=laws&joker=false").content.decode()
    assert 'href="/check/?kind=hand&amp;profile=laws&amp;joker=false"' in page
    assert 'href="/check/?kind=deal&amp;profile=laws&amp;joker=false"' in page
    assert 'href="/check/?kind=knock"' in page
    blank = client.get("/check/").content.decode()
    assert 'href="/check/?kind=meld"' in blank and 'href="/check/?kind=layoff"' in blank
