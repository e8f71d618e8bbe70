"""Messages as data: what the engine says to a player, as a message id and its parameters.

The id of a message is its English text, a ``str.format`` template (``"undercut: {deadwood} − {least}"``),
which is also gettext's ``msgid``: the English text is the id formatted with the parameters, and
another language is the same id looked up in that language's catalog, then formatted. A parameter is
text shown as it is (a card, a player's name), a number, or a message of its own (``a_rank(12)`` is
"a queen"), which is translated too. Plurals go through ``ngettext``: ``nmsg("{n} card", "{n} cards", n)``.

The engine stays free of Django: it renders English through stdlib ``gettext.NullTranslations`` (the
ids as they are). ``str(message)`` renders with the translator in force: English, unless the web side
has put its own in force with ``use_translator`` (``scorekeeper/i18n.py``: Django's, which follows each
request's language, as Django's lazy strings do). A translator may also say how its language groups
thousands (``thousands``: "." in German): a number formatted with ``,`` (``{total:,}``) is grouped so;
a negative number shows a true minus sign (−20).

Cards: the engine prints a card with the record's rank letters and a suit symbol ("Q♠", "2♣=J♥"). A
text parameter is shown with its cards in the reader's letters (``card_text``: German "D♠", "2♣=B♥"),
the letters its catalog gives (``card_letters``, context "card rank letter"): the one place a printed
card becomes the reader's. Typed text and the record keep the record's notation (QS).

Extraction: ``msg``, ``nmsg`` and ``N_`` mark ids for ``xgettext`` (keywords ``msg``, ``nmsg:1,2`` and
``N_``); their ids are always string literals (a test checks it), never f-strings.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

ACE = 1  # the ranks as the engine numbers them (cards.py): ace 1, 2–10, jack 11, queen 12, king 13


class Translator(Protocol):
    """What rendering needs of a language: stdlib ``gettext`` translations and Django's both have it."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, msgid1: str, msgid2: str, n: int, /) -> str: ...

    def pgettext(self, context: str, message: str, /) -> str: ...


ENGLISH: Translator = gettext.NullTranslations()
_in_force: Translator = ENGLISH  # what ``str(message)`` renders with (``use_translator``)


def use_translator(translator: Translator) -> None:
    """Put a translator in force for ``str(message)`` (the web side's, once, as it starts)."""
    global _in_force
    _in_force = translator


class _Number:
    """A number as a message shows it: a true minus sign (−5, not -5), and ``,`` grouping as the
    language groups (``format(_Number(1075, "."), ",")`` is 1.075)."""

    __slots__ = ("sep", "value")

    def __init__(self, value: int, sep: str) -> None:
        self.value, self.sep = value, sep

    def __format__(self, spec: str) -> str:
        text = format(self.value, spec).replace("-", "−")
        return text.replace(",", self.sep) if "," in spec else text


type Param = str | int | Msg


@dataclass(frozen=True, slots=True)
class Msg:
    """One message: its id (the English template), its parameters, and for a plural the plural id and
    the count that chooses between them."""

    id: str
    args: tuple[tuple[str, Param], ...] = ()
    plural: str = ""
    n: int = 0
    context: str = ""  # gettext's msgctxt, for an id that alone says too little (a rank letter: "Q")

    def render(self, translator: Translator = ENGLISH) -> str:
        template = (
            translator.ngettext(self.id, self.plural, self.n)
            if self.plural
            else translator.pgettext(self.context, self.id)
            if self.context
            else translator.gettext(self.id)
        )
        if not self.args:
            return template
        sep = getattr(translator, "thousands", ",")
        return template.format_map(
            {
                name: value.render(translator)
                if isinstance(value, Msg)
                else card_text(value, translator)
                if isinstance(value, str)
                else _Number(value, sep)
                if type(value) is int and (value < 0 or sep != ",")
                else value
                for name, value in self.args
            }
        )

    @property
    def params(self) -> Mapping[str, Param]:
        return dict(self.args)

    def as_json(self) -> dict:
        """The id and parameters as plain JSON (nested messages as objects of their own)."""
        out: dict = {"id": self.id}
        if self.context:
            out["context"] = self.context
        if self.plural:
            out["plural"] = self.plural
            out["n"] = self.n
        if self.args:
            out["args"] = {name: value.as_json() if isinstance(value, Msg) else value for name, value in self.args}
        return out

    @classmethod
    def from_json(cls, data: Mapping) -> Msg:
        args = tuple(
            (name, cls.from_json(value) if isinstance(value, Mapping) else value)
            for name, value in (data.get("args") or {}).items()
        )
        plural, n, context = data.get("plural", ""), int(data.get("n", 0)), data.get("context", "")
        return cls(id=data["id"], args=args, plural=plural, n=n, context=context)

    def __str__(self) -> str:
        return self.render(_in_force)


