"""The table's pages: home, a new game, the game, entering, editing and deleting a deal.

Small views: they read the request through a form, call a service or a read, and render. No
rules here, and no write outside ``table.services``.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scorekeeper.rules import profiles
from scorekeeper.rules.cards import CardError, Token, parse_token, split_cards
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.results import GameResult
from scorekeeper.table import access, engine, lan, live, services
from scorekeeper.table.changes import change_history
from scorekeeper.table.forms import DealEntry, JoinForm, NewGameForm, error_text, new_submission
from scorekeeper.table.models import Deal, Device, Game, GameState, Link, Role
from scorekeeper.table.pages import HtmxHttpRequest, render_page
from scorekeeper.table.present import deal_view, game_view


@require_safe
def home(request: HtmxHttpRequest) -> HttpResponse:
    devices = access.devices(request)
    games = Game.objects.of_tables(access.tables(request)).listed()[:30] if devices else []
    site = access.site_url(request)
    return render(
        request,
        "table/home.html",
        {"games": games, "devices": devices, "site": site, "site_qr": lan.svg_qr(site)},
    )


@require_http_methods(["GET", "POST"])
def new_game(request: HtmxHttpRequest) -> HttpResponse:
    data = request.POST if request.method == "POST" else request.GET
    kind = data.get("game", profiles.OKLAHOMA)
    if kind not in profiles.GAMES:
        kind = profiles.OKLAHOMA
    scorers = [d for d in access.devices(request) if d.role == Role.SCORE]
    status = 200
    if request.method == "POST":
        form = NewGameForm(request.POST, game=kind)
        if form.is_valid():
            device = scorers[0] if scorers else None
            try:
                if device is None:
                    table, device = services.create_table(name="Our table", device_name="Scorer's phone")
                row = services.create_game(
                    table=device.table,
                    kind=kind,
                    profile=form.cleaned_data["profile"],
                    options=form.options(),
                    players=form.players(),
                    first_dealer=form.cleaned_data["first_dealer"],
                    by=device,
                    submission=form.cleaned_data.get("submission") or None,
                )
            except services.Duplicate as done:
                return HttpResponseRedirect(done.answer)
            except RecordInvalid as exc:
                form.apply_errors(exc.errors)
            else:
                response = HttpResponseRedirect(reverse("table:game", args=[row.pk]))
                access.remember(response, request, device)
                return response
        status = 400
    else:
        form = NewGameForm(game=kind, initial={"submission": new_submission()})
    context = {
        "form": form,
        "game": kind,
        "games": [(g, profiles.GAME_NAMES[g]) for g in profiles.GAMES],
        "sources": profiles.SOURCES,
    }
    return render_page(request, "table/game_new.html", context, status=status)


def _score(game: Game) -> tuple[GameResult | None, list[str]]:
    try:
        return engine.game_result(game), []
    except RecordInvalid as exc:
        return None, [str(e) for e in exc.errors]


@require_safe
def game_page(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The game: the board, the deals, who deals next, the winner. It follows the game live: a
    phone that holds the current version is answered 304 before anything is loaded (``live``)."""
    version, role = access.watching(request, game_id)
    partial = bool(request.htmx)
    if live.unchanged(request, live.etag(version, role, partial=partial)):
        return live.not_modified(live.etag(version, role, partial=partial))
    return _game_page(request, game_id, partial=partial)


@access.game_view(Role.FOLLOW, players=False)  # a page whose fragments are cached needs none
def _game_page(request: HtmxHttpRequest, game: Game, device: Device, *, partial: bool) -> HttpResponse:
    rules, rule_errors = engine.rules_of(game)
    context = {
        "game": game,
        "rules": rules,
        "device": device,
        **game_view(game, rules),  # from the stored results: no deal is scored
        "live_etag": live.etag(game.version, device.role, partial=True),
        "poll_seconds": live.POLL_SECONDS,
    }
    context["errors"] = context["errors"] + rule_errors
    response = render_page(request, "table/game.html", context, partial="live")
    return live.mark(response, live.etag(game.version, device.role, partial=partial))


