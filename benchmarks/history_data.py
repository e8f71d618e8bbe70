"""Histories for the web benchmarks: years of weekly games as a club would have played them, built
through the app's own import (every game scored by the engine, every figure stored the way the
app stores it). Deals are random but legal and varied (seeded: every run builds the same history):
Oklahoma deals from the property tests' generator, Oklahoma Gin deals with the knocker's hand
within the knock limit. A pool of distinct deals per game is drawn from, so a game's deals differ
from each other as a real game's do; with ``distinct`` (the import's file) no deal is drawn twice in
the whole history, as in a real one, so that no cache of the engine is helped by repeated deals."""

from __future__ import annotations

import json
import random
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from scorekeeper.rules import games, gin, profiles
from scorekeeper.rules import gin_search as search
from scorekeeper.rules.cards import CARD_BY_INDEX
from scorekeeper.rules.profiles import Rules
from scorekeeper.rules.record import FORMAT
from tests.rules import oklahoma_random

POOL = ["Ann", "Ben", "Cleo", "Dora", "Eve", "Finn", "Gus", "Hal"]
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
PROFILE = {"oklahoma": "book", "oklahoma-gin": "standard"}
TARGET = {"oklahoma": 10_000, "oklahoma-gin": 1000}  # the highest the rules allow
POOL_SIZE = 1500  # distinct deals per kind and table size


def _codes(mask: int) -> list[str]:
    return [CARD_BY_INDEX[i].code for i in search.bits_of(mask)]


def gin_deal(rng: random.Random, players: list[str]) -> dict[str, Any]:
    """A Gin deal a table could have played: the knocker's hand within the knock limit the upcard
    sets, each defender's hand good too (drawn from neighbouring ranks: melds, layoffs and
    undercuts are common, and a deal's points stay small, as in a close game)."""
    size = gin.hand_size(len(players))
    suit = rng.choice("SHDC")
    knock, least = _knock_hand(rng, size)
    rank = rng.randint(max(least, 2), 13) if least or rng.random() < 0.7 else 1
    knocker = rng.choice(players)
    taken = knock
    hands: dict[str, Any] = {knocker: {"cards": _codes(knock)}}
    for name in players:
        if name == knocker:
            continue
        hand = _defender_hand(rng, size, taken, least)
        taken |= hand
        hands[name] = {"cards": _codes(hand)}
    return {"upcard": RANKS[rank - 1] + suit, "knocker": knocker, "hands": hands}


def _knock_hand(rng: random.Random, size: int) -> tuple[int, int]:
    """A knocker's hand from six neighbouring ranks with at most 10 deadwood: (the hand, its least
    deadwood)."""
    while True:
        lo = rng.randint(0, 7)
        near = [s * 13 + r for s in range(4) for r in range(lo, lo + 6)]
        knock = search.mask_of(rng.sample(near, size))
        least = search.best_deadwood(knock)
        if least <= 10:
            return knock, least


def _defender_hand(rng: random.Random, size: int, taken: int, least: int) -> int:
    """A defender's hand from eight neighbouring ranks of the cards not ``taken``, good too: its
    deadwood at most 12 over the knocker's ``least`` (after 200 tries, the last one drawn)."""
    for _attempt in range(200):
        lo = rng.randint(0, 5)
        near = [s * 13 + r for s in range(4) for r in range(lo, lo + 8) if not taken >> (s * 13 + r) & 1]
        hand = search.mask_of(rng.sample(near, size))
        if search.best_deadwood(hand) <= least + 12:
            return hand
    return hand


def rules_of(kind: str) -> Rules:
    return profiles.resolve(kind, PROFILE[kind], {"target": TARGET[kind]})


