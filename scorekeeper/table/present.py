"""THE presenter of the engine's results for the templates: the board, the deal list, one deal,
one player's deal (with its score lines). Every page that shows a deal or its lines gets them
from here, so they read the same everywhere."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.rules.profiles import Rules
from scorekeeper.rules.results import DealResult, GameResult, PlayerDeal, Standing
from scorekeeper.table.models import Game

OUTCOMES = {
    "out": "went out",
    "stock_out": "stock ran out",
    "knock": "knock",
    "undercut": "undercut",
    "gin": "gin",
    "big_gin": "big gin",
    "void": "void hand",
}


def outcome_text(outcome: str) -> str:
    return OUTCOMES.get(outcome, outcome.replace("_", " "))


def board(game: Game, rules: Rules, result: GameResult | None) -> dict[str, Any]:
    """Each player's total, the bar toward the target, who leads, who deals next, the winner."""
    names = game.player_names()
    target = rules.target
    totals = dict(result.totals) if result else dict.fromkeys(names, 0)
    side = dict(result.side) if result else {}
    if result and result.deals:
        next_dealer = result.deals[-1].next_dealer
    else:
        fd = game.first_dealer if game.first_dealer is not None else 0
        next_dealer = names[fd] if fd < len(names) else None
    reach = target + 1 if rules.target_strict else target
    ordered = sorted(names, key=lambda n: totals.get(n, 0), reverse=not rules.penalty)
    leader = ordered[0] if ordered and len(set(totals.values())) > 1 else None
    rows = [
        {
            "name": name,
            "total": totals.get(name, 0),
            "side": side.get(name, 0),
            "progress": max(0, min(totals.get(name, 0), target)),
            "to_go": max(0, reach - totals.get(name, 0)),
            "leader": name == leader,
            "next_dealer": name == next_dealer,
        }
        for name in names
    ]
    finished = bool(result and result.state == "finished")
    return {
        "rows": rows,
        "target": target,
        "strict": rules.target_strict,
        "penalty": rules.penalty,
        "reach": reach,
        "next_dealer": next_dealer,
        "leader": leader,
        "finished": finished,
        "winner": result.winner if result else None,
        "final": final_table(result, names, rules.penalty),
        "has_side": any(side.values()),
    }


def final_table(result: GameResult | None, names: list[str], penalty: bool) -> list[dict[str, Any]] | None:
    """Each player's final tally with the end-of-game bonuses, best first."""
    if result is None or result.final is None:
        return None
    lines = result.final_lines or {}
    return [
        {"name": n, "total": result.totals.get(n, 0), "final": result.final.get(n, 0), "lines": list(lines.get(n, ()))}
        for n in sorted(names, key=lambda n: result.final.get(n, 0) if result.final else 0, reverse=not penalty)
    ]


def deal_ids(game: Game) -> dict[int, int]:
    """Deal number -> the deal's id (its stable address)."""
    return dict(game.deals.values_list("number", "pk"))


def deal_rows(game: Game, result: GameResult | None) -> list[dict[str, Any]]:
    """The deal list: each deal's points and running totals per player."""
    if result is None:
        return []
    names = list(result.players)
    ids = deal_ids(game)
    return [
        {
            "number": d.number,
            "id": ids.get(d.number),
            "outcome": outcome_text(d.outcome),
            "multiplier": d.multiplier,
            "dealer": d.dealer,
            "actor": d.actor,
            "cells": [
                {"name": n, "points": d.players[n].points if n in d.players else 0, "total": d.totals.get(n, 0)}
                for n in names
            ],
        }
        for d in result.deals
    ]


def player_deal(name: str, pd: PlayerDeal, deal: DealResult) -> dict[str, Any]:
    """One player's deal: cards as scored (melds, held, deadwood, layoffs, discard), points and
    score lines, and the running total before and after."""
    return {
        "name": name,
        "points": pd.points,
        "lines": list(pd.lines),
        "side_points": pd.side_points,
        "side_lines": list(pd.side_lines),
        "melds": [list(m) for m in pd.melds],
        "held": list(pd.held),
        "deadwood": list(pd.deadwood),
        "layoffs": list(pd.layoffs),
        "deadwood_points": pd.deadwood_points,
        "discard": pd.discard,
        "before": deal.totals_before.get(name, 0),
        "after": deal.totals.get(name, 0),
    }


