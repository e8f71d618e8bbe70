"""Past games: queries for the history pages and the writes they make.

Reads: the games list, a game's review (every deal, score lines, chart), player statistics
across games (from ``GameSummary`` rows, a cache of per-deal scores, so a player page over
hundreds of games does a fixed number of queries and never re-scores a game it has seen),
and re-scoring a game under other rules, line by line, without saving anything.

Writes (keyword-only, atomic): switch a game to other rules, rename or merge a player,
import game records. Exports: a game or all games as RECORD.md records (JSON) or CSV.
Nothing here scores by itself: every score comes from the engine through ``scoring``.
"""

from __future__ import annotations

import copy
import csv
import hashlib
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Count, QuerySet
from django.db.models.functions import Lower

from scorekeeper import scoring, services
from scorekeeper.charts import running_totals_svg
from scorekeeper.models import Deal, DealChange, Game, GameSummary, Player, Seat
from scorekeeper.rules import profiles
from scorekeeper.rules.cards import CardError, parse_token
from scorekeeper.rules.errors import RecordError, RecordInvalid
from scorekeeper.rules.players import MAX_PLAYER_NAME
from scorekeeper.rules.record import FORMAT, parse_json
from scorekeeper.rules.results import GameResult, Line

SUMMARY_VERSION = "1"


# =============================================================================== the games list


def games_list(*, player: str = "", game: str = "", state: str = "") -> QuerySet[Game]:
    """Games newest first, optionally only those of a player (by name, any case), a game, a state."""
    qs = Game.objects.order_by("-created", "-id").select_related("summary").prefetch_related("seats__player")
    if player:
        qs = qs.filter(seats__player__name__iexact=player.strip())
    if game in profiles.GAMES:
        qs = qs.filter(game=game)
    if state in ("in_progress", "finished"):
        qs = qs.filter(state=state)
    return qs


def with_totals(games: Sequence[Game]) -> list[dict[str, Any]]:
    """Games of a list page with each player's current total (from the summaries)."""
    sums = summaries(games)
    out = []
    for g in games:
        s = sums.get(g.pk) or {}
        totals = s.get("final") or s.get("totals") or {}
        out.append({"game": g, "players": [(n, totals.get(n)) for n in _names(g)], "deals": len(s.get("deals", ()))})
    return out


def players_list() -> QuerySet[Player]:
    return Player.objects.annotate(games=Count("seats")).order_by(Lower("name"))


# ================================================================================== summaries


def _names(game: Game) -> list[str]:
    """Seat order; uses prefetched seats when present (no query per game)."""
    seats = sorted(game.seats.all(), key=lambda s: s.position)
    return [s.player.name for s in seats]


def summary_key(game: Game, names: Sequence[str]) -> str:
    raw = json.dumps(
        [
            SUMMARY_VERSION,
            game.updated.isoformat() if game.updated else "",
            game.game,
            game.profile,
            game.options or {},
            game.first_dealer,
            list(names),
        ],
        sort_keys=True,
    )
    return hashlib.sha256(raw.encode()).hexdigest()


def summarize(rules: profiles.Rules, result: GameResult) -> dict:
    """What the history pages need of a scored game, per deal: outcome, who went out/knocked,
    who undercut (the engine's hand winner), each player's points and totals after the deal."""
    deals = []
    for d in result.deals:
        under = d.winner if d.outcome == "undercut" else None
        deals.append(
            {
                "n": d.number,
                "o": d.outcome,
                "a": d.actor,
                "u": under,
                "p": {n: pd.points for n, pd in d.players.items()},
                "t": dict(d.totals),
            }
        )
    return {
        "players": list(result.players),
        "state": result.state,
        "winner": result.winner,
        "totals": dict(result.totals),
        "final": dict(result.final) if result.final is not None else None,
        "penalty": getattr(rules, "scoring", "winner") == "penalty",
        "target": rules.target,
        "deals": deals,
    }


def _summarize_game(game: Game, names: list[str], raw_deals: list[Any]) -> dict:
    record = services.game_record(game, raw_deals)
    record["players"] = names
    if game.first_dealer is not None and 0 <= game.first_dealer < len(names):
        record["first_dealer"] = names[game.first_dealer]
    rules = scoring.resolve(game.game, game.profile, game.options)
    try:
        result = scoring.score(record)
    except RecordInvalid as exc:
        return {
            "players": names,
            "state": game.state,
            "winner": game.winner or None,
            "totals": {},
            "final": None,
            "penalty": False,
            "target": rules.target,
            "deals": [],
            "errors": [str(e) for e in exc.errors],
        }
    return summarize(rules, result)


