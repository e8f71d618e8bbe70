"""THE presenter of the engine's results for the templates: the board, the deal list, one deal,
one player's deal (with its score lines). Every page that shows a deal or its lines gets them
from here, so they read the same everywhere."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

from django.db.models import QuerySet
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext

from scorekeeper.rules.errors import RecordError
from scorekeeper.rules.messages import outcome_by
from scorekeeper.rules.profiles import Rules
from scorekeeper.rules.results import ColumnResult, ColumnStanding, DealResult, GameResult, PlayerDeal, Standing
from scorekeeper.table.access import with_players
from scorekeeper.table.models import Deal, Game
from scorekeeper.table.pages import url_by_id
from scorekeeper.table.scoring import engine
from scorekeeper.table.text import error_text, outcome_text, signed_text


class Refused:
    """What today's rules refuse of a game whose stored results an earlier version of the engine
    wrote (``refresh_results`` could not score it again, so it left them as they were): the game
    keeps those results, and each refusal is said where it applies — a deal's beside the deal (its
    row, its page, its part of the review), and every one at the top of the game's pages, with what
    scores it again: an edit of the deal, or a switch to rules that take the game."""

    def __init__(self, errors: Sequence[RecordError] = ()) -> None:
        self.game = [e for e in errors if e.deal is None]  # its rules or its players
        self.deals: dict[int, list[RecordError]] = {}
        for e in errors:
            if e.deal is not None:
                self.deals.setdefault(e.deal, []).append(e)

    def __bool__(self) -> bool:
        return bool(self.game or self.deals)

    def flag(self, number: int) -> str | None:
        """Deal ``number``'s refusal as the deal shows it (None: today's rules take it)."""
        if number not in self.deals:
            return None
        return gettext("refused by today's rules: {reason}; edit it to score it again").format(
            reason=_reasons(self.deals[number])
        )

    def lines(self) -> list[str]:
        """Every refusal, for the top of the game's pages, then what the scores shown are."""
        if not self:
            return []
        said = [
            gettext("refused by today's rules: {reason}; switch the game to other rules to score it again").format(
                reason=_reasons([e])
            )
            for e in self.game
        ]
        said += [
            gettext("deal {number} is refused by today's rules: {reason}; edit it to score it again").format(
                number=number, reason=_reasons(errors)
            )
            for number, errors in sorted(self.deals.items())
        ]
        said.append(gettext("The scores shown are those an earlier version of the score keeper stored."))
        return said


def _reasons(errors: Sequence[RecordError]) -> str:
    """An engine's refusals in a sentence: each with the player it concerns, its rule and source."""
    return "; ".join((f"{e.player}: " if e.player else "") + error_text(e) for e in errors)


class GamePage:
    """The game page's board and deal list from what the writes store: no deal is scored. Each
    part is read when first used, so a part the template takes from a fragment cached by the
    game's version (``version_key``) costs nothing. A game whose stored results come from another
    version of the engine (or none) is scored from its record instead; one that today's rules
    refuse shows the results stored then, each refusal said (``Refused``; ``errors``)."""

    def __init__(self, game: Game, rules: Rules) -> None:
        self.game = game  # its players are loaded when a part needs them
        self.rules = rules
        self.stored = game.scored_with == engine.RESULTS_VERSION
        self.errors: list[str] = []
        self.result: GameResult | None = None
        self.refused = Refused()
        if not self.stored:
            self.result, errors = engine.result_or_errors(with_players(game))
            self.refused = Refused(errors)
            self.errors = self.refused.lines()

    @cached_property
    def last(self) -> tuple[int, dict[str, Any] | None]:
        """The last deal's number and the standing stored with it: (0, None) before the first deal."""
        row = self.game.deals.order_by("-number").values_list("number", "standing").first()
        return row if row is not None else (0, None)

    @cached_property
    def now(self) -> GameResult | None:
        """Where the game stands — totals, state, winner, final tally, Hollywood's columns: from the
        standing stored with the last deal (``engine.concluded``, without its deals: none is played),
        or the game's whole result when it was stored by another version of the engine (None when
        today's rules refuse it)."""
        with_players(self.game)
        if self.stored:
            return engine.concluded(self.game, self.last[1])
        return self.result

    @cached_property
    def board(self) -> dict[str, Any]:
        with_players(self.game)
        if self.stored:
            return board(self.game, self.rules, self.last[1])
        if self.refused:
            return refused_board(self.game, self.rules)
        return board_of_result(self.game, self.rules, self.result)

    @cached_property
    def deals(self) -> list[dict[str, Any]]:
        """The last ``SHOWN`` deals (the review has them all): the page does not grow with the game."""
        with_players(self.game)
        if self.stored or self.refused:
            return deal_rows(self.game, last=SHOWN, refused=self.refused)
        return rows_of_result(self.game, self.result)[-SHOWN:]

    @cached_property
    def count(self) -> int:
        if self.stored or self.refused:
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


