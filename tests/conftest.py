"""The fixtures every test shares: a table with its scoring phone, clients that are phones at the
table (or strangers), and games made through the services — never around the engine's validation."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.http import HttpResponse, HttpResponseBase
from django.test import Client, RequestFactory
from django.utils import translation

from scorekeeper.table import access
from scorekeeper.table.games import services as game_services
from scorekeeper.table.models import Device, Game, Role, Table
from scorekeeper.table.phones import services as phone_services
from scorekeeper.table.scoring import deals as deal_services

NAMES = ["Ann", "Ben", "Cleo"]

# The tests marked ``slow``, by node id or its start (a whole module): the property tests with hundreds of
# examples against a brute force, histories at scale, a server or processes started. They run in
# `make test`; `make test-fast` leaves them out (the rest: about 1¼ minutes on two idle cores, Makefile).
# Marked here, in one list, so that no test file needs to know; a test that takes more than a few seconds
# belongs here.
SLOW = (
    # Processes started: make run on a network address, settings read by fresh interpreters, logins.
    "tests/server/test_run.py",
    "tests/server/test_settings.py",
    "tests/server/test_live.py",
    "tests/server/test_own_hands_restart.py",
    "tests/server/test_read_only_start.py",
    "tests/server/test_hosting.py",
    "tests/server/test_import_crash.py",
    "tests/server/test_deploy.py::test_the_backup_and_purge_units_run_as_written_with_the_environment_file",
    "tests/server/test_deploy.py::test_the_readme_s_cron_lines_read_the_environment_file",
    "tests/server/test_open_files.py::test_serve_and_its_workers_run_with_the_raised_limit",
    "tests/server/test_stream_flood.py",
    # A club's evening through the forms: 25 tables, 750 deals.
    "tests/guards/test_club_evening.py::test_an_evening_of_25_tables_behind_one_address_meets_no_limit",
    # Histories at scale: thousands of deals exported, imported, counted.
    "tests/history/test_transfer_at_scale.py",
    "tests/history/test_stats_at_scale.py",
    # Hypothesis with many examples, against a brute force or the whole app.
    "tests/test_fuzz.py",
    "tests/rules/test_oklahoma_melded.py::test_every_verdict_agrees_with_the_brute_force_reference",
    "tests/rules/test_oklahoma_properties.py::test_every_verdict_agrees_with_the_brute_force_reference",
    "tests/rules/test_oklahoma_meld_tables.py::test_runs_with_one_wild_card_in_each_place",
    "tests/rules/test_oklahoma_same_cards.py",
    "tests/rules/test_oklahoma_meld_shortcut.py::test_shortcuts_agree_with_the_search_on_random_melds",
    "tests/rules/test_gin_properties.py",
    "tests/rules/test_gin_layoffs_in_turn.py::test_defenders_in_turn_match_the_brute_force",
    "tests/rules/test_gin_text.py::test_the_fast_searches_from_text_match_the_brute_force",
    # Random games stored and scored again from scratch, and phones saving at once through a live server.
    "tests/table/test_stored_pages.py::test_pages_from_stored_results_are_those_of_scoring_from_scratch",
    "tests/table/test_incremental.py::test_stored_results_are_always_those_of_scoring_from_scratch",
    "tests/table/test_concurrency.py::test_phones_saving_at_once_lose_nothing_and_double_nothing",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests of ``SLOW``; a browser test is slow too."""
    for item in items:
        if item.nodeid.startswith(SLOW) or item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _english_after_each_test() -> Iterator[None]:
    """A request leaves its language in force in its thread (Django's LocaleMiddleware does not undo
    it), and the engine's messages render in it: each test starts and ends in the default, English."""
    translation.deactivate()
    yield
    translation.deactivate()


def in_a_thread[T](function: Callable[..., T], *args: Any) -> T:
    """Call a function in a thread of its own: the browser tests' Playwright keeps an event loop in
    the main thread for the whole session, where ``async_to_sync`` (an async view served to a WSGI
    client, an ``asyncio`` run) refuses to run."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(function, *args).result()


def http_scope(method: str, path: str, headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    """The ASGI scope of an HTTP request from 127.0.0.1, as uvicorn hands it to the app."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }


def run_async[T](function: Callable[..., Coroutine[Any, Any, T]], *args: Any) -> T:
    """Run a coroutine function to its end on an event loop of its own (``in_a_thread``)."""
    return in_a_thread(asyncio.run, function(*args))


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
    table, _ = phone_services.create_table(name="Test table", device_name="Scorer's phone")
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
    game = game_services.create_game(
        table=table,
        kind=kind,
        profile=profile,
        options=dict(options or {}),
        players=list(players),
        first_dealer=first_dealer,
        by=by,
    )
    for deal in deals:
        deal_services.add_deal(game=game, deal=deal, by=by)
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
    from scorekeeper.table.scoring import engine

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
