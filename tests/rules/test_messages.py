"""Messages as data: ids are literal English templates, rendered in one place, translatable."""

from __future__ import annotations

import ast
import gettext
import re
from pathlib import Path

import pytest

from scorekeeper.rules.messages import Msg, a_rank, card_letters, card_text, either, msg, nmsg, rank_letter, ranks

CODE = Path(__file__).resolve().parents[2] / "scorekeeper"
MARKERS = {"msg": 1, "nmsg": 2, "N_": 1}


def _marker_calls():
    for path in sorted(CODE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MARKERS:
                yield path.name, node


def test_every_message_id_is_a_string_literal():
    """xgettext extracts only literal ids: an f-string or a variable as an id would never be translated."""
    bad = []
    for name, call in _marker_calls():
        ids = call.args[: MARKERS[call.func.id]]
        if len(ids) < MARKERS[call.func.id] or not all(
            isinstance(a, ast.Constant) and isinstance(a.value, str) for a in ids
        ):
            bad.append(f"{name}:{call.lineno}")
    assert not bad, f"message ids that are not string literals: {bad}"


def test_english_is_the_id_formatted():
    assert str(msg("undercut: {deadwood} − {least}", deadwood=12, least=7)) == "undercut: 12 − 7"
    assert str(msg("no parameters {here}")) == "no parameters {here}"
    assert [str(nmsg("{n} card", "{n} cards", n)) for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]


def test_words_in_english():
    assert [str(a_rank(r)) for r in (1, 8, 11, 12, 13, 7, 10)] == [
        "an ace",
        "an 8",
        "a jack",
        "a queen",
        "a king",
        "a 7",
        "a 10",
    ]
    assert [str(ranks(r)) for r in (1, 13, 10, 2)] == ["aces", "kings", "10s", "2s"]
    assert [str(either(x)) for x in ([], ["a"], ["a", "b"], ["a", "b", "c"])] == ["", "a", "a or b", "a, b or c"]
    assert str(either(["a", "b", "c"], "and")) == "a, b and c"


class _Pig:
    """A stand-in language: every id upper-cased, so a test can see what was translated."""

    @staticmethod
    def _upper(template: str) -> str:
        return re.sub(r"(^|})([^{]*)", lambda m: m.group(1) + m.group(2).upper(), template)

    def gettext(self, message: str) -> str:
        return self._upper(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._upper(singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        return self._upper(message)


def test_nested_messages_are_translated_and_plain_parameters_are_not():
    m = msg("{who} holds {card}", who="Ann", card=a_rank(12))
    assert m.render(_Pig()) == "Ann HOLDS A QUEEN"
    assert nmsg("{n} card", "{n} cards", 3).render(_Pig()) == "3 CARDS"


def test_a_gettext_catalog_translates():
    class German(gettext.NullTranslations):
        def gettext(self, message: str) -> str:
            return {"{who} holds {card}": "{who} hält {card}", "a queen": "eine Dame"}.get(message, message)

    assert msg("{who} holds {card}", who="Ann", card=a_rank(12)).render(German()) == "Ann hält eine Dame"


class _Letters(gettext.NullTranslations):
    """A stand-in language whose catalog writes the queen D and the jack B, as German does."""

    def pgettext(self, context: str, message: str) -> str:
        return {"J": "B", "Q": "D"}.get(message, message) if context == "card rank letter" else message


def test_a_printed_card_is_said_in_the_readers_letters_and_typed_text_is_not():
    german = _Letters()
    assert card_letters(german) == {"A": "A", "J": "B", "Q": "D", "K": "K"}
    assert card_letters() == {"A": "A", "J": "J", "Q": "Q", "K": "K"}  # English: the record's own
    assert card_text("Q♠ 2♣=J♥ K♦ 10♣ JK J♠–A♠", german) == "D♠ 2♣=B♥ K♦ 10♣ JK B♠–A♠"
    assert card_text("QS Jo Q JK", german) == "QS Jo Q JK"  # codes, names, words: no printed card
    m = msg("{cards} melded", cards="Q♠ J♠")
    assert m.render(german) == "D♠ B♠ melded" and str(m) == "Q♠ J♠ melded"
    assert rank_letter("Q").render(german) == "D" and str(rank_letter("Q")) == "Q"


@pytest.mark.parametrize(
    "m",
    [
        msg("plain"),
        msg("{a} and {b}", a=1, b="x"),
        nmsg("{n} card", "{n} cards", 2, who=a_rank(1)),
        msg("{rank}{suit}", rank=rank_letter("Q"), suit="S"),
    ],
)
def test_json_round_trip(m: Msg):
    assert Msg.from_json(m.as_json()) == m
