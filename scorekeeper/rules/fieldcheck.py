"""The live checks of the deal entry's card fields: what the engine makes of one field as it is
filled — its cards as chips, grouped by meld, each meld's kind and points — and the field's own
problems the engine finds (a meld that is no meld, a melded list it cannot split, or splits that
score differently, each fix offered as a choice). The deal as a whole is checked when it is played.

Plain Python, shared by the two places a deal is typed: the table's deal form on the server
(``table/entry/checks.py`` attaches these checks to its form's fields) and the phone alone, where the
same engine runs in the browser (``alone/phone.py``). Typed cards are read here too, in the
record's notation (a German page also takes B and D for jack and queen: ``typed_ranks``); the cards
shown are in the reader's letters (``messages.card_text``: German D♠, B♥), and an
error or a score line is cited here, in the language in force (``error_text``, ``line_cite``).
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from .cards import CardError, Token, cards_text, parse_card, parse_token, split_cards
from .errors import RecordError
from .games import Game, MeldVerdict, game
from .messages import Msg, card_letters, card_text, in_force, meld_kind, msg, nmsg, source_words
from .profiles import Rules

log = logging.getLogger(__name__)


def typed_ranks() -> dict[str, str]:
    """What the reader's language types for a record's rank letter, its own letters read as the record's
    (German {"B": "J", "D": "Q"}: ``messages.card_letters``, RULES.md §4). A phone in that language may
    type them, before a suit letter or symbol only ("DS", "bh", "D♠", "2C=DH"): the suits stay S, H, D,
    C, and "D" alone reads as typed. English reads the record's notation only ("DS" is a mistyped card)."""
    return {letter: rank for rank, letter in card_letters().items() if letter != rank}


def typed_card(token: str, typed: dict[str, str]) -> str:
    """A typed card with a language's rank letters (``typed``) in the record's (German ``DS`` →
    ``QS``, ``2C=BH`` → ``2C=JH``)."""
    if not typed:
        return token
    letters = re.compile(rf"(?i)(?<![0-9A-Z])([{''.join(typed)}])(?=\s*[SHDC♠♥♦♣♤♡♢♧]$)")
    return "=".join(letters.sub(lambda m: typed[m.group(1).upper()], side) for side in token.split("="))


def read_cards(text: str, *, wild: bool, groups: bool = False) -> tuple[list[list[Token]], list[str]]:
    """Read typed cards in the record's notation: the cards (in groups split by "/" when ``groups``,
    else one group) and what is wrong with each token that is not a card. ``wild``: a card may
    name the card it stands for (``2C=7H``). The reader's rank letters are read too (``typed_ranks``:
    German B and D)."""
    typed = typed_ranks()
    parts = text.split("/") if groups else [text]
    read: list[list[Token]] = []
    errors: list[str] = []
    for part in parts:
        tokens = []
        for token in split_cards(part):
            raw = typed_card(token, typed)
            try:
                tokens.append(parse_token(raw) if wild else Token(parse_card(raw)))
            except CardError as exc:
                errors.append(str(exc.message))
        if tokens:
            read.append(tokens)
    return read, errors


def split_differs(melded: list[str], melds: list[list[str]]) -> Msg | None:
    """Why a split typed by hand (``melds``) does not hold the cards melded (``melded``), by card:
    "These melds must hold the cards melded above (not melded: K♠; missing: 5♥)"; None when it does."""
    laid = Counter(c.split("=")[0] for c in melded)
    given = Counter(c.split("=")[0] for m in melds for c in m)
    extra = " ".join(parse_card(c).label for c in (given - laid).elements())
    missing = " ".join(parse_card(c).label for c in (laid - given).elements())
    parts = [msg("not melded: {cards}", cards=extra)] if extra else []
    parts += [msg("missing: {cards}", cards=missing)] if missing else []
    if not parts:
        return None
    problems = parts[0] if len(parts) == 1 else msg("{first}; {next}", first=parts[0], next=parts[1])
    return msg("These melds must hold the cards melded above ({problems}).", problems=problems)


def source_text(source: Any) -> str:
    """A source as cited, in the language in force (``messages.source_words``: "S1 law 12" is "S1
    Regel 12" in German; the engine's own "ruling" or "house option" translated)."""
    return str(source_words(str(source)))


def error_cite(rule: Any, source: Any) -> str:
    """The rule and source an engine error cites ("knock limit, S2, Gameplay 1"), in the language in
    force (the rules' names are the engine's words, marked ``N_``: its catalog has them)."""
    rule_text = in_force().gettext(rule) if isinstance(rule, str) and rule else str(rule if rule is not None else "")
    return ", ".join(x for x in (rule_text, source_text(source) if source else "") if x)


def line_cite(rule: Any, source: Any, basis: Any) -> str:
    """A score line's rule and source as cited beside it ("knock — S2, Scoring 1"), marked
    "(ruling)" or "(house option)" where its value is the app's reading or the table's choice
    (unless the source says so already), in the language in force."""
    rule_text = in_force().gettext(rule) if isinstance(rule, str) and rule else str(rule if rule is not None else "")
    text = rule_text + (f" — {source_text(source)}" if source else "")
    for marked, name in (("ruling", "ruling"), ("option", "house option")):
        if basis == marked and str(source) != name:
            text += f" ({source_text(name)})"
    return text


def error_text(e: RecordError) -> str:
    """An engine error as a form says it beside its field: the message, then its rule and source."""
    text = str(e.message)
    if e.rule or e.source:
        text += f" — {error_cite(e.rule, e.source)}"
    return text


@dataclass
class Group:
    """Cards shown together: one meld (with what it is), or the cards of a field."""

    labels: list[str]  # printed cards ("Q♠"), shown as chips in the reader's letters (``card_text``)
    verdict: str = ""  # "set, +30"; "run"
    ok: bool | None = None  # a meld: legal or not; None: not a meld


