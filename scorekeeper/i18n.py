"""Every phone in its own language and time zone.

Language: Django's i18n as djangoproject.com does it. ``LocaleMiddleware`` picks the phone's language
from the switch it used last (the ``django_language`` cookie that Django's ``set_language`` view sets,
``/i18n/setlang/``), else from its browser's ``Accept-Language``; templates use ``{% translate %}``,
Python ``gettext``. The catalogs are ``locale/`` (the pages) and ``scorekeeper/rules/locale/`` (the
engine's messages); ``make messages`` extracts and compiles them, and the compiled ``.mo`` files are
committed, so a fresh clone has them. The engine's messages (``rules.messages.Msg``) render through
``DjangoLanguage``, put in force as the app starts: ``str(message)`` is then in the request's language,
as Django's lazy strings are.

Time: the server does not know where a table sits. The phone's browser tells it: ``static/app.js``
sets the ``tz`` cookie to the browser's IANA zone (``Europe/Berlin``), and ``phone_time_zone`` makes it
the current zone of each request, so every time on a page (``{{ at|when:"SHORT_DATETIME_FORMAT" }}``,
``table/templatetags/when.py``) is the phone's own. The first page a phone opens comes before its zone
is said: app.js writes its times again in the phone's zone, in the format the page gives with each,
with no reload. A phone without JavaScript sees the server's zone (``TIME_ZONE``). How each language
writes a date and a time: ``scorekeeper/formats`` (26 Nov, 05:00; 26. Nov., 05:00).
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from functools import cache
from urllib.parse import unquote

from django.http import HttpRequest, HttpResponse
from django.utils import formats, timezone, translation

from scorekeeper.rules import messages

TZ_COOKIE = "tz"


class DjangoLanguage:
    """The engine's ``Translator`` as Django's translation in force for the request."""

    @staticmethod
    def gettext(message: str, /) -> str:
        return translation.gettext(message)

    @staticmethod
    def ngettext(msgid1: str, msgid2: str, n: int, /) -> str:
        return translation.ngettext(msgid1, msgid2, n)

    @staticmethod
    def pgettext(context: str, message: str, /) -> str:
        return translation.pgettext(context, message)

    @property
    def thousands(self) -> str:
        return str(formats.get_format("THOUSAND_SEPARATOR"))


def use_django_language() -> None:
    """Render the engine's messages in the request's language (called once, as the app starts)."""
    messages.use_translator(DjangoLanguage())


@cache
def _zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def zone_named(name: str | None) -> zoneinfo.ZoneInfo | None:
    """The IANA zone a phone named, or None for a name that is none (a tampered cookie)."""
    if not name or len(name) > 64 or name not in _zones():
        return None
    return zoneinfo.ZoneInfo(name)


def phone_time_zone(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    """Middleware: each request's times in the zone its phone said it is in (the ``tz`` cookie)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        # app.js writes the zone URL-encoded (Europe%2FBerlin), as a cookie value should be
        zone = zone_named(unquote(request.COOKIES.get(TZ_COOKIE) or ""))
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
        try:
            return get_response(request)
        finally:
            timezone.deactivate()

    return middleware
