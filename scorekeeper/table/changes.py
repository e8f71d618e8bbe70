"""A game's change history as people read it: what changed, when, from which phone, the cards
before and after, and whether it can still be undone. A read: it never writes. Every word is in
the request's language (made per request, never cached)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from scorekeeper.rules.cards import CardError, parse_token
from scorekeeper.rules.messages import card_text
from scorekeeper.table.models import Change, ChangeAction, Game
from scorekeeper.table.text import options_text, profile_title

_ACTION_TEXT = {
    ChangeAction.DEAL_ADDED: pgettext_lazy("a change to a deal", "entered"),
    ChangeAction.DEAL_EDITED: pgettext_lazy("a change to a deal", "edited"),
    ChangeAction.DEAL_DELETED: pgettext_lazy("a change to a deal", "deleted"),
    ChangeAction.DEAL_RESTORED: pgettext_lazy("a change to a deal", "restored"),
    ChangeAction.RULES_SWITCHED: gettext_lazy("rules switched"),
}
_HAND_PARTS = (
    ("melds", gettext_lazy("melds")),
    ("melded", gettext_lazy("melded")),
    ("held", gettext_lazy("left in hand")),
    ("deadwood", gettext_lazy("deadwood")),
    ("cards", gettext_lazy("cards")),
)
# Before and after a change (a badge each).
SIDES = {"before": pgettext_lazy("a change", "before"), "after": pgettext_lazy("a change", "after")}


def _label(token: Any) -> str:
    """A card as entered, printed with its suit symbol when it reads as a card ('QS' -> 'Q♠'; shown
    in the reader's letters: as a chip, or through ``card_text``)."""
    try:
        return parse_token(str(token)).label
    except CardError:
        return str(token)


def _done(value: Any, names: Sequence[str], done: str, nobody: str) -> str:
    """Who did it, in the sentence ``done`` ("{name} went out"); ``nobody`` when no one did."""
    if value is None:
        return nobody
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
        return done.format(name=names[value])
    return done.format(name=value)


def deal_facts(cards: Any, names: Sequence[str]) -> list[tuple[str, str]]:
    """How a stored deal (seat form) ended, in words: who went out or knocked, as a sentence says it
    ("Ann went out", the value ""), the upcard, the flags (a fact and its value)."""
    if not isinstance(cards, Mapping):
        return []
    facts: list[tuple[str, str]] = []
    if "points" in cards:  # a points-only deal: typed without cards
        facts.append((gettext("points only"), gettext("not checked")))
        facts.append(
            (_done(cards.get("winner"), names, gettext("{name} won the hand"), gettext("nobody said who won")), "")
        )
    if "out" in cards:
        facts.append((_done(cards["out"], names, gettext("{name} went out"), gettext("Nobody: the stock ran out")), ""))
    if "knocker" in cards:
        facts.append(
            (_done(cards["knocker"], names, gettext("{name} knocked"), gettext("Nobody knocked: a void hand")), "")
        )
    if cards.get("upcard") is not None:
        facts.append((gettext("upcard"), card_text(_label(cards["upcard"]))))
    for key, text in (
        ("first_turn", gettext("on the first turn")),
        ("concealed", gettext("concealed")),
        ("late_misdeal", gettext("misdeal found late")),
    ):
        if cards.get(key) is True:
            facts.append((text, gettext("yes")))
    return facts


def deal_hands(cards: Any, names: Sequence[str], entered_by: Any = None) -> list[dict[str, Any]]:
    """A stored deal's hands per player, as entered: each part a list of groups of printed cards;
    ``entered_by``: by seat, the phone that entered each hand (a deal the players entered)."""
    stored = cards if isinstance(cards, Mapping) else {}
    typed = stored.get("points")
    if isinstance(typed, list):  # a points-only deal: each player's points, as typed
        return [{"name": _seat_name(names, i), "parts": [], "by": "", "points": value} for i, value in enumerate(typed)]
    hands = stored.get("hands")
    by = entered_by if isinstance(entered_by, list) else []
    return [
        {"name": _seat_name(names, seat), "parts": _hand_parts(hand), "by": by[seat] if seat < len(by) else ""}
        for seat, hand in enumerate(hands if isinstance(hands, list) else [])
        if isinstance(hand, Mapping)
    ]


def _seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if seat < len(names) else gettext("seat {n}").format(n=seat + 1)


def _hand_parts(hand: Mapping[str, Any]) -> list[tuple[str, list[list[str]]]]:
    """A hand's parts as entered (melds, melded, held, deadwood, cards), each a list of groups of
    printed cards; a big gin said."""
    parts: list[tuple[str, list[list[str]]]] = []
    for key, label in _HAND_PARTS:
        value = hand.get(key)
        if not isinstance(value, list):
            continue
        groups = [m for m in value if isinstance(m, list)] if key == "melds" else [value] if value else []
        parts.append((str(label), [[_label(c) for c in group] for group in groups]))
    if hand.get("big_gin") is True:
        parts.append((gettext("big gin"), []))
    return parts


def _rules_text(game: Game, rules: Any) -> str:
    if not isinstance(rules, Mapping):
        return ""
    text = profile_title(game.kind, str(rules.get("profile", "")))
    options = rules.get("options") or {}
    if isinstance(options, Mapping) and options:
        text = gettext("{rules} with {options}").format(rules=text, options=options_text(game.kind, options))
    return text


def change_history(game: Game, deal_id: int | None = None) -> list[dict[str, Any]]:
    """The game's changes, newest first (one deal's when ``deal_id`` is given)."""
    names = game.player_names()
    changes = game.changes.select_related("undoes").order_by("-at", "-id")
    if deal_id is not None:
        changes = changes.filter(deal_id=deal_id)
    undone = set(Change.objects.filter(game=game, undoes__isnull=False).values_list("undoes_id", flat=True))
    rows = []
    for c in changes:
        row: dict[str, Any] = {
            "id": c.pk,
            "number": c.number,
            "action": c.action,
            "text": _ACTION_TEXT.get(ChangeAction(c.action), c.action),
            "at": c.at,
            "by": c.by_name,
            "undoes": c.undoes,
            "undone": c.pk in undone,
            "can_undo": c.pk not in undone,
        }
        if c.action == ChangeAction.RULES_SWITCHED:
            row["rules"] = [
                (SIDES["before"], _rules_text(game, c.before)),
                (SIDES["after"], _rules_text(game, c.after)),
            ]
        else:
            row["sides"] = [
                (SIDES[side], deal_facts(data, names), deal_hands(data, names, c.hands_by if side == "after" else None))
                for side, data in (("before", c.before), ("after", c.after))
                if data is not None
            ]
        rows.append(row)
    return rows
