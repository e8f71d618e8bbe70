"""The rows module's JSON in the database's own form: on SQLite, the text ``json.dumps`` gives
(through an encoder made once), elsewhere what the backend's own adapter gives."""

from __future__ import annotations

import json

import pytest
from django.db import DataError, IntegrityError, connection, transaction
from django.db.models import Value
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.table.models import Change, Deal, Game, Table
from scorekeeper.table.rows import insert_rows_from, json_values

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.text()
)
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4), max_leaves=20
)


@settings(max_examples=300, deadline=None)
@given(value=values)
def test_json_values_are_what_the_backend_stores(value):
    got = json_values()(value)
    if connection.vendor == "sqlite":
        assert got == json.dumps(value)
    else:
        assert type(got) is type(connection.ops.adapt_json_value(value, None))


@pytest.mark.skipif(connection.vendor != "sqlite", reason="PostgreSQL's adapter encodes when the row is written")
def test_a_value_json_cannot_hold_is_refused_as_json_dumps_refuses_it():
    with pytest.raises(TypeError, match="not JSON serializable"):
        json_values()({"when": object()})


@pytest.mark.django_db
def test_rows_copied_by_the_database_keep_their_values_and_checks_stay_on_after():
    """``insert_rows_from`` copies a deal's cards into its change without SQLite checking the copy
    again (it checked them when the deal was stored); every check is on again afterwards, also
    when the copy fails."""
    game = Game.objects.create(table=Table.objects.create(name="T"), kind="oklahoma", profile="book")
    cards = [{"out": 0, "hands": [{"melds": [["QS", "QH", "QD"]], "held": []}]}, {"out": None, "hands": []}]
    deals = [Deal.objects.create(game=game, number=i, cards=c) for i, c in enumerate(cards, start=1)]

    def copy(action: str | None = None) -> None:  # the action: "add", or a deal's column
        at = Value(connection.ops.adapt_datetimefield_value(deals[0].created))
        fields = ("game", "deal_id", "number", "action", "after", "at", "by_name")
        columns = ("game", "id", "number", action or Value("add"), "cards", at, Value(""))
        insert_rows_from(Change, fields, Deal, columns, "game", [game.pk])

    copy()
    assert [(c.deal_id, c.after) for c in Change.objects.order_by("id")] == [(d.pk, d.cards) for d in deals]

    def checks_on() -> None:
        if connection.vendor == "sqlite":
            with connection.cursor() as cursor:
                assert cursor.execute("PRAGMA ignore_check_constraints").fetchone() == (0,)
        with pytest.raises((IntegrityError, DataError)), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO table_change (game_id, action, after, at, by_name) VALUES (%s, 'add', %s, %s, '')",
                [game.pk, "{not json", "2026-11-25 12:00:00"],
            )

    checks_on()
    with pytest.raises(IntegrityError), transaction.atomic():  # a copy that fails: no deal has a dealer
        copy(action="dealer")
    checks_on()
