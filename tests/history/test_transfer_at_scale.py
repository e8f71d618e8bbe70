"""Export and import of a history of any size: the export streams a chunk of games at a time, the
import reads its file a chunk at a time and scores every record before it writes anything (an invalid
record or a broken file anywhere saves nothing and every error is listed), then writes a batch of
games at a time, each batch in a short transaction of its own. Run here with
tiny chunks and batches, so that a small history crosses every boundary."""

from __future__ import annotations

import codecs
import csv
import io
import json
import random
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.history import imports as history_imports
from scorekeeper.history import transfer
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.messages import msg
from scorekeeper.rules.record import parse_json
from scorekeeper.table.models import Change, Deal, Game, Player, Seat, Table
from scorekeeper.table.phones import services as phone_services
from scorekeeper.table.scoring import deals as deal_services
from scorekeeper.table.scoring.store import SEAT_FIGURES
from tests.conftest import body
from tests.history.test_stats_at_scale import random_record

pytestmark = pytest.mark.django_db

GAMES = 40


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(transfer, "EXPORT_CHUNK", 6)
    monkeypatch.setattr(transfer, "CHUNK", 257)
    monkeypatch.setattr(history_imports, "IMPORT_BATCH", 7)


def history(table: Table, games: int = GAMES, seed: int = 3) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    records = [random_record(rng) for _ in range(games)]
    report = history_imports.import_records(table=table, records=records)
    assert report.ok, report.errors[:1]
    return records


def stored(games: list[Game]) -> list[Any]:
    """All that the app stores of these games, without ids or times."""
    out = []
    for g in games:
        out.append(
            (
                g.kind,
                g.profile,
                g.options,
                g.first_dealer,
                g.state,
                g.winner,
                g.version,
                g.scored_with,
                list(
                    g.seats.order_by("position").values_list(
                        "player__name",
                        "position",
                        *SEAT_FIGURES,
                    )
                ),
                list(
                    g.deals.order_by("number").values_list(
                        "number",
                        "cards",
                        "version",
                        "outcome",
                        "dealer",
                        "actor",
                        "winner",
                        "multiplier",
                        "points",
                        "totals",
                        "standing",
                    )
                ),
                list(g.changes.order_by("number").values_list("number", "action", "before", "after")),
            )
        )
    return out


def test_streamed_export_and_chunked_import_round_trip(client, table, small_chunks):
    records = history(table)
    before = stored(list(Game.objects.order_by("created", "id")))
    response = client.get("/history/export.json")
    assert response.streaming
    chunks = list(response.streaming_content)
    assert len(chunks) > GAMES  # a record at a time
    text = b"".join(chunks).decode()
    assert text == json.dumps(transfer.export_records(Game.objects.all()), ensure_ascii=False, indent=1) + "\n"
    exported = json.loads(text)
    assert [(r["players"], r["deals"]) for r in exported] == [(r["players"], r["deals"]) for r in records]
    csv_text = body(client.get("/history/export.csv")).decode()
    rows = list(csv.DictReader(io.StringIO(csv_text)))
    assert len(rows) == sum(len(r["deals"]) * len(r["players"]) for r in records)

    other = Table.objects.create(name="Elsewhere")
    report = history_imports.import_text(table=other, text=io.BytesIO(text.encode()))
    assert report.ok and len(report.games) == GAMES
    assert stored(list(Game.objects.filter(table=other).order_by("created", "id"))) == before

    Game.objects.all().delete()
    Player.objects.all().delete()
    up = SimpleUploadedFile("games.json", text.encode(), content_type="application/json")
    assert client.post("/history/import/", {"file": up}).status_code == 302
    assert stored(list(Game.objects.order_by("created", "id"))) == before
    assert set(Change.objects.values_list("by_name", flat=True)) == {"Scorer's phone"}


@pytest.mark.parametrize("by", ["device", "command line"])
def test_each_imported_deal_has_its_change_in_order(table, scorer, small_chunks, by):
    """An import writes each deal's change ("added", by whom, when, with the deal's cards), in the
    order of the games and their deals, as a save of each deal in turn would have."""
    records = [random_record(random.Random(seed)) for seed in range(9)]
    report = history_imports.import_records(table=table, records=records, by=scorer if by == "device" else by)
    assert report.ok
    deals = list(Deal.objects.order_by("game_id", "number").values_list("pk", "game_id", "number", "cards"))
    changes = list(Change.objects.order_by("pk").values_list("deal_id", "game_id", "number", "after"))
    assert changes == deals and len(deals) == sum(len(r["deals"]) for r in records)
    created = dict(Game.objects.values_list("pk", "created"))
    for change in Change.objects.all():
        assert change.action == "added" and change.before is None and change.undoes is None
        assert change.at == created[change.game_id]
        assert (change.by, change.by_name) == ((scorer, scorer.name) if by == "device" else (None, "command line"))
    game = Game.objects.order_by("pk").last()
    assert game is not None
    last = game.changes.order_by("pk").last()
    assert last is not None
    deal_services.undo(game=game, change_id=last.pk, by=scorer)  # an imported deal can be undone like a saved one
    assert list(game.deals.values_list("number", flat=True)) == list(range(1, len(records[-1]["deals"])))


