"""A brute-force reference for Oklahoma melds, written from RULES.md §1 and nothing of the engine.

Every unnamed wild card is tried as every natural card of the pack; each fully named meld is legal
when it is a set (3–4 cards, one rank) or a sequence (3–14 cards, one suit, consecutive places
1..14 where an ace is 1 or 14, each place once). A meld's verdict is the set of scores of its
legal readings: empty (illegal), one score (accepted), several (the wild cards must be named).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations, product

RANK_OF = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(r): r for r in range(2, 11)}}
SUITS = "SHDC"
NATURALS = [(rank, suit) for suit in SUITS for rank in range(1, 14)]  # what a wild may stand for


def parse(token: str) -> tuple[str, tuple[int, str] | None, tuple[int, str] | None]:
    """(kind, card, named): kind 'natural', 'two' or 'joker'; card (rank, suit) of a natural or a 2."""
    left, _, right = token.partition("=")
    named = (RANK_OF[right[:-1]], right[-1]) if right else None
    if left == "JK":
        return "joker", None, named
    card = (RANK_OF[left[:-1]], left[-1])
    return ("two" if card[0] == 2 else "natural"), card, named


def natural_points(rank: int, suit: str) -> int:
    """RULES.md table, melded: Q♠ 50, ace 20, K–8 10, 7–3 5."""
    if rank == 12 and suit == "S":
        return 50
    if rank == 1:
        return 20
    return 10 if rank >= 8 else 5


def wild_points(kind: str, rank: int, suit: str) -> int:
    """A Joker 100 whatever it stands for; a 2 the card it stands for, Q♠ 10, a 2 5 (ruling)."""
    if kind == "joker":
        return 100
    if rank == 12 and suit == "S":
        return 10
    if rank == 2:
        return 5
    return natural_points(rank, suit)


def _is_set(cards: list[tuple[int, str]]) -> bool:
    return 3 <= len(cards) <= 4 and len({rank for rank, _ in cards}) == 1


def _is_sequence(cards: list[tuple[int, str]]) -> bool:
    n = len(cards)
    if not 3 <= n <= 14 or len({suit for _, suit in cards}) != 1:
        return False
    aces = sum(1 for rank, _ in cards if rank == 1)
    others = sorted(rank for rank, _ in cards if rank != 1)
    if len(set(others)) != len(others) or aces > 2:
        return False
    for ace_places in product((1, 14), repeat=aces):
        places = sorted(others + list(ace_places))
        if len(set(places)) == n and places[-1] - places[0] == n - 1:
            return True
    return False


def scores(tokens: Iterable[str]) -> set[int]:
    """The scores of every legal reading of a meld (a wild-only meld must name every card: none)."""
    parsed = [parse(t) for t in tokens]
    if all(kind != "natural" for kind, _, _ in parsed) and any(named is None for _, _, named in parsed):
        return set()
    free = [i for i, (kind, _, named) in enumerate(parsed) if kind != "natural" and named is None]
    # A wild can only stand for a card of the rank or the suit of some other card (a set is one
    # rank, a sequence one suit): trying only those leaves out no legal reading.
    fixed = [card if kind == "natural" else named for kind, card, named in parsed]
    ranks = {c[0] for c in fixed if c is not None}
    suits = {c[1] for c in fixed if c is not None}
    if len(ranks) > 1 and len(suits) > 1:
        return set()  # neither one rank nor one suit, whatever the wilds stand for
    candidates = [c for c in NATURALS if c[0] in ranks or c[1] in suits]
    found: set[int] = set()
    for choice in product(candidates, repeat=len(free)):
        stands = dict(zip(free, choice, strict=True))
        cards: list[tuple[int, str]] = []
        points = 0
        for i, (kind, card, named) in enumerate(parsed):
            if kind == "natural":
                assert card is not None
                cards.append(card)
                points += natural_points(*card)
            else:
                target = named if named is not None else stands[i]
                cards.append(target)
                points += wild_points(kind, *target)
        # A 2 may stand for itself: a free 2 standing for a 2 is tried as every 2 through NATURALS.
        if _is_set(cards) or _is_sequence(cards):
            found.add(points)
    return found


def free_wilds(tokens: Iterable[str]) -> int:
    return sum(1 for t in tokens if "=" not in t and (t == "JK" or t.startswith("2")))


_GROUP_SCORES: dict[tuple[str, ...], set[int]] = {}  # a meld's scores do not change from list to list


def split_totals(tokens: list[str]) -> set[int]:
    """Every total a flat list of melded cards can score: over every partition into groups that are
    legal melds, with every reading of each (the sum of one score of each group)."""
    cards = sorted(tokens)

    def legal(group: tuple[str, ...]) -> set[int]:
        if group not in _GROUP_SCORES:
            _GROUP_SCORES[group] = scores(group) if 3 <= len(group) <= 14 else set()
        return _GROUP_SCORES[group]

    def partitions(rest: tuple[str, ...]) -> set[int]:
        if not rest:
            return {0}
        first, others = rest[0], rest[1:]
        totals: set[int] = set()
        seen: set[tuple[str, ...]] = set()
        for size in range(2, min(len(rest), 14)):  # the first card and 2..13 others
            for picked in combinations(range(len(others)), size):
                group = (first, *(others[i] for i in picked))
                if group in seen:
                    continue
                seen.add(group)
                found = legal(group)
                if not found:
                    continue
                left = tuple(c for i, c in enumerate(others) if i not in picked)
                for rest_total in partitions_memo(left):
                    totals.update(f + rest_total for f in found)
        return totals

    memo: dict[tuple[str, ...], set[int]] = {}

    def partitions_memo(rest: tuple[str, ...]) -> set[int]:
        if rest not in memo:
            memo[rest] = partitions(rest)
        return memo[rest]

    return partitions_memo(tuple(cards))
