"""Every write of the table: tables and phones, games, deals, undo.

Each write is one transaction (SQLite opens it IMMEDIATE, PostgreSQL locks the game row), so two
phones saving at once are serialized, never lost. Each validates through the engine BEFORE it
writes: an invalid game or deal is never saved. Each is idempotent when given the form's
``submission`` token: a repeated submit (a double tap, a retry after a lost answer) writes nothing
and is answered as the first was (``Duplicate``). A stale form — a deal changed or deleted on
another phone since the form was opened — is refused with what the deal holds now (``Conflict``),
never silently overwritten. Every change lands in the game's append-only change history with
when and by whom, and bumps ``Game.version``.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from scorekeeper.rules.errors import RecordError, RecordInvalid
from scorekeeper.rules.messages import msg
from scorekeeper.rules.results import DealResult, GameResult, Standing
from scorekeeper.table import engine, live, opendeal
from scorekeeper.table.changes import deal_facts
from scorekeeper.table.figures import Tally, seat_values
from scorekeeper.table.models import (
    Change,
    ChangeAction,
    Deal,
    Device,
    Game,
    GameState,
    Link,
    OpenDeal,
    OpenHand,
    Player,
    Role,
    Seat,
    Submission,
    Table,
    clean_name,
    name_key,
)
from scorekeeper.table.rows import update_rows

Actor = Device | str | None


class Duplicate(Exception):
    """This form was submitted before and written then: answer as the first time (``answer``)."""

    def __init__(self, answer: str) -> None:
        super().__init__(answer)
        self.answer = answer


@dataclass
class Conflict(Exception):
    """The form is stale: what it would change was changed or deleted on another phone."""

    message: str
    deal: Deal | None = None  # what the deal holds now (None: it is gone)
    change: Change | None = None  # the change that made the form stale

    def __str__(self) -> str:
        return self.message


# ---------------------------------------------------------------------------------- helpers


def _actor(by: Actor) -> tuple[Device | None, str]:
    if isinstance(by, Device):
        return by, by.name
    return None, by or ""


def _token(token: str | None) -> str | None:
    """A submission token as the forms make them (``table.forms.new_submission``); anything else
    posted in its place (too long for its column, a NUL PostgreSQL refuses) is no token."""
    return token if isinstance(token, str) and _TOKEN.fullmatch(token) else None


_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


def first_answer(token: str | None) -> str | None:
    """How a form submitted before was answered (None: it was not written)."""
    token = _token(token)
    return Submission.objects.filter(token=token).values_list("answer", flat=True).first() if token else None


def _check_submission(token: str | None) -> None:
    """Raise Duplicate when this form was written before. A write of a game calls it once it holds
    the game's lock: a twin submit that waited for the lock (PostgreSQL) then sees the first one's
    token, where checking before the lock would find none and take the twin for a stale form."""
    done = first_answer(token)
    if done is not None:
        raise Duplicate(done)


def _remember(token: str | None, answer: str) -> None:
    token = _token(token)
    if token:
        try:
            with transaction.atomic():
                Submission.objects.create(token=token, answer=answer)
        except IntegrityError:  # the same form landing twice at once: the other one wrote; answer as it did
            first = Submission.objects.filter(token=token).values_list("answer", flat=True).first()
            raise Duplicate(first or answer) from None


def _locked(game: Game) -> Game:
    return Game.objects.select_for_update().prefetch_related("seats__player").get(pk=game.pk)


def _taken(change: Change | None, number: int, count: int) -> str:
    """What the last change did to a deal, as the phone that finds it taken is told: it was entered,
    changed, or brought back by an undo (not "entered": nobody entered it again)."""
    words = {"number": number, "when": _when(change), "next": count + 1}
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


def _when(change: Change | None) -> str:
    """When a change was made and by whom, to end a sentence: " at 21:04 by Ben"."""
    if change is None:
        return ""
    at = timezone.localtime(change.at).strftime("%H:%M")
    if change.by_name:
        return gettext(" at {time} by {name}").format(time=at, name=change.by_name)
    return gettext(" at {time}").format(time=at)


def _log(
    game: Game,
    action: str,
    *,
    by: Actor,
    deal: Deal | None = None,
    number: int | None = None,
    before: Any = None,
    after: Any = None,
    undoes: Change | None = None,
    hands_by: list[str] | None = None,
) -> Change:
    device, name = _actor(by)
    return Change.objects.create(
        game=game,
        deal_id=deal.pk if deal is not None else None,
        number=number,
        action=action,
        before=before,
        after=after,
        by=device,
        by_name=name,
        undoes=undoes,
        hands_by=hands_by,
    )


def last_change(game: Game, deal_id: int) -> Change | None:
    return game.changes.filter(deal_id=deal_id).order_by("-at", "-id").first()


# ----------------------------------------------------------------------- tables and phones


@transaction.atomic
def create_table(*, name: str, device_name: str) -> tuple[Table, Device]:
    """A new table with this phone as its first scorer."""
    table = Table.objects.create(name=clean_name(name)[:60] or gettext("Our table"))
    device = Device.objects.create(
        table=table, name=clean_name(device_name)[:40] or gettext("Scorer's phone"), role=Role.SCORE
    )
    return table, device


class AccessRefused(Exception):
    """A change to a table's phones that would leave the table without a phone that scores."""


