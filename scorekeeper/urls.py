from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),  # set_language: the language switch
    path("", include("scorekeeper.table.urls")),
    path("", include("scorekeeper.history.urls")),
    path("", include("scorekeeper.rulebook.urls")),
    path("", include("scorekeeper.alone.urls")),
    path("admin/", admin.site.urls),
]

# The app's own error pages (scorekeeper/error_pages.py); 404 is Django's view with templates/404.html.
handler400 = "scorekeeper.error_pages.bad_request"
handler403 = "scorekeeper.error_pages.permission_denied"
handler500 = "scorekeeper.error_pages.server_error"
