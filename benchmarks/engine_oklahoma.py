"""Benchmark of the Oklahoma engine (scorekeeper.rules.oklahoma).

Measures, on one core, with fixed data and several repeats (medians printed):
- validations + scoring per second of one realistic 5-player ``book`` deal (melds with 2s and the
  Joker, unnamed wilds resolved by their place, held cards, pack limits across all hands);
- the same deal scored as a one-deal game (``score_game``: running totals, end of game);
- live meld checks per second (``check_meld``, the web app's check while a player types);
- splits of one player's melded cards given as one flat list (``check_melded``, RECORD.md
  ``melded``), 13–16 cards with no, one or two unnamed wild cards, in microseconds per list;
- ``play`` deal after deal through 20 generated games of 30 deals (3–5 players, sets and
  sequences with named and unnamed wilds, cards held), in microseconds per deal: "afresh" clears
  every meld verdict before each game (an import of games never seen), "cached" plays them again.
Card parsing is cached (a dict by token text) in both; "afresh" clears the meld-verdict cache before
each deal (every meld resolved and scored again), "cached" lets it work as it does in the app, where
the same melds are re-checked on every keystroke of a deal entry.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from scorekeeper.rules import caches, oklahoma
from scorekeeper.rules.profiles import resolve

REPEATS = 7
ROUNDS = 2000

PLAYERS = ("Ann", "Ben", "Cleo", "Dan", "Eve")

DEAL: dict[str, Any] = {
    "out": "Ann",
    "first_turn": False,
    "concealed": False,
    "hands": {
        "Ann": {
            "melds": [
                ["QS", "QH", "2C=QD"],
                ["9H", "8H", "JK=7H"],
                ["AS", "KS", "2D", "JS"],
                ["5C", "6C", "7C", "8C", "2H=9C"],
            ],
            "held": [],
        },
        "Ben": {"melds": [["10D", "10C", "10S"], ["3H", "4H", "5H", "2S=6H"]], "held": ["KD", "2C", "4S"]},
        "Cleo": {
            "melds": [["AH", "AD", "AC"], ["JD", "QD", "KD", "AD"], ["7S", "7D", "2S"]],
            "held": ["QS", "9C", "3D"],
        },
        "Dan": {"melds": [["6S", "6D", "6H", "2D"], ["9S", "10S", "2H=JS"]], "held": ["8S", "8H", "5S"]},
        "Eve": {"melds": [], "held": ["QC", "KH", "4D", "4C", "3C"]},
    },
}

MELDS = [meld for hand in DEAL["hands"].values() for meld in hand["melds"]] + [
    ["9H", "8H", "2C"],  # rejected: the 2 must be named
    ["KH", "AH", "2H"],  # rejected: round the corner
    ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS"],
]


# One player's melded cards as one list: the melds of RECORD.md's example and more, 13–16 cards.
MELDED = {
    "13 cards, wilds named": "QS QH 2C=QD 9H 8H JK=7H AS KS 2D=QS JS 5C 6C 7C",
    "13 cards, one unnamed 2": "QS QH QD 9H 8H JK=7H AS KS 2D JS 5C 6C 7C",
    "13 cards, two unnamed 2s": "QS QH 2C 9H 8H 7H 10H AS KS JS 2D 5C 5D",
    "16 cards, two unnamed 2s": "QS QH 2C=QD 9H 8H JK=7H AS KS 2D JS 5C 6C 2H 8C 9C",
}


RANK_TEXT = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def _deal(rng: random.Random, players: tuple[str, ...]) -> dict[str, Any]:
    """A legal deal: melds of one reading each within the pack's limits, every other player holding cards."""
    used: Counter[str] = Counter()
    out = rng.choice([*players, None])
    hands: dict[str, Any] = {}
    for name in players:
        going_out = name == out
        melds = _melds(rng, used, rng.choice([1, 2, 3]) if going_out else rng.choice([0, 1, 2]))
        held = [] if going_out else _held(rng, used)
        if going_out and not melds:
            out = None
        hands[name] = {"melds": melds, "held": held}
    return {"out": out, "hands": hands}


def _melds(rng: random.Random, used: Counter[str], count: int) -> list[list[str]]:
    """Up to ``count`` melds, each given ten tries to fit in what the pack has left."""
    melds = []
    for _ in range(count):
        for _attempt in range(10):
            cards = _meld(rng)
            if _take(used, cards):
                melds.append(cards)
                break
    return melds


def _held(rng: random.Random, used: Counter[str]) -> list[str]:
    """The cards of a player who did not go out: at least one, as the pack has them."""
    held: list[str] = []
    while len(held) < rng.choice([1, 2, 3, 5]):
        card = rng.choice(RANK_TEXT) + rng.choice("SHDC")
        if _take(used, [card]):
            held.append(card)
    return held


