from django.urls import path

from scorekeeper.rulebook import views

app_name = "rulebook"

urlpatterns = [
    path("rules/", views.rules_index, name="index"),
    path("rules/<str:game>/<str:profile>/", views.rules_profile, name="profile"),
    path("rules/<str:game>/<str:profile>/book/", views.book, name="book"),
    path("games/<int:game_id>/rules/", views.game_book, name="game"),
    path("check/", views.check, name="checker"),
]
