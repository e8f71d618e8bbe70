"""Who a request comes from, as the guards count it: its address, its phone, and the name a failed
admin login is counted under (django-axes calls the first and the last: ``settings.AXES_*_CALLABLE``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils.module_loading import import_string

MAX_LOGIN_NAME = 150  # django.contrib.auth's user names


def client_ip(request: HttpRequest) -> str | None:
    """The address a request came from: the last address of X-Forwarded-For when a proxy that sets
    it stands in front (``DJANGO_BEHIND_PROXY``), else the peer's. Never the first X-Forwarded-For
    address: a client can write that one."""
    if settings.BEHIND_PROXY:
        forwarded = [a.strip() for a in request.headers.get("x-forwarded-for", "").split(",") if a.strip()]
        if forwarded:
            return forwarded[-1]
    return request.META.get("REMOTE_ADDR")


def client_phone(request: HttpRequest) -> str | None:
    """The phone a request comes from, by its device cookie (signed: only the server makes one;
    ``settings.LIMITS_PHONE_CALLABLE`` reads its devices): its oldest device there, which stays as
    the phone joins or starts more tables. None for a phone with no cookie."""
    devices: list[int] = import_string(settings.LIMITS_PHONE_CALLABLE)(request)
    return str(min(devices)) if devices else None


def login_username(request: HttpRequest, credentials: Mapping[str, Any] | None = None) -> str | None:
    """The name a failed admin login is counted under by the throttling (django-axes): as typed,
    cut to the longest a user name can be. The login form lets any length through to the check,
    and the throttling's table holds 255 characters: PostgreSQL refused a longer one (a 500)."""
    source = credentials if credentials else getattr(request, "POST", {})
    name = source.get("username")
    return name[:MAX_LOGIN_NAME] if isinstance(name, str) else None
