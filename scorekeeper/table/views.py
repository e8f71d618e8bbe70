"""The table's pages: home, a new game, the game, entering, editing and deleting a deal.

Small views: they read the request through a form, call a service or a read, and render. No
rules here, and no write outside ``table.services``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from django.contrib import messages
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import resolve, reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext, gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scorekeeper.limits import JOINS, TABLES, limited
from scorekeeper.rules import points, profiles
from scorekeeper.rules.cards import parse_card
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.profiles import Rules
from scorekeeper.table import access, checks, engine, hands, live, services, watchers
from scorekeeper.table.changes import change_history
from scorekeeper.table.forms import (
    DealEntry,
    JoinForm,
    NewGameForm,
    PointsForm,
    _int,
    _with,
    deal_entry,
    error_text,
    new_submission,
)
from scorekeeper.table.models import Change, ChangeAction, Deal, Device, Game, GameState, Link, Role
from scorekeeper.table.pages import HtmxHttpRequest, render_page
from scorekeeper.table.present import GamePage, deal_view, game_view, played_view
from scorekeeper.table.site_qr import site_qr

log = logging.getLogger(__name__)


@require_safe
def home(request: HtmxHttpRequest) -> HttpResponse:
    devices = access.devices(request)
    # By the tables' ids (not a subquery): the database walks a table's games newest first and
    # stops at the 30th, however many the table played.
    games = Game.objects.of_tables(sorted({d.table_id for d in devices})).listed()[:30] if devices else []
    site = access.site_url(request)
    return render(
        request,
        "table/home.html",
        {"games": games, "devices": devices, "site": site, "site_qr": site_qr(site)},
    )


@require_http_methods(["GET", "POST"])
@limited(TABLES)
def new_game(request: HtmxHttpRequest) -> HttpResponse:
    switch = request.POST.get("switch") if request.method == "POST" else None
    kind = switch or (request.POST if request.method == "POST" else request.GET).get("game", profiles.OKLAHOMA)
    if kind not in profiles.GAMES:
        kind = profiles.OKLAHOMA
    status = 200
    if switch is not None:
        # the other game, with the names typed so far (and who deals first) kept
        kept = {k: v for k, v in request.POST.items() if k.startswith("seat_") or k in ("first_dealer", "submission")}
        form = NewGameForm(game=kind, initial=kept)
    elif request.method == "POST":
        form = NewGameForm(request.POST, game=kind)
        if form.is_valid():
            started = _start(request, form, kind)
            if started is not None:
                return started
        status = 400
    else:
        form = NewGameForm(game=kind, initial={"submission": new_submission()})
    context = {
        "form": form,
        "game": kind,
        "games": [(g, profiles.GAME_NAMES[g]) for g in profiles.GAMES],
        "sources": {key: gettext(title) for key, title in profiles.SOURCES.items()},
    }
    return render_page(request, "table/game_new.html", context, status=status)


def _start(request: HtmxHttpRequest, form: NewGameForm, kind: str) -> HttpResponse | None:
    """Start the game a valid new-game form asks for, by this phone's table's scoring phone (a
    phone of no table starts one): its page, or None with the engine's errors on the form."""
    scorers = [d for d in access.devices(request) if d.role == Role.SCORE]
    try:
        row, device = services.start_game(
            device=scorers[0] if scorers else None,
            kind=kind,
            profile=form.cleaned_data["profile"],
            options=form.options(),
            players=form.players(),
            first_dealer=form.cleaned_data["first_dealer"],
            submission=form.cleaned_data.get("submission") or None,
        )
    except services.Duplicate as done:
        return _started_again(request, done)
    except RecordInvalid as exc:
        form.apply_errors(exc.errors)
        return None
    response = HttpResponseRedirect(reverse("table:game", args=[row.pk]))
    access.remember(response, request, device)
    return response


def _started_again(request: HtmxHttpRequest, done: services.Duplicate) -> HttpResponse:
    """A new-game form submitted again (a double tap, a retry after a lost answer), answered as the
    first submit was: the game's page and, when the first submit made the table with the game and
    this phone never got that answer's cookie, the cookie of the phone it made (the form's secret
    token is the proof) — as long as that phone still has its access."""
    response = HttpResponseRedirect(done.answer)
    match = resolve(urlsplit(done.answer).path)
    game = Game.objects.filter(pk=match.kwargs["game_id"]).first() if match.url_name == "game" else None
    if game is None or access.device_at(request, game.table_id) is not None:
        return response
    founded = Game.objects.filter(table_id=game.table_id).order_by("pk").first() == game
    founder = Device.objects.filter(table_id=game.table_id).order_by("pk").first()
    if founded and founder is not None and founder.revoked is None and founder.role == Role.SCORE:
        access.remember(response, request, founder)
    return response


