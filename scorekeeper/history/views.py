"""The history pages: past games, a game's review and change history, re-scoring, players,
export and import. Small views: a form reads the request, a read or a service does the work."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, HttpResponseRedirect, StreamingHttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scorekeeper.guards.limits import IMPORTS, limited
from scorekeeper.history import imports, lists, services, transfer
from scorekeeper.history import rescore as rescoring
from scorekeeper.history import review as reviewing
from scorekeeper.history.forms import MAX_UPLOAD, TOO_LARGE, GamesFilter, ImportForm, MergeForm, RenameForm, RescoreForm
from scorekeeper.history.stats import player_stats
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.table import access, submissions
from scorekeeper.table.changes import change_history
from scorekeeper.table.models import Device, Game, Player, Role
from scorekeeper.table.pages import HtmxHttpRequest, render_page
from scorekeeper.table.scoring import deals
from scorekeeper.table.submissions import new_submission
from scorekeeper.table.text import profile_title

PAGE = 50


@require_safe
def games(request: HtmxHttpRequest) -> HttpResponse:
    form = GamesFilter(request.GET)
    form.is_valid()
    data = form.cleaned_data
    player, kind, state = data.get("player") or "", data.get("game") or "", data.get("state") or ""
    qs = lists.games_list(tables=access.tables(request), player=player, kind=kind, state=state)
    page = Paginator(qs.values(*lists.LISTED), PAGE).get_page(data.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "form": form,
        "page": page,
        "rows": lists.rows(list(page.object_list)),
        "player": player,
        "game": kind,
        "state": state,
        "query": query.urlencode(),
        "players": lambda: lists.player_names(access.tables(request)),  # the full page only
        "may_import": any(d.role == Role.SCORE for d in access.devices(request)),  # else no Import link
    }
    return render_page(request, "history/games.html", context, partial="list")


@require_safe
@access.game_view(Role.FOLLOW)
def review(request: HtmxHttpRequest, game: Game, device: Device) -> HttpResponse:
    context = reviewing.review(game, request.GET.get("page"))
    context["profile_title"] = profile_title(game.kind, game.profile)
    context["device"] = device
    return render(request, "history/review.html", context)


@require_safe
@access.game_view(Role.FOLLOW)
def changes(request: HtmxHttpRequest, game: Game, device: Device) -> HttpResponse:
    deal = request.GET.get("deal", "")
    deal_id = int(deal) if deal.isascii() and deal.isdigit() and len(deal) < 18 else None
    rows = change_history(game, deal_id)
    return render(
        request,
        "history/changes.html",
        {"game": game, "rows": rows, "deal_id": deal_id, "device": device, "submission": new_submission()},
    )


@require_POST
@access.game_view(Role.SCORE)
def undo(request: HtmxHttpRequest, game: Game, device: Device, change_id: int) -> HttpResponse:
    # The page's undo buttons share its token: a submit is one button's, so the token is scoped to the change.
    token = request.POST.get("submission") or ""
    try:
        deals.undo(game=game, change_id=change_id, by=device, submission=f"{token}-{change_id}" if token else None)
    except submissions.Duplicate as done:
        return HttpResponseRedirect(done.answer)
    except (submissions.Conflict, RecordInvalid) as exc:
        problems = [str(e) for e in exc.errors] if isinstance(exc, RecordInvalid) else [str(exc)]
        return render(
            request,
            "history/changes.html",
            {
                "game": game,
                "rows": change_history(game),
                "device": device,
                "problems": problems,
                "submission": new_submission(),
            },
            status=409,
        )
    messages.success(request, gettext("Undone. The undo is in the history too."))
    if request.POST.get("back") == "game":  # the game page's "Deal N saved · Undo"
        return HttpResponseRedirect(reverse("table:game", args=[game.pk]))
    return HttpResponseRedirect(reverse("history:changes", args=[game.pk]))


@require_http_methods(["GET", "POST"])
@access.game_view(Role.FOLLOW)
def rescore(request: HtmxHttpRequest, game: Game, device: Device) -> HttpResponse:
    """The game beside itself under other rules (GET); a scorer's POST switches it to them."""
    form = _rescore_form(request, game)
    problems = _problems(form)
    if request.method != "POST":
        return _rescore_page(request, game, device, form, problems)
    access.require(request, game.table_id, Role.SCORE)
    if form.is_valid():
        try:
            deals.switch_rules(
                game=game,
                profile=form.profile(),
                options=form.options(),
                by=device,
                submission=request.POST.get("submission") or None,
            )
        except submissions.Duplicate as done:
            return HttpResponseRedirect(done.answer)
        except RecordInvalid as exc:
            problems = [str(e) for e in exc.errors]
        else:
            title = profile_title(game.kind, form.profile())
            messages.success(request, gettext("The game now plays the {title} rules.").format(title=title))
            return HttpResponseRedirect(reverse("history:review", args=[game.pk]))
    return _rescore_page(request, game, device, form, problems, status=400)


