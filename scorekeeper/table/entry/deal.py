"""The deal form: the deal's own facts (a form) and one form per player (a formset), as one entry.

``DealEntry.read`` turns them into one RECORD.md deal with player names; ``refuse`` puts
every error the engine reports beside the field it concerns, once. Each game has its entry
(``OklahomaEntry``, ``GinEntry``: its forms, where its facts sit, its hint); ``deal_entry`` gives a
game's. One player's hand alone (``seat``): his phone's form, the deal's facts as far as known.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.forms.boundfield import BoundField
from django.utils.translation import gettext, gettext_lazy

from scorekeeper.rules import games, profiles
from scorekeeper.rules.cards import parse_card
from scorekeeper.rules.errors import RecordError
from scorekeeper.rules.profiles import Rules
from scorekeeper.table.entry.forms import (
    DealFacts,
    GinFacts,
    GinHands,
    HandForm,
    HandFormSet,
    OklahomaFacts,
    OklahomaHands,
    int_or_none,
    with_data,
)
from scorekeeper.table.text import error_text


@dataclass
class Slot:
    """A card field as the page shows it: the field, its live check, and whether the picker's
    Next and Back go through it."""

    field: BoundField
    check: Any = None  # rules.fieldcheck.FieldCheck, set by entry.checks.attach
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

    def in_error(self) -> list[BoundField]:
        """This player's fields in error, in the page's order (an error of the hand as a whole: its
        first card field)."""
        whole = [self.primary[0].field] if self.form.non_field_errors() else []
        return whole + [bound for bound in self.form.visible_fields() if bound.errors]


class DealEntry:
    """The deal form: the deal's own facts (a form) and one form per player (a formset). Each game
    has its entry (``OklahomaEntry``, ``GinEntry``: its forms, where its facts sit, its hint);
    ``deal_entry`` gives the game's.

    ``read`` gives the RECORD.md deal (player names) or None while a field does not read;
    ``apply_errors`` puts each error of the engine beside the field it concerns, once."""

    kind: str  # the game (the record's "game")
    facts_form: type[DealFacts]
    hands_formset: type[HandFormSet]
    facts_first = False  # the deal's facts come before the players' cards on the page
    template = ""  # the game's partials of the page (its hint)
    not_given: Any = ""  # the open deal's status while no fact a complete deal gives is given

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
        plays_as: int | None = None,
    ) -> None:
        self.game = games.game(self.kind)
        self.players = players
        self.plays_as = plays_as  # the deal's number as the engine plays it (its errors name it)
        self.live = live  # a preview while the deal is being entered: empty fields are not nagged
        self.seat = seat  # one player's hand only (his phone): the deal's facts as far as known
        facts, hands = self._initial(initial or {}) if data is None else ({}, None)
        facts.update(number=number, version=version, submission=submission)
        self.facts: DealFacts = self.facts_form(data, initial=facts, players=players)
        if seat is not None:
            self.facts.partial()
        self.hands: HandFormSet = self.hands_formset(data, initial=hands, prefix="p", players=players)
        self.focus = ""  # the id of what takes the focus after a failed save
        self.data: dict[str, Any] | None = None  # the deal read (``read``): its errors are placed by it

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
    def picker(self, rules: Rules) -> dict[str, str]:
        """What the card picker (static/picker.js) is given with the page: the pack's counts and the
        cards that may name another (Oklahoma's wild cards: its "=" key). The rank letters the page's
        language writes and types come with every page's words (``templatetags/words.py``)."""
        pack = self.game.pack(rules)
        wild = [code for code in pack if self.game.wilds and parse_card(code).is_wild]
        return {"pack": json.dumps(pack), "wild": " ".join(wild)}

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
            return int_or_none(self.facts.data.get("number"))
        return int_or_none(self.facts.initial.get("number"))

    @property
    def version(self) -> int | None:
        if self.facts.is_bound:
            return int_or_none(self.facts.data.get("version"))
        return int_or_none(self.facts.initial.get("version"))

    @property
    def submission(self) -> str:
        source = self.facts.data if self.facts.is_bound else self.facts.initial
        return str(source.get("submission") or "")

    def restart(self, changes: Mapping[str, str]) -> None:
        """The form answers a conflict (``flow.post``): its hidden fields take these values (a new
        submission; the next deal's number, or the version of the deal as it is now)."""
        self.facts.data = with_data(self.facts.data, changes)

    # ---- reading
    def read(self) -> dict[str, Any] | None:
        """The RECORD.md deal (player names), or None while a field does not read (the errors are on
        the fields). One player's hand alone (``seat``): the deal's facts it gives and that hand."""
        facts_ok = self.facts.is_valid()
        hands_ok = self.hands.is_valid()
        if not (facts_ok and hands_ok):
            return None
        if self.seat is not None:
            form = self.hands.forms[self.seat]
            self.data = {**self.facts.given(), "hands": {form.player: form.hand()}}
        else:
            self.data = {**self.facts.deal(), "hands": {form.player: form.hand() for form in self.hands.forms}}
        return self.data

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

    def refuse(self, errors: Iterable[RecordError]) -> None:
        """Each of the engine's errors beside the field it concerns (``flow.post``), once."""
        self.apply_errors(errors, self.plays_as or self.number or 0)

    def apply_errors(self, errors: Iterable[RecordError], number: int) -> None:
        """Each error beside the field it concerns, once; an error of another deal (``number`` is
        this one's) on the form as a whole."""
        for e in errors:
            text = error_text(e)
            if e.deal is not None and e.deal != number:
                self.add(self.facts, None, gettext("Deal {number}: {error}").format(number=e.deal, error=text))
                continue
            form, name = self._place(e)
            self.add(form, name, text)

    def _place(self, e: RecordError) -> tuple[forms.Form, str | None]:
        """The form and field an error goes beside (``rules.games.place``: None, the form as a whole)."""
        player, name = games.place(self.game, e, self.players, self.data or {})
        form: forms.Form = self.facts if player is None else self.hands.forms[self.players.index(player)]
        return form, name if name in form.fields else None

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
        players = [bound for section in self.sections for bound in section.in_error()]
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
    not_given = gettext_lazy("Who went out: not given yet.")
    facts_form = OklahomaFacts
    hands_formset = OklahomaHands
    template = "table/entry/oklahoma.html"


class GinEntry(DealEntry):
    kind = profiles.GIN
    not_given = gettext_lazy("Who knocked and the upcard: not given yet.")
    facts_form = GinFacts
    hands_formset = GinHands
    facts_first = True  # the first upcard is known before anyone plays
    template = "table/entry/gin.html"


ENTRIES: dict[str, type[DealEntry]] = {OklahomaEntry.kind: OklahomaEntry, GinEntry.kind: GinEntry}


def entry_of(kind: str) -> type[DealEntry]:
    """The deal form of the game ``kind``."""
    return ENTRIES[kind]


def deal_entry(kind: str, **kwargs: Any) -> DealEntry:
    """The deal form of the game ``kind`` (``DealEntry``'s arguments)."""
    return ENTRIES[kind](**kwargs)
