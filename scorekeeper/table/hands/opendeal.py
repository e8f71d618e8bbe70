"""An open deal as the phones see it come together: which hands are in, which are being typed and
which are missing, the deal's own facts given so far, and what the engine finds wrong with the hands in so far — each
message on the hand it concerns. A read: it never writes.

The checks are the engine's own check of a deal as it comes together (``scoring.deals.check_open``:
``rules.games.check_partial`` from the standing a save plays it from), run on the deal as it
stands: the facts given and the hands in. What only says a hand is not in yet, or a fact not
given yet, is left out: the rest is true of the hands in already (a card past the pack's count, a
second knocker, a hand that does not hold the cards it must), each on the hand it concerns — a
card entered more times than the pack holds on every hand holding it.

"Being typed": a hand not in whose form sent its live preview (``services.typing``, which stamps
the seat's ``typing_at``) within ``TYPING_FOR`` before the status is rendered, and since the deal
was opened. The version is bumped only when a hand goes from missing to being typed, never per
keystroke. A phone that stops typing without sending shows "missing" again ``TYPING_FOR`` after its
last preview, with no write: a status showing a hand being typed says until when
(``DealState.until``); the live part's validator holds only until then (``live.etag``'s
``until``), and the game page asks for it again then (``refresh_in``) — once, not every second.

Its number is the next deal's (``saves_as``), derived, not stored: an earlier deal deleted (or
brought back) while it is open moves it. What is stored (``OpenDeal.number``, the deal it was
opened as) only names it in the forms opened for it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from scorekeeper.rules import games
from scorekeeper.rules.errors import RecordError
from scorekeeper.table.entry.deal import entry_of
from scorekeeper.table.models import Game, OpenDeal, OpenHand, Seat
from scorekeeper.table.present import played_view
from scorekeeper.table.scoring import engine
from scorekeeper.table.scoring.deals import check_open
from scorekeeper.table.text import error_text

# How long after its last live preview a hand not in shows "being typed" (then "missing" again).
TYPING_FOR = timedelta(seconds=60)


@dataclass
class HandState:
    """One seat of an open deal."""

    seat: int
    name: str
    hand: OpenHand | None
    phone: str = ""  # the phone sitting at the seat
    errors: list[str] = field(default_factory=list)
    typed_until: datetime | None = None  # its form sent a live preview lately: until TYPING_FOR after it

    @property
    def entered(self) -> bool:
        return self.hand is not None

    @property
    def typing(self) -> bool:
        """Being typed: not in yet, and its form sent a live preview lately."""
        return self.typed_until is not None and not self.entered


@dataclass
class DealState:
    """An open deal as it stands."""

    open: OpenDeal
    number: int  # the deal it saves as (``saves_as``), not the one it was opened as (``open.number``)
    given_once: tuple[str, ...]  # the facts a complete deal has given (the game's)
    not_given: str  # what the page says while none of them is given (the game's entry's words)
    hands: list[HandState]
    facts: dict[str, Any]  # RECORD.md form (names), as given so far
    errors: list[str]  # the deal's own (not of one hand)
    deal: dict[str, Any]  # RECORD.md form, the hands in so far
    preview: dict[str, Any] | None = None  # every player's points, once complete and valid

    @property
    def missing(self) -> list[HandState]:
        return [h for h in self.hands if not h.entered]

    @property
    def complete(self) -> bool:
        return not self.missing and self.facts_given

    @property
    def facts_given(self) -> bool:
        return all(k in self.facts for k in self.given_once)

    @property
    def valid(self) -> bool:
        return self.complete and self.preview is not None

    @property
    def until(self) -> datetime | None:
        """When the status changes by itself: the first hand shown being typed is missing again
        (None: none is shown being typed)."""
        return min((h.typed_until for h in self.hands if h.typing and h.typed_until), default=None)

    @property
    def refresh_in(self) -> int | None:
        """Whole seconds from now until a page showing this status asks for it again (``until``,
        and a second more: the server then finds the time passed), or None."""
        if self.until is None:
            return None
        wait = math.ceil((self.until - timezone.now()).total_seconds()) + 1
        return min(max(wait, 1), int(TYPING_FOR.total_seconds()) + 1)


def as_deal(open_deal: OpenDeal, hands: Mapping[int, Any], names: Sequence[str]) -> dict[str, Any]:
    """The open deal as it stands, as a RECORD.md deal: its facts given and the hands in (``hands``:
    by seat), by the players' names (the open deal stores them by seat, as a saved deal)."""
    return engine.record_deal({**open_deal.facts, "hands": [hands.get(i) for i in range(len(names))]}, names)


def saves_as(game: Game) -> int:
    """The number the open deal is shown and saved as: the next deal's. Not the one it was opened
    as (``OpenDeal.number``, what the forms opened for it send back to name it): an earlier deal
    deleted, or brought back by an undo, while it is open moves it."""
    return game.deals.count() + 1


def typing_since(open_deal: OpenDeal, now: datetime | None = None) -> datetime:
    """A seat's ``typing_at`` from this time on says its hand is being typed (now: the request's)."""
    return max(open_deal.opened, (now or timezone.now()) - TYPING_FOR)


def _facts(deal: Mapping[str, Any]) -> dict[str, Any]:
    """A deal's own facts (RECORD.md): all but its hands."""
    return {k: v for k, v in deal.items() if k != "hands"}


def _hand_state(seat: Seat, hand: OpenHand | None, errors: Sequence[RecordError], since: datetime) -> HandState:
    """One seat of the open deal: its hand if it is in, the phone sitting there, what the engine
    finds wrong with it (each message once), and until when it shows being typed."""
    typed = seat.typing_at if seat.typing_at is not None and seat.typing_at >= since else None
    return HandState(
        seat=seat.position,
        name=seat.player.name,
        hand=hand,
        phone=seat.phone.name if seat.phone and seat.phone.revoked is None else "",
        errors=list(dict.fromkeys(error_text(e) for e in errors)),
        typed_until=typed + TYPING_FOR if typed is not None else None,
    )


def state(game: Game, open_deal: OpenDeal | None = None, *, seats: Sequence[Seat] | None = None) -> DealState | None:
    """The game's open deal as it stands (None: no deal open), "being typed" as of now. ``seats``:
    the game's seats in order with their players and phones, when the caller read them already."""
    open_deal = open_deal or OpenDeal.objects.filter(game=game).first()
    if open_deal is None:
        return None
    seated = list(seats if seats is not None else game.seats.select_related("player", "phone").order_by("position"))
    names = [s.player.name for s in seated]
    stored = {h.seat: h for h in open_deal.hands.all()}
    deal = as_deal(open_deal, {i: h.hand for i, h in stored.items()}, names)
    check = check_open(game, deal)
    since = typing_since(open_deal)
    hands = [_hand_state(s, stored.get(s.position), check.hands[s.position], since) for s in seated]
    return DealState(
        open=open_deal,
        number=saves_as(game),
        given_once=games.game(game.kind).given_once,
        not_given=str(entry_of(game.kind).not_given),
        hands=hands,
        facts=_facts(deal),
        errors=[error_text(e) for e in check.errors],
        deal=deal,
        preview=played_view(check.result, names) if check.result is not None else None,
    )