def _rescore_form(request: HtmxHttpRequest, game: Game) -> RescoreForm:
    """The form as the request fills it in: a POST's, a GET's query, or (a bare GET) not filled in."""
    if request.method == "POST":
        return RescoreForm(request.POST, game=game)
    return RescoreForm(request.GET or None, game=game)


def _problems(form: RescoreForm) -> list[str]:
    """The errors of a form filled in, each a line (none for a form not filled in)."""
    if not form.is_bound:
        return []
    return [str(e) for errors in form.errors.values() for e in errors]


def _rescore_page(
    request: HtmxHttpRequest,
    game: Game,
    device: Device,
    form: RescoreForm,
    problems: list[str],
    status: int = 200,
) -> HttpResponse:
    """The comparison the form asks for (the other rules, the whole game or one deal), or its problems."""
    bound = form.is_bound
    profile = form.profile() if bound else form.fields["profile"].initial
    number = form.cleaned_data.get("deal") if bound else None
    cmp = None
    if not problems:
        cmp = rescoring.compare(game, profile=profile, options=form.options() if bound else {}, number=number)
    context = {
        "game": game,
        "cmp": cmp,
        "problems": problems,
        "form": form,
        "profile": profile,
        "number": number,
        "current_title": profile_title(game.kind, game.profile),
        "other_title": profile_title(game.kind, cmp.other.profile) if cmp and cmp.other else "",
        "device": device,
        "submission": new_submission(),
    }
    return render_page(request, "history/rescore.html", context, partial="comparison", status=status)


def _player(request: HtmxHttpRequest, player_id: int, role: str = Role.FOLLOW) -> tuple[Player, Device]:
    player = Player.objects.filter(pk=player_id).select_related("table").first()
    if player is None:
        raise Http404("No such player")
    return player, access.require(request, player.table_id, role)


@require_safe
def players(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "history/players.html", {"players": lists.players_list(access.tables(request))})


def _player_page(
    request: HtmxHttpRequest, player: Player, device: Device, errors: list[str], status: int = 200, **forms: Any
) -> HttpResponse:
    context = {
        "stats": player_stats(player),
        "player": player,
        "device": device,
        "errors": errors,
        "rename": forms.get("rename") or RenameForm(initial={"name": player.name}),
        "merge": forms.get("merge") or MergeForm(player=player),
    }
    return render(request, "history/player.html", context, status=status)


@require_safe
def player(request: HtmxHttpRequest, player_id: int) -> HttpResponse:
    p, device = _player(request, player_id)
    return _player_page(request, p, device, [])


@require_POST
def player_rename(request: HtmxHttpRequest, player_id: int) -> HttpResponse:
    p, device = _player(request, player_id, Role.SCORE)
    form = RenameForm(request.POST)
    if form.is_valid():
        try:
            services.rename_player(player=p, name=form.cleaned_data["name"])
        except RecordInvalid as exc:
            return _player_page(request, p, device, [str(e.message) for e in exc.errors], 400, rename=form)
        messages.success(request, gettext("Renamed."))
        return HttpResponseRedirect(reverse("history:player", args=[p.pk]))
    return _player_page(request, p, device, [str(e) for es in form.errors.values() for e in es], 400, rename=form)


