"""Past games: the games list, a game's review (deals, lines, chart), its change history, the
re-scoring comparison, player pages, export and import. Small views: they read the request,
call ``scorekeeper.history`` and render; no rules here."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scorekeeper import history
from scorekeeper.models import Game, Player
from scorekeeper.rules import profiles
from scorekeeper.rules.errors import RecordError, RecordInvalid

MAX_UPLOAD = 5 * 1024 * 1024
PAGE = 50


def _page(
    request: HttpRequest, template: str, context: dict[str, Any], partial: str | None = None, status: int = 200
) -> HttpResponse:
    if partial and request.htmx:
        template = f"{template}#{partial}"
    return render(request, template, context, status=status)


def _game(game_id: int) -> Game:
    game = history.load_game(game_id)
    if game is None:
        raise Http404("No such game")
    return game


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None


@require_safe
def games(request: HttpRequest) -> HttpResponse:
    player = request.GET.get("player", "")[:40]
    game = request.GET.get("game", "")
    state = request.GET.get("state", "")
    qs = history.games_list(player=player, game=game, state=state)
    page = Paginator(qs, PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "page": page,
        "rows": history.with_totals(list(page.object_list)),
        "player": player,
        "game": game if game in profiles.GAMES else "",
        "state": state if state in ("in_progress", "finished") else "",
        "query": query.urlencode(),
        "games_choices": [(g, profiles.GAME_NAMES[g]) for g in profiles.GAMES],
        "players": history.players_list(),
    }
    return _page(request, "history/games.html", context, partial="list")


@require_safe
def review(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game(game_id)
    context = history.review(game)
    context["profile_title"] = profiles.PROFILES[game.game][game.profile].title
    return render(request, "history/review.html", context)


@require_safe
def changes(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game(game_id)
    number = _int(request.GET.get("deal"))
    rows = history.change_history(game)
    if number is not None:
        rows = [r for r in rows if r["number"] == number]
    return render(request, "history/changes.html", {"game": game, "rows": rows, "number": number})


def _knob_fields(game: str, params: Any) -> list[dict[str, Any]]:
    fields = []
    for k in profiles.knobs(game):
        if k.type is bool:
            choices = [("true", "yes"), ("false", "no")]
        elif k.allowed is not None:
            choices = [(str(v), str(v)) for v in k.allowed]
        else:
            choices = None
        fields.append(
            {
                "name": f"o_{k.name}",
                "label": k.label,
                "choices": choices,
                "value": params.get(f"o_{k.name}", ""),
                "min": k.minimum,
                "max": k.maximum,
                "help": k.description,
            }
        )
    return fields


@require_http_methods(["GET", "POST"])
def rescore(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game(game_id)
    params = request.POST if request.method == "POST" else request.GET
    profile = params.get("profile", "") or ""
    if profile not in profiles.PROFILES[game.game]:
        profile = next((p for p in profiles.PROFILES[game.game] if p != game.profile), game.profile)
    options, problems = history.parse_options(game.game, params)
    number = _int(params.get("deal"))
    status = 200
    if request.method == "POST" and not problems:
        try:
            history.switch_rules(game=game, profile=profile, options=options)
        except RecordInvalid as exc:
            problems = [str(e) for e in exc.errors]
            status = 400
        else:
            messages.success(request, f"The game now plays the {profiles.PROFILES[game.game][profile].title} rules.")
            return HttpResponseRedirect(reverse("review", args=[game.pk]))
    elif request.method == "POST":
        status = 400
    cmp = history.compare(game, profile=profile, options=options, number=number) if not problems else None
    context = {
        "game": game,
        "cmp": cmp,
        "problems": problems,
        "profile": profile,
        "number": number,
        "profiles": list(profiles.PROFILES[game.game].values()),
        "fields": _knob_fields(game.game, params),
        "current_title": profiles.PROFILES[game.game][game.profile].title,
        "deal_numbers": range(1, game.deals.count() + 1),
    }
    return _page(request, "history/rescore.html", context, partial="comparison", status=status)


@require_safe
def players(request: HttpRequest) -> HttpResponse:
    return render(request, "history/players.html", {"players": history.players_list()})


@require_safe
def player(request: HttpRequest, player_id: int) -> HttpResponse:
    p = get_object_or_404(Player, pk=player_id)
    stats = history.player_stats(p)
    others = Player.objects.exclude(pk=p.pk).order_by("name")
    return render(request, "history/player.html", {"stats": stats, "player": p, "others": others})


@require_POST
def player_rename(request: HttpRequest, player_id: int) -> HttpResponse:
    p = get_object_or_404(Player, pk=player_id)
    try:
        history.rename_player(player=p, name=request.POST.get("name", ""))
    except RecordInvalid as exc:
        return _player_error(request, p, exc)
    messages.success(request, "Renamed.")
    return HttpResponseRedirect(reverse("player", args=[p.pk]))


@require_POST
def player_merge(request: HttpRequest, player_id: int) -> HttpResponse:
    p = get_object_or_404(Player, pk=player_id)
    into = Player.objects.filter(pk=_int(request.POST.get("into")) or 0).first()
    if into is None:
        return _player_error(
            request, p, RecordInvalid([RecordError("choose the player to merge into", rule="players")])
        )
    try:
        history.merge_players(source=p, into=into)
    except RecordInvalid as exc:
        return _player_error(request, p, exc)
    messages.success(request, f"{p.name} merged into {into.name}.")
    return HttpResponseRedirect(reverse("player", args=[into.pk]))


def _player_error(request: HttpRequest, p: Player, exc: RecordInvalid) -> HttpResponse:
    stats = history.player_stats(p)
    others = Player.objects.exclude(pk=p.pk).order_by("name")
    return render(
        request,
        "history/player.html",
        {"stats": stats, "player": p, "others": others, "errors": [e.message for e in exc.errors]},
        status=400,
    )


def _json_download(data: Any, filename: str) -> HttpResponse:
    body = json.dumps(data, ensure_ascii=False, indent=1)
    resp = HttpResponse(body, content_type="application/json; charset=utf-8")
    resp["Content-Disposition"] = f'attachment; filename="{filename}"'
    return resp


def _csv_download(text: str, filename: str) -> HttpResponse:
    resp = HttpResponse(text, content_type="text/csv; charset=utf-8")
    resp["Content-Disposition"] = f'attachment; filename="{filename}"'
    return resp


@require_safe
def export_game(request: HttpRequest, game_id: int, fmt: str) -> HttpResponse:
    if fmt not in ("json", "csv"):
        raise Http404("Export as .json or .csv")
    game = _game(game_id)
    if fmt == "csv":
        return _csv_download(history.export_csv([game]), f"game-{game.pk}.csv")
    return _json_download(history.export_record(game), f"game-{game.pk}.json")


@require_safe
def export_all(request: HttpRequest, fmt: str) -> HttpResponse:
    if fmt not in ("json", "csv"):
        raise Http404("Export as .json or .csv")
    qs = history.games_list(
        player=request.GET.get("player", "")[:40], game=request.GET.get("game", ""), state=request.GET.get("state", "")
    )
    if fmt == "csv":
        return _csv_download(history.export_csv(qs), "games.csv")
    return _json_download(history.export_records(qs), "games.json")


@require_http_methods(["GET", "POST"])
def import_games(request: HttpRequest) -> HttpResponse:
    report = None
    problem = ""
    status = 200
    if request.method == "POST":
        upload = request.FILES.get("file")
        text = request.POST.get("text", "")
        if upload is not None:
            if upload.size > MAX_UPLOAD:
                problem = "the file is larger than 5 MB"
            else:
                text = upload.read()
        if not problem and not text:
            problem = "choose a file of game records (JSON) or paste one"
        if not problem:
            report = history.import_text(text)
            if report.ok:
                messages.success(request, f"Imported {len(report.games)} game{'s' if len(report.games) != 1 else ''}.")
                if len(report.games) == 1:
                    return HttpResponseRedirect(reverse("review", args=[report.games[0].pk]))
                return HttpResponseRedirect(reverse("history"))
        status = 400
    return render(request, "history/import.html", {"report": report, "problem": problem}, status=status)
