"""What the rules pages show, taken from the engine's own profile data (``rules.profiles``) and
scored by the engine, so the text shown and the values the engine plays cannot disagree."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from scorekeeper.rules import profiles, record
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.table.templatetags.cards import value_text

# Sample hands that hold one card of each kind; the engine scores them, so the card values shown
# on the Oklahoma rules pages are the engine's own (its rule texts state each value).
_MELDED = [["JK=AD", "AS", "AH"], ["QS", "QH", "2C=QD"], ["7S", "8S", "9S"], ["2D=QS", "QC", "QD"], ["AH", "2H", "3H"]]
_HELD = ["JK", "QS", "AC", "KS", "7C", "2S"]


def _basis_word(basis: str) -> str:
    return {"source": "source", "ruling": "ruling", "option": "house option"}.get(basis, basis)


def rules_rows(game: str, profile: str) -> list[dict[str, Any]]:
    """Every knob of ``game`` as this profile plays it, with what each other profile says."""
    rows = []
    for knob in profiles.knobs(game):
        setting = knob.settings[profile]
        others = []
        for name, prof in profiles.PROFILES[game].items():
            s = knob.settings[name]
            others.append(
                {
                    "profile": name,
                    "title": prof.title,
                    "value": value_text(s.value),
                    "source": s.source,
                    "basis": _basis_word(s.basis),
                    "note": s.note,
                    "current": name == profile,
                }
            )
        values = {repr(knob.settings[name].value) for name in profiles.PROFILES[game]}
        rows.append(
            {
                "name": knob.name,
                "label": knob.label,
                "description": knob.description,
                "type": knob.type_name,
                "allowed": knob.allowed_text(),
                "value": value_text(setting.value),
                "source": setting.source,
                "basis": _basis_word(setting.basis),
                "note": setting.note,
                "disputed": len(values) > 1,
                "profiles": others,
            }
        )
    return rows


@lru_cache(maxsize=8)
def card_values(profile: str) -> tuple[tuple[dict[str, str], ...], tuple[dict[str, str], ...]]:
    """(melded, in hand): each distinct rule the engine applies to a sample hand, with its source."""
    out = []
    for hand in ({"melds": _MELDED, "held": []}, {"melds": [], "held": _HELD}):
        rec = {
            "format": record.FORMAT,
            "game": profiles.OKLAHOMA,
            "rules": {"profile": profile},
            "players": ["A", "B"],
            "deals": [{"out": None, "hands": {"A": hand, "B": {"melds": [], "held": []}}}],
        }
        try:
            result = record.score_record(rec)
        except RecordInvalid:
            return (), ()
        seen: dict[str, dict[str, str]] = {}
        for line in result.deals[0].players["A"].lines:
            seen.setdefault(line.rule, {"rule": line.rule, "source": line.source, "basis": line.basis})
        out.append(tuple(seen.values()))
    return out[0], out[1]
