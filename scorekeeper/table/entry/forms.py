"""The deal form's parts: the deal's own facts (who went out or knocked, the Gin upcard, how the deal
ended) and one form per player for his cards (a formset), each game's own. Nothing of the games'
rules is here: the engine judges the deal. Anything tampered with gives a message, never an error.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any, cast

from django import forms
from django.forms.formsets import INITIAL_FORM_COUNT, TOTAL_FORM_COUNT, ManagementForm
from django.http import QueryDict
from django.utils.translation import gettext_lazy, pgettext_lazy

from scorekeeper.rules import fieldcheck, games
from scorekeeper.rules.profiles import GIN, OKLAHOMA
from scorekeeper.table.entry.cards import CardListField, same_text
from scorekeeper.table.submissions import SubmissionField


class HandForm(forms.Form):
    """One player's cards in a deal (one form of the deal's formset)."""

    primary: tuple[str, ...] = ()  # the card fields the picker fills in turn
    extra: tuple[str, ...] = ()  # the card fields of another way to enter the hand
    extra_label: Any = ""  # what the other way is, as the page offers it (translated)
    flags: tuple[str, ...] = ()  # check boxes shown with the other way
    companions: Mapping[str, tuple[str, ...]] = {}  # hidden fields that go with a card field

    @classmethod
    def initial_of(cls, hand: Mapping[str, Any]) -> dict[str, Any]:
        """The form's initial values for a player's hand of a saved deal (RECORD.md form)."""
        raise NotImplementedError

    def __init__(self, *args: Any, player: str = "", seat: int = 0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.player, self.seat = player, seat
        self.refilled = False  # a field's value was changed for the page (Oklahoma: the split shown)

    def card_names(self) -> tuple[str, ...]:
        return (*self.primary, *self.extra)

    def is_empty(self) -> bool:
        """Nothing typed in any card field."""
        return not any(str(self[name].value() or "").strip() for name in self.card_names())

    @property
    def extra_open(self) -> bool:
        """Show the other way of entering the hand: it holds something, or an error."""
        return any(str(self[name].value() or "").strip() or self[name].errors for name in self.extra)

    @property
    def split_given(self) -> bool:
        """The player gave the split of his melds himself (a game whose melds the engine splits)."""
        return False

    def show_split(self, text: str) -> None:
        """Show the engine's split of the player's melded cards (a game whose melds the engine splits)."""

    def hand(self) -> dict[str, Any]:
        raise NotImplementedError


class OklahomaHandForm(HandForm):
    """Melded: every card laid down, the engine finds the melds. Melds: the split, given (or
    changed) by hand; left as the engine's split (``auto``), it is not taken as given."""

    melded = CardListField(wild=True, label=pgettext_lazy("a card field: the cards laid down", "Melded"))
    held = CardListField(wild=True, label=gettext_lazy("Left in hand"))
    melds = CardListField(wild=True, groups=True, label=gettext_lazy("Melds, split by “/”"))
    auto = forms.CharField(required=False, widget=forms.HiddenInput)
    primary = ("melded", "held")
    extra = ("melds",)
    extra_label = gettext_lazy("The melds: change the split")
    companions = {"melds": ("auto",)}

    @classmethod
    def initial_of(cls, hand: Mapping[str, Any]) -> dict[str, Any]:
        return games.game(OKLAHOMA).fields_of(hand)

    @property
    def extra_open(self) -> bool:
        return self.split_given or bool(self.errors.get("melds") or self.errors.get("melded"))

    @property
    def split_given(self) -> bool:
        """The melds field holds a split the player typed (not the engine's split shown there)."""
        if not self.is_bound:
            return bool(self.initial.get("melds")) and self.initial.get("melds") != self.initial.get("auto")
        typed = str(self.data.get(self.add_prefix("melds"), ""))
        return bool(typed.strip()) and not same_text(typed, str(self.data.get(self.add_prefix("auto"), "")))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        melded, melds = data.get("melded"), data.get("melds")
        if self.split_given and melded and melds is not None:
            differs = fieldcheck.split_differs(melded, melds)
            if differs is not None:
                self.add_error("melds", str(differs))
        return data

    def hand(self) -> dict[str, Any]:
        return games.game(OKLAHOMA).hand_of({**self.cleaned_data, "split_given": self.split_given})

    def show_split(self, text: str) -> None:
        """Show the engine's split in the melds field, as long as the player has not touched what
        was shown there (``refilled`` says it changed)."""
        source = self.data if self.is_bound else self.initial
        key = self.add_prefix if self.is_bound else str
        shown, auto = str(source.get(key("melds")) or ""), str(source.get(key("auto")) or "")
        if not same_text(shown, auto) or same_text(shown, text):
            return
        if self.is_bound:
            self.data = with_data(self.data, {self.add_prefix("melds"): text, self.add_prefix("auto"): text})
        else:
            self.initial = {**self.initial, "melds": text, "auto": text}
        self.refilled = True


