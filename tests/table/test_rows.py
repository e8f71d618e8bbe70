"""The import's rows (``rows``): values prepared by their fields as ``save`` prepares them, read
back as the ORM reads them; a field a row leaves out takes its default; a deal's change copied by
the database keeps the deal's values."""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.table.models import Change, ChangeAction, Deal, Game, Table
from scorekeeper.table.rows import insert_rows, insert_rows_from, insert_rows_returning_ids, prepared, update_rows

pytestmark = pytest.mark.django_db

# PostgreSQL's jsonb holds no NUL and no lone surrogate
texts = st.text(st.characters(exclude_characters="\x00", exclude_categories=["Cs"]))
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**53), 2**53), st.floats(allow_nan=False, allow_infinity=False), texts
)
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4), max_leaves=20
)


def a_game() -> Game:
    return Game.objects.create(table=Table.objects.create(name="T"), kind="oklahoma", profile="book")


@settings(max_examples=100, deadline=None)
@given(cards=values.filter(lambda v: v is not None), standing=st.dictionaries(texts, values, max_size=4))
def test_json_written_as_rows_reads_back_as_saved(cards, standing):
    game = a_game()
    insert_rows(Deal, [{**prepared(Deal, {"number": 1, "cards": cards, "standing": standing}), "game_id": game.pk}])
    Deal.objects.create(game=game, number=2, cards=cards, standing=standing)
    read = {d.number: (d.cards, d.standing) for d in game.deals.all()}
    assert read[1] == read[2]  # PostgreSQL's jsonb may read a float back as an int: both alike


def test_a_field_a_row_leaves_out_takes_its_default_and_an_unknown_one_is_refused():
    game = a_game()
    at = prepared(Deal, {"created": timezone.now()})["created"]
    insert_rows(Deal, [{**prepared(Deal, {"number": 1, "cards": {}}), "game_id": game.pk, "created": at}])
    written, made = game.deals.get(), Deal(game=game, number=1, cards={})
    fields = [f.attname for f in Deal._meta.concrete_fields if f.name not in ("id", "created", "updated")]
    assert [getattr(written, f) for f in fields] == [getattr(made, f) for f in fields]
    with pytest.raises(ValueError, match="Deal has no field colour"):
        insert_rows(Deal, [{"game_id": game.pk, "number": 2, "cards": "{}", "colour": "red"}])


def test_ids_come_back_in_the_rows_order():
    table = Table.objects.create(name="T")
    rows = [prepared(Game, {"table": table.pk, "kind": "oklahoma", "profile": p}) for p in ("a", "b", "c")]
    ids = insert_rows_returning_ids(Game, rows)
    assert [Game.objects.get(pk=i).profile for i in ids] == ["a", "b", "c"]


def test_rows_copied_by_the_database_keep_their_values():
    """``insert_rows_from`` makes each deal's change from the deal, in the deals' order: the named
    columns from the deal, the rest the values given or their defaults."""
    game = a_game()
    cards = [{"out": 0, "hands": [{"melds": [["QS", "QH", "QD"]], "held": []}]}, {"out": None, "hands": []}]
    deals = [Deal.objects.create(game=game, number=i, cards=c) for i, c in enumerate(cards, start=1)]
    at = timezone.now()
    insert_rows_from(
        Change,
        Deal,
        {"game_id": "game", "deal_id": "id", "number": "number", "after": "cards"},
        prepared(Change, {"action": ChangeAction.DEAL_ADDED.value, "at": at, "by_name": "import"}),
        "game",
        [game.pk],
    )
    changes = list(Change.objects.order_by("id"))
    assert [(c.game_id, c.deal_id, c.number, c.after) for c in changes] == [
        (game.pk, d.pk, d.number, d.cards) for d in deals
    ]
    assert {(c.action, c.at, c.by_name, c.before, c.by_id, c.undoes_id) for c in changes} == {
        (ChangeAction.DEAL_ADDED, at, "import", None, None, None)
    }
    if connection.vendor == "sqlite":  # no check of the database left off
        with connection.cursor() as cursor:
            assert cursor.execute("PRAGMA ignore_check_constraints").fetchone() == (0,)


@settings(max_examples=30, deadline=None)
@given(
    results=st.lists(
        st.tuples(
            st.sampled_from(["out", "void", ""]),
            st.none() | st.integers(0, 4),
            st.lists(st.integers(-999, 999)),
            values,
        ),
        min_size=1,
        max_size=5,
    )
)
def test_update_rows_writes_what_bulk_update_writes(results):
    """The save's ``update_rows`` against the full path, ``bulk_update``, on two games alike."""
    stored = []
    for write in (update_rows, lambda objs, fields: Deal.objects.bulk_update(objs, fields)):
        game = a_game()
        deals = [Deal.objects.create(game=game, number=i, cards={"n": i}) for i in range(len(results))]
        for deal, (outcome, dealer, points, standing) in zip(deals, results, strict=True):
            deal.outcome, deal.dealer, deal.points, deal.standing = outcome, dealer, points, {"s": standing}
        write(deals, ["outcome", "dealer", "points", "standing"])
        stored.append(
            list(game.deals.order_by("number").values_list("number", "outcome", "dealer", "points", "standing"))
        )
    assert stored[0] == stored[1]
