"""manage.py export_games / import_games: round trip, CSV, invalid files save nothing."""

import csv
import io
import json
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scorekeeper.rules.record import result_json
from scorekeeper.table.models import Deal, Game, Player
from scorekeeper.table.scoring import engine
from tests.app_data import GIN_BIG, GIN_KNOCK, OK_BIG, OK_SMALL, gin_record_deal, ok_record_deal
from tests.conftest import new_game

pytestmark = pytest.mark.django_db
TABLE: Any = None  # the test's table (set by the_table)


@pytest.fixture(autouse=True)
def the_table(table):
    global TABLE
    TABLE = table


def make_games():
    names = ["Ann", "Ben", "Cleo"]
    ok = new_game(
        TABLE,
        kind="oklahoma",
        profile="laws",
        options={"target": 2000},
        players=names,
        first_dealer=2,
        deals=[ok_record_deal(d, names) for d in (OK_BIG, OK_SMALL, OK_BIG)],
    )
    gin = new_game(
        TABLE,
        kind="oklahoma-gin",
        profile="classic",
        players=["Ann", "Ben"],
        deals=[gin_record_deal(d, ["Ann", "Ben"]) for d in (GIN_KNOCK, GIN_BIG)],
    )
    return ok, gin


def run(*args, stdin=None):
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_export_import_round_trip(tmp_path):
    ok, gin = make_games()
    before = [result_json(engine.game_result(g)) for g in (ok, gin)]
    path = tmp_path / "games.json"
    run("export_games", "-o", str(path))
    records = json.loads(path.read_text())
    assert len(records) == 2 and records[0]["first_dealer"] == "Cleo"
    Game.objects.all().delete()
    Player.objects.all().delete()
    out = json.loads(run("import_games", str(path)))
    games = [Game.objects.get(pk=i) for i in out["imported"]]
    assert [result_json(engine.game_result(g)) for g in games] == before
    assert json.loads(run("export_games")) == records


def test_export_one_game_is_one_record_and_csv():
    ok, _ = make_games()
    rec = json.loads(run("export_games", "--game", str(ok.pk)))
    assert rec == engine.game_record(ok)
    rows = list(csv.DictReader(io.StringIO(run("export_games", "--csv", "--player", "Cleo"))))
    assert len(rows) == 3 * 3 and {(r["game"], r["game_code"]) for r in rows} == {("Oklahoma", "oklahoma")}
    with pytest.raises(CommandError):
        run("export_games", "--game", "999999")


def test_import_invalid_saves_nothing(tmp_path, capsys):
    ok, _ = make_games()
    rec = engine.game_record(ok)
    Game.objects.all().delete()
    Player.objects.all().delete()
    rec["deals"][2]["hands"]["Ben"]["held"] = ["XX"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps([services_record_copy(rec, ok=True), rec]))
    out = io.StringIO()
    with pytest.raises(SystemExit) as exc:
        call_command("import_games", str(path), stdout=out)
    assert exc.value.code == 1
    errors = json.loads(out.getvalue())["errors"]
    assert errors[0]["record"] == 2 and errors[0]["errors"][0]["deal"] == 3
    assert "XX" in json.dumps(errors)
    assert Game.objects.count() == 0 and Deal.objects.count() == 0 and Player.objects.count() == 0


def services_record_copy(rec, ok):
    good = json.loads(json.dumps(rec))
    good["deals"] = good["deals"][:2]
    return good


def test_import_unreadable_file():
    with pytest.raises(CommandError):
        run("import_games", "/nonexistent/file.json")
