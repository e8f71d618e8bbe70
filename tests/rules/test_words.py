"""The engine's words (messages.py): plurals and articles (no "1 points", no "as a A")."""

import pytest

from scorekeeper.rules.messages import a_rank, either, nmsg, ranks


@pytest.mark.parametrize("n, text", [(0, "0 points"), (1, "1 point"), (2, "2 points")])
def test_plural(n, text):
    assert str(nmsg("{n} point", "{n} points", n)) == text


@pytest.mark.parametrize(
    "rank, one, many",
    [(1, "an ace", "aces"), (8, "an 8", "8s"), (11, "a jack", "jacks"), (13, "a king", "kings"), (7, "a 7", "7s")],
)
def test_ranks_with_their_article(rank, one, many):
    assert str(a_rank(rank)) == one and str(ranks(rank)) == many


def test_either():
    assert str(either([])) == "" and str(either(["a"])) == "a" and str(either(["a", "b"])) == "a or b"
    assert str(either(["a", "b", "c"])) == "a, b or c"
    assert str(either(["a", "b", "c"], "and")) == "a, b and c"
