"""``makemessages`` that also finds the engine's messages: ``msg(id)``, ``nmsg(singular, plural, n)``
and ``N_(id)`` (``scorekeeper/rules/messages.py``) are gettext keywords too. ``make messages`` runs it
with the project's options."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=msg", "--keyword=nmsg:1,2", "--keyword=N_"]
