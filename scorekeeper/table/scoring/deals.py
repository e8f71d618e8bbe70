"""The deal writes: add, check, edit and delete a deal, undo a change, switch a game's rules.

Each write is one transaction (SQLite opens it IMMEDIATE, PostgreSQL locks the game row), so two
phones saving at once are served one after the other, never lost. Each plays the deals through the
engine BEFORE it writes (``store.rescore``): an invalid deal is never saved (``RecordInvalid``).
Each is idempotent when given the form's ``submission`` token (``submissions``: a repeated submit
is answered as the first was), and a stale form — a deal changed or deleted on another phone since
it was opened — is refused with what the deal holds now (``submissions.Conflict``), never silently
overwritten. Every change lands in the game's append-only change history with when and by whom.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from scorekeeper.rules import games
from scorekeeper.rules.errors import RecordError, RecordInvalid
from scorekeeper.rules.games import PartialCheck
from scorekeeper.rules.messages import msg
from scorekeeper.rules.results import DealResult
from scorekeeper.table import submissions
from scorekeeper.table.models import Change, ChangeAction, Deal, Game, OpenDeal
from scorekeeper.table.scoring import engine
from scorekeeper.table.scoring.store import Actor, log_change, rescore, store, stored_deals


def last_change(game: Game, deal_id: int) -> Change | None:
    return game.changes.filter(deal_id=deal_id).order_by("-at", "-id").first()


def _took(game: Game, there: Deal) -> Change | None:
    """The change that made deal number ``there.number`` taken, for a form opened when it was not:
    the deal's last change, or an undo since that brought back a deal at or before it (a deal
    restored before it moves it back to this number: it came back by that undo, nobody entered it)."""
    brought_back = Q(action=ChangeAction.DEAL_RESTORED, number__lte=there.number)
    return game.changes.filter(Q(deal_id=there.pk) | brought_back).order_by("-at", "-id").first()


def _taken(change: Change | None, number: int, count: int) -> str:
    """What the last change did to a deal, as the phone that finds it taken is told: it was entered,
    changed, or brought back by an undo (not "entered": nobody entered it again)."""
    words = {"number": number, "when": when(change), "next": count + 1}
    if change is not None and change.action == ChangeAction.DEAL_RESTORED:
        text = gettext(
            "deal {number} was brought back by an undo{when} — here is what it holds now. Your cards are kept "
            "below: save them as the next deal (deal {next} now) if they are another deal."
        )
    elif change is not None and change.action == ChangeAction.DEAL_EDITED:
        text = gettext(
            "deal {number} was entered, then changed, on another phone{when} — here is what it holds now. Your "
            "cards are kept below: save them as the next deal (deal {next} now) if they are another deal."
        )
    else:
        text = gettext(
            "deal {number} was entered on another phone{when} — here is what it holds now. Your cards are kept "
            "below: save them as the next deal (deal {next} now) if they are another deal."
        )
    return text.format(**words)


def when(change: Change | None) -> str:
    """When a change was made and by whom, to end a sentence: " at 21:04 by Ben"."""
    if change is None:
        return ""
    at = timezone.localtime(change.at).strftime("%H:%M")
    if change.by_name:
        return gettext(" at {time} by {name}").format(time=at, name=change.by_name)
    return gettext(" at {time}").format(time=at)


def check_deal(*, game: Game, deal: Mapping[str, Any], number: int | None = None) -> DealResult:
    """Play ``deal`` (RECORD.md) as deal ``number`` (a new last deal when None) as saving it would
    — from the standing stored before it, the deals after it played again — and return its result;
    nothing is saved. Raises RecordInvalid with the errors the save would raise."""
    count = game.deals.count()
    if number is None or number > count:
        return rescore(game, [deal], start=count + 1).deals[0]
    return rescore(game, [deal, *later(game, number)], start=number).deals[0]


def check_open(game: Game, deal: Mapping[str, object]) -> PartialCheck:
    """``deal`` (RECORD.md: the facts given and the hands in so far) checked as the next deal, as
    the players' own hands come together (``rules.games.check_partial``): the errors by seat and the
    deal's own, and its result once it is complete and valid. Writes nothing."""
    count = game.deals.count()
    standing = rescore(game, [], start=count + 1).end
    rules, _ = engine.rules_of(game)
    with engine.guarded():
        return games.check_partial(rules, game.player_names(), standing, deal, count + 1)


