from django.apps import AppConfig


class ServerConfig(AppConfig):
    """How a table's laptop serves the phones: ``manage.py serve`` (``make run``), the local network's
    addresses, and what a start does only when it is needed."""

    name = "scorekeeper.server"
    label = "server"
    verbose_name = "The server: make run"
