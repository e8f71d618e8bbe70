"""The phone alone's side in Python: what the page's Web Worker (``static/alone/worker.mjs``) asks of
the engine, run by Pyodide in the phone's browser. Plain Python, standard library and the engine
only (no Django: it is zipped with ``scorekeeper/rules`` by ``alone/assets.py``); every answer is
JSON text.

- ``speak``: the engine's messages in the page's language, through stdlib ``gettext`` on the
  engine's own compiled catalog (the server's German, word for word).
- ``score``: a record scored exactly as ``manage.py score`` prints it (the test hook).
- ``check``: one card field's live check, the engine's field checks as the table's form has them
  (``rules.fieldcheck``).
- ``deal_of``: the deal form's values as one RECORD.md deal, or what is wrong with a field;
  ``form_values`` the other way, a saved deal as the form's fields show it.
- ``play``: a whole game as the phone keeps it (its record), scored deal by deal from the deals
  already scored (``rules.games.play`` folded, as the table stores each deal's standing), with a
  new deal's errors placed beside the fields they concern.
"""

from __future__ import annotations

import gettext
import json
import re
from typing import Any

from scorekeeper.rules import fieldcheck, games, messages, profiles
from scorekeeper.rules.errors import RecordError, RecordInvalid
from scorekeeper.rules.record import check_header, errors_json, new_record, result_json, score_text
from scorekeeper.rules.results import DealResult, Standing

CATALOG = "scorekeeper/rules/locale/{lang}/LC_MESSAGES/django.mo"
THOUSANDS = {"de": "."}  # how each language groups thousands (scorekeeper/formats)


class Catalog(gettext.GNUTranslations):
    """The engine's compiled catalog of a language, with how it groups thousands."""

    thousands = ","


_lang = "en"


def speak(lang: str, root: str = ".") -> None:
    """Render the engine's messages in ``lang`` (English: the ids as they are)."""
    global _lang
    _lang = lang.split("-")[0]
    if _lang == "en":
        messages.use_translator(messages.ENGLISH)
        return
    with open(f"{root}/{CATALOG.format(lang=_lang)}", "rb") as mo:
        catalog = Catalog(mo)
    catalog.thousands = THOUSANDS.get(_lang, ",")
    messages.use_translator(catalog)


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


def score(text: str) -> str:
    """``manage.py score``'s JSON for the record ``text`` (in English, as the command prints it)."""
    in_force = messages.in_force()
    messages.use_translator(messages.ENGLISH)
    try:
        try:
            return json.dumps(result_json(score_text(text)), ensure_ascii=False, indent=2)
        except RecordInvalid as exc:
            return json.dumps(errors_json(exc.errors), ensure_ascii=False, indent=2)
    finally:
        messages.use_translator(in_force)


def score_many(texts: str) -> str:
    """``score`` of each record of a JSON list of record texts: a JSON list of the answers."""
    return _json([json.loads(score(text)) for text in json.loads(texts)])


def _rules(header: dict[str, Any]) -> profiles.Rules:
    rules = header.get("rules") or {}
    return profiles.resolve(header["game"], str(rules.get("profile") or ""), rules.get("options"))


def check(header: str, name: str, text: str, split: bool = True) -> str:
    """The live check of card field ``name`` holding ``text`` in a game of ``header`` (its game and
    rules), as the table's deal form checks it."""
    game = json.loads(header)
    rules = _rules(game)
    wild = games.game(rules.game).wilds
    found = fieldcheck.check_field(name, text, rules, wild=wild, groups=name == "melds", split=split)
    return _json(found.as_json())


def pack(header: str) -> str:
    """The pack the picker offers (card code: how many), and the wild cards."""
    rules = _rules(json.loads(header))
    counts = games.game(rules.game).pack(rules)
    wilds = [code for code in counts if code == "JK" or (code.startswith("2") and rules.game == profiles.OKLAHOMA)]
    return _json({"pack": dict(counts), "wild": wilds})


def new_game(form: str) -> str:
    """The new-game form's values (the table's form: game, profile, seats in order, the first
    dealer's seat, the target, ``options`` as the house options' fields hold them) as a new game's
    record, checked by the engine: ``{"record": ...}`` or ``{"errors": [...]}``."""
    values = json.loads(form)
    kind = values.get("game")
    options = profiles.option_values(kind, values.get("options") or {}) if kind in profiles.GAMES else {}
    players = [str(s).strip() for s in values.get("seats") or []]
    while players and not players[-1]:
        players.pop()  # a seat left empty between two names: the engine says a name is missing
    first = str(values.get("first_dealer") or "0")
    record = new_record(
        game=kind,
        profile=values.get("profile") or "",
        options=options,
        players=players,
        first_dealer=int(first) if first.isdigit() else None,
    )
    try:
        check_header(record)
    except RecordInvalid as exc:
        return _json({"errors": [_said(e) for e in exc.errors]})
    return _json({"record": record})