class GinHandForm(HandForm):
    """All the cards (the engine arranges them), or the spread as laid down (melds and deadwood)."""

    cards = CardListField(label=gettext_lazy("Cards"))
    melds = CardListField(groups=True, label=gettext_lazy("Melds as laid down, split by “/”"))
    deadwood = CardListField(label=gettext_lazy("Deadwood"))
    big_gin = forms.BooleanField(required=False, label=gettext_lazy("Big gin (11 cards melded)"))
    primary = ("cards",)
    extra = ("melds", "deadwood")
    extra_label = gettext_lazy("Or the spread as laid down")
    flags = ("big_gin",)

    @classmethod
    def initial_of(cls, hand: Mapping[str, Any]) -> dict[str, Any]:
        return games.game(GIN).fields_of(hand)

    def hand(self) -> dict[str, Any]:
        return games.game(GIN).hand_of(self.cleaned_data)


class HandFormSet(forms.BaseFormSet):
    """One form per player, in seat order: the game says how many, never the post."""

    def __init__(self, *args: Any, players: list[str], **kwargs: Any) -> None:
        self.players = players
        super().__init__(*args, **kwargs)

    @cached_property
    def management_form(self) -> ManagementForm:
        n = len(self.players)
        form = ManagementForm(
            {self.add_prefix(TOTAL_FORM_COUNT): n, self.add_prefix(INITIAL_FORM_COUNT): n},
            auto_id=self.auto_id,
            prefix=self.prefix,
        )
        form.full_clean()
        return form

    def get_form_kwargs(self, index: int | None) -> dict[str, Any]:
        kwargs = super().get_form_kwargs(index)
        if index is not None:
            kwargs.update(player=self.players[index], seat=index)
        return kwargs


OklahomaHands = cast(type[HandFormSet], forms.formset_factory(OklahomaHandForm, formset=HandFormSet, extra=0))


GinHands = cast(type[HandFormSet], forms.formset_factory(GinHandForm, formset=HandFormSet, extra=0))


def int_or_none(value: Any) -> int | None:
    text = str(value or "")
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else None


def with_data(data: Any, changes: Mapping[str, str]) -> Any:
    """A form's posted data with some values changed (the post itself stays as it came)."""
    copy = data.copy() if isinstance(data, QueryDict) else dict(data)
    for key, value in changes.items():
        copy[key] = value
    return copy


