import pytest
from django.db import IntegrityError

from scorekeeper.table.models import Change, ChangeAction, Deal, Game, Player, Seat, Table, clean_name, name_key

pytestmark = pytest.mark.django_db


@pytest.fixture
def at_table():
    return Table.objects.create(name="T")


def test_player_names_are_unique_whatever_the_case(at_table):
    Player.objects.create(table=at_table, name="Ann")
    with pytest.raises(IntegrityError):
        Player.objects.create(table=at_table, name="ann")


def test_names_fold_case_the_same_on_every_database(at_table):
    Player.objects.create(table=at_table, name="Émile")
    with pytest.raises(IntegrityError):
        Player.objects.create(table=at_table, name="émile")
    assert name_key("ÉMILE") == name_key("émile") == name_key("E\u0301mile")


def test_names_are_cleaned_of_control_characters():
    assert clean_name("  Ann\x00 \t Lee\u200b ") == "Ann Lee"
    assert clean_name("\x1b[31mBob") == "[31mBob"


def test_the_same_name_at_two_tables_is_two_players():
    Player.objects.create(table=Table.objects.create(name="A"), name="Ann")
    Player.objects.create(table=Table.objects.create(name="B"), name="Ann")
    assert Player.objects.count() == 2


def test_game_lists_players_in_seat_order(at_table):
    game = Game.objects.create(table=at_table, kind="oklahoma", profile="book")
    for pos, name in [(1, "Ben"), (0, "Ann"), (2, "Cleo")]:
        Seat.objects.create(game=game, player=Player.objects.create(table=at_table, name=name), position=pos)
    assert game.player_names() == ["Ann", "Ben", "Cleo"]
    assert not game.finished
    assert str(game) == f"Oklahoma #{game.pk}"


def test_a_seat_and_a_deal_number_are_taken_once(at_table):
    game = Game.objects.create(table=at_table, kind="oklahoma", profile="book")
    Deal.objects.create(game=game, number=1, cards={})
    with pytest.raises(IntegrityError):
        Deal.objects.create(game=game, number=1, cards={})


def test_a_change_keeps_the_deal_after_the_deal_is_gone(at_table):
    game = Game.objects.create(table=at_table, kind="oklahoma", profile="book")
    deal = Deal.objects.create(game=game, number=1, cards={"out": None})
    change = Change.objects.create(
        game=game, deal_id=deal.pk, number=1, action=ChangeAction.DEAL_ADDED, after=deal.cards
    )
    deal_id = deal.pk
    deal.delete()
    change.refresh_from_db()
    assert change.deal_id == deal_id and change.after == {"out": None}


def test_the_change_history_is_append_only(at_table):
    game = Game.objects.create(table=at_table, kind="oklahoma", profile="book")
    change = Change.objects.create(game=game, action=ChangeAction.DEAL_ADDED, after={})
    change.after = {"out": 1}
    with pytest.raises(TypeError):
        change.save()
    with pytest.raises(TypeError):
        change.delete()
    with pytest.raises(TypeError):
        Change.objects.filter(game=game).update(after={})
    with pytest.raises(TypeError):
        Change.objects.filter(game=game).delete()
    assert Change.objects.get().after == {}


@pytest.mark.parametrize("model", [Deal, Seat, Change])
def test_a_games_rows_are_found_by_an_index_that_also_holds_more(model):
    """A deal, seat or change is looked up by its game through a unique or composite index that
    starts with the game: none has an index on the game alone to keep up at every write (an import
    writes tens of thousands of such rows)."""
    from django.db import connection

    with connection.cursor() as cursor:
        indexes = connection.introspection.get_constraints(cursor, model._meta.db_table)
    by_game = [c for c in indexes.values() if (c["index"] or c["unique"]) and c["columns"][:1] == ["game_id"]]
    assert by_game and all(len(c["columns"]) > 1 for c in by_game), by_game
    if connection.vendor == "sqlite":  # and it is the one used (PostgreSQL picks by the table's size)
        plan = str(model.objects.filter(game_id=1).explain())
        assert "USING" in plan and "INDEX" in plan, plan
