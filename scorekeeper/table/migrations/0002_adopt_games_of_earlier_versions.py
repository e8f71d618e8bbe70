"""Games saved by the earlier versions of the app (tables ``scorekeeper_*``) move into the table
app, nothing lost: one table ("Our table") takes every player and game, with the same game and
deal ids, the deals in seat form and the change history. Their scores are stored afterwards by
``table.apps`` (post-migrate), which scores every game whose results are not stored yet.

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
    out = {}
    for key, value in deal.items():
        if key in ("out", "knocker") and isinstance(value, str) and value in seat:
            out[key] = seat[value]
        elif key == "hands" and isinstance(value, dict) and set(value) <= set(names):
            out[key] = [value.get(name) for name in names]
        else:
            out[key] = value
    return out


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
    Table = apps.get_model("table", "Table")
    Player = apps.get_model("table", "Player")
    Game = apps.get_model("table", "Game")
    Seat = apps.get_model("table", "Seat")
    Deal = apps.get_model("table", "Deal")
    Change = apps.get_model("table", "Change")
    if Game.objects.exists():
        return
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
    if not games:
        return
    table = Table.objects.create(name="Our table")
    # Every earlier player stays a player of his own, with his games: two that the app now takes for
    # one name ("Émile" and "émile" on SQLite, which lowercased ASCII only) are told apart by a number.
    taken: set[str] = set()
    for pk, name, created in players:
        clean = _clean(name)[:40] or f"Player {pk}"
        unique, n = clean, 1
        while _key(unique) in taken:
            n += 1
            unique = f"{clean[:34]} ({n})"
        taken.add(_key(unique))
        Player.objects.create(pk=pk, table=table, name=unique, key=_key(unique), created=_at(created))
    names_of: dict[int, list[str]] = {}
    name_by_id = {pk: name for pk, name, _ in players}
    for game_id, player_id, position in seats:
        names_of.setdefault(game_id, []).append(name_by_id[player_id])
    for pk, kind, profile, options, first_dealer, created, updated, state, winner in games:
        names = names_of.get(pk, [])
        Game.objects.create(
            pk=pk, table=table, kind=kind, profile=profile, options=_json(options) or {}, first_dealer=first_dealer,
            created=_at(created), updated=_at(updated), version=1, state=state,
            winner=names.index(winner) if winner in names else None,
        )
    for game_id, player_id, position in seats:
        Seat.objects.create(game_id=game_id, player_id=player_id, position=position)
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
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), [Player, Game, Deal]):
            cursor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("table", "0001_initial")]

    operations = [migrations.RunPython(adopt, migrations.RunPython.noop)]
