"""The game record of RECORD.md: load and check it, score it, and render the result JSON."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from . import games, profiles
from .errors import RecordError, RecordInvalid
from .messages import Msg, msg
from .players import first_dealer_errors, is_name_list, player_count_errors, player_errors
from .profiles import GIN, OKLAHOMA, Rules
from .results import DealResult, GameResult, Line, PlayerDeal

FORMAT = "oklahoma-scorekeeper/1"
TOP_KEYS = ("format", "game", "rules", "players", "deals", "first_dealer")
REQUIRED_KEYS = ("format", "game", "rules", "players", "deals")
RULES_KEYS = ("profile", "options")


HALF_CHARACTER: Msg = msg("not valid JSON: a string holds half a character (a lone \\ud800-\\udfff escape)")
HUGE_NUMBER: Msg = msg("not a game record: a number in it has more than 4,300 digits")


def check_text(data: Any) -> None:
    """Raise RecordInvalid when parsed JSON holds a lone surrogate ("\\ud800" alone: half a character,
    no text to render or store)."""
    try:
        json.dumps(data, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        raise RecordInvalid([RecordError(HALF_CHARACTER, rule="format", source="RECORD.md")]) from None


def parse_json(text: str | bytes) -> Any:
    """Parse JSON text; a syntax error becomes a RecordInvalid with the line and column."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordInvalid(
            [
                RecordError(
                    msg(
                        "not valid JSON: {problem} at line {line}, column {column}",
                        problem=exc.msg,
                        line=exc.lineno,
                        column=exc.colno,
                    ),
                    rule="format",
                    source="RECORD.md",
                )
            ]
        ) from None
    except UnicodeDecodeError:
        raise RecordInvalid(
            [RecordError(msg("not valid JSON: the file is not UTF-8 text"), rule="format", source="RECORD.md")]
        ) from None
    except ValueError:  # Python reads integers of at most 4,300 digits (sys.get_int_max_str_digits)
        raise RecordInvalid([RecordError(HUGE_NUMBER, rule="format", source="RECORD.md")]) from None
    except RecursionError:
        raise RecordInvalid(
            [RecordError(msg("not a game record: the JSON is nested too deeply"), rule="format", source="RECORD.md")]
        ) from None
    check_text(data)
    return data


def new_record(
    *, game: str, profile: str, options: Mapping[str, Any] | None, players: Sequence[str], first_dealer: int | None
) -> dict[str, Any]:
    """A new game's record (RECORD.md, no deal yet) from its parts: ``first_dealer`` a seat (the
    record names the player; a seat no player holds names none)."""
    rec: dict[str, Any] = {
        "format": FORMAT,
        "game": game,
        "rules": {"profile": profile, "options": dict(options or {})},
        "players": list(players),
        "deals": [],
    }
    if first_dealer is not None and 0 <= first_dealer < len(players):
        rec["first_dealer"] = players[first_dealer]
    return rec


def check_header(record: Any) -> tuple[Rules, tuple[str, ...], list[Any], str | None]:
    """Check everything but the deals; return (rules, players, deals, first_dealer)."""
    if not isinstance(record, Mapping):
        raise RecordInvalid([RecordError(msg("a game record is a JSON object"), rule="format", source="RECORD.md")])
    errors = _key_errors(record)
    if errors:
        raise RecordInvalid(errors)
    if record["format"] != FORMAT:
        errors.append(
            RecordError(
                msg("unknown format {format}: expected '{expected}'", format=repr(record["format"]), expected=FORMAT),
                rule="format",
                source="RECORD.md",
                field="format",
            )
        )
    game = record["game"]
    if game not in profiles.GAMES:
        errors.append(
            RecordError(
                msg("unknown game {game}: the game is 'oklahoma' or 'oklahoma-gin'", game=repr(game)),
                rule="game",
                source="RECORD.md",
                field="game",
            )
        )
    rules_data = record["rules"]
    errors += _rules_errors(rules_data)
    players = record["players"]
    errors += player_errors(players)
    if not is_name_list(players):
        players = []
    deals = record["deals"]
    if not isinstance(deals, list):
        errors.append(RecordError(msg("'deals' must be a list"), rule="format", source="RECORD.md", field="deals"))
    first_dealer = record.get("first_dealer")
    errors += first_dealer_errors(players, first_dealer)
    if errors:
        raise RecordInvalid(errors)
    rules = profiles.resolve(game, rules_data["profile"], rules_data.get("options"))
    errors = player_count_errors(rules, players)
    if errors:
        raise RecordInvalid(errors)
    return rules, tuple(players), deals, first_dealer