@require_POST
def player_merge(request: HtmxHttpRequest, player_id: int) -> HttpResponse:
    p, device = _player(request, player_id, Role.SCORE)
    form = MergeForm(request.POST, player=p)
    if not form.is_valid():
        return _player_page(request, p, device, [gettext("choose the player to merge into")], 400, merge=form)
    into = form.cleaned_data["into"]
    try:
        services.merge_players(source=p, into=into)
    except RecordInvalid as exc:
        return _player_page(request, p, device, [str(e.message) for e in exc.errors], 400, merge=form)
    messages.success(request, gettext("{name} merged into {into}.").format(name=p.name, into=into.name))
    return HttpResponseRedirect(reverse("history:player", args=[into.pk]))


def _download(body: str, content_type: str, filename: str) -> HttpResponse:
    resp = HttpResponse(body, content_type=f"{content_type}; charset=utf-8")
    resp["Content-Disposition"] = f'attachment; filename="{filename}"'
    return resp


@require_safe
@access.game_view(Role.FOLLOW)
def export_game(request: HtmxHttpRequest, game: Game, device: Device, fmt: str) -> HttpResponse:
    if fmt == "csv":
        return _download(transfer.export_csv([game]), "text/csv", f"game-{game.pk}.csv")
    if fmt == "json":
        record = transfer.export_records([game])[0]
        return _download(transfer.record_text(record), "application/json", f"game-{game.pk}.json")
    raise Http404("Export as .json or .csv")


@require_safe
def export_all(request: HtmxHttpRequest, fmt: str) -> StreamingHttpResponse:
    if fmt not in ("json", "csv"):
        raise Http404("Export as .json or .csv")
    form = GamesFilter(request.GET)
    form.is_valid()
    data = form.cleaned_data
    qs = lists.games_list(
        tables=access.tables(request),
        player=data.get("player") or "",
        kind=data.get("game") or "",
        state=data.get("state") or "",
    )
    # Streamed a chunk of games at a time: any number of games, in little memory.
    if fmt == "csv":
        return _stream(transfer.iter_export_csv(qs), "text/csv", "games.csv")
    return _stream(transfer.iter_export_json(qs), "application/json", "games.json")


def _stream(body: Iterator[str], content_type: str, filename: str) -> StreamingHttpResponse:
    resp = StreamingHttpResponse(body, content_type=f"{content_type}; charset=utf-8")
    resp["Content-Disposition"] = f'attachment; filename="{filename}"'
    return resp


@require_http_methods(["GET", "POST"])
@limited(IMPORTS)
def import_games(request: HtmxHttpRequest) -> HttpResponse:
    """Import a file of game records (or one pasted) into the table this phone scores at, once
    for the form's submission token: a double tap, a retry after a lost answer, is answered as the
    first submit was."""
    scorer = _scorer(request)
    fresh = ImportForm(initial={"submission": new_submission()})
    if request.method != "POST":
        return _import_page(request, fresh, None)
    if int(request.headers.get("content-length") or 0) > MAX_UPLOAD + 64 * 1024:
        # refused before the body is read: it never takes the disk
        return render(request, "history/import.html", {"report": None, "form": fresh, "problem": TOO_LARGE}, status=413)
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _import_page(request, form, None, status=400)
    try:
        report = imports.import_text(
            table=scorer.table, text=form.payload(), by=scorer, submission=form.cleaned_data["submission"] or None
        )
    except submissions.Duplicate as done:
        return HttpResponseRedirect(done.answer)
    if not report.ok:
        return _import_page(request, form, report, status=400)
    n = len(report.game_ids)
    messages.success(request, ngettext("Imported {n} game.", "Imported {n} games.", n).format(n=n))
    return HttpResponseRedirect(imports.answer(report.game_ids))


def _scorer(request: HtmxHttpRequest) -> Device:
    """The phone's device that scores at a table (the table the games go into)."""
    scorer = next((d for d in access.devices(request) if d.role == Role.SCORE), None)
    if scorer is None:
        raise PermissionDenied(gettext("Only a phone that scores at a table can import games into it."))
    return scorer


def _import_page(
    request: HtmxHttpRequest, form: ImportForm, report: imports.ImportReport | None, status: int = 200
) -> HttpResponse:
    return render(request, "history/import.html", {"report": report, "form": form}, status=status)
