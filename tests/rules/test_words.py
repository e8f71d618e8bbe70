"""The engine's words: plurals and articles (no "1 points", no "as a A")."""

import pytest

from scorekeeper.rules.words import a_rank, either, plural, ranks


@pytest.mark.parametrize("n, text", [(0, "0 points"), (1, "1 point"), (2, "2 points")])
def test_plural(n, text):
    assert plural(n, "point") == text


@pytest.mark.parametrize(
    "rank, one, many",
    [(1, "an ace", "aces"), (8, "an 8", "8s"), (11, "a jack", "jacks"), (13, "a king", "kings"), (7, "a 7", "7s")],
)
def test_ranks_with_their_article(rank, one, many):
    assert a_rank(rank) == one and ranks(rank) == many


def test_either():
    assert either([]) == "" and either(["a"]) == "a" and either(["a", "b"]) == "a or b"
    assert either(["a", "b", "c"]) == "a, b or c"
