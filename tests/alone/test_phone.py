"""The phone alone's Python side (scorekeeper/alone/phone.py, run by Pyodide in the browser) and what is
built for it: here in CPython, it answers as the server does."""

from __future__ import annotations

import json
import random
import zipfile

import pytest

from scorekeeper.alone import assets, phone
from scorekeeper.rules import messages
from scorekeeper.rules.messages import ENGLISH
from scorekeeper.table.entry.cards import CardListField
from scorekeeper.table.entry.checks import check_field as server_check
from scorekeeper.table.entry.forms import GinHandForm, OklahomaHandForm
from tests.rules import oklahoma_random

OKLAHOMA = json.dumps({"game": "oklahoma", "rules": {"profile": "book"}, "players": ["Ann", "Ben", "Cleo"]})


@pytest.fixture(autouse=True)
def english():
    before = messages.in_force()
    yield
    messages.use_translator(before)


def test_the_engine_zip_holds_the_engine_its_catalog_and_the_worker_side_only():
    with zipfile.ZipFile(assets.engine_zip()) as zf:
        names = set(zf.namelist())
    assert "scorekeeper/rules/games.py" in names and "scorekeeper/alone/phone.py" in names
    assert assets.CATALOG in names
    assert not any(n.startswith(("scorekeeper/table", "scorekeeper/history")) for n in names)
    assert assets.engine_bytes() == assets.engine_bytes()  # the same checkout, the same bytes


def test_pyodide_is_unpacked_only_from_the_pinned_tarball(tmp_path):
    with pytest.raises(assets.IntegrityError):
        assets.unpack_pyodide(b"not the package", tmp_path)
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("melded", "QS QH 2C QS 4S 5S 6S"),
        ("melded", "KS KH"),
        ("melds", "QS QH 2C / 4S 5D"),
        ("held", "8H XX 2C=7H"),
    ],
)
def test_a_field_is_checked_as_the_table_form_checks_it(name, text):
    from scorekeeper.rules.profiles import resolve

    rules = resolve("oklahoma", "book")
    field = OklahomaHandForm.base_fields[name]
    ours = json.loads(phone.check(OKLAHOMA, name, text))
    assert isinstance(field, CardListField)
    theirs = server_check(field, name, text, rules).as_json()
    assert ours == theirs


def test_a_gin_field_too():
    from scorekeeper.rules.profiles import resolve

    header = json.dumps({"game": "oklahoma-gin", "rules": {"profile": "standard"}, "players": ["Ann", "Ben"]})
    field = GinHandForm.base_fields["melds"]
    assert isinstance(field, CardListField)
    theirs = server_check(field, "melds", "AS 2S 3S / KD", resolve("oklahoma-gin", "standard"))
    assert json.loads(phone.check(header, "melds", "AS 2S 3S / KD")) == theirs.as_json()


def test_a_game_played_deal_by_deal_is_the_record_scored_whole():
    record = json.loads(OKLAHOMA) | {"format": "oklahoma-scorekeeper/1"}
    deals = oklahoma_random.game(random.Random(7), ("Ann", "Ben", "Cleo"), 5)
    for n in range(1, 6):
        played = json.loads(phone.play("g", json.dumps(record | {"deals": deals[:n]})))
        whole = json.loads(phone.score(json.dumps(record | {"deals": deals[:n]})))
        assert played["result"]["totals"] == whole["totals"] and len(played["result"]["deals"]) == n


def test_the_deal_form_reads_as_a_record_deal_or_says_what_does_not_read():
    said = json.dumps(
        {"no out": "who went out?", "melds differ": "{problems}", "not melded": "{cards}", "missing": "{cards}"}
    )
    deal = json.loads(
        phone.deal_of(OKLAHOMA, json.dumps({"out": "0", "p-0-melded": "QS QH QD", "p-1-held": "5S"}), said)
    )
    assert deal == {
        "deal": {
            "out": "Ann",
            "first_turn": False,
            "concealed": False,
            "hands": {
                "Ann": {"melded": ["QS", "QH", "QD"], "held": []},
                "Ben": {"melds": [], "held": ["5S"]},
                "Cleo": {"melds": [], "held": []},
            },
        }
    }
    refused = json.loads(phone.deal_of(OKLAHOMA, json.dumps({"p-1-held": "5X"}), said))
    assert set(refused["problems"]) == {"out", "p-1-held"}


def test_german_is_the_engines_own_catalog():
    english_meld = json.loads(phone.check(OKLAHOMA, "melds", "QS QH 2C"))  # the engine's caches hold no words
    assert english_meld["groups"][0]["verdict"] == "set Q♠ Q♥ a queen, +70"
    phone.speak("de", str(assets.BASE_DIR))
    check = json.loads(phone.check(OKLAHOMA, "held", "5S 6S"))
    assert check["note"] == "2 Karten"
    # German letters, read and said as the table's pages do (RULES.md §4): D for the queen, B for the jack
    meld = json.loads(phone.check(OKLAHOMA, "melds", "DS DH 2C"))
    assert meld["groups"][0]["verdict"] == "Satz D♠ D♥ eine Dame, +70" and meld["checked"] == "QS QH 2C"
    typo = json.loads(phone.check(OKLAHOMA, "held", "12S BX"))
    assert typo["unread"] == [
        "„12S“ ist keine Karte: Ränge sind A, 2–10, B, D, K („DS“ schreiben)",
        "„BX“ ist keine Karte: die Farbe muss S, H, D oder C sein (S = Pik, H = Herz, D = Karo, C = Kreuz)",
    ]
    messages.use_translator(ENGLISH)
    assert json.loads(phone.check(OKLAHOMA, "held", "12S"))["unread"] == [
        "'12S' is not a card: ranks are A, 2–10, J, Q, K (write 'QS')"
    ]
