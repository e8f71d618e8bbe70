"""The rule book page: the engine's ``Book`` (``rules.rulebook``) with each worked example shaped
for the templates by ``table.present`` (the same presenter as the game pages, so an example reads
like a deal at the table)."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from scorekeeper.rules import profiles, rulebook
from scorekeeper.rules.messages import outcome_by
from scorekeeper.rules.results import GameResult
from scorekeeper.rules.rulebook import Book, DealExample, Example
from scorekeeper.table import present, text

# What a legal meld is, after its ✔ (the engine's kind of meld).
MELD_KINDS = {
    "set": gettext_lazy("a set"),
    "sequence": gettext_lazy("a sequence"),
    "run": gettext_lazy("a run"),
}


def example_view(example: Example, rules: profiles.Rules) -> dict[str, Any]:
    """One worked example as the page shows it: a meld and the engine's verdict, or a record with
    the engine's result (the last deal's score lines, the final tally or the three columns) or the
    engine's refusal."""
    if not isinstance(example, DealExample):
        return {"kind": "meld", "e": example, "meld": MELD_KINDS.get(example.meld, example.meld)}
    view: dict[str, Any] = {
        "kind": "deal",
        "e": example,
        "record": json.dumps(example.record, ensure_ascii=False, indent=1),
        "errors": [e.as_dict() for e in example.errors],
    }
    if example.result is not None:
        view.update(_result_view(example.result, example.show, rules))
    return view


def _result_view(result: GameResult, show: str, rules: profiles.Rules) -> dict[str, Any]:
    """The engine's result of a worked example: its last deal's score lines, the final tally, the
    totals, and what it comes to in one line (``headline``): each player's points for the deal, or
    the final tally when the example shows that (``show``)."""
    names = list(result.players)
    deal = result.deals[-1]
    dealt = [n for n in names if n in deal.players]
    final = result.final or {}
    return {
        "result": result,
        "outcome": text.outcome_text(deal.outcome),
        "said": outcome_by(deal.outcome, deal.actor),
        "number": deal.number,
        "actor": deal.actor,
        "multiplier": deal.multiplier,
        "notes": list(deal.notes),
        "players": [present.player_deal(n, deal.players[n], deal) for n in dealt],
        "final": present.final_table(result, names, rules.penalty),
        "totals": [{"name": n, "total": result.totals.get(n, 0)} for n in names],
        "headline": [
            {"name": n, "points": final.get(n, 0) if show == "final" else deal.players[n].points} for n in dealt
        ],
    }


def chapters(book: Book) -> list[dict[str, Any]]:
    """The sections in order, each with its worked examples shaped for the page."""
    return [{"s": s, "examples": [example_view(e, book.rules) for e in s.examples]} for s in book.sections]


def house_options(book: Book) -> list[dict[str, Any]]:
    """The knobs the table changed: the value played, and what the profile says with its source, in
    the request's language (made per request, never cached)."""
    out = []
    for name in sorted(book.rules.overridden):
        k = profiles.knob(book.game, name)
        setting = k.settings[book.profile]
        out.append(
            {
                "name": name,
                "label": gettext(k.label),
                "value": rulebook.show_value(book.rules.values[name]),
                "profile_value": rulebook.show_value(setting.value),
                "source": rulebook.Cite(setting.source, setting.basis).label,
            }
        )
    return out
