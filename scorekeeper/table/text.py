"""How the pages write what the engine gives them: a number as the page's language writes it, a
signed number of points with a true minus sign, a rule's value, a score line's or an error's rule and
source. Plain functions of a value, in the language in force: the templates' filters
(``templatetags/cards.py``) and the Python that fills a page use the same ones."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import formats
from django.utils.translation import gettext

from scorekeeper.rules import fieldcheck, profiles
from scorekeeper.rules.messages import Msg, outcome_words

_RED = frozenset("♥♦")
MINUS = "−"  # U+2212: a negative number's sign wherever a number is shown (a spreadsheet's CSV keeps "-")


def chip_class(label: str) -> str:
    """A printed card's classes: ``card``, plus ``red`` for hearts and diamonds, ``joker`` for the Joker."""
    if label.startswith("JK"):
        return "card joker"
    if next((ch for ch in label if ch in "♠♥♦♣"), "") in _RED:
        return "card red"
    return "card"


def number_text(value: Any) -> str:
    """A whole number as the page's language writes it: 1075 on an English page (as it always was),
    1.075 on a German one (``NUMBER_GROUPING`` and ``THOUSAND_SEPARATOR`` of ``scorekeeper/formats``);
    a negative one with a true minus sign (−85, not -85)."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return str(value)
    if number < 0:
        return MINUS + number_text(-number)
    if not formats.get_format("NUMBER_GROUPING"):
        return str(number)
    return formats.number_format(number, force_grouping=True)


def signed_text(value: Any) -> str:
    """+5, −20 (a true minus sign), 0; +1.075 on a German page."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return str(value)
    if not number:
        return "0"
    return ("+" if number > 0 else MINUS) + number_text(abs(number))


def value_text(value: Any) -> str:
    """A rule's value as players read it: yes/no, 1,000, −20 (German: ja/nein, 1.000), text as it is."""
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, int):
        grouped = f"{abs(value):,}".replace(",", str(formats.get_format("THOUSAND_SEPARATOR")))
        return MINUS + grouped if value < 0 else grouped
    return str(value)


def profile_title(game: str, profile: str) -> str:
    """A rule set by its title in the reader's language ("Book rules", German "Buchregeln"), never its
    code ("book"); a code the engine does not know as it is."""
    known = profiles.PROFILES.get(game, {}).get(profile)
    return gettext(known.title) if known else profile


def option_text(game: str, name: str) -> str:
    """A house option's name inside a sentence: English lowers it ("game target"); a translation is
    used as its translator wrote it (German nouns keep their capital: "Zielpunktzahl")."""
    try:
        label = profiles.knob(game, name).label
    except KeyError:
        return name
    text = gettext(label)
    return label.lower() if text == label else text


def options_text(game: str, options: Mapping[str, Any]) -> str:
    """House options by name and value, in the rule book's order: "going-out bonus 150, hollywood
    (three columns) yes" (German "Ausmachbonus 150, Hollywood (drei Spalten) ja"), never the codes."""
    order = {k.name: i for i, k in enumerate(profiles.knobs(game))} if game in profiles.GAMES else {}
    named = sorted(options.items(), key=lambda item: (order.get(item[0], len(order)), item[0]))
    return ", ".join(f"{option_text(game, name)} {value_text(value)}" for name, value in named)


def outcome_text(outcome: str) -> Msg:
    """How a deal ended, by its code ("knock"): a message, shown in the page's language."""
    return outcome_words(outcome)


def cite_text(line: Any) -> str:
    """A score line's rule and source as cited beside it (``rules.fieldcheck.line_cite``: the phone
    alone cites them the same). ``line``: an engine Line or its dict."""
    rule, source, basis = (
        (line.get(k) for k in ("rule", "source", "basis"))
        if isinstance(line, dict)
        else (getattr(line, k, None) for k in ("rule", "source", "basis"))
    )
    return fieldcheck.line_cite(rule, source, basis)


def cite_class(line: Any) -> str:
    """The classes of a score line's citation: ``cite``, marked ``ruling`` or ``option``."""
    basis = line.get("basis") if isinstance(line, dict) else getattr(line, "basis", None)
    return f"cite {basis}" if basis in ("ruling", "option") else "cite"


def error_cite(error: Any) -> str:
    """The rule and source an engine error cites ("knock limit, S2, Gameplay 1"), in the reader's
    language (``rules.fieldcheck.error_cite``). ``error``: a RecordError or its dict."""
    rule, source = (
        (error.get(k) for k in ("rule", "source"))
        if isinstance(error, dict)
        else (getattr(error, k, None) for k in ("rule", "source"))
    )
    return fieldcheck.error_cite(rule, source)


error_text = fieldcheck.error_text  # an engine error as a page says it: what is wrong, then its rule and source
