"""Games saved by the earlier versions of the app (tables ``scorekeeper_*``) move into the table
app, nothing lost: one table ("Our table") takes every player and game, with the same game and
deal ids, the deals in seat form and the change history. Their scores are stored afterwards by
``manage.py refresh_results`` (``serve`` runs it as it starts), which scores every game whose results
are not stored yet.

Nobody holds a phone of that table yet: the installation's owner prints a link for it with
``manage.py table_link``."""

from typing import Any

from django.core.management.color import no_style
from django.db import migrations

LEGACY = ("scorekeeper_player", "scorekeeper_game", "scorekeeper_seat", "scorekeeper_deal", "scorekeeper_dealchange")
ACTIONS = {"created": "added", "edited": "edited", "deleted": "deleted"}


def _json(value: Any) -> Any:
    import json

    return json.loads(value) if isinstance(value, str) else value


def _at(value: Any) -> Any:
    """A stored time as an aware datetime (SQLite's raw rows give text or naive datetimes, in UTC)."""
    from datetime import UTC, datetime

    from django.utils.dateparse import parse_datetime

    if isinstance(value, str):
        value = parse_datetime(value)
    if isinstance(value, datetime) and value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value


def _seat_form(deal: Any, names: list[str]) -> Any:
    if not isinstance(deal, dict):
        return deal
    seat = {name: i for i, name in enumerate(names)}
    return {key: _seat_value(key, value, names, seat) for key, value in deal.items()}


def _seat_value(key: str, value: Any, names: list[str], seat: dict[str, int]) -> Any:
    """A deal's value in seat form: who went out or knocked by seat, the hands a list in seat order."""
    if key in ("out", "knocker") and isinstance(value, str) and value in seat:
        return seat[value]
    if key == "hands" and isinstance(value, dict) and set(value) <= set(names):
        return [value.get(name) for name in names]
    return value


def _clean(name: str) -> str:
    """A name as the table app keeps it (table.models.clean_name when this was written): NFC, no
    control characters (NUL included: PostgreSQL refuses it), runs of spaces made one."""
    import unicodedata

    text = unicodedata.normalize("NFC", name)
    text = "".join(" " if ch.isspace() else ch for ch in text if unicodedata.category(ch)[0] != "C" or ch.isspace())
    return " ".join(text.split())


def _key(name: str) -> str:
    import unicodedata

    return unicodedata.normalize("NFKC", _clean(name)).casefold()


def adopt(apps: Any, schema_editor: Any) -> None:
    connection = schema_editor.connection
    if not set(LEGACY) <= set(connection.introspection.table_names()):
        return
    Player = apps.get_model("table", "Player")
    Game = apps.get_model("table", "Game")
    Deal = apps.get_model("table", "Deal")
    if Game.objects.exists():
        return
    players, games, seats, deals, changes = _legacy_rows(connection)
    if not games:
        return
    table = apps.get_model("table", "Table").objects.create(name="Our table")
    _adopt_players(Player, table, players)
    names_of = _names_of(players, seats)
    _adopt_games(Game, table, games, names_of)
    Seat = apps.get_model("table", "Seat")
    for game_id, player_id, position in seats:
        Seat.objects.create(game_id=game_id, player_id=player_id, position=position)
    _adopt_deals(Deal, apps.get_model("table", "Change"), deals, changes, names_of)
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), [Player, Game, Deal]):
            cursor.execute(sql)


def _legacy_rows(connection: Any) -> tuple[list[Any], ...]:
    """The earlier version's players, games, seats, deals and changes."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, name, created FROM scorekeeper_player ORDER BY id")
        players = cursor.fetchall()
        cursor.execute(
            "SELECT id, game, profile, options, first_dealer, created, updated, state, winner FROM scorekeeper_game"
        )
        games = cursor.fetchall()
        cursor.execute("SELECT game_id, player_id, position FROM scorekeeper_seat ORDER BY game_id, position")
        seats = cursor.fetchall()
        cursor.execute("SELECT id, game_id, number, data, created, updated FROM scorekeeper_deal ORDER BY id")
        deals = cursor.fetchall()
        cursor.execute("SELECT game_id, deal_id, number, action, old, new, at FROM scorekeeper_dealchange ORDER BY id")
        changes = cursor.fetchall()
    return players, games, seats, deals, changes


def _names_of(players: list[Any], seats: list[Any]) -> dict[int, list[str]]:
    """Each game's players' earlier names, in seat order."""
    names_of: dict[int, list[str]] = {}
    name_by_id = {pk: name for pk, name, _ in players}
    for game_id, player_id, position in seats:
        names_of.setdefault(game_id, []).append(name_by_id[player_id])
    return names_of


def _adopt_players(Player: Any, table: Any, players: list[Any]) -> None:
    """Every earlier player stays a player of his own, with his games: two that the app now takes for
    one name ("Émile" and "émile" on SQLite, which lowercased ASCII only) are told apart by a number."""
    taken: set[str] = set()
    for pk, name, created in players:
        unique = _unique(_clean(name)[:40] or f"Player {pk}", taken)
        taken.add(_key(unique))
        Player.objects.create(pk=pk, table=table, name=unique, key=_key(unique), created=_at(created))


def _unique(clean: str, taken: set[str]) -> str:
    """The name, or, when the app takes it for one already taken, the name with a number: "Ann (2)"."""
    unique, n = clean, 1
    while _key(unique) in taken:
        n += 1
        unique = f"{clean[:34]} ({n})"
    return unique


def _adopt_games(Game: Any, table: Any, games: list[Any], names_of: dict[int, list[str]]) -> None:
    """The games with the same ids, the winner by seat."""
    for pk, kind, profile, options, first_dealer, created, updated, state, winner in games:
        names = names_of.get(pk, [])
        Game.objects.create(
            pk=pk, table=table, kind=kind, profile=profile, options=_json(options) or {}, first_dealer=first_dealer,
            created=_at(created), updated=_at(updated), version=1, state=state,
            winner=names.index(winner) if winner in names else None,
        )


def _adopt_deals(Deal: Any, Change: Any, deals: list[Any], changes: list[Any], names_of: dict[int, list[str]]) -> None:
    """The deals in seat form, with the same ids, and their change history."""
    for pk, game_id, number, data, created, updated in deals:
        Deal.objects.create(pk=pk, game_id=game_id, number=number, cards=_seat_form(_json(data), names_of[game_id]),
                            created=_at(created), updated=_at(updated))
    for game_id, deal_id, number, action, old, new, at in changes:
        names = names_of.get(game_id, [])
        Change.objects.create(
            game_id=game_id, deal_id=deal_id, number=number, action=ACTIONS.get(action, action),
            before=_seat_form(_json(old), names), after=_seat_form(_json(new), names), at=_at(at),
            by_name="an earlier version",
        )


class Migration(migrations.Migration):
    dependencies = [("table", "0001_initial")]

    operations = [migrations.RunPython(adopt, migrations.RunPython.noop)]
