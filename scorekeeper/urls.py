from django.contrib import admin
from django.urls import include, path

from scorekeeper import views

urlpatterns = [
    path("", views.home, name="home"),
    path("games/new/", views.new_game, name="new_game"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/deals/new/", views.deal_new, name="deal_new"),
    path("games/<int:game_id>/check/", views.check_meld, name="check_meld"),
    path("games/<int:game_id>/deals/<int:number>/", views.deal_page, name="deal"),
    path("games/<int:game_id>/deals/<int:number>/edit/", views.deal_edit, name="deal_edit"),
    path("games/<int:game_id>/deals/<int:number>/delete/", views.deal_delete, name="deal_delete"),
    path("admin/", admin.site.urls),
    # The rules pages, "Check a ruling" and the history pages (written alongside).
    path("", include("scorekeeper.urls_more")),
]

handler404 = "scorekeeper.views.not_found"
handler400 = "scorekeeper.views.bad_request"
handler500 = "scorekeeper.views.server_error"
