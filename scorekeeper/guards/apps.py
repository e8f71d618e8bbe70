from django.apps import AppConfig


class GuardsConfig(AppConfig):
    """A server that guards itself: per-client limits on the public writes, and the client's address."""

    name = "scorekeeper.guards"
    label = "guards"
    verbose_name = "Guards: limits per client"
