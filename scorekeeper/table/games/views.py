"""The pages of games: home (this phone's tables and games), a new game, the game page (which
follows the game live: ``live``), a rematch, and a deal's page. Small views: they read the request
through a form, call a service or a read, and render; no rules here, no write outside the services.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from django.contrib import messages
from django.http import Http404, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import get_object_or_404, render
from django.urls import resolve, reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scorekeeper.guards.limits import TABLES, limited
from scorekeeper.rules import profiles
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.table import access, submissions
from scorekeeper.table.changes import change_history
from scorekeeper.table.games import services
from scorekeeper.table.games.forms import NewGameForm
from scorekeeper.table.hands import opendeal
from scorekeeper.table.hands.views import open_context, until
from scorekeeper.table.live import answers
from scorekeeper.table.models import Change, ChangeAction, Deal, Device, Game, Role
from scorekeeper.table.pages import HtmxHttpRequest, render_page
from scorekeeper.table.phones import services as phones
from scorekeeper.table.phones.views import seating
from scorekeeper.table.present import GamePage, Refused, deal_view, game_view, stored_rows
from scorekeeper.table.scoring import engine
from scorekeeper.table.site_qr import site_qr
from scorekeeper.table.submissions import new_submission
from scorekeeper.table.text import error_text


@require_safe
def home(request: HtmxHttpRequest) -> HttpResponse:
    devices = access.devices(request)
    access.shows(request, *(d.table_id for d in devices))
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
    """A new game: Oklahoma or Oklahoma Gin (``game``; ``switch`` posts the other one with the names
    typed so far kept), its rules and players; started, the game's page."""
    data = request.POST if request.method == "POST" else request.GET
    kind = data.get("switch") or data.get("game", "")
    kind = kind if kind in profiles.GAMES else profiles.OKLAHOMA
    if request.method != "POST":
        return _new_game_page(request, NewGameForm(game=kind, initial={"submission": new_submission()}), kind)
    if "switch" in request.POST:  # the other game, with the names typed so far (and who deals first) kept
        return _new_game_page(request, NewGameForm(game=kind, initial=_kept(request.POST)), kind)
    form = NewGameForm(request.POST, game=kind)
    started = _start(request, form, kind) if form.is_valid() else None
    return started or _new_game_page(request, form, kind, status=400)


def _kept(posted: QueryDict) -> dict[str, str]:
    """What a switch to the other game keeps of the form: the names typed, who deals first, its token."""
    return {k: str(posted[k]) for k in posted if k.startswith("seat_") or k in ("first_dealer", "submission")}


def _new_game_page(request: HtmxHttpRequest, form: NewGameForm, kind: str, status: int = 200) -> HttpResponse:
    context = {
        "form": form,
        "game": kind,
        "games": [(g, profiles.GAME_NAMES[g]) for g in profiles.GAMES],
        "sources": {key: gettext(title) for key, title in profiles.SOURCES.items()},
    }
    response = render_page(request, "table/game_new.html", context, status=status)
    access.keep_browser(response, request)  # before the submit: its repeat is then known as this browser's
    return response


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
            browser=access.browser(request),
        )
    except submissions.Duplicate as done:
        return _started_again(request, done)
    except RecordInvalid as exc:
        form.apply_errors(exc.errors)
        return None
    response = HttpResponseRedirect(reverse("table:game", args=[row.pk]))
    access.remember(response, request, device)
    return response


def _started_again(request: HtmxHttpRequest, done: submissions.Duplicate) -> HttpResponse:
    """A new-game form submitted again (a double tap, a retry after a lost answer), answered as the
    first submit was: the game's page and, when the first submit made the table with the game and
    this browser never got that answer's cookie, the cookie of the phone it made — to the browser
    that submitted it first only (``access.browser``: the form's token alone is no proof, another
    browser may have read it), and as long as that phone still has its access."""
    response = HttpResponseRedirect(done.answer)
    if not done.by(access.browser(request)):
        return response
    match = resolve(urlsplit(done.answer).path)
    game = Game.objects.filter(pk=match.kwargs["game_id"]).first() if match.url_name == "game" else None
    if game is None or access.device_at(request, game.table_id) is not None:
        return response
    founded = Game.objects.filter(table_id=game.table_id).order_by("pk").first() == game
    founder = Device.objects.filter(table_id=game.table_id).order_by("pk").first()
    if founded and founder is not None and founder.revoked is None and founder.role == Role.SCORE:
        access.remember(response, request, founder)
    return response


