"""One-tap fixes (``RecordError.fixes``): where a meld or a player's melded cards can be read in ways
that score differently, the engine offers each way shown as its wild cards named (``2C=7H``). Every
fix, applied to the cards as typed, gives a verdict the engine accepts, at the points it offered."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.oklahoma import check_meld, check_melded
from scorekeeper.rules.profiles import resolve

BOOK = resolve("oklahoma", "book")


def applied(tokens: list[str], names: tuple[str, ...]) -> list[str]:
    """Each name takes the place of the first unnamed card of its kind, as the page does."""
    tokens = list(tokens)
    for name in names:
        card = name.split("=")[0]
        i = next(i for i, t in enumerate(tokens) if t == card)
        tokens[i] = name
    return tokens


def mended(check, tokens, again):
    """Every fix of every error of ``check``, applied and checked ``again``: accepted at its points."""
    fixes = [fix for e in check.errors for fix in e.fixes]
    for fix in fixes:
        after = again(applied(tokens, fix.names))
        assert after.ok, (tokens, fix, [str(e.message) for e in after.errors])
        assert after.points == fix.points, (tokens, fix, after.points)
    return fixes


def test_a_two_beside_a_sequence_is_named_in_a_tap():
    check = check_melded(["8H", "9H", "2C", "6S", "6H", "6D"], BOOK)
    fixes = mended(check, ["8H", "9H", "2C", "6S", "6H", "6D"], lambda t: check_melded(t, BOOK))
    assert [(f.names, f.points) for f in fixes] == [(("2C=7H",), 40), (("2C=10H",), 45)]


def test_a_set_or_a_sequence_is_named_in_a_tap():
    tokens = ["7H", "2C", "2D"]
    fixes = mended(check_meld(tokens, BOOK), tokens, lambda t: check_meld(t, BOOK))
    assert [f.points for f in fixes] == [15, 20, 25]
    assert fixes[0].names == ("2C=7H", "2D=7H")  # the set: a card of its rank, in its natural card's suit


def test_a_meld_that_scores_one_way_offers_nothing():
    for text in ("7H 7S 2C", "5H 6H JK", "8H 9H 2C=7H 6S 6H 6D"):
        assert not [f for e in check_melded(text.split(), BOOK).errors for f in e.fixes]


CARDS = ["AH", "3H", "4H", "7H", "8H", "9H", "10H", "QH", "KH", "7S", "6S", "6H", "6D", "KS", "QS"]
WILDS = ["2C", "2D", "2H", "2S", "JK"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(CARDS), min_size=1, max_size=7),
    st.lists(st.sampled_from(WILDS), min_size=1, max_size=2),
    st.randoms(use_true_random=False),
)
def test_every_fix_is_accepted_at_its_points(naturals, wilds, rng):
    tokens = naturals + wilds
    rng.shuffle(tokens)
    mended(check_meld(tokens, BOOK), tokens, lambda t: check_meld(t, BOOK))
    mended(check_melded(tokens, BOOK), tokens, lambda t: check_melded(t, BOOK))
