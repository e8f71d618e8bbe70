"""Links into the rule book: a game's own book, or the book of a profile with house options, and
from a score line to the paragraph of the book that explains it (``rules.rulebook.section_for``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse

from scorekeeper.rules import checker, rulebook
from scorekeeper.rules.profiles import Rules
from scorekeeper.table.models import Game


@dataclass(frozen=True, slots=True)
class BookLink:
    """A rule book page: its address and the game whose section ids it holds."""

    url: str
    game: str

    def href(self, line: Any) -> str | None:
        """The link to the paragraph that explains a score line (a Line or its dict), or None."""
        anchor = rulebook.section_for(self.game, line)
        return f"{self.url}#{anchor}" if anchor else None

    def to(self, anchor: str) -> str:
        return f"{self.url}#{anchor}"


def query(options: Mapping[str, Any]) -> str:
    """House options as the book page's query string: ``target=150&shutout=true``."""
    return urlencode({name: option_text(value) for name, value in sorted(options.items())})


def option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def for_rules(rules: Rules) -> BookLink:
    """The book of a profile with the rules' house options."""
    url = reverse("rulebook:book", args=[rules.game, rules.profile])
    options = rules.options()
    return BookLink(url + (f"?{query(options)}" if options else ""), rules.game)


def checker_for(rules: Rules, cards: str = "") -> str:
    """The ruling checker opened on the game's first question (Oklahoma: is this meld legal; Gin: can I
    knock) under these rules, the profile and its house options preselected; ``cards`` fills in the
    cards asked about (a meld of a score line, say)."""
    kind = next(k for k, game, _ in checker.KINDS if game == rules.game)
    params = {
        "kind": kind,
        "profile": rules.profile,
        **{name: option_text(v) for name, v in sorted(rules.options().items())},
    }
    if cards:
        params["cards"] = cards
    return reverse("rulebook:checker") + "?" + urlencode(params)


def for_game(game: Game) -> BookLink:
    """A game's own rule book: its profile and its house options."""
    return BookLink(reverse("rulebook:game", args=[game.pk]), game.kind)
