"""The phone alone's side in Python: what the page's Web Worker (``static/alone/worker.mjs``) asks of
the engine, run by Pyodide in the phone's browser. Plain Python, standard library and the engine
only (no Django: it is zipped with ``scorekeeper/rules`` by ``alone/assets.py``); every answer is
JSON text.

- ``speak``: the engine's messages in the page's language, through stdlib ``gettext`` on the
  engine's own compiled catalog (the server's German, word for word).
- ``score``: a record scored exactly as ``manage.py score`` prints it (the test hook).
- ``check``: one card field's live check, the engine's field checks as the table's form has them
  (``rules.fieldcheck``).
- ``deal_of``: the deal form's values as one RECORD.md deal, or what is wrong with a field.
- ``play``: a whole game as the phone keeps it (its record), scored deal by deal from the deals
  already scored (``rules.games.play`` folded, as the table stores each deal's standing), with a
  new deal's errors placed beside the fields they concern.
"""

from __future__ import annotations

import gettext
import json
import re
from collections import Counter
from typing import Any

from scorekeeper.rules import fieldcheck, games, messages, profiles
from scorekeeper.rules.cards import parse_card
from scorekeeper.rules.errors import RecordError, RecordInvalid
from scorekeeper.rules.record import check_header, errors_json, result_json, score_text
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
    found = fieldcheck.check_field(name, text, rules, wild=wild, groups=name == "melds", language=_lang, split=split)
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
    options: dict[str, Any] = {}
    for k in profiles.knobs(kind) if kind in profiles.GAMES else ():
        raw = str((values.get("options") or {}).get(k.name, "")).strip()
        if not raw:
            continue
        options[k.name] = raw == "true" if k.type is bool else int(raw) if k.type is int and _integer(raw) else raw
    seats = [str(s).strip() for s in values.get("seats") or []]
    while seats and not seats[-1]:
        seats.pop()
    players = seats  # a seat left empty between two names: the engine says a name is missing
    first = str(values.get("first_dealer") or "0")
    record: dict[str, Any] = {
        "format": "oklahoma-scorekeeper/1",
        "game": kind,
        "rules": {"profile": values.get("profile") or "", **({"options": options} if options else {})},
        "players": players,
        "deals": [],
    }
    if first.isdigit() and int(first) < len(players):
        record["first_dealer"] = players[int(first)]
    try:
        check_header(record)
    except RecordInvalid as exc:
        return _json({"errors": [_said(e) for e in exc.errors]})
    return _json({"record": record})


def _integer(text: str) -> bool:
    return bool(re.fullmatch(r"-?\d{1,9}", text))


# ------------------------------------------------------------------------------ the deal form

HAND_FIELDS = {profiles.OKLAHOMA: ("melded", "held", "melds"), profiles.GIN: ("cards", "melds", "deadwood")}


def _cards(values: dict[str, Any], key: str, wild: bool, groups: bool, problems: dict[str, list[str]]) -> Any:
    read, unread = fieldcheck.read_cards(str(values.get(key) or ""), wild=wild, groups=groups, language=_lang)
    if unread:
        problems.setdefault(key, []).extend(unread)
    codes = [[t.code for t in group] for group in read]
    return codes if groups else [c for g in codes for c in g]


def _same(a: str, b: str) -> bool:
    return " ".join(a.upper().split()) == " ".join(b.upper().split())


def _same_cards(melds: list[list[str]], melded: list[str], problems: list[str], said: dict[str, str]) -> None:
    """The melds given by hand hold the cards melded, as the table's form asks."""
    given = Counter(c.split("=")[0] for m in melds for c in m)
    laid = Counter(c.split("=")[0] for c in melded)
    if given == laid:
        return
    extra = " ".join(parse_card(c).label for c in (given - laid).elements())
    missing = " ".join(parse_card(c).label for c in (laid - given).elements())
    parts = [
        said["not melded"].format(cards=extra) if extra else "",
        said["missing"].format(cards=missing) if missing else "",
    ]
    problems.append(said["melds differ"].format(problems="; ".join(p for p in parts if p)))


