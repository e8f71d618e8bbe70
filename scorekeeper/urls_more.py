"""The rules pages, "Check a ruling" and the history pages (included from scorekeeper.urls)."""
from django.urls import path

from scorekeeper import views_rules

urlpatterns = [
    path("rules/", views_rules.rules_index, name="rules"),
    path("rules/<str:game>/<str:profile>/", views_rules.rules_profile, name="rules_profile"),
    path("check/", views_rules.check, name="checker"),
]