def summaries(games: Sequence[Game]) -> dict[int, dict]:
    """Each game's summary, computing and storing the missing or stale ones.

    Expects ``games`` fetched with ``prefetch_related("seats__player")`` and
    ``select_related("summary")``; then the number of queries does not grow with the games or
    deals: one query for the deals of every stale game, two writes.
    """
    out: dict[int, dict] = {}
    stale: list[tuple[Game, list[str], str]] = []
    for g in games:
        names = _names(g)
        key = summary_key(g, names)
        s = getattr(g, "summary", None) if _has_summary(g) else None
        if s is not None and s.key == key:
            out[g.pk] = s.data
        else:
            stale.append((g, names, key))
    if stale:
        raw: dict[int, list[Any]] = {g.pk: [] for g, _, _ in stale}
        for gid, data in (
            Deal.objects.filter(game_id__in=list(raw)).order_by("game_id", "number").values_list("game_id", "data")
        ):
            raw[gid].append(data)
        rows = []
        for g, names, key in stale:
            data = _summarize_game(g, names, raw[g.pk])
            out[g.pk] = data
            rows.append(GameSummary(game=g, key=key, data=data))
        # An upsert: two pages computing the same summary at once must not collide.
        GameSummary.objects.bulk_create(
            rows, update_conflicts=True, unique_fields=["game"], update_fields=["key", "data"]
        )
    return out


def _has_summary(game: Game) -> bool:
    try:
        game.summary  # noqa: B018
    except GameSummary.DoesNotExist:
        return False
    return True


# ===================================================================================== review

OUTCOMES = {
    "out": "went out",
    "stock_out": "stock ran out",
    "knock": "knock",
    "undercut": "undercut",
    "gin": "gin",
    "big_gin": "big gin",
    "void": "void hand",
}


def load_game(game_id: int) -> Game | None:
    return Game.objects.prefetch_related("seats__player").filter(pk=game_id).first()


def review(game: Game) -> dict[str, Any]:
    """Everything the review page shows: each deal with its cards and score lines, the totals
    table and the chart. Queries: the deals (1) and the change counts (1)."""
    names = _names(game)
    raw_deals = list(game.deals.order_by("number").values_list("data", flat=True))
    record = services.game_record(game, raw_deals)
    record["players"] = names
    if game.first_dealer is not None and 0 <= game.first_dealer < len(names):
        record["first_dealer"] = names[game.first_dealer]
    rules = scoring.resolve(game.game, game.profile, game.options)
    changes = dict(game.changes.values_list("number").annotate(n=Count("id")).order_by())
    try:
        result = scoring.cached_score(record)
    except RecordInvalid as exc:
        return {
            "game": game,
            "names": names,
            "rules": rules,
            "errors": [str(e) for e in exc.errors],
            "deals": [],
            "chart": None,
            "result": None,
            "changes": changes,
        }
    penalty = getattr(rules, "scoring", "winner") == "penalty"
    deals = []
    for d in result.deals:
        raw = raw_deals[d.number - 1] if d.number <= len(raw_deals) else {}
        players = []
        for name in result.players:
            pd = d.players.get(name)
            if pd is None:
                continue
            players.append(
                {
                    "name": name,
                    "points": pd.points,
                    "lines": pd.lines,
                    "melds": pd.melds,
                    "held": pd.held,
                    "deadwood": pd.deadwood,
                    "layoffs": pd.layoffs,
                    "deadwood_points": pd.deadwood_points,
                    "discard": pd.discard,
                    "side_points": pd.side_points,
                    "side_lines": pd.side_lines,
                    "before": d.totals_before.get(name, 0),
                    "after": d.totals.get(name, 0),
                }
            )
        deals.append(
            {
                "number": d.number,
                "outcome": OUTCOMES.get(d.outcome, d.outcome),
                "multiplier": d.multiplier,
                "dealer": d.dealer,
                "actor": d.actor,
                "upcard": raw.get("upcard") if isinstance(raw, Mapping) else None,
                "notes": d.notes,
                "players": players,
                "totals": [d.totals.get(n, 0) for n in names],
                "changes": changes.get(d.number, 0),
            }
        )
    chart = running_totals_svg(
        names,
        [d.totals for d in result.deals],
        target=rules.target,
        title=f"Running totals, game #{game.pk}",
        penalty=penalty,
        chart_id=f"chart-{game.pk}",
    )
    final = None
    if result.final is not None:
        final = [
            {
                "name": n,
                "total": result.totals.get(n, 0),
                "final": result.final.get(n, 0),
                "lines": (result.final_lines or {}).get(n, ()),
            }
            for n in names
        ]
    return {
        "game": game,
        "names": names,
        "rules": rules,
        "result": result,
        "deals": deals,
        "chart": chart,
        "errors": [],
        "final": final,
        "penalty": penalty,
        "changes": changes,
        "side": [result.side.get(n, 0) for n in names] if any(result.side.values()) else None,
    }


