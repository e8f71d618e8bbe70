"""The writes of the players' own hands: open the next deal for the phones at the seats, store one
player's hand as his phone sends it (versioned: a stale correction is refused), say a hand is being
typed, save the deal once every hand is in (or let it save itself), close it unsaved. Each in one
transaction, once per form (``submissions``), as the deal writes are.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

from django.db import DatabaseError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from scorekeeper.rules.errors import RecordError, RecordInvalid
from scorekeeper.rules.messages import msg
from scorekeeper.table import submissions
from scorekeeper.table.changes import deal_facts
from scorekeeper.table.hands import opendeal
from scorekeeper.table.live import signals
from scorekeeper.table.models import Deal, Device, Game, OpenDeal, OpenHand, Seat
from scorekeeper.table.scoring import engine
from scorekeeper.table.scoring.deals import save_deal, when
from scorekeeper.table.scoring.store import Actor


@transaction.atomic
def open_deal(*, game: Game, by: Device) -> OpenDeal:
    """Open the next deal for the players to enter, each his own hand on his own phone (the one
    open already, if there is one). Refused (RecordInvalid) once the game is over."""
    game = Game.objects.locked(game.pk)
    there = OpenDeal.objects.filter(game=game).first()
    if there is not None:
        return there
    if game.finished:
        raise RecordInvalid([RecordError(msg("the game is over: no deal follows"), rule="game over")])
    row = OpenDeal.objects.create(game=game, number=game.deals.count() + 1, opened_by=by.name)
    signals.game_changed(game)
    return row


def _open_or_gone(game: Game, number: int | None) -> OpenDeal:
    """The game's open deal, locked with the game, as long as it is the one the form was opened for."""
    row = OpenDeal.objects.filter(game=game).first()
    if row is None or (number is not None and row.number != number):
        last = game.changes.order_by("-at", "-id").first()
        raise submissions.Conflict(
            gettext(
                "Deal {number} is not open any more: it was saved or closed{when}. What you typed is kept below."
            ).format(number=number or "", when=when(last))
        )
    return row


def not_yours(game: Game, seat: int, there: OpenHand | None, by: Device) -> str | None:
    """Why ``by`` may not write the hand of ``seat`` (None: it may). A phone writes only the hand
    of the seat it sits at, and never over a hand another phone entered: a seat taken while the deal
    is open does not carry the hands entered before. A scoring phone writes (corrects) any."""
    if by.scores:
        return None
    name = game.player_names()[seat]
    if not Seat.objects.filter(game=game, position=seat, phone=by).exists():
        return gettext("This phone does not sit at {name}'s seat any more: it sends only its own seat's hand.").format(
            name=name
        )
    if there is not None and there.by_id != by.pk:
        return gettext("{name}'s hand was entered on {phone}: only a scoring phone changes it now.").format(
            name=name, phone=there.by_name or gettext("another phone")
        )
    return None


def _merge_facts(
    row: OpenDeal, facts: Mapping[str, Any], facts_version: int | None, by: Device, names: list[str]
) -> None:
    """The deal's own facts a phone gives with its hand (by seat, as stored; only those it gives): taken
    when nobody gave them, or gave them the same; refused (Conflict) when another phone gave them
    otherwise since the phone's form was opened."""
    changed = {k: v for k, v in facts.items() if k not in row.facts or row.facts[k] != v}
    if not changed:
        return
    if facts_version != row.facts_version and any(k in row.facts for k in changed):
        given = ", ".join(f"{k}: {v}" if v else k for k, v in deal_facts(row.facts, names))
        raise submissions.Conflict(
            gettext(
                "How the deal ended was given on {phone} since you opened this form ({given}): check it, "
                "and send your hand again. What you typed is kept below."
            ).format(phone=row.facts_by or gettext("another phone"), given=given)
        )
    row.facts = {**row.facts, **changed}
    row.facts_version += 1
    row.facts_by = by.name
    row.save(update_fields=["facts", "facts_version", "facts_by"])


