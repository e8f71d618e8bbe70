"""The forms of the phones and links: who a joining phone is, a phone's and the table's names, what a
link or a phone lets do, which phone sits at a seat."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from scorekeeper.table.models import Role


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


class RoleForm(forms.Form):
    """What a link or a phone lets do: score or follow."""

    role = forms.ChoiceField(choices=Role.choices)


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