def change_history(game: Game) -> list[dict[str, Any]]:
    """Every change to the game's deals, newest first, with the old and new deal."""
    out = []
    for c in game.changes.order_by("-at", "-id"):
        out.append(
            {
                "number": c.number,
                "action": c.action,
                "at": c.at,
                "sides": [("before", _deal_cards(c.old)), ("after", _deal_cards(c.new))],
                "old_json": _dump(c.old),
                "new_json": _dump(c.new),
            }
        )
    return out


def _dump(data: Any) -> str:
    return "" if data is None else json.dumps(data, ensure_ascii=False)


def _label(token: Any) -> str:
    """A card as entered, printed with its suit symbol when it reads as a card ('QS' -> 'Q♠')."""
    try:
        return parse_token(str(token)).label
    except CardError:
        return str(token)


def _deal_cards(data: Any) -> list[dict[str, Any]]:
    """A deal dict shown per player: melds (lists of printed cards), held/deadwood/cards, as entered."""
    if not isinstance(data, Mapping) or not isinstance(data.get("hands"), Mapping):
        return []
    rows = []
    for name, hand in data["hands"].items():
        if not isinstance(hand, Mapping):
            continue
        parts = []
        for key in ("melds", "held", "deadwood", "cards"):
            value = hand.get(key)
            if key == "melds" and isinstance(value, list):
                parts.append(("melds", [[_label(c) for c in m] for m in value if isinstance(m, list)]))
            elif isinstance(value, list):
                parts.append((key, [[_label(c) for c in value]] if value else []))
        rows.append({"name": str(name), "parts": parts})
    extra = []
    for k in ("out", "knocker", "upcard", "first_turn", "concealed"):
        if k in data:
            v = data[k]
            extra.append(
                (k.replace("_", " "), _label(v) if k == "upcard" else (json.dumps(v) if not isinstance(v, str) else v))
            )
    return [{"name": "", "extra": extra, "parts": []}] + rows if extra else rows


# ================================================================================ player pages


@dataclass
class GameKindStats:
    game: str
    name: str
    games: int = 0
    won: int = 0
    finished: int = 0
    deals: int = 0
    points: int = 0
    out: int = 0  # Oklahoma: went out; Gin: gin or big gin
    knocks: int = 0
    undercuts_given: int = 0
    undercuts_suffered: int = 0
    best: dict[str, Any] | None = None
    worst: dict[str, Any] | None = None

    @property
    def average(self) -> float | None:
        return round(self.points / self.deals, 1) if self.deals else None


@dataclass
class PlayerStats:
    player: Player
    kinds: list[GameKindStats] = field(default_factory=list)
    opponents: list[dict[str, Any]] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)
    played: int = 0
    won: int = 0


