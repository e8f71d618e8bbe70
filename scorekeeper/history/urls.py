from django.urls import path

from scorekeeper.history import views

app_name = "history"

urlpatterns = [
    path("history/", views.games, name="games"),
    path("history/import/", views.import_games, name="import"),
    path("history/export.<str:fmt>", views.export_all, name="export_all"),
    path("history/<int:game_id>/", views.review, name="review"),
    path("history/<int:game_id>/changes/", views.changes, name="changes"),
    path("history/<int:game_id>/changes/<int:change_id>/undo/", views.undo, name="undo"),
    path("history/<int:game_id>/rescore/", views.rescore, name="rescore"),
    path("history/<int:game_id>/export.<str:fmt>", views.export_game, name="export_game"),
    path("players/", views.players, name="players"),
    path("players/<int:player_id>/", views.player, name="player"),
    path("players/<int:player_id>/rename/", views.player_rename, name="player_rename"),
    path("players/<int:player_id>/merge/", views.player_merge, name="player_merge"),
]
