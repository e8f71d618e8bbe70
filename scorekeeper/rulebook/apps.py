from django.apps import AppConfig


class RulebookConfig(AppConfig):
    name = "scorekeeper.rulebook"
    label = "rulebook"
    verbose_name = "Rules pages and the ruling checker"