def test_the_export_command_streams_the_same_text(table, small_chunks, tmp_path):
    from django.core.management import call_command

    history(table, games=15)
    path = tmp_path / "games.json"
    call_command("export_games", "-o", str(path), stderr=io.StringIO())
    assert (
        path.read_text() == json.dumps(transfer.export_records(Game.objects.all()), ensure_ascii=False, indent=1) + "\n"
    )
    out = io.StringIO()
    call_command("import_games", str(path), stdout=out)
    assert len(json.loads(out.getvalue())["imported"]) == 15


@pytest.mark.parametrize("where", [3, 20, GAMES])
def test_an_invalid_record_anywhere_saves_nothing_and_every_error_is_listed(table, small_chunks, where):
    records = history(table, seed=5)
    Game.objects.all().delete()
    Player.objects.all().delete()
    bad = json.loads(json.dumps(records))
    bad[where - 1]["players"] = ["Ann"]  # too few players
    bad[1]["deals"].append({"nonsense": True})
    text = json.dumps(bad)
    report = history_imports.import_text(table=table, text=text.encode())
    assert not report.ok and not report.games
    assert sorted(e["record"] for e in report.errors) == sorted({2, where})
    assert all(e["errors"] for e in report.errors)
    assert (Game.objects.count(), Seat.objects.count(), Deal.objects.count(), Change.objects.count()) == (0, 0, 0, 0)
    assert Player.objects.count() == 0


def test_an_import_scored_by_worker_processes_stores_the_same(table, small_chunks, monkeypatch):
    """The command line's import scores records in processes of its own: the same games, seats,
    deals and changes, in the same order, as an import scored here (small chunks: many in flight)."""
    monkeypatch.setattr(history_imports, "IMPORT_CHUNK", 3)
    records = history(table, seed=11)
    here = stored(list(Game.objects.order_by("created", "id")))
    other = Table.objects.create(name="Elsewhere")
    report = history_imports.import_records(table=other, records=iter(records), workers=2)
    assert report.ok and len(report.games) == GAMES
    assert stored(list(Game.objects.filter(table=other).order_by("created", "id"))) == here
    assert [g.pk for g in report.games] == list(
        Game.objects.filter(table=other).order_by("id").values_list("pk", flat=True)
    )


def test_worker_processes_list_the_same_errors(table, small_chunks, monkeypatch):
    monkeypatch.setattr(history_imports, "IMPORT_CHUNK", 2)
    records = history(table, seed=12)
    Game.objects.all().delete()
    Player.objects.all().delete()
    bad = json.loads(json.dumps(records))
    bad[6]["players"] = ["Ann"]
    bad[30]["deals"][4] = {"nonsense": True}
    bad[31]["players"] = ["Ann", " ann"]  # one player twice, as the app keeps names
    here = history_imports.import_text(table=table, text=json.dumps(bad))
    there = history_imports.import_text(table=table, text=json.dumps(bad), workers=2)
    assert not here.ok and there.errors == here.errors
    assert [e["record"] for e in here.errors] == [7, 31, 32]
    assert Game.objects.count() == 0 and Player.objects.count() == 0


def test_a_worker_process_killed_saves_nothing(table, small_chunks, monkeypatch):
    import os
    import signal

    records = history(table, games=12, seed=14)
    Game.objects.all().delete()
    Player.objects.all().delete()
    real = history_imports._score

    def dies(rec):
        if rec == records[9]:  # in a worker: a copy of the record
            os.kill(os.getpid(), signal.SIGKILL)
        return real(rec)

    monkeypatch.setattr(history_imports, "_score", dies)
    report = history_imports.import_records(table=table, records=records, workers=2)
    assert not report.ok and not report.games
    assert report.errors[0]["record"] is None and "stopped" in report.errors[0]["errors"][0]["message"]
    assert Game.objects.count() == 0 and Deal.objects.count() == 0 and Player.objects.count() == 0


