from django.contrib import admin

from scorekeeper.models import Deal, DealChange, Game, Player, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "profile", "target", "state", "winner", "updated")
    list_filter = ("game", "state")
    inlines = [SeatInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    search_fields = ("name",)

    def get_readonly_fields(self, request, obj=None):
        # A name lives inside every saved deal too: rename or merge on the player's page,
        # which rewrites the deals (history.rename_player / merge_players).
        return ("name",) if obj is not None else ()


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ("game", "number", "updated")
    readonly_fields = ("data",)  # deals change through the app, which validates them


@admin.register(DealChange)
class DealChangeAdmin(admin.ModelAdmin):
    list_display = ("game", "number", "action", "at")
    list_filter = ("action",)