# How long a link to score works, and how often: it hands over the table, so it works once, the
# same day. A link to follow works until the scorer renews or revokes it (it is shown at the table).
SCORE_LINK_LIFETIME = timedelta(hours=24)


def link_works(link: Link, now: datetime | None = None) -> bool:
    if link.revoked is not None:
        return False
    if link.role == Role.SCORE:
        return (now or timezone.now()) - link.created < SCORE_LINK_LIFETIME
    return True


@transaction.atomic
def create_link(*, table: Table, role: str, by: Device | None) -> Link:
    link = Link.new(table=table, role=role, created_by=by)
    link.save()
    return link


@transaction.atomic
def revoke_link(*, link: Link, by: Device | None) -> Link:
    """The link stops working at once (a phone that joined by it stays: revoke the phone)."""
    if link.revoked is None:
        link.revoked = timezone.now()
        link.save(update_fields=["revoked"])
    return link


@transaction.atomic
def renew_link(*, link: Link, by: Device | None) -> Link:
    """A new link with the same role; the old one stops working."""
    revoke_link(link=link, by=by)
    return create_link(table=link.table, role=link.role, by=by)


def _scorers_left(device: Device) -> int:
    return (
        Device.objects.select_for_update()
        .filter(table_id=device.table_id, role=Role.SCORE, revoked__isnull=True)
        .exclude(pk=device.pk)
        .count()
    )


@transaction.atomic
def revoke_device(*, device: Device, by: Device | None) -> Device:
    """The phone loses its access at once (its next request is a stranger's)."""
    if device.revoked is not None:
        return device
    if device.role == Role.SCORE and not _scorers_left(device):
        raise AccessRefused(gettext("This is the table's only scoring phone: let another phone score first."))
    device.revoked = timezone.now()
    device.save(update_fields=["revoked"])
    live.devices_changed([device.pk])
    _names_changed(device.table_id)
    return device


@transaction.atomic
def let_back(*, device: Device, by: Device | None) -> Device:
    """A phone taken off the table is let back, as it was (its role and name): the undo of
    ``revoke_device``. Until then no link it already used brings it back."""
    device = Device.objects.select_for_update().get(pk=device.pk)
    if device.revoked is not None:
        device.revoked = None
        device.save(update_fields=["revoked"])
        live.devices_changed([device.pk])
        _names_changed(device.table_id)
    return device


@transaction.atomic
def set_role(*, device: Device, role: str, by: Device | None) -> Device:
    """Let a phone score, or make it only follow."""
    if device.revoked is not None or device.role == role:
        return device
    if role != Role.SCORE and not _scorers_left(device):
        raise AccessRefused(gettext("This is the table's only scoring phone: let another phone score first."))
    device.role = role
    device.save(update_fields=["role"])
    live.devices_changed([device.pk])
    return device


@transaction.atomic
def rename_device(*, device: Device, name: str) -> Device:
    name = clean_name(name)[:40] or device.name
    if name != device.name:
        device.name = name
        device.save(update_fields=["name"])
        _names_changed(device.table_id)
    return device


def _names_changed(table_id: int) -> None:
    """A name its game pages show changed, other than a player's: the table's own (above each
    page), or its phones (their seats name them, and a scorer's page lists them to seat one): a
    phone joined, was renamed, taken off or let back. Like a rename of a player, it bumps the
    table's ``names`` (in every game page's validator and cached fragments' key) and tells the
    phones watching its games (``live.names_changed``)."""
    Table.objects.filter(pk=table_id).update(names=F("names") + 1)
    live.names_changed(table_id)


@transaction.atomic
def rename_table(*, table: Table, name: str, by: Device | None) -> Table:
    name = clean_name(name)[:60] or table.name
    if name != table.name:
        table.name = name
        table.save(update_fields=["name"])
        _names_changed(table.pk)
    return table


@transaction.atomic
def set_save_when_complete(*, table: Table, value: bool, by: Device | None) -> Table:
    """Whether a deal the players enter on their phones saves itself once every hand is in and valid."""
    table.save_when_complete = value
    table.save(update_fields=["save_when_complete"])
    return table