def _game_context(game: Game, device: Device, errors: list[str] | None = None) -> dict[str, Any]:
    """The game page's context (``present.game_view``): from the stored results, no deal scored,
    unless the game was stored by another version of the engine (then it is scored, once)."""
    rules, rule_errors = engine.rules_of(game)
    own = hands.game_context(game, device)
    context = {
        "game": game,
        "rules": rules,
        "device": device,
        **game_view(game, rules),
        **own,
        "live_etag": live.etag(
            game.version, game.table.names, device.role, partial=True, until=hands.until(own["open_part"])
        ),
        "live_events": reverse("table:game_events", args=[game.pk]),
        "poll_seconds": live.POLL_SECONDS,
        "submission": new_submission(),  # the rematch's, once the game is over
    }
    context["errors"] = [*(errors or []), *context["errors"], *rule_errors]
    return context


# What a save that the database refused says, on the form with the cards as typed (issue 24).
NOT_WRITTEN = gettext_lazy("The server could not write the deal — your cards are kept; try again in a moment.")
SAVED_NOTE_FOR = timedelta(minutes=10)  # "Deal 4 saved · Undo" on the game page after a save


def _just_saved(request: HtmxHttpRequest, game: Game, device: Device) -> Change | None:
    """The save this phone just made, for "Deal N saved · Undo": the game's last change, if it is
    the deal the save's redirect names (``?saved=N``), made by this phone a moment ago, not undone."""
    number = request.GET.get("saved", "")
    if not number.isdigit() or not device.scores:
        return None
    last = game.changes.order_by("-at", "-id").first()
    if (
        last is None
        or last.number != int(number)
        or last.by_id != device.pk
        or last.action not in (ChangeAction.DEAL_ADDED, ChangeAction.DEAL_EDITED)
        or timezone.now() - last.at > SAVED_NOTE_FOR
    ):
        return None
    return last


