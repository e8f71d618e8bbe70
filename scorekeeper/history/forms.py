"""The history pages' inputs: the games filter, re-score, rename, merge, import."""

from __future__ import annotations

from typing import IO, Any, cast

from django import forms
from django.utils.translation import gettext, gettext_lazy

from scorekeeper.rulebook.forms import in_language
from scorekeeper.rules import profiles
from scorekeeper.table.games.forms import house_option_fields, house_options
from scorekeeper.table.models import Game, GameKind, GameState, Player
from scorekeeper.table.submissions import SubmissionField

# A phone's import: at most 16 MB (several hundred games). The import holds the database for its
# writes while it runs, so a larger history goes in on the server: manage.py import_games. An upload
# larger than Django's FILE_UPLOAD_MAX_MEMORY_SIZE is spooled to a temporary file and read a chunk
# at a time.
MAX_UPLOAD = 16 * 1024 * 1024
TOO_LARGE = gettext_lazy(
    "the file is larger than 16 MB: import a history that large on the server, with manage.py import_games"
)


class GamesFilter(forms.Form):
    player = forms.CharField(required=False, max_length=40)
    game = forms.ChoiceField(required=False, choices=[("", gettext_lazy("Both games")), *GameKind.choices])
    state = forms.ChoiceField(required=False, choices=[("", gettext_lazy("Any")), *GameState.choices])
    page = forms.IntegerField(required=False, min_value=1, max_value=1_000_000)


class RescoreForm(forms.Form):
    """Another rule set and house options to compare the game under (and to switch it to)."""

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        choices = [
            (
                p.name,
                gettext("{rules} (the game's own)").format(rules=gettext(p.title))
                if p.name == game.profile
                else gettext(p.title),
            )
            for p in profiles.PROFILES[game.kind].values()
        ]
        other = next((p for p in profiles.PROFILES[game.kind] if p != game.profile), game.profile)
        self.fields["profile"] = forms.ChoiceField(choices=choices, initial=other, label=gettext("Other rules"))
        numbers = list(game.deals.order_by("number").values_list("number", flat=True))
        self.fields["deal"] = forms.TypedChoiceField(
            choices=[("", gettext("the whole game"))] + [(n, gettext("deal {n}").format(n=n)) for n in numbers],
            coerce=int,
            required=False,
            empty_value=None,
            label=gettext("Compare"),
        )
        self.fields.update(in_language(house_option_fields(game.kind, prefix="o_", blank=gettext("as the rules say"))))

    def profile(self) -> str:
        return self.cleaned_data.get("profile") or self.fields["profile"].initial

    def options(self) -> dict[str, Any]:
        return house_options(self.game.kind, self.cleaned_data, prefix="o_")

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("o_")]


class RenameForm(forms.Form):
    name = forms.CharField(max_length=40, label=gettext_lazy("New name"))


class MergeForm(forms.Form):
    # Django 6.1's own "- Select an option -" has no German yet: ours has.
    into = forms.ModelChoiceField(
        queryset=Player.objects.none(),
        label=gettext_lazy("Merge into"),
        empty_label=gettext_lazy("- Select an option -"),
    )

    def __init__(self, *args: Any, player: Player, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        into = self.fields["into"]
        assert isinstance(into, forms.ModelChoiceField)
        into.queryset = Player.objects.filter(table_id=player.table_id).exclude(pk=player.pk)


class ImportForm(forms.Form):
    file = forms.FileField(required=False, label=gettext_lazy("File of game records"))
    text = forms.CharField(required=False, widget=forms.Textarea, label=gettext_lazy("…or paste a record"))
    submission = SubmissionField()  # a double tap on Import imports once

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("file")
        if upload is not None and upload.size > MAX_UPLOAD:
            raise forms.ValidationError(TOO_LARGE)
        if upload is None and not data.get("text"):
            raise forms.ValidationError(gettext("choose a file of game records (JSON) or paste one"))
        return data

    def payload(self) -> str | IO[bytes]:
        """The pasted text, or the uploaded file open for reading (in memory or on disk)."""
        upload = self.cleaned_data.get("file")
        if upload is None:
            return str(self.cleaned_data["text"])
        upload.seek(0)
        return cast(IO[bytes], upload)