class DealFacts(forms.Form):
    """The deal's own facts. ``number`` (the deal the form was opened for), ``version`` (of the deal
    edited) and ``submission`` (the form's one-time token) let the writes refuse a stale form and
    write a doubled submit once."""

    number = forms.CharField(required=False, widget=forms.HiddenInput)
    version = forms.CharField(required=False, widget=forms.HiddenInput)
    submission = SubmissionField()
    game = ""  # the game whose facts these are (``rules.games``)
    actor = ""  # the radio field naming who ended the deal (the game's ``actor``)
    nobody = ""  # its value saying nobody did
    ended: Any = ""  # a radio's words: "{name} went out"
    nobody_label: Any = ""  # the radio saying nobody did
    actor_label: Any = ""  # the question the radios answer
    missing: Any = ""  # said when none is chosen
    card_fields: tuple[str, ...] = ()  # the deal's own card fields, first in the picker's order
    flags: tuple[str, ...] = ()  # check boxes saying how the deal ended
    legend: Any = ""  # the facts' heading on the page
    asked: Any = ""  # the hint asking who ended the deal
    use_required_attribute = False  # the page says what is missing, beside the field

    def __init__(self, *args: Any, players: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = players
        said = str(self.missing)
        self.fields[self.actor] = forms.ChoiceField(
            choices=[(str(i), str(self.ended).format(name=name)) for i, name in enumerate(players)]
            + [(self.nobody, str(self.nobody_label))],
            widget=forms.RadioSelect,
            label=str(self.actor_label),
            error_messages={"required": said, "invalid_choice": said},
        )

    def seat_choice(self, value: str) -> str | None:
        """The player a radio names (None: nobody)."""
        return self.players[int(value)] if value.isdigit() and int(value) < len(self.players) else None

    @classmethod
    def initial_of(cls, deal: Mapping[str, Any], players: list[str]) -> dict[str, Any]:
        """The form's initial values for a saved deal (RECORD.md form: ``rules.games.facts_fields``)."""
        return games.facts_fields(games.game(cls.game), deal, players)

    def deal(self) -> dict[str, Any]:
        """The deal's own facts (RECORD.md), once the form is valid (``Game.facts_of``)."""
        return games.game(self.game).facts_of(self.seat_choice(self.cleaned_data[self.actor]), self.cleaned_data)

    def given(self) -> dict[str, Any]:
        """The facts this form gives, leaving out those not chosen (one player's hand of a deal
        the players enter: the facts are given once, by whoever knows them first)."""
        raise NotImplementedError

    def partial(self) -> None:
        """Nothing of the deal's own is required: a player's hand is sent without them."""
        for name in (self.actor, *self.card_fields):
            self.fields[name].required = False


class OklahomaFacts(DealFacts):
    game = OKLAHOMA
    actor = games.game(OKLAHOMA).actor
    nobody = games.game(OKLAHOMA).no_actor
    ended = gettext_lazy("{name} went out")
    nobody_label = gettext_lazy("Nobody: the stock ran out")
    actor_label = gettext_lazy("Who went out?")
    missing = gettext_lazy("Say who went out, or that the stock ran out.")
    flags = ("first_turn", "concealed", "late_misdeal")
    legend = gettext_lazy("How the deal ended")
    asked = gettext_lazy("Who went out? Say it at that player's cards (“went out”), or:")
    first_turn = forms.BooleanField(required=False, label=gettext_lazy("Went out on the first turn"))
    concealed = forms.BooleanField(required=False, label=gettext_lazy("Went out concealed (nothing melded before)"))
    late_misdeal = forms.BooleanField(
        required=False, label=gettext_lazy("A misdeal was found late (no going-out bonus)")
    )

    def given(self) -> dict[str, Any]:
        if not self.cleaned_data.get("out"):
            return {}
        deal = self.deal()
        return {"late_misdeal": False, **deal}


class GinFacts(DealFacts):
    game = GIN
    actor = games.game(GIN).actor
    nobody = games.game(GIN).no_actor
    ended = gettext_lazy("{name} knocked")
    nobody_label = gettext_lazy("Nobody knocked: a void hand")
    actor_label = gettext_lazy("Who knocked?")
    missing = gettext_lazy("Say who knocked, or that the hand was void.")
    card_fields = ("upcard",)
    legend = pgettext_lazy("Gin: the deal", "The hand")
    asked = gettext_lazy("Who knocked? Say it at that player's cards (“knocked”), or:")
    upcard = CardListField(
        single=True,
        required=True,
        label=gettext_lazy("First upcard"),
        error_messages={"required": gettext_lazy("Enter the first upcard.")},
    )

    def given(self) -> dict[str, Any]:
        data = self.cleaned_data
        out: dict[str, Any] = {}
        if data.get("upcard"):
            out["upcard"] = data["upcard"]
        if data.get("knocker"):
            out["knocker"] = self.seat_choice(data["knocker"])
        return out
