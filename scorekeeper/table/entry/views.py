"""The deal entry's pages: a new deal, a deal's edit, a points-only deal, a deal's delete. Each form is
opened, previewed as it is typed (htmx) and saved once (``flow``); the engine judges the deal.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from scorekeeper.rules import points
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.profiles import Rules
from scorekeeper.table import access, submissions
from scorekeeper.table.entry import checks, flow
from scorekeeper.table.entry.deal import DealEntry, deal_entry
from scorekeeper.table.entry.forms import int_or_none
from scorekeeper.table.entry.points import PointsForm
from scorekeeper.table.models import Deal, Device, Game, Role
from scorekeeper.table.pages import HtmxHttpRequest, render_page
from scorekeeper.table.present import deal_view, played_view
from scorekeeper.table.scoring import deals, engine
from scorekeeper.table.submissions import new_submission
from scorekeeper.table.text import error_text

log = logging.getLogger(__name__)


def _entry_context(
    game: Game, entry: DealEntry, deal: Deal | None, preview: dict[str, Any] | None, conflict: Any = None
) -> dict[str, Any]:
    rules, _ = engine.rules_of(game)
    number = _number(game, entry, deal)
    return {
        "game": game,
        "entry": entry,
        "deal": deal,
        "number": number,
        "heading": (gettext("Edit deal {number}") if deal else gettext("Deal {number}")).format(number=number),
        "rules": rules,
        "preview": preview,
        "picker": entry.picker(rules),
        "conflict": conflict,
    }


def _deal_form(request: HtmxHttpRequest, game: Game, device: Device, deal: Deal | None) -> HttpResponse:
    """The deal form (a new deal when ``deal`` is None): opened, previewed, or saved (``flow``)."""
    rules, _ = engine.rules_of(game)
    if request.method == "GET":
        return _open_deal_form(request, game, deal, rules)
    previewing = flow.previewing(request)
    players = game.player_names()
    entry = deal_entry(game.kind, players=players, data=request.POST, live=previewing and bool(request.htmx))
    entry.plays_as = _number(game, entry, deal)
    data = entry.read()
    checks.attach(entry, rules)
    posted = flow.post(
        data,
        entry,
        save=None if previewing else lambda d: _saved_at(_save_deal(game, device, deal, entry, d)),
        check=lambda d: played_view(deals.check_deal(game=game, deal=d, number=deal.number if deal else None), players),
        restart=lambda conflict: flow.again(conflict, editing=deal is not None),
    )
    if posted.redirect is not None:
        return HttpResponseRedirect(posted.redirect)
    entry.settle()
    return render_page(
        request,
        "table/deal_form.html",
        _entry_context(game, entry, deal, posted.preview, posted.conflict),
        partial="preview" if previewing else None,
        status=posted.status_with(entry.has_errors, bool(request.htmx)),
    )


def _saved_at(saved: Deal) -> str:
    """Where the phone goes after a save: the game page, at the deal saved ("Deal 4 saved · Undo")."""
    where = reverse("table:game", args=[saved.game_id])
    return f"{where}?saved={saved.number}#deal-{saved.number}"


def _number(game: Game, entry: DealEntry, deal: Deal | None) -> int:
    """The number of the deal the form enters: the deal edited, or the one it was opened for."""
    return deal.number if deal else entry.number or game.deals.count() + 1


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
        version, submission = int_or_none(request.POST.get("version")), request.POST.get("submission") or None
        try:
            deals.delete_deal(game=game, deal_id=deal_id, version=version, by=device, submission=submission)
            return HttpResponseRedirect(reverse("table:game", args=[game.pk]))
        except submissions.Duplicate as done:
            return HttpResponseRedirect(done.answer)
        except submissions.Conflict as exc:
            if exc.deal is None:
                return _gone(request, game, deal_id)
            deal, errors = exc.deal, [str(exc)]
        except RecordInvalid as exc:
            errors = [error_text(e) for e in exc.errors]
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
    posted = flow.post(
        form.read(),
        form,
        save=lambda d: _saved_at(_save_points(game, device, deal, form, d)),
        restart=lambda conflict: flow.again(conflict, editing=deal is not None),
    )
    if posted.redirect is not None:
        return HttpResponseRedirect(posted.redirect)
    return _points_page(request, game, deal, form, conflict=posted.conflict, status=posted.status)


def _save_points(game: Game, device: Device, deal: Deal | None, form: PointsForm, data: dict[str, Any]) -> Deal:
    """Add the points-only deal, or save the edit of ``deal`` (as ``_save_deal``)."""
    number, version = int_or_none(form.cleaned_data["number"]), int_or_none(form.cleaned_data["version"])
    submission = form.cleaned_data["submission"]
    if deal is None:
        return deals.add_deal(game=game, deal=data, number=number, by=device, submission=submission)
    return deals.edit_deal(game=game, deal_id=deal.pk, version=version, deal=data, by=device, submission=submission)


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
