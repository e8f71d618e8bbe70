"""Random legal Oklahoma deals for the property tests: melds that have one reading, the pack's
limits kept over all hands, every player who did not go out holding at least one card."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
NATURAL_RANKS = [r for r in RANKS if r != "2"]
SUITS = "SHDC"


def _place_rank(place: int) -> str:
    return "A" if place in (1, 14) else RANKS[place - 1]


class _Pack:
    """Two of each card, eight 2s, one Joker (or none)."""

    def __init__(self, joker: bool) -> None:
        self.joker = joker
        self.used: Counter[str] = Counter()

    def take(self, cards: list[str]) -> bool:
        wanted = Counter(c.split("=")[0] for c in cards)
        for card, n in wanted.items():
            limit = (1 if self.joker else 0) if card == "JK" else 2
            if self.used[card] + n > limit:
                return False
        self.used.update(wanted)
        return True


def _a_set(rng: random.Random) -> list[str]:
    rank = rng.choice(NATURAL_RANKS)
    suits = rng.sample(SUITS, 2) + [rng.choice(SUITS) for _ in range(rng.choice([0, 1, 2]))]
    cards = [rank + s for s in suits]
    if len(cards) == 2 or (len(cards) < 4 and rng.random() < 0.4):
        two = "2" + rng.choice(SUITS)
        cards.append(rng.choice(["JK", two, f"{two}={rank}{rng.choice(SUITS)}"]))
    rng.shuffle(cards)
    return cards


def _a_sequence(rng: random.Random) -> list[str]:
    suit = rng.choice(SUITS)
    n = rng.choice([3, 3, 4, 5, 6, 8, 13, 14])
    low = rng.randint(1, 15 - n)
    cards = [_place_rank(p) + suit for p in range(low, low + n)]
    if low <= 2 < low + n:  # the 2 of the suit in its own place, named: unnamed, it could be read elsewhere
        cards[2 - low] += "=2" + suit
    if rng.random() < 0.5:  # a wild stands for one card: named, or inside (its place then is fixed)
        i = rng.randrange(n)
        wild = rng.choice(["JK", "2" + rng.choice(SUITS)])
        inside = 0 < i < n - 1 and not (n >= 13 and cards[i][0] == "A") and "=" not in cards[i]
        cards[i] = wild if inside and rng.random() < 0.6 else f"{wild}={cards[i].split('=')[-1]}"
    rng.shuffle(cards)
    return cards


def deal(rng: random.Random, players: tuple[str, ...], joker: bool = True) -> dict[str, Any]:
    """A legal deal: who went out (or nobody), how, and every player's melds and cards held."""
    pack = _Pack(joker)
    out = rng.choice([*players, None])
    result: dict[str, Any] = {"out": out, "hands": {}}
    if out is not None and rng.random() < 0.3:
        result["concealed"] = True
    if out is not None and rng.random() < 0.15:
        result["first_turn"] = True
    for name in players:
        melds: list[list[str]] = []
        for _ in range(rng.choice([1, 2, 3]) if name == out else rng.choice([0, 1, 2])):
            for _attempt in range(20):
                meld = _a_set(rng) if rng.random() < 0.5 else _a_sequence(rng)
                if pack.take(meld):
                    melds.append(meld)
                    break
        held: list[str] = []
        if name != out:
            wanted = rng.choice([1, 1, 2, 3, 5])
            while len(held) < wanted:
                card = "JK" if rng.random() < 0.03 else rng.choice(RANKS) + rng.choice(SUITS)
                if pack.take([card]):
                    held.append(card)
        if name == out and not melds:  # the pack ran short of every meld tried: hold nothing, go out on a set
            for rank in NATURAL_RANKS:
                meld = [rank + "S", rank + "H", rank + "D"]
                if pack.take(meld):
                    melds.append(meld)
                    break
        result["hands"][name] = {"melds": melds, "held": held}
    return result


def game(rng: random.Random, players: tuple[str, ...], deals: int, joker: bool = True) -> list[dict[str, Any]]:
    return [deal(rng, players, joker) for _ in range(deals)]
