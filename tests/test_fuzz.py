"""Property-based fuzzing of every form and endpoint (issue 8): whatever is posted or asked, no
answer is a 5xx, the engine never fails inside (its own errors are record errors, not exceptions),
and every saved game still scores exactly as before — or, where the input was a valid write (a
deal, a rename, a switch of rules), the game is still a valid game whose stored figures are the
engine's. ``make test`` runs this on SQLite and on PostgreSQL (where a NUL in text is refused).

Inputs mix odd text (NUL, control characters, Unicode digits, 5,000-digit numbers, markup) with
what the forms expect, so the fuzzer also gets past the first checks into the services."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import profiles
from scorekeeper.table.models import Change, Device, Game, Link, Player, Role, Table
from scorekeeper.table.phones import services as phone_services
from scorekeeper.table.scoring import engine
from tests.app_data import GIN_BIG, GIN_KNOCK, OK_BIG, OK_SMALL, gin_record_deal, ok_record_deal
from tests.conftest import NAMES, as_phone, new_game

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "30"))  # a deeper run: FUZZ_EXAMPLES=500
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

ODD = [
    "",
    " ",
    "0",
    "1",
    "2",
    "3",
    "-1",
    "²",
    "①",
    "٣",
    "１",
    "9" * 5000,
    "1e309",
    "NaN",
    "\x00",
    "a\x00b",
    "\x07",
    "\u200b",
    "\ud7ff",
    "<script>alert(1)</script>",
    "'; DROP TABLE table_deal; --",
    "%00",
    "null",
    "[]",
    "{}",
    "true",
    "on",
    "stock",
    "void",
    "save",
    "preview",
    "more",
    "QS",
    "10H",
    "JK",
    "2C=7H",
    "QS QH QD",
    "3C 4C 5C",
    "9C 10C JC",
    "x" * 300,
    "Ann",
    "ann",
    "Ａnn",
    "Émile",
    *profiles.GAMES,
    *(p for g in profiles.GAMES for p in profiles.PROFILES[g]),
]
TEXT = st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=40)
VALUE = st.one_of(st.sampled_from(ODD), TEXT, st.integers(min_value=-(10**12), max_value=10**12).map(str))
VALUES = st.one_of(VALUE, st.lists(VALUE, min_size=2, max_size=3))  # a field posted twice


def form_of(names: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """A form: some of the fields it expects (and a few it does not), each with odd or right values."""
    return st.dictionaries(st.one_of(st.sampled_from(names), TEXT), VALUES, max_size=len(names) + 3)


# JSON values for imports and the checker: anything JSON holds, and huge numbers.
JSON = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=False, allow_infinity=False),
        TEXT,
        st.sampled_from(ODD),
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)),
    max_leaves=12,
)


@dataclass
class World:
    table: Table
    client: Client  # the scoring phone
    follower: Client
    stranger: Client
    games: list[Game]
    link: Link


@pytest.fixture
def world(table, scorer) -> World:
    follower = Device.objects.create(table=table, name="Ben's phone", role=Role.FOLLOW)
    games = [
        new_game(
            table,
            kind="oklahoma",
            profile="book",
            first_dealer=0,
            deals=[ok_record_deal(d, NAMES) for d in (OK_BIG, OK_SMALL)],
        ),
        new_game(
            table,
            kind="oklahoma-gin",
            profile="standard",
            players=["Ann", "Dora"],
            deals=[gin_record_deal(d, ["Ann", "Dora"]) for d in (GIN_KNOCK, GIN_BIG)],
        ),
        new_game(table, kind="oklahoma", profile="laws", players=["Eve", "Finn"], deals=[]),
    ]
    return World(
        table=table,
        client=as_phone(Client(), scorer),
        follower=as_phone(Client(), follower),
        stranger=Client(),
        games=games,
        link=phone_services.create_link(table=table, role=Role.FOLLOW, by=scorer),
    )


class EngineFailures(logging.Handler):
    """Errors logged while a request ran: the engine failing inside, or Django's 500."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def failures() -> Iterator[EngineFailures]:
    handler = EngineFailures()
    loggers = [logging.getLogger(name) for name in ("scorekeeper", "django.request")]
    for logger in loggers:
        logger.addHandler(handler)
    yield handler
    for logger in loggers:
        logger.removeHandler(handler)


def scores() -> dict[int, tuple[int, Any]]:
    """Every game's version and its result scored afresh from what is stored (not the cache)."""
    out = {}
    for game in Game.objects.prefetch_related("seats__player"):
        shown: Any
        try:
            result: Any = engine.score(engine.game_record(game))
            shown = [[d.totals[n] for n in result.players] for d in result.deals], result.state, result.winner
        except Exception as exc:  # recorded, compared below
            shown = ("invalid", str(exc))
        out[game.pk] = (game.version, shown)
    return out