def _key_errors(record: Mapping[Any, Any]) -> list[RecordError]:
    """Unknown keys, and the keys every record has."""
    errors = [
        RecordError(
            msg("unknown key '{key}': a record has {keys}", key=str(key), keys=", ".join(TOP_KEYS)),
            rule="format",
            source="RECORD.md",
            field=str(key),
        )
        for key in record
        if key not in TOP_KEYS
    ]
    errors += [
        RecordError(msg("the record has no '{key}'", key=key), rule="format", source="RECORD.md", field=key)
        for key in REQUIRED_KEYS
        if key not in record
    ]
    return errors


def _rules_errors(rules_data: Any) -> list[RecordError]:
    """'rules' is an object with a 'profile' and perhaps 'options' (their values are checked by profiles.resolve)."""
    if not isinstance(rules_data, Mapping):
        return [
            RecordError(
                msg("'rules' must be an object with a 'profile'"), rule="format", source="RECORD.md", field="rules"
            )
        ]
    errors = [
        RecordError(
            msg("unknown key 'rules.{key}': rules have 'profile' and 'options'", key=str(key)),
            rule="format",
            source="RECORD.md",
            field=f"rules.{key}",
        )
        for key in rules_data
        if key not in RULES_KEYS
    ]
    if "profile" not in rules_data:
        errors.append(
            RecordError(msg("'rules' has no 'profile'"), rule="format", source="RECORD.md", field="rules.profile")
        )
    elif not isinstance(rules_data["profile"], str):
        errors.append(
            RecordError(
                msg("'rules.profile' must be the name of a rule set (text)"),
                rule="format",
                source="RECORD.md",
                field="rules.profile",
            )
        )
    return errors


def score_record(record: Any) -> GameResult:
    """Score a whole record from scratch. Raises RecordInvalid with every error found."""
    rules, players, deals, first_dealer = check_header(record)
    return games.score_game(rules, players, deals, first_dealer)


def score_text(text: str | bytes) -> GameResult:
    return score_record(parse_json(text))


def _line(line: Line) -> dict:
    return line.as_dict()


def _player_json(game: str, pd: PlayerDeal) -> dict:
    out: dict[str, Any] = {"points": pd.points}
    if game == GIN:
        out["deadwood_points"] = pd.deadwood_points
        out["melds"] = [list(m) for m in pd.melds]
        out["deadwood"] = list(pd.deadwood)
        out["layoffs"] = list(pd.layoffs)
        if pd.discard is not None:
            out["discard"] = pd.discard
    else:
        out["melds"] = [list(m) for m in pd.melds]
        out["held"] = list(pd.held)
        out["side_points"] = pd.side_points
        out["side_lines"] = [_line(x) for x in pd.side_lines]
    out["lines"] = [_line(x) for x in pd.lines]
    return out


def _deal_json(game: str, deal: DealResult, hollywood: bool = False) -> dict:
    out = {
        "number": deal.number,
        "outcome": deal.outcome,
        "multiplier": deal.multiplier,
        "players": {name: _player_json(game, pd) for name, pd in deal.players.items()},
        "totals": dict(deal.totals),
        "next_dealer": deal.next_dealer,
        "dealer": deal.dealer,
        "notes": [str(note) for note in deal.notes],
    }
    if game == OKLAHOMA:
        out["side"] = dict(deal.side)
    if hollywood:
        out["columns"] = list(deal.columns)
    return out


def _final_json(
    final: Mapping[str, int] | None, final_lines: Mapping[str, tuple[Line, ...]] | None
) -> tuple[dict | None, dict | None]:
    return (
        dict(final) if final is not None else None,
        {name: [_line(x) for x in lines] for name, lines in final_lines.items()} if final_lines is not None else None,
    )


def _columns_json(result: GameResult) -> list[dict]:
    """Gin, Hollywood: each of the three games scored at once."""
    out = []
    for column in result.columns:
        final, final_lines = _final_json(column.final, column.final_lines)
        out.append(
            {
                "number": column.number,
                "totals": dict(column.totals),
                "state": column.state,
                "winner": column.winner,
                "final": final,
                "final_lines": final_lines,
            }
        )
    return out


def result_json(result: GameResult) -> dict:
    """The result document of RECORD.md (a Hollywood game adds ``columns``, and each deal the
    columns its hand was entered in)."""
    hollywood = bool(result.columns)
    out = {
        "format": FORMAT,
        "game": result.game,
        "deals": [_deal_json(result.game, d, hollywood) for d in result.deals],
        "state": result.state,
        "winner": result.winner,
        "totals": dict(result.totals),
        "side": dict(result.side),
        "final": dict(result.final) if result.final is not None else None,
        "final_lines": (
            {name: [_line(x) for x in lines] for name, lines in result.final_lines.items()}
            if result.final_lines is not None
            else None
        ),
    }
    if hollywood:
        out["columns"] = _columns_json(result)
    return out


def errors_json(errors: tuple[RecordError, ...] | list[RecordError]) -> dict:
    return {"errors": [e.as_dict() for e in errors]}