@transaction.atomic
def join_table(*, link: Link, name: str, replacing: Device | None = None) -> Device:
    """The phone that opened ``link`` becomes a phone of its table with the link's role (a phone
    already at the table keeps its device, taking the link's role if it gives more). A link to
    score is used up."""
    link = Link.objects.select_for_update().get(pk=link.pk)
    if not link_works(link):
        raise AccessRefused(gettext("This link does not work any more."))
    if link.role == Role.SCORE:
        link.revoked = timezone.now()
        link.save(update_fields=["revoked"])
    if replacing is not None:
        if link.role == Role.SCORE and replacing.role != Role.SCORE:
            replacing.role = Role.SCORE
            replacing.save(update_fields=["role"])
            live.devices_changed([replacing.pk])
        return replacing
    device = Device.objects.create(
        table=link.table, name=clean_name(name)[:40] or gettext("A phone"), role=link.role, added_by=link.created_by
    )
    _names_changed(device.table_id)
    return device


# ---------------------------------------------------------------------------- phones at seats


class SeatTaken(Exception):
    """A phone asked for a seat another phone sits at (only a scorer moves a phone off a seat)."""


@transaction.atomic
def sit(*, game: Game, position: int | None, phone: Device, by: Device) -> Seat | None:
    """``phone`` sits at the seat at ``position`` ("This is Ben's phone"), leaving any other seat of
    the game it sat at; ``None``: it sits at no seat. A phone sits itself at a free seat (or leaves
    its own); a scorer seats any phone of the table at any seat, or clears it (``clear_seat``).
    One phone per seat, one seat per phone. Bumps the game's version: every phone sees it."""
    game = _locked(game)
    if phone.table_id != game.table_id or phone.revoked is not None:
        raise AccessRefused(gettext("This phone is not at the table."))
    if by.pk != phone.pk and not by.scores:
        raise AccessRefused(gettext("Only a scoring phone seats another phone."))
    seats = game.seated()
    seat = None
    if position is not None:
        if not 0 <= position < len(seats):
            raise AccessRefused(gettext("There is no such seat."))
        seat = seats[position]
        if seat.phone_id not in (None, phone.pk) and not by.scores:
            raise SeatTaken(
                gettext("{phone} sits at {player}'s seat: ask the scorer to change it.").format(
                    phone=seat.phone.name if seat.phone else "", player=seat.player.name
                )
            )
    others = Seat.objects.filter(game=game, phone=phone)
    (others.exclude(pk=seat.pk) if seat is not None else others).update(phone=None)
    if seat is not None and seat.phone_id != phone.pk:
        Seat.objects.filter(pk=seat.pk).update(phone=phone)
    _bump(game)
    return seat


@transaction.atomic
def clear_seat(*, game: Game, position: int, by: Device) -> None:
    """No phone sits at the seat at ``position`` any more (a scorer, or the phone sitting there)."""
    game = _locked(game)
    seats = game.seated()
    if not 0 <= position < len(seats):
        raise AccessRefused(gettext("There is no such seat."))
    seat = seats[position]
    if seat.phone_id is None:
        return
    if not by.scores and seat.phone_id != by.pk:
        raise AccessRefused(gettext("Only a scoring phone changes another phone's seat."))
    Seat.objects.filter(pk=seat.pk).update(phone=None)
    _bump(game)


@transaction.atomic
def seat_as(*, game: Game, like: Game) -> None:
    """The phones sit at ``game``'s seats as they sat at ``like``'s (a rematch: the same players)."""
    phones = dict(Seat.objects.filter(game=like, phone__revoked__isnull=True).values_list("position", "phone_id"))
    for seat in Seat.objects.filter(game=game, position__in=phones):
        seat.phone_id = phones[seat.position]
        seat.save(update_fields=["phone"])


def _bump(game: Game) -> None:
    """The game changed for the phones watching it (its live part), not its deals or scores."""
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1)
    game.refresh_from_db(fields=["version"])
    live.games_changed([game.pk])


# ------------------------------------------------------------------------------------ games


def player_name_errors(names: Sequence[Any]) -> list[RecordError]:
    """What is wrong with a game's player names as the app stores them (cleaned of control characters,
    compared by ``name_key``: case and width do not count) beyond what the engine checks: a name
    that is empty once cleaned, two names that are one player."""
    errors: list[RecordError] = []
    seen: dict[str, str] = {}
    for name in names:
        if not isinstance(name, str):
            continue  # the engine says so
        cleaned = clean_name(name)
        if not cleaned:
            errors.append(RecordError(msg("a player's name is empty"), rule="players", field="players"))
            continue
        key = name_key(cleaned)
        if key in seen:
            twice = (
                msg("'{name}' is named twice: player names must be unique", name=cleaned)
                if seen[key] == cleaned
                else msg(
                    "'{name}' is named twice ('{other}' is the same name): player names must be unique",
                    name=cleaned,
                    other=seen[key],
                )
            )
            errors.append(RecordError(twice, rule="players", field="players"))
        seen.setdefault(key, cleaned)
    return errors


def _players(table: Table, names: Sequence[str]) -> list[Player]:
    """The table's players by these names, created when new; a known player keeps his spelling."""
    keys = [name_key(n) for n in names]
    known = {p.key: p for p in Player.objects.filter(table=table, key__in=keys)}
    out = []
    for name, key in zip(names, keys, strict=True):
        player = known.get(key)
        if player is None:
            player = known[key] = Player.objects.create(table=table, name=name)
        out.append(player)
    return out


