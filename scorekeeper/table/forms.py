"""Forms: the new-game form and the deal entry.

The deal entry is a form of the deal's own facts (who went out or knocked, the Gin upcard...) and
a formset of one form per player, whose card fields (``CardListField``) read the record's card
notation and report every token that is not a card. ``DealEntry`` turns them into one RECORD.md
deal with player names and puts every error the engine reports beside the field it concerns, once.
Nothing of the games' rules is here: the engine judges the deal. Anything tampered with gives a
message, never an exception.
"""

from __future__ import annotations

import re
import secrets
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, cast

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.forms.boundfield import BoundField
from django.forms.formsets import INITIAL_FORM_COUNT, TOTAL_FORM_COUNT, ManagementForm
from django.http import QueryDict
from django.utils.translation import get_language, gettext, gettext_lazy, pgettext_lazy

from scorekeeper.rules import games, profiles
from scorekeeper.rules.cards import CardError, Token, parse_card, parse_token, split_cards
from scorekeeper.rules.errors import RecordError
from scorekeeper.rules.messages import source_words
from scorekeeper.table.models import Role
from scorekeeper.table.templatetags.cards import error_cite, value_text

MAX_SEATS = 5


def new_submission() -> str:
    """A fresh token for a form that writes: its submit is then written once, however often it
    arrives (``table.services``)."""
    return secrets.token_urlsafe(24)


class SubmissionField(forms.CharField):
    """A form's one-time token (``new_submission``), hidden. Never an error: anything posted in its
    place that the app did not make (too long, a NUL) is no token to the writes, which then write
    once as for any form (``table.services``)."""

    widget = forms.HiddenInput

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)

    def clean(self, value: Any) -> str:
        return value if isinstance(value, str) else ""


MAX_FIELD = 200


# --------------------------------------------------------------------------- new game


def house_option_fields(kind: str, *, prefix: str, blank: str, skip: tuple[str, ...] = ()) -> dict[str, forms.Field]:
    """THE house-option form fields of a game, one per knob of the engine's profile data, named
    ``<prefix><knob>``; left blank, a knob keeps the rule set's value (``blank`` says so)."""
    fields: dict[str, forms.Field] = {}
    for k in profiles.knobs(kind):
        if k.name in skip:
            continue
        name = f"{prefix}{k.name}"
        if k.type is bool:
            fields[name] = forms.ChoiceField(
                choices=[("", blank), ("true", gettext("yes")), ("false", gettext("no"))],
                required=False,
                label=gettext(k.label),
                help_text=gettext(k.description),
            )
        elif k.allowed is not None:
            allowed = ", ".join(value_text(v) for v in k.allowed)
            fields[name] = forms.ChoiceField(
                choices=[("", blank)] + [(str(v), value_text(v)) for v in k.allowed],
                required=False,
                label=gettext(k.label),
                help_text=gettext(k.description),
                error_messages={
                    "invalid_choice": gettext(
                        "Select a valid choice: {option} must be one of {allowed}, not %(value)s."
                    ).format(option=gettext(k.label), allowed=allowed)
                },
            )
        else:
            fields[name] = forms.IntegerField(
                required=False,
                label=gettext(k.label),
                min_value=k.minimum,
                max_value=k.maximum,
                help_text=gettext(k.description),
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "placeholder": blank}),
            )
    return fields


def house_options(kind: str, cleaned: dict[str, Any], *, prefix: str) -> dict[str, Any]:
    """The knobs a cleaned house-options form sets, with the engine's types."""
    out: dict[str, Any] = {}
    for k in profiles.knobs(kind):
        raw = cleaned.get(f"{prefix}{k.name}")
        if raw in (None, ""):
            continue
        if k.type is bool:
            out[k.name] = raw == "true"
        elif k.type is int:
            out[k.name] = int(raw)
        else:
            out[k.name] = raw
    return out


