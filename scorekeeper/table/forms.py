"""Forms: the new-game form (Django form) and the deal entry (typed card fields per meld).

A deal entry reads plain POST fields named by seat index (``p0-meld1``, ``p0-held``...), turns
them into one RECORD.md deal dict with player names, and puts every error the engine reports
beside the field it concerns. Anything tampered with gives a message, never an exception.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from typing import Any

from django import forms

from scorekeeper.rules import profiles
from scorekeeper.rules.cards import CardError, Token, parse_card, parse_token, split_cards
from scorekeeper.rules.errors import RecordError
from scorekeeper.table.models import Role
from scorekeeper.table.templatetags.cards import value_text

MAX_SEATS = 5


def new_submission() -> str:
    """A fresh token for a form that writes: its submit is then written once, however often it
    arrives (``table.services``)."""
    return secrets.token_urlsafe(24)


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
                choices=[("", blank), ("true", "yes"), ("false", "no")],
                required=False,
                label=k.label,
                help_text=k.description,
            )
        elif k.allowed is not None:
            allowed = ", ".join(value_text(v) for v in k.allowed)
            fields[name] = forms.ChoiceField(
                choices=[("", blank)] + [(str(v), value_text(v)) for v in k.allowed],
                required=False,
                label=k.label,
                help_text=k.description,
                error_messages={
                    "invalid_choice": f"Select a valid choice: {k.label} must be one of {allowed}, not %(value)s."
                },
            )
        else:
            fields[name] = forms.IntegerField(
                required=False,
                label=k.label,
                min_value=k.minimum,
                max_value=k.maximum,
                help_text=k.description,
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
    submission = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def __init__(self, *args: Any, game: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game_name = game
        self.fields["game"].initial = game
        choices = [(name, f"{p.title} — {p.description}") for name, p in profiles.PROFILES[game].items()]
        self.fields["profile"] = forms.ChoiceField(
            choices=choices, widget=forms.RadioSelect, initial=choices[0][0], label="Rules"
        )
        for i in range(MAX_SEATS):
            self.fields[f"seat_{i}"] = forms.CharField(
                max_length=40,
                required=i < 2,
                label=f"Seat {i + 1}",
                widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "words"}),
            )
        self.fields["first_dealer"] = forms.TypedChoiceField(
            choices=[(i, f"Seat {i + 1}") for i in range(MAX_SEATS)], coerce=int, initial=0, label="First dealer"
        )
        self.fields["target"] = forms.IntegerField(
            required=False,
            label="Target",
            min_value=10,
            max_value=10000,
            help_text="Leave empty for the profile's target.",
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        )
        self.knobs = [k for k in profiles.knobs(game) if k.name != "target"]
        self.fields.update(house_option_fields(game, prefix="opt_", blank="profile's value", skip=("target",)))

    def knob_rows(self) -> list[dict[str, Any]]:
        rows = []
        for k in self.knobs:
            defaults = [
                {
                    "profile": profiles.PROFILES[self.game_name][p].title,
                    "value": value_text(s.value),
                    "source": s.source,
                    "basis": s.basis,
                    "note": s.note,
                }
                for p, s in k.settings.items()
            ]
            rows.append({"field": self[f"opt_{k.name}"], "knob": k, "defaults": defaults})
        return rows

    def target_defaults(self) -> list[dict[str, Any]]:
        k = profiles.knob(self.game_name, "target")
        return [
            {
                "profile": profiles.PROFILES[self.game_name][p].title,
                "value": s.value,
                "source": s.source,
                "basis": s.basis,
            }
            for p, s in k.settings.items()
        ]

    def players(self) -> list[str]:
        return [
            self.cleaned_data[f"seat_{i}"].strip()
            for i in range(MAX_SEATS)
            if self.cleaned_data.get(f"seat_{i}", "").strip()
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        seats = [data.get(f"seat_{i}", "").strip() for i in range(MAX_SEATS)]
        # Seats are filled in order: a gap would make "seat order" ambiguous.
        filled = [i for i, s in enumerate(seats) if s]
        if filled and filled[-1] + 1 != len(filled):
            raise forms.ValidationError("Fill the seats in order, without gaps.")
        first = data.get("first_dealer")
        if first is not None and first >= len(filled):
            self.add_error("first_dealer", "The first dealer must sit at one of the filled seats.")
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
            text = e.message + (f" ({e.source})" if e.source else "")
            if name in self.fields:
                self.add_error(name, text)
            else:
                self.add_error(None, text)


class JoinForm(forms.Form):
    name = forms.CharField(
        max_length=40,
        label="Who is this phone?",
        help_text="So the table sees who changed what, e.g. “Ben's phone”.",
        widget=forms.TextInput(attrs={"autocomplete": "nickname", "autocapitalize": "words"}),
    )


class PhoneNameForm(forms.Form):
    name = forms.CharField(max_length=40, label="This phone's name")


class TableNameForm(forms.Form):
    name = forms.CharField(max_length=60, label="The table's name")


class RoleForm(forms.Form):
    """What a link or a phone lets do: score or follow."""

    role = forms.ChoiceField(choices=Role.choices)


# --------------------------------------------------------------------------- deal entry


@dataclass
class CardField:
    name: str
    label: str
    value: str = ""
    errors: list[str] = field(default_factory=list)
    tokens: list[Token] = field(default_factory=list)
    kind: str = "meld"  # meld, held, deadwood, cards
    short: str = ""  # the visible label beside the player's name


@dataclass
class Section:
    index: int
    player: str
    melds: list[CardField]
    rest: CardField  # Oklahoma: held; Gin: deadwood
    cards: CardField | None = None  # Gin: all cards, the app arranges them
    big_gin: bool = False
    errors: list[str] = field(default_factory=list)

    def card_fields(self) -> list[CardField]:
        return [*self.melds, self.rest, *([self.cards] if self.cards else [])]


def error_text(e: RecordError) -> str:
    text = e.message
    if e.rule or e.source:
        cite = ", ".join(x for x in (e.rule, e.source) if x)
        text += f" — {cite}"
    return text


def _int(value: Any) -> int | None:
    text = str(value or "")
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else None


def _clip(value: Any) -> str:
    return str(value or "")[:MAX_FIELD]


class DealEntry:
    """One deal as typed: a text field per meld and per hand, plus the deal's own facts."""

    def __init__(
        self,
        *,
        game: str,
        players: list[str],
        data: Any = None,
        initial: dict | None = None,
        extra_melds: int = 0,
        number: int | None = None,
        version: int | None = None,
        submission: str = "",
    ) -> None:
        self.game = game
        # Which deal the form was opened for, and at which version: a stale form is refused, not saved.
        # (A post without it appends the deal: no stale check.)
        self.number: int | None = _int(data.get("number")) if data is not None else number
        self.version = _int(data.get("version")) if data is not None else version
        self.submission = _clip(data.get("submission", ""))[:64] if data is not None else submission
        self.gin = game == profiles.GIN
        self.players = players
        self.errors: list[str] = []
        self.top_errors: dict[str, list[str]] = {}
        self.bound = data is not None
        initial = initial or {}
        src = data if data is not None else {}
        get = (lambda k: _clip(src.get(k, ""))) if data is not None else (lambda k: "")

        hands = initial.get("hands", {}) if isinstance(initial, dict) else {}
        self.sections: list[Section] = []
        for i, name in enumerate(players):
            hand = hands.get(name, {}) if isinstance(hands, dict) else {}
            if data is not None:
                present = [k for k in src if re.fullmatch(rf"p{i}-meld\d+", k)]
                count = max(len(present), self._base_melds()) + extra_melds
                count = min(count, 12)
                melds = [
                    CardField(f"p{i}-meld{j}", f"{name}: meld {j + 1}", get(f"p{i}-meld{j}"), short=f"Meld {j + 1}")
                    for j in range(count)
                ]
            else:
                given = [" ".join(m) for m in hand.get("melds", [])]
                count = max(len(given) + 1, self._base_melds())
                melds = [
                    CardField(
                        f"p{i}-meld{j}",
                        f"{name}: meld {j + 1}",
                        given[j] if j < len(given) else "",
                        short=f"Meld {j + 1}",
                    )
                    for j in range(count)
                ]
            rest_key = "deadwood" if self.gin else "held"
            rest_label = f"{name}: deadwood" if self.gin else f"{name}: left in hand"
            rest = CardField(
                f"p{i}-{rest_key}",
                rest_label,
                get(f"p{i}-{rest_key}") if data is not None else " ".join(hand.get(rest_key, [])),
                kind=rest_key,
                short="Deadwood" if self.gin else "Left in hand",
            )
            section = Section(i, name, melds, rest)
            if self.gin:
                section.cards = CardField(
                    f"p{i}-cards",
                    f"{name}: all cards (the app arranges them)",
                    get(f"p{i}-cards") if data is not None else " ".join(hand.get("cards", [])),
                    kind="cards",
                    short="Or all the cards (the app finds the melds)",
                )
                section.big_gin = (src.get(f"p{i}-big_gin") == "on") if data is not None else bool(hand.get("big_gin"))
            self.sections.append(section)

        if self.gin:
            self.upcard = get("upcard") if data is not None else str(initial.get("upcard", "") or "")
            knocker = initial.get("knocker", "") if data is None else None
            self.knocker = (
                get("knocker")
                if data is not None
                else ("void" if "knocker" in initial and knocker is None else self._seat_of(knocker))
            )
        else:
            out = initial.get("out", "") if data is None else None
            self.out = (
                get("out")
                if data is not None
                else ("stock" if "out" in initial and out is None else self._seat_of(out))
            )
            self.first_turn = (src.get("first_turn") == "on") if data is not None else bool(initial.get("first_turn"))
            self.concealed = (src.get("concealed") == "on") if data is not None else bool(initial.get("concealed"))

    def _base_melds(self) -> int:
        return 3 if self.gin else 4

    def _seat_of(self, name: Any) -> str:
        if isinstance(name, str) and name in self.players:
            return str(self.players.index(name))
        return ""

    # ---- reading
    def _parse(self, f: CardField, wild: bool) -> list[str]:
        codes: list[str] = []
        f.tokens = []
        for text in split_cards(f.value):
            try:
                token = parse_token(text) if wild else Token(parse_card(text))
            except CardError as exc:
                f.errors.append(exc.message)
                continue
            f.tokens.append(token)
            codes.append(token.code)
        return codes

    def _player_choice(self, value: str, extra: str) -> str | None | bool:
        """A seat index as posted -> the player's name; ``extra`` ("stock"/"void") -> None; else False."""
        if value == extra:
            return None
        if value.isdigit() and int(value) < len(self.players):
            return self.players[int(value)]
        return False

    def to_data(self) -> dict | None:
        """The RECORD.md deal, or None when a field has a typo (the errors are on the fields)."""
        ok = True
        hands: dict[str, dict] = {}
        for s in self.sections:
            melds = []
            for f in s.melds:
                codes = self._parse(f, wild=not self.gin)
                if f.errors:
                    ok = False
                if codes:
                    melds.append(codes)
            rest = self._parse(s.rest, wild=False)
            if s.rest.errors:
                ok = False
            if self.gin:
                assert s.cards is not None
                cards = self._parse(s.cards, wild=False)
                if s.cards.errors:
                    ok = False
                if cards and (melds or rest):
                    s.errors.append("Enter either the spread (melds and deadwood) or all the cards, not both.")
                    ok = False
                if cards:
                    hand: dict[str, Any] = {"cards": cards}
                else:
                    hand = {"melds": melds, "deadwood": rest}
                if s.big_gin:
                    hand["big_gin"] = True
            else:
                hand = {"melds": melds, "held": rest}
            hands[s.player] = hand
        if self.gin:
            deal: dict[str, Any] = {}
            try:
                deal["upcard"] = parse_card(self.upcard).code if self.upcard.strip() else None
            except CardError as exc:
                self.top_errors.setdefault("upcard", []).append(exc.message)
                ok = False
            if not self.upcard.strip():
                self.top_errors.setdefault("upcard", []).append("Enter the first upcard.")
                ok = False
            knocker = self._player_choice(self.knocker, "void")
            if knocker is False:
                self.top_errors.setdefault("knocker", []).append("Say who knocked, or that the hand was void.")
                ok = False
            deal["knocker"] = knocker if knocker is not False else None
            deal["hands"] = hands
        else:
            out = self._player_choice(self.out, "stock")
            if out is False:
                self.top_errors.setdefault("out", []).append("Say who went out, or that the stock ran out.")
                ok = False
            deal = {
                "out": out if out is not False else None,
                "first_turn": self.first_turn,
                "concealed": self.concealed,
                "hands": hands,
            }
        return deal if ok else None

    # ---- errors from the engine
    def apply_errors(self, errors: tuple[RecordError, ...], number: int) -> None:
        for e in errors:
            text = error_text(e)
            if e.deal is not None and e.deal != number:
                self.errors.append(f"Deal {e.deal}: {text}")
                continue
            section = next(
                (s for s in self.sections if e.player is not None and s.player.casefold() == str(e.player).casefold()),
                None,
            )
            fld = e.field or ""
            if section is None:
                for key in ("upcard", "knocker", "out", "first_turn", "concealed"):
                    if fld.endswith(key):
                        self.top_errors.setdefault(key, []).append(text)
                        break
                else:
                    self.errors.append(text)
                continue
            target = self._field_for(section, e)
            if target is not None:
                target.errors.append(text)
            else:
                section.errors.append(text)

    def _field_for(self, s: Section, e: RecordError) -> CardField | None:
        fld = e.field or ""
        wanted = [c.replace(" ", "") for c in e.cards]
        if wanted:
            for f in s.card_fields():
                labels = set()
                for t in f.tokens:
                    labels.update({t.card.label, t.label, t.card.code, t.code})
                if (
                    f.tokens
                    and all(c in labels for c in wanted)
                    and (f.kind == "meld" or not re.search(r"melds\[", fld))
                ):
                    return f
        m = re.search(r"melds\[(\d+)\]", fld)
        if m:
            filled = [f for f in s.melds if f.tokens]
            k = int(m.group(1))  # both engines count melds from 0 (a path into the record)
            if 0 <= k < len(filled):
                return filled[k]
        for candidate in (s.rest, s.cards):
            if candidate is not None and fld.endswith(candidate.kind):
                return candidate
        return None

    @property
    def has_errors(self) -> bool:
        return bool(
            self.errors
            or self.top_errors
            or any(s.errors or any(f.errors for f in s.card_fields()) for s in self.sections)
        )
