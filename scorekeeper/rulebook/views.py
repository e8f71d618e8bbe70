"""The rules pages and "Check a ruling": small views over ``rulebook.reference`` and the engine's
checker (``rules.checker``)."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods, require_safe

from scorekeeper.rulebook.forms import CheckerForm
from scorekeeper.rulebook.reference import card_values, rules_rows
from scorekeeper.rules import checker, profiles
from scorekeeper.table.pages import HtmxHttpRequest, render_page


@require_safe
def rules_index(request: HtmxHttpRequest) -> HttpResponse:
    games = [
        {"game": g, "name": profiles.GAME_NAMES[g], "profiles": list(profiles.PROFILES[g].values())}
        for g in profiles.GAMES
    ]
    return render(request, "rulebook/index.html", {"games": games, "sources": profiles.SOURCES})


@require_safe
def rules_profile(request: HtmxHttpRequest, game: str, profile: str) -> HttpResponse:
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
        "rulebook/profile.html",
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


@require_http_methods(["GET", "HEAD", "POST"])
def check(request: HtmxHttpRequest) -> HttpResponse:
    """Check a ruling: a GET makes every verdict a link that can be shared; a long question (a
    whole record pasted) comes by POST."""
    form = CheckerForm(request.POST if request.method == "POST" else request.GET)
    question = form.question()
    verdict = checker.answer(question) if form.asked() else None
    if verdict is not None:
        for problem in form.problems:
            verdict.error(problem, rule="question")
    share = request.build_absolute_uri() if form.asked() and request.method != "POST" else ""
    context = {
        "form": form,
        "q": question,
        "verdict": verdict,
        "share": share,
        "problems": form.problems,
        "games": [(g, profiles.GAME_NAMES[g]) for g in profiles.GAMES],
        "profile_choices": [(g, p.name, p.title) for g in profiles.GAMES for p in profiles.PROFILES[g].values()],
        "kinds": checker.KINDS,
        "example": checker.example_deal(question.game),
    }
    return render_page(request, "rulebook/checker.html", context, partial="verdict")
