"""Property tests of the Oklahoma meld check: every legal set and sequence, entered in any order and
with wilds standing for any of its cards, is accepted and scored as RULES.md's table says; where an
unnamed wild allows readings that score differently it must be named; and on random melds the
verdict agrees with a brute-force reference written from RULES.md alone."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.caches import clear_caches
from scorekeeper.rules.oklahoma import check_meld
from scorekeeper.rules.profiles import resolve

from . import oklahoma_reference as reference

BOOK = resolve("oklahoma", "book")
NAMES = {1: "A", 11: "J", 12: "Q", 13: "K", **{r: str(r) for r in range(2, 11)}}
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def natural_value(rank, suit):
    """RULES.md §1, melded: Q♠ 50, ace 20, K–8 10, 7–3 5."""
    if rank == 12 and suit == "S":
        return 50
    if rank == 1:
        return 20
    return 10 if rank >= 8 else 5


def two_value(rank, suit):
    """A 2 scores the card it stands for, Q♠ 10, a 2 5 (ruling)."""
    if rank == 12 and suit == "S":
        return 10
    if rank == 2:
        return 5
    return natural_value(rank, suit)


@st.composite
def sequences(draw):
    suit = draw(st.sampled_from("SHDC"))
    n = draw(st.integers(3, 14))
    lo = draw(st.integers(1, 15 - n))
    tokens, printed, points = [], [], 0
    joker_used = False
    for pos in range(lo, lo + n):
        rank = 1 if pos == 14 else pos
        card = NAMES[rank] + suit
        choice = draw(st.sampled_from(["natural", "natural", "two", "joker"]))
        if choice == "joker" and not joker_used:
            joker_used = True
            tokens.append(f"JK={card}")
            printed.append(f"JK={NAMES[rank]}{SYMBOLS[suit]}")
            points += 100
        elif choice == "two" or rank == 2:
            wild_suit = draw(st.sampled_from("SHDC"))
            if rank == 2 and wild_suit == suit and draw(st.booleans()):
                tokens.append(f"2{suit}")  # the 2 of the suit, unnamed: itself
            else:
                tokens.append(f"2{wild_suit}={card}")
            printed.append(f"2{SYMBOLS[wild_suit]}={NAMES[rank]}{SYMBOLS[suit]}")
            points += two_value(rank, suit)
        else:
            tokens.append(card)
            printed.append(NAMES[rank] + SYMBOLS[suit])
            points += natural_value(rank, suit)
    # The engine's readings where the cards alone allow two orders (same cards, same points):
    # a 13-card sequence with one ace puts the ace low; a 14-card one puts a natural ace low.
    if n == 13 and lo == 2:
        printed = [printed[-1]] + printed[:-1]
    if n == 14 and "=" in printed[0] and "=" not in printed[-1]:
        printed[0], printed[-1] = printed[-1], printed[0]
    order = draw(st.permutations(range(n)))
    return [tokens[i] for i in order], tuple(printed), points, (suit, lo, n)


@settings(max_examples=300, deadline=None)
@given(sequences())
def test_every_legal_sequence_in_any_order(case):
    tokens, printed, points, (suit, _low, _n) = case
    check = check_meld(tokens, BOOK)
    if all("=" in t or t.startswith("2") for t in tokens) and f"2{suit}" in tokens:
        assert not check.ok and "wild cards only" in str(check.errors[0].message)  # every card must be named
        return
    if reference.free_wilds(tokens) and len(reference.scores(tokens)) > 1:
        # The unnamed 2 of the suit may as well stand for a card at the other end (2-…-K or 3-…-A;
        # A-2-…-Q or 3-…-K-A), which scores differently: it must be named.
        assert not check.ok and check.errors[0].rule == "wild cards: name the card", check.errors
        return
    assert check.ok, (tokens, [str(e) for e in check.errors])
    assert check.kind == "sequence"
    if len(printed) == 14 and "=" in printed[0] and "=" in printed[-1]:
        # Two wild aces: either may take either end.
        assert {check.labels[0], check.labels[-1]} == {printed[0], printed[-1]}
        assert check.labels[1:-1] == printed[1:-1]
    else:
        assert check.labels == printed
    assert check.points == points == sum(x.points for x in check.lines)
    clear_caches()
    assert check_meld(tokens, BOOK) == check


@st.composite
def sets(draw):
    rank = draw(st.sampled_from([1] + list(range(3, 14))))
    n = draw(st.integers(3, 4))
    tokens, points, naturals = [], 0, 0
    joker_used = False
    for _ in range(n):
        choice = draw(st.sampled_from(["natural", "natural", "two", "named", "joker"]))
        suit = draw(st.sampled_from("SHDC"))
        if choice == "joker" and not joker_used:
            joker_used = True
            tokens.append("JK")
            points += 100
        elif choice == "two":
            tokens.append("2" + draw(st.sampled_from("SHDC")))
            points += two_value(rank, "H")
        elif choice == "named":
            tokens.append("2" + draw(st.sampled_from("SHDC")) + "=" + NAMES[rank] + suit)
            points += two_value(rank, suit)
        else:
            naturals += 1
            tokens.append(NAMES[rank] + suit)
            points += natural_value(rank, suit)
    free = [i for i, t in enumerate(tokens) if t == "JK" or (t.startswith("2") and "=" not in t)]
    for i in free[2:]:  # at most two free wilds: the reference tries each as every card
        tokens[i] = tokens[i] + "=" + NAMES[rank] + "S"
        points += two_value(rank, "S") - two_value(rank, "H") if tokens[i][0] == "2" else 0
    if naturals == 0 and not any("=" in t for t in tokens):
        tokens[0] = NAMES[rank] + "C"
        points = 0  # recomputed for the cards as they are now
        for t in tokens:
            if t == "JK":
                points += 100
            elif t.startswith("2") and "=" in t:
                points += two_value(rank, t[-1])
            elif t.startswith("2"):
                points += two_value(rank, "H")
            else:
                points += natural_value(rank, t[-1])
    return draw(st.permutations(tokens)), rank, points


@settings(max_examples=300, deadline=None)
@given(sets())
def test_every_legal_set_in_any_order(case):
    tokens, rank, points = case
    check = check_meld(tokens, BOOK)
    if all(t.startswith(("JK", "2")) for t in tokens) and reference.free_wilds(tokens):
        assert not check.ok and "wild cards only" in str(check.errors[0].message)  # every card must be named
        return
    one_suit = len({t[-1] for t in tokens if t != "JK" and not (t.startswith("2") and "=" not in t)}) == 1
    if one_suit and reference.free_wilds(tokens):
        # Naturals of one suit and unnamed wilds: a sequence may be read as well (RULES.md readings).
        found = reference.scores(tokens)
        if len(found) > 1:
            assert not check.ok and check.errors[0].rule == "wild cards: name the card"
            return
        assert found == {points}
    assert check.ok, (tokens, [str(e) for e in check.errors])
    assert check.kind == "set" and check.rank == rank
    assert check.points == points == sum(x.points for x in check.lines)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["AS", "KS", "QS", "7H", "2C", "2H=7H", "JK", "JK=QS", "10D", "9D", "8D", "XX", "2C=KS", "5C", "AH"]
        ),
        max_size=16,
    )
)
def test_any_entry_gives_a_verdict_never_an_exception(tokens):
    check = check_meld(tokens, BOOK)
    assert check.ok == (not check.errors)
    for e in check.errors:
        assert str(e.message) and e.rule and e.source
    if check.ok:
        assert 3 <= len(check.cards) <= 14
        assert sum(x.points for x in check.lines) == check.points


RANK_TEXT = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


@st.composite
def near_melds(draw):
    """Random melds near a legal one: a set or a run of one suit with some cards made wild (named or
    not, at most two unnamed), now and then a stray card; 2 to 15 cards."""
    suit = draw(st.sampled_from("SHDC"))
    if draw(st.booleans()):
        rank = draw(st.sampled_from(RANK_TEXT[:1] + RANK_TEXT[2:]))
        cards = [rank + draw(st.sampled_from("SHDC")) for _ in range(draw(st.integers(2, 5)))]
    else:
        n = draw(st.integers(2, 15))
        low = draw(st.integers(1, 14))
        cards = [RANK_TEXT[(p - 1) % 13] + suit for p in range(low, low + n)]
    free = 0
    for i in range(len(cards)):
        what = draw(st.sampled_from(["keep"] * 5 + ["two", "joker", "named", "stray"]))
        if what in ("two", "joker") and free < 2:
            cards[i] = "JK" if what == "joker" else "2" + draw(st.sampled_from("SHDC"))
            free += 1
        elif what == "named":
            cards[i] = draw(st.sampled_from(["JK", "2C", "2H"])) + "=" + cards[i]
        elif what == "stray":
            cards[i] = draw(st.sampled_from(RANK_TEXT[:1] + RANK_TEXT[2:])) + draw(st.sampled_from("SHDC"))
    free = sum(1 for c in cards if c == "JK" or (c.startswith("2") and "=" not in c))
    if free > 2:
        return cards[:3]
    return draw(st.permutations(cards))


@settings(max_examples=600, deadline=None)
@given(near_melds())
def test_every_verdict_agrees_with_the_brute_force_reference(tokens):
    found = reference.scores(tokens)
    check = check_meld(tokens, BOOK)
    if not found:
        assert not check.ok, (tokens, check)
    elif len(found) == 1:
        assert check.ok, (tokens, [str(e) for e in check.errors])
        assert check.points == found.pop() == sum(x.points for x in check.lines)
    else:
        assert not check.ok, (tokens, found, check)
        assert [e.rule for e in check.errors] == ["wild cards: name the card"], check.errors
