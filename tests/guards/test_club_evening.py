"""The limits never lock out a club, and still stop one client starting table after table (issue 37,
defect 9), through the real forms, on the limits' own counts (the database cache), in one window
(the worst case: an evening's posts all in the same hour).

- An evening of 25 tables behind one address: at each, a phone starts the table (after a switch to
  the other game and back and a form refused), three phones join (one by a link to score, two to
  follow; one typed no name first), the two scoring phones start two more games (one refused
  form each), the table saves 30 deals (a refused entry every tenth) and the followers watch:
  not one 429.
- One client starting 300 tables in a row without its cookie: its address's ceiling stops it; with
  its cookie (a phone starting game after game), the phone's own limit does."""

from __future__ import annotations

import re
import types
from collections import Counter
from typing import Any

import pytest
from django.test import Client

from scorekeeper.guards import limits
from scorekeeper.table.models import Game, Table
from tests.phones import deal_fields, form_fields

pytestmark = pytest.mark.django_db

CLUB = "203.0.113.50"
PLAYERS = {"seat_0": "Ann", "seat_1": "Ben", "seat_2": "Cleo", "first_dealer": "0"}
TABLES, DEALS = 25, 30


@pytest.fixture(autouse=True)
def _one_window(monkeypatch):
    """Every post in one window of the limits (a run that crossed an hour would count afresh)."""
    monkeypatch.setattr(limits, "time", types.SimpleNamespace(time=lambda: 1_800_000_000.0))


class Evening:
    """Every answer the club's phones got, by status."""

    def __init__(self) -> None:
        self.answers: Counter[int] = Counter()

    def phone(self, address: str = CLUB) -> Client:
        return Client(REMOTE_ADDR=address)

    def get(self, phone: Client, path: str) -> Any:
        response = phone.get(path)
        self.answers[response.status_code] += 1
        return response

    def post(self, phone: Client, path: str, data: dict[str, str]) -> Any:
        response = phone.post(path, data)
        self.answers[response.status_code] += 1
        return response

    def new_game(self, phone: Client, *, refused_first: bool, switch: bool = False) -> int:
        """The phone starts a game of Oklahoma (book rules) through the form; its id."""
        form = form_fields(self.get(phone, "/games/new/").content.decode(), "/games/new/")
        if switch:  # to Oklahoma Gin and back, the names typed kept
            self.post(phone, "/games/new/", {**form, **PLAYERS, "switch": "gin"})
            self.post(phone, "/games/new/", {**form, **PLAYERS, "switch": "oklahoma"})
        if refused_first:
            assert self.post(phone, "/games/new/", {**form, **PLAYERS, "seat_1": "Ann"}).status_code == 400
        started = self.post(phone, "/games/new/", {**form, **PLAYERS, "game": "oklahoma", "profile": "book"})
        assert started.status_code == 302, started.status_code
        return int(re.fullmatch(r"/games/(\d+)/", started["Location"])[1])  # type: ignore[index]

    def link(self, scorer: Client, table: int, role: str) -> str:
        """A new link of the table (its address), as its page shows it to the scorer."""
        before = set(re.findall(r"/join/[\w-]+/", self.get(scorer, f"/tables/{table}/").content.decode()))
        assert self.post(scorer, f"/tables/{table}/links/", {"role": role}).status_code == 302
        after = set(re.findall(r"/join/[\w-]+/", self.get(scorer, f"/tables/{table}/").content.decode()))
        (made,) = after - before
        return made

    def join(self, link: str, name: str, *, refused_first: bool = False) -> Client:
        phone = self.phone()
        self.get(phone, link)
        if refused_first:
            assert self.post(phone, link, {"name": ""}).status_code == 400
        assert self.post(phone, link, {"name": name}).status_code == 302
        return phone

    def deals(self, scorer: Client, game: int, count: int, first_tag: int) -> None:
        path = f"/games/{game}/deals/new/"
        for i in range(count):
            form = form_fields(self.get(scorer, path).content.decode(), path)
            if i % 10 == 0:  # cards that are no cards: refused, the form shown again
                bad = {**form, **deal_fields(first_tag + i), "p-2-held": "QX", "action": "save"}
                assert self.post(scorer, path, bad).status_code == 400
            saved = self.post(scorer, path, {**form, **deal_fields(first_tag + i), "action": "save"})
            assert saved.status_code == 302, saved.content.decode()[-2000:]

    def table(self, k: int) -> None:
        founder = self.phone()
        first = self.new_game(founder, refused_first=True, switch=True)
        table = Game.objects.get(pk=first).table_id
        follow = self.link(founder, table, "follow")
        second = self.join(self.link(founder, table, "score"), f"Table {k}: Ben's phone", refused_first=k % 2 == 0)
        followers = [self.join(follow, f"Table {k}: phone {n}") for n in (3, 4)]
        per_game = DEALS // 3
        self.deals(founder, first, per_game, first_tag=0)
        for scorer, tags in ((second, per_game), (founder, 2 * per_game)):
            game = self.new_game(scorer, refused_first=True)
            assert Game.objects.get(pk=game).table_id == table  # a game of the table, not a new one
            self.deals(scorer, game, per_game, first_tag=tags)
            for follower in followers:
                assert self.get(follower, f"/games/{game}/").status_code == 200