def _own_hands(game: Game, device: Device) -> dict[str, Any]:
    """What the game page shows of the phones at its seats and of the open deal, from the game as
    ``access.game_and_device`` loads it (its open deal with it) and its seats, loaded once."""
    seats = access.with_players(game).seated()  # read once, for both
    shown = seating(game, device, seats)
    row = getattr(game, "open_deal", None)  # read with the game: None costs no query
    state = opendeal.state(game, row, seats=seats) if row is not None else None
    return {
        "seating": shown,
        "open_part": open_context(game, device, state, shown["mine"]["position"] if shown["mine"] else None),
    }


def _game_context(game: Game, device: Device, errors: list[str] | None = None) -> dict[str, Any]:
    """The game page's context (``present.game_view``): from the stored results, no deal scored,
    unless the game was stored by another version of the engine (then it is scored, once)."""
    rules, rule_errors = engine.rules_of(game)
    own = _own_hands(game, device)
    context = {
        "game": game,
        "rules": rules,
        "device": device,
        **game_view(game, rules),
        **own,
        "live_etag": answers.etag(
            game.version, game.table.names, device.role, partial=True, until=until(own["open_part"])
        ),
        "live_events": reverse("table:game_events", args=[game.pk]),
        "poll_seconds": answers.POLL_SECONDS,
        "submission": new_submission(),  # the rematch's, once the game is over
    }
    context["errors"] = [*(errors or []), *context["errors"], *rule_errors]
    return context


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
    tag = answers.etag(state.version, state.names, state.role, partial=partial)
    if answers.unchanged(request, tag):
        return answers.not_modified(tag)
    return _game_page(request, game_id, partial=partial)


@access.game_view(Role.FOLLOW, players=False)  # a page whose fragments are cached needs none
def _game_page(request: HtmxHttpRequest, game: Game, device: Device, *, partial: bool) -> HttpResponse:
    context = _game_context(game, device)
    context["just_saved"] = None if partial else _just_saved(request, game, device)
    response = render_page(request, "table/game.html", context, partial="live")
    held = until(context["open_part"])
    return answers.mark(
        response, answers.etag(game.version, game.table.names, device.role, partial=partial, until=held)
    )


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
    except submissions.Duplicate as done:
        return HttpResponseRedirect(done.answer)
    except RecordInvalid as exc:  # rules this engine no longer takes: say so, start nothing
        context = _game_context(game, device, [error_text(e) for e in exc.errors])
        return render(request, "table/game.html", context, status=400)
    phones.seat_as(game=row, like=game)  # each phone at its player's seat again
    return HttpResponseRedirect(reverse("table:game", args=[row.pk]))


@require_safe
@access.game_view(Role.FOLLOW)
def deal_page(request: HtmxHttpRequest, game: Game, device: Device, deal_id: int) -> HttpResponse:
    deal = get_object_or_404(Deal, game=game, pk=deal_id)
    result, errors = engine.result_or_errors(game)
    refused = Refused(errors)  # today's rules refuse the game: the deal as an earlier version stored it
    return render(
        request,
        "table/deal.html",
        {
            "game": game,
            "deal": deal,
            "view": deal_view(game, result, deal.number) if result else None,
            "stored": stored_rows(game, game.deals.filter(pk=deal.pk), refused)[0] if refused else None,
            "errors": refused.lines(),
            "device": device,
            "entered": json.dumps(engine.record_deal(deal.cards, game.player_names()), ensure_ascii=False),
            "changes": change_history(game, deal.pk),
            "submission": new_submission(),
        },
    )
