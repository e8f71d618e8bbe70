"""Re-scoring a game under other rules, side by side, line by line. Nothing is saved: switching
the game to the other rules is a write (``table.services.switch_rules``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext

from scorekeeper.rules import profiles
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.results import DealResult, GameResult, Line, PlayerDeal
from scorekeeper.table.models import Game
from scorekeeper.table.scoring import engine
from scorekeeper.table.text import options_text, outcome_text, profile_title


@dataclass
class Comparison:
    game: Game
    current: profiles.Rules
    other: profiles.Rules | None
    rows: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    note: str = ""
    totals: list[dict[str, Any]] = field(default_factory=list)
    current_winner: str | None = None
    other_winner: str | None = None
    other_state: str = ""
    sentences: list[str] = field(default_factory=list)
    current_result: GameResult | None = None  # the game as scored now (Hollywood: its columns)
    other_result: GameResult | None = None  # the game scored under the other rules
    switchable: bool = False  # the other rules take every deal: the table may switch the game to them


def _pair_lines(a: Sequence[Line], b: Sequence[Line]) -> list[tuple[Line | None, Line | None]]:
    """Pair two score explanations line by line: same rule in order, the rest on their own."""
    used = [False] * len(b)
    pairs: list[tuple[Line | None, Line | None]] = []
    for x in a:
        j = next((j for j, y in enumerate(b) if not used[j] and y.rule == x.rule), None)
        if j is None:
            pairs.append((x, None))
        else:
            used[j] = True
            pairs.append((x, b[j]))
    pairs.extend((None, y) for j, y in enumerate(b) if not used[j])
    return pairs


def _title(rules: profiles.Rules) -> str:
    """The rule set's title with its house options, in the request's language."""
    t = profile_title(rules.game, rules.profile)
    if rules.overridden:
        opts = options_text(rules.game, {n: rules.values[n] for n in rules.overridden})
        t = gettext("{rules} with {options}").format(rules=t, options=opts)
    return t


def compare(
    game: Game, *, profile: str, options: Mapping[str, Any] | None = None, number: int | None = None
) -> Comparison:
    """Score the saved game under its own rules and under ``profile``/``options``, side by side
    (one deal when ``number`` is given). Nothing is saved. When a deal is invalid under the other
    rules (or comes after the game would have ended), the comparison stops before it and says so."""
    current_rules, _ = engine.rules_of(game)
    cmp = Comparison(game, current_rules, None)
    try:
        other_rules = profiles.resolve(game.kind, profile, dict(options or {}))
    except RecordInvalid as exc:
        cmp.errors = [str(e.message) for e in exc.errors]
        return cmp
    cmp.other = other_rules
    record = dict(engine.game_record(game), rules={"profile": profile, "options": other_rules.options()})
    other = (other_rules.profile, other_rules.options()) != (current_rules.profile, current_rules.options())
    try:
        cur = engine.game_result(game)
    except RecordInvalid as exc:  # today's rules refuse the game: a switch to rules that take it mends it
        cmp.errors = [str(e) for e in exc.errors]
        try:
            cmp.other_result = engine.score(record)
        except RecordInvalid:
            return cmp
        cmp.switchable = other
        return cmp
    alt = _score_other(cmp, record)
    if alt is not None:
        _side_by_side(cmp, cur, alt, game.player_names(), number)
        cmp.switchable = other and not cmp.errors
    return cmp


def _side_by_side(cmp: Comparison, cur: GameResult, alt: GameResult, names: list[str], number: int | None) -> None:
    """Both results on ``cmp``: the winners, a row for each deal (deal ``number``'s alone when given;
    its other side blank past the other rules' last deal), and each player's final totals."""
    cmp.current_winner, cmp.other_winner, cmp.other_state = cur.winner, alt.winner, alt.state
    cmp.current_result, cmp.other_result = cur, alt
    for n in [number] if number else [d.number for d in cur.deals]:
        if 1 <= n <= len(cur.deals):
            other = alt.deals[n - 1] if n <= len(alt.deals) else None
            cmp.rows.append(_deal_row(cmp, names, cur.deals[n - 1], other))
    final_cur = cur.final or cur.totals
    final_alt = alt.final or alt.totals
    cmp.totals = [
        {
            "name": n,
            "current": final_cur.get(n, 0),
            "other": final_alt.get(n, 0),
            "diff": final_alt.get(n, 0) - final_cur.get(n, 0),
        }
        for n in names
    ]


def _score_other(cmp: Comparison, record: dict[str, Any]) -> GameResult | None:
    """The record scored under the other rules; up to the first deal they refuse, with a note
    saying so (or that the game would have ended before it). None: nothing to compare (the
    errors are on ``cmp``)."""
    assert cmp.other is not None
    try:
        return engine.score(record)
    except RecordInvalid as exc:
        first, cmp.errors = _refused(exc)
    if first is None:
        return None
    try:
        alt = engine.score(dict(record, deals=record["deals"][: first - 1]))
    except RecordInvalid as exc:
        cmp.errors = [str(e) for e in exc.errors]
        return None
    cmp.note = _stop_note(cmp.other, alt, first)
    return alt


def _refused(exc: RecordInvalid) -> tuple[int | None, list[str]]:
    """The first deal the other rules refuse (None: they refuse the record as a whole) and the
    errors to show: that deal's, or every error."""
    bad = [e.deal for e in exc.errors if e.deal]
    first = min(bad) if bad else None
    return first, [str(e) for e in exc.errors if first is None or e.deal == first]


def _stop_note(other: profiles.Rules, alt: GameResult, first: int) -> str:
    """Why the comparison stops before deal ``first``: under the other rules the game (``alt``, the
    deals before it) would have ended, or the deal is not valid."""
    if alt.state == "finished":
        return gettext("Under {rules} the game would have ended with deal {n}: {winner} wins.").format(
            rules=_title(other), n=len(alt.deals), winner=alt.winner
        )
    return gettext("Under {rules} deal {n} is not valid; the comparison stops before it.").format(
        rules=_title(other), n=first
    )


def _deal_row(cmp: Comparison, names: list[str], d1: DealResult, d2: DealResult | None) -> dict[str, Any]:
    """One deal under both rule sets, player by player and line by line; a sentence for each player
    whose points differ."""
    assert cmp.other is not None
    players = []
    for name in names:
        p1 = d1.players.get(name)
        if p1 is None:
            continue
        p2 = d2.players.get(name) if d2 else None
        players.append(_player_row(name, p1, p2, d1, d2))
        if p2 and p2.points != p1.points:
            cmp.sentences.append(
                _sentence(_title(cmp.other), name, d1.number, p1.points, p2.points, cmp.current.penalty)
            )
    return {
        "number": d1.number,
        "outcome": outcome_text(d1.outcome),
        "other_outcome": outcome_text(d2.outcome) if d2 else None,
        "multiplier": d1.multiplier,
        "other_multiplier": d2.multiplier if d2 else None,
        "players": players,
    }


def _player_row(
    name: str, p1: PlayerDeal, p2: PlayerDeal | None, d1: DealResult, d2: DealResult | None
) -> dict[str, Any]:
    """A player's points in one deal under both rule sets, line by line (``p2``, ``d2``: None where
    the other rules have no such deal or player)."""
    return {
        "name": name,
        "points": p1.points,
        "other": p2.points if p2 else None,
        "diff": (p2.points - p1.points) if p2 else None,
        "pairs": _pair_lines(p1.lines, p2.lines if p2 else ()),
        "total": d1.totals.get(name, 0),
        "other_total": d2.totals.get(name, 0) if d2 else None,
    }


def _sentence(other: str, name: str, number: int, cur: int, alt: int, penalty: bool) -> str:
    """ "Deal 3: under Book rules Ann would have scored 40, not 20." The second figure drops its verb
    when both have the same ("scored 40, not 20"; "lost 10, not scored 20")."""

    def words(p: int) -> tuple[str, str, str]:
        """(the verb, the full phrase, the phrase without its verb)"""
        if penalty:
            if p:
                return (
                    "taken",
                    gettext("taken {p} penalty points").format(p=p),
                    gettext("{p} penalty points").format(p=p),
                )
            return "taken", gettext("taken no penalty points"), gettext("no penalty points")
        if p < 0:
            return "lost", gettext("lost {p}").format(p=-p), str(-p)
        if p:
            return "scored", gettext("scored {p}").format(p=p), str(p)
        return "scored", gettext("scored nothing"), gettext("nothing")

    (verb, full, _), (alt_verb, alt_full, _) = words(cur), words(alt)
    now = words(cur)[2] if verb == alt_verb else full
    return gettext("Deal {number}: under {rules} {name} would have {alt}, not {now}.").format(
        number=number, rules=other, name=name, alt=alt_full, now=now
    )