class NewGameForm(forms.Form):
    """Game, profile, house options, players in seat order, first dealer, target."""

    game = forms.ChoiceField(choices=[(g, profiles.GAME_NAMES[g]) for g in profiles.GAMES], widget=forms.HiddenInput)
    submission = SubmissionField()

    def __init__(self, *args: Any, game: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game_name = game
        self.fields["game"].initial = game
        # The engine's words (its profiles and knobs, marked N_) in the page's language: its catalog has them.
        choices = [
            (name, f"{gettext(p.title)} — {gettext(p.description)}") for name, p in profiles.PROFILES[game].items()
        ]
        # How many seats each profile has: the page shows only those (static/app.css, .seat.beyond-N).
        seats = {name: str(profiles.defaults(game, name)["max_players"]) for name in profiles.PROFILES[game]}
        self.fields["profile"] = forms.ChoiceField(
            choices=choices,
            widget=OptionAttrsRadioSelect({name: {"data-seats": n} for name, n in seats.items()}),
            initial=choices[0][0],
            label=gettext("Rules"),
        )
        most = profiles.knob(game, "max_players").maximum or MAX_SEATS
        self.seats = min(most, MAX_SEATS)
        for i in range(self.seats):
            self.fields[f"seat_{i}"] = forms.CharField(
                max_length=40,
                required=i < 2,
                label=gettext("Seat {number}").format(number=i + 1),
                widget=forms.TextInput(
                    attrs={"autocomplete": "off", "autocapitalize": "words", "placeholder": gettext("name")}
                ),
            )
        # The first dealer is chosen beside his name: each radio is named by the name typed.
        self.fields["first_dealer"] = forms.TypedChoiceField(
            choices=[(i, gettext("Seat {number}").format(number=i + 1)) for i in range(self.seats)],
            coerce=int,
            initial=0,
            label=gettext("First dealer"),
            widget=OptionAttrsRadioSelect(
                {str(i): {"aria-labelledby": f"id_seat_{i} deals-first"} for i in range(self.seats)}
            ),
            error_messages={"invalid_choice": gettext("The first dealer must sit at one of the filled seats.")},
        )
        self.fields["target"] = forms.IntegerField(
            required=False,
            label=gettext("Target"),
            min_value=10,
            max_value=10000,
            help_text=gettext("Leave empty for the profile's target."),
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        )
        self.knobs = [k for k in profiles.knobs(game) if k.name != "target"]
        self.fields.update(house_option_fields(game, prefix="opt_", blank=gettext("profile's value"), skip=("target",)))

    def knob_rows(self) -> list[dict[str, Any]]:
        rows = []
        for k in self.knobs:
            defaults = [
                {
                    "profile": gettext(profiles.PROFILES[self.game_name][p].title),
                    "value": value_text(s.value),
                    "source": str(source_words(s.source)),
                    "basis": s.basis,
                    "note": gettext(s.note) if s.note else "",
                }
                for p, s in k.settings.items()
            ]
            rows.append(
                {
                    "field": self[f"opt_{k.name}"],
                    "knob": k,
                    "label": gettext(k.label),
                    "description": gettext(k.description),
                    "defaults": defaults,
                }
            )
        return rows

    def target_defaults(self) -> list[dict[str, Any]]:
        k = profiles.knob(self.game_name, "target")
        return [
            {
                "profile": gettext(profiles.PROFILES[self.game_name][p].title),
                "value": s.value,
                "source": str(source_words(s.source)),
                "basis": s.basis,
            }
            for p, s in k.settings.items()
        ]

    def seat_rows(self) -> list[dict[str, Any]]:
        """Each seat: its name field, its first-dealer radio, and the seat counts it is beyond."""
        radios = list(self["first_dealer"].subwidgets)
        limits = sorted({int(n) for n in self.seat_counts()})
        return [
            {"field": self[f"seat_{i}"], "dealer": radios[i], "beyond": [n for n in limits if i >= n]}
            for i in range(self.seats)
        ]

    def seat_counts(self) -> list[str]:
        widget = self.fields["profile"].widget
        assert isinstance(widget, OptionAttrsRadioSelect)
        return [attrs["data-seats"] for attrs in widget.option_attrs.values()]

    def players(self) -> list[str]:
        return [
            self.cleaned_data[f"seat_{i}"].strip()
            for i in range(self.seats)
            if self.cleaned_data.get(f"seat_{i}", "").strip()
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        seats = [data.get(f"seat_{i}", "").strip() for i in range(self.seats)]
        # Seats are filled in order: a gap would make "seat order" ambiguous.
        filled = [i for i, s in enumerate(seats) if s]
        if filled and filled[-1] + 1 != len(filled):
            raise forms.ValidationError(gettext("Fill the seats in order, without gaps."))
        first = data.get("first_dealer")
        if first is not None and first >= len(filled):
            self.add_error("first_dealer", gettext("The first dealer must sit at one of the filled seats."))
        return data

    def options(self) -> dict[str, Any]:
        out = house_options(self.game_name, self.cleaned_data, prefix="opt_")
        if self.cleaned_data.get("target") is not None:
            out["target"] = self.cleaned_data["target"]
        return out

    def apply_errors(self, errors: tuple[RecordError, ...]) -> None:
        for e in errors:
            name = None
            if e.field and e.field.startswith("rules.options."):
                knob = e.field.removeprefix("rules.options.")
                name = "target" if knob == "target" else f"opt_{knob}"
            elif e.field == "rules.profile":
                name = "profile"
            elif e.field == "first_dealer":
                name = "first_dealer"
            text = option_words(self.game_name, str(e.message))
            source = str(source_words(e.source))
            if e.source and not text.rstrip().endswith(f"({source})"):
                text += f" ({source})"
            if name in self.fields:
                self.add_error(name, text)
            else:
                self.add_error(None, text)


def option_words(game: str, text: str) -> str:
    """An engine message as players read it on a form: each rule option by its label (“Scoring”),
    not by its name in the record ('scoring')."""
    for k in profiles.knobs(game):
        text = text.replace(f"'{k.name}'", f"“{gettext(k.label)}”")
    return text


class OptionAttrsRadioSelect(forms.RadioSelect):
    """Radio buttons with attributes of their own, by value."""

    def __init__(self, option_attrs: Mapping[str, dict[str, str]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.option_attrs = dict(option_attrs)

    def create_option(self, name: str, value: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(name, value, *args, **kwargs)
        option["attrs"] = {**option["attrs"], **self.option_attrs.get(str(value), {})}
        return option


class JoinForm(forms.Form):
    name = forms.CharField(
        max_length=40,
        label=gettext_lazy("Who is this phone?"),
        help_text=gettext_lazy("So the table sees who changed what, e.g. “Ben's phone”."),
        widget=forms.TextInput(attrs={"autocomplete": "nickname", "autocapitalize": "words"}),
    )


class PhoneNameForm(forms.Form):
    name = forms.CharField(max_length=40, label=gettext_lazy("This phone's name"))


class TableNameForm(forms.Form):
    name = forms.CharField(max_length=60, label=gettext_lazy("The table's name"))


class SeatForm(forms.Form):
    """A phone at a seat of a game ("This is Ben's phone"): ``seat`` the seat's position (empty: no
    seat); ``phone`` (a scorer's form: which phone sits there, empty to clear it; absent: this phone)."""

    seat = forms.TypedChoiceField(coerce=int, empty_value=None, required=False)
    phone = forms.TypedChoiceField(coerce=int, empty_value=None, required=False)

    def __init__(self, *args: Any, seats: list[str], phones: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        seat_field = self.fields["seat"]
        assert isinstance(seat_field, forms.TypedChoiceField)
        seat_field.choices = [("", gettext_lazy("no seat"))] + [(str(i), name) for i, name in enumerate(seats)]
        phone_field = self.fields["phone"]
        assert isinstance(phone_field, forms.TypedChoiceField)
        phone_field.choices = [("", gettext_lazy("nobody"))] + [(str(pk), name) for pk, name in phones]

    @property
    def names_phone(self) -> bool:
        """The form names the phone (a scorer's): else it is this phone's own."""
        return "phone" in self.data


class PointsForm(forms.Form):
    """A points-only deal: each player's points as the table counted them (a number pad, no cards),
    and who went out or won the hand (optional: he deals next). The engine takes it as it is typed
    (``rules.points``): it is marked "not checked" wherever it shows."""

    number = forms.CharField(required=False, widget=forms.HiddenInput)
    version = forms.CharField(required=False, widget=forms.HiddenInput)
    submission = SubmissionField()
    use_required_attribute = False

    def __init__(self, *args: Any, players: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = players
        for i, name in enumerate(players):
            self.fields[f"points_{i}"] = forms.IntegerField(
                label=name,
                min_value=-100_000,
                max_value=100_000,
                error_messages={"required": gettext_lazy("Enter {name}'s points (0 if none).").format(name=name)},
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "pattern": "-?[0-9]*", "autocomplete": "off"}),
            )
        self.fields["winner"] = forms.ChoiceField(
            choices=[("", gettext_lazy("nobody (the dealer deals again)"))]
            + [(str(i), n) for i, n in enumerate(players)],
            required=False,
            label=gettext_lazy("Who went out or won the hand (deals next)"),
        )

    @classmethod
    def initial_of(cls, deal: Mapping[str, Any], players: list[str]) -> dict[str, Any]:
        """The form's initial values for a saved points-only deal (RECORD.md form, names)."""
        raw = deal.get("points")
        typed: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
        initial: dict[str, Any] = {f"points_{i}": typed.get(n) for i, n in enumerate(players)}
        winner = deal.get("winner")
        initial["winner"] = str(players.index(winner)) if winner in players else ""
        return initial

    def deal(self) -> dict[str, Any]:
        """The points-only deal (names), once the form is valid."""
        data = self.cleaned_data
        winner = data.get("winner")
        deal: dict[str, Any] = {"points": {n: data[f"points_{i}"] for i, n in enumerate(self.players)}}
        if winner:
            deal["winner"] = self.players[int(winner)]
        return deal

    def point_fields(self) -> list[BoundField]:
        return [self[f"points_{i}"] for i in range(len(self.players))]


class RoleForm(forms.Form):
    """What a link or a phone lets do: score or follow."""

    role = forms.ChoiceField(choices=Role.choices)


# --------------------------------------------------------------------------- card lists


# A German phone also takes the German rank letters: B (Bube) for J, D (Dame) for Q; K (König) and
# A (Ass) are the record's own. Only before a suit letter or symbol ("DS", "bh", "D♠", "2C=DH"): the
# suits stay S, H, D, C, and "D" alone (no suit) reads as before. English phones read the record's
# notation only: there "DS" stays a mistyped card, said so, as it always was.
_GERMAN_RANK = re.compile(r"(?i)(?<![0-9A-Z])([BD])(?=\s*[SHDC♠♥♦♣♤♡♢♧]$)")


def german_card(token: str) -> str:
    """A typed card with the German rank letters in the record's (``DS`` → ``QS``, ``2C=BH`` → ``2C=JH``)."""
    return "=".join(_GERMAN_RANK.sub(lambda m: "J" if m.group(1) in "Bb" else "Q", side) for side in token.split("="))


def german_cards() -> bool:
    """Whether typed cards may use the German rank letters: the page is in German."""
    return (get_language() or "").split("-")[0] == "de"


def read_cards(text: str, *, wild: bool, groups: bool = False) -> tuple[list[list[Token]], list[str]]:
    """Read typed cards in the record's notation: the cards (in groups split by "/" when ``groups``,
    else one group) and what is wrong with each token that is not a card. ``wild``: a card may
    name the card it stands for (``2C=7H``). On a German page B and D also name the jack and the
    queen (``german_card``)."""
    parts = text.split("/") if groups else [text]
    read: list[list[Token]] = []
    errors: list[str] = []
    german = german_cards()
    for part in parts:
        tokens = []
        for typed in split_cards(part):
            raw = german_card(typed) if german else typed
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


def _with(data: Any, changes: Mapping[str, str]) -> Any:
    """A form's posted data with some values changed (the post itself stays as it came)."""
    copy = data.copy() if isinstance(data, QueryDict) else dict(data)
    for key, value in changes.items():
        copy[key] = value
    return copy


def _same_text(a: str, b: str) -> bool:
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


# --------------------------------------------------------------------------- deal entry


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
        raw_melds = hand.get("melds")
        melds: list[Any] = raw_melds if isinstance(raw_melds, list) else []
        flat = [c for m in melds if isinstance(m, list) for c in m]
        return {
            "melded": cards_text(hand.get("melded") or flat),
            "melds": cards_text(melds) if melds else "",
            "held": cards_text(hand.get("held")),
        }

    @property
    def extra_open(self) -> bool:
        return self.split_given or bool(self.errors.get("melds") or self.errors.get("melded"))

    @property
    def split_given(self) -> bool:
        """The melds field holds a split the player typed (not the engine's split shown there)."""
        if not self.is_bound:
            return bool(self.initial.get("melds")) and self.initial.get("melds") != self.initial.get("auto")
        typed = str(self.data.get(self.add_prefix("melds"), ""))
        return bool(typed.strip()) and not _same_text(typed, str(self.data.get(self.add_prefix("auto"), "")))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        melded, melds = data.get("melded"), data.get("melds")
        if self.split_given and melded and melds is not None:
            given = Counter(c.split("=")[0] for m in melds for c in m)
            laid = Counter(c.split("=")[0] for c in melded)
            if given != laid:
                extra = " ".join(parse_card(c).label for c in (given - laid).elements())
                missing = " ".join(parse_card(c).label for c in (laid - given).elements())
                parts = [
                    gettext("not melded: {cards}").format(cards=extra) if extra else "",
                    gettext("missing: {cards}").format(cards=missing) if missing else "",
                ]
                self.add_error(
                    "melds",
                    gettext("These melds must hold the cards melded above ({problems}).").format(
                        problems="; ".join(p for p in parts if p)
                    ),
                )
        return data

    def hand(self) -> dict[str, Any]:
        data = self.cleaned_data
        held = data.get("held") or []
        if self.split_given:
            return {"melds": data.get("melds") or [], "held": held}
        if data.get("melded"):
            return {"melded": data["melded"], "held": held}
        return {"melds": [], "held": held}

    def show_split(self, text: str) -> None:
        """Show the engine's split in the melds field, as long as the player has not touched what
        was shown there (``refilled`` says it changed)."""
        source = self.data if self.is_bound else self.initial
        key = self.add_prefix if self.is_bound else str
        shown, auto = str(source.get(key("melds")) or ""), str(source.get(key("auto")) or "")
        if not _same_text(shown, auto) or _same_text(shown, text):
            return
        if self.is_bound:
            self.data = _with(self.data, {self.add_prefix("melds"): text, self.add_prefix("auto"): text})
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
        raw_melds = hand.get("melds")
        return {
            "cards": cards_text(hand.get("cards")),
            "melds": cards_text(raw_melds if isinstance(raw_melds, list) else []),
            "deadwood": cards_text(hand.get("deadwood")),
            "big_gin": bool(hand.get("big_gin")),
        }

    def hand(self) -> dict[str, Any]:
        data = self.cleaned_data
        hand: dict[str, Any] = {}
        if data.get("cards"):
            hand["cards"] = data["cards"]
        if data.get("melds") or data.get("deadwood"):
            hand["melds"] = data.get("melds") or []
            hand["deadwood"] = data.get("deadwood") or []
        if not hand:
            hand["cards"] = []
        if data.get("big_gin"):
            hand["big_gin"] = True
        return hand


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


def _int(value: Any) -> int | None:
    text = str(value or "")
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else None


class DealFacts(forms.Form):
    """The deal's own facts. ``number`` (the deal the form was opened for), ``version`` (of the deal
    edited) and ``submission`` (the form's one-time token) let the writes refuse a stale form and
    write a doubled submit once."""

    number = forms.CharField(required=False, widget=forms.HiddenInput)
    version = forms.CharField(required=False, widget=forms.HiddenInput)
    submission = SubmissionField()
    actor = ""  # the radio field naming who ended the deal
    nobody = ""  # its value saying nobody did
    card_fields: tuple[str, ...] = ()  # the deal's own card fields, first in the picker's order
    flags: tuple[str, ...] = ()  # check boxes saying how the deal ended
    legend: Any = ""  # the facts' heading on the page
    asked: Any = ""  # the hint asking who ended the deal
    use_required_attribute = False  # the page says what is missing, beside the field

    def __init__(self, *args: Any, players: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = players

    def seat_choice(self, value: str) -> str | None:
        """The player a radio names (None: nobody)."""
        return self.players[int(value)] if value.isdigit() and int(value) < len(self.players) else None

    @classmethod
    def initial_of(cls, deal: Mapping[str, Any], players: list[str]) -> dict[str, Any]:
        """The form's initial values for a saved deal (RECORD.md form)."""
        facts: dict[str, Any] = {}
        seat = {name: str(i) for i, name in enumerate(players)}
        if cls.actor in deal:
            facts[cls.actor] = seat.get(deal[cls.actor], "") if deal[cls.actor] is not None else cls.nobody
        facts.update({name: bool(deal.get(name)) for name in cls.flags})
        return facts

    def deal(self) -> dict[str, Any]:
        raise NotImplementedError

    def given(self) -> dict[str, Any]:
        """The facts this form gives, leaving out those not chosen (one player's hand of a deal
        the players enter: the facts are given once, by whoever knows them first)."""
        raise NotImplementedError

    def partial(self) -> None:
        """Nothing of the deal's own is required: a player's hand is sent without them."""
        for name in (self.actor, *self.card_fields):
            self.fields[name].required = False


class OklahomaFacts(DealFacts):
    actor = "out"
    nobody = "stock"
    flags = ("first_turn", "concealed", "late_misdeal")
    legend = gettext_lazy("How the deal ended")
    asked = gettext_lazy("Who went out? Say it at that player's cards (“went out”), or:")
    first_turn = forms.BooleanField(required=False, label=gettext_lazy("Went out on the first turn"))
    concealed = forms.BooleanField(required=False, label=gettext_lazy("Went out concealed (nothing melded before)"))
    late_misdeal = forms.BooleanField(
        required=False, label=gettext_lazy("A misdeal was found late (no going-out bonus)")
    )

    def __init__(self, *args: Any, players: list[str], **kwargs: Any) -> None:
        super().__init__(*args, players=players, **kwargs)
        asked = gettext("Say who went out, or that the stock ran out.")
        self.fields["out"] = forms.ChoiceField(
            choices=[(str(i), gettext("{name} went out").format(name=name)) for i, name in enumerate(players)]
            + [("stock", gettext("Nobody: the stock ran out"))],
            widget=forms.RadioSelect,
            label=gettext("Who went out?"),
            error_messages={"required": asked, "invalid_choice": asked},
        )

    def deal(self) -> dict[str, Any]:
        data = self.cleaned_data
        deal = {
            "out": self.seat_choice(data["out"]),
            "first_turn": bool(data.get("first_turn")),
            "concealed": bool(data.get("concealed")),
        }
        if data.get("late_misdeal"):
            deal["late_misdeal"] = True
        return deal

    def given(self) -> dict[str, Any]:
        if not self.cleaned_data.get("out"):
            return {}
        deal = self.deal()
        return {"late_misdeal": False, **deal}


class GinFacts(DealFacts):
    actor = "knocker"
    nobody = "void"
    card_fields = ("upcard",)
    legend = pgettext_lazy("Gin: the deal", "The hand")
    asked = gettext_lazy("Who knocked? Say it at that player's cards (“knocked”), or:")
    upcard = CardListField(
        single=True,
        required=True,
        label=gettext_lazy("First upcard"),
        error_messages={"required": gettext_lazy("Enter the first upcard.")},
    )

    def __init__(self, *args: Any, players: list[str], **kwargs: Any) -> None:
        super().__init__(*args, players=players, **kwargs)
        asked = gettext("Say who knocked, or that the hand was void.")
        self.fields["knocker"] = forms.ChoiceField(
            choices=[(str(i), gettext("{name} knocked").format(name=name)) for i, name in enumerate(players)]
            + [("void", gettext("Nobody knocked: a void hand"))],
            widget=forms.RadioSelect,
            label=gettext("Who knocked?"),
            error_messages={"required": asked, "invalid_choice": asked},
        )

    @classmethod
    def initial_of(cls, deal: Mapping[str, Any], players: list[str]) -> dict[str, Any]:
        return {**super().initial_of(deal, players), "upcard": str(deal.get("upcard") or "")}

    def deal(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"upcard": data["upcard"], "knocker": self.seat_choice(data["knocker"])}

    def given(self) -> dict[str, Any]:
        data = self.cleaned_data
        out: dict[str, Any] = {}
        if data.get("upcard"):
            out["upcard"] = data["upcard"]
        if data.get("knocker"):
            out["knocker"] = self.seat_choice(data["knocker"])
        return out


def error_text(e: RecordError) -> str:
    text = str(e.message)
    if e.rule or e.source:
        text += f" — {error_cite(e)}"
    return text


@dataclass
class Slot:
    """A card field as the page shows it: the field, its live check, and whether the picker's
    Next and Back go through it."""

    field: BoundField
    check: Any = None  # table.checks.FieldCheck, set by table.checks.attach
    pick: bool = True

    @property
    def companions(self) -> list[BoundField]:
        """The hidden fields that go with this one (the Oklahoma melds: the split shown)."""
        form = self.field.form
        names = form.companions.get(self.field.name, ()) if isinstance(form, HandForm) else ()
        return [form[name] for name in names]


@dataclass
class Section:
    """One player's part of the page."""

    form: HandForm
    actor: Any  # the radio saying this player went out (knocked)
    primary: list[Slot]
    extra: list[Slot]

    @property
    def player(self) -> str:
        return self.form.player

    @property
    def seat(self) -> int:
        return self.form.seat

    @property
    def extra_open(self) -> bool:
        return self.form.extra_open

    @property
    def flags(self) -> list[BoundField]:
        return [self.form[name] for name in self.form.flags]


class DealEntry:
    """The deal form: the deal's own facts (a form) and one form per player (a formset). Each game
    has its entry (``OklahomaEntry``, ``GinEntry``: its forms, where its facts sit, its hint);
    ``deal_entry`` gives the game's.

    ``to_data`` gives the RECORD.md deal (player names) or None while a field does not read;
    ``apply_errors`` puts each error of the engine beside the field it concerns, once."""

    kind: str  # the game (the record's "game")
    facts_form: type[DealFacts]
    hands_formset: type[HandFormSet]
    facts_first = False  # the deal's facts come before the players' cards on the page
    template = ""  # the game's partials of the page (its hint)

    def __init__(
        self,
        *,
        players: list[str],
        data: Any = None,
        initial: Mapping[str, Any] | None = None,
        number: int | None = None,
        version: int | None = None,
        submission: str = "",
        live: bool = False,
        seat: int | None = None,
    ) -> None:
        self.game = games.game(self.kind)
        self.players = players
        self.live = live  # a preview while the deal is being entered: empty fields are not nagged
        self.seat = seat  # one player's hand only (his phone): the deal's facts as far as known
        facts, hands = self._initial(initial or {}) if data is None else ({}, None)
        facts.update(number=number, version=version, submission=submission)
        self.facts: DealFacts = self.facts_form(data, initial=facts, players=players)
        if seat is not None:
            self.facts.partial()
        self.hands: HandFormSet = self.hands_formset(data, initial=hands, prefix="p", players=players)
        self.focus = ""  # the id of what takes the focus after a failed save

    # ---- the initial form of a saved deal
    def _initial(self, deal: Mapping[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        raw_hands = deal.get("hands")
        hands = raw_hands if isinstance(raw_hands, Mapping) else {}
        form = self.hands_formset.form
        assert issubclass(form, HandForm)
        initial = []
        for name in self.players:
            hand = hands.get(name)
            initial.append(form.initial_of(hand if isinstance(hand, Mapping) else {}))
        return self.facts_form.initial_of(deal, self.players), initial

    # ---- what the page shows
    @cached_property
    def sections(self) -> list[Section]:
        actors = list(self.facts[self.facts.actor].subwidgets)
        out = []
        for form in self.hands.forms:
            if self.seat is not None and form.seat != self.seat:
                continue
            out.append(
                Section(
                    form=form,
                    actor=actors[form.seat] if form.seat < len(actors) else None,
                    primary=[Slot(form[name]) for name in form.primary],
                    extra=[Slot(form[name], pick=False) for name in form.extra],
                )
            )
        return out

    @property
    def actor_field(self) -> BoundField:
        """Who went out (Oklahoma) or knocked (Gin)."""
        return self.facts[self.facts.actor]

    @property
    def flags(self) -> list[BoundField]:
        """How the deal ended (Oklahoma: how the player went out)."""
        return [self.facts[name] for name in self.facts.flags]

    @property
    def hint_template(self) -> str:
        return f"{self.template}#hint"

    @property
    def other_actors(self) -> list[Any]:
        """One player's hand: the radios saying another player went out (knocked)."""
        if self.seat is None:
            return []
        radios = list(self.facts[self.facts.actor].subwidgets)[:-1]
        return [r for i, r in enumerate(radios) if i != self.seat]

    @property
    def nobody(self) -> Any:
        """The radio saying nobody went out (knocked)."""
        return list(self.facts[self.facts.actor].subwidgets)[-1]

    @cached_property
    def fact_slots(self) -> list[Slot]:
        """The deal's own card fields (the Gin upcard)."""
        return [Slot(self.facts[name]) for name in self.facts.card_fields]

    @cached_property
    def slots(self) -> list[Slot]:
        """Every card field in the page's order (the deal's own first)."""
        out = list(self.fact_slots)
        for s in self.sections:
            out += s.primary + s.extra
        return out

    @property
    def number(self) -> int | None:
        if self.facts.is_bound:
            return _int(self.facts.data.get("number"))
        return _int(self.facts.initial.get("number"))

    @property
    def version(self) -> int | None:
        if self.facts.is_bound:
            return _int(self.facts.data.get("version"))
        return _int(self.facts.initial.get("version"))

    @property
    def submission(self) -> str:
        source = self.facts.data if self.facts.is_bound else self.facts.initial
        return str(source.get("submission") or "")

    def restart(
        self, *, number: int | None = None, next_deal: bool = False, version: int | None = None, submission: str
    ) -> None:
        """The form answers a conflict: the next save is a new submission (of the deal now there);
        ``next_deal``: it saves the next deal, whatever number that is then (no number)."""
        changes = {"submission": submission}
        if next_deal:
            changes["number"] = ""
        elif number is not None:
            changes["number"] = str(number)
        if version is not None:
            changes["version"] = str(version)
        self.facts.data = _with(self.facts.data, changes)

    # ---- reading
    def to_data(self) -> dict[str, Any] | None:
        """The RECORD.md deal, or None while a field does not read (the errors are on the fields)."""
        facts_ok = self.facts.is_valid()
        hands_ok = self.hands.is_valid()
        if not (facts_ok and hands_ok):
            return None
        return {**self.facts.deal(), "hands": {form.player: form.hand() for form in self.hands.forms}}

    def own(self) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """One player's hand (``seat``): the deal's facts it gives and the hand (RECORD.md form),
        or None while a field does not read."""
        assert self.seat is not None
        facts_ok = self.facts.is_valid()
        hands_ok = self.hands.is_valid()
        if not (facts_ok and hands_ok):
            return None
        return self.facts.given(), self.hands.forms[self.seat].hand()

    # ---- errors
    @staticmethod
    def add(form: forms.BaseForm, name: str | None, text: str) -> None:
        """An error on a field (None: the form), unless it is shown there already. A form as
        opened (unbound: a saved deal's cards) holds no errors; its live checks mark a bad meld."""
        if not form.is_bound:
            return
        key = name or NON_FIELD_ERRORS
        if text not in form.errors.get(key, []):
            form.add_error(name, text)

    def apply_errors(self, errors: Iterable[RecordError], number: int) -> None:
        for e in errors:
            text = error_text(e)
            if e.deal is not None and e.deal != number:
                self.add(self.facts, None, gettext("Deal {number}: {error}").format(number=e.deal, error=text))
                continue
            form, name = self._place(e)
            self.add(form, name, text)

    def _hand_of(self, e: RecordError) -> tuple[HandForm | None, str]:
        """The player's form an error concerns, and the rest of its field path."""
        field = e.field or ""
        for form in sorted(self.hands.forms, key=lambda f: -len(f.player)):
            head = f"hands.{form.player}"
            if field == head or field.startswith(head + "."):
                return form, field[len(head) + 1 :]
        if e.player is not None:
            for form in self.hands.forms:
                if form.player.casefold() == str(e.player).casefold():
                    return form, ""
        return None, field

    def _place(self, e: RecordError) -> tuple[forms.Form, str | None]:
        form, rest = self._hand_of(e)
        if form is None:
            key = rest.split(".")[0]
            if key in self.facts.fields and key not in ("number", "version", "submission"):
                return self.facts, key
            return self.facts, None
        key = re.sub(r"\[\d+\]$", "", rest.split(".")[0])
        if key == "melds" and isinstance(form, OklahomaHandForm) and not form.split_given:
            key = "melded"
        if key in form.fields and key != "auto":
            return form, key
        if e.cards:
            holder = self._field_holding(form, e.cards)
            if holder:
                return form, holder
        return form, None

    @staticmethod
    def _field_holding(form: HandForm, cards: Iterable[str]) -> str | None:
        wanted = {c.replace(" ", "") for c in cards}
        for name in form.card_names():
            field = form.fields[name]
            assert isinstance(field, CardListField)
            read, _ = field.read(str(form[name].value() or ""))
            labels: set[str] = set()
            for t in (t for group in read for t in group):
                labels.update({t.card.label, t.label, t.card.code, t.code})
            if labels and wanted <= labels:
                return name
        return None

    def quiet(self) -> None:
        """While the deal is being entered, say nothing about what is not entered yet: fields left
        empty, players with no card entered yet, who went out (knocked) before anyone is chosen."""
        for form in [self.facts, *self.hands.forms]:
            for name in list(form.errors):
                if name == NON_FIELD_ERRORS:
                    if isinstance(form, HandForm) and form.is_empty():
                        del form.errors[name]
                    continue
                if name in form.fields and not str(form[name].value() or "").strip():
                    del form.errors[name]

    def settle(self) -> None:
        """The errors as the page shows them: while the deal is entered (``live``) nothing about
        what is not entered yet, after a failed save the focus on the first field in error."""
        if self.live:
            self.quiet()
        elif self.has_errors:
            self.find_focus()

    @property
    def has_errors(self) -> bool:
        return bool(self.facts.errors or self.hands.non_form_errors() or any(f.errors for f in self.hands.forms))

    def find_focus(self) -> str:
        """Where the focus goes after a failed save: the first field in error in the page's order
        (an error of the deal as a whole: its message). Sets ``focus`` to the element's id."""
        self.focus = self._first_error()
        return self.focus

    def _first_error(self) -> str:
        if self.facts.non_field_errors() or self.hands.non_form_errors():
            return "deal-errors"
        facts = [bound for bound in self.facts.visible_fields() if bound.errors]
        players: list[BoundField] = []
        for s in self.sections:
            if s.form.non_field_errors():
                players.append(s.primary[0].field)
            players += [bound for bound in s.form.visible_fields() if bound.errors]
        ordered = [*facts, *players] if self.facts_first else [*players, *facts]
        return self._focus(ordered[0]) if ordered else ""

    def _focus(self, bound: BoundField) -> str:
        """Give a field the focus; the id of what takes it (who ended the deal: the first radio,
        as the page shows them)."""
        if bound.form is self.facts and bound.name == self.facts.actor:
            first = bound.subwidgets[0]
            first.data["attrs"]["autofocus"] = True
            return str(first.id_for_label)
        bound.field.widget.attrs["autofocus"] = True
        return bound.auto_id


class OklahomaEntry(DealEntry):
    kind = profiles.OKLAHOMA
    facts_form = OklahomaFacts
    hands_formset = OklahomaHands
    template = "table/entry/oklahoma.html"


class GinEntry(DealEntry):
    kind = profiles.GIN
    facts_form = GinFacts
    hands_formset = GinHands
    facts_first = True  # the first upcard is known before anyone plays
    template = "table/entry/gin.html"


ENTRIES: dict[str, type[DealEntry]] = {OklahomaEntry.kind: OklahomaEntry, GinEntry.kind: GinEntry}


def deal_entry(kind: str, **kwargs: Any) -> DealEntry:
    """The deal form of the game ``kind`` (``DealEntry``'s arguments)."""
    return ENTRIES[kind](**kwargs)