def _entry_context(
    game: Game, entry: DealEntry, deal: Deal | None, preview: GameResult | None, conflict: Any = None
) -> dict[str, Any]:
    rules, _ = engine.rules_of(game)
    number = deal.number if deal else entry.number or game.deals.count() + 1
    return {
        "game": game,
        "entry": entry,
        "deal": deal,
        "number": number,
        "rules": rules,
        "preview": deal_view(game, preview, number) if preview and number <= len(preview.deals) else None,
        "pack": engine.pack_counts(rules),
        "gin": entry.gin,
        "conflict": conflict,
    }


def _deal_form(request: HtmxHttpRequest, game: Game, device: Device, deal: Deal | None) -> HttpResponse:
    players = game.player_names()
    if request.method == "GET":
        if deal is None and game.finished:
            return HttpResponseRedirect(reverse("table:game", args=[game.pk]))
        entry = DealEntry(
            game=game.kind,
            players=players,
            initial=engine.record_deal(deal.cards, players) if deal else None,
            number=deal.number if deal else game.deals.count() + 1,
            version=deal.version if deal else None,
            submission=new_submission(),
        )
        # A saved deal is complete: its edit page previews the points as they stand.
        preview = None
        if deal is not None:
            with contextlib.suppress(RecordInvalid):
                preview = engine.game_result(game)
        return render(request, "table/deal_form.html", _entry_context(game, entry, deal, preview))

    action = request.POST.get("action", "save")
    entry = DealEntry(game=game.kind, players=players, data=request.POST, extra_melds=1 if action == "more" else 0)
    data = entry.to_data()
    preview = None
    conflict = None
    if data is not None and action != "more":
        try:
            if action == "save":
                if deal is None:
                    saved = services.add_deal(
                        game=game, deal=data, number=entry.number, by=device, submission=entry.submission
                    )
                else:
                    saved = services.edit_deal(
                        game=game,
                        deal_id=deal.pk,
                        version=entry.version,
                        deal=data,
                        by=device,
                        submission=entry.submission,
                    )
                return HttpResponseRedirect(reverse("table:game", args=[game.pk]) + f"#deal-{saved.number}")
            preview = services.check_deal(game=game, deal=data, number=deal.number if deal else None)
        except services.Duplicate as done:
            return HttpResponseRedirect(done.answer)
        except services.Conflict as exc:
            conflict = exc
            if exc.deal is not None and deal is None:
                entry.number = game.deals.count() + 1
            if exc.deal is not None and deal is not None:
                entry.version = exc.deal.version
            entry.submission = new_submission()
        except RecordInvalid as exc:
            entry.apply_errors(exc.errors, deal.number if deal else entry.number or game.deals.count() + 1)
    status = 409 if conflict else 400 if entry.has_errors else 200
    partial = "preview" if action == "preview" else None
    return render_page(
        request,
        "table/deal_form.html",
        _entry_context(game, entry, deal, preview, conflict),
        partial=partial,
        status=status if not request.htmx else 200,
    )


@require_http_methods(["GET", "POST"])
@access.game_view(Role.SCORE)
def deal_new(request: HtmxHttpRequest, game: Game, device: Device) -> HttpResponse:
    return _deal_form(request, game, device, None)


def _deal(game: Game, deal_id: int) -> Deal:
    return get_object_or_404(Deal, game=game, pk=deal_id)


@require_http_methods(["GET", "POST"])
@access.game_view(Role.SCORE)
def deal_edit(request: HtmxHttpRequest, game: Game, device: Device, deal_id: int) -> HttpResponse:
    deal = game.deals.filter(pk=deal_id).first()
    if deal is None:
        if request.method == "POST":
            return _gone(request, game, deal_id)
        raise Http404("No such deal")
    return _deal_form(request, game, device, deal)


def _gone(request: HtmxHttpRequest, game: Game, deal_id: int) -> HttpResponse:
    """A form for a deal deleted meanwhile (on another phone): say so, when and by whom."""
    change = services.last_change(game, deal_id)
    if change is None:
        raise Http404("No such deal")
    return render(request, "table/deal_gone.html", {"game": game, "change": change}, status=409)


@require_safe
@access.game_view(Role.FOLLOW)
def deal_page(request: HtmxHttpRequest, game: Game, device: Device, deal_id: int) -> HttpResponse:
    deal = _deal(game, deal_id)
    result, errors = _score(game)
    view = deal_view(game, result, deal.number) if result else None
    return render(
        request,
        "table/deal.html",
        {
            "game": game,
            "deal": deal,
            "view": view,
            "errors": errors,
            "device": device,
            "entered": json.dumps(engine.record_deal(deal.cards, game.player_names()), ensure_ascii=False),
            "changes": change_history(game, deal.pk),
            "submission": new_submission(),
            "gin": game.is_gin,
        },
    )