def player_stats(player: Player) -> PlayerStats:
    """Games played and won, average points per deal, times out or gin, undercuts given and
    suffered, best and worst deal, head-to-head: from the summaries (a fixed number of queries).

    Points are what a deal added to the player's total; in penalty-scored games (party) a deal's
    penalty points count as negative for the average, best and worst (lower is better there)."""
    games = list(
        Game.objects.filter(seats__player=player)
        .select_related("summary")
        .prefetch_related("seats__player")
        .order_by("-created", "-id")
    )
    sums = summaries(games)
    me = player.name
    kinds = {g: GameKindStats(g, profiles.GAME_NAMES[g]) for g in profiles.GAMES}
    h2h: dict[str, dict[str, Any]] = {}
    stats = PlayerStats(player, games=games)
    for g in games:
        s = sums.get(g.pk) or {}
        k = kinds[g.game]
        k.games += 1
        stats.played += 1
        finished = s.get("state") == "finished"
        if finished:
            k.finished += 1
        if finished and s.get("winner") == me:
            k.won += 1
            stats.won += 1
        sign = -1 if s.get("penalty") else 1
        for d in s.get("deals", ()):
            pts = d["p"].get(me)
            if pts is None:
                continue
            if d["o"] == "void":
                continue
            k.deals += 1
            value = sign * pts
            k.points += value
            where = {"game": g.pk, "deal": d["n"], "points": pts, "value": value, "outcome": d["o"]}
            if k.best is None or value > k.best["value"]:
                k.best = where
            if k.worst is None or value < k.worst["value"]:
                k.worst = where
            if d.get("a") == me:
                if d["o"] in ("out", "gin", "big_gin"):
                    k.out += 1
                if d["o"] in ("knock", "undercut"):
                    k.knocks += 1
                if d["o"] == "undercut":
                    k.undercuts_suffered += 1
            if d["o"] == "undercut" and d.get("u") == me:
                k.undercuts_given += 1
        for opp in _names(g):
            if opp == me:
                continue
            row = h2h.setdefault(
                opp.casefold(), {"name": opp, "games": 0, "won": 0, "lost": 0, "other": 0, "player": None}
            )
            row["games"] += 1
            if finished:
                if s.get("winner") == me:
                    row["won"] += 1
                elif s.get("winner") == opp:
                    row["lost"] += 1
                else:
                    row["other"] += 1
            if row["player"] is None:
                row["player"] = next((x.player for x in g.seats.all() if x.player.name == opp), None)
    stats.kinds = [k for k in kinds.values() if k.games]
    stats.opponents = sorted(h2h.values(), key=lambda r: (-r["games"], r["name"].casefold()))
    return stats


# ============================================================================ rescore / compare


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


def parse_options(game: str, params: Mapping[str, str]) -> tuple[dict[str, Any], list[str]]:
    """House options from form fields ``o_<knob>``; blank means "as the rule set says"."""
    options: dict[str, Any] = {}
    problems: list[str] = []
    for k in profiles.knobs(game):
        raw = str(params.get(f"o_{k.name}", "") or "").strip()
        if not raw:
            continue
        if k.type is bool:
            if raw.lower() in ("true", "yes", "on", "1"):
                options[k.name] = True
            elif raw.lower() in ("false", "no", "off", "0"):
                options[k.name] = False
            else:
                problems.append(f"{k.label}: yes or no, not '{raw[:20]}'")
        elif k.type is int:
            try:
                options[k.name] = int(raw)
            except ValueError:
                problems.append(f"{k.label}: a whole number, not '{raw[:20]}'")
        else:
            options[k.name] = raw[:40]
    return options, problems


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
    t = profiles.PROFILES[rules.game][rules.profile].title
    if rules.overridden:
        opts = ", ".join(
            f"{profiles.knob(rules.game, n).label.lower()} {rules.values[n]}" for n in sorted(rules.overridden)
        )
        t += f" with {opts}"
    return t