def test_the_import_command_scores_in_worker_processes(table, monkeypatch, tmp_path):
    from django.core.management import call_command

    seen = []
    real = history_imports.import_records

    def spy(**kwargs):
        seen.append(kwargs["workers"])
        return real(**kwargs)

    records = history(table, games=5, seed=13)
    monkeypatch.setattr(history_imports, "import_records", spy)
    path = tmp_path / "games.json"
    path.write_text(json.dumps(records))
    out = io.StringIO()
    call_command("import_games", str(path), "--workers", "2", stdout=out)
    assert len(json.loads(out.getvalue())["imported"]) == 5 and seen == [2]
    call_command("import_games", str(path), stdout=out)
    assert seen[-1] == history_imports.import_workers()


def test_a_file_broken_after_many_records_saves_nothing(client, table, small_chunks):
    records = history(table, games=30, seed=8)
    Game.objects.all().delete()
    Player.objects.all().delete()
    text = json.dumps(records, indent=1)
    broken = text[: int(len(text) * 0.9)]  # cut off: the last records never arrive
    up = SimpleUploadedFile("games.json", broken.encode())
    response = client.post("/history/import/", {"file": up})
    html = response.content.decode()
    assert response.status_code == 400 and "Nothing was imported" in html and "not valid JSON" in html
    assert Game.objects.count() == 0 and Deal.objects.count() == 0 and Player.objects.count() == 0


def test_a_large_upload_is_taken_past_the_old_five_megabytes(client, table, settings):
    """An upload bigger than Django keeps in memory is spooled to disk and read a chunk at a time."""
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 10_000
    record = history(table, games=1, seed=2)[0]
    Game.objects.all().delete()
    Player.objects.all().delete()
    padding = " " * (6 * 1024 * 1024)  # whitespace between records is still a valid file
    text = "[" + padding + json.dumps(record) + "," + json.dumps(record) + "]"
    up = SimpleUploadedFile("games.json", text.encode(), content_type="application/json")
    assert client.post("/history/import/", {"file": up}).status_code == 302
    assert Game.objects.count() == 2


# ------------------------------------------------------------------------- the streaming reader

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=12,
)


def outcome(read: Any) -> Any:
    try:
        return "ok", read()
    except RecordInvalid as exc:
        return "error", str(exc.errors[0])


@settings(max_examples=200, deadline=None)
@given(
    value=json_values,
    indent=st.sampled_from([None, 1, 2]),
    cut=st.one_of(st.none(), st.integers(0, 400)),
    noise=st.sampled_from(["", ",", "]", "x", "{", '"', "1"]),
    chunk=st.sampled_from([1, 2, 3, 7, 1000]),
    as_bytes=st.booleans(),
)
def test_the_reader_reads_what_json_reads(value, indent, cut, noise, chunk, as_bytes):
    """Record by record and a few characters at a time, the reader gives what parsing the whole
    text gives (a list's items, or the one value), and the same error where the text is not JSON."""
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    if cut is not None:
        cut = min(cut, len(text))
        text = text[:cut] + noise + text[cut + 1 :]
    source = text.encode() if as_bytes else text

    def whole() -> list[Any]:
        data = parse_json(source)
        if isinstance(data, list):
            if not data:
                raise RecordInvalid([transfer._error(msg("the file holds an empty list: no game to import")).errors[0]])
            return data
        return [data]

    expected, got = outcome(whole), outcome(lambda: list(transfer.iter_records(source, chunk)))
    if expected[0] == "error" and "trailing comma" in expected[1]:
        assert got[0] == "error" and "trailing comma" in got[1]  # the reader names the bracket after it
    else:
        assert got == expected


# ----------------------------------------------------------- the quick split of an export's list


@settings(max_examples=300, deadline=None)
@given(
    values=st.lists(st.dictionaries(st.text(max_size=4), json_values, max_size=4), max_size=5),
    cut=st.one_of(st.none(), st.integers(0, 400)),
    noise=st.sampled_from(["", ",", "]", "x", "{", '"', "1", "\n },", "\n },\n {", "\n ]", "\\ud800", "\ufeff", "\t"]),
    chunk=st.sampled_from([1, 2, 7, 1000]),
    bom=st.booleans(),
)
def test_the_quick_split_gives_what_the_reader_reads_or_hands_over(values, cut, noise, chunk, bom):
    """Taken apart at its records' ends without reading the JSON, an export's list gives the
    records the reader gives, or hands the file over to the reader; never other records, never a
    broken file's records."""
    text = json.dumps(values, indent=1, ensure_ascii=False)
    if cut is not None:
        cut = min(cut, len(text))
        text = text[:cut] + noise + text[cut + 1 :]
    data = (codecs.BOM_UTF8 if bom else b"") + text.encode("utf-8", "surrogatepass")
    try:
        got = [transfer.record_of_text(t) for t in transfer.iter_record_texts(io.BytesIO(data), chunk)]
    except transfer.NotExportLayout:
        return
    assert outcome(lambda: list(transfer.iter_records(data))) == ("ok", got)
    if cut is None and values:
        assert got == values


