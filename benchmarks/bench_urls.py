"""The app's URLs and a bare view, mounted for the benchmarks only: the bare view goes through the
same middleware as every page and does nothing (the baseline a page's throughput is compared to).
``made``: a game's live part as the game view makes it, never the part kept for every follower
(``followed``): its plain path, measured beside it in the same run."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from scorekeeper.table import views
from scorekeeper.urls import urlpatterns as app_urls


def bare(request: HttpRequest) -> HttpResponse:
    return HttpResponse(b"ok", content_type="text/plain")


def made(request: HttpRequest, game_id: int) -> HttpResponse:
    return views._game_page(request, game_id, partial=True)


urlpatterns = [path("bench/bare/", bare), path("bench/made/<int:game_id>/", made), *app_urls]