@transaction.atomic
def create_game(
    *,
    table: Table,
    kind: str,
    profile: str,
    options: Mapping[str, Any] | None,
    players: Sequence[str],
    first_dealer: int | None = None,
    by: Actor = None,
    submission: str | None = None,
) -> Game:
    """A new game at ``table``; raises RecordInvalid when the rules or players are not valid."""
    _check_submission(submission)
    errors = player_name_errors(players)
    if errors:
        raise RecordInvalid(errors)
    names = [clean_name(n) for n in players]
    known = {p.key: p.name for p in Player.objects.filter(table=table, key__in=[name_key(n) for n in names])}
    names = [known.get(name_key(n), n) for n in names]
    if first_dealer is not None and not 0 <= first_dealer < len(names):
        raise RecordInvalid(
            [RecordError(msg("the first dealer must be one of the players"), rule="players", field="first_dealer")]
        )
    rules = engine.resolve(kind, profile, options)
    engine.score(engine.record(kind=kind, profile=profile, options=options, names=names, first_dealer=first_dealer))
    game = Game.objects.create(
        table=table,
        kind=kind,
        profile=profile,
        options=rules.options(),
        first_dealer=first_dealer,
        scored_with=engine.RESULTS_VERSION,  # no deal yet: nothing to score, its pages read what is stored
    )
    seats = Seat.objects.bulk_create(
        [Seat(game=game, player=p, position=i, kind=kind) for i, p in enumerate(_players(table, names))]
    )
    tally = Tally()
    tally.add(kind, False, [seat_values(s) for s in seats])
    tally.write()
    _remember(submission, reverse("table:game", args=[game.pk]))
    return game


@transaction.atomic
def delete_game(*, game: Game) -> None:
    """Delete a game with its seats, deals and history (the admin's: the app keeps every game),
    and what it added to its players' figures."""
    game = _locked(game)
    tally = Tally()
    tally.remove(game.kind, game.finished, [seat_values(s) for s in game.seated()])
    tally.write()
    game.delete()


@transaction.atomic
def start_game(
    *,
    device: Device | None,
    kind: str,
    profile: str,
    options: Mapping[str, Any] | None,
    players: Sequence[str],
    first_dealer: int | None = None,
    submission: str | None = None,
) -> tuple[Game, Device]:
    """A new game started by a scoring phone, at its table; a phone of no table yet (``None``)
    starts a table with the game, and is its first scorer. One transaction: a game refused
    (RecordInvalid) or submitted before (Duplicate) leaves no table behind. Returns the game and
    the phone that started it."""
    if device is None:
        _, device = create_table(name="", device_name="")  # the defaults, in the phone's language
    game = create_game(
        table=device.table,
        kind=kind,
        profile=profile,
        options=options,
        players=players,
        first_dealer=first_dealer,
        by=device,
        submission=submission,
    )
    return game, device


# ------------------------------------------------------------------------------------ deals


def check_deal(*, game: Game, deal: Mapping[str, Any], number: int | None = None) -> DealResult:
    """Play ``deal`` (RECORD.md form) as deal ``number`` (a new last deal when None) as saving it
    would — from the standing stored before it, the deals after it played again — and return its
    result; nothing is saved. Raises RecordInvalid with the errors the save would raise."""
    cards = engine.seat_deal(deal, game.player_names())
    count = game.deals.count()
    if number is None or number > count:
        return _rescore(game, [cards], start=count + 1).deals[0]
    return _rescore(game, [cards, *_cards_after(game, number)], start=number).deals[0]


def _rescore(game: Game, later: list[dict[str, Any]], start: int = 1) -> engine.Played:
    """Score the game as it would be with ``later`` (seat form) as its deals from deal ``start`` on:
    from the standing stored with deal ``start - 1`` when the stored results are the current
    engine's (the deals before it are not read), else from the first deal (with the stored cards of
    the deals before ``start``). Raise RecordInvalid (the errors of the first deal that is not valid)."""
    standing = None
    if start > 1 and game.scored_with == engine.RESULTS_VERSION:
        stored = game.deals.filter(number=start - 1).values_list("standing", flat=True).first()
        if stored:
            standing = Standing.from_json(stored)
    if standing is None and start > 1:
        later = [*game.deals.filter(number__lt=start).order_by("number").values_list("cards", flat=True), *later]
    return engine.play_from(
        kind=game.kind,
        profile=game.profile,
        options=game.options,
        names=game.player_names(),
        first_dealer=game.first_dealer,
        cards=later,
        start=start if standing is not None else 1,
        standing=standing,
    )


