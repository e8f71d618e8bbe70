"""Small views: read the request, call the services and the engine, render. No rules here."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scorekeeper import scoring, services
from scorekeeper.forms import DealEntry, NewGameForm, error_text
from scorekeeper.models import Deal, Game
from scorekeeper.rules import profiles
from scorekeeper.rules.cards import CardError, Token, parse_token, split_cards
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.results import GameResult
from scorekeeper.tables import board, deal_rows, deal_view


def _page(
    request: HttpRequest, template: str, context: dict[str, Any], partial: str | None = None, status: int = 200
) -> HttpResponse:
    """Render the page, or only its fragment ``partial`` for an htmx request."""
    if partial and request.htmx:
        template = f"{template}#{partial}"
    return render(request, template, context, status=status)


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    games = Game.objects.prefetch_related("seats__player")[:30]
    return render(request, "home.html", {"games": games})


@require_http_methods(["GET", "POST"])
def new_game(request: HttpRequest) -> HttpResponse:
    game = (request.POST if request.method == "POST" else request.GET).get("game", profiles.OKLAHOMA)
    if game not in profiles.GAMES:
        game = profiles.OKLAHOMA
    if request.method == "POST":
        form = NewGameForm(request.POST, game=game)
        if form.is_valid():
            try:
                row = services.create_game(
                    game=game,
                    profile=form.cleaned_data["profile"],
                    options=form.options(),
                    players=form.players(),
                    first_dealer=form.cleaned_data["first_dealer"],
                )
            except RecordInvalid as exc:
                form.apply_errors(exc.errors)
            else:
                return HttpResponseRedirect(reverse("game", args=[row.pk]))
        status = 400
    else:
        form = NewGameForm(game=game)
        status = 200
    context = {
        "form": form,
        "game": game,
        "games": [(g, profiles.GAME_NAMES[g]) for g in profiles.GAMES],
        "sources": profiles.SOURCES,
    }
    return _page(request, "game_new.html", context, status=status)


def _game(game_id: int) -> Game:
    return get_object_or_404(Game, pk=game_id)


def _rules(game: Game) -> tuple[profiles.Rules, list[str]]:
    """The game's rules; options the engine no longer knows are dropped with a message, never a 500."""
    try:
        return scoring.resolve(game.game, game.profile, game.options), []
    except RecordInvalid as exc:
        try:
            return scoring.resolve(game.game, game.profile, {}), [str(e) for e in exc.errors]
        except RecordInvalid:
            raise Http404("this game's rules are unknown") from None


def _score(game: Game) -> tuple[GameResult | None, list[str]]:
    try:
        return services.score_game(game), []
    except RecordInvalid as exc:
        return None, [str(e) for e in exc.errors]


@require_safe
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game(game_id)
    result, errors = _score(game)
    rules, rule_errors = _rules(game)
    errors += rule_errors
    context = {
        "game": game,
        "result": result,
        "errors": errors,
        "rules": rules,
        "board": board(game, rules, result),
        "deals": deal_rows(game, result),
    }
    return _page(request, "game.html", context, partial="board")


def _entry_context(
    game: Game, entry: DealEntry, number: int | None, preview: GameResult | None, rules: profiles.Rules
) -> dict[str, Any]:
    return {
        "game": game,
        "entry": entry,
        "number": number,
        "rules": rules,
        "preview": deal_view(game, preview, number or len(preview.deals)) if preview else None,
        "pack": scoring.pack_counts(rules),
        "gin": entry.gin,
        "new_number": game.deals.count() + 1,
    }


def _deal_form(request: HttpRequest, game: Game, number: int | None) -> HttpResponse:
    rules, _ = _rules(game)
    players = game.player_names()
    deal = None
    if number is not None:
        deal = game.deals.filter(number=number).first()
        if deal is None:
            raise Http404("no such deal")
    if request.method == "GET":
        if number is None and game.finished:
            return HttpResponseRedirect(reverse("game", args=[game.pk]))
        entry = DealEntry(game=game.game, players=players, initial=deal.data if deal else None)
        # A saved deal is complete: its edit page previews the points as they stand.
        preview = None
        if deal is not None:
            # The form shows the entry; saving it again reports the errors.
            with contextlib.suppress(RecordInvalid):
                preview = services.score_game(game)
        return render(request, "deal_form.html", _entry_context(game, entry, number, preview, rules))

    action = request.POST.get("action", "save")
    entry = DealEntry(game=game.game, players=players, data=request.POST, extra_melds=1 if action == "more" else 0)
    data = entry.to_data()
    preview = None
    check_number = number or game.deals.count() + 1
    if data is not None and action != "more":
        try:
            if action == "save":
                if number is None:
                    saved = services.add_deal(game=game, data=data)
                else:
                    saved = services.edit_deal(game=game, number=number, data=data)
                url = reverse("game", args=[game.pk]) + f"#deal-{saved.number}"
                return HttpResponseRedirect(url)
            preview = services.check_deal(game=game, data=data, number=number)
        except RecordInvalid as exc:
            entry.apply_errors(exc.errors, check_number)
    status = 400 if entry.has_errors else 200
    partial = "preview" if action == "preview" else None
    return _page(
        request,
        "deal_form.html",
        _entry_context(game, entry, number, preview, rules),
        partial=partial,
        status=status if not request.htmx else 200,
    )