def test_an_export_is_imported_by_the_quick_split(table, small_chunks, monkeypatch):
    """The command line's import of an export: taken apart record by record, each read and scored
    in a worker process; the same games as an import of the records."""
    monkeypatch.setattr(history_imports, "IMPORT_CHUNK", 3)
    records = history(table, seed=15)
    here = stored(list(Game.objects.order_by("created", "id")))
    text = json.dumps(transfer.export_records(Game.objects.all()), ensure_ascii=False, indent=1) + "\n"

    def not_read(*args, **kwargs):
        raise AssertionError("the file was read as JSON")

    monkeypatch.setattr(history_imports, "iter_records", not_read)
    other = Table.objects.create(name="Elsewhere")
    report = history_imports.import_text(table=other, text=io.BytesIO(text.encode()), workers=2)
    assert report.ok and len(report.games) == len(records)
    assert stored(list(Game.objects.filter(table=other).order_by("created", "id"))) == here


@pytest.mark.parametrize(
    "damage",
    [
        "cut off",
        "a raw line break in a name",
        "a record's end inside a record",
        "half a character",
        "not UTF-8",
        "a trailing comma",
        "text after the list",
    ],
)
def test_a_file_the_quick_split_cannot_take_is_read_as_json(table, small_chunks, monkeypatch, damage):
    """What the quick split cannot take apart, or finds broken, the reader reads from the start:
    the same games, or the same errors, as reading it as JSON; nothing saved twice."""
    monkeypatch.setattr(history_imports, "IMPORT_CHUNK", 2)
    records = history(table, games=9, seed=16)
    Game.objects.all().delete()
    Player.objects.all().delete()
    text = json.dumps(records, ensure_ascii=False, indent=1)
    first = json.dumps(records[0], ensure_ascii=False)
    if damage == "cut off":
        text = text[: len(text) * 2 // 3]
    elif damage == "a raw line break in a name":
        text = text.replace(f'"{records[4]["players"][0]}"', '"An\n },n"', 1)
    elif damage == "a record's end inside a record":  # valid JSON: a nested object closes at one space
        text = text.replace('"rules": {', '"rules": {"x": {"y": 1\n },\n "z": 2,', 1)
    elif damage == "half a character":
        text = text.replace(f'"{records[5]["players"][1]}"', '"\\ud800x"')
    elif damage == "a trailing comma":
        text = text[: text.rindex("]")] + ",\n]"
    elif damage == "text after the list":
        text += "\n" + first
    data = text.encode()
    if damage == "not UTF-8":
        data = data.replace(records[6]["players"][0].encode(), b"\xff\xfe", 1)
    assert data != json.dumps(records, ensure_ascii=False, indent=1).encode()
    expected = history_imports.import_records(table=table, records=iter(transfer.iter_records(data)))
    if expected.ok:
        here = stored(expected.games)
        Game.objects.all().delete()
        Player.objects.all().delete()
    report = history_imports.import_text(table=table, text=io.BytesIO(data), workers=2)
    assert report.errors == expected.errors
    if expected.ok:
        assert stored(report.games) == here and Game.objects.count() == len(records)
    else:
        assert Game.objects.count() == 0 and Deal.objects.count() == 0 and Player.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_an_import_writes_each_batch_in_a_transaction_of_its_own(small_chunks, monkeypatch):
    """Issue 24: an import held SQLite's write lock for the whole import (30 s for 40 MB), and a save
    at another table waited and failed. Each batch is now a transaction of its own, begun after
    every record was scored: the lock is held for one batch at a time."""
    from django.db import connection

    table, _ = phone_services.create_table(name="Importing", device_name="Scorer's phone")
    seen: list[tuple[int, int]] = []  # at each batch's write: the transactions open, the commits so far
    commits = [0]
    commit = connection.commit
    write = history_imports._Batch.write

    def counted() -> None:
        commits[0] += 1
        commit()

    def watched(self):
        seen.append((len(connection.atomic_blocks), commits[0]))
        return write(self)

    monkeypatch.setattr(connection, "commit", counted)
    monkeypatch.setattr(history_imports._Batch, "write", watched)
    rng = random.Random(5)
    report = history_imports.import_records(table=table, records=[random_record(rng) for _ in range(20)])
    assert report.ok and len(report.game_ids) == 20
    assert len(seen) == 3  # batches of 7, 7 and 6
    assert all(depth == 1 for depth, _ in seen)  # not inside one transaction of the whole import
    assert [n for _, n in seen] == sorted({n for _, n in seen})  # each batch committed before the next
    assert commits[0] >= 3