@dataclass
class Choice:
    """One of the engine's fixes as the page offers it, a button under the field: the field's text
    with the wild cards named, what the button shows ("2♣=7♥") and what the cards then score."""

    text: str
    label: str
    points: int


@dataclass
class FieldCheck:
    groups: list[Group] = field(default_factory=list)
    note: str = ""  # "11 cards"
    errors: list[str] = field(default_factory=list)  # the field's own problems, as the engine words them
    split: str = ""  # Oklahoma melded: the melds the engine found, as typed ("QS QH QD / 5S 6S 7S")
    checked: str = ""  # the field's text as checked: a choice mends the field only while it begins so
    choices: list[Choice] = field(default_factory=list)  # one tap names the wild cards a way the engine offers
    unread: list[str] = field(default_factory=list)  # what is wrong with each token that is not a card

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def count_text(n: int) -> str:
    return str(nmsg("{n} card", "{n} cards", n)) if n else ""


def _asked[T](check: Callable[..., T], *args: Any) -> T | None:
    """A live check of the engine (None if the engine failed: logged, the field then shows its cards)."""
    try:
        return check(*args)
    except Exception:
        log.exception("a live check failed")
        return None


def _codes(read: list[list[Token]]) -> list[list[str]]:
    """Cards read from a field, in the record's notation, by group (``cards_text`` writes them)."""
    return [[t.code for t in tokens] for tokens in read]


def _offer(check: FieldCheck, errors: tuple[RecordError, ...], read: list[list[Token]], group: int | None) -> None:
    """The engine's fixes of ``errors`` as choices: each names the wild cards of ``read`` (of its
    group ``group`` only, in a melds field) as the fix says, the first unnamed card of a kind first."""
    if not check.checked:
        return  # a card of the field does not read: the choices would drop it
    for fix in (fix for e in errors for fix in e.fixes):
        codes = _codes(read)
        for name in fix.names:
            g, i = _first_unnamed(codes, name.split("=")[0], group)
            codes[g][i] = name
        label = card_text(" ".join(parse_token(name).label for name in fix.names))
        check.choices.append(Choice(cards_text(codes), label, fix.points))


def _first_unnamed(codes: list[list[str]], card: str, group: int | None) -> tuple[int, int]:
    """Where the first ``card`` not named yet stands in a field's cards (in ``group`` only, if given)."""
    places = [(g, i) for g, tokens in enumerate(codes) for i, c in enumerate(tokens) if c == card]
    return next(p for p in places if group is None or p[0] == group)


def _meld(read: list[list[Token]], group: int, rules: Rules, kind: Game, check: FieldCheck) -> Group:
    """One meld as typed (``read[group]``): its cards and what it is, or why it is no meld."""
    tokens = read[group]
    verdict = _asked(kind.check_meld, tokens, rules)
    labels = [t.label for t in tokens]
    if verdict is None:
        return Group(labels)
    check.errors += [error_text(e) for e in verdict.errors]
    _offer(check, verdict.errors, read, group)
    if not verdict.ok:
        return Group(labels, "", verdict.ok)
    return _meld_group(verdict)


def _meld_group(verdict: MeldVerdict) -> Group:
    """A legal meld as shown: its cards (each wild with what it stands for), kind and points."""
    shown = f" {card_text(' '.join(verdict.meaning))}" if verdict.meaning else ""
    points = f", +{verdict.points}" if verdict.points is not None else ""
    return Group(list(verdict.labels), f"{meld_kind(verdict.kind)}{shown}{points}", True)


def _split(tokens: list[Token], rules: Rules, kind: Game, check: FieldCheck) -> None:
    """A player's melded cards: the melds the engine splits them into, or why it cannot."""
    verdict = _asked(kind.check_split, tokens, rules)
    check.note = count_text(len(tokens))
    if verdict is None or not verdict.ok:
        if verdict is not None:
            check.errors += [error_text(e) for e in verdict.errors]
            _offer(check, verdict.errors, [tokens], None)
        check.groups.append(Group([t.label for t in tokens]))
        return
    for meld in verdict.melds:
        check.groups.append(_meld_group(meld))
    check.split = " / ".join(" ".join(meld.codes) for meld in verdict.melds)
    check.note += f", +{verdict.points}" + (f" · {verdict.note}" if verdict.note else "")


def check_field(name: str, text: str, rules: Rules, *, wild: bool, groups: bool, split: bool = True) -> FieldCheck:
    """What the engine makes of field ``name`` (melded, melds, held, cards, deadwood, upcard)
    holding ``text``, its cards read as the field reads them (``wild``, ``groups``: ``read_cards``).
    Cards that do not read are listed in ``unread`` (the form reports them) and left out.
    ``split``: the engine splits a melded list (not when the player gave the split)."""
    kind = game(rules.game)
    read, unread = read_cards(text, wild=wild, groups=groups)
    check = FieldCheck(checked="" if unread else cards_text(_codes(read)), unread=unread)
    if name == "melds":
        _melds(read, rules, kind, check)
        return check
    tokens = [t for g in read for t in g]
    if tokens and name == "melded" and split:
        _split(tokens, rules, kind, check)
    elif tokens:
        check.groups.append(Group([t.label for t in tokens]))
        check.note = count_text(len(tokens)) if name != "upcard" else ""
    return check


def _melds(read: list[list[Token]], rules: Rules, kind: Game, check: FieldCheck) -> None:
    """A melds field: each meld as typed (split by "/") and what it is, and the cards' count."""
    for group in range(len(read)):
        check.groups.append(_meld(read, group, rules, kind, check))
    check.note = count_text(sum(len(g) for g in read)) if len(read) > 1 else ""
