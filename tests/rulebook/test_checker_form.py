"""The checker's question read from the request (GET for a shareable link, POST for a long one)."""

import pytest

from scorekeeper.rulebook.forms import CheckerForm
from scorekeeper.rules import checker


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
