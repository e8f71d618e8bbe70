"""``{% load words %}{% words_script %}``: THE words of the app's scripts, in the page's language.

Every page (``templates/base.html``) carries them as ``<script type="application/json" id="words">``
(data, not code: the Content-Security-Policy has nothing to allow); ``static/app.js`` reads them once
and gives the other scripts one lookup, ``window.words(key, values)``, which fills ``{name}`` in the
text. A count has two forms (``left.one``, ``left.other``: "1 left", "2 left"), which covers English
and German (``n != 1``). The words are translated here with ``gettext``, so ``make messages`` finds
them with the rest of the pages' words.
"""

from __future__ import annotations

from django import template
from django.utils import dates
from django.utils.html import json_script
from django.utils.safestring import SafeString
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy

from scorekeeper.rules.messages import card_letters


def words() -> dict[str, str]:
    """The scripts' words in the language in force, by key."""
    return {
        # app.js: the share row under a link, the second tap, the screen lock
        "copy": gettext("Copy"),
        # {what}: what is copied, lowercased as English does; {What}: as it is (a German noun's capital).
        # A translation uses either, so these are no brace-format messages to msgfmt.
        # xgettext:no-python-brace-format
        "copy.label": gettext("Copy {what}"),
        "copied": gettext("Copied ✓"),
        "share": gettext("Share…"),
        # xgettext:no-python-brace-format
        "share.label": gettext("Share {what}"),
        "the link": gettext("the link"),
        # {action} lowercased, {Action} as it is
        # xgettext:no-python-brace-format
        "tap again": gettext("Tap again: {action}"),
        "keep screen on": gettext("Keep the screen on"),
        "screen stays on": gettext("The screen stays on while this page is open"),
        "screen may dim": gettext("The screen may dim"),
        # drafts.js: the deal typed on this phone
        "restored": gettext("Restored the cards typed on this phone at {time}."),
        "start again": gettext("Start again"),
        "sending": gettext("Sending…"),
        "not sent": gettext("Not sent — your cards are kept. They are sent as soon as the connection is back."),
        "try now": gettext("Try now"),
        # live.js: the live game page
        "no connection since": gettext("No connection since {time} — showing what we had."),
        # picker.js: the card picker; a card as a player says it ("queen of spades", "Pik-Dame")
        "card": pgettext("a card named in words: {rank} is a rank word, {suit} a suit word", "{rank} of {suit}"),
        "rank.A": pgettext("card rank", "ace"),
        "rank.J": pgettext("card rank", "jack"),
        "rank.Q": pgettext("card rank", "queen"),
        "rank.K": pgettext("card rank", "king"),
        "suit.S": pgettext("card suit", "spades"),
        "suit.H": pgettext("card suit", "hearts"),
        "suit.D": pgettext("card suit", "diamonds"),
        "suit.C": pgettext("card suit", "clubs"),
        "joker": pgettext("the card", "Joker"),
        # the rank letters the page's language writes and types (German B for the jack, D for the
        # queen): the engine's (rules.messages.card_letters), for the picker's keys and the chips the
        # phone alone prints
        **{f"letter.{rank}": letter for rank, letter in card_letters().items()},
        "left.one": ngettext("{n} left", "{n} left", 1),
        "left.other": ngettext("{n} left", "{n} left", 2),
        "used": gettext("used"),
        "card picker": gettext("Card picker"),
        "cards": gettext("Cards"),
        "name wild": gettext("name the last wild card: it stands for the next card tapped"),
        "next meld": gettext("start the next meld"),
        "type": gettext("type with the keyboard"),
        "pick": gettext("pick the cards"),
        "save": gettext("Save"),
        # the picker's key on a seated phone's own hand, as its form's button says it ("Send my hand")
        "send": gettext("Send"),
        "undo card": gettext("undo the last card"),
        "back": pgettext("the picker's key", "Back"),
        "back.label": gettext("back to the previous field"),
        "next": pgettext("the picker's key", "Next"),
        "next.label": gettext("next field"),
        "tap a field": gettext("Tap a card field"),
        "stands for": gettext("{card} stands for… (tap the card)"),
        # app.js: a time written again in the phone's zone (templatetags/when.py), its month as Django
        # writes it in the page's language (formats "M" and "N"), the twelve apart by spaces
        "months.M": " ".join(str(dates.MONTHS_3[m]).title() for m in range(1, 13)),
        "months.N": " ".join(str(dates.MONTHS_AP[m]) for m in range(1, 13)),
    }


register = template.Library()


@register.simple_tag
def words_script() -> SafeString:
    return json_script(words(), "words")


# A rule set by its short name, as the game page says it ("Book rules", German "Regeln: Buch").
PROFILE_NAMES = {
    "laws": pgettext_lazy("a rule set's short name", "Laws"),
    "book": pgettext_lazy("a rule set's short name", "Book"),
    "standard": pgettext_lazy("a rule set's short name", "Standard"),
    "classic": pgettext_lazy("a rule set's short name", "Classic"),
    "casino": pgettext_lazy("a rule set's short name", "Casino"),
    "party": pgettext_lazy("a rule set's short name", "Party"),
}


@register.filter
def profile_name(name: str) -> str:
    """``{{ rules.profile|profile_name }}``: the rule set's short name in the page's language."""
    known = PROFILE_NAMES.get(name)
    return str(known) if known is not None else capfirst(str(name))