def test_an_evening_of_25_tables_behind_one_address_meets_no_limit():
    evening = Evening()
    for k in range(TABLES):
        evening.table(k)
    print(f"{TABLES} tables behind one address: {dict(sorted(evening.answers.items()))}")
    assert evening.answers[429] == 0
    assert Table.objects.count() == TABLES and Game.objects.count() == 3 * TABLES
    # Refused: three new-game forms and three entries a table, and every other table's first join.
    assert evening.answers[400] == TABLES * 6 + (TABLES + 1) // 2


def test_one_client_starting_300_tables_meets_its_address_s_ceiling():
    """No cookie kept: every post a new table, counted by the address only."""
    evening = Evening()
    statuses = []
    for _ in range(300):
        phone = evening.phone("198.51.100.20")  # a fresh client each time: the cookie dropped
        form = form_fields(phone.get("/games/new/").content.decode(), "/games/new/")
        statuses.append(phone.post("/games/new/", {**form, **PLAYERS, "game": "oklahoma"}).status_code)
    print(f"one client, 300 tables: {dict(Counter(statuses))}")
    assert statuses == [302] * limits.TABLES.address + [429] * (300 - limits.TABLES.address)
    assert Table.objects.count() == limits.TABLES.address
    refused = Client(REMOTE_ADDR="198.51.100.20").post("/games/new/", {**PLAYERS, "game": "oklahoma"})
    assert "from this address" in refused.content.decode()
    # The club behind another address starts its tables as usual.
    Evening().new_game(Client(REMOTE_ADDR=CLUB), refused_first=False)


def test_one_phone_starting_game_after_game_meets_its_own_limit():
    """The phone keeps its cookie (given by its first game, which started its table): its games go to
    its table, and its own limit stops it long before its address's ceiling; another phone behind
    the same address goes on."""
    evening = Evening()
    phone = evening.phone()
    statuses = []
    for _ in range(1 + limits.TABLES.phone + 5):
        form = form_fields(phone.get("/games/new/").content.decode(), "/games/new/")
        statuses.append(phone.post("/games/new/", {**form, **PLAYERS, "game": "oklahoma"}).status_code)
    assert statuses == [302] * (1 + limits.TABLES.phone) + [429] * 5
    assert Table.objects.count() == 1
    assert "from this phone" in phone.post("/games/new/", {**PLAYERS, "game": "oklahoma"}).content.decode()
    evening.new_game(evening.phone(), refused_first=False)
