"""Every form answers a write the database refuses — a full disk, a read-only file or server — with
503 and what was typed, never a 500 (issue 37, defect 8): our page, which shows the typed text and
sends the same form again (``recovery.RefusedWrites``), or the form itself with the cards kept (the
deal forms, ``table.entry.flow``); the phone alone's hand-over is told in JSON. ``make test`` runs
this on SQLite and on PostgreSQL; the database refuses writes as tests/faults.py makes it."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils.html import escape

from scorekeeper.table.hands import services as hand_services
from scorekeeper.table.models import Change, Device, Game, Player, Role, Table
from scorekeeper.table.phones import services as phone_services
from scorekeeper.table.scoring.engine import game_record
from tests.app_data import OK_BIG, OK_SMALL, ok_post, ok_record_deal
from tests.conftest import NAMES, as_phone, new_game
from tests.faults import FULL, READ_ONLY, refusing_writes
from tests.table.test_own_hands import ANN, BEN, CLEO, hand_post

pytestmark = pytest.mark.django_db


@dataclass
class AtTable:
    """A table as the forms meet it: its scorer's and a follower's phones, a stranger, a game of two
    deals with a deal open (Ann's hand in, the scorer at her seat), a link to follow."""

    table: Table
    scorer: Client
    follower: Client
    stranger: Client
    game: Game
    link: str


@pytest.fixture
def at(table: Table, scorer: Device, follower: Device) -> AtTable:
    game = new_game(table, deals=[ok_record_deal(d, NAMES) for d in (OK_BIG, OK_SMALL)], options={"target": 10000})
    phone_services.sit(game=game, position=0, phone=scorer, by=scorer)
    hand_services.open_deal(game=game, by=scorer)
    hand_services.submit_hand(game=game, seat=0, hand=ANN, by=scorer)
    link = phone_services.create_link(table=table, role="follow", by=scorer)
    scoring, following, stranger = as_phone(Client(), scorer), as_phone(Client(), follower), Client()
    for phone in (scoring, following, stranger):
        phone.get("/")  # the CSRF cookie, as a browser has it after its first page
    return AtTable(table, scoring, following, stranger, game=Game.objects.get(pk=game.pk), link=str(link.token))


Form = Callable[[AtTable], tuple[Client, str, Any, list[str]]]  # the phone, where, what it posts, what it typed


def _new_game(client: Client) -> tuple[Client, str, Any, list[str]]:
    players = {"seat_0": "Ann", "seat_1": "Ben", "seat_2": "Dora Übermut"}
    data = {"game": "oklahoma", "profile": "book", "first_dealer": "0", "submission": "n" * 24, **players}
    return client, "/games/new/", data, ["Dora Übermut"]


def _hand(t: AtTable) -> tuple[Client, str, Any, list[str]]:
    url = f"/games/{t.game.pk}/open/hands/1/"
    page = t.scorer.get(url).content.decode()
    return t.scorer, url, hand_post(page, {"p-1-melded": "KH KD KC", "p-1-held": "9C QS"}), ["KH KD KC", "9C QS"]


def _open_save(t: AtTable) -> tuple[Client, str, Any, list[str]]:
    """The open deal complete (every hand in, who went out given): the scorer's one tap saves it."""
    facts = {"out": 0, "first_turn": False, "concealed": False, "late_misdeal": False}
    scorer = t.table.devices.get(role=Role.SCORE)
    for seat, hand in ((1, BEN), (2, CLEO)):
        hand_services.submit_hand(game=t.game, seat=seat, hand=hand, by=scorer, facts=facts if seat == 1 else None)
    return t.scorer, f"/games/{t.game.pk}/open/save/", {"submission": "s" * 24}, []


def _merge(t: AtTable) -> tuple[Client, str, Any, list[str]]:
    """Dora, who never played with Cleo, merged into her."""
    new_game(t.table, players=["Dora", "Ed"], kind="oklahoma-gin", profile="standard")
    dora, cleo = (Player.objects.get(table=t.table, name=n) for n in ("Dora", "Cleo"))
    return t.scorer, f"/players/{dora.pk}/merge/", {"into": str(cleo.pk)}, []


def _deal(t: AtTable) -> Any:
    return t.game.deals.get(number=2)


def _change(t: AtTable) -> Change:
    return t.game.changes.order_by("-pk").first()  # type: ignore[return-value]


def _player(t: AtTable) -> Player:
    return Player.objects.get(table=t.table, name="Ann")


FORMS: dict[str, Form] = {
    "new game": lambda t: _new_game(t.scorer),
    "new table": lambda t: _new_game(t.stranger),
    "join": lambda t: (t.stranger, f"/join/{t.link}/", {"name": "Dora's phone"}, ["Dora&#x27;s phone"]),
    "link": lambda t: (t.scorer, f"/tables/{t.table.pk}/links/", {"role": "score"}, []),
    "link renewed": lambda t: (t.scorer, f"/tables/{t.table.pk}/links/{t.table.links.get().pk}/renew/", {}, []),
    "table rename": lambda t: (t.scorer, f"/tables/{t.table.pk}/name/", {"name": "Thursdays"}, ["Thursdays"]),
    "phone rename": lambda t: (t.scorer, f"/tables/{t.table.pk}/phones/name/", {"name": "Ann's"}, ["Ann&#x27;s"]),
    "phone role": lambda t: (
        t.scorer,
        f"/tables/{t.table.pk}/phones/{t.table.devices.get(role=Role.FOLLOW).pk}/role/",
        {"role": "score"},
        [],
    ),
    "table settings": lambda t: (t.scorer, f"/tables/{t.table.pk}/settings/", {"save_when_complete": "on"}, []),
    "seat": lambda t: (t.follower, f"/games/{t.game.pk}/seats/", {"seat": "1"}, []),
    "hand": _hand,
    "open deal saved": _open_save,
    "open deal closed": lambda t: (t.scorer, f"/games/{t.game.pk}/open/close/", {}, []),
    "deal": lambda t: (t.scorer, f"/games/{t.game.pk}/deals/new/", ok_post(OK_SMALL), ["4S 4H"]),
    "delete": lambda t: (
        t.scorer,
        f"/games/{t.game.pk}/deals/{_deal(t).pk}/delete/",
        {"version": str(_deal(t).version), "submission": "d" * 24},
        [],
    ),
    "undo": lambda t: (
        t.scorer,
        f"/history/{t.game.pk}/changes/{_change(t).pk}/undo/",
        {"submission": "u" * 24},
        [],
    ),
    "rules switch": lambda t: (
        t.scorer,
        f"/history/{t.game.pk}/rescore/",
        {"profile": "laws", "submission": "r" * 24},
        [],
    ),
    "import": lambda t: (
        t.scorer,
        "/history/import/",
        {"text": json.dumps(game_record(t.game))},
        ["&quot;oklahoma-scorekeeper/1&quot;"],
    ),
    "player rename": lambda t: (t.scorer, f"/players/{_player(t).pk}/rename/", {"name": "Annabel"}, ["Annabel"]),
    "player merge": _merge,
}


@pytest.mark.parametrize("error", [FULL, READ_ONLY])
@pytest.mark.parametrize("form", FORMS)
def test_every_form_answers_503_with_what_was_typed(at: AtTable, form: str, error: str) -> None:
    phone, url, data, typed = FORMS[form](at)
    with refusing_writes(error) as refused:
        answer = phone.post(url, data)
    page = answer.content.decode()
    assert refused, f"{form}: nothing tried to write"
    assert answer.status_code == 503, (form, answer.status_code, page[-2000:])
    assert re.search(r"could not (save this|write the deal)", page), form
    for text in typed:
        assert text in page, (form, text)
    if "Not saved" in page:  # our page: the whole form again, as sent
        for name, value in data.items():
            assert f'name="{name}"' in page, (form, name)
            assert f'value="{escape(value)}"' in page, (form, name)


def test_the_phone_alone_s_hand_over_answers_503_in_json(client: Client) -> None:
    record = {"format": "oklahoma-scorekeeper/1", "game": "oklahoma", "rules": {"profile": "book"}}
    record |= {"players": NAMES, "first_dealer": "Ann", "deals": []}
    sent = {"key": "k3y-made-by-the-phone-0002", "record": record}
    with refusing_writes(FULL):
        answer = client.post("/alone/hand-over/", sent, content_type="application/json")
    assert answer.status_code == 503 and "could not save this" in answer.json()["errors"][0]["message"]


@pytest.mark.parametrize("error", [FULL, READ_ONLY])
def test_previews_answer_on_a_database_that_takes_no_writes(at: AtTable, error: str) -> None:
    """A hand's live preview marks its seat as being typed: that mark is left out, the preview
    answers; the deal form's preview and the checker write nothing."""
    phone, url, data, _ = _hand(at)
    live = {"HX-Request": "true"}
    with refusing_writes(error) as refused:
        hand = phone.post(url, {**data, "action": "preview"}, headers=live)
        deal = at.scorer.post(f"/games/{at.game.pk}/deals/new/", ok_post(OK_SMALL, "preview"), headers=live)
        check = at.stranger.post("/check/", {"kind": "meld", "cards": "QS QH 2C=QD", "profile": "book"})
    assert [hand.status_code, deal.status_code, check.status_code] == [200, 200, 200]
    assert refused  # the hand's mark was tried, and left out


def test_an_imported_file_is_named_to_choose_again(at: AtTable) -> None:
    """A browser cannot fill a file field in again: the page names the file."""
    upload = SimpleUploadedFile("thursday.json", json.dumps(game_record(at.game)).encode(), "application/json")
    with refusing_writes(FULL):
        answer = at.scorer.post("/history/import/", {"file": upload})
    assert answer.status_code == 503
    assert "The file thursday.json was not kept: choose it again." in answer.content.decode()


def test_the_page_keeps_no_password_and_no_cache_keeps_it(client: Client, table: Table) -> None:
    with refusing_writes(FULL):
        answer = client.post(f"/tables/{table.pk}/name/", {"name": "Thursdays", "password": "s3cret!"})
    assert answer.status_code == 503 and "Thursdays" in answer.content.decode()
    assert "s3cret!" not in answer.content.decode() and "no-store" in answer["Cache-Control"]