SEAT_FIGURES = (
    "total",
    "final",
    "won",
    "deals",
    "points",
    "outs",
    "knocks",
    "undercuts_given",
    "undercuts_suffered",
    "best_points",
    "best_deal",
    "worst_points",
    "worst_deal",
    "best_value",
    "worst_value",
)
DEAL_RESULTS = ("outcome", "dealer", "actor", "winner", "multiplier", "points", "totals", "standing")


def result_fields(
    deal: DealResult, standing: Standing, names: Sequence[str], seats: Mapping[str, int] | None = None
) -> dict[str, Any]:
    """The engine's result of one deal as a ``Deal`` stores it (``DEAL_RESULTS``), by seat
    (``seats``: ``engine.seats_of(names)``, for many deals of a game)."""
    seat = engine.seats_of(names) if seats is None else seats
    return {
        "outcome": deal.outcome,
        "dealer": seat.get(deal.dealer) if deal.dealer else None,
        "actor": seat.get(deal.actor) if deal.actor else None,
        "winner": seat.get(deal.winner) if deal.winner else None,
        "multiplier": deal.multiplier,
        "points": [deal.players[n].points if n in deal.players else 0 for n in names],
        "totals": [deal.totals.get(n, 0) for n in names],
        "standing": standing.to_json(),
    }


def _store(game: Game, played: engine.Played) -> None:
    """Store the engine's results from deal ``played.start`` on, the game's state and the seats'
    figures. Expects the deals to hold their new numbers already. Reads and writes the deals from
    ``played.start`` on; of the deals before, only what the seats' figures are made of."""
    result = played.result
    names = list(result.players)  # in seat order, as the record named them
    seat = engine.seats_of(names)
    changed = list(game.deals.filter(number__gte=played.start).order_by("number").only("pk", "number"))
    rows = [
        ScoredRow(*values)
        for values in game.deals.filter(number__lt=played.start)
        .order_by("number")
        .values_list("number", "outcome", "actor", "winner", "points")
    ]
    for row, dr, standing in zip(changed, played.deals, played.standings, strict=True):
        fields = result_fields(dr, standing, names, seat)
        for name, value in fields.items():
            setattr(row, name, value)
        rows.append(ScoredRow.of(row.number, fields))
    update_rows(changed, DEAL_RESULTS)
    tally = Tally()
    tally.remove(game.kind, game.finished, [seat_values(s) for s in game.seated()])
    game.state = GameState.FINISHED if result.state == "finished" else GameState.IN_PROGRESS
    game.winner = seat.get(result.winner) if result.winner else None
    game.version = F("version") + 1
    game.updated = timezone.now()
    game.scored_with = engine.RESULTS_VERSION
    game.save(update_fields=["state", "winner", "version", "updated", "scored_with"])
    game.refresh_from_db(fields=["version"])
    live.games_changed([game.pk])
    _store_seats(game, result, rows)
    tally.add(game.kind, game.finished, [seat_values(s) for s in game.seated()])
    tally.write()


@dataclass(frozen=True, slots=True)
class ScoredRow:
    """What a seat's figures are made of, for one deal (``seat_figures``): its number and, by seat,
    its stored result."""

    number: int
    outcome: str
    actor: int | None
    winner: int | None
    points: list[int]

    @classmethod
    def of(cls, number: int, fields: Mapping[str, Any]) -> ScoredRow:
        """From a deal's ``result_fields``."""
        return cls(number, fields["outcome"], fields["actor"], fields["winner"], fields["points"])


def seat_figures(position: int, result: GameResult, rows: Sequence[ScoredRow], penalty: bool) -> dict[str, Any]:
    """The figures of the seat at ``position`` in a game (``SEAT_FIGURES``), from its deals'
    stored results (``rows``, in order) and the game's result: what the history pages read."""
    sign = -1 if penalty else 1
    figures: dict[str, Any] = dict.fromkeys(
        ("deals", "points", "outs", "knocks", "undercuts_given", "undercuts_suffered"), 0
    )
    figures.update(best_points=None, best_deal=None, worst_points=None, worst_deal=None)
    best = worst = None
    i = position
    for row in rows:
        if row.outcome == "void" or i >= len(row.points):
            continue
        pts = row.points[i]
        value = sign * pts
        figures["deals"] += 1
        figures["points"] += value
        if best is None or value > best:
            best, figures["best_points"], figures["best_deal"] = value, pts, row.number
        if worst is None or value < worst:
            worst, figures["worst_points"], figures["worst_deal"] = value, pts, row.number
        if row.actor == i:
            figures["outs"] += row.outcome in ("out", "gin", "big_gin")
            figures["knocks"] += row.outcome in ("knock", "undercut")
            figures["undercuts_suffered"] += row.outcome == "undercut"
        if row.outcome == "undercut" and row.winner == i:
            figures["undercuts_given"] += 1
    figures["best_value"], figures["worst_value"] = best, worst
    name = result.players[i]
    figures["total"] = result.totals.get(name, 0)
    figures["final"] = result.final.get(name) if result.final is not None else None
    figures["won"] = result.state == "finished" and result.winner == name
    return figures


