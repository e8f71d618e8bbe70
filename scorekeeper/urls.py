from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("scorekeeper.table.urls")),
    path("", include("scorekeeper.history.urls")),
    path("", include("scorekeeper.rulebook.urls")),
    path("admin/", admin.site.urls),
]
