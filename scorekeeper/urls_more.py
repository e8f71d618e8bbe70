"""The rules pages, "Check a ruling" and the history pages (included from scorekeeper.urls)."""

from django.urls import path

from scorekeeper import views_history, views_rules

urlpatterns = [
    path("rules/", views_rules.rules_index, name="rules"),
    path("rules/<str:game>/<str:profile>/", views_rules.rules_profile, name="rules_profile"),
    path("check/", views_rules.check, name="checker"),
    path("history/", views_history.games, name="history"),
    path("history/import/", views_history.import_games, name="import_games"),
    path("history/export.<str:fmt>", views_history.export_all, name="export_all"),
    path("history/<int:game_id>/", views_history.review, name="review"),
    path("history/<int:game_id>/changes/", views_history.changes, name="changes"),
    path("history/<int:game_id>/rescore/", views_history.rescore, name="rescore"),
    path("history/<int:game_id>/export.<str:fmt>", views_history.export_game, name="export_game"),
    path("players/", views_history.players, name="players"),
    path("players/<int:player_id>/", views_history.player, name="player"),
    path("players/<int:player_id>/rename/", views_history.player_rename, name="player_rename"),
    path("players/<int:player_id>/merge/", views_history.player_merge, name="player_merge"),
]
