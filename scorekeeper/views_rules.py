"""The rules at hand and "Check a ruling".

The rules pages are generated from the engine's own profile data (``rules.profiles``), so the
text shown and the values the engine plays cannot disagree. The checker answers single
questions (a meld, a Gin hand on an upcard, the defender's layoffs, a whole deal) through the
engine via ``scorekeeper.checker``; this module only reads the request and renders.
"""
from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from scorekeeper import checker
from scorekeeper.rules import profiles


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
            others.append({"profile": name, "title": prof.title, "value": _show(s.value), "source": s.source,
                           "basis": _basis_word(s.basis), "note": s.note, "current": name == profile})
        values = {repr(knob.settings[name].value) for name in profiles.PROFILES[game]}
        rows.append({
            "name": knob.name, "label": knob.label, "description": knob.description,
            "type": knob.type_name, "allowed": knob.allowed_text(),
            "value": _show(setting.value), "source": setting.source, "basis": _basis_word(setting.basis),
            "note": setting.note, "disputed": len(values) > 1, "profiles": others,
        })
    return rows


def rules_index(request: HttpRequest) -> HttpResponse:
    games = [{"game": g, "name": profiles.GAME_NAMES[g], "profiles": list(profiles.PROFILES[g].values())}
             for g in profiles.GAMES]
    return render(request, "rules/index.html", {"games": games, "sources": profiles.SOURCES})


def rules_profile(request: HttpRequest, game: str, profile: str) -> HttpResponse:
    if game not in profiles.PROFILES or profile not in profiles.PROFILES[game]:
        raise Http404("No such game or profile")
    prof = profiles.PROFILES[game][profile]
    rows = rules_rows(game, profile)
    cited = sorted({code for code in profiles.SOURCES
                    if any(code in other["source"] for row in rows for other in row["profiles"])})
    return render(request, "rules/profile.html", {
        "game": game, "game_name": profiles.GAME_NAMES[game], "profile": prof, "rows": rows,
        "siblings": list(profiles.PROFILES[game].values()),
        "rulings": [r for r in rows if r["basis"] == "ruling"],
        "disputed": [r for r in rows if r["disputed"]],
        "sources": [(code, profiles.SOURCES[code]) for code in cited],
    })


def check(request: HttpRequest) -> HttpResponse:
    """Check a ruling: a GET form, so every verdict is a link that can be shared."""
    question = checker.Question.from_params(request.GET)
    verdict = checker.answer(question) if question.asked else None
    context = {"q": question, "verdict": verdict, "share": request.get_full_path() if question.asked else "",
               "games": [(g, profiles.GAME_NAMES[g]) for g in profiles.GAMES],
               "profile_choices": [(g, p.name, p.title) for g in profiles.GAMES
                                   for p in profiles.PROFILES[g].values()],
               "kinds": checker.KINDS, "example": checker.example_deal(question.game)}
    template = "checker.html#verdict" if request.htmx else "checker.html"
    return render(request, template, context)
