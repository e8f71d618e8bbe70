"""THE presenter of the engine's results for the templates: the board, the deal list, one deal,
one player's deal (with its score lines). Every page that shows a deal or its lines gets them
from here, so they read the same everywhere."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext

from scorekeeper.rules.messages import outcome_by
from scorekeeper.rules.profiles import Rules
from scorekeeper.rules.results import ColumnResult, ColumnStanding, DealResult, GameResult, PlayerDeal, Standing
from scorekeeper.table.access import with_players
from scorekeeper.table.models import Game
from scorekeeper.table.pages import url_by_id
from scorekeeper.table.scoring import engine
from scorekeeper.table.text import outcome_text, signed_text


class GamePage:
    """The game page's board and deal list from what the writes store: no deal is scored. Each
    part is read when first used, so a part the template takes from a fragment cached by the
    game's version (``version_key``) costs nothing. A game whose stored results come from another
    version of the engine (or none) is scored from its record instead (``errors`` then says what
    the engine found wrong with it, if anything)."""

    def __init__(self, game: Game, rules: Rules) -> None:
        self.game = game  # its players are loaded when a part needs them
        self.rules = rules
        self.stored = game.scored_with == engine.RESULTS_VERSION
        self.errors: list[str] = []
        self.result: GameResult | None = None
        if not self.stored:
            self.result, self.errors = engine.result_or_errors(with_players(game))

    @cached_property
    def last(self) -> tuple[int, dict[str, Any] | None]:
        """The last deal's number and the standing stored with it: (0, None) before the first deal."""
        row = self.game.deals.order_by("-number").values_list("number", "standing").first()
        return row if row is not None else (0, None)

    @cached_property
    def now(self) -> GameResult | None:
        """Where the game stands — totals, state, winner, final tally, Hollywood's columns: from the
        standing stored with the last deal (``engine.concluded``, without its deals: none is played),
        or the game's whole result when it was stored by another version of the engine."""
        with_players(self.game)
        if self.stored:
            return engine.concluded(self.game, self.last[1])
        return self.result

    @cached_property
    def board(self) -> dict[str, Any]:
        with_players(self.game)
        if self.stored:
            return board(self.game, self.rules, self.last[1])
        return board_of_result(self.game, self.rules, self.result)

    @cached_property
    def deals(self) -> list[dict[str, Any]]:
        """The last ``SHOWN`` deals (the review has them all): the page does not grow with the game."""
        with_players(self.game)
        if self.stored:
            return deal_rows(self.game, last=SHOWN)
        return rows_of_result(self.game, self.result)[-SHOWN:]

    @cached_property
    def count(self) -> int:
        if self.stored:
            return self.last[0]
        return len(self.result.deals) if self.result else 0


def game_view(game: Game, rules: Rules) -> dict[str, Any]:
    """The game page's context (``GamePage``): ``board``, ``deals``, ``next_number`` (the number
    of the next deal, as text) and ``result`` (where the game stands, without its deals) read when
    the template first uses them, ``errors``, and ``version_key`` for the fragments cached by the
    game's version."""
    page = GamePage(game, rules)
    return {
        "board": SimpleLazyObject(lambda: page.board),
        "deals": SimpleLazyObject(lambda: page.deals),
        "next_number": SimpleLazyObject(lambda: str(page.count + 1)),
        "earlier": SimpleLazyObject(lambda: max(0, page.count - SHOWN)),  # deals before those shown
        "result": SimpleLazyObject(lambda: page.now),  # Hollywood's columns on the board
        "errors": page.errors,
        "version_key": version_key(game),
    }


# Part of every fragment cache key: change it with any change to what the cached fragments show.
FRAGMENTS = "1"


def version_key(game: Game) -> str:
    """What a fragment of a game's page cached by the game's version is cached under (with the
    template's own name): the game (its id and creation, in case a database reuses an id), its
    version (bumped by every write to the game), its table's ``names`` (bumped by a rename of a
    player, which bumps no game's version: ``history.services.rename_player``) and the engine's
    results version."""
    at = f"{game.pk}.{game.created.timestamp()}.{game.version}.{game.table.names}"
    return f"{FRAGMENTS}.{at}.{engine.RESULTS_VERSION}"


def board(game: Game, rules: Rules, standing: Mapping[str, Any] | None) -> dict[str, Any]:
    """Each player's total, the bar toward the target, who leads, who deals next, the winner, from
    the standing the writes stored with the last deal (None: no deal yet). The final tally of a
    finished game is the engine's conclusion from that standing (no deal is played)."""
    names = game.player_names()
    zeros = [0] * len(names)
    if standing:
        totals = dict(zip(names, standing.get("totals") or zeros, strict=False))
        side = dict(zip(names, standing.get("side") or zeros, strict=False))
        dealer = standing.get("dealer")
    else:
        totals, side = dict.fromkeys(names, 0), {}
        dealer = game.first_dealer if game.first_dealer is not None else 0
    next_dealer = names[dealer] if isinstance(dealer, int) and 0 <= dealer < len(names) else None
    finished = game.finished and bool(standing)
    result = engine.concluded(game, standing) if finished else None
    return _board(
        names,
        rules,
        totals=totals,
        side=side,
        next_dealer=next_dealer,
        finished=finished,
        winner=game.winner_name() if finished else None,
        final=final_table(result, names, rules.penalty),
    )