@require_http_methods(["GET", "POST"])
def deal_new(request: HttpRequest, game_id: int) -> HttpResponse:
    return _deal_form(request, _game(game_id), None)


@require_http_methods(["GET", "POST"])
def deal_edit(request: HttpRequest, game_id: int, number: int) -> HttpResponse:
    return _deal_form(request, _game(game_id), number)


@require_safe
def deal_page(request: HttpRequest, game_id: int, number: int) -> HttpResponse:
    game = _game(game_id)
    deal = get_object_or_404(Deal, game=game, number=number)
    result, errors = _score(game)
    view = deal_view(game, result, number) if result else None
    return render(
        request,
        "deal.html",
        {
            "game": game,
            "deal": deal,
            "view": view,
            "errors": errors,
            "entered": json.dumps(deal.data, ensure_ascii=False),
            "gin": game.game == profiles.GIN,
        },
    )


@require_http_methods(["GET", "POST"])
def deal_delete(request: HttpRequest, game_id: int, number: int) -> HttpResponse:
    game = _game(game_id)
    deal = get_object_or_404(Deal, game=game, number=number)
    errors: list[str] = []
    if request.method == "POST":
        try:
            services.delete_deal(game=game, number=number)
        except RecordInvalid as exc:
            errors = [error_text(e) for e in exc.errors]
        else:
            return HttpResponseRedirect(reverse("game", args=[game.pk]))
    return render(
        request, "deal_delete.html", {"game": game, "deal": deal, "errors": errors}, status=400 if errors else 200
    )


@require_POST
def check_meld(request: HttpRequest, game_id: int) -> HttpResponse:
    """htmx: check the one meld field named by ?field= and say what it is or what is wrong."""
    game = _game(game_id)
    name = request.GET.get("field", "")
    text = str(request.POST.get(name, ""))[:200]
    rules, _ = _rules(game)
    context: dict[str, Any] = {"field": name, "ok": None, "errors": [], "text": ""}
    tokens: list[Token] = []
    for raw in split_cards(text):
        try:
            tokens.append(parse_token(raw) if game.game == profiles.OKLAHOMA else Token(parse_token(raw).card))
        except CardError as exc:
            context["errors"].append(exc.message)
    if tokens and not context["errors"]:
        if game.game == profiles.OKLAHOMA and name.split("-")[-1].startswith("meld"):
            check = scoring.check_meld(tokens, rules)
            if check is not None:
                if check.ok:
                    meaning = getattr(check, "meaning", ())
                    shown = f" {' '.join(meaning)}" if meaning and any(t.card.is_wild for t in tokens) else ""
                    context["ok"] = f"{check.kind}{shown}, +{check.points}"
                else:
                    context["errors"] = [error_text(e) if not isinstance(e, str) else e for e in check.errors]
        elif game.game == profiles.GIN and name.split("-")[-1].startswith("meld"):
            kind, problem = scoring.check_gin_meld([t.card for t in tokens])
            if problem:
                context["errors"] = [problem]
            elif kind:
                context["ok"] = f"{kind} {' '.join(t.label for t in tokens)}"
        if not context["errors"] and context["ok"] is None:
            context["ok"] = " ".join(card_chips_text(tokens))
    return render(request, "check.html", context)


def card_chips_text(tokens: list[Token]) -> list[str]:
    return [t.label for t in tokens]


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return render(request, "404.html", {}, status=404)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return render(request, "400.html", {}, status=400)


def server_error(request: HttpRequest) -> HttpResponse:
    return render(request, "500.html", {}, status=500)
