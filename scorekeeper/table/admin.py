"""The installation owner's admin. Scores change only through the app (which validates every deal
through the engine and records every change), so deals, results and the change history are
read-only here."""

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from scorekeeper.table.games import services as games
from scorekeeper.table.models import Change, Deal, Device, Game, Link, Player, Seat, Table


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    fields = ("position", "player", "total", "final", "won")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "created")
    search_fields = ("name",)


@admin.register(Device)
class DeviceAdmin(admin.ModelAdmin):
    list_display = ("name", "table", "role", "created", "revoked")
    list_filter = ("role",)
    readonly_fields = ("table", "created", "added_by")


@admin.register(Link)
class LinkAdmin(admin.ModelAdmin):
    list_display = ("table", "role", "created", "revoked")
    readonly_fields = ("table", "digest", "created", "created_by")
    exclude = ("salt",)


@admin.register(Game)
class GameAdmin(ReadOnly):
    list_display = ("id", "table", "kind", "profile", "state", "updated")
    list_filter = ("kind", "state")
    inlines = [SeatInline]

    # A game deleted takes what it added to its players' figures with it (``games.delete_game``).
    def delete_model(self, request: HttpRequest, obj: Game) -> None:
        games.delete_game(game=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        for game in queryset:
            games.delete_game(game=game)


@admin.register(Player)
class PlayerAdmin(ReadOnly):
    # Rename or merge on the player's page, where the history stays consistent.
    list_display = ("name", "table")
    search_fields = ("name",)


@admin.register(Deal)
class DealAdmin(ReadOnly):
    list_display = ("game", "number", "outcome", "updated")


@admin.register(Change)
class ChangeAdmin(ReadOnly):
    list_display = ("game", "number", "action", "at", "by_name")
    list_filter = ("action",)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