# ------------------------------------------------------------------------------ the deal form


def _cards(values: dict[str, Any], key: str, wild: bool, groups: bool, problems: dict[str, list[str]]) -> Any:
    """A card field's cards as the table's card field reads them (codes; melds a list of lists)."""
    read, unread = fieldcheck.read_cards(str(values.get(key) or ""), wild=wild, groups=groups)
    if unread:
        problems.setdefault(key, []).extend(unread)
    codes = [[t.code for t in group] for group in read]
    return codes if groups else [c for g in codes for c in g]


def _same(a: str, b: str) -> bool:
    return " ".join(a.upper().split()) == " ".join(b.upper().split())


def deal_of(header: str, values_json: str, said_json: str) -> str:
    """The deal form's values (``p-<seat>-<field>``, the deal's facts) as one RECORD.md deal, made as
    the table's form makes it (``Game.hand_of``, ``Game.facts_of``): ``{"deal": ...}``, or
    ``{"problems": {field: [text]}}`` where a field does not read. ``said``: the table's form's own
    words for a fact not given, in the page's language."""
    head, values, said = json.loads(header), json.loads(values_json), json.loads(said_json)
    game, players = games.game(head["game"]), head["players"]
    problems: dict[str, list[str]] = {}
    hands = {
        player: game.hand_of(_hand_fields(game, values, f"p-{seat}-", problems)) for seat, player in enumerate(players)
    }
    facts = _facts(game, values, players, said, problems)
    problems = {k: v for k, v in problems.items() if v}
    return _json({"problems": problems} if problems else {"deal": {**facts, "hands": hands}})


def _hand_fields(
    game: games.Game, values: dict[str, Any], prefix: str, problems: dict[str, list[str]]
) -> dict[str, Any]:
    """One player's fields read as the table's hand form reads them: each card field's cards, and
    the flags (the split given by hand, as the form tells it from the split it showed; big gin)."""
    fields = {name: _cards(values, prefix + name, game.wilds, name == "melds", problems) for name in game.hand_fields}
    typed = str(values.get(prefix + "melds") or "")
    fields["split_given"] = bool(typed.strip()) and not _same(typed, str(values.get(prefix + "auto") or ""))
    fields["big_gin"] = bool(values.get(prefix + "big_gin"))
    if game.splits and fields["split_given"] and fields.get("melded"):
        differs = fieldcheck.split_differs(fields["melded"], fields["melds"])
        if differs is not None:
            problems.setdefault(prefix + "melds", []).append(str(differs))
    return fields


def _facts(
    game: games.Game, values: dict[str, Any], players: list[str], said: dict[str, str], problems: dict[str, list[str]]
) -> dict[str, Any]:
    """The deal's own facts, read as the table's form reads them: who ended the deal, its flags,
    its card (the upcard)."""
    chosen = str(values.get(game.actor) or "")
    if not chosen:
        problems.setdefault(game.actor, []).append(said[f"no {game.actor}"])
    actor = players[int(chosen)] if chosen.isdigit() and int(chosen) < len(players) else None
    fields = {name: values.get(name) for name in game.facts}
    for name in game.card_facts:
        fields[name] = _one_card(values, name, said, problems)
    return game.facts_of(actor, fields)


def _one_card(values: dict[str, Any], name: str, said: dict[str, str], problems: dict[str, list[str]]) -> str | None:
    """A fact that is one card (Gin's upcard), as the table's one-card field reads it."""
    cards = _cards(values, name, False, False, problems)
    if not cards and name not in problems:
        problems[name] = [said[f"no {name}"]]
    elif len(cards) > 1:
        problems.setdefault(name, []).append(said["one card"])
    return cards[0] if cards else None


def form_values(header: str, deal_json: str) -> str:
    """A saved deal (RECORD.md) as the deal form's fields show it for an edit (``p-<seat>-<field>``,
    the deal's facts), as the table's form shows it (``Game.fields_of``, ``games.facts_fields``)."""
    head, deal = json.loads(header), json.loads(deal_json)
    game, players = games.game(head["game"]), head["players"]
    values = dict(games.facts_fields(game, deal, players))
    hands = deal.get("hands") or {}
    for seat, player in enumerate(players):
        hand = hands.get(player) or {}
        values.update({f"p-{seat}-{name}": value for name, value in game.fields_of(hand).items()})
    return _json(values)