def check(world: World, before: dict[int, tuple[int, Any]], failures: EngineFailures, response: Any) -> None:
    assert response.status_code < 500, response.content[:500]
    assert not failures.records, [r.getMessage() for r in failures.records]
    after = scores()
    for pk, (version, result) in before.items():
        assert pk in after, f"game {pk} is gone"
        now_version, now = after[pk]
        if now_version == version:
            assert now == result, f"game {pk} scores differently, yet no write says so"
        else:  # a valid write went through: the game is still valid, its stored figures the engine's
            assert now[0] != "invalid", now
            game = Game.objects.prefetch_related("seats__player").get(pk=pk)
            rows = list(game.deals.order_by("number"))
            assert [d.number for d in rows] == list(range(1, len(rows) + 1))
            assert [s.total for s in game.seated()] == (now[0][-1] if now[0] else [0] * len(game.seated()))


def post(client: Client, url: str, data: dict[str, Any], htmx: bool) -> Any:
    return client.post(url, data, headers={"HX-Request": "true"} if htmx else {})


# ------------------------------------------------------------------------------- new game

NEW_GAME = ["game", "profile", "submission", "first_dealer", "target"] + [f"seat_{i}" for i in range(6)]
NEW_GAME += [f"opt_{k.name}" for g in profiles.GAMES for k in profiles.knobs(g)]


@FUZZ
@given(data=form_of(NEW_GAME), query=form_of(["game"]), htmx=st.booleans(), who=st.sampled_from([0, 1, 2]))
def test_new_game_form(world, failures, data, query, htmx, who):
    before = scores()
    client = [world.client, world.follower, world.stranger][who]
    r = client.get("/games/new/", query)
    assert r.status_code < 500
    r = post(client, "/games/new/", data, htmx)
    check(world, before, failures, r)


# ------------------------------------------------------------------------------- deal form

DEAL = ["action", "out", "knocker", "upcard", "first_turn", "concealed", "number", "version", "submission"]
DEAL += [f"p-{i}-{part}" for i in range(4) for part in ("melded", "melds", "held", "deadwood", "cards", "big_gin")]


@FUZZ
@given(
    data=form_of(DEAL),
    game=st.integers(0, 2),
    which=st.sampled_from(["new", "edit", "delete"]),
    htmx=st.booleans(),
    follower=st.booleans(),
)
def test_deal_forms(world, failures, data, game, which, htmx, follower):
    before = scores()
    g = world.games[game]
    deal = g.deals.order_by("number").first()
    url = f"/games/{g.pk}/deals/new/" if which == "new" or deal is None else f"/games/{g.pk}/deals/{deal.pk}/{which}/"
    client = world.follower if follower else world.client
    assert client.get(url).status_code < 500
    r = post(client, url, data, htmx)
    check(world, before, failures, r)


@FUZZ
@given(data=form_of(DEAL), game=st.integers(0, 2))
def test_live_check(world, failures, data, game):
    """The deal form's live check: its preview, as htmx sends it while the cards are typed."""
    before = scores()
    g = world.games[game]
    data = {**data, "action": "preview"}
    r = world.client.post(f"/games/{g.pk}/deals/new/", data, headers={"HX-Request": "true"})
    check(world, before, failures, r)


# --------------------------------------------------------------------------------- checker

CHECKER = ["kind", "game", "profile", "cards", "upcard", "spread", "other", "deal"]


@FUZZ
@given(data=form_of(CHECKER), deal=JSON, post_it=st.booleans(), htmx=st.booleans())
def test_checker(world, failures, data, deal, post_it, htmx):
    before = scores()
    if "deal" not in data:
        data["deal"] = json.dumps(deal)
    headers = {"HX-Request": "true"} if htmx else {}
    r = (world.stranger.post if post_it else world.stranger.get)("/check/", data, headers=headers)
    check(world, before, failures, r)


# --------------------------------------------------------------------------------- rescore

RESCORE = ["profile", "deal", "submission"] + [f"o_{k.name}" for g in profiles.GAMES for k in profiles.knobs(g)]


@FUZZ
@given(data=form_of(RESCORE), game=st.integers(0, 2), post_it=st.booleans(), htmx=st.booleans())
def test_rescore_and_switch_rules(world, failures, data, game, post_it, htmx):
    before = scores()
    url = f"/history/{world.games[game].pk}/rescore/"
    headers = {"HX-Request": "true"} if htmx else {}
    r = (world.client.post if post_it else world.client.get)(url, data, headers=headers)
    check(world, before, failures, r)


# ------------------------------------------------------------------------- players, undo


@FUZZ
@given(name=VALUES, into=VALUES, who=st.sampled_from(["Ann", "Ben", "Dora", "Eve"]), follower=st.booleans())
def test_rename_and_merge(world, failures, name, into, who, follower):
    before = scores()
    player = Player.objects.filter(table=world.table).order_by("pk")[["Ann", "Ben", "Dora", "Eve"].index(who)]
    client = world.follower if follower else world.client
    r = client.post(f"/players/{player.pk}/rename/", {"name": name})
    check(world, before, failures, r)
    before = scores()
    r = client.post(f"/players/{player.pk}/merge/", {"into": into})
    check(world, before, failures, r)


