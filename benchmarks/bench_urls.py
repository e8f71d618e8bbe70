"""The app's URLs and a bare view, mounted for the benchmarks only: the bare view goes through the
same middleware as every page and does nothing (the baseline a page's throughput is compared to)."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from scorekeeper.urls import urlpatterns as app_urls


def bare(request: HttpRequest) -> HttpResponse:
    return HttpResponse(b"ok", content_type="text/plain")


urlpatterns = [path("bench/bare/", bare), *app_urls]