def _take(used: Counter[str], cards: list[str]) -> bool:
    """Take the cards from the pack (two of each card, one joker's worth of ``JK``); False, taking
    nothing, when it has not got them."""
    wanted = Counter(c.split("=")[0] for c in cards)
    if any(used[c] + k > (1 if c == "JK" else 2) for c, k in wanted.items()):
        return False
    used.update(wanted)
    return True


def _meld(rng: random.Random) -> list[str]:
    """A set (a wild card in it, sometimes) or a sequence (sometimes a wild card inside it, named
    or not), of one reading each."""
    if rng.random() < 0.5:
        rank = rng.choice(RANK_TEXT[:1] + RANK_TEXT[2:])
        cards = [rank + suit for suit in rng.sample("SHDC", rng.choice([3, 4]))]
        if rng.random() < 0.4:
            cards[-1] = rng.choice(["JK", "2" + rng.choice("SHDC")])  # a set of two suits or more: one reading
        return cards
    suit, n = rng.choice("SHDC"), rng.choice([3, 3, 4, 5, 7])
    low = rng.randint(3, 14 - n)
    cards = [RANK_TEXT[place - 1] + suit for place in range(low, low + n)]
    if rng.random() < 0.5:
        i = rng.randrange(1, n - 1)  # a wild inside: its place is fixed
        cards[i] = rng.choice(["JK", "2C", "2D"]) + ("" if rng.random() < 0.5 else "=" + cards[i])
    return cards


def games(count: int = 20, deals: int = 30, seed: int = 7) -> list[tuple[tuple[str, ...], list[dict[str, Any]]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        players = PLAYERS[: rng.choice([3, 4, 5])]
        out.append((players, [_deal(rng, players) for _ in range(deals)]))
    return out


def _rate(fn: Callable[[], object], per_call: int = 1, rounds: int = ROUNDS) -> float:
    fn()  # warm the card cache, as the app is warm
    rates = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        for _ in range(rounds):
            fn()
        rates.append(rounds * per_call / (time.perf_counter() - start))
    return statistics.median(rates)


def measure(rounds: int = ROUNDS) -> dict[str, float]:
    rules = resolve("oklahoma", "book")
    oklahoma.score_deal(rules, PLAYERS, DEAL)  # the data must be valid
    deals = [DEAL]

    def one_deal() -> None:
        oklahoma.score_deal(rules, PLAYERS, DEAL)

    def one_deal_cold() -> None:
        caches.clear_caches()  # every meld checked afresh (card texts parsed afresh too)
        oklahoma.score_deal(rules, PLAYERS, DEAL)

    def one_game() -> None:
        oklahoma.score_game(rules, PLAYERS, deals, "Eve")

    def melds() -> None:
        for meld in MELDS:
            oklahoma.check_meld(meld, rules)

    def melds_cold() -> None:
        caches.clear_caches()
        for meld in MELDS:
            oklahoma.check_meld(meld, rules)

    split_times = {}
    for name, text in MELDED.items():
        cards = text.split()
        assert oklahoma.check_melded(cards, rules).ok, name

        def split_afresh(cards: list[str] = cards) -> None:
            caches.clear_caches()
            oklahoma.check_melded(cards, rules)

        per_second = _rate(split_afresh, rounds=max(rounds // 10, 20))
        split_times[f"check_melded, {name}, afresh (µs per list)"] = 1e6 / per_second

    rules_long = resolve("oklahoma", "book", {"target": 10000})  # no game ends within 30 deals
    played = games()
    n_deals = sum(len(d) for _, d in played)

    def play_all(afresh: bool) -> None:
        for players, deals in played:
            if afresh:
                caches.clear_caches()
            standing = oklahoma.begin(rules_long, players, None)
            for number, deal in enumerate(deals, 1):
                _, standing = oklahoma.play(rules_long, players, standing, deal, number)

    play_times = {
        "play, 3–5 player deals of generated games, meld verdicts afresh each game (µs per deal)": 1e6
        / _rate(lambda: play_all(True), n_deals, rounds=max(rounds // 500, 2)),
        "play, 3–5 player deals of generated games, meld verdicts cached (µs per deal)": 1e6
        / _rate(lambda: play_all(False), n_deals, rounds=max(rounds // 500, 2)),
    }

    return (
        split_times
        | play_times
        | {
            "5-player book deal, validate + score, melds checked afresh (deals/s)": _rate(one_deal_cold, rounds=rounds),
            "5-player book deal, validate + score, meld verdicts cached (deals/s)": _rate(one_deal, rounds=rounds),
            "5-player book deal as a one-deal game, score_game, cached (games/s)": _rate(one_game, rounds=rounds),
            "check_meld, mixed melds, afresh (melds/s)": _rate(melds_cold, len(MELDS), rounds=rounds),
            "check_meld, mixed melds, cached (melds/s)": _rate(melds, len(MELDS), rounds=rounds),
        }
    )


def main() -> None:
    for label, rate in measure().items():
        shown = f"{rate:,.0f}" if rate >= 100 else f"{rate:,.1f}"
        print(f"{label}: {shown} (median of {REPEATS})", flush=True)


if __name__ == "__main__":
    main()