def _store_seats(game: Game, result: GameResult, rows: list[ScoredRow]) -> None:
    """Each seat's figures in this game, from the stored deals (what the history pages read)."""
    rules, _ = engine.rules_of(game)
    seats = game.seated()
    for seat in seats:
        for name, value in seat_figures(seat.position, result, rows, rules.penalty).items():
            setattr(seat, name, value)
    update_rows(seats, SEAT_FIGURES)


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
    game = _locked(game)
    _check_submission(submission)
    names = game.player_names()
    cards = engine.seat_deal(deal, names)
    count = game.deals.count()
    if number is not None and 1 <= number <= count:
        there = game.deals.get(number=number)
        if there.cards == cards:
            raise Duplicate(reverse("table:game", args=[game.pk]) + f"?saved={there.number}#deal-{there.number}")
        change = last_change(game, there.pk)
        raise Conflict(
            _taken(change, number, count),
            deal=there,
            change=change,
        )
    row = _add_next(game, cards, count, by=by)
    OpenDeal.objects.filter(game=game).delete()
    _remember(submission, reverse("table:game", args=[game.pk]) + f"?saved={row.number}#deal-{row.number}")
    row.refresh_from_db()
    return row


def _add_next(game: Game, cards: dict[str, Any], count: int, *, by: Actor, hands_by: list[str] | None = None) -> Deal:
    """Play and store ``cards`` (seat form) as the next deal (``count + 1``), in the history."""
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
    played = _rescore(game, [cards], start=count + 1)
    row = Deal.objects.create(game=game, number=count + 1, cards=cards)
    _log(game, ChangeAction.DEAL_ADDED, by=by, deal=row, number=row.number, after=cards, hands_by=hands_by)
    _store(game, played)
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
        raise Conflict(text.format(number=change.number if change else None, when=_when(change)), change=change)
    if version is not None and row.version != version:
        change = last_change(game, deal_id)
        raise Conflict(
            gettext(
                "deal {number} was changed on another phone{when} — here is what it holds now. "
                "What you typed is kept below: save it again to replace it."
            ).format(number=row.number, when=_when(change)),
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
    game = _locked(game)
    _check_submission(submission)
    row = _current(game, deal_id, version, "edit")
    cards = engine.seat_deal(deal, game.player_names())
    played = _rescore(game, [cards, *_cards_after(game, row.number)], start=row.number)
    before = row.cards
    row.cards = cards
    row.version += 1
    row.updated = timezone.now()
    row.save(update_fields=["cards", "version", "updated"])
    _log(game, ChangeAction.DEAL_EDITED, by=by, deal=row, number=row.number, before=before, after=cards)
    _store(game, played)
    _remember(submission, reverse("table:game", args=[game.pk]) + f"?saved={row.number}#deal-{row.number}")
    row.refresh_from_db()
    return row


def _cards_after(game: Game, number: int) -> list[dict[str, Any]]:
    """The stored cards of the deals after deal ``number``, in order."""
    return list(game.deals.filter(number__gt=number).order_by("number").values_list("cards", flat=True))


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
    game = _locked(game)
    _check_submission(submission)
    row = _current(game, deal_id, version, "delete")
    _delete(game, row, by=by)
    _remember(submission, reverse("table:game", args=[game.pk]))


def _delete(game: Game, row: Deal, *, by: Actor, undoes: Change | None = None) -> Change:
    played = _rescore(game, _cards_after(game, row.number), start=row.number)
    change = _log(game, ChangeAction.DEAL_DELETED, by=by, deal=row, number=row.number, before=row.cards, undoes=undoes)
    number = row.number
    row.delete()
    _shift(game, number + 1, -1)
    _store(game, played)
    return change


def _restore(game: Game, deal_id: int | None, number: int, cards: Any, *, by: Actor, undoes: Change) -> Change:
    """Put a deleted deal back as deal ``number``, with its id (a new one when the history does not
    know it: games adopted from an earlier version)."""
    number = min(max(number, 1), game.deals.count() + 1)
    played = _rescore(game, [cards, *_cards_after(game, number - 1)], start=number)
    _shift(game, number, 1)
    row = Deal.objects.create(pk=deal_id, game=game, number=number, cards=cards)
    change = _log(game, ChangeAction.DEAL_RESTORED, by=by, deal=row, number=number, after=cards, undoes=undoes)
    _store(game, played)
    return change


# --------------------------------------------------------------- the players' own hands


@transaction.atomic
def open_deal(*, game: Game, by: Device) -> OpenDeal:
    """Open the next deal for the players to enter, each his own hand on his own phone (the one
    open already, if there is one). Refused (RecordInvalid) once the game is over."""
    game = _locked(game)
    there = OpenDeal.objects.filter(game=game).first()
    if there is not None:
        return there
    if game.finished:
        raise RecordInvalid([RecordError(msg("the game is over: no deal follows"), rule="game over")])
    row = OpenDeal.objects.create(game=game, number=game.deals.count() + 1, opened_by=by.name)
    _bump(game)
    return row


def _open_or_gone(game: Game, number: int | None) -> OpenDeal:
    """The game's open deal, locked with the game, as long as it is the one the form was opened for."""
    row = OpenDeal.objects.filter(game=game).first()
    if row is None or (number is not None and row.number != number):
        last = game.changes.order_by("-at", "-id").first()
        raise Conflict(
            gettext(
                "Deal {number} is not open any more: it was saved or closed{when}. What you typed is kept below."
            ).format(number=number or "", when=_when(last))
        )
    return row


def _merge_facts(
    row: OpenDeal, facts: Mapping[str, Any], facts_version: int | None, by: Device, names: list[str]
) -> None:
    """The deal's own facts a phone gives with its hand (seat form; only those it gives): taken
    when nobody gave them, or gave them the same; refused (Conflict) when another phone gave them
    otherwise since the phone's form was opened."""
    changed = {k: v for k, v in facts.items() if k not in row.facts or row.facts[k] != v}
    if not changed:
        return
    if facts_version != row.facts_version and any(k in row.facts for k in changed):
        given = ", ".join(f"{k}: {v}" for k, v in deal_facts(row.facts, names))
        raise Conflict(
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
    submits it, with the deal's facts it gives (seat form). ``version``: the hand's version the form
    was opened with (None: the hand was not in): a stale correction is Conflict, never overwritten.
    Hands of other seats never conflict: two phones sending at once both count. With the table's
    ``save_when_complete``, the deal saves itself once every hand is in and it is valid."""
    game = _locked(game)
    _check_submission(submission)
    names = game.player_names()
    if not 0 <= seat < len(names):
        raise Conflict(gettext("There is no such seat."))
    row = _open_or_gone(game, number)
    there = row.hands.filter(seat=seat).first()
    if there is not None and there.version != version:
        at = timezone.localtime(there.updated).strftime("%H:%M")
        raise Conflict(
            gettext(
                "{name}'s hand was sent again from {phone} at {at} since you opened this form: it shows what "
                "is stored now. What you typed is kept below: send it again to replace it."
            ).format(name=names[seat], phone=there.by_name or gettext("another phone"), at=at)
        )
    _merge_facts(row, facts or {}, facts_version, by, names)
    if there is None:
        there = OpenHand.objects.create(deal=row, seat=seat, hand=dict(hand), by=by, by_name=by.name)
    else:
        there.hand, there.version, there.by, there.by_name = dict(hand), there.version + 1, by, by.name
        there.updated = timezone.now()
        there.save(update_fields=["hand", "version", "by", "by_name", "updated"])
    _bump(game)
    _remember(submission, reverse("table:game", args=[game.pk]) + "#open-deal")
    if game.table.save_when_complete:
        with contextlib.suppress(RecordInvalid):
            _save_open(game, row, by=by)
    return there


@transaction.atomic
def typing(*, game: Game, seat: int, open_deal: OpenDeal) -> None:
    """A seat's hand of the open deal is being typed (its form sent its live preview): the seat's
    ``typing_at`` stamped. One UPDATE while it was typed already; the game's version bumped only
    when the hand goes from missing to being typed (the other phones' live parts then show it),
    never per keystroke. Not a change of the game: no change history."""
    now = timezone.now()
    seats = Seat.objects.filter(game=game, position=seat)
    if seats.filter(typing_at__gte=opendeal.typing_since(open_deal, now)).update(typing_at=now):
        return
    if seats.update(typing_at=now) and not open_deal.hands.filter(seat=seat).exists():
        _bump(game)


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
    cards = {**row.facts, "hands": [hands[i].hand for i in range(len(names))]}
    by_seat = [hands[i].by_name for i in range(len(names))]
    with transaction.atomic():  # refused by the engine: nothing of it written
        saved = _add_next(game, cards, game.deals.count(), by=by, hands_by=by_seat)
    row.delete()
    return saved


@transaction.atomic
def save_open_deal(*, game: Game, number: int | None = None, by: Actor, submission: str | None = None) -> Deal:
    """Save the open deal, every hand in and the deal valid (else RecordInvalid, the engine's
    errors), as the next deal: after it, an ordinary deal."""
    game = _locked(game)
    _check_submission(submission)
    row = _open_or_gone(game, number)
    saved = _save_open(game, row, by=by)
    _remember(submission, reverse("table:game", args=[game.pk]) + f"?saved={saved.number}#deal-{saved.number}")
    saved.refresh_from_db()
    return saved


@transaction.atomic
def close_open_deal(*, game: Game, by: Device) -> None:
    """The scorer closes the open deal without saving it (its hands are dropped)."""
    game = _locked(game)
    if OpenDeal.objects.filter(game=game).delete()[0]:
        _bump(game)


# ------------------------------------------------------------------------------------- undo


@transaction.atomic
def undo(*, game: Game, change_id: int, by: Actor = None, submission: str | None = None) -> Change:
    """Undo one change from the history: an added deal is deleted, an edit reverted, a deleted
    deal restored in its place, a rules switch switched back. The undo is a change of its own.
    Refused (Conflict) when what the change made was changed since."""
    game = _locked(game)
    _check_submission(submission)
    change = game.changes.filter(pk=change_id).first()
    if change is None:
        raise Conflict(gettext("there is no such change in this game's history"))
    if Change.objects.filter(undoes=change).exists():
        raise Conflict(gettext("this change was undone already"))
    if change.action == ChangeAction.RULES_SWITCHED:
        done = _switch_back(game, change, by=by)
    elif change.action == ChangeAction.DEAL_DELETED:
        done = _put_back(game, change, by=by)
    else:
        done = _take_back(game, change, by=by)
    _remember(submission, reverse("history:changes", args=[game.pk]))
    return done


def _switch_back(game: Game, change: Change, *, by: Actor) -> Change:
    """Undo a rules switch: the rules before it, unless they were switched again since."""
    before, after = change.before or {}, change.after or {}
    if game.profile != after.get("profile") or game.options != after.get("options"):
        raise Conflict(gettext("the rules were switched again since: undo that switch first"))
    return _switch(game, before["profile"], before["options"], by=by, undoes=change)


def _put_back(game: Game, change: Change, *, by: Actor) -> Change:
    """Undo a delete: the deal restored in its place."""
    if change.deal_id is not None and game.deals.filter(pk=change.deal_id).exists():
        raise Conflict(gettext("this deal is in the game again already"))
    if change.number is None or not isinstance(change.before, dict):
        raise Conflict(gettext("this change does not say where the deal was or what it held: it cannot be undone"))
    return _restore(game, change.deal_id, change.number, change.before, by=by, undoes=change)


def _take_back(game: Game, change: Change, *, by: Actor) -> Change:
    """Undo an edit (the deal as it was before) or an add or restore (the deal taken out), unless
    the deal changed since."""
    row = game.deals.filter(pk=change.deal_id).first() if change.deal_id else None
    if row is None or row.cards != change.after:
        raise Conflict(
            gettext(
                "this deal was changed or deleted since: undo the later change first, or edit the deal{when}"
            ).format(when=_when(last_change(game, change.deal_id) if change.deal_id else None))
        )
    if change.action == ChangeAction.DEAL_EDITED:
        return _revert(game, row, change, by=by)
    return _delete(game, row, by=by, undoes=change)


def _revert(game: Game, row: Deal, change: Change, *, by: Actor) -> Change:
    """Undo an edit: the deal holds again what it held before ``change``."""
    if not isinstance(change.before, dict):
        raise Conflict(gettext("this change does not say what the deal held before: it cannot be undone"))
    played = _rescore(game, [change.before, *_cards_after(game, row.number)], start=row.number)
    row.cards = change.before
    row.version += 1
    row.updated = timezone.now()
    row.save(update_fields=["cards", "version", "updated"])
    done = _log(
        game,
        ChangeAction.DEAL_EDITED,
        by=by,
        deal=row,
        number=row.number,
        before=change.after,
        after=change.before,
        undoes=change,
    )
    _store(game, played)
    return done


# ------------------------------------------------------------------------------------ rules


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
    game = _locked(game)
    _check_submission(submission)
    _switch(game, profile, options, by=by)
    _remember(submission, reverse("history:review", args=[game.pk]))
    return game


def _switch(
    game: Game, profile: str, options: Mapping[str, Any] | None, *, by: Actor, undoes: Change | None = None
) -> Change:
    rules = engine.resolve(game.kind, profile, options)
    before = {"profile": game.profile, "options": dict(game.options or {})}
    after = {"profile": profile, "options": rules.options()}
    cards = list(game.deals.order_by("number").values_list("cards", flat=True))
    game.profile, game.options = profile, rules.options()
    played = _rescore(game, cards)
    game.save(update_fields=["profile", "options"])
    change = _log(game, ChangeAction.RULES_SWITCHED, by=by, before=before, after=after, undoes=undoes)
    _store(game, played)
    return change


# ----------------------------------------------------------------------------------- import


def refresh_results(*, log: Any = None) -> int:
    """Score again every game whose stored results come from another version of the engine (or
    none): run after ``migrate``. A game the engine now rejects keeps its cards and shows the errors
    on its pages. Returns how many games were scored."""
    done = 0
    for pk in Game.objects.exclude(scored_with=engine.RESULTS_VERSION).values_list("pk", flat=True):
        with transaction.atomic():
            game = _locked(Game(pk=pk))
            cards = list(game.deals.order_by("number").values_list("cards", flat=True))
            try:
                played = _rescore(game, cards)
            except RecordInvalid as exc:
                if log is not None:
                    log(f"game #{pk} could not be scored again: {exc}")
                continue
            _store(game, played)
            done += 1
    return done