def board_of_result(game: Game, rules: Rules, result: GameResult | None) -> dict[str, Any]:
    """The board (``board``) from a scored game."""
    names = game.player_names()
    if result and result.deals:
        next_dealer = result.deals[-1].next_dealer
    else:
        fd = game.first_dealer if game.first_dealer is not None else 0
        next_dealer = names[fd] if fd < len(names) else None
    return _board(
        names,
        rules,
        totals=dict(result.totals) if result else dict.fromkeys(names, 0),
        side=dict(result.side) if result else {},
        next_dealer=next_dealer,
        finished=bool(result and result.state == "finished"),
        winner=result.winner if result else None,
        final=final_table(result, names, rules.penalty),
    )


def _board(
    names: list[str],
    rules: Rules,
    *,
    totals: dict[str, int],
    side: dict[str, int],
    next_dealer: str | None,
    finished: bool,
    winner: str | None,
    final: list[dict[str, Any]] | None,
) -> dict[str, Any]:
    target = rules.target
    reach = target + 1 if rules.target_strict else target
    best = (max if not rules.penalty else min)((totals.get(n, 0) for n in names), default=None)
    top = [n for n in names if totals.get(n, 0) == best]
    leader = top[0] if len(top) == 1 else None  # a shared top total: nobody leads (ruling)
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
    return {
        "rows": rows,
        "target": target,
        "strict": rules.target_strict,
        "penalty": rules.penalty,
        "reach": reach,
        "next_dealer": next_dealer,
        "leader": leader,
        "finished": finished,
        "winner": winner,
        "final": final,
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


# The deals the game page lists: the last ones. A save then renders a fixed number of rows, however
# long the game (issue 23: 300 deals took four times as long as 10); the review has every deal.
SHOWN = 10


def deal_ids(game: Game) -> dict[int, int]:
    """Deal number -> the deal's id (its stable address)."""
    return dict(game.deals.values_list("number", "pk"))


def deal_rows(game: Game, last: int | None = None) -> list[dict[str, Any]]:
    """The deal list (its ``last`` deals, or all) from the results the writes store (one query, no
    scoring): each deal's points and running totals per player, with the texts the template prints
    ready."""
    names = game.player_names()
    href = url_by_id("table:deal", game.pk)
    rows = []
    fields = ("pk", "number", "outcome", "multiplier", "dealer", "actor", "points", "totals")
    if last is None:
        stored = list(game.deals.order_by("number").values_list(*fields))
    else:
        stored = list(game.deals.order_by("-number").values_list(*fields)[:last])[::-1]
    for pk, number, outcome, multiplier, dealer, actor, points, totals in stored:
        rows.append(
            {
                "number": number,
                "id": pk,
                "href": href(pk),
                "outcome": outcome_text(outcome),
                "said": outcome_by(outcome, _seat_name(names, actor)),
                "multiplier": multiplier,
                "dealer": _seat_name(names, dealer),
                "actor": _seat_name(names, actor),
                "cells": [
                    {
                        "name": name,
                        "points": points[i] if i < len(points) else 0,
                        "total": totals[i] if i < len(totals) else 0,
                        "delta": signed_text(points[i] if i < len(points) else 0),
                        "run": str(totals[i] if i < len(totals) else 0),
                    }
                    for i, name in enumerate(names)
                ],
            }
        )
    return rows


def _seat_name(names: list[str], seat: int | None) -> str | None:
    return names[seat] if seat is not None and 0 <= seat < len(names) else None


def rows_of_result(game: Game, result: GameResult | None) -> list[dict[str, Any]]:
    """The deal list (``deal_rows``) from a scored game."""
    if result is None:
        return []
    names = list(result.players)
    ids = deal_ids(game)
    href = url_by_id("table:deal", game.pk)
    return [
        {
            "number": d.number,
            "id": ids.get(d.number),
            "href": href(ids[d.number]) if d.number in ids else "",
            "outcome": outcome_text(d.outcome),
            "said": outcome_by(d.outcome, d.actor),
            "multiplier": d.multiplier,
            "dealer": d.dealer,
            "actor": d.actor,
            "cells": [
                {
                    "name": n,
                    "points": d.players[n].points if n in d.players else 0,
                    "total": d.totals.get(n, 0),
                    "delta": signed_text(d.players[n].points if n in d.players else 0),
                    "run": str(d.totals.get(n, 0)),
                }
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
    """One deal of a scored game: how it ended, the notes the engine made, and every player's deal."""
    if result is None or not 1 <= number <= len(result.deals):
        return None
    return played_view(result.deals[number - 1], result.players, raw, last=number == len(result.deals))


def played_view(
    d: DealResult, players: Sequence[str], raw: Mapping[str, Any] | None = None, *, last: bool = True
) -> dict[str, Any]:
    """One deal as the engine played it (``deal_view``; the deal form's preview)."""
    return {
        "number": d.number,
        "outcome": outcome_text(d.outcome),
        "said": outcome_by(d.outcome, d.actor),  # "Ann went out": how it ended, by whom
        "multiplier": d.multiplier,
        "dealer": d.dealer,
        "next_dealer": d.next_dealer,
        "actor": d.actor,
        "upcard": raw.get("upcard") if isinstance(raw, Mapping) else None,
        "notes": list(d.notes),
        "players": [player_deal(n, d.players[n], d) for n in players if n in d.players],
        "totals": [d.totals.get(n, 0) for n in players],
        "last": last,
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
    then = [*stood, *[None] * len(result.columns)]  # each column as it stood after the deal (None: as it stands)
    columns = [_column_view(column, names, then[k]) for k, column in enumerate(result.columns)]
    return {
        "players": _players_across(columns, names),
        "columns": columns,
        "target": result.target,
        "number": number,
        "as_of": number if stood else None,  # the columns shown are those after this deal
        **_hand_in_columns(result, number),
        **_match(result, columns),
    }


def _players_across(columns: list[dict[str, Any]], names: list[str]) -> list[dict[str, Any]]:
    """Each player's cell in each column, and how many columns he won."""
    return [
        {"name": n, "cells": [c["cells"][i] for c in columns], "won": sum(1 for c in columns if c["winner"] == n)}
        for i, n in enumerate(names)
    ]


def _hand_in_columns(result: GameResult, number: int | None) -> dict[str, Any]:
    """The columns deal ``number``'s hand went in, and who won it (None: no such deal)."""
    deal = result.deals[number - 1] if number is not None and 1 <= number <= len(result.deals) else None
    if deal is None:
        return {"entered": None, "hand_winner": None}
    return {"entered": list(deal.columns), "hand_winner": deal.winner}


def _match(result: GameResult, columns: list[dict[str, Any]]) -> dict[str, Any]:
    """Whether the match is over (all three columns closed), and then its winner and final tally."""
    over = all(c["closed"] for c in columns)
    return {
        "finished": over,
        "winner": result.winner if over else None,
        "final": dict(result.final) if over and result.final is not None else None,
    }


def _column_then(
    column: ColumnResult, names: list[str], then: ColumnStanding | None
) -> tuple[dict[str, int], dict[str, int], str | None, int | None]:
    """A column's totals, boxes, winner and last deal: as the game stands, or after a deal (``then``)."""
    if then is None:
        return dict(column.totals), dict(column.boxes), column.winner, column.ended_on
    totals = dict(zip(names, then.totals, strict=True))
    boxes = dict(zip(names, then.boxes, strict=True))
    return totals, boxes, names[then.winner] if then.winner is not None else None, then.ended_on


def _column_view(column: ColumnResult, names: list[str], then: ColumnStanding | None = None) -> dict[str, Any]:
    """One of Hollywood's columns (``columns_view``): as the game stands, or as it stood after a
    deal (``then``: the column in the standing stored with that deal)."""
    totals, boxes, winner, ended_on = _column_then(column, names, then)
    closed = winner is not None
    final = dict(column.final or {}) if closed else {}  # a closed column takes no more hands
    final_lines = column.final_lines or {} if closed else {}
    cells = [
        {
            "name": n,
            "total": totals.get(n, 0),
            "boxes": boxes.get(n, 0),
            "won": n == winner,
            "final": final.get(n) if closed else None,
        }
        for n in names
    ]
    return {
        "number": column.number,
        "closed": closed,
        "ended_on": ended_on,
        "winner": winner,
        "cells": cells,
        "final": [{"name": n, "final": final.get(n, 0), "lines": list(final_lines.get(n, ()))} for n in names]
        if closed
        else [],
    }


def columns_text(numbers: Sequence[int]) -> str:
    """The columns a hand went in, in words: "column 1", "columns 1 and 2", "columns 1, 2 and 3"."""
    shown = [str(n) for n in numbers]
    if not shown:
        return gettext("no column")
    if len(shown) == 1:
        return gettext("column {number}").format(number=shown[0])
    return gettext("columns {numbers} and {last}").format(numbers=", ".join(shown[:-1]), last=shown[-1])