@transaction.atomic
def submit_hand(
    *,
    game: Game,
    seat: int,
    hand: Mapping[str, Any],
    facts: Mapping[str, Any] | None = None,
    number: int | None = None,
    version: int | None = None,
    facts_version: int | None = None,
    by: Device,
    submission: str | None = None,
) -> OpenHand:
    """Store one player's hand of the open deal (RECORD.md hand) as his phone (or the scorer)
    submits it, with the deal's facts it gives (RECORD.md: who went out or knocked by name; stored
    by seat). ``version``: the hand's version the form
    was opened with (None: the hand was not in): a stale correction is Conflict, never overwritten.
    Hands of other seats never conflict: two phones sending at once both count. A phone that does
    not score writes only the hand of the seat it sits at as the write runs, and never over a hand
    another phone entered (``not_yours``: Conflict). With the table's ``save_when_complete``, the
    deal saves itself once every hand is in and it is valid."""
    game = Game.objects.locked(game.pk)
    submissions.check(submission)
    names = game.player_names()
    if not 0 <= seat < len(names):
        raise submissions.Conflict(gettext("There is no such seat."))
    row = _open_or_gone(game, number)
    there = row.hands.filter(seat=seat).first()
    if refused := not_yours(game, seat, there, by):
        kept = gettext("What you typed is kept below.")
        raise submissions.Conflict(f"{refused} {kept}")
    if there is not None and there.version != version:
        at = timezone.localtime(there.updated).strftime("%H:%M")
        raise submissions.Conflict(
            gettext(
                "{name}'s hand was sent again from {phone} at {at} since you opened this form: it shows what "
                "is stored now. What you typed is kept below: send it again to replace it."
            ).format(name=names[seat], phone=there.by_name or gettext("another phone"), at=at)
        )
    _merge_facts(row, engine.seat_deal(facts or {}, names), facts_version, by, names)
    if there is None:
        there = OpenHand.objects.create(deal=row, seat=seat, hand=dict(hand), by=by, by_name=by.name)
    else:
        there.hand, there.version, there.by, there.by_name = dict(hand), there.version + 1, by, by.name
        there.updated = timezone.now()
        there.save(update_fields=["hand", "version", "by", "by_name", "updated"])
    signals.game_changed(game)
    submissions.remember(submission, reverse("table:game", args=[game.pk]) + "#open-deal")
    if game.table.save_when_complete:
        with contextlib.suppress(RecordInvalid):
            _save_open(game, row, by=by)
    return there


@transaction.atomic
def typing(*, game: Game, seat: int, open_deal: OpenDeal) -> None:
    """A seat's hand of the open deal is being typed (its form sent its live preview): the seat's
    ``typing_at`` stamped. One UPDATE while it was typed already; the game's version bumped only
    when the hand goes from missing to being typed (the other phones' live parts then show it),
    never per keystroke. Not a change of the game: no change history, and a database that takes no
    writes (full, read-only) leaves the mark out — the preview answers all the same."""
    now = timezone.now()
    seats = Seat.objects.filter(game=game, position=seat)
    try:
        with transaction.atomic():
            if seats.filter(typing_at__gte=opendeal.typing_since(open_deal, now)).update(typing_at=now):
                return
            marked = seats.update(typing_at=now)
    except DatabaseError:
        return
    if marked and not open_deal.hands.filter(seat=seat).exists():
        signals.game_changed(game)


def _save_open(game: Game, row: OpenDeal, *, by: Actor) -> Deal:
    """The open deal saved as the next deal (RecordInvalid while a hand is missing or it is not
    valid); the change names the phone that entered each hand."""
    names = game.player_names()
    hands = {h.seat: h for h in row.hands.all()}
    missing = [name for i, name in enumerate(names) if i not in hands]
    if missing:
        raise RecordInvalid(
            [RecordError(msg("{name}'s hand is not in yet", name=n), player=n, field=f"hands.{n}") for n in missing]
        )
    deal = engine.record_deal({**row.facts, "hands": [hands[i].hand for i in range(len(names))]}, names)
    by_seat = [hands[i].by_name for i in range(len(names))]
    with transaction.atomic():  # refused by the engine: nothing of it written
        saved = save_deal(game, deal, by=by, hands_by=by_seat)
    row.delete()
    return saved


@transaction.atomic
def save_open_deal(*, game: Game, number: int | None = None, by: Actor, submission: str | None = None) -> Deal:
    """Save the open deal, every hand in and the deal valid (else RecordInvalid, the engine's
    errors), as the next deal: after it, an ordinary deal."""
    game = Game.objects.locked(game.pk)
    submissions.check(submission)
    row = _open_or_gone(game, number)
    saved = _save_open(game, row, by=by)
    submissions.remember(
        submission, reverse("table:game", args=[game.pk]) + f"?saved={saved.number}#deal-{saved.number}"
    )
    saved.refresh_from_db()
    return saved


@transaction.atomic
def close_open_deal(*, game: Game, by: Device) -> None:
    """The scorer closes the open deal without saving it (its hands are dropped)."""
    game = Game.objects.locked(game.pk)
    if OpenDeal.objects.filter(game=game).delete()[0]:
        signals.game_changed(game)