@transaction.atomic
def add_deal(
    *,
    game: Game,
    deal: Mapping[str, Any],
    number: int | None = None,
    by: Actor = None,
    submission: str | None = None,
) -> Deal:
    """Add a deal (RECORD.md form) as the next deal. ``number`` is the deal number the form was
    opened for: when another phone has saved that deal meanwhile, the same cards are taken as
    this very deal (nothing doubled) and other cards are a Conflict. A deal the players were
    entering on their phones (``OpenDeal``) is closed: the scorer entered it."""
    game = Game.objects.locked(game.pk)
    submissions.check(submission)
    count = game.deals.count()
    if number is not None and 1 <= number <= count:
        there = game.deals.get(number=number)
        if there.cards == engine.seat_deal(deal, game.player_names()):
            raise submissions.Duplicate(
                reverse("table:game", args=[game.pk]) + f"?saved={there.number}#deal-{there.number}"
            )
        change = _took(game, there)
        raise submissions.Conflict(
            _taken(change, number, count),
            deal=there,
            change=change,
        )
    row = save_deal(game, deal, by=by)
    OpenDeal.objects.filter(game=game).delete()
    submissions.remember(submission, reverse("table:game", args=[game.pk]) + f"?saved={row.number}#deal-{row.number}")
    row.refresh_from_db()
    return row


def save_deal(game: Game, deal: Mapping[str, Any], *, by: Actor, hands_by: list[str] | None = None) -> Deal:
    """THE save of a deal: ``deal`` (RECORD.md, as the form built it) played as the game's next deal
    from the standing stored with the last one, its cards stored by seat, the change in the
    history, then its result, the game's state and the figures stored and the phones told
    (``store.store``). Refused (RecordInvalid, nothing written) once the game is over or when the
    engine finds the deal not valid. The caller holds the game's lock (``Game.objects.locked``)."""
    if game.finished:
        raise RecordInvalid(
            [
                RecordError(
                    msg(
                        "the game is over: {winner} won. Edit or delete a deal to change it.",
                        winner=game.winner_name() or "",
                    ),
                    rule="game over",
                )
            ]
        )
    number = game.deals.count() + 1
    played = rescore(game, [deal], start=number)
    row = Deal.objects.create(game=game, number=number, cards=engine.seat_deal(deal, game.player_names()))
    log_change(game, ChangeAction.DEAL_ADDED, by=by, deal=row, number=number, after=row.cards, hands_by=hands_by)
    store(game, played)
    return row


def _current(game: Game, deal_id: int, version: int | None, what: str) -> Deal:
    """The deal a form was opened for, as long as it has not changed since (else Conflict)."""
    row = game.deals.filter(pk=deal_id).first()
    if row is None:
        change = last_change(game, deal_id)
        if change and change.number:
            text = (
                gettext("deal {number} was deleted on another phone{when}: there is nothing to edit.")
                if what == "edit"
                else gettext("deal {number} was deleted on another phone{when}: there is nothing to delete.")
            )
        else:
            text = (
                gettext("this deal was deleted on another phone{when}: there is nothing to edit.")
                if what == "edit"
                else gettext("this deal was deleted on another phone{when}: there is nothing to delete.")
            )
        raise submissions.Conflict(
            text.format(number=change.number if change else None, when=when(change)), change=change
        )
    if version is not None and row.version != version:
        change = last_change(game, deal_id)
        raise submissions.Conflict(
            gettext(
                "deal {number} was changed on another phone{when} — here is what it holds now. "
                "What you typed is kept below: save it again to replace it."
            ).format(number=row.number, when=when(change)),
            deal=row,
            change=change,
        )
    return row


