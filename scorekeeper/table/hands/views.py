"""Every player enters his own hand on his own phone, at the same time.

A phone at the table sits at a seat of a game ("This is Ben's phone": ``phones.views.seat_phone``).
When a deal ends, a seated phone or the scorer opens it (``services.open_deal``); each seated phone
then enters its own hand with the deal form of the game (``entry.deal.DealEntry`` shown for one
seat), the deal's own facts given once by whoever knows them first. Each hand is stored on the
server as it is submitted, versioned (``services.submit_hand``); every phone sees the deal come
together on the game page's live part (``opendeal``); the scorer saves it when every hand is in
and valid, or it saves itself (the table's setting). Small views: every write is a service.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.profiles import Rules
from scorekeeper.table import access, submissions
from scorekeeper.table.changes import deal_facts
from scorekeeper.table.entry import checks, flow
from scorekeeper.table.entry.deal import DealEntry, deal_entry
from scorekeeper.table.entry.forms import int_or_none
from scorekeeper.table.hands import opendeal, services
from scorekeeper.table.live import answers
from scorekeeper.table.models import Device, Game, OpenDeal, OpenHand, Role, Seat
from scorekeeper.table.pages import HtmxHttpRequest, refused, render_page
from scorekeeper.table.scoring import deals, engine
from scorekeeper.table.submissions import new_submission
from scorekeeper.table.text import error_text

# ------------------------------------------------------------------------------- the open deal


def open_context(game: Game, device: Device, state: opendeal.DealState | None, my_seat: int | None) -> dict[str, Any]:
    """What ``table/open_status.html`` shows."""
    return {
        "open": state,
        "open_facts": deal_facts(state.open.facts, game.player_names()) if state else [],
        "my_seat": my_seat,
        "game": game,
        "device": device,
        "save_form": True,
        "submission": new_submission(),
    }


def until(part: dict[str, Any]) -> datetime | None:
    """When the open deal's status (``open_context``) changes with no write (``DealState.until``)."""
    return part["open"].until if part["open"] else None


def _open_tag(version: int, names: int, role: str, held: datetime | None = None) -> str:
    """The validator of the open deal's status polled by a hand's page (its own, beside the game
    page's live part's), ``held`` until the status changes by itself (``until``)."""
    return answers.etag(version, names, role, partial=True, until=held).replace('"g', '"o', 1)


def _my_seat(game: Game, device: Device) -> int | None:
    return Seat.objects.filter(game=game, phone=device).values_list("position", flat=True).first()


def _state_and_seat(
    game: Game, device: Device, row: OpenDeal | None = None
) -> tuple[opendeal.DealState | None, int | None]:
    """The open deal as it stands and this phone's seat, from the game's seats read once."""
    seats = access.with_players(game).seated()
    mine = next((s.position for s in seats if s.phone_id == device.pk), None)
    return opendeal.state(game, row, seats=seats), mine


@require_POST
@access.game_view(Role.FOLLOW)
def open_deal(request: HtmxHttpRequest, game: Game, device: Device) -> HttpResponse:
    """Open the next deal for the players to enter ("Enter deal N"): a seated phone or a scorer.
    A seated phone goes to its own hand's form, a scorer to the game page."""
    seat = _my_seat(game, device)
    if seat is None and not device.scores:
        raise PermissionDenied(gettext("Only a phone at a seat, or a scoring phone, opens a deal."))
    try:
        services.open_deal(game=game, by=device)
    except RecordInvalid as exc:
        return refused(request, game.pk, " ".join(error_text(e) for e in exc.errors))
    if seat is not None:
        return HttpResponseRedirect(reverse("table:hand", args=[game.pk, seat]))
    return HttpResponseRedirect(reverse("table:game", args=[game.pk]) + "#open-deal")


def _may_enter(game: Game, device: Device, seat: int) -> None:
    """A phone enters the hand of its own seat; a scorer any hand."""
    if not device.scores and _my_seat(game, device) != seat:
        raise PermissionDenied(gettext("This phone enters only the hand of its own seat."))