def in_force() -> Translator:
    """The translator ``str(message)`` renders with now (English, or the request's language)."""
    return _in_force


PICTURES = ("A", "J", "Q", "K")  # the record's rank letters (the other ranks are numbers)
SUIT_SYMBOLS = "♠♥♦♣"
_PRINTED_RANK = re.compile(rf"(?<![0-9A-Za-z])([{''.join(PICTURES)}])(?=[{SUIT_SYMBOLS}])")


def card_letters(translator: Translator | None = None) -> dict[str, str]:
    """The record's rank letters as the reader's language writes them, each letter (A J Q K) its own:
    {"A": "A", "J": "B", "Q": "D", "K": "K"} in German (RULES.md §4), the record's own in English.
    They are the catalog's (context "card rank letter"): the one table of them. ``translator``: the
    one in force unless given."""
    said = translator or _in_force
    # Translators: a card's rank letter as cards are printed and typed (RULES.md §4: German A K D B).
    return {
        "A": said.pgettext("card rank letter", "A"),
        "J": said.pgettext("card rank letter", "J"),
        "Q": said.pgettext("card rank letter", "Q"),
        "K": said.pgettext("card rank letter", "K"),
    }


def rank_letter(letter: str) -> Msg:
    """A rank letter of the record (A J Q K) as a message: the reader's letter (German "D" for "Q")."""
    return Msg(id=letter, context="card rank letter")


def card_text(text: str, translator: Translator | None = None) -> str:
    """Printed cards in the reader's letters: every rank letter before a suit symbol in ``text``
    ("Q♠", "2♣=J♥ K♠", "J♠–A♠") as ``card_letters`` writes it (German "D♠", "2♣=B♥ K♠", "B♠–A♠");
    text without a printed card stays as it is (a name, a code typed as "QS", "JK")."""
    if not any(symbol in text for symbol in SUIT_SYMBOLS) or _PRINTED_RANK.search(text) is None:
        return text
    letters = card_letters(translator)
    if all(rank == letter for rank, letter in letters.items()):
        return text  # the record's own letters (English)
    return _PRINTED_RANK.sub(lambda m: letters[m[1]], text)


def marked(text: str) -> Msg:
    """A message of a text whose id was marked with ``N_`` where it was written (a rule's name, a
    knob's label): it renders in the language in force, as ``msg`` does. "" stays "" (no catalog
    header)."""
    return Msg(id=text) if text else msg("{item}", item="")


def N_(text: str) -> str:
    """Marks a message id for extraction where it is kept as a plain string (a rule's name)."""
    return text


def msg(id: str, /, **args: Param) -> Msg:
    """A message: ``msg("undercut: {deadwood} − {least}", deadwood=12, least=7)``."""
    return Msg(id=id, args=tuple(args.items()))


def nmsg(singular: str, plural: str, n: int, /, **args: Param) -> Msg:
    """A message with a count: ``nmsg("{n} card", "{n} cards", 3)``; ``n`` is a parameter too."""
    return Msg(id=singular, args=(("n", n), *args.items()), plural=plural, n=n)


# Words the messages share: ranks with their articles, ranks in the plural, lists.

_A_RANK: dict[int, Msg] = {
    ACE: msg("an ace"),
    11: msg("a jack"),
    12: msg("a queen"),
    13: msg("a king"),
    8: msg("an {rank}", rank=8),
    **{r: msg("a {rank}", rank=r) for r in (2, 3, 4, 5, 6, 7, 9, 10)},
}
_RANKS: dict[int, Msg] = {
    ACE: msg("aces"),
    11: msg("jacks"),
    12: msg("queens"),
    13: msg("kings"),
    **{r: msg("{rank}s", rank=r) for r in range(2, 11)},
}
assert set(_A_RANK) == set(_RANKS) == set(range(1, 14))


