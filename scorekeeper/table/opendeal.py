"""An open deal as the phones see it come together: which hands are in, which are being typed and
which are missing, the deal's own facts given so far, and what the engine finds wrong with the hands in so far — each
message on the hand it concerns. A read: it never writes.

The checks are the engine's own validation of a deal (``services.check_deal``, as a save plays
it), run on the deal as it stands: the facts given and the hands in. What the engine says about a
hand not in yet, or a fact not given yet, is left out: the rest is true of the hands in already
(a card past the pack's count, a second knocker, a hand that does not hold the cards it must).
A message about the pack (a card entered more times than the pack holds) concerns every hand
holding that card: it is shown on each of them.

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

import contextlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from scorekeeper.rules.cards import CardError, parse_token
from scorekeeper.rules.errors import RecordError, RecordInvalid
from scorekeeper.table import engine
from scorekeeper.table.forms import error_text
from scorekeeper.table.models import Game, OpenDeal, OpenHand, Seat
from scorekeeper.table.present import played_view

# The deal's own facts, by game: a key absent from an open deal's facts is not given yet.
FACT_KEYS = {"oklahoma": ("out", "first_turn", "concealed", "late_misdeal"), "oklahoma-gin": ("upcard", "knocker")}
# The facts a complete deal has given, by game.
GIVEN_ONCE = {"oklahoma": ("out",), "oklahoma-gin": ("upcard", "knocker")}
# The engine's rules of the pack's counts: a message under them concerns every hand holding its card.
PACK_RULES = ("the pack", "pack")
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
    kind: str
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
        return all(k in self.facts for k in GIVEN_ONCE[self.kind])

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


def seat_record(open_deal: OpenDeal, hands: Mapping[int, Any], seats: int) -> dict[str, Any]:
    """The open deal in seat form: its facts given, and the hands in (None where missing)."""
    return {**open_deal.facts, "hands": [hands.get(i) for i in range(seats)]}


def problems(
    game: Game, deal: Mapping[str, Any], names: Sequence[str], *, number: int | None = None
) -> tuple[list[RecordError], Any]:
    """What the engine finds wrong with ``deal`` (RECORD.md form, the hands and facts given so far),
    without what concerns a hand not in or a fact not given; and its result when it is valid."""
    try:
        return [], engine_check(game, deal, number)
    except RecordInvalid as exc:
        missing = [n for n in names if n not in (deal.get("hands") or {})]
        absent = [k for k in FACT_KEYS.get(game.kind, ()) if k not in deal]
        return [e for e in exc.errors if not _about_missing(e, missing, absent)], None


def engine_check(game: Game, deal: Mapping[str, Any], number: int | None) -> Any:
    from scorekeeper.table import services  # the services import this module's readers

    return services.check_deal(game=game, deal=deal, number=number)


def _about_missing(e: RecordError, missing: Sequence[str], absent: Sequence[str]) -> bool:
    """An error that only says a hand is not in, or a fact is not given, yet."""
    if e.field in absent:
        return True
    return any(e.field == f"hands.{name}" and e.player == name for name in missing)


def _cards_of(hand: Any) -> set[str]:
    """The cards a hand (RECORD.md form) holds, by label (``Q♠``; a wild as itself)."""
    out: set[str] = set()
    if not isinstance(hand, Mapping):
        return out
    for key in ("melds", "melded", "held", "cards", "deadwood"):
        value = hand.get(key)
        items = value if isinstance(value, list) else []
        for item in items:
            for code in item if isinstance(item, list) else [item]:
                with contextlib.suppress(CardError, TypeError):
                    out.add(parse_token(str(code)).card.label)
    return out


def concerned(e: RecordError, deal: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """The players an error of the engine concerns: its player and, for the pack's counts, every
    player whose hand holds its card."""
    who = [str(e.player)] if e.player in names else []
    if e.rule in PACK_RULES and e.cards:
        hands = deal.get("hands") or {}
        for name in names:
            if name not in who and _cards_of(hands.get(name)) & set(e.cards):
                who.append(name)
    return who


def for_player(e: RecordError, player: str) -> RecordError:
    """The error as it concerns ``player``'s hand (a pack's count: the field holding the card)."""
    return e if e.player == player else replace(e, player=player, field=None)


def saves_as(game: Game) -> int:
    """The number the open deal is shown and saved as: the next deal's. Not the one it was opened
    as (``OpenDeal.number``, what the forms opened for it send back to name it): an earlier deal
    deleted, or brought back by an undo, while it is open moves it."""
    return game.deals.count() + 1


def typing_since(open_deal: OpenDeal, now: datetime | None = None) -> datetime:
    """A seat's ``typing_at`` from this time on says its hand is being typed (now: the request's)."""
    return max(open_deal.opened, (now or timezone.now()) - TYPING_FOR)


def state(game: Game, open_deal: OpenDeal | None = None, *, seats: Sequence[Seat] | None = None) -> DealState | None:
    """The game's open deal as it stands (None: no deal open), "being typed" as of now. ``seats``:
    the game's seats in order with their players and phones, when the caller read them already."""
    open_deal = open_deal or OpenDeal.objects.filter(game=game).first()
    if open_deal is None:
        return None
    if seats is None:
        seats = list(game.seats.select_related("player", "phone").order_by("position"))
    names = [s.player.name for s in seats]
    stored = {h.seat: h for h in open_deal.hands.all()}
    cards = seat_record(open_deal, {i: h.hand for i, h in stored.items()}, len(names))
    deal = engine.record_deal(cards, names)
    errors, played = problems(game, deal, names)
    since = typing_since(open_deal)
    hands = [
        HandState(
            seat=s.position,
            name=s.player.name,
            hand=stored.get(s.position),
            phone=s.phone.name if s.phone and s.phone.revoked is None else "",
            typed_until=s.typing_at + TYPING_FOR if s.typing_at is not None and s.typing_at >= since else None,
        )
        for s in seats
    ]
    by_name = {h.name: h for h in hands}
    own: list[str] = []
    for e in errors:
        who = concerned(e, deal, names)
        for name in who:
            text = error_text(e)
            if text not in by_name[name].errors:
                by_name[name].errors.append(text)
        if not who:
            own.append(error_text(e))
    facts = {k: v for k, v in deal.items() if k != "hands"}
    view = played_view(played, names) if played is not None else None
    return DealState(
        open=open_deal,
        number=saves_as(game),
        kind=game.kind,
        hands=hands,
        facts=facts,
        errors=own,
        deal=deal,
        preview=view,
    )