def compare(
    game: Game, *, profile: str, options: Mapping[str, Any] | None = None, number: int | None = None
) -> Comparison:
    """Score the saved game under its own rules and under ``profile``/``options``, side by side
    (one deal when ``number`` is given). Nothing is saved. When a deal is invalid under the other
    rules (or comes after the game would have ended), the comparison stops before it and says so."""
    names = _names(game)
    raw = list(game.deals.order_by("number").values_list("data", flat=True))
    current_rules = scoring.resolve(game.game, game.profile, game.options)
    cmp = Comparison(game, current_rules, None)
    try:
        other_rules = profiles.resolve(game.game, profile, dict(options or {}))
    except RecordInvalid as exc:
        cmp.errors = [e.message for e in exc.errors]
        return cmp
    cmp.other = other_rules
    record = services.game_record(game, raw)
    record["players"] = names
    if game.first_dealer is not None and 0 <= game.first_dealer < len(names):
        record["first_dealer"] = names[game.first_dealer]
    try:
        cur = scoring.cached_score(record)
    except RecordInvalid as exc:
        cmp.errors = [str(e) for e in exc.errors]
        return cmp
    alt_record = dict(record, rules={"profile": profile, "options": other_rules.options()})
    try:
        alt = scoring.cached_score(alt_record)
    except RecordInvalid as exc:
        bad = [e.deal for e in exc.errors if e.deal]
        if not bad:
            cmp.errors = [str(e) for e in exc.errors]
            return cmp
        first = min(bad)
        cmp.errors = [str(e) for e in exc.errors if e.deal == first]
        try:
            alt = scoring.cached_score(dict(alt_record, deals=raw[: first - 1]))
        except RecordInvalid as exc2:
            cmp.errors = [str(e) for e in exc2.errors]
            return cmp
        if alt.state == "finished":
            cmp.note = (
                f"Under {_title(other_rules)} the game would have ended with deal {len(alt.deals)}: {alt.winner} wins."
            )
        else:
            cmp.note = f"Under {_title(other_rules)} deal {first} is not valid; the comparison stops before it."
    cmp.current_winner, cmp.other_winner, cmp.other_state = cur.winner, alt.winner, alt.state
    numbers = [number] if number else [d.number for d in cur.deals]
    other_name = _title(other_rules)
    for n in numbers:
        if not 1 <= n <= len(cur.deals):
            continue
        d1 = cur.deals[n - 1]
        d2 = alt.deals[n - 1] if n <= len(alt.deals) else None
        players = []
        for name in names:
            p1 = d1.players.get(name)
            p2 = d2.players.get(name) if d2 else None
            if p1 is None:
                continue
            pairs = _pair_lines(p1.lines, p2.lines if p2 else ())
            diff = (p2.points - p1.points) if p2 else None
            players.append(
                {
                    "name": name,
                    "points": p1.points,
                    "other": p2.points if p2 else None,
                    "diff": diff,
                    "pairs": pairs,
                    "total": d1.totals.get(name, 0),
                    "other_total": d2.totals.get(name, 0) if d2 else None,
                }
            )
            if p2 and diff:
                cmp.sentences.append(
                    _sentence(
                        other_name,
                        name,
                        n,
                        p1.points,
                        p2.points,
                        getattr(current_rules, "scoring", "winner") == "penalty",
                    )
                )
        cmp.rows.append(
            {
                "number": n,
                "outcome": OUTCOMES.get(d1.outcome, d1.outcome),
                "other_outcome": OUTCOMES.get(d2.outcome, d2.outcome) if d2 else None,
                "multiplier": d1.multiplier,
                "other_multiplier": d2.multiplier if d2 else None,
                "players": players,
            }
        )
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
    return cmp


def _sentence(other: str, name: str, number: int, cur: int, alt: int, penalty: bool) -> str:
    def words(p: int) -> str:
        if penalty:
            return f"taken {p} penalty points" if p else "taken no penalty points"
        if p < 0:
            return f"lost {-p}"
        return f"scored {p}" if p else "scored nothing"

    now = words(cur).split(" ", 1)[1] if words(cur).split(" ", 1)[0] == words(alt).split(" ", 1)[0] else words(cur)
    return f"Deal {number}: under {other} {name} would have {words(alt)}, not {now}."


@transaction.atomic
def switch_rules(*, game: Game, profile: str, options: Mapping[str, Any] | None = None) -> Game:
    """The table switches the game to other rules: every deal must be valid under them (else
    RecordInvalid and nothing changes); the game's rules, target, state and winner are updated."""
    game = Game.objects.select_for_update().get(pk=game.pk)
    rules = profiles.resolve(game.game, profile, dict(options or {}))
    record = services.game_record(game)
    record["rules"] = {"profile": profile, "options": rules.options()}
    result = scoring.score(record)
    game.profile = profile
    game.options = rules.options()
    game.target = rules.target
    game.state = result.state
    game.winner = result.winner or ""
    game.save(update_fields=["profile", "options", "target", "state", "winner", "updated"])
    return game


# ========================================================================= rename and merge


