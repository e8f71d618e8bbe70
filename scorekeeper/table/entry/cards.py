"""The card field: cards typed in the record's notation (RECORD.md; ``docs/record.md``), read by
the engine's card reader and cleaned to their codes, each token that is not a card reported with
what is wrong with it. On a German page B and D also name the jack and the queen."""

from __future__ import annotations

from typing import Any

from django import forms
from django.forms.boundfield import BoundField
from django.utils.translation import gettext_lazy

from scorekeeper.rules import fieldcheck
from scorekeeper.rules.cards import Token

MAX_FIELD = 200


def typed_ranks() -> dict[str, str]:
    """What the page's language types for a record's rank letter (German: {"B": "J", "D": "Q"})."""
    return fieldcheck.typed_ranks()


def same_text(a: str, b: str) -> bool:
    return " ".join(a.upper().split()) == " ".join(b.upper().split())


ONE_CARD = gettext_lazy("Enter one card.")  # a field of one card holding more


def _one(cards: list[str]) -> str | None:
    """A field of one card: its code (None when empty)."""
    if len(cards) > 1:
        raise forms.ValidationError(str(ONE_CARD), code="single")
    return cards[0] if cards else None


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
        """The cards typed (``rules.fieldcheck.read_cards``, in the page's language) and what is
        wrong with each token that is not a card."""
        return fieldcheck.read_cards(text, wild=self.wild, groups=self.groups)

    def clean(self, value: Any) -> Any:
        text = super().clean(value) or ""
        read, errors = self.read(text)
        if errors:
            raise forms.ValidationError(errors, code="card")
        codes = [[t.code for t in group] for group in read]
        if self.groups:
            return codes
        cards = [c for g in codes for c in g]
        return _one(cards) if self.single else cards
