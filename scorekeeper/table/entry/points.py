"""The points-only deal's form: each player's points as the table counted them, no cards."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import forms
from django.forms.boundfield import BoundField
from django.utils.translation import gettext_lazy

from scorekeeper.rules.errors import RecordError
from scorekeeper.table.entry.forms import with_data
from scorekeeper.table.submissions import SubmissionField
from scorekeeper.table.text import error_text


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

    def read(self) -> dict[str, Any] | None:
        """The points-only deal (RECORD.md, names), or None while a field does not read."""
        return self.deal() if self.is_valid() else None

    def refuse(self, errors: Iterable[RecordError]) -> None:
        """Each of the engine's errors beside the player's points it concerns (``flow.post``)."""
        for e in errors:
            field = (e.field or "").removeprefix("points.")
            name = f"points_{self.players.index(field)}" if field in self.players else None
            self.add_error(name, error_text(e))

    def restart(self, changes: Mapping[str, str]) -> None:
        """The form answers a conflict (``flow.post``): its hidden fields take these values."""
        self.data = with_data(self.data, changes)

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
