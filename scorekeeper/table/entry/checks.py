"""The live checks of the deal form's card fields: what the engine makes of one field as it is
filled — its cards as chips, grouped by meld, each meld's kind and points — and the field's own
problems the engine finds (a meld that is no meld, a melded list it cannot split, or splits that
score differently). The deal as a whole is checked by the engine when it is previewed or saved.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import ngettext

from scorekeeper.rules.cards import Token, parse_token
from scorekeeper.rules.errors import RecordError
from scorekeeper.rules.games import Game, MeldVerdict, game
from scorekeeper.rules.messages import meld_kind
from scorekeeper.rules.profiles import Rules
from scorekeeper.table.entry.cards import CardListField, cards_text
from scorekeeper.table.entry.deal import DealEntry, Slot
from scorekeeper.table.entry.forms import HandForm
from scorekeeper.table.text import error_text

log = logging.getLogger(__name__)


@dataclass
class Group:
    """Cards shown together: one meld (with what it is), or the cards of a field."""

    labels: list[str]
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


def _count(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n).format(n=n) if n else ""


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
            card = name.split("=")[0]
            places = [(g, i) for g, tokens in enumerate(codes) for i, c in enumerate(tokens) if c == card]
            g, i = next(p for p in places if group is None or p[0] == group)
            codes[g][i] = name
        text = cards_text(codes)
        label = " ".join(parse_token(name).label for name in fix.names)
        check.choices.append(Choice(text, label, fix.points))


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
    shown = f" {' '.join(verdict.meaning)}" if verdict.meaning else ""
    points = f", +{verdict.points}" if verdict.points is not None else ""
    return Group(list(verdict.labels), f"{meld_kind(verdict.kind)}{shown}{points}", True)


def _split(tokens: list[Token], rules: Rules, kind: Game, check: FieldCheck) -> None:
    """A player's melded cards: the melds the engine splits them into, or why it cannot."""
    verdict = _asked(kind.check_split, tokens, rules)
    check.note = _count(len(tokens))
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


def check_field(bound_field: CardListField, name: str, text: str, rules: Rules, *, split: bool = True) -> FieldCheck:
    """What the engine makes of field ``name`` (melded, melds, held, cards, deadwood, upcard)
    holding ``text``. Cards that do not read are the form's to report, and are left out here.
    ``split``: the engine splits a melded list (not when the player gave the split)."""
    kind = game(rules.game)
    read, unread = bound_field.read(text)
    check = FieldCheck(checked="" if unread else cards_text(_codes(read)))
    count = sum(len(g) for g in read)
    if name == "melds":
        for group in range(len(read)):
            check.groups.append(_meld(read, group, rules, kind, check))
        check.note = _count(count) if len(read) > 1 else ""
        return check
    tokens = [t for g in read for t in g]
    if tokens and name == "melded" and split:
        _split(tokens, rules, kind, check)
    elif tokens:
        check.groups.append(Group([t.label for t in tokens]))
        check.note = _count(count) if name != "upcard" else ""
    return check


def attach(entry: DealEntry, rules: Rules) -> None:
    """Check every card field of the entry, keep each check on its slot for the page, and put the
    problems found beside their field. Shows the engine's split of an Oklahoma melded list in that
    player's melds field (unless the player gave a split)."""
    for slot in entry.slots:
        _attach(entry, slot, rules)


def _attach(entry: DealEntry, slot: Slot, rules: Rules) -> None:
    bound = slot.field
    card_field = bound.field
    assert isinstance(card_field, CardListField)
    form = bound.form
    # A split the player gave is the split: the melded list is then only the cards it holds.
    given = isinstance(form, HandForm) and form.split_given
    check = check_field(card_field, bound.name, str(bound.value() or ""), rules, split=not given)
    slot.check = check
    for text in check.errors:
        entry.add(form, bound.name, text)
    if check.split and isinstance(form, HandForm):
        form.show_split(check.split)