@transaction.atomic
def edit_deal(
    *,
    game: Game,
    deal_id: int,
    version: int | None,
    deal: Mapping[str, Any],
    by: Actor = None,
    submission: str | None = None,
) -> Deal:
    """Replace a deal's cards; every total after it is recomputed."""
    game = Game.objects.locked(game.pk)
    submissions.check(submission)
    row = _current(game, deal_id, version, "edit")
    played = rescore(game, [deal, *later(game, row.number)], start=row.number)
    before = row.cards
    row.cards = cards = engine.seat_deal(deal, game.player_names())
    row.version += 1
    row.updated = timezone.now()
    row.save(update_fields=["cards", "version", "updated"])
    log_change(game, ChangeAction.DEAL_EDITED, by=by, deal=row, number=row.number, before=before, after=cards)
    store(game, played)
    submissions.remember(submission, reverse("table:game", args=[game.pk]) + f"?saved={row.number}#deal-{row.number}")
    row.refresh_from_db()
    return row


def later(game: Game, number: int) -> list[dict[str, Any]]:
    """The game's deals after deal ``number``, in order (RECORD.md)."""
    return stored_deals(game, game.deals.filter(number__gt=number))


def _shift(game: Game, start: int, by: int) -> None:
    """Move the numbers of deals ``start`` and after by ``by`` (two statements, so the unique
    (game, number) constraint never sees two deals on one number)."""
    later = Deal.objects.filter(game=game, number__gte=start)
    later.update(number=F("number") + 1_000_000)
    Deal.objects.filter(game=game, number__gte=1_000_000).update(number=F("number") - 1_000_000 + by)


@transaction.atomic
def delete_deal(
    *, game: Game, deal_id: int, version: int | None, by: Actor = None, submission: str | None = None
) -> None:
    """Delete a deal; later deals move up one and every total after it is recomputed."""
    game = Game.objects.locked(game.pk)
    submissions.check(submission)
    row = _current(game, deal_id, version, "delete")
    _delete(game, row, by=by)
    submissions.remember(submission, reverse("table:game", args=[game.pk]))


def _delete(game: Game, row: Deal, *, by: Actor, undoes: Change | None = None) -> Change:
    played = rescore(game, later(game, row.number), start=row.number)
    change = log_change(
        game, ChangeAction.DEAL_DELETED, by=by, deal=row, number=row.number, before=row.cards, undoes=undoes
    )
    number = row.number
    row.delete()
    _shift(game, number + 1, -1)
    store(game, played)
    return change


def _restore(game: Game, deal_id: int | None, number: int, cards: Any, *, by: Actor, undoes: Change) -> Change:
    """Put a deleted deal back as deal ``number``, with its id (a new one when the history does not
    know it: games adopted from an earlier version)."""
    number = min(max(number, 1), game.deals.count() + 1)
    played = rescore(game, [engine.record_deal(cards, game.player_names()), *later(game, number - 1)], start=number)
    _shift(game, number, 1)
    row = Deal.objects.create(pk=deal_id, game=game, number=number, cards=cards)
    change = log_change(game, ChangeAction.DEAL_RESTORED, by=by, deal=row, number=number, after=cards, undoes=undoes)
    store(game, played)
    return change


@transaction.atomic
def undo(*, game: Game, change_id: int, by: Actor = None, submission: str | None = None) -> Change:
    """Undo one change from the history: an added deal is deleted, an edit reverted, a deleted
    deal restored in its place, a rules switch switched back. The undo is a change of its own.
    Refused (Conflict) when what the change made was changed since."""
    game = Game.objects.locked(game.pk)
    submissions.check(submission)
    change = game.changes.filter(pk=change_id).first()
    if change is None:
        raise submissions.Conflict(gettext("there is no such change in this game's history"))
    if Change.objects.filter(undoes=change).exists():
        raise submissions.Conflict(gettext("this change was undone already"))
    if change.action == ChangeAction.RULES_SWITCHED:
        done = _switch_back(game, change, by=by)
    elif change.action == ChangeAction.DEAL_DELETED:
        done = _put_back(game, change, by=by)
    else:
        done = _take_back(game, change, by=by)
    submissions.remember(submission, reverse("history:changes", args=[game.pk]))
    return done


def _switch_back(game: Game, change: Change, *, by: Actor) -> Change:
    """Undo a rules switch: the rules before it, unless they were switched again since."""
    before, after = change.before or {}, change.after or {}
    if game.profile != after.get("profile") or game.options != after.get("options"):
        raise submissions.Conflict(gettext("the rules were switched again since: undo that switch first"))
    return _switch(game, before["profile"], before["options"], by=by, undoes=change)