@FUZZ
@given(
    change=st.integers(0, 40),
    token=VALUE,
    game=st.integers(0, 2),
    query=form_of(["deal", "player", "game", "state", "page"]),
    page=st.sampled_from(["changes/", "", "export.csv", "export.json"]),
)
def test_undo_and_history_pages(world, failures, change, token, game, query, page):
    before = scores()
    g = world.games[game]
    ids = list(Change.objects.order_by("id").values_list("id", flat=True))
    change_id = ids[change % len(ids)] if change < 30 and ids else change + 10_000
    r = world.client.post(f"/history/{g.pk}/changes/{change_id}/undo/", {"submission": token})
    check(world, before, failures, r)
    url = f"/history/{g.pk}/{page}" if page == "changes/" else f"/history/{page}"
    assert world.client.get(url, query).status_code < 500


# ---------------------------------------------------------------------------------- import


def records(world: World) -> st.SearchStrategy[Any]:
    """Valid records with one place changed to any JSON value, and JSON that is no record at all."""
    base = [engine.game_record(g) for g in world.games]

    def mutate(rec: dict, path: list[int], value: Any) -> Any:
        rec = json.loads(json.dumps(rec))
        node: Any = rec
        for step in path[:-1]:
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            if not keys:
                break
            child = node[keys[step % len(keys)]]
            if not isinstance(child, (dict, list)) or not child:
                break
            node = child
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if keys:
            node[keys[path[-1] % len(keys)]] = value
        return rec

    mutated = st.builds(mutate, st.sampled_from(base), st.lists(st.integers(0, 50), min_size=1, max_size=6), JSON)
    return st.one_of(mutated, st.sampled_from(base), JSON, st.lists(mutated, min_size=1, max_size=3))


@FUZZ
@given(data=st.data(), as_file=st.booleans(), huge=st.booleans())
def test_import(world, failures, data, as_file, huge):
    before = scores()
    text = json.dumps(data.draw(records(world)))
    if huge:
        text = text.replace("1", "1" * 4400, 1)
    payload = {"file": SimpleUploadedFile("games.json", text.encode())} if as_file else {"text": text}
    r = world.client.post("/history/import/", payload)
    check(world, before, failures, r)


# ----------------------------------------------------------------------- the table page

TABLE_FORMS = ["name/", "links/", "links/{link}/renew/", "links/{link}/revoke/", "phones/name/"]
TABLE_FORMS += ["phones/{phone}/role/", "phones/{phone}/revoke/"]


@FUZZ
@given(
    form=st.sampled_from(TABLE_FORMS),
    data=form_of(["name", "role"]),
    phone=st.sampled_from(["follower", "other", "unknown"]),
    follower=st.booleans(),
)
def test_table_page_forms(world, failures, form, data, phone, follower):
    """(Never the scoring phone itself: taking its own access away would end the fuzzing.)"""
    before = scores()
    devices = {
        "follower": Device.objects.filter(table=world.table, role=Role.FOLLOW).order_by("pk").first(),
        "other": Device.objects.filter(table=world.table).order_by("-pk").first(),
    }
    device = devices.get(phone)
    scorer = Device.objects.filter(table=world.table, role=Role.SCORE).order_by("pk").first()
    device_id = device.pk if device is not None and device != scorer else 999_999
    link = Link.objects.filter(table=world.table).order_by("-pk").first()
    url = f"/tables/{world.table.pk}/" + form.format(link=link.pk if link else 999_999, phone=device_id)
    r = (world.follower if follower else world.client).post(url, data)
    check(world, before, failures, r)
    assert world.client.get(f"/tables/{world.table.pk}/").status_code < 500


# ------------------------------------------------------------------------- join, admin


@FUZZ
@given(name=VALUES, token=VALUE, valid=st.booleans(), post_it=st.booleans())
def test_join(world, failures, name, token, valid, post_it):
    before = scores()
    url = f"/join/{world.link.token if valid else token.replace('/', '')[:200] or 'x'}/"
    phone = Client()
    r = phone.post(url, {"name": name}) if post_it else phone.get(url)
    check(world, before, failures, r)


@settings(FUZZ, max_examples=max(EXAMPLES // 3, 1))  # each login attempt runs the password hasher on purpose: slow
@given(username=VALUES, password=VALUES, post_it=st.booleans())
def test_admin_login(world, failures, username, password, post_it):
    before = scores()
    phone = Client()
    data = {"username": username, "password": password, "next": "/admin/"}
    r = phone.post("/admin/login/", data) if post_it else phone.get("/admin/login/", {"next": username})
    check(world, before, failures, r)
