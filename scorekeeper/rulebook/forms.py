"""The ruling checker's question, read from the request (GET for a shareable link, POST for a
long one). Anything odd falls back to a default and is said; nothing here raises. And the house
options a rule book page is shown with."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from django import forms
from django.utils.translation import gettext

from scorekeeper.rules import checker, profiles
from scorekeeper.rules.errors import RecordError
from scorekeeper.rules.messages import source_words
from scorekeeper.table.games.forms import house_option_fields, house_options

MAX_TEXT = checker.MAX_TEXT
MAX_DEAL = checker.MAX_DEAL


class CheckerForm(forms.Form):
    kind = forms.CharField(required=False, max_length=20)
    game = forms.CharField(required=False, max_length=20)
    profile = forms.CharField(required=False, max_length=20)
    cards = forms.CharField(required=False, max_length=MAX_TEXT, strip=False)
    upcard = forms.CharField(required=False, max_length=MAX_TEXT, strip=False)
    spread = forms.CharField(required=False, max_length=MAX_TEXT, strip=False)
    other = forms.CharField(required=False, max_length=MAX_TEXT, strip=False)
    deal = forms.CharField(required=False, max_length=MAX_DEAL, strip=False)

    def __init__(self, data: Any = None) -> None:
        super().__init__(data or None)
        self.problems: list[str] = []
        self.chosen: dict[str, str] = {}
        self._resolve(data or {})

    def _text(self, data: Any, name: str, limit: int) -> str:
        value = data.get(name, "") if hasattr(data, "get") else ""
        return str(value or "").replace("\x00", "")[:limit]

    def _resolve(self, data: Any) -> None:
        kind, game, profile = self._known(data)
        profile_game = next((g for g in profiles.GAMES if profile in profiles.PROFILES[g]), "")
        if kind and checker.KIND_GAME[kind]:
            game = checker.KIND_GAME[kind]
        elif profile_game:
            game = profile_game
        game = game or profiles.GIN
        kind = kind or ("knock" if game == profiles.GIN else "meld")
        # A rule set of the other game (e.g. after switching the question) falls back to the default.
        profile = profile if profile_game == game else checker.DEFAULT_PROFILE[game]
        self.options = self._options(data, game)
        self.chosen = {
            "kind": kind,
            "game": game,
            "profile": profile,
            "cards": self._text(data, "cards", MAX_TEXT),
            "upcard": self._text(data, "upcard", MAX_TEXT),
            "spread": self._text(data, "spread", MAX_TEXT),
            "other": self._text(data, "other", MAX_TEXT),
            "deal": self._text(data, "deal", MAX_DEAL),
        }

    def _known(self, data: Any) -> tuple[str, str, str]:
        """The kind, game and rule set asked for, each "" when not given or not known (which is said)."""
        kind = self._text(data, "kind", 20)
        game = self._text(data, "game", 20)
        profile = self._text(data, "profile", 20)
        if kind and kind not in checker.KIND_GAME:
            self.problems.append(gettext("unknown question '{kind}'").format(kind=kind))
            kind = ""
        if game and game not in profiles.PROFILES:
            self.problems.append(gettext("unknown game '{game}'").format(game=game))
            game = ""
        if profile and not any(profile in profiles.PROFILES[g] for g in profiles.GAMES):
            self.problems.append(gettext("unknown rule set '{profile}'").format(profile=profile))
            profile = ""
        return kind, game, profile

    def _options(self, data: Any, game: str) -> dict[str, Any]:
        """The game's house options in the request, named as the knobs (``?joker=false``), read as the
        rule book page reads them; a value the field refuses is said and left out."""
        form = BookOptionsForm(data if hasattr(data, "get") else None, game=game)
        options = form.options()
        for name, errors in form.errors.items():
            self.problems += [f"{form.fields[name].label}: {e}" for e in errors] if name in form.fields else []
        return options

    def asked(self) -> bool:
        return any(self.chosen[k].strip() for k in ("cards", "upcard", "spread", "other", "deal"))

    def question(self) -> checker.Question:
        c = self.chosen
        return checker.Question(
            kind=c["kind"],
            game=c["game"],
            profile=c["profile"],
            cards=c["cards"],
            upcard=c["upcard"],
            spread=c["spread"],
            other=c["other"],
            deal=c["deal"],
            options=self.options,
        )


def in_language(fields: dict[str, forms.Field]) -> dict[str, forms.Field]:
    """House-option fields with their labels, help and choices in the request's language (the
    knobs' words are the engine's, marked with ``N_``; a word already translated stays as it is)."""
    for field in fields.values():
        field.label = gettext(str(field.label)) if field.label else field.label
        field.help_text = gettext(str(field.help_text)) if field.help_text else field.help_text
        if isinstance(field, forms.ChoiceField):
            choices = cast(list[tuple[Any, Any]], field.choices)
            field.choices = [
                (value, gettext(label) if isinstance(label, str) and label else label) for value, label in choices
            ]
    return fields


class BookOptionsForm(forms.Form):
    """The house options a rule book page is shown with, one field per knob of the engine's profile
    data, named as the knob (``?target=150&shutout=true``); left blank, a knob keeps the profile's
    value. ``options()`` gives the valid ones; ``refuse`` puts the engine's message on a field."""

    def __init__(self, data: Any, *, game: str) -> None:
        super().__init__(data or None)
        self.game = game
        self.fields.update(in_language(house_option_fields(game, prefix="", blank=gettext("as the rules say"))))

    def options(self) -> dict[str, Any]:
        if not self.is_bound:
            return {}
        self.is_valid()
        return house_options(self.game, self.cleaned_data, prefix="")

    def refuse(self, errors: Iterable[RecordError]) -> set[str]:
        """Put each engine error on its option's field; the names of the options refused."""
        names = set()
        for e in errors:
            name = (e.field or "").removeprefix("rules.options.")
            message = str(e.message)
            source = str(source_words(e.source))
            text = message + (f" ({source})" if e.source and source not in message else "")
            if name in self.fields:
                self.add_error(name, text)
                names.add(name)
            else:
                self.add_error(None, text)
        return names