@require_safe
def game_page(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The game: the board, the deals, who deals next, the winner. It follows the game live: a
    phone that holds the current version is answered 304 before anything is loaded (``live``),
    unless a message waits for the page (a form refused with nothing changed: a seat's, the open
    deal's): then the page shows it, once, and holds no validator (or the phone's cache would
    show it again on the next 304)."""
    partial = bool(request.htmx)
    try:
        state = access.watching(request, game_id)
    except Http404:
        if partial:
            raise  # the live page's poll: it reloads, and the whole page says why
        return _game_page(request, game_id, partial=False)  # 404, or 403 for a phone taken off the table
    if not partial and len(messages.get_messages(request)):  # a refused form goes back to the whole page
        response = _game_page(request, game_id, partial=False)
        response.headers.pop("ETag", None)
        return response
    tag = live.etag(state.version, state.names, state.role, partial=partial)
    if live.unchanged(request, tag):
        return live.not_modified(tag)
    return _game_page(request, game_id, partial=partial)


@require_safe
async def game_events(request: HttpRequest, game_id: int) -> HttpResponse | StreamingHttpResponse:
    """The game page's stream of server-sent events (``live``, ``watchers``): the phone's access
    is checked as it opens (every reconnect is a new opening); then it says when the live part
    changed. 404 for a phone that is not (or no longer) at the game's table. Under a WSGI server
    (``make dev``'s runserver) a stream cannot stay open: 204, and the page polls instead. ``make
    run`` answers the streams on ASGI itself (``stream``, tested equal to this under Django's ASGI
    handler): this is its plain path."""
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)  # EventSource stops; live.js asks every second
    stream = await watchers.open_stream(access.device_ids(request), game_id, get_language() or "")
    if stream is None:
        raise Http404("No such game")
    response = StreamingHttpResponse(stream, headers=watchers.HEADERS)
    # Not gzipped (GZipMiddleware reads this as the response passes): a compressor per stream.
    request.META.pop("HTTP_ACCEPT_ENCODING", None)
    return response


@access.game_view(Role.FOLLOW, players=False)  # a page whose fragments are cached needs none
def _game_page(request: HtmxHttpRequest, game: Game, device: Device, *, partial: bool) -> HttpResponse:
    context = _game_context(game, device)
    context["just_saved"] = None if partial else _just_saved(request, game, device)
    response = render_page(request, "table/game.html", context, partial="live")
    until = hands.until(context["open_part"])
    return live.mark(response, live.etag(game.version, game.table.names, device.role, partial=partial, until=until))


@require_POST
@access.game_view(Role.SCORE)
def rematch(request: HtmxHttpRequest, game: Game, device: Device) -> HttpResponse:
    """A new game with the same players and rules, once the game is over; the player who would
    deal next deals first. A repeated post (its submission token) answers with the same game."""
    if not game.finished:
        return HttpResponseRedirect(reverse("table:game", args=[game.pk]))
    names = game.player_names()
    following = GamePage(game, engine.rules_of(game)[0]).board["next_dealer"]  # from the stored standing
    try:
        row, _ = services.start_game(
            device=device,
            kind=game.kind,
            profile=game.profile,
            options=game.options,
            players=names,
            first_dealer=names.index(following) if following in names else game.first_dealer,
            submission=request.POST.get("submission") or None,
        )
    except services.Duplicate as done:
        return HttpResponseRedirect(done.answer)
    except RecordInvalid as exc:  # rules this engine no longer takes: say so, start nothing
        context = _game_context(game, device, [error_text(e) for e in exc.errors])
        return render(request, "table/game.html", context, status=400)
    services.seat_as(game=row, like=game)  # each phone at its player's seat again
    return HttpResponseRedirect(reverse("table:game", args=[row.pk]))


def _entry_context(
    game: Game, entry: DealEntry, deal: Deal | None, preview: dict[str, Any] | None, conflict: Any = None
) -> dict[str, Any]:
    rules, _ = engine.rules_of(game)
    number = _number(game, entry, deal)
    pack = entry.game.pack(rules)
    return {
        "game": game,
        "entry": entry,
        "deal": deal,
        "number": number,
        "heading": (gettext("Edit deal {number}") if deal else gettext("Deal {number}")).format(number=number),
        "rules": rules,
        "preview": preview,
        "pack": json.dumps(pack),
        # the cards that may name another (Oklahoma's wild cards), for the picker's "="
        "wild": " ".join(code for code in pack if entry.game.wilds and parse_card(code).is_wild),
        "conflict": conflict,
    }


def _deal_form(request: HtmxHttpRequest, game: Game, device: Device, deal: Deal | None) -> HttpResponse:
    """The deal form (a new deal when ``deal`` is None): opened, previewed, or saved."""
    rules, _ = engine.rules_of(game)
    if request.method == "GET":
        return _open_deal_form(request, game, deal, rules)
    action = request.POST.get("action", "save")
    previewing = bool(request.htmx) and action == "preview"
    entry = deal_entry(game.kind, players=game.player_names(), data=request.POST, live=previewing)
    data = entry.to_data()
    checks.attach(entry, rules)
    preview = None
    conflict: Any = None
    status = None
    if data is not None:
        try:
            if action == "save":
                saved = _save_deal(game, device, deal, entry, data)
                where = reverse("table:game", args=[game.pk])
                return HttpResponseRedirect(f"{where}?saved={saved.number}#deal-{saved.number}")
            played = services.check_deal(game=game, deal=data, number=deal.number if deal else None)
            preview = played_view(played, entry.players)
        except services.Duplicate as done:
            return HttpResponseRedirect(done.answer)
        except services.Conflict as exc:
            conflict = exc
            _restart(game, entry, deal, exc)
        except RecordInvalid as exc:
            entry.apply_errors(exc.errors, _number(game, entry, deal))
        except DatabaseError:  # a full disk, a read-only or locked database: the cards stay on the form
            log.exception("a deal could not be written")
            conflict = NOT_WRITTEN
            status = 503
    entry.settle()
    status = status or (409 if conflict else 400 if entry.has_errors else 200)
    return render_page(
        request,
        "table/deal_form.html",
        _entry_context(game, entry, deal, preview, conflict),
        partial="preview" if action == "preview" else None,
        status=status if not request.htmx else 200,
    )


def _number(game: Game, entry: DealEntry, deal: Deal | None) -> int:
    """The number of the deal the form enters: the deal edited, or the one it was opened for."""
    return deal.number if deal else entry.number or game.deals.count() + 1


def _restart(game: Game, entry: DealEntry, deal: Deal | None, conflict: services.Conflict) -> None:
    """The form answers a conflict: a new deal's next save is the next deal's, whatever its number
    then (the player, seeing the deal taken, says these cards are another deal: however many
    phones save at once, a phone is refused once, never again and again); an edit's is of the
    deal as it is now. Either way a new submission."""
    there = conflict.deal
    entry.restart(
        next_deal=there is not None and deal is None,
        version=there.version if there is not None and deal is not None else None,
        submission=new_submission(),
    )


def _open_deal_form(request: HtmxHttpRequest, game: Game, deal: Deal | None, rules: Rules) -> HttpResponse:
    """The form as opened: empty for the next deal, or a saved deal's cards with its points."""
    if deal is None and game.finished:
        return HttpResponseRedirect(reverse("table:game", args=[game.pk]))
    players = game.player_names()
    entry = deal_entry(
        game.kind,
        players=players,
        initial=engine.record_deal(deal.cards, players) if deal else None,
        number=deal.number if deal else game.deals.count() + 1,
        version=deal.version if deal else None,
        submission=new_submission(),
    )
    checks.attach(entry, rules)
    # A saved deal is complete: its edit page previews the points as they stand.
    preview = None
    if deal is not None:
        with contextlib.suppress(RecordInvalid):
            preview = deal_view(game, engine.game_result(game), deal.number)
    return render(request, "table/deal_form.html", _entry_context(game, entry, deal, preview))


def _save_deal(game: Game, device: Device, deal: Deal | None, entry: DealEntry, data: dict[str, Any]) -> Deal:
    """Add the deal, or save the edit of ``deal``: once for the form's submission token, refused
    when the form is stale (the services raise Duplicate, Conflict or RecordInvalid)."""
    if deal is None:
        return services.add_deal(game=game, deal=data, number=entry.number, by=device, submission=entry.submission)
    return services.edit_deal(
        game=game, deal_id=deal.pk, version=entry.version, deal=data, by=device, submission=entry.submission
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
            done = services.first_answer(request.POST.get("submission"))
            if done is not None:  # the retry of an edit that was saved before the deal was deleted
                return HttpResponseRedirect(done)
            return _gone(request, game, deal_id)
        raise Http404("No such deal")
    if points.is_points_only(deal.cards):  # typed as points: edited as points
        return _points_form(request, game, device, deal)
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
    result, errors = engine.result_or_errors(game)
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
                version=int(version) if version.isascii() and version.isdigit() and len(version) < 10 else None,
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


@require_http_methods(["GET", "POST"])
@limited(JOINS)
def join(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """A table's link: this phone joins the table, to score or to follow as the link says, and
    goes to the table's game in progress (or the table's page)."""
    link = (
        Link.opened_by(token).select_related("table").first()
        if re.fullmatch(r"[A-Za-z0-9_-]{1,64}", token)  # a NUL would reach PostgreSQL, which refuses it
        else None
    )
    if link is None or not services.link_works(link):
        return render(request, "table/join.html", {"link": None}, status=404)
    already = access.device_at(request, link.table_id)
    if already is None and access.off_table(request, link.table_id) is not None:
        raise access.OffTable("The scorer took this phone off the table.")
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


# ---------------------------------------------------------------------------- points only


def _points_form(request: HtmxHttpRequest, game: Game, device: Device, deal: Deal | None) -> HttpResponse:
    """A points-only deal (each player's points, no cards): a new deal, or the edit of ``deal``."""
    players = game.player_names()
    if request.method == "GET":
        if deal is None and game.finished:
            return HttpResponseRedirect(reverse("table:game", args=[game.pk]))
        initial = PointsForm.initial_of(engine.record_deal(deal.cards, players), players) if deal else {}
        initial.update(
            number=deal.number if deal else game.deals.count() + 1,
            version=deal.version if deal else "",
            submission=new_submission(),
        )
        return _points_page(request, game, deal, PointsForm(initial=initial, players=players))
    form = PointsForm(request.POST, players=players)
    conflict: Any = None
    status = 400
    if form.is_valid():
        number, version = _int(form.cleaned_data["number"]), _int(form.cleaned_data["version"])
        submission = form.cleaned_data["submission"]
        try:
            if deal is None:
                saved = services.add_deal(game=game, deal=form.deal(), number=number, by=device, submission=submission)
            else:
                saved = services.edit_deal(
                    game=game, deal_id=deal.pk, version=version, deal=form.deal(), by=device, submission=submission
                )
        except services.Duplicate as done:
            return HttpResponseRedirect(done.answer)
        except services.Conflict as exc:
            conflict, status = exc, 409
            changes = {"submission": new_submission()}
            if exc.deal is not None and deal is None:
                changes["number"] = ""
            elif exc.deal is not None:
                changes["version"] = str(exc.deal.version)
            form.data = _with(form.data, changes)
        except RecordInvalid as exc:
            for e in exc.errors:
                field = (e.field or "").removeprefix("points.")
                name = f"points_{players.index(field)}" if field in players else None
                form.add_error(name, error_text(e))
        else:
            where = reverse("table:game", args=[game.pk])
            return HttpResponseRedirect(f"{where}?saved={saved.number}#deal-{saved.number}")
    return _points_page(request, game, deal, form, conflict=conflict, status=status)


def _points_page(
    request: HtmxHttpRequest, game: Game, deal: Deal | None, form: PointsForm, conflict: Any = None, status: int = 200
) -> HttpResponse:
    number = deal.number if deal else _int(form["number"].value()) or game.deals.count() + 1
    context = {"game": game, "deal": deal, "form": form, "number": number, "conflict": conflict}
    return render(request, "table/points_form.html", context, status=status)


@require_http_methods(["GET", "POST"])
@access.game_view(Role.SCORE)
def deal_points(request: HtmxHttpRequest, game: Game, device: Device) -> HttpResponse:
    return _points_form(request, game, device, None)
