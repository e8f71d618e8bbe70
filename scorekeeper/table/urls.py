from django.urls import path

from scorekeeper.table import webapp
from scorekeeper.table.entry import views as entry
from scorekeeper.table.games import views as games
from scorekeeper.table.hands import views as hands
from scorekeeper.table.live import views as live
from scorekeeper.table.phones import views as phones

app_name = "table"

urlpatterns = [
    path("", games.home, name="home"),
    path("join/<str:token>/", phones.join, name="join"),
    path("manifest.webmanifest", webapp.manifest, name="manifest"),
    path("sw.js", webapp.service_worker, name="service_worker"),
    path("offline/", webapp.offline, name="offline"),
    path("tables/<int:table_id>/", phones.table_page, name="table"),
    path("tables/<int:table_id>/name/", phones.table_rename, name="table_rename"),
    path("tables/<int:table_id>/settings/", phones.table_settings, name="table_settings"),
    path("tables/<int:table_id>/links/", phones.link_new, name="link_new"),
    path("tables/<int:table_id>/links/<int:link_id>/renew/", phones.link_renew, name="link_renew"),
    path("tables/<int:table_id>/links/<int:link_id>/revoke/", phones.link_revoke, name="link_revoke"),
    path("tables/<int:table_id>/phones/name/", phones.phone_rename, name="phone_rename"),
    path("tables/<int:table_id>/phones/<int:device_id>/role/", phones.phone_role, name="phone_role"),
    path("tables/<int:table_id>/phones/<int:device_id>/revoke/", phones.phone_revoke, name="phone_revoke"),
    path("tables/<int:table_id>/phones/<int:device_id>/back/", phones.phone_let_back, name="phone_let_back"),
    path("games/new/", games.new_game, name="new_game"),
    path("games/<int:game_id>/", games.game_page, name="game"),
    path("games/<int:game_id>/events/", live.game_events, name="game_events"),
    path("games/<int:game_id>/rematch/", games.rematch, name="rematch"),
    path("games/<int:game_id>/seats/", phones.seat_phone, name="seat_phone"),
    path("games/<int:game_id>/open/", hands.open_deal, name="open_deal"),
    path("games/<int:game_id>/open/status/", hands.open_status, name="open_status"),
    path("games/<int:game_id>/open/save/", hands.open_save, name="open_save"),
    path("games/<int:game_id>/open/close/", hands.open_close, name="open_close"),
    path("games/<int:game_id>/open/hands/<int:seat>/", hands.hand, name="hand"),
    path("games/<int:game_id>/deals/new/", entry.deal_new, name="deal_new"),
    path("games/<int:game_id>/deals/points/", entry.deal_points, name="deal_points"),
    path("games/<int:game_id>/deals/<int:deal_id>/", games.deal_page, name="deal"),
    path("games/<int:game_id>/deals/<int:deal_id>/edit/", entry.deal_edit, name="deal_edit"),
    path("games/<int:game_id>/deals/<int:deal_id>/delete/", entry.deal_delete, name="deal_delete"),
]
