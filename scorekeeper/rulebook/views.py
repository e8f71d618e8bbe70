"""The rule book pages and "Check a ruling": small views over the engine's rule book
(``rules.rulebook``) and its checker (``rules.checker``)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_safe

from scorekeeper.guards.limits import CHECKS, answered, limited
from scorekeeper.rulebook import links
from scorekeeper.rulebook.book import chapters, house_options
from scorekeeper.rulebook.forms import BookOptionsForm, CheckerForm
from scorekeeper.rules import checker, profiles, rulebook
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.table import access
from scorekeeper.table.models import Device, Game, Role
from scorekeeper.table.pages import HtmxHttpRequest, render_page
from scorekeeper.table.scoring import engine


@require_safe
def rules_index(request: HtmxHttpRequest) -> HttpResponse:
    games = [
        {"game": g, "name": profiles.GAME_NAME_MESSAGES[g], "profiles": list(profiles.PROFILES[g].values())}
        for g in profiles.GAMES
    ]
    return render(request, "rulebook/index.html", {"games": games, "sources": profiles.SOURCES})


def _known(game: str, profile: str) -> None:
    if game not in profiles.PROFILES or profile not in profiles.PROFILES[game]:
        raise Http404("No such game or profile")


@require_safe
def rules_profile(request: HtmxHttpRequest, game: str, profile: str) -> HttpResponse:
    """The rules of a profile are its rule book (one page per game and profile)."""
    _known(game, profile)
    query = request.GET.urlencode()
    return HttpResponseRedirect(reverse("rulebook:book", args=[game, profile]) + (f"?{query}" if query else ""))


def _book_rules(game: str, profile: str, form: BookOptionsForm) -> profiles.Rules:
    """The rules the page shows: the profile with the house options asked for, less those the
    engine refuses (each refusal is put on its option's field, in the engine's words)."""
    options = form.options()
    while True:
        try:
            rules = profiles.resolve(game, profile, options)
        except RecordInvalid as exc:
            errors = list(exc.errors)
        else:
            errors = rulebook.refused(rules)
            if not errors:
                return rules
        refused = form.refuse(errors)
        options = {k: v for k, v in options.items() if k not in refused} if refused else {}


def _book_context(book: rulebook.Book, link: links.BookLink, **more: Any) -> dict[str, Any]:
    return {
        "book": book,
        "book_link": link,
        "chapters": chapters(book),
        "house": house_options(book),
        "game_name": profiles.GAME_NAME_MESSAGES[book.game],
        "profile": profiles.PROFILES[book.game][book.profile],
        "siblings": list(profiles.PROFILES[book.game].values()),
        "checker_url": links.checker_for(book.rules),
        **more,
    }


@require_safe
def book(request: HtmxHttpRequest, game: str, profile: str) -> HttpResponse:
    """The rule book of a game under a profile, with the house options of the query string
    (``?target=150``): how to play and score, every value with its source, worked examples."""
    _known(game, profile)
    form = BookOptionsForm(request.GET, game=game)
    rules = _book_rules(game, profile, form)
    the_book = rulebook.build(rules)
    context = _book_context(the_book, links.for_rules(rules), form=form)
    return render(request, "rulebook/book.html", context)


@require_safe
@access.game_view(Role.FOLLOW)
def game_book(request: HtmxHttpRequest, game: Game, device: Device) -> HttpResponse:
    """A game's own rule book: its profile with its house options."""
    rules, errors = engine.rules_of(game)
    context = _book_context(rulebook.build(rules), links.for_game(game), game=game, errors=errors, device=device)
    return render(request, "rulebook/book.html", context)


def _checker_book(q: checker.Question) -> links.BookLink | None:
    """The book the verdict's score lines link to: the question's rules, or those of a whole
    record pasted into it."""
    rules: profiles.Rules | None = None
    if q.kind == "deal":
        try:
            data = json.loads(q.deal)
            if isinstance(data, dict) and "format" in data:
                rules = profiles.resolve(data["game"], data["rules"]["profile"], data["rules"].get("options"))
        except (ValueError, TypeError, KeyError, RecordInvalid, RecursionError):
            rules = None
    if rules is None:
        try:
            rules = q.rules
        except RecordInvalid:
            return None
    return links.for_rules(rules)


def _tabs(q: checker.Question) -> list[tuple[str, str, str]]:
    """The questions to switch to: (kind, label, address). A question of the same game keeps the rules
    chosen (a rule set other than the game's first, or house options)."""
    chosen = q.options or q.profile != checker.DEFAULT_PROFILE.get(q.game)
    tabs = []
    for kind, game, label in checker.KINDS:
        params: dict[str, str] = {"kind": kind}
        if chosen and game in ("", q.game):
            params |= {"profile": q.profile, **{name: links.option_text(v) for name, v in sorted(q.options.items())}}
        tabs.append((kind, gettext(label), reverse("rulebook:checker") + "?" + urlencode(params)))
    return tabs


@require_http_methods(["GET", "HEAD", "POST"])
@limited(CHECKS, done=answered)  # every check answered is work done
def check(request: HtmxHttpRequest) -> HttpResponse:
    """Check a ruling: a GET makes every verdict a link that can be shared; a long question (a
    whole record pasted) comes by POST."""
    form = CheckerForm(request.POST if request.method == "POST" else request.GET)
    question = form.question()
    share = request.build_absolute_uri() if form.asked() and request.method != "POST" else ""
    context = {
        "form": form,
        "q": question,
        "verdict": _verdict(form, question),
        "share": share,
        "problems": form.problems,
        "games": [(g, profiles.GAME_NAME_MESSAGES[g]) for g in profiles.GAMES],
        "profile_choices": [
            (g, p.name, gettext(p.title)) for g in profiles.GAMES for p in profiles.PROFILES[g].values()
        ],
        "tabs": _tabs(question),
        "example": checker.example_deal(question.game),
        "book_link": _checker_book(question),
        "options": _options(question),
    }
    return render_page(request, "rulebook/checker.html", context, partial="verdict")


def _verdict(form: CheckerForm, question: checker.Question) -> checker.Verdict | None:
    """The checker's verdict on the question asked, the form's problems among its errors (None:
    nothing asked yet)."""
    if not form.asked():
        return None
    verdict = checker.answer(question)
    for problem in form.problems:
        verdict.error(problem, rule="question")
    return verdict


def _options(question: checker.Question) -> list[tuple[str, str, str, str]]:
    """The question's house options, by name: (name, its value as a link writes it, its label, its
    value as the page shows it)."""
    return [
        (
            name,
            links.option_text(value),
            gettext(profiles.knob(question.game, name).label),
            rulebook.show_value(value),
        )
        for name, value in sorted(question.options.items())
    ]