def _put_back(game: Game, change: Change, *, by: Actor) -> Change:
    """Undo a delete: the deal restored in its place."""
    if change.deal_id is not None and game.deals.filter(pk=change.deal_id).exists():
        raise submissions.Conflict(gettext("this deal is in the game again already"))
    if change.number is None or not isinstance(change.before, dict):
        raise submissions.Conflict(
            gettext("this change does not say where the deal was or what it held: it cannot be undone")
        )
    return _restore(game, change.deal_id, change.number, change.before, by=by, undoes=change)


def _take_back(game: Game, change: Change, *, by: Actor) -> Change:
    """Undo an edit (the deal as it was before) or an add or restore (the deal taken out), unless
    the deal changed since."""
    row = game.deals.filter(pk=change.deal_id).first() if change.deal_id else None
    if row is None or row.cards != change.after:
        raise submissions.Conflict(
            gettext(
                "this deal was changed or deleted since: undo the later change first, or edit the deal{when}"
            ).format(when=when(last_change(game, change.deal_id) if change.deal_id else None))
        )
    if change.action == ChangeAction.DEAL_EDITED:
        return _revert(game, row, change, by=by)
    return _delete(game, row, by=by, undoes=change)


def _revert(game: Game, row: Deal, change: Change, *, by: Actor) -> Change:
    """Undo an edit: the deal holds again what it held before ``change``."""
    if not isinstance(change.before, dict):
        raise submissions.Conflict(gettext("this change does not say what the deal held before: it cannot be undone"))
    before = engine.record_deal(change.before, game.player_names())
    played = rescore(game, [before, *later(game, row.number)], start=row.number)
    row.cards = change.before
    row.version += 1
    row.updated = timezone.now()
    row.save(update_fields=["cards", "version", "updated"])
    done = log_change(
        game,
        ChangeAction.DEAL_EDITED,
        by=by,
        deal=row,
        number=row.number,
        before=change.after,
        after=change.before,
        undoes=change,
    )
    store(game, played)
    return done


@transaction.atomic
def switch_rules(
    *,
    game: Game,
    profile: str,
    options: Mapping[str, Any] | None = None,
    by: Actor = None,
    submission: str | None = None,
) -> Game:
    """The table switches the game to other rules: every deal must be valid under them (else
    RecordInvalid and nothing changes). The switch is in the change history and can be undone."""
    game = Game.objects.locked(game.pk)
    submissions.check(submission)
    _switch(game, profile, options, by=by)
    submissions.remember(submission, reverse("history:review", args=[game.pk]))
    return game


def _switch(
    game: Game, profile: str, options: Mapping[str, Any] | None, *, by: Actor, undoes: Change | None = None
) -> Change:
    rules = engine.resolve(game.kind, profile, options)
    before = {"profile": game.profile, "options": dict(game.options or {})}
    after = {"profile": profile, "options": rules.options()}
    deals = stored_deals(game, game.deals.all())
    game.profile, game.options = profile, rules.options()
    played = rescore(game, deals)
    game.save(update_fields=["profile", "options"])
    change = log_change(game, ChangeAction.RULES_SWITCHED, by=by, before=before, after=after, undoes=undoes)
    store(game, played)
    return change


def refresh_results(*, log: Any = None) -> int:
    """Score again every game whose stored results come from another version of the engine (or
    none): run after ``migrate``. A game today's rules refuse is left as it is, its cards and the
    results stored then: its pages show those with each refusal (``present.Refused``) until an edit
    or a switch of its rules scores it again. Returns how many games were scored."""
    done = 0
    for pk in Game.objects.exclude(scored_with=engine.RESULTS_VERSION).values_list("pk", flat=True):
        with transaction.atomic():
            game = Game.objects.locked(pk)
            try:
                played = rescore(game, stored_deals(game, game.deals.all()))
            except RecordInvalid as exc:
                if log is not None:
                    log(f"game #{pk} could not be scored again: {exc}")
                continue
            store(game, played)
            done += 1
    return done
