from django.urls import path

from scorekeeper.table import views

app_name = "table"

urlpatterns = [
    path("", views.home, name="home"),
    path("join/<str:token>/", views.join, name="join"),
    path("games/new/", views.new_game, name="new_game"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/rematch/", views.rematch, name="rematch"),
    path("games/<int:game_id>/deals/new/", views.deal_new, name="deal_new"),
    path("games/<int:game_id>/check/", views.check_meld, name="check_meld"),
    path("games/<int:game_id>/deals/<int:deal_id>/", views.deal_page, name="deal"),
    path("games/<int:game_id>/deals/<int:deal_id>/edit/", views.deal_edit, name="deal_edit"),
    path("games/<int:game_id>/deals/<int:deal_id>/delete/", views.deal_delete, name="deal_delete"),
]