@require_http_methods(["GET", "POST"])
@access.game_view(Role.FOLLOW)
def hand(request: HtmxHttpRequest, game: Game, device: Device, seat: int) -> HttpResponse:
    """One player's hand of the open deal: the game's deal form for his seat alone, with the deal's
    facts as given so far. Sent, it is stored on the server (``services.submit_hand``)."""
    _may_enter(game, device, seat)
    names = game.player_names()
    if seat >= len(names):
        raise Http404("No such seat")
    row = OpenDeal.objects.filter(game=game).first()
    if row is None:
        if request.method == "POST" and (done := submissions.first_answer(request.POST.get("submission"))):
            return HttpResponseRedirect(done)
        return refused(request, game.pk, gettext("No deal is open: open it with “Enter deal”."))
    rules, _ = engine.rules_of(game)
    if request.method == "GET":
        return _opened(request, game, device, row, seat, rules)
    return _posted(request, game, device, row, seat, rules)


def _posted(
    request: HtmxHttpRequest, game: Game, device: Device, row: OpenDeal, seat: int, rules: Rules
) -> HttpResponse:
    """A hand's form posted: previewed as it is typed, or sent (``flow``); checked with the others' hands."""
    names = game.player_names()
    previewing = flow.previewing(request)
    live = previewing and bool(request.htmx)  # as it is typed
    if live:  # the others see this hand being typed
        services.typing(game=game, seat=seat, open_deal=row)
    entry = deal_entry(
        game.kind, players=names, data=request.POST, live=live, seat=seat, plays_as=opendeal.saves_as(game)
    )
    data = entry.read()
    checks.attach(entry, rules)
    posted = flow.post(
        data,
        entry,
        save=None if previewing else lambda d: _send(request, game, device, seat, entry, d),
        restart=lambda conflict: _again(game, seat),
    )
    if posted.redirect is not None:
        return HttpResponseRedirect(posted.redirect)
    row = OpenDeal.objects.filter(game=game).first() or row  # as it is now (a refusal may say it changed)
    if data is not None:
        _check_with_the_others(game, entry, row, seat, data)
    entry.settle()
    return _hand_page(
        request,
        game,
        device,
        entry,
        row,
        seat,
        posted.conflict,
        status=posted.status_with(entry.has_errors, bool(request.htmx)),
    )


def _opened(
    request: HtmxHttpRequest, game: Game, device: Device, row: OpenDeal, seat: int, rules: Rules
) -> HttpResponse:
    """A hand's form as opened: the hand as stored (if it is in), the deal's facts as given so far;
    a hand this phone may not change (another phone's) says so."""
    names = game.player_names()
    stored = row.hands.filter(seat=seat).first()
    initial = opendeal.as_deal(row, {seat: stored.hand} if stored else {}, names)
    entry = deal_entry(
        game.kind,
        players=names,
        initial=initial,
        number=row.number,
        version=stored.version if stored else None,
        submission=new_submission(),
        seat=seat,
    )
    checks.attach(entry, rules)
    return _hand_page(request, game, device, entry, row, seat, services.not_yours(game, seat, stored, device))


def _send(
    request: HtmxHttpRequest, game: Game, device: Device, seat: int, entry: DealEntry, deal: dict[str, Any]
) -> str:
    """Store this phone's hand of the open deal (``deal``: the facts it gives and the hand), once for
    the form's submission token; the game page, at the open deal, after."""
    services.submit_hand(
        game=game,
        seat=seat,
        hand=deal["hands"][game.player_names()[seat]],
        facts={k: v for k, v in deal.items() if k != "hands"},
        number=entry.number,
        version=entry.version,
        facts_version=int_or_none(request.POST.get("facts_version")),
        by=device,
        submission=entry.submission,
    )
    return reverse("table:game", args=[game.pk]) + "#open-deal"


def _again(game: Game, seat: int) -> dict[str, str]:
    """How a hand's form answers a conflict: a new submission, of the hand as it is stored now."""
    now = OpenHand.objects.filter(deal__game=game, seat=seat).first()
    return {"submission": new_submission(), "version": str(now.version) if now else ""}