def points_deal(header: str, values_json: str) -> str:
    """A points-only deal (``points-<seat>``, ``winner``) in RECORD.md form (this app's extension)."""
    game, values = json.loads(header), json.loads(values_json)
    players = game["players"]
    points: dict[str, Any] = {}
    for seat, player in enumerate(players):
        text = str(values.get(f"points-{seat}") or "").strip().replace("−", "-")
        points[player] = int(text) if re.fullmatch(r"-?\d{1,6}", text) else text
    deal: dict[str, Any] = {"points": points}
    winner = str(values.get("winner") or "")
    if winner.isdigit() and int(winner) < len(players):
        deal["winner"] = players[int(winner)]
    return _json({"deal": deal})


# ------------------------------------------------------------------------------ a game played

_scored: dict[str, list[tuple[str, DealResult, Standing]]] = {}  # a game's deals as scored, by its key


def _said(e: RecordError) -> dict[str, Any]:
    return {**e.as_dict(), "field": e.field, "text": fieldcheck.error_text(e)}


def _place(game: games.Game, e: RecordError, players: list[str], deal: dict[str, Any]) -> str:
    """The form field an error of a new deal goes beside (``p-<seat>-<field>``, a fact, or ""), as
    the table's form places it (``rules.games.place``)."""
    player, field = games.place(game, e, players, deal)
    return field if player is None else f"p-{players.index(player)}-{field}"


def _cites(result: dict[str, Any]) -> dict[str, Any]:
    """Each score line with its rule and source as cited beside it, in the page's language."""

    def cite(line: dict[str, Any]) -> dict[str, Any]:
        return {**line, "cite": fieldcheck.line_cite(line.get("rule"), line.get("source"), line.get("basis"))}

    for deal in result["deals"]:
        for player in deal["players"].values():
            player["lines"] = [cite(x) for x in player["lines"]]
            if "side_lines" in player:
                player["side_lines"] = [cite(x) for x in player["side_lines"]]
    for owner in [result, *result.get("columns", [])]:
        if owner.get("final_lines"):
            owner["final_lines"] = {n: [cite(x) for x in lines] for n, lines in owner["final_lines"].items()}
    return result


def play(key: str, record_text: str) -> str:
    """The game ``record_text`` (the phone's record of it, ``key`` its id) scored for the page:
    ``{"result": ...}`` (result JSON with each line's citation, and each deal's outcome in words),
    or the errors of its first deal in error ``{"deal": N, "errors": [...]}``, each with the field
    it concerns. Deals scored before (same deal, same place) are not played again."""
    record = json.loads(record_text)
    try:
        rules, players, deals, first = check_header(record)
    except RecordInvalid as exc:
        return _json({"deal": 0, "errors": [_said(e) for e in exc.errors]})
    header = _json({k: record.get(k) for k in ("game", "rules", "players", "first_dealer")})
    kept = _scored.get(key)
    if kept is None or kept[0][0] != header:
        kept = [(header, None, games.begin(rules, players, first))]  # type: ignore[list-item]
    standing = kept[0][2]
    done: list[tuple[str, DealResult, Standing]] = []
    for number, deal in enumerate(deals, 1):
        text = json.dumps(deal, sort_keys=True)
        if number < len(kept) and kept[number][0] == text:
            done.append(kept[number])
            standing = kept[number][2]
            continue
        try:
            result, standing = games.play(rules, players, standing, deal, number)
        except RecordInvalid as exc:
            _scored[key] = kept[:1] + done
            here = games.game(rules.game)
            errors = [{**_said(e), "place": _place(here, e, list(players), deal)} for e in exc.errors]
            return _json({"deal": number, "errors": errors})
        done.append((text, result, standing))
    kept = kept[:1] + done
    _scored[key] = kept
    concluded = games.conclude(rules, players, standing, [d[1] for d in done])
    out = result_json(concluded)
    for deal_json, deal in zip(out["deals"], concluded.deals, strict=True):
        deal_json["outcome_text"] = str(messages.outcome_by(deal.outcome, deal.actor))  # "Ann went out"
    out["target"] = rules.target  # the race the board shows
    out["penalty"] = rules.penalty
    return _json({"result": _cites(out)})
