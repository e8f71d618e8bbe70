"""The card field: cards typed in the record's notation (RECORD.md; ``docs/record.md``), read by
the engine's card reader and cleaned to their codes, each token that is not a card reported with
what is wrong with it. On a German page B and D also name the jack and the queen."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.forms.boundfield import BoundField
from django.utils.translation import get_language, gettext

from scorekeeper.rules.cards import CardError, Token, parse_card, parse_token, split_cards

MAX_FIELD = 200


# The rank letters a page's language writes in place of the record's (RULES.md §4: German B for the
# jack, D for the queen; K and A are the record's own). A phone in that language may type them; the
# picker (static/picker.js) is given them with the page (``typed_ranks``).
RANK_LETTERS = {"de": {"J": "B", "Q": "D"}}


def rank_letters() -> dict[str, str]:
    """The record's rank letters the page's language writes otherwise (German: J → B, Q → D)."""
    return RANK_LETTERS.get((get_language() or "").split("-")[0], {})


def typed_ranks() -> dict[str, str]:
    """What the page's language types for a record's rank letter, the other way: {"B": "J", "D": "Q"}."""
    return {letter: rank for rank, letter in rank_letters().items()}


def typed_card(token: str, typed: dict[str, str]) -> str:
    """A typed card with the language's rank letters (``typed``) in the record's (German ``DS`` →
    ``QS``, ``2C=BH`` → ``2C=JH``). Only before a suit letter or symbol: the suits stay S, H, D, C,
    and "D" alone (no suit) reads as it is typed."""
    if not typed:
        return token
    letters = re.compile(rf"(?i)(?<![0-9A-Z])([{''.join(typed)}])(?=\s*[SHDC♠♥♦♣♤♡♢♧]$)")
    return "=".join(letters.sub(lambda m: typed[m.group(1).upper()], side) for side in token.split("="))


def read_cards(text: str, *, wild: bool, groups: bool = False) -> tuple[list[list[Token]], list[str]]:
    """Read typed cards in the record's notation: the cards (in groups split by "/" when ``groups``,
    else one group) and what is wrong with each token that is not a card. ``wild``: a card may
    name the card it stands for (``2C=7H``). On a German page B and D also name the jack and the
    queen (``typed_card``)."""
    parts = text.split("/") if groups else [text]
    read: list[list[Token]] = []
    errors: list[str] = []
    typed = typed_ranks()
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


def cards_text(cards: Any) -> str:
    """A list of card codes (or of melds, each a list) as typed: ``QS QH QD / 5S 6S 7S``."""
    if not isinstance(cards, list):
        return ""
    if cards and all(isinstance(m, list) for m in cards):
        return " / ".join(" ".join(str(c) for c in m) for m in cards)
    return " ".join(str(c) for c in cards)


def same_text(a: str, b: str) -> bool:
    return " ".join(a.upper().split()) == " ".join(b.upper().split())


class CardsInput(forms.TextInput):
    """A text input for cards: capitals, no autocorrection; the picker (static/picker.js) fills it."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        base = {
            "class": "cards",
            "autocomplete": "off",
            "autocapitalize": "characters",
            "autocorrect": "off",
            "spellcheck": "false",
        }
        super().__init__({**base, **(attrs or {})})


class CardBoundField(BoundField):
    """A card field is described by its live check (``<id>_check``: what the field holds) and, as
    Django describes every field, by its errors (``<id>_error``)."""

    @property
    def aria_describedby(self) -> str | None:
        given = super().aria_describedby
        if given is None or not self.auto_id:
            return given
        return " ".join([f"{self.auto_id}_check", *given.split()])


class CardListField(forms.CharField):
    """Cards in the notation of RECORD.md, separated by spaces, cleaned to their codes; every token
    that is not a card is reported, each with what is wrong with it. ``wild``: a card may name what
    it stands for (``2C=7H``). ``groups``: melds split by "/", cleaned to a list of lists.
    ``single``: one card, cleaned to its code (None when empty)."""

    widget = CardsInput
    bound_field_class = CardBoundField

    def __init__(self, *, wild: bool = False, groups: bool = False, single: bool = False, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", 12 if single else MAX_FIELD)
        super().__init__(**kwargs)
        self.wild, self.groups, self.single = wild, groups, single
        self.widget.attrs["maxlength"] = str(self.max_length)
        if single:
            self.widget.attrs["class"] = "cards single"

    def read(self, text: str) -> tuple[list[list[Token]], list[str]]:
        return read_cards(text, wild=self.wild, groups=self.groups)

    def clean(self, value: Any) -> Any:
        text = super().clean(value) or ""
        read, errors = self.read(text)
        if errors:
            raise forms.ValidationError(errors, code="card")
        codes = [[t.code for t in group] for group in read]
        if self.single:
            if sum(len(g) for g in codes) > 1:
                raise forms.ValidationError(gettext("Enter one card."), code="single")
            return codes[0][0] if codes else None
        return codes if self.groups else [c for g in codes for c in g]
