"""Slow, obviously correct brute force for Oklahoma Gin arrangements (tests only).

Cards are (suit 0..3, rank 1..13) pairs. Every valid meld inside a hand is listed (sets of
3 or 4 of one rank, runs of 3+ consecutive cards of one suit, ace low only), then every
collection of pairwise disjoint melds is tried.
"""

from __future__ import annotations

from itertools import combinations


def value(card) -> int:
    return min(card[1], 10)


def from_mask(mask: int) -> frozenset:
    return frozenset((i // 13, i % 13 + 1) for i in range(52) if mask >> i & 1)


def to_mask(cards) -> int:
    m = 0
    for s, r in cards:
        m |= 1 << (s * 13 + r - 1)
    return m


def valid_melds(hand) -> list[frozenset]:
    hand = frozenset(hand)
    melds = []
    for rank in range(1, 14):
        same = [c for c in hand if c[1] == rank]
        for size in (3, 4):
            for combo in combinations(sorted(same), size):
                melds.append(frozenset(combo))
    for suit in range(4):
        for lo in range(1, 12):
            for hi in range(lo + 2, 14):
                run = frozenset((suit, r) for r in range(lo, hi + 1))
                if run <= hand:
                    melds.append(run)
    return melds


def meld_collections(hand):
    """Every collection of pairwise disjoint valid melds (as a list of frozensets)."""
    melds = valid_melds(hand)
    out = []

    def rec(start: int, used: frozenset, chosen: list) -> None:
        out.append(list(chosen))
        for k in range(start, len(melds)):
            m = melds[k]
            if not (m & used):
                chosen.append(m)
                rec(k + 1, used | m, chosen)
                chosen.pop()

    rec(0, frozenset(), [])
    return out


def least_deadwood(hand) -> int:
    hand = frozenset(hand)
    best: int | None = None
    for coll in meld_collections(hand):
        used = frozenset().union(*coll) if coll else frozenset()
        dw = sum(value(c) for c in hand - used)
        if best is None or dw < best:
            best = dw
    assert best is not None  # the empty collection is always tried
    return best


def least_deadwood_discard(hand) -> int:
    hand = frozenset(hand)
    return min(least_deadwood(hand - {c}) for c in hand)


def layoff_closure(deadwood, knocker_melds, chained: bool = True) -> frozenset:
    """The deadwood cards that can be laid off onto the knocker's melds (card by card)."""
    deadwood = set(deadwood)
    laid: set = set()
    # Grown melds: each starts as the knocker's meld; chained layoffs extend runs.
    grown = [set(m) for m in knocker_melds]
    original = [frozenset(m) for m in knocker_melds]
    # Runs are tried before sets: a card that fits a run is put there, which only ever lets more
    # cards follow it (placed on a set it would score 0 just the same).
    order = sorted(range(len(grown)), key=lambda k: len({c[1] for c in original[k]}) == 1)
    changed = True
    while changed:
        changed = False
        for card in sorted(deadwood - laid):
            for k in order:
                meld = grown[k]
                base = meld if chained else original[k]
                ranks = {c[1] for c in base}
                suits = {c[0] for c in base}
                is_set = len(ranks) == 1
                if is_set:
                    ok = len(original[k]) == 3 and card[1] in ranks and card not in base
                else:
                    (suit,) = suits
                    ok = card[0] == suit and (card[1] == min(ranks) - 1 or card[1] == max(ranks) + 1)
                    ok = ok and 1 <= card[1] <= 13
                if ok:
                    laid.add(card)
                    if chained and not is_set:
                        meld.add(card)
                    changed = True
                    break
    return frozenset(laid)


def defender_least(hand, knocker_melds, chained: bool = True) -> int:
    """Least deadwood of a defender over every own-meld collection, then every possible layoff."""
    hand = frozenset(hand)
    best: int | None = None
    for coll in meld_collections(hand):
        used = frozenset().union(*coll) if coll else frozenset()
        dead = hand - used
        laid = layoff_closure(dead, knocker_melds, chained)
        dw = sum(value(c) for c in dead - laid)
        if best is None or dw < best:
            best = dw
    assert best is not None
    return best


def _layoff_states(dead, grown, original, chained: bool):
    """Every way to lay off some of the cards ``dead`` one by one: (cards left, melds grown)."""
    seen = set()
    out = []

    def fits(card, k, melds) -> bool:
        base = melds[k] if chained else original[k]
        ranks = {c[1] for c in original[k]}
        if len(ranks) == 1:  # a set: its fourth card, onto a set of three
            return len(original[k]) == 3 and card[1] in ranks and card not in melds[k]
        (suit,) = {c[0] for c in original[k]}
        low, high = min(c[1] for c in base), max(c[1] for c in base)
        return card[0] == suit and card[1] in (low - 1, high + 1)

    def rec(left: frozenset, melds: tuple) -> None:
        key = (left, melds)
        if key in seen:
            return
        seen.add(key)
        out.append((left, melds))
        for card in left:
            for k in range(len(melds)):
                if fits(card, k, melds):
                    grown_k = melds[k] | {card}
                    rec(left - {card}, melds[:k] + (frozenset(grown_k),) + melds[k + 1 :])

    rec(frozenset(dead), tuple(frozenset(m) for m in grown))
    return out


def defenders_least(hands, knocker_melds, chained: bool = True) -> tuple[int, ...]:
    """The defenders' deadwood in seat order when they lay off in turn: every defender's every
    own-meld collection and every way to lay off card by card onto the melds as grown by those
    before him (chained) or onto the knocker's melds as laid down (original). The smallest tuple
    compared in seat order: each defender's least deadwood, and among his equal choices the one
    leaving the defenders after him the least."""
    original = tuple(frozenset(m) for m in knocker_melds)
    memo: dict = {}

    def rec(i: int, grown: tuple) -> tuple[int, ...]:
        if i == len(hands):
            return ()
        if (i, grown) in memo:
            return memo[i, grown]
        hand = frozenset(hands[i])
        best = None
        for coll in meld_collections(hand):
            used = frozenset().union(*coll) if coll else frozenset()
            for left, melds in _layoff_states(hand - used, grown, original, chained):
                key = (sum(value(c) for c in left), *rec(i + 1, melds))
                if best is None or key < best:
                    best = key
        assert best is not None
        memo[i, grown] = best
        return best

    return rec(0, original)
