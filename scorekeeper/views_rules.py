"""The rules at hand and "Check a ruling".

The rules pages are generated from the engine's own profile data (``rules.profiles``), so the
text shown and the values the engine plays cannot disagree. The checker answers single
questions (a meld, a Gin hand on an upcard, the defender's layoffs, a whole deal) through the
engine via ``scorekeeper.checker``; this module only reads the request and renders.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from scorekeeper.rules import checker, profiles, record
from scorekeeper.rules.errors import RecordInvalid

# Sample hands that hold one card of each kind; the engine scores them, so the card values shown
# on the Oklahoma rules pages are the engine's own (its rule texts state each value).
_MELDED = [["JK=AD", "AS", "AH"], ["QS", "QH", "2C=QD"], ["7S", "8S", "9S"], ["2D=QS", "QC", "QD"], ["AH", "2H", "3H"]]
_HELD = ["JK", "QS", "AC", "KS", "7C", "2S"]


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


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
                    "value": _show(s.value),
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
                "value": _show(setting.value),
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
        except (RecordInvalid, ImportError):
            return (), ()
        seen: dict[str, dict[str, str]] = {}
        for line in result.deals[0].players["A"].lines:
            seen.setdefault(line.rule, {"rule": line.rule, "source": line.source, "basis": line.basis})
        out.append(tuple(seen.values()))
    return out[0], out[1]


def rules_index(request: HttpRequest) -> HttpResponse:
    games = [
        {"game": g, "name": profiles.GAME_NAMES[g], "profiles": list(profiles.PROFILES[g].values())}
        for g in profiles.GAMES
    ]
    return render(request, "rules/index.html", {"games": games, "sources": profiles.SOURCES})


def rules_profile(request: HttpRequest, game: str, profile: str) -> HttpResponse:
    if game not in profiles.PROFILES or profile not in profiles.PROFILES[game]:
        raise Http404("No such game or profile")
    prof = profiles.PROFILES[game][profile]
    rows = rules_rows(game, profile)
    cited = sorted(
        {code for code in profiles.SOURCES if any(code in other["source"] for row in rows for other in row["profiles"])}
    )
    melded, held = card_values(profile) if game == profiles.OKLAHOMA else ((), ())
    return render(
        request,
        "rules/profile.html",
        {
            "melded": melded,
            "held": held,
            "game": game,
            "game_name": profiles.GAME_NAMES[game],
            "profile": prof,
            "rows": rows,
            "siblings": list(profiles.PROFILES[game].values()),
            "rulings": [r for r in rows if r["basis"] == "ruling"],
            "disputed": [r for r in rows if r["disputed"]],
            "sources": [(code, profiles.SOURCES[code]) for code in cited],
        },
    )


def check(request: HttpRequest) -> HttpResponse:
    """Check a ruling: a GET form, so every verdict is a link that can be shared."""
    question = checker.Question.from_params(request.GET)
    verdict = checker.answer(question) if question.asked else None
    context = {
        "q": question,
        "verdict": verdict,
        "share": request.build_absolute_uri() if question.asked else "",
        "games": [(g, profiles.GAME_NAMES[g]) for g in profiles.GAMES],
        "profile_choices": [(g, p.name, p.title) for g in profiles.GAMES for p in profiles.PROFILES[g].values()],
        "kinds": checker.KINDS,
        "example": checker.example_deal(question.game),
    }
    template = "checker.html#verdict" if request.htmx else "checker.html"
    return render(request, template, context)