class Deals:
    """Pools of distinct legal deals in seat form (a player named by his seat), with the points each
    seat scores in them (a deal's points do not depend on the deals before it), by kind and table
    size; and games drawn from them that never reach the target (a game goes on to its last deal)."""

    def __init__(self, seed: int = 12, distinct: bool = False) -> None:
        self.rng = random.Random(seed)
        self.distinct = distinct  # a deal drawn leaves the pool, which new deals fill up again
        self.pools: dict[tuple[str, int], list[tuple[dict[str, Any], tuple[int, ...]]]] = {}

    def pool(self, kind: str, players: int) -> list[tuple[dict[str, Any], tuple[int, ...]]]:
        pool = self.pools.setdefault((kind, players), [])
        if len(pool) < POOL_SIZE:
            seats = tuple(f"#{i}" for i in range(players))
            rules = rules_of(kind)
            start = games.begin(rules, seats, seats[0])
            while len(pool) < POOL_SIZE:
                deal = oklahoma_random.deal(self.rng, seats) if kind == "oklahoma" else gin_deal(self.rng, list(seats))
                scored, _ = games.play(rules, seats, start, deal, 1)
                pool.append((_seated(deal), tuple(scored.players[s].points for s in seats)))
        return pool

    def game(self, kind: str, names: list[str], deals: int) -> list[dict[str, Any]]:
        """``deals`` deals (RECORD.md form) in which no total comes near the target: each deal is
        drawn from the pool, its seats turned round so that it keeps the totals lowest."""
        limit = TARGET[kind] * 0.8
        totals = [0] * len(names)
        out = []
        for _ in range(deals):
            pool = self.pool(kind, len(names))
            best: tuple[float, dict[str, Any], list[int], int] | None = None
            for _attempt in range(8):
                drawn = self.rng.randrange(len(pool))
                deal, points = pool[drawn]
                turn = self.rng.randrange(len(names))
                order = names[turn:] + names[:turn]  # seat s of the pooled deal is order[s]
                after = list(totals)
                for s, p in enumerate(points):
                    after[names.index(order[s])] += p
                score = max(after)
                if best is None or score < best[0]:
                    best = (score, _named(deal, order), after, drawn)
                if score < limit and self.rng.random() < 0.7:
                    break
            assert best is not None and best[0] < TARGET[kind], "the benchmark's game would end early"
            out.append(best[1])
            totals = best[2]
            if self.distinct:  # never drawn again: the last deal of the pool takes its place
                pool[best[3]] = pool[-1]
                pool.pop()
        return out


def _seated(deal: dict[str, Any]) -> dict[str, Any]:
    """A deal of players named '#0', '#1', ... with seat numbers in their place."""
    out = dict(deal)
    for key in ("out", "knocker"):
        if isinstance(out.get(key), str):
            out[key] = int(out[key][1:])
    out["hands"] = {int(name[1:]): hand for name, hand in deal["hands"].items()}
    return out


def _named(deal: dict[str, Any], names: list[str]) -> dict[str, Any]:
    out = dict(deal)
    for key in ("out", "knocker"):
        if isinstance(out.get(key), int):
            out[key] = names[out[key]]
    out["hands"] = {names[seat]: hand for seat, hand in deal["hands"].items()}
    return out


def record(kind: str, names: list[str], deals: list[dict[str, Any]]) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "format": FORMAT,
        "game": kind,
        "rules": {"profile": PROFILE[kind], "options": {"target": TARGET[kind]}},
        "players": names,
        "deals": deals,
    }
    if kind == "oklahoma":
        rec["first_dealer"] = names[0]
    return rec


def records(
    games: int, deals: int, *, gin_share: float = 0.2, seed: int = 12, distinct: bool = False
) -> Iterator[dict[str, Any]]:
    """``games`` records of ``deals`` deals; Ann sits at every game (the player page's player).
    Oklahoma games of three, Gin games of two; ``gin_share`` of them Gin. ``distinct``: no deal
    twice in the whole history (slower to build: every deal is generated)."""
    pools = Deals(seed, distinct)
    rng = random.Random(seed + 1)
    for _ in range(games):
        kind = "oklahoma-gin" if rng.random() < gin_share else "oklahoma"
        n = 2 if kind == "oklahoma-gin" else 3
        names = ["Ann", *rng.sample(POOL[1:], n - 1)]
        rng.shuffle(names)
        yield record(kind, names, pools.game(kind, names, deals))


def write_file(games: int, deals: int, path: Path | None = None, **kwargs: Any) -> Path:
    """A file of records as the app exports them (a JSON list, one record at a time)."""
    if path is None:
        path = Path(tempfile.mkstemp(prefix="scorekeeper-history-", suffix=".json")[1])
    with path.open("w", encoding="utf-8") as out:
        out.write("[")
        for i, rec in enumerate(records(games, deals, **kwargs)):
            out.write(("," if i else "") + "\n " + json.dumps(rec, ensure_ascii=False, indent=1).replace("\n", "\n "))
        out.write("\n]\n")
    return path
