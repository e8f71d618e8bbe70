"""The fixtures every test shares: a table with its scoring phone, clients that are phones at the
table (or strangers), and games made through the services — never around the engine's validation."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pytest
from django.http import HttpResponse, HttpResponseBase
from django.test import Client, RequestFactory

from scorekeeper.table import access, services
from scorekeeper.table.models import Device, Game, Role, Table

NAMES = ["Ann", "Ben", "Cleo"]


def phone_cookie(*devices: Device) -> str:
    """The signed cookie of a phone holding these devices, as the app sets it on joining."""
    request = RequestFactory().get("/")
    for device in devices:
        response = HttpResponse()
        access.remember(response, request, device)
        request.COOKIES[access.COOKIE] = response.cookies[access.COOKIE].value
    return request.COOKIES[access.COOKIE]


def as_phone(client: Client, *devices: Device) -> Client:
    """Make ``client`` a phone holding these devices."""
    client.cookies[access.COOKIE] = phone_cookie(*devices)
    return client


@pytest.fixture
def table(db: Any) -> Table:
    table, _ = services.create_table(name="Test table", device_name="Scorer's phone")
    return table


@pytest.fixture
def scorer(table: Table) -> Device:
    """The table's first phone: it scores."""
    return table.devices.get()


@pytest.fixture
def follower(table: Table) -> Device:
    return Device.objects.create(table=table, name="Ben's phone", role=Role.FOLLOW)


@pytest.fixture
def client(client: Client, scorer: Device) -> Client:
    """The test client is the scorer's phone at the table."""
    return as_phone(client, scorer)


@pytest.fixture
def stranger() -> Client:
    """A phone that is at no table."""
    return Client()


def new_game(
    table: Table,
    *,
    kind: str = "oklahoma",
    profile: str = "book",
    players: Iterable[str] = NAMES,
    options: Mapping[str, Any] | None = None,
    first_dealer: int | None = None,
    deals: Iterable[Mapping[str, Any]] = (),
    by: Any = None,
) -> Game:
    """A game made through the services, its deals (RECORD.md form) added one by one."""
    by = by or table.devices.filter(role=Role.SCORE).first()
    game = services.create_game(
        table=table,
        kind=kind,
        profile=profile,
        options=dict(options or {}),
        players=list(players),
        first_dealer=first_dealer,
        by=by,
    )
    for deal in deals:
        services.add_deal(game=game, deal=deal, by=by)
    return Game.objects.prefetch_related("seats__player").get(pk=game.pk)


@pytest.fixture
def make_game(table: Table) -> Callable[..., Game]:
    def make(**kwargs: Any) -> Game:
        return new_game(table, **kwargs)

    return make


@pytest.fixture
def ok_game(make_game: Callable[..., Game]) -> Game:
    """A three-player Oklahoma game under the book's rules, Ann dealing first, no deal yet."""
    return make_game(kind="oklahoma", profile="book", players=NAMES, first_dealer=0)


@pytest.fixture
def gin_game(make_game: Callable[..., Game]) -> Game:
    """A two-player Oklahoma Gin game under the standard rules, no deal yet."""
    return make_game(kind="oklahoma-gin", profile="standard", players=["Ann", "Ben"])


@pytest.fixture
def plays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The numbers of the deals the engine plays from here on (``rules.games.play``), in order."""
    from scorekeeper.table import engine

    numbers: list[int] = []
    real = engine.games.play

    def counting(rules: Any, players: Any, standing: Any, deal: Any, number: int) -> Any:
        numbers.append(number)
        return real(rules, players, standing, deal, number)

    monkeypatch.setattr(engine.games, "play", counting)
    return numbers


def body(response: HttpResponseBase) -> bytes:
    """A response's body, streamed (the exports of every game) or not."""
    return b"".join(response.streaming_content) if response.streaming else response.content  # type: ignore[attr-defined]
