"""The deal entry's pages: a new deal, a deal's edit, a points-only deal, a deal's delete. Each form is
opened, previewed as it is typed (htmx) and saved once (``flow``); the engine judges the deal.
"""

from __future__ import annotations

import contextlib
import json
import logging
from typing import Any

from django.db import DatabaseError
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods

from scorekeeper.rules import points
from scorekeeper.rules.cards import parse_card
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.profiles import Rules
from scorekeeper.table import access, submissions
from scorekeeper.table.entry import checks
from scorekeeper.table.entry.deal import DealEntry, deal_entry
from scorekeeper.table.entry.forms import int_or_none, with_data
from scorekeeper.table.entry.points import PointsForm
from scorekeeper.table.models import Deal, Device, Game, Role
from scorekeeper.table.pages import HtmxHttpRequest, render_page
from scorekeeper.table.present import deal_view, played_view
from scorekeeper.table.scoring import deals, engine
from scorekeeper.table.submissions import new_submission
from scorekeeper.table.text import error_text

log = logging.getLogger(__name__)


# What a save that the database refused says, on the form with the cards as typed (issue 24).
NOT_WRITTEN = gettext_lazy("The server could not write the deal — your cards are kept; try again in a moment.")


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
            played = deals.check_deal(game=game, deal=data, number=deal.number if deal else None)
            preview = played_view(played, entry.players)
        except submissions.Duplicate as done:
            return HttpResponseRedirect(done.answer)
        except submissions.Conflict as exc:
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


def _restart(game: Game, entry: DealEntry, deal: Deal | None, conflict: submissions.Conflict) -> None:
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
        return deals.add_deal(game=game, deal=data, number=entry.number, by=device, submission=entry.submission)
    return deals.edit_deal(
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
            done = submissions.first_answer(request.POST.get("submission"))
            if done is not None:  # the retry of an edit that was saved before the deal was deleted
                return HttpResponseRedirect(done)
            return _gone(request, game, deal_id)
        raise Http404("No such deal")
    if points.is_points_only(deal.cards):  # typed as points: edited as points
        return _points_form(request, game, device, deal)
    return _deal_form(request, game, device, deal)


def _gone(request: HtmxHttpRequest, game: Game, deal_id: int) -> HttpResponse:
    """A form for a deal deleted meanwhile (on another phone): say so, when and by whom."""
    change = deals.last_change(game, deal_id)
    if change is None:
        raise Http404("No such deal")
    return render(request, "table/deal_gone.html", {"game": game, "change": change}, status=409)


@require_http_methods(["GET", "POST"])
@access.game_view(Role.SCORE)
def deal_delete(request: HtmxHttpRequest, game: Game, device: Device, deal_id: int) -> HttpResponse:
    deal = game.deals.filter(pk=deal_id).first()
    errors: list[str] = []
    if request.method == "POST":
        version = request.POST.get("version", "")
        try:
            deals.delete_deal(
                game=game,
                deal_id=deal_id,
                version=int(version) if version.isascii() and version.isdigit() and len(version) < 10 else None,
                by=device,
                submission=request.POST.get("submission") or None,
            )
        except submissions.Duplicate as done:
            return HttpResponseRedirect(done.answer)
        except submissions.Conflict as exc:
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
        number, version = int_or_none(form.cleaned_data["number"]), int_or_none(form.cleaned_data["version"])
        submission = form.cleaned_data["submission"]
        try:
            if deal is None:
                saved = deals.add_deal(game=game, deal=form.deal(), number=number, by=device, submission=submission)
            else:
                saved = deals.edit_deal(
                    game=game, deal_id=deal.pk, version=version, deal=form.deal(), by=device, submission=submission
                )
        except submissions.Duplicate as done:
            return HttpResponseRedirect(done.answer)
        except submissions.Conflict as exc:
            conflict, status = exc, 409
            changes = {"submission": new_submission()}
            if exc.deal is not None and deal is None:
                changes["number"] = ""
            elif exc.deal is not None:
                changes["version"] = str(exc.deal.version)
            form.data = with_data(form.data, changes)
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
    number = deal.number if deal else int_or_none(form["number"].value()) or game.deals.count() + 1
    context = {"game": game, "deal": deal, "form": form, "number": number, "conflict": conflict}
    return render(request, "table/points_form.html", context, status=status)


@require_http_methods(["GET", "POST"])
@access.game_view(Role.SCORE)
def deal_points(request: HtmxHttpRequest, game: Game, device: Device) -> HttpResponse:
    return _points_form(request, game, device, None)
