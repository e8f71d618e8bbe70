"""Shape the engine's results for the templates: the board, the deal list, one deal's lines."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from scorekeeper.models import Game
from scorekeeper.rules.profiles import Rules
from scorekeeper.rules.results import GameResult

OUTCOMES = {
    "out": "went out",
    "stock_out": "stock ran out",
    "knock": "knock",
    "undercut": "undercut",
    "gin": "gin",
    "big_gin": "big gin",
    "void": "void hand",
}


def chip(text: str) -> dict[str, Any]:
    """A printed card ('10♥', 'JK', '2♣=7♥') with its colour: red suits are red, by symbol too."""
    suit = next((ch for ch in text if ch in "♠♥♦♣"), "")
    return {"text": text, "red": suit in ("♥", "♦"), "joker": text.startswith("JK")}


def card_chips(cards: Iterable[str]) -> list[dict[str, Any]]:
    return [chip(c) for c in cards]


def _penalty(rules: Rules) -> bool:
    return getattr(rules, "scoring", "winner") == "penalty"


def board(game: Game, rules: Rules, result: GameResult | None) -> dict[str, Any]:
    names = game.player_names()
    target = rules.target
    strict = bool(getattr(rules, "target_strict", False))
    penalty = _penalty(rules)
    totals = dict(result.totals) if result else dict.fromkeys(names, 0)
    side = dict(result.side) if result else {}
    if result and result.deals:
        next_dealer = result.deals[-1].next_dealer
    else:
        fd = game.first_dealer if game.first_dealer is not None else 0
        next_dealer = names[fd] if fd < len(names) else None
    reach = target + 1 if strict else target
    ordered = sorted(names, key=lambda n: totals.get(n, 0), reverse=not penalty)
    leader = ordered[0] if ordered and len(set(totals.values())) > 1 else None
    rows = []
    for name in names:
        total = totals.get(name, 0)
        rows.append(
            {
                "name": name,
                "total": total,
                "side": side.get(name, 0),
                "progress": max(0, min(total, target)),
                "to_go": max(0, reach - total),
                "leader": name == leader,
                "next_dealer": name == next_dealer,
            }
        )
    finished = bool(result and result.state == "finished")
    final = None
    if finished and result and result.final is not None:
        lines = result.final_lines or {}
        final = [
            {
                "name": n,
                "total": totals.get(n, 0),
                "final": result.final.get(n, totals.get(n, 0)),
                "lines": list(lines.get(n, ())),
            }
            for n in sorted(names, key=lambda n: result.final.get(n, 0), reverse=not penalty)
        ]
    return {
        "rows": rows,
        "target": target,
        "strict": strict,
        "penalty": penalty,
        "reach": reach,
        "next_dealer": next_dealer,
        "leader": leader,
        "finished": finished,
        "winner": result.winner if result else None,
        "final": final,
        "has_side": any(side.values()),
    }


def deal_rows(game: Game, result: GameResult | None) -> list[dict[str, Any]]:
    if result is None:
        return []
    names = list(result.players)
    rows = []
    for d in result.deals:
        rows.append(
            {
                "number": d.number,
                "outcome": OUTCOMES.get(d.outcome, d.outcome),
                "multiplier": d.multiplier,
                "dealer": d.dealer,
                "cells": [
                    {"name": n, "points": d.players[n].points if n in d.players else 0, "total": d.totals.get(n, 0)}
                    for n in names
                ],
            }
        )
    return rows


def deal_view(game: Game, result: GameResult | None, number: int) -> dict[str, Any] | None:
    if result is None or not 1 <= number <= len(result.deals):
        return None
    d = result.deals[number - 1]
    players = []
    for name in result.players:
        pd = d.players.get(name)
        if pd is None:
            continue
        players.append(
            {
                "name": name,
                "points": pd.points,
                "lines": list(pd.lines),
                "melds": [card_chips(m) for m in pd.melds],
                "held": card_chips(pd.held),
                "deadwood": card_chips(pd.deadwood),
                "layoffs": card_chips(pd.layoffs),
                "deadwood_points": pd.deadwood_points,
                "discard": chip(pd.discard) if pd.discard else None,
                "side_points": pd.side_points,
                "side_lines": list(pd.side_lines),
                "before": d.totals_before.get(name, 0),
                "after": d.totals.get(name, 0),
            }
        )
    return {
        "number": d.number,
        "outcome": OUTCOMES.get(d.outcome, d.outcome),
        "multiplier": d.multiplier,
        "dealer": d.dealer,
        "next_dealer": d.next_dealer,
        "notes": list(d.notes),
        "players": players,
        "last": number == len(result.deals),
    }
