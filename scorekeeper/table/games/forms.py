"""The new-game form: the game, its rule set and house options (one field per knob of the engine's
profile data: ``house_option_fields``, which the re-score and the rule book's forms use too), the
players in seat order, the first dealer and the target."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext, pgettext

from scorekeeper.rules import profiles
from scorekeeper.rules.errors import RecordError
from scorekeeper.rules.messages import source_words
from scorekeeper.table.submissions import SubmissionField
from scorekeeper.table.text import value_text

MAX_SEATS = 5


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
    """The knobs a cleaned house-options form sets, with the engine's types (``profiles.option_values``)."""
    return profiles.option_values(kind, {k.name: cleaned.get(f"{prefix}{k.name}") for k in profiles.knobs(kind)})


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
    """An engine message as players read it on a form: each rule option by its label (“Scoring”,
    German „Wertung“), not by its name in the record ('scoring', German „scoring“)."""
    quoted = pgettext("a word in quotation marks", "“{word}”")
    for k in profiles.knobs(game):
        label = quoted.format(word=gettext(k.label))
        text = text.replace(f"'{k.name}'", label).replace(f"„{k.name}“", label)
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