def deal_view(
    game: Game, result: GameResult | None, number: int, raw: Mapping[str, Any] | None = None
) -> dict[str, Any] | None:
    """One deal: how it ended, the notes the engine made, and every player's deal."""
    if result is None or not 1 <= number <= len(result.deals):
        return None
    d = result.deals[number - 1]
    return {
        "number": d.number,
        "outcome": outcome_text(d.outcome),
        "multiplier": d.multiplier,
        "dealer": d.dealer,
        "next_dealer": d.next_dealer,
        "actor": d.actor,
        "upcard": raw.get("upcard") if isinstance(raw, Mapping) else None,
        "notes": list(d.notes),
        "players": [player_deal(n, d.players[n], d) for n in result.players if n in d.players],
        "totals": [d.totals.get(n, 0) for n in result.players],
        "last": number == len(result.deals),
    }


def columns_view(
    result: GameResult | None, *, number: int | None = None, standing: Standing | None = None
) -> dict[str, Any] | None:
    """Hollywood's three columns (None for a game without them): each player's points and hands
    won (boxes) in each column, whether it is open or closed and on which deal, its winner, and
    for a closed column its final tally with the bonuses added (game bonus, boxes, shutout); the
    match's winner and final tally once all three are closed. With ``number`` and the ``standing``
    stored after that deal, the columns as they stood after it, and the columns its hand went in."""
    if result is None or not result.columns:
        return None
    names = list(result.players)
    stood = standing.columns if standing is not None and number is not None else ()
    columns: list[dict[str, Any]] = []
    for k, column in enumerate(result.columns):
        totals, boxes, winner, ended_on = dict(column.totals), dict(column.boxes), column.winner, column.ended_on
        if k < len(stood):  # as it stood after deal ``number``
            then = stood[k]
            totals = dict(zip(names, then.totals, strict=True))
            boxes = dict(zip(names, then.boxes, strict=True))
            winner = names[then.winner] if then.winner is not None else None
            ended_on = then.ended_on
        closed = winner is not None
        final = dict(column.final or {}) if closed else {}  # a closed column takes no more hands
        final_lines = column.final_lines or {} if closed else {}
        columns.append(
            {
                "number": column.number,
                "closed": closed,
                "ended_on": ended_on,
                "winner": winner,
                "cells": [
                    {
                        "name": n,
                        "total": totals.get(n, 0),
                        "boxes": boxes.get(n, 0),
                        "won": n == winner,
                        "final": final.get(n) if closed else None,
                    }
                    for n in names
                ],
                "final": [{"name": n, "final": final.get(n, 0), "lines": list(final_lines.get(n, ()))} for n in names]
                if closed
                else [],
            }
        )
    deal = result.deals[number - 1] if number is not None and 1 <= number <= len(result.deals) else None
    match_over = all(c["closed"] for c in columns)
    won = {n: sum(1 for c in columns if c["winner"] == n) for n in names}
    return {
        "players": [{"name": n, "cells": [c["cells"][i] for c in columns], "won": won[n]} for i, n in enumerate(names)],
        "columns": columns,
        "target": result.target,
        "number": number,
        "as_of": number if stood else None,  # the columns shown are those after this deal
        "entered": list(deal.columns) if deal is not None else None,
        "hand_winner": deal.winner if deal is not None else None,
        "finished": match_over,
        "winner": result.winner if match_over else None,
        "final": dict(result.final) if match_over and result.final is not None else None,
    }


def columns_text(numbers: Sequence[int]) -> str:
    """The columns a hand went in, in words: "column 1", "columns 1 and 2", "columns 1, 2 and 3"."""
    shown = [str(n) for n in numbers]
    if not shown:
        return "no column"
    if len(shown) == 1:
        return f"column {shown[0]}"
    return f"columns {', '.join(shown[:-1])} and {shown[-1]}"
