"""``makemessages`` that also finds the engine's messages: ``msg(id)``, ``nmsg(singular, plural, n)``
and ``N_(id)`` (``scorekeeper/rules/messages.py``) are gettext keywords too. ``make messages`` runs it
with the project's options. A new message is never given a near one's translation as a guess (msgmerge's
fuzzy matching: "run" is not "ruling"): it stays empty until it is translated, which the tests catch."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=msg", "--keyword=nmsg:1,2", "--keyword=N_"]
    msgmerge_options = [*makemessages.Command.msgmerge_options, "--no-fuzzy-matching"]