@require_http_methods(["GET", "POST"])
@access.game_view(Role.SCORE)
def deal_delete(request: HtmxHttpRequest, game: Game, device: Device, deal_id: int) -> HttpResponse:
    deal = game.deals.filter(pk=deal_id).first()
    errors: list[str] = []
    if request.method == "POST":
        version = request.POST.get("version", "")
        try:
            services.delete_deal(
                game=game,
                deal_id=deal_id,
                version=int(version) if version.isdigit() else None,
                by=device,
                submission=request.POST.get("submission") or None,
            )
        except services.Duplicate as done:
            return HttpResponseRedirect(done.answer)
        except services.Conflict as exc:
            if exc.deal is None:
                return _gone(request, game, deal_id)
            deal = exc.deal
            errors = [str(exc)]
        except RecordInvalid as exc:
            errors = [error_text(e) for e in exc.errors]
        else:
            return HttpResponseRedirect(reverse("table:game", args=[game.pk]))
    if deal is None:
        raise Http404("No such deal")
    return render(
        request,
        "table/deal_delete.html",
        {"game": game, "deal": deal, "errors": errors, "submission": new_submission()},
        status=409 if errors else 200,
    )


@require_POST
@access.game_view(Role.SCORE)
def check_meld(request: HtmxHttpRequest, game: Game, device: Device) -> HttpResponse:
    """htmx: check the one meld field named by ?field= and say what it is or what is wrong."""
    name = request.GET.get("field", "")
    text = str(request.POST.get(name, ""))[:200]
    rules, _ = engine.rules_of(game)
    context: dict[str, Any] = {"field": name, "ok": None, "errors": [], "text": ""}
    tokens: list[Token] = []
    for raw in split_cards(text):
        try:
            tokens.append(parse_token(raw) if not game.is_gin else Token(parse_token(raw).card))
        except CardError as exc:
            context["errors"].append(exc.message)
    if tokens and not context["errors"]:
        is_meld = name.split("-")[-1].startswith("meld")
        if not game.is_gin and is_meld:
            check = engine.check_meld(tokens, rules)
            if check is not None:
                if check.ok:
                    shown = (
                        f" {' '.join(check.meaning)}" if check.meaning and any(t.card.is_wild for t in tokens) else ""
                    )
                    context["ok"] = f"{check.kind}{shown}, +{check.points}"
                else:
                    context["errors"] = [error_text(e) for e in check.errors]
        elif game.is_gin and is_meld:
            kind, problem = engine.check_gin_meld([t.card for t in tokens])
            if problem:
                context["errors"] = [problem]
            elif kind:
                context["ok"] = f"{kind} {' '.join(t.label for t in tokens)}"
        if not context["errors"] and context["ok"] is None:
            context["ok"] = " ".join(t.label for t in tokens)
    return render(request, "table/check.html", context)


@require_http_methods(["GET", "POST"])
def join(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """A table's link: this phone joins the table, to score or to follow as the link says, and
    goes to the table's game in progress (or the table's page)."""
    link = Link.objects.filter(token=token[:64]).select_related("table").first()
    if link is None or not services.link_works(link):
        return render(request, "table/join.html", {"link": None}, status=404)
    already = access.device_at(request, link.table_id)
    form = JoinForm(request.POST or None, initial={"name": already.name if already else ""})
    if request.method == "POST" and form.is_valid():
        try:
            device = services.join_table(link=link, name=form.cleaned_data["name"], replacing=already)
        except services.AccessRefused:
            return render(request, "table/join.html", {"link": None}, status=404)
        playing = link.table.games.filter(state=GameState.IN_PROGRESS).order_by("-updated", "-pk").first()
        where = reverse("table:game", args=[playing.pk]) if playing else reverse("table:table", args=[link.table_id])
        response = HttpResponseRedirect(where)
        access.remember(response, request, device)
        return response
    return render(
        request,
        "table/join.html",
        {"link": link, "form": form, "already": already},
        status=400 if form.is_bound else 200,
    )
