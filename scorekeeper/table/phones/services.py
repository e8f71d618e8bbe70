"""The writes of the phones and links: a table and its first scoring phone, the links that let
another phone in (to follow, or once to score), a phone's role, name and access, the table's name and
setting, and the phones at a game's seats. Each in one transaction; a change of a phone's access is
told at once to the streams it holds (``live.signals``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from scorekeeper.table.live import signals
from scorekeeper.table.models import Device, Game, Link, Role, Seat, Table, clean_name


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
def revoke_device(*, device: Device, by: Device | None) -> list[Link]:
    """The phone loses its access at once (its next request is a stranger's), and every link of the
    table it knows is replaced (``_links_seen_by``): the new links, for the scorer to show."""
    if device.revoked is not None:
        return []
    if device.role == Role.SCORE and not _scorers_left(device):
        raise AccessRefused(gettext("This is the table's only scoring phone: let another phone score first."))
    device.revoked = timezone.now()
    device.save(update_fields=["revoked"])
    signals.devices_changed([device.pk])
    _names_changed(device.table_id)
    return [renew_link(link=link, by=by) for link in _links_seen_by(device)]


def _links_seen_by(device: Device) -> list[Link]:
    """The table's links that work and that ``device`` knows: the links to follow (it joined by one,
    or showed it), and the links to score when it scored (its table page showed them). A phone
    taken off the table keeps them on its table page, or in its history: with its cookie cleared
    it would join again by them as a new phone."""
    links = Link.objects.select_for_update().filter(table_id=device.table_id, revoked__isnull=True)
    if device.role != Role.SCORE:
        links = links.filter(role=Role.FOLLOW)
    return [link for link in links.order_by("pk") if link_works(link)]


@transaction.atomic
def let_back(*, device: Device, by: Device | None) -> Device:
    """A phone taken off the table is let back, as it was (its role and name): the undo of
    ``revoke_device``. Until then no link it already used brings it back."""
    device = Device.objects.select_for_update().get(pk=device.pk)
    if device.revoked is not None:
        device.revoked = None
        device.save(update_fields=["revoked"])
        signals.devices_changed([device.pk])
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
    signals.devices_changed([device.pk])
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
    signals.names_changed(table_id)


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
            signals.devices_changed([replacing.pk])
        return replacing
    device = Device.objects.create(
        table=link.table, name=clean_name(name)[:40] or gettext("A phone"), role=link.role, added_by=link.created_by
    )
    _names_changed(device.table_id)
    return device


class SeatTaken(Exception):
    """A phone asked for a seat another phone sits at (only a scorer moves a phone off a seat)."""


@transaction.atomic
def sit(*, game: Game, position: int | None, phone: Device, by: Device) -> Seat | None:
    """``phone`` sits at the seat at ``position`` ("This is Ben's phone"), leaving any other seat of
    the game it sat at; ``None``: it sits at no seat. A phone sits itself at a free seat (or leaves
    its own); a scorer seats any phone of the table at any seat, or clears it (``clear_seat``).
    One phone per seat, one seat per phone. Bumps the game's version: every phone sees it."""
    game = Game.objects.locked(game.pk)
    if phone.table_id != game.table_id or phone.revoked is not None:
        raise AccessRefused(gettext("This phone is not at the table."))
    if by.pk != phone.pk and not by.scores:
        raise AccessRefused(gettext("Only a scoring phone seats another phone."))
    seat = None if position is None else _free_seat(game, position, phone, by)
    others = Seat.objects.filter(game=game, phone=phone)
    (others.exclude(pk=seat.pk) if seat is not None else others).update(phone=None)
    if seat is not None and seat.phone_id != phone.pk:
        Seat.objects.filter(pk=seat.pk).update(phone=phone)
    signals.game_changed(game)
    return seat


def _free_seat(game: Game, position: int, phone: Device, by: Device) -> Seat:
    """The seat at ``position``, as long as ``phone`` may sit there (it is free, or its own; a scorer
    seats a phone anywhere)."""
    seats = game.seated()
    if not 0 <= position < len(seats):
        raise AccessRefused(gettext("There is no such seat."))
    seat = seats[position]
    if seat.phone_id not in (None, phone.pk) and not by.scores:
        raise SeatTaken(
            gettext("{phone} sits at {player}'s seat: ask the scorer to change it.").format(
                phone=seat.phone.name if seat.phone else "", player=seat.player.name
            )
        )
    return seat


@transaction.atomic
def clear_seat(*, game: Game, position: int, by: Device) -> None:
    """No phone sits at the seat at ``position`` any more (a scorer, or the phone sitting there)."""
    game = Game.objects.locked(game.pk)
    seats = game.seated()
    if not 0 <= position < len(seats):
        raise AccessRefused(gettext("There is no such seat."))
    seat = seats[position]
    if seat.phone_id is None:
        return
    if not by.scores and seat.phone_id != by.pk:
        raise AccessRefused(gettext("Only a scoring phone changes another phone's seat."))
    Seat.objects.filter(pk=seat.pk).update(phone=None)
    signals.game_changed(game)


@transaction.atomic
def seat_as(*, game: Game, like: Game) -> None:
    """The phones sit at ``game``'s seats as they sat at ``like``'s (a rematch: the same players)."""
    phones = dict(Seat.objects.filter(game=like, phone__revoked__isnull=True).values_list("position", "phone_id"))
    for seat in Seat.objects.filter(game=game, position__in=phones):
        seat.phone_id = phones[seat.position]
        seat.save(update_fields=["phone"])