def refused_board(game: Game, rules: Rules) -> dict[str, Any]:
    """The board of a game today's rules refuse (``Refused``), from what an earlier version stored:
    the running totals stored with its last scored deal, who deals next by the standing stored with
    it, the game's state and winner. No final tally (only the engine makes one); ``unscored`` when
    no deal holds a stored result (a game of the release before results were stored)."""
    names = game.player_names()
    row = game.deals.exclude(outcome="").order_by("-number").values_list("totals", "standing").first()
    totals, standing = row if row is not None else ([], {})
    dealer = (standing or {}).get("dealer")
    winner = game.winner_name() if game.finished else ""
    return {
        **_board(
            names,
            rules,
            totals=dict(zip(names, totals or [0] * len(names), strict=False)),
            side=dict(zip(names, (standing or {}).get("side") or [], strict=False)),
            next_dealer=names[dealer] if isinstance(dealer, int) and 0 <= dealer < len(names) else None,
            finished=bool(winner),
            winner=winner or None,
            final=None,
        ),
        "unscored": not totals,
    }


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
    shown = column_names(names)
    rows = [
        {
            "name": name,
            "column": shown[i],
            "total": totals.get(name, 0),
            "side": side.get(name, 0),
            "progress": max(0, min(totals.get(name, 0), target)),
            "to_go": max(0, reach - totals.get(name, 0)),
            "leader": name == leader,
            "next_dealer": name == next_dealer,
        }
        for i, name in enumerate(names)
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


# The longest name a column of the deals table shows whole, by the number of players: five columns
# fit a 360 px phone with names of 6 letters, four with 8 (tests/browser/test_many_players.py).
COLUMN_NAME = {4: 8, 5: 6}


def column_names(names: list[str]) -> list[str]:
    """Each player's name over his column of the deals table: whole, or with four or five players a
    longer one cut short ("Annab."), each still told apart from the others (a longer start where two
    begin alike). The board above shows every name whole, in the same order."""
    longest = COLUMN_NAME.get(len(names))
    if longest is None:
        return list(names)

    def cut(name: str, keep: int) -> str:
        return name if len(name) <= max(keep, longest) else name[:keep].rstrip() + "."

    keep = [longest - 1] * len(names)
    shown = [cut(n, k) for n, k in zip(names, keep, strict=True)]
    while len(set(shown)) < len(shown):
        alike = {s for s in shown if shown.count(s) > 1}
        keep = [k + 1 if s in alike else k for s, k in zip(shown, keep, strict=True)]
        shown = [cut(n, k) for n, k in zip(names, keep, strict=True)]
    return shown


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


def deal_rows(game: Game, last: int | None = None, refused: Refused | None = None) -> list[dict[str, Any]]:
    """The deal list (its ``last`` deals, or all) from the results the writes store (one query, no
    scoring): each deal's points and running totals per player, with the texts the template prints
    ready; a deal today's rules refuse (``refused``) flagged, one without a stored result (stored
    by the release before results were) shown as not scored."""
    if last is None:
        return stored_rows(game, game.deals.order_by("number"), refused)
    return stored_rows(game, game.deals.order_by("-number")[:last], refused)[::-1]


def stored_rows(game: Game, deals: QuerySet[Deal], refused: Refused | None = None) -> list[dict[str, Any]]:
    """These deals of the game as ``deal_rows`` shows them, in the queryset's order (one query)."""
    names = game.player_names()
    href = url_by_id("table:deal", game.pk)
    fields = ("pk", "number", "outcome", "multiplier", "dealer", "actor", "points", "totals")
    return [
        {
            "number": number,
            "id": pk,
            "href": href(pk),
            "outcome": outcome_text(outcome) if outcome else gettext("not scored"),
            "said": outcome_by(outcome, _seat_name(names, actor)) if outcome else gettext("not scored"),
            "multiplier": multiplier,
            "dealer": _seat_name(names, dealer),
            "actor": _seat_name(names, actor),
            "refused": refused.flag(number) if refused else None,
            "cells": _cells(names, points, totals, scored=bool(outcome)),
        }
        for pk, number, outcome, multiplier, dealer, actor, points, totals in deals.values_list(*fields)
    ]


def _cells(names: list[str], points: list[int], totals: list[int], *, scored: bool) -> list[dict[str, Any]]:
    """A stored deal's points and running total for each player (a dash each when it holds none)."""
    cells = []
    for i, name in enumerate(names):
        got, total = (points[i] if i < len(points) else 0), (totals[i] if i < len(totals) else 0)
        shown = (signed_text(got), str(total)) if scored else ("–", "–")
        cells.append({"name": name, "points": got, "total": total, "delta": shown[0], "run": shown[1]})
    return cells


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
            "refused": None,
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