_OUTCOMES: dict[str, Msg] = {
    "out": msg("went out"),
    "stock_out": msg("stock ran out"),
    "knock": msg("knock"),
    "undercut": msg("undercut"),
    "gin": msg("gin"),
    "big_gin": msg("big gin"),
    "void": msg("void hand"),
    "points": msg("points only, not checked"),
}
_MELD_KINDS: dict[str, Msg] = {"set": msg("set"), "sequence": msg("sequence"), "run": msg("run")}


def outcome_words(outcome: str) -> Msg:
    """How a deal ended, as players say it: ``went out``, ``stock ran out``, ``knock``, ``big gin``."""
    return _OUTCOMES.get(outcome) or msg("{item}", item=outcome.replace("_", " "))


# How a deal ended, said with the player who ended it first, as a sentence says it ("Ann went out").
_DONE_BY: dict[str, str] = {
    "out": N_("{name} went out"),
    "knock": N_("{name} knocked"),
    "undercut": N_("{name} knocked and was undercut"),
    "gin": N_("{name} went gin"),
    "big_gin": N_("{name} went big gin"),
}


def outcome_by(outcome: str, actor: str | None) -> Msg:
    """How a deal ended, with who ended it (``DealResult.actor``), in the word order of the reader's
    language: "Ann went out", "Ben knocked" (German "Ann hat ausgemacht"), never "went out (Ann)";
    a deal nobody ended is ``outcome_words``' ("stock ran out", "void hand")."""
    done = _DONE_BY.get(outcome)
    if done is None or not actor:
        return outcome_words(outcome)
    return Msg(id=done, args=(("name", actor),))


_LAWS = re.compile(r"(?P<code>.+) (?P<word>laws?) (?P<numbers>\d+(?:, \d+)*)")


def source_words(source: str) -> Msg:
    """A source as a reader sees it (``Line.source``, ``RecordError.source``, a knob's citation): the
    one place a source is said. Its words are in the language in force ("S1 law 12" is "S1 Regel 12"
    in German, "ruling" "Auslegung"); its codes, section names and numbers stay as the texts write them
    ("S2, Scoring 3"). Parts joined by "; " are each said so. In English it is the source exactly."""
    said: list[Msg] = []
    for part in source.split("; "):
        laws = _LAWS.fullmatch(part)
        if part == "ruling":
            said.append(msg("ruling"))
        elif part == "house option":
            said.append(msg("house option"))
        elif laws and laws["word"] == ("law" if "," not in laws["numbers"] else "laws"):
            n = laws["numbers"].count(",") + 1
            said.append(
                nmsg("{code} law {numbers}", "{code} laws {numbers}", n, code=laws["code"], numbers=laws["numbers"])
            )
        else:
            said.append(msg("{item}", item=part))
    joined = said[0]
    for item in said[1:]:
        joined = msg("{first}; {next}", first=joined, next=item)
    return joined


def quoted(text: str) -> Msg:
    """A word quoted as the reader's language quotes it: 'chained' (German „chained“)."""
    return msg("'{text}'", text=text)


def meld_kind(kind: str) -> Msg:
    """A kind of meld: ``set``, ``sequence`` (Oklahoma), ``run`` (Gin)."""
    return _MELD_KINDS.get(kind) or msg("{item}", item=kind)


def a_rank(rank: int) -> Msg:
    """One card of a rank, with its article: ``an ace``, ``a king``, ``an 8``, ``a 7``."""
    return _A_RANK[rank]


def ranks(rank: int) -> Msg:
    """Cards of a rank: ``aces``, ``kings``, ``10s``, ``7s``."""
    return _RANKS[rank]


def either(options: Iterable[Param], word: str = "or") -> Msg:
    """``a``, ``a or b``, ``a, b or c`` (``word`` "and": ``a, b and c``)."""
    items = list(options)
    if len(items) <= 1:
        if not items:
            return msg("{item}", item="")
        return items[0] if isinstance(items[0], Msg) else msg("{item}", item=items[0])
    head: Param = items[0]
    for item in items[1:-1]:
        head = msg("{first}, {next}", first=head, next=item)
    if word == "and":
        return msg("{first} and {last}", first=head, last=items[-1])
    if word != "or":
        raise ValueError(f"either: 'or' or 'and', not {word!r}")
    return msg("{first} or {last}", first=head, last=items[-1])
