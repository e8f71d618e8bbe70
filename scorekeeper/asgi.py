"""The app for an ASGI server (``manage.py serve``: gunicorn with uvicorn workers): the pages are
Django's sync views as under WSGI; the live pages' streams are async (``table.watchers``)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
application = get_asgi_application()
