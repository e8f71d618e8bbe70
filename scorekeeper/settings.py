"""One settings file, read from the environment.

Safe by default: debug is off unless ``DJANGO_DEBUG`` turns it on (``make dev`` does), the secret
key comes from ``DJANGO_SECRET_KEY`` or else from a file generated once under ``var/`` (never in
the repository). ``make run`` (``manage.py serve``) sets the hosts of the local network; behind a
TLS proxy, ``DJANGO_HTTPS`` and ``DJANGO_BEHIND_PROXY`` turn on secure cookies, HSTS and the proxy
headers (see the README's "Production").
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import os
import tempfile
import warnings
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.core.management.utils import get_random_secret_key
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent
# What an installation keeps that is not in the repository (the generated secret key).
VAR_DIR = Path(os.environ.get("SCOREKEEPER_VAR_DIR") or BASE_DIR / "var")


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or not value.strip():
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def secret_key(var: Path) -> str:
    """``DJANGO_SECRET_KEY``, else the key in ``var/secret_key``, generated there on first use
    (atomically: several processes starting at once agree on one key)."""
    key = os.environ.get("DJANGO_SECRET_KEY", "").strip()
    if key:
        return key
    path = var / "secret_key"
    with contextlib.suppress(FileNotFoundError):
        key = path.read_text().strip()
    if key:
        return key
    var.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=var, prefix=".secret_key.")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(get_random_secret_key() + "\n")
        with contextlib.suppress(FileExistsError):  # another process made it first: take that one
            os.link(tmp, path)
    finally:
        os.unlink(tmp)
    return path.read_text().strip()


DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = secret_key(VAR_DIR)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")
# The address the phones open (``make run`` sets it to this machine's address on the local
# network): the app shows it as a QR code and builds the table links on it. Empty: the address
# the page was opened at.
SITE_URL = os.environ.get("SCOREKEEPER_URL", "").strip().rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "scorekeeper.guards",
    "scorekeeper.table",
    "scorekeeper.history",
    "scorekeeper.rulebook",
    "scorekeeper.server",
    "scorekeeper.alone",
]

MIDDLEWARE = [
    "scorekeeper.recovery.close_failed_connections",  # first: it sees every other's statements
    "scorekeeper.recovery.RefusedWrites",  # a write the database refused: 503 with what was typed
    "scorekeeper.request_log.log_requests",  # one line per request, with no secret in it
    "scorekeeper.health.answer_probes",  # /healthz: before the host check and the HTTPS redirect
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # the phone's language (scorekeeper/i18n.py)
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
    "scorekeeper.table.webapp.mark_tables",  # the tables a page shows, for the offline copies (sync only)
    # Last, and sync only: in Django's ASGI handler (the live streams, table.live.views.game_events;
    # the pages go to the WSGI handler, scorekeeper/asgi.py) the whole chain then runs in the
    # request's thread, once. Below a sync-only middleware, every one that can be async is, and
    # Django hands each of their methods to that thread and back: twice the hand-overs, and nearly
    # twice the CPU of a stream's opening (python -m benchmarks live).
    "scorekeeper.i18n.phone_time_zone",  # the phone's time zone
]

ROOT_URLCONF = "scorekeeper.urls"
WSGI_APPLICATION = "scorekeeper.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.template.context_processors.i18n",
                "django.template.context_processors.tz",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "0")),
        # A kept connection is checked as a request first uses it, and replaced when the database
        # dropped it (a PostgreSQL restart): no request fails on a connection that is gone.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite, the embedded default, holds a table's load (several phones saving at once): a write
    # transaction takes the write lock as it begins (IMMEDIATE: two saves queue, where a DEFERRED
    # one would fail halfway with "database is locked"), a save waits up to 20 s for the lock (busy
    # timeout), and WAL lets the pages read while a deal is being saved.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL",
    }
    # The tests use a file as well: an in-memory database has no WAL and locks tables, not the file,
    # so it would not test the above (the concurrency tests need it).
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"scorekeeper-test-{os.getpid()}.sqlite3")
    }

# Each process keeps the pages' fragments cached by a game's version (the game page's board and
# deal list) and by a deal's result (each deal of the review page): room for a few hundred games'
# worth of fragments (Django's default, 300 entries, is less than one long game's deals).
CACHES: dict[str, dict[str, object]] = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "OPTIONS": {"MAX_ENTRIES": int(os.environ.get("DJANGO_CACHE_ENTRIES", "5000"))},
    },
    # The per-client limits on public writes (scorekeeper/guards/limits.py), counted in the database so
    # that every app process and server counts together (the table is made by migration guards 0001).
    "limits": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "scorekeeper_limits"},
}
# The limits count a phone by its device cookie, as the tables read it (the guards sit below the
# tables, which use them: named here, not imported there).
LIMITS_PHONE_CALLABLE = "scorekeeper.table.access.device_ids"

# Every phone in its own language and zone (scorekeeper/i18n.py): English, the default, and German.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
# The engine's catalog first: `makemessages` files each message under the first of these its file sits
# below (the engine's own under scorekeeper/rules, the pages' under locale).
LOCALE_PATHS = [BASE_DIR / "scorekeeper" / "rules" / "locale", BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 400 * 24 * 3600  # a phone keeps its language (a browser caps cookies at 400 days)
LANGUAGE_COOKIE_SAMESITE = "Lax"
FORMAT_MODULE_PATH = ["scorekeeper.formats"]  # how each language writes a date and a time
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "UTC")  # the zone of a phone that has not said its own
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# The phone alone's Pyodide and engine zip are made, not written (scorekeeper/alone/finders.py).
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "scorekeeper.alone.finders.AloneFinder",
]
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")
# WhiteNoise serves the static files (compressed). ``make run`` collects them with a manifest
# (``DJANGO_STATIC_MANIFEST``): hashed names, cached by the phones for good. Without it (tests,
# development) names stay plain and phones re-check them after a minute.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if env_bool("DJANGO_STATIC_MANIFEST", False)
        else "whitenoise.storage.CompressedStaticFilesStorage"
    },
}
# Development and tests serve static files from the apps' folders; no collected folder is needed.
warnings.filterwarnings("ignore", message="No directory at", module="whitenoise.base")

# Each page inlines static/app.css (table/templatetags/inline.py), read once here as the process
# starts: the CSP allows that very text by its hash, which holds for a page served again from the
# cache too (a nonce would not).
INLINE_STYLESHEET = (BASE_DIR / "static" / "app.css").read_text(encoding="utf-8")
if "</" in INLINE_STYLESHEET:
    raise ImproperlyConfigured("static/app.css holds '</': it cannot be inlined in a <style> element")
_STYLE_DIGEST = base64.b64encode(hashlib.sha256(INLINE_STYLESHEET.encode()).digest()).decode()
INLINE_STYLE_HASH = f"'sha256-{_STYLE_DIGEST}'"
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, INLINE_STYLE_HASH],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}

# Plain HTTP on the local network is the default (``make run`` without a certificate): cookies must
# then travel without TLS. ``make run`` with a certificate (``serve --cert --key``) and a TLS proxy
# (production) set DJANGO_HTTPS: secure-only cookies, HTTP redirected to HTTPS, HSTS.
# DJANGO_BEHIND_PROXY trusts the proxy's X-Forwarded-Proto (the scheme) and the last address of its
# X-Forwarded-For (the client, for login throttling), and makes HTTPS the default. Only set it when
# a proxy sets those headers on every request.
BEHIND_PROXY = env_bool("DJANGO_BEHIND_PROXY", False)
HTTPS = env_bool("DJANGO_HTTPS", BEHIND_PROXY)  # hosted behind a proxy: HTTPS only unless told otherwise
SESSION_COOKIE_SECURE = HTTPS
# The admin's login lives in its cookie, signed with SECRET_KEY (which no backup holds), not in a
# database row: a copy of the database then carries no session that logs anyone in. Changing the
# password ends every such login (Django signs the password's hash into it).
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
CSRF_COOKIE_SECURE = HTTPS
LANGUAGE_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = env_bool("DJANGO_SSL_REDIRECT", HTTPS)
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS") or (60 * 60 * 24 * 365 if HTTPS else 0))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", HTTPS)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", HTTPS)
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# The installation owner's admin login is throttled per address (django-axes, in the database, so
# every app process sees the same count): after 5 failures from one address, that address is refused
# (429) for 15 minutes, whatever the name it tries. Never per user name: a stranger's 5 wrong
# passwords would lock the owner out from every address. ``manage.py axes_reset`` lifts it.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = ["ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "scorekeeper.guards.clients.client_ip"
AXES_USERNAME_CALLABLE = "scorekeeper.guards.clients.login_username"

# One line per request (scorekeeper/request_log.py) and no secret in any line: join tokens and query
# strings are taken out of every message of the app's handler and of Django's request loggers.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"no_secrets": {"()": "scorekeeper.request_log.NoSecrets"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["no_secrets"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
    "loggers": {
        "scorekeeper.requests": {
            "level": "INFO" if os.environ.get("DJANGO_REQUEST_LOG", "1") != "0" else "WARNING",
        },
        "django.request": {"filters": ["no_secrets"]},
        "django.server": {"filters": ["no_secrets"]},
        "django.security": {"filters": ["no_secrets"]},
    },
}