def rename_in_deal(data: Any, old: str, new: str) -> Any:
    """A deal dict with player ``old`` called ``new`` (hand keys, 'out', 'knocker')."""
    if not isinstance(data, dict):
        return data
    out = copy.deepcopy(data)
    if isinstance(out.get("hands"), dict):
        out["hands"] = {(new if k == old else k): v for k, v in out["hands"].items()}
    for key in ("out", "knocker"):
        if out.get(key) == old:
            out[key] = new
    return out


def _check_name(name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise RecordInvalid([RecordError("a player's name is empty", rule="players")])
    if len(name) > MAX_PLAYER_NAME:
        raise RecordInvalid([RecordError(f"a name has at most {MAX_PLAYER_NAME} characters", rule="players")])
    return name


def _rename_deals(player: Player, old: str, new: str) -> None:
    deals = list(Deal.objects.filter(game__seats__player=player))
    for d in deals:
        d.data = rename_in_deal(d.data, old, new)
    Deal.objects.bulk_update(deals, ["data"], batch_size=500)
    GameSummary.objects.filter(game__seats__player=player).delete()


@transaction.atomic
def rename_player(*, player: Player, name: str) -> Player:
    """Rename a player everywhere (the player, and the name inside every saved deal)."""
    name = _check_name(name)
    player = Player.objects.select_for_update().get(pk=player.pk)
    clash = Player.objects.filter(name__iexact=name).exclude(pk=player.pk).first()
    if clash is not None:
        raise RecordInvalid([RecordError(f"'{clash.name}' is another player: merge the two instead", rule="players")])
    old = player.name
    if old == name:
        return player
    _rename_deals(player, old, name)
    player.name = name
    player.save(update_fields=["name"])
    return player


@transaction.atomic
def merge_players(*, source: Player, into: Player) -> Player:
    """Merge ``source`` into ``into``: every game of ``source`` becomes ``into``'s. Refused when
    both sat at the same game (a game's players are distinct people)."""
    if source.pk == into.pk:
        raise RecordInvalid([RecordError("a player cannot be merged into himself", rule="players")])
    source = Player.objects.select_for_update().get(pk=source.pk)
    into = Player.objects.select_for_update().get(pk=into.pk)
    shared = Game.objects.filter(seats__player=source).filter(seats__player=into).values_list("pk", flat=True)
    if shared:
        ids = ", ".join(f"#{pk}" for pk in sorted(shared)[:10])
        raise RecordInvalid(
            [
                RecordError(
                    f"{source.name} and {into.name} played together in game {ids}: they are two people", rule="players"
                )
            ]
        )
    _rename_deals(source, source.name, into.name)
    Seat.objects.filter(player=source).update(player=into)
    source.delete()
    return into


# ================================================================================ export


def export_record(game: Game) -> dict[str, Any]:
    return services.game_record(game)


def export_records(games: Iterable[Game]) -> list[dict[str, Any]]:
    """Many games as records, with a fixed number of queries (prefetch seats and deals)."""
    games = list(
        Game.objects.filter(pk__in=[g.pk for g in games]).order_by("created", "id").prefetch_related("seats__player")
    )
    raw: dict[int, list[Any]] = {g.pk: [] for g in games}
    for gid, data in (
        Deal.objects.filter(game_id__in=list(raw)).order_by("game_id", "number").values_list("game_id", "data")
    ):
        raw[gid].append(data)
    out = []
    for g in games:
        names = _names(g)
        rec: dict[str, Any] = {
            "format": FORMAT,
            "game": g.game,
            "rules": {"profile": g.profile, "options": dict(g.options or {})},
            "players": names,
            "deals": raw[g.pk],
        }
        if g.first_dealer is not None and 0 <= g.first_dealer < len(names):
            rec["first_dealer"] = names[g.first_dealer]
        out.append(rec)
    return out


CSV_COLUMNS = (
    "game_id",
    "game",
    "profile",
    "options",
    "deal",
    "outcome",
    "player",
    "seat",
    "points",
    "total",
    "state",
    "winner",
)


def export_csv(games: Iterable[Game]) -> str:
    """One row per player per deal, with the deal's points and the running total after it."""
    games = list(
        Game.objects.filter(pk__in=[g.pk for g in games])
        .order_by("created", "id")
        .select_related("summary")
        .prefetch_related("seats__player")
    )
    sums = summaries(games)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for g in games:
        s = sums[g.pk]
        names = _names(g)
        opts = json.dumps(g.options or {}, sort_keys=True) if g.options else ""
        for d in s.get("deals", ()):
            for seat, name in enumerate(names, start=1):
                w.writerow(
                    [
                        g.pk,
                        g.game,
                        g.profile,
                        opts,
                        d["n"],
                        d["o"],
                        _csv_safe(name),
                        seat,
                        d["p"].get(name, 0),
                        d["t"].get(name, 0),
                        s.get("state", g.state),
                        _csv_safe(s.get("winner") or ""),
                    ]
                )
    return buf.getvalue()


def _csv_safe(text: str) -> str:
    """Keep a spreadsheet from reading a name as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


# ================================================================================ import


@dataclass
class ImportReport:
    games: list[Game] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)  # {"record": i, "errors": [RecordError dicts]}

    @property
    def ok(self) -> bool:
        return not self.errors


def read_records(text: str | bytes) -> list[Any]:
    """A file holds one record (an object) or many (a list of objects)."""
    try:
        data = parse_json(text)
    except RecursionError:
        raise RecordInvalid([RecordError("not valid JSON: nested too deeply", rule="format")]) from None
    if isinstance(data, list):
        if not data:
            raise RecordInvalid([RecordError("the file holds an empty list: no game to import", rule="format")])
        return data
    return [data]


def _player_for(name: str, cache: dict[str, Player]) -> Player:
    key = name.casefold()
    if key not in cache:
        cache[key] = Player.objects.create(name=name)
    return cache[key]


def import_records(*, records: Sequence[Any]) -> ImportReport:
    """Import game records: each is re-scored by the engine first. When any record is invalid
    nothing at all is saved and the report lists every error of every record."""
    report = ImportReport()
    checked = []
    for i, rec in enumerate(records, start=1):
        try:
            result = scoring.score(rec)
        except RecordInvalid as exc:
            report.errors.append({"record": i, "errors": [e.as_dict() for e in exc.errors]})
            continue
        checked.append((rec, result))
    if report.errors:
        return report
    with transaction.atomic():
        names = {n.casefold() for rec, _ in checked for n in rec["players"]}
        cache = {p.name.casefold(): p for p in Player.objects.annotate(n=Lower("name")).filter(n__in=names)}
        for rec, result in checked:
            report.games.append(_create(rec, result, cache))
    return report


def _create(rec: Mapping[str, Any], result: GameResult, cache: dict[str, Player]) -> Game:
    opts = rec["rules"].get("options") or {}
    rules = profiles.resolve(rec["game"], rec["rules"]["profile"], opts)
    players = list(rec["players"])
    # A known player keeps his stored spelling: rename the record's names to it.
    deals = [copy.deepcopy(d) for d in rec["deals"]]
    spelled = []
    for name in players:
        p = _player_for(name, cache)
        if p.name != name:
            deals = [rename_in_deal(d, name, p.name) for d in deals]
        spelled.append(p)
    first = rec.get("first_dealer")
    game = Game.objects.create(
        game=rec["game"],
        profile=rec["rules"]["profile"],
        options=rules.options(),
        target=rules.target,
        first_dealer=players.index(first) if first in players else None,
        state=result.state,
        winner=result.winner or "",
    )
    if any(p.name != n for p, n in zip(spelled, players, strict=True)):
        winner = next((p.name for p, n in zip(spelled, players, strict=True) if n == result.winner), result.winner)
        game.winner = winner or ""
        game.save(update_fields=["winner"])
    Seat.objects.bulk_create([Seat(game=game, player=p, position=i) for i, p in enumerate(spelled)])
    rows = Deal.objects.bulk_create([Deal(game=game, number=n, data=d) for n, d in enumerate(deals, start=1)])
    DealChange.objects.bulk_create(
        [DealChange(game=game, deal=row, number=row.number, action=DealChange.CREATED, new=row.data) for row in rows]
    )
    if [p.name for p in spelled] == players:  # the scores are known: store the summary now
        GameSummary.objects.create(game=game, key=summary_key(game, players), data=summarize(rules, result))
    return game


def import_text(text: str | bytes) -> ImportReport:
    try:
        records = read_records(text)
    except RecordInvalid as exc:
        return ImportReport(errors=[{"record": None, "errors": [e.as_dict() for e in exc.errors]}])
    return import_records(records=records)