def deal_of(header: str, values_json: str, said_json: str) -> str:
    """The deal form's values (``p-<seat>-<field>``, ``out``/``knocker``, the upcard, the flags) as
    one RECORD.md deal: ``{"deal": ...}``, or ``{"problems": {field: [text]}}`` where a field does
    not read. ``said``: the form's own words, in the page's language (from the table's forms)."""
    game, values, said = json.loads(header), json.loads(values_json), json.loads(said_json)
    kind, players = game["game"], game["players"]
    wild = games.game(kind).wilds
    problems: dict[str, list[str]] = {}
    hands: dict[str, Any] = {}
    for seat, player in enumerate(players):
        p = f"p-{seat}-"
        if kind == profiles.OKLAHOMA:
            melded = _cards(values, p + "melded", wild, False, problems)
            held = _cards(values, p + "held", wild, False, problems)
            melds = _cards(values, p + "melds", wild, True, problems)
            given = bool(str(values.get(p + "melds") or "").strip()) and not _same(
                str(values.get(p + "melds") or ""), str(values.get(p + "auto") or "")
            )
            if given and melded:
                _same_cards(melds, melded, problems.setdefault(p + "melds", []), said)
            hands[player] = (
                {"melds": melds, "held": held}
                if given
                else {"melded": melded, "held": held}
                if melded
                else {"melds": [], "held": held}
            )
        else:
            hand: dict[str, Any] = {}
            cards = _cards(values, p + "cards", wild, False, problems)
            melds = _cards(values, p + "melds", wild, True, problems)
            deadwood = _cards(values, p + "deadwood", wild, False, problems)
            if cards:
                hand["cards"] = cards
            if melds or deadwood:
                hand["melds"], hand["deadwood"] = melds, deadwood
            hands[player] = hand or {"cards": []}
            if values.get(p + "big_gin"):
                hand["big_gin"] = True
    deal: dict[str, Any] = {}
    actor = "out" if kind == profiles.OKLAHOMA else "knocker"
    chosen = str(values.get(actor) or "")
    if not chosen:
        problems.setdefault(actor, []).append(said[f"no {actor}"])
    seat_chosen = players[int(chosen)] if chosen.isdigit() and int(chosen) < len(players) else None
    if kind == profiles.OKLAHOMA:
        deal = {
            "out": seat_chosen,
            "first_turn": bool(values.get("first_turn")),
            "concealed": bool(values.get("concealed")),
        }
        if values.get("late_misdeal"):
            deal["late_misdeal"] = True
    else:
        upcard = _cards(values, "upcard", False, False, problems)
        if not upcard and "upcard" not in problems:
            problems["upcard"] = [said["no upcard"]]
        elif len(upcard) > 1:
            problems.setdefault("upcard", []).append(said["one card"])
        deal = {"upcard": upcard[0] if upcard else None, "knocker": seat_chosen}
    problems = {k: v for k, v in problems.items() if v}
    if problems:
        return _json({"problems": problems})
    return _json({"deal": {**deal, "hands": hands}})


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


def _place(e: RecordError, players: list[str], deal: dict[str, Any]) -> str:
    """The form field an error of a new deal goes beside (``p-<seat>-<field>``, a fact, or "")."""
    field = e.field or ""
    for seat, player in sorted(enumerate(players), key=lambda p: -len(p[1])):
        head = f"hands.{player}"
        if field == head or field.startswith(head + "."):
            key = re.sub(r"\[\d+\]$", "", field[len(head) + 1 :].split(".")[0])
            hand = (deal.get("hands") or {}).get(player) or {}
            if key == "melds" and "melded" in hand:
                key = "melded"
            if key in ("melded", "held", "melds", "cards", "deadwood"):
                return f"p-{seat}-{key}"
            return f"p-{seat}-" + _holding(hand, e.cards)
    if e.player is not None:
        for seat, player in enumerate(players):
            if player.casefold() == str(e.player).casefold():
                return f"p-{seat}-"
    key = field.split(".")[0]
    return key if key in ("out", "knocker", "upcard", "first_turn", "concealed", "late_misdeal") else ""


def _holding(hand: dict[str, Any], cards: tuple[str, ...]) -> str:
    """The field of a hand that holds the cards an error names ("" when none does)."""
    wanted = {c.replace(" ", "") for c in cards}
    for name in ("melded", "held", "melds", "cards", "deadwood"):
        value = hand.get(name) or []
        flat = [c for m in value for c in m] if value and isinstance(value[0], list) else value
        labels: set[str] = set()
        for code in flat:
            card = parse_card(code.split("=")[0])
            labels.update({code, card.code, card.label})
        if labels and wanted <= labels:
            return name
    return ""


def _cites(result: dict[str, Any]) -> dict[str, Any]:
    """Each score line with its rule and source as cited beside it, in the page's language."""

    def cite(line: dict[str, Any]) -> dict[str, Any]:
        return {**line, "cite": fieldcheck.error_cite(line.get("rule"), line.get("source"))}

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
            errors = [{**_said(e), "place": _place(e, list(players), deal)} for e in exc.errors]
            return _json({"deal": number, "errors": errors})
        done.append((text, result, standing))
    kept = kept[:1] + done
    _scored[key] = kept
    out = result_json(games.conclude(rules, players, standing, [d[1] for d in done]))
    for deal_json in out["deals"]:
        deal_json["outcome_text"] = str(messages.outcome_words(deal_json["outcome"]))
    out["target"] = rules.target  # the race the board shows
    out["penalty"] = getattr(rules, "scoring", "winner") == "penalty"
    return _json({"result": _cites(out)})