def _check_with_the_others(game: Game, entry: DealEntry, row: OpenDeal, seat: int, deal: dict[str, Any]) -> None:
    """The engine's checks of the deal with this hand as typed (``deal``: the facts it gives and the
    hand) and the others' as stored: what concerns this hand goes beside its fields."""
    names = game.player_names()
    hands = {h.seat: h.hand for h in row.hands.all()}
    hands[seat] = deal["hands"][names[seat]]
    given = {k: v for k, v in deal.items() if k != "hands"}
    entry.refuse(deals.check_open(game, {**opendeal.as_deal(row, hands, names), **given}).hands[seat])


def _hand_page(
    request: HtmxHttpRequest,
    game: Game,
    device: Device,
    entry: DealEntry,
    row: OpenDeal,
    seat: int,
    conflict: Any,
    status: int = 200,
) -> HttpResponse:
    rules, _ = engine.rules_of(game)
    state, mine = _state_and_seat(game, device, row)
    assert state is not None
    context = {
        "game": game,
        "entry": entry,
        "deal": None,
        "number": row.number,  # the deal it was opened as: its draft's name on the phone stays
        "heading": gettext("Deal {number}: {name}'s hand").format(number=state.number, name=game.player_names()[seat]),
        "rules": rules,
        "preview": None,
        "picker": entry.picker(rules),
        "conflict": conflict,
        "own": {"seat": seat, "facts_version": row.facts_version},
        "poll_seconds": answers.POLL_SECONDS,
        "part": {**open_context(game, device, state, mine), "save_form": False},
    }
    context["live_etag"] = _open_tag(game.version, game.table.names, device.role, until(context["part"]))
    action = request.POST.get("action") if request.method == "POST" else None
    return render_page(
        request, "table/deal_form.html", context, partial="preview" if action == "preview" else None, status=status
    )


@require_safe
def open_status(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The open deal as it comes together, polled by a hand's entry page as the game page's live
    part is: 304 while the game's version is the one the phone holds."""
    state = access.watching(request, game_id)
    tag = _open_tag(state.version, state.names, state.role)
    if answers.unchanged(request, tag):
        return answers.not_modified(tag)
    return _open_status(request, game_id)


@access.game_view(Role.FOLLOW)
def _open_status(request: HtmxHttpRequest, game: Game, device: Device) -> HttpResponse:
    part = {**open_context(game, device, *_state_and_seat(game, device)), "save_form": False}
    tag = _open_tag(game.version, game.table.names, device.role, until(part))
    context = {"part": part, "game": game, "device": device, "live_etag": tag, "poll_seconds": answers.POLL_SECONDS}
    return answers.mark(render(request, "table/open_live.html", context), tag)


@require_POST
@access.game_view(Role.SCORE)
def open_save(request: HtmxHttpRequest, game: Game, device: Device) -> HttpResponse:
    """The scorer saves the open deal (one tap): an ordinary deal from then on."""
    try:
        saved = services.save_open_deal(
            game=game,
            number=int_or_none(request.POST.get("number")),
            by=device,
            submission=request.POST.get("submission"),
        )
    except submissions.Duplicate as done:
        return HttpResponseRedirect(done.answer)
    except submissions.Conflict as exc:
        return refused(request, game.pk, str(exc))
    except RecordInvalid as exc:
        return refused(request, game.pk, " ".join(error_text(e) for e in exc.errors))
    where = reverse("table:game", args=[game.pk])
    return HttpResponseRedirect(f"{where}?saved={saved.number}#deal-{saved.number}")


@require_POST
@access.game_view(Role.SCORE)
def open_close(request: HtmxHttpRequest, game: Game, device: Device) -> HttpResponse:
    """The scorer closes the open deal without saving it."""
    services.close_open_deal(game=game, by=device)
    return HttpResponseRedirect(reverse("table:game", args=[game.pk]) + "#seats")
