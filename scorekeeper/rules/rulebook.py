"""The rule book: how to play and score each game under a table's rules, as plain data.

``build(rules)`` gives the ``Book`` of a game under one profile and its house options: sections
with ids, each made of paragraphs of text and values. Every value is taken from the engine's own
data — a knob's value and citation from ``profiles`` (so a house option changes the page), or a
fixed rule's value and source from the engine's constants — and carries its citation: a source,
a ruling, or a house option. The book also holds the points where the sources disagree with the
ruling each profile takes, every knob at a glance, and worked examples scored by the engine
itself (small game records through ``record.score_record``, melds through the games' meld checks):
nothing in an example is typed by hand.

``section_for(game, rule)`` names the paragraph or section that explains a score line (by the
line's ``rule`` text), so a page can link every line of a score to the book.

No Django here: the ``rulebook`` app renders a ``Book``.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from . import games, gin, oklahoma, oklahoma_melds, oklahoma_values, profiles, record
from .caches import cached
from .cards import parse_card, split_cards
from .errors import RecordError, RecordInvalid
from .messages import N_, Msg, Translator, in_force, marked, msg, nmsg, quoted, source_words
from .profiles import GIN, OKLAHOMA, GinRules, OklahomaRules, Rules
from .results import GameResult, Line

RULES_MD: Final = "RULES.md"  # a rule RULES.md states without a source of its own

# -------------------------------------------------------------------------------------------
# What a book is made of


@dataclass(frozen=True, slots=True)
class Cite:
    """Where a rule or a value comes from: ``source`` names it ("S1 law 12"); ``basis`` is
    "source", "ruling" (this project's reading where the sources are silent or disagree) or
    "option" (a house option the table chose)."""

    source: str
    basis: str = "source"

    @property
    def said(self) -> Msg:
        """The citation as a reader sees it: "S0; S1 law 7", "ruling", "ruling, from S0", "house option";
        its words in the reader's language ("S0; S1 Regel 7")."""
        if self.basis == "option":
            return msg("house option")
        if self.basis == "ruling" or self.source == "ruling":
            if self.source in ("", "ruling"):
                return msg("ruling")
            return msg("ruling, {source}", source=source_words(self.source))
        return source_words(self.source)

    @property
    def label(self) -> str:
        return str(self.said)


RULING: Final = Cite("ruling", "ruling")


@dataclass(frozen=True, slots=True)
class Part:
    """A piece of a paragraph: plain text, or a value (``cite`` set) shown with its citation.
    ``knob`` names the profile knob a value comes from (a house option changes it)."""

    shown: Msg | str
    cite: Cite | None = None
    knob: str = ""

    @property
    def text(self) -> str:
        return str(self.shown)

    @property
    def value(self) -> bool:
        return self.cite is not None


@dataclass(frozen=True, slots=True)
class Paragraph:
    """A few short sentences: one message (one translatable unit), whose fields named in ``values``
    are values shown with their citation. ``cite``: where the rule they state comes from; ``id``: an
    anchor of its own, for the score lines it explains."""

    message: Msg
    values: tuple[tuple[str, Part], ...] = ()
    cite: Cite | None = None
    id: str = ""

    def render(self, translator: Translator | None = None) -> tuple[Part, ...]:
        """The paragraph in ``translator``'s language, as pieces: text, and the values in their places."""
        translator = translator or in_force()
        values = dict(self.values)
        params = self.message.params
        out: list[Part] = []
        for literal, name, _, _ in string.Formatter().parse(translator.gettext(self.message.id)):
            if literal:
                out.append(Part(literal))
            if name is not None:
                param = params[name]
                out.append(values.get(name) or Part(param.render(translator) if isinstance(param, Msg) else str(param)))
        return tuple(out)

    @property
    def parts(self) -> tuple[Part, ...]:
        """The pieces in the language in force (the request's, on a page): a cached book holds the
        messages, never their text."""
        return self.render()

    @property
    def text(self) -> str:
        return str(self.message)

    @property
    def ruling(self) -> bool:
        return self.cite is not None and self.cite.basis == "ruling"


@dataclass(frozen=True, slots=True)
class DealExample:
    """A worked example: a small game record scored by the engine. ``show`` says what to show:
    "deal" (every player's score lines of the last deal), "final" (the final tally) or
    "columns" (Hollywood's three columns). A record the engine refuses has ``errors`` instead
    of a ``result`` (an example of what the rules forbid)."""

    id: str
    title: Msg
    text: Msg
    record: Mapping[str, Any]
    result: GameResult | None
    errors: tuple[RecordError, ...] = ()
    show: str = "deal"

    kind: str = field(default="deal", init=False)

    @property
    def deal(self) -> int:
        """The deal shown (the last one)."""
        return len(self.result.deals) if self.result is not None else len(self.record.get("deals", ()))


@dataclass(frozen=True, slots=True)
class MeldExample:
    """One meld as the engine's meld check judges it: legal or not, its kind, its points
    (Oklahoma), what each wild card stands for, or what is wrong with it."""

    id: str
    game: str
    entered: str  # as typed, in the notation of RECORD.md
    ok: bool
    meld: str  # set, sequence, run, or "" when no meld
    cards: tuple[str, ...]  # printed as scored
    points: int | None = None  # Oklahoma
    lines: tuple[Line, ...] = ()
    problem: Msg | str = ""

    kind: str = field(default="meld", init=False)


Example = DealExample | MeldExample


@dataclass(frozen=True, slots=True)
class Section:
    id: str
    title: str
    paragraphs: tuple[Paragraph, ...]
    examples: tuple[Example, ...] = ()


@dataclass(frozen=True, slots=True)
class Said:
    """What one profile (and its source) says on a disputed point."""

    profile: str  # the profile's title (marked with N_: a page translates it)
    name: str  # the profile's name
    said: Any  # the value, or what the source says (text marked with N_)
    cite: Cite
    note: str = ""
    current: bool = False  # the profile this book is for

    @property
    def value(self) -> str:
        """The value as players read it, in the language in force."""
        return show_value(self.said)


@dataclass(frozen=True, slots=True)
class Dispute:
    """A point where the sources disagree: what each says, and what this book's rules take."""

    id: str
    topic: str
    says: tuple[Said, ...]
    chosen: Any  # the value taken, or the ruling's text (marked with N_)
    cite: Cite
    why: str = ""
    knob: str = ""

    @property
    def taken(self) -> str:
        """The value taken, in the language in force."""
        return show_value(self.chosen)


@dataclass(frozen=True, slots=True)
class Glance:
    """One knob at a glance: its value under these rules, its citation and what it means."""

    name: str
    label: str
    description: str
    setting: Any  # the knob's value under these rules
    cite: Cite
    note: str
    type: str
    allowed: str

    @property
    def value(self) -> str:
        """The value as players read it, in the language in force."""
        return show_value(self.setting)

    @property
    def allowed_said(self) -> str:
        """The values the option takes, as the reader's language writes them: "any whole number"
        translated, a true minus sign (−10, −20), a text value in the language's quotation marks
        (German „chained“)."""
        said = in_force().gettext(self.allowed).replace("-", "−")
        return re.sub(r"'([^']*)'", lambda m: str(quoted(m[1])), said)


@dataclass(frozen=True, slots=True)
class Book:
    game: str
    profile: str
    title: Msg | str  # "Oklahoma Gin: Standard"
    description: str
    rules: Rules
    sections: tuple[Section, ...]
    disputes: tuple[Dispute, ...]
    glance: tuple[Glance, ...]
    sources: tuple[tuple[str, str], ...]  # (code, what it is) of every source the book cites

    def section(self, section_id: str) -> Section:
        return next(s for s in self.sections if s.id == section_id)

    @property
    def anchors(self) -> frozenset[str]:
        """Every id a link may end on: the sections and the paragraphs that have one."""
        ids = {s.id for s in self.sections}
        ids |= {p.id for s in self.sections for p in s.paragraphs if p.id}
        ids |= {DISPUTES, GLANCE, SOURCES}
        return frozenset(ids)

    @property
    def rulings(self) -> tuple[tuple[str, str], ...]:
        """Every ruling the book states: (the anchor to read it at, what it says). The knobs whose
        value is a ruling, then the paragraphs that state one."""
        out = [
            (
                f"knob-{g.name}",
                str(
                    msg(
                        "{knob}: {value} — {note}",
                        knob=marked(g.label),
                        value=value_message(g.setting),
                        note=marked(g.note),
                    )
                    if g.note
                    else msg("{knob}: {value}", knob=marked(g.label), value=value_message(g.setting))
                ),
            )
            for g in self.glance
            if g.cite.basis == "ruling"
        ]
        for s in self.sections:
            out += [(p.id or s.id, p.text) for p in s.paragraphs if p.ruling]
        return tuple(out)

    @property
    def examples(self) -> tuple[Example, ...]:
        return tuple(e for s in self.sections for e in s.examples)

    @property
    def options(self) -> dict[str, Any]:
        return self.rules.options()


DISPUTES: Final = "disputes"
GLANCE: Final = "at-a-glance"
SOURCES: Final = "sources"

# -------------------------------------------------------------------------------------------
# Writing: values with their citations


def value_message(value: Any) -> Msg:
    """A value as players read it, as a message: yes/no, 1,000 (1.000 in German), −20 (a true minus),
    text (marked with ``N_`` where it was written) in the language it is read in."""
    if isinstance(value, bool):
        return msg("yes") if value else msg("no")
    if isinstance(value, int):
        return msg("{value:,}", value=value) if value >= 0 else msg("−{value:,}", value=-value)
    return marked(str(value))


def show_value(value: Any) -> str:
    """``value_message`` rendered in the language in force (English: yes/no, 1,000, −20)."""
    return str(value_message(value))


def _cite_of(citation: profiles.Citation) -> Cite:
    return Cite(citation.source, citation.basis)


class _Pen:
    """Writes paragraphs for one set of rules: ``knob`` values come with the rules' citation."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def knob(self, name: str, shown: Msg | str | None = None) -> Part:
        value = self.rules.values[name]
        return Part(value_message(value) if shown is None else shown, _cite_of(self.rules.cite(name)), name)

    @staticmethod
    def fixed(shown: Msg | str | int, source: str, basis: str = "source") -> Part:
        return Part(value_message(shown) if isinstance(shown, int) else shown, Cite(source, basis))

    @staticmethod
    def p(message: Msg, cite: Cite | str | None = None, id: str = "", **values: Part) -> Paragraph:
        """A paragraph: its message, whose fields ``values`` fill with values and their citations."""
        if isinstance(cite, str):
            cite = Cite(cite, "ruling" if cite == "ruling" else "source")
        shown = tuple((name, part.shown) for name, part in values.items())
        return Paragraph(replace(message, args=message.args + shown), tuple(values.items()), cite, id)


# -------------------------------------------------------------------------------------------
# Worked examples: small records scored by the engine

ANN, BEN, CLEO = "Ann", "Ben", "Cleo"


def _record(rules: Rules, players: Sequence[str], deals: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return {
        "format": record.FORMAT,
        "game": rules.game,
        "rules": {"profile": rules.profile, "options": rules.options()},
        "players": list(players),
        "first_dealer": players[-1],
        "deals": [dict(d) for d in deals],
    }


def _scored(
    rules: Rules, example_id: str, title: Msg, text: Msg, players: Sequence[str], deals: Sequence[Mapping[str, Any]]
) -> DealExample:
    rec = _record(rules, players, deals)
    try:
        return DealExample(example_id, title, text, rec, record.score_record(rec))
    except RecordInvalid as exc:
        return DealExample(example_id, title, text, rec, None, exc.errors)


def _until_the_end(
    rules: Rules,
    players: Sequence[str],
    first: Sequence[Mapping[str, Any]],
    again: Mapping[str, Any],
    most: int = 400,
) -> list[Mapping[str, Any]]:
    """The deals ``first``, then ``again`` repeated until the engine says the game is over."""
    deals = list(first)
    rec = _record(rules, players, ())
    header_rules, names, _, dealer = record.check_header(rec)
    standing = games.begin(header_rules, names, dealer)
    for number, deal in enumerate(deals, 1):
        _, standing = games.play(header_rules, names, standing, deal, number)
    while standing.ended_on is None and len(deals) < most:
        deals.append(again)
        _, standing = games.play(header_rules, names, standing, again, len(deals))
    return deals


def _meld_example_oklahoma(rules: OklahomaRules, example_id: str, text: str) -> MeldExample:
    check = oklahoma.check_meld(split_cards(text), rules)
    return MeldExample(
        example_id,
        OKLAHOMA,
        text,
        check.ok,
        check.kind or "" if check.ok else "",
        check.labels,
        check.points if check.ok else None,
        check.lines,
        _joined([e.message for e in check.errors]),
    )


def _joined(messages: Sequence[Msg | str]) -> Msg:
    """Messages one after the other: ``a; b; c``."""
    if not messages:
        return msg("{item}", item="")
    out = messages[0] if isinstance(messages[0], Msg) else msg("{item}", item=messages[0])
    for m in messages[1:]:
        out = msg("{first}; {next}", first=out, next=m)
    return out


def _meld_example_gin(example_id: str, text: str) -> MeldExample:
    cards = [parse_card(x) for x in split_cards(text)]
    kind, problem = gin.check_meld(cards)
    return MeldExample(
        example_id,
        GIN,
        text,
        kind is not None,
        kind or "",
        tuple(c.label for c in cards),
        problem=problem.message if problem else "",
    )


# -------------------------------------------------------------------------------------------
# Oklahoma

OK_SECTIONS: Final = (
    ("players", N_("Players and cards")),
    ("deal", N_("The deal")),
    ("turn", N_("A turn")),
    ("melds", N_("Legal melds")),
    ("wild-cards", N_("Wild cards and naming them")),
    ("card-values", N_("What the cards score")),
    ("going-out", N_("Going out")),
    ("concealed", N_("Going out concealed")),
    ("late-misdeal", N_("A misdeal found late")),
    ("stock-out", N_("When the stock runs out")),
    ("end", N_("The end of the game")),
)


def _ok_players(w: _Pen, rules: OklahomaRules) -> list[Paragraph]:
    joker = rules.joker
    return [
        w.p(msg("From 2 to {max_players} players. Three is best (S0)."), max_players=w.knob("max_players")),
        w.p(
            msg("Two packs of 52 cards shuffled together{joker}."),
            joker=w.knob(
                "joker", msg(", plus one Joker: 105 cards") if joker else msg(", without the Joker: 104 cards")
            ),
        ),
    ]


def _ok_deal(w: _Pen) -> list[Paragraph]:
    return [
        w.p(msg("Everyone draws a card: the lowest deals first (the Joker counts low)."), cite="S0; S1 law 2"),
        w.p(
            msg(
                "The dealer gives everyone {value}, one at a time, and turns the next card face up: it starts "
                "the discard pile. The rest of the pack is the stock."
            ),
            value=w.fixed(msg("13 cards"), "S0; S1 law 3"),
        ),
        w.p(msg("The winner of a hand deals the next one."), cite="S0; S1 law 5"),
    ]


def _ok_turn(w: _Pen) -> list[Paragraph]:
    return [
        w.p(msg("Play goes clockwise, starting left of the dealer."), cite="S1 law 6"),
        w.p(
            msg(
                "First turn: the player left of the dealer may take the turned-up card, but only to meld it at "
                "once. If he refuses, each player in turn may take it. If nobody does, he draws from the stock."
            ),
            cite="S0",
        ),
        w.p(
            msg(
                "Every turn: draw, meld if you want, discard. Draw either the top card of the stock or the whole "
                "discard pile."
            ),
            cite="S0; S1 law 6",
        ),
        w.p(
            msg(
                "Taking the discard pile: you must meld its top card at once, in a new meld or on one of yours. "
                "Then the rest of the pile goes into your hand."
            ),
            cite="S0",
        ),
        w.p(msg("You may add to your own melds on your turn, never to another player's."), cite="S0"),
        w.p(msg("You may not discard the Q♠ unless it is your last card."), cite="S0"),
    ]


def _ok_melds(w: _Pen, rules: OklahomaRules) -> tuple[list[Paragraph], list[Example]]:
    paras = [
        w.p(
            msg(
                "A set: 3 or 4 cards of one rank, wild cards included. Never more than 4. Four of a kind is "
                "closed: nothing more can be added. You may hold two separate sets of the same rank."
            ),
            cite=oklahoma_melds.SRC_SET,
            id="sets",
        ),
        w.p(
            msg(
                "A sequence: 3 or more cards of one suit in order, up to 14 (A-2-3 … Q-K-A, an ace at each end). "
                "The ace is high or low, but never round the corner: K-A-2 is not a sequence."
            ),
            cite=oklahoma_melds.SRC_SEQUENCE,
            id="sequences",
        ),
        w.p(
            msg(
                "The pack holds two of each card, eight 2s and one Joker: the cards entered for one deal, all "
                "players together, can never be more than that."
            )
            if rules.joker
            else msg(
                "The pack holds two of each card, eight 2s and no Joker: the cards entered for one deal, all "
                "players together, can never be more than that."
            ),
            cite=oklahoma.SRC_PACK,
        ),
        w.p(
            msg(
                "Ruling: a wild card counts as the wild card it is, not as the card it names: a 2 or the Joker may "
                "name a card whose two naturals are both entered (S0's Joker swap expects the named card to be "
                "still in play)."
            ),
            cite=RULING,
            id="named-card",
        ),
    ]
    examples: list[Example] = [
        _meld_example_oklahoma(rules, "ex-meld-set", "QS QH 2C=QD"),
        _meld_example_oklahoma(rules, "ex-meld-sequence", "2C=7H 8H 9H 10H"),
        _meld_example_oklahoma(rules, "ex-meld-corner", "KH AH 2H 3H"),
        _meld_example_oklahoma(rules, "ex-meld-five", "5S 5H 5D 5C 2S"),
    ]
    return paras, examples


def _ok_wild(w: _Pen, rules: OklahomaRules) -> tuple[list[Paragraph], list[Example]]:
    if rules.joker:
        wild = msg("All eight 2s and the Joker are wild: each stands for one card, the one you name.")
    else:
        wild = msg("All eight 2s are wild (no Joker at this table): each stands for one card, the one you name.")
    paras = [
        w.p(wild, cite=oklahoma_melds.SRC_WILD),
        w.p(
            msg(
                "Name the card a wild card stands for when you meld it. It cannot change later. In a sequence "
                "its place fixes it; in a set the natural cards fix the rank. A meld of wild cards only must "
                "name every card."
            ),
            cite=oklahoma_melds.SRC_JOKER_NAME,
            id="naming",
        ),
        w.p(
            msg(
                "On the score sheet, write the card after “=”: 2♣=7♥ is the 2♣ standing for the 7♥; JK=Q♠ the "
                "Joker as the Q♠."
            ),
            cite=oklahoma_melds.SRC_NOTATION,
        ),
        *_ok_wild_rulings(w),
    ]
    if rules.joker:
        paras.append(
            w.p(
                msg(
                    "The Joker can come back: on your own turn, put the card it stands for in its place and take the "
                    "Joker into your hand to use again. Only the Joker, only its owner. A 2 once melded is never "
                    "replaced. The score sheet records the melds as they lie at the end."
                ),
                cite="S0; S1 laws 8, 9",
                id="joker-swap",
            )
        )
    else:
        paras.append(
            w.p(
                msg("A 2 once melded is never replaced. The score sheet records the melds as they lie at the end."),
                cite="S1 law 8",
            )
        )
    return paras, _ok_wild_examples(rules)


def _ok_wild_rulings(w: _Pen) -> list[Paragraph]:
    """The rulings on reading wild cards: when they must be named, and a 2 standing for itself."""
    two = oklahoma_values.TWO_AS_TWO
    return [
        w.p(
            msg(
                "Ruling: some melds read more than one way. A♥ 2♥ JK is a set of aces, or the sequence A-2-3♥. A "
                "wild card at the end of a sequence may go at either end. Name the wild cards when the readings "
                "score differently."
            ),
            cite=RULING,
            id="readings",
        ),
        w.p(
            msg(
                "Ruling: no need to name them when only one reading is legal (2♥ J♥ Q♥ K♥ A♥: the 2♥ can only be "
                "the 10♥), or when every reading scores the same (JK Q♠ K♠: J♠ or A♠, 100 either way). The score "
                "sheet then says which reading it took. Naming some wild cards is enough when that leaves one "
                "reading: K♣ 2♠=K♥ 2♥ is a set of kings."
            ),
            cite=RULING,
            id="one-reading",
        ),
        w.p(
            msg("A 2 may stand for itself (A♥ 2♥ 3♥). Ruling: it then scores as a low card, {value}."),
            value=w.fixed(f"+{two.points}", two.source, two.basis),
            cite=RULING,
            id="two-as-two",
        ),
    ]


def _ok_wild_examples(rules: OklahomaRules) -> list[Example]:
    texts = ["AH 2H 3H", "2H JH QH KH AH", "2C=7H 2D 2S"]
    if rules.joker:
        texts[1:1] = ["AH 2H JK", "JK QS KS"]
    return [_meld_example_oklahoma(rules, f"ex-wild-{i}", t) for i, t in enumerate(texts, 1)]


def _ok_values(w: _Pen, rules: OklahomaRules) -> list[Paragraph]:
    v = oklahoma_values
    k8 = rules.k8_in_hand

    def gain(value: oklahoma_values.CardValue) -> Part:
        return w.fixed(f"+{value.points}", value.source, value.basis)

    return [
        w.p(
            msg("When the deal ends, every player scores the cards in his melds and loses the cards left in his hand."),
            cite="S0; S1 law 10",
        ),
        w.p(
            msg("Joker: {melded} melded, whatever it stands for. Left in hand it costs {held}."),
            melded=gain(v.JOKER_MELDED),
            held=_cost(w, v.JOKER_HELD),
            id="value-joker",
        )
        if rules.joker
        else w.p(msg("Joker: not in the pack at this table."), id="value-joker"),
        w.p(
            msg("Q♠: {melded} melded. Left in hand it costs {held}."),
            melded=gain(v.QUEEN_OF_SPADES_MELDED),
            held=_cost(w, v.QUEEN_OF_SPADES_HELD),
            id="value-queen",
        ),
        w.p(
            msg("Ace: {melded} melded. Left in hand it costs {held}."),
            melded=gain(v.ACE_MELDED),
            held=_cost(w, v.ACE_HELD),
            id="value-ace",
        ),
        w.p(
            msg("K, Q, J, 10, 9, 8: {melded} melded. Left in hand each costs {held} (the Q♠ apart)."),
            melded=gain(v.K_TO_8_MELDED),
            held=w.knob("k8_in_hand", str(-k8)),
            id="value-high",
        ),
        w.p(
            msg("7, 6, 5, 4, 3: {melded} melded. Left in hand each costs {held}."),
            melded=gain(v.SEVEN_TO_3_MELDED),
            held=_cost(w, v.SEVEN_TO_3_HELD),
            id="value-low",
        ),
        w.p(
            msg(
                "2: melded, it scores the card it stands for, but {melded} when it stands for "
                "the Q♠. Left in hand it costs {held}."
            ),
            melded=gain(v.TWO_AS_QUEEN_OF_SPADES),
            held=_cost(w, v.TWO_HELD),
            id="value-two",
        ),
    ]


def _cost(w: _Pen, value: oklahoma_values.CardValue) -> Part:
    return w.fixed(str(-value.points), value.source, value.basis)


def _ok_deal_1(rules: OklahomaRules) -> dict[str, Any]:
    """Ann goes out; Ben is caught with every kind of card in hand."""
    held = ["JK", "QS", "KC", "2D", "4C"] if rules.joker else ["QS", "KC", "2D", "4C"]
    return {
        "out": ANN,
        "hands": {
            ANN: {"melds": [["QS", "QH", "2C=QD"], ["7H", "8H", "9H", "10H"], ["AS", "AH", "AD"]], "held": []},
            BEN: {"melds": [["5S", "6S", "7S"]], "held": held},
        },
    }


def _ok_big_deal(rules: OklahomaRules, **flags: bool) -> dict[str, Any]:
    """Ann goes out with big melds (used to reach the target)."""
    kings = ["JK=KD", "KS", "KH"] if rules.joker else ["KD", "KS", "KH"]
    return {
        "out": ANN,
        **flags,
        "hands": {
            ANN: {"melds": [["QS", "QH", "QD"], ["AS", "AH", "AD", "AC"], kings, ["2C=7H", "8H", "9H"]], "held": []},
            BEN: {"melds": [["5S", "6S", "7S"]], "held": ["4C"]},
        },
    }


def _ok_going_out(w: _Pen, rules: OklahomaRules) -> tuple[list[Paragraph], list[Example]]:
    paras = [
        w.p(
            msg(
                "You go out by melding all your cards and discarding the last one. You cannot go out without a "
                "discard: with two cards in hand you cannot draw a third and meld all three."
            ),
            cite=oklahoma.SRC_OUT,
        ),
        w.p(msg("Going out scores {out_bonus} on top of your cards."), out_bonus=w.knob("out_bonus"), id="out-bonus"),
        w.p(
            msg(
                "Once someone goes out, nobody else may meld. The others score their melds and lose the cards in "
                "their hands."
            ),
            cite="S0",
        ),
        w.p(
            msg("Going out on your own first turn {first_turn_bonus}."),
            first_turn_bonus=w.knob(
                "first_turn_bonus",
                msg("earns the bonus too") if rules.first_turn_bonus else msg("earns no going-out bonus"),
            ),
            id="first-turn",
        ),
        w.p(
            msg(
                "Everyone who did not go out still holds at least one card. A hand with no cards at all, melded "
                "or held, is a mistake on the score sheet, not a score of 0."
            ),
            cite=oklahoma.SRC_CARDS_IN_HAND,
        ),
    ]
    first = {**_ok_deal_1(rules), "first_turn": True, "concealed": True}
    examples: list[Example] = [
        _scored(
            rules,
            "ex-first-turn",
            msg("Going out on the first turn"),
            msg("Ann melds everything on her very first turn."),
            (ANN, BEN),
            [first],
        )
    ]
    return paras, examples


def _ok_concealed(w: _Pen, rules: OklahomaRules) -> tuple[list[Paragraph], list[Example]]:
    target = w.knob("target")
    if rules.concealed_bonus:
        paras = [
            w.p(
                msg(
                    "Going out concealed — without having melded anything before that turn — earns {concealed_bonus} "
                    "more. It does not count in the race to {target}: it is kept in a side column and added only in "
                    "the final tally."
                ),
                concealed_bonus=w.knob("concealed_bonus"),
                target=target,
            )
        ]
    else:
        paras = [
            w.p(
                msg("These rules pay no bonus for going out concealed: {concealed_bonus}."),
                concealed_bonus=w.knob("concealed_bonus"),
            )
        ]
    paras.append(
        w.p(msg("Going out on your first turn is always concealed: nobody can have melded before it."), cite=RULES_MD)
    )
    paras.append(
        w.p(
            msg(
                "Ruling: when going out on the first turn earns no going-out bonus, it earns no concealed bonus "
                "either: S0 calls the concealed bonus “additional” to it."
            ),
            cite=RULING,
            id="concealed-first-turn",
        )
    )
    deal = {**_ok_deal_1(rules), "concealed": True}
    examples: list[Example] = [
        _scored(
            rules,
            "ex-concealed",
            msg("Going out concealed"),
            msg("Ann had melded nothing before the turn she went out."),
            (ANN, BEN),
            [deal],
        )
    ]
    return paras, examples


LATE_MISDEAL: Final = "late_misdeal"


def _misdeal_supported() -> bool:
    """Does the engine read a deal's ``late_misdeal`` (S1 law 4)?"""
    return LATE_MISDEAL in getattr(oklahoma, "DEAL_KEYS", ())


def _ok_misdeal(w: _Pen, rules: OklahomaRules) -> tuple[list[Paragraph], list[Example]]:
    paras = [
        w.p(
            msg(
                "It is a misdeal if a card is turned face up in the deal, if a card is found face up in the "
                "stock before anyone goes out, or if a wrong number of cards is found before everyone has played "
                "once. Deal again."
            ),
            cite="S1 law 4",
        ),
        w.p(
            msg(
                "A wrong number of cards found later: the hand is played out, but whoever goes out gets no "
                "going-out bonus, nor the concealed bonus, unless the table agrees his own hand was right. Mark "
                "the deal “misdeal found late”."
            ),
            cite="S1 law 4",
            id="misdeal-no-bonus",
        ),
        w.p(msg("Ruling: if nobody goes out, there is no bonus to withhold."), cite=RULING),
    ]
    examples: list[Example] = []
    if _misdeal_supported():
        examples.append(
            _scored(
                rules,
                "ex-misdeal",
                msg("A misdeal found late"),
                msg("Ann goes out, but a wrong number of cards was found after the first play."),
                (ANN, BEN),
                [{**_ok_deal_1(rules), LATE_MISDEAL: True}],
            )
        )
    return paras, examples


def _ok_stock_out(w: _Pen, rules: OklahomaRules) -> tuple[list[Paragraph], list[Example]]:
    paras = [
        w.p(
            msg(
                "The player who takes the last card of the stock may meld and discard; then the deal ends. "
                "Nobody went out, so nobody gets a bonus. Everyone scores his melds and loses his hand."
            ),
            cite="S0",
            id="stock-out-no-bonus",
        ),
        w.p(msg("Ruling: the same dealer deals again."), cite=RULING),
    ]
    deal = {
        "out": None,
        "hands": {
            ANN: {"melds": [["QS", "QH", "2C=QD"], ["7H", "8H", "9H"]], "held": ["AC", "3D"]},
            BEN: {"melds": [["5S", "6S", "7S"]], "held": ["KC", "KD", "4C"]},
        },
    }
    examples: list[Example] = [
        _scored(rules, "ex-stock-out", msg("The stock runs out"), msg("Nobody went out."), (ANN, BEN), [deal])
    ]
    return paras, examples


def _ok_end(w: _Pen, rules: OklahomaRules) -> tuple[list[Paragraph], list[Example]]:
    paras = [
        w.p(msg("Each deal's points go onto your running total."), cite="S0"),
        w.p(
            msg(
                "The game ends with the deal on which someone reaches {target}. If several do, the highest total wins."
            ),
            target=w.knob("target"),
            id="target",
        ),
        w.p(
            msg(
                "Ruling: S0 says “passes”; reaching the target exactly is enough. An exact tie at the top: play "
                "another deal."
            ),
            cite=RULING,
            id="tie",
        ),
        *(
            [
                w.p(
                    msg(
                        "The highest running total wins: the concealed bonuses in the side column are added to the "
                        "final tally afterwards and decide nothing."
                    ),
                    cite="S0",
                    id="side-decides-nothing",
                )
            ]
            if rules.concealed_bonus
            else []
        ),
        w.p(msg("The winner gets {game_bonus} for the game."), game_bonus=w.knob("game_bonus"), id="game-bonus"),
        w.p(
            msg(
                "Final tally: the running total, plus the concealed bonuses kept in the side column, plus the "
                "game bonus for the winner."
            )
            if rules.concealed_bonus
            else msg("Final tally: the running total, plus the game bonus for the winner."),
            cite="S0",
            id="final-tally",
        ),
    ]
    concealed = bool(rules.concealed_bonus)
    first = [_ok_big_deal(rules, concealed=True)] if concealed else []
    deals = _until_the_end(rules, (ANN, BEN), first, _ok_big_deal(rules))
    target = value_message(rules.target)
    if concealed:
        text = msg(
            "Ann goes out with big melds, deal after deal, until she reaches {target} (her first out is concealed).",
            target=target,
        )
    else:
        text = msg("Ann goes out with big melds, deal after deal, until she reaches {target}.", target=target)
    title = nmsg("A whole game in {n} deal", "A whole game in {n} deals", len(deals))
    example = _scored(rules, "ex-end", title, text, (ANN, BEN), deals)
    return paras, [replace(example, show="final")]


def _oklahoma_sections(rules: OklahomaRules) -> list[Section]:
    w = _Pen(rules)
    melds, meld_examples = _ok_melds(w, rules)
    wild, wild_examples = _ok_wild(w, rules)
    out, out_examples = _ok_going_out(w, rules)
    concealed, concealed_examples = _ok_concealed(w, rules)
    misdeal, misdeal_examples = _ok_misdeal(w, rules)
    stock, stock_examples = _ok_stock_out(w, rules)
    end, end_examples = _ok_end(w, rules)
    deal_1 = _scored(
        rules,
        "ex-deal",
        msg("A deal scored"),
        msg("Ann goes out; Ben is caught with cards in his hand."),
        (ANN, BEN),
        [_ok_deal_1(rules)],
    )
    body: dict[str, tuple[list[Paragraph], list[Example]]] = {
        "players": (_ok_players(w, rules), []),
        "deal": (_ok_deal(w), []),
        "turn": (_ok_turn(w), []),
        "melds": (melds, meld_examples),
        "wild-cards": (wild, wild_examples),
        "card-values": (_ok_values(w, rules), [deal_1]),
        "going-out": (out, out_examples),
        "concealed": (concealed, concealed_examples),
        "late-misdeal": (misdeal, misdeal_examples),
        "stock-out": (stock, stock_examples),
        "end": (end, end_examples),
    }
    return [Section(sid, title, tuple(body[sid][0]), tuple(body[sid][1])) for sid, title in OK_SECTIONS]


# -------------------------------------------------------------------------------------------
# Oklahoma Gin

GIN_SECTIONS: Final = (
    ("players", N_("Players and cards")),
    ("deal", N_("The deal")),
    ("turn", N_("A turn")),
    ("melds", N_("Legal melds")),
    ("knock-limit", N_("The knock limit")),
    ("knocking", N_("Going out: knocking")),
    ("layoffs", N_("Layoffs")),
    ("knock", N_("A knock won")),
    ("undercut", N_("Undercut")),
    ("gin", N_("Gin")),
    ("big-gin", N_("Big gin")),
    ("spades", N_("A spade upcard")),
    ("void", N_("The stock down to two cards")),
    ("end", N_("The end of the game")),
    ("boxes", N_("Boxes")),
    ("shutout", N_("Shutout")),
    ("scoring", N_("Points to the winner, or penalty points")),
    ("hollywood", N_("Hollywood: three games at once")),
)

# Cards for the Gin examples (no card twice in a deal; the upcards are in nobody's hand).
GIN_ANN = [["3C", "4C", "5C"], ["9D", "9H", "9C"], ["10H", "JH", "QH"]]
GIN_BEN = ["KS", "QD", "JC", "10S", "8H", "7D", "6S", "5H", "4D", "2S"]  # no meld: 72 points
GIN_GIN = [["3C", "4C", "5C"], ["9D", "9H", "9C"], ["10H", "JH", "QH", "KH"]]
UPCARD, SPADE_UPCARD = "8D", "8S"


def _outcome_cite(rules: GinRules, what: str) -> Cite:
    return Cite(gin.outcome_source(rules, what))


def _gin_knock(upcard: str = UPCARD, ben: Sequence[str] = GIN_BEN, knocker: str = ANN) -> dict[str, Any]:
    other = BEN if knocker == ANN else ANN
    return {
        "upcard": upcard,
        "knocker": knocker,
        "hands": {knocker: {"melds": GIN_ANN, "deadwood": ["AS"]}, other: {"cards": list(ben)}},
    }


def _gin_gin(upcard: str = UPCARD, winner: str = ANN) -> dict[str, Any]:
    other = BEN if winner == ANN else ANN
    return {
        "upcard": upcard,
        "knocker": winner,
        "hands": {winner: {"melds": GIN_GIN, "deadwood": []}, other: {"cards": GIN_BEN}},
    }


def _gin_undercut() -> dict[str, Any]:
    return {
        "upcard": UPCARD,
        "knocker": ANN,
        "hands": {
            ANN: {"melds": GIN_ANN, "deadwood": ["8S"]},
            BEN: {"cards": ["KS", "KD", "KC", "5S", "6S", "7S", "2D", "3D", "4D", "AH"]},
        },
    }


def _gin_players(w: _Pen, rules: GinRules) -> list[Paragraph]:
    paras = [
        w.p(msg("One pack of 52 cards, no Joker."), cite=gin.SETUP_SOURCE),
        (
            w.p(msg("{max_players}, 10 cards each."), max_players=w.knob("max_players", msg("Two players")))
            if rules.max_players == 2
            else w.p(
                msg("From 2 to {max_players} players: 10 cards each for two, 7 each for three or four."),
                max_players=w.knob("max_players"),
                cite="S4",
            )
        ),
        w.p(msg("Card points: ace 1, 2 to 10 their face value, J Q K 10."), cite="S2, S4", id="card-points"),
    ]
    return paras


def _gin_deal(w: _Pen, rules: GinRules) -> list[Paragraph]:
    return [
        w.p(
            msg(
                "The dealer deals the cards and turns the next card face up: the first upcard. It starts the "
                "discard pile; the rest is the stock."
            ),
            cite="S2, Setup 3",
        ),
        w.p(
            msg("The first upcard sets the knock limit of the hand, and a spade multiplies its points.")
            if rules.spade_multiplier > 1
            else msg("The first upcard sets the knock limit of the hand."),
            cite=_outcome_cite(rules, "limit"),
        ),
        w.p(msg("The winner of a hand deals the next one."), cite="S3"),
    ]


def _gin_turn(w: _Pen) -> list[Paragraph]:
    return [
        w.p(
            msg(
                "First, the non-dealer may take the upcard. If he refuses, the dealer may. If both refuse, the "
                "non-dealer starts by drawing from the stock."
            ),
            cite="S3",
        ),
        w.p(
            msg("Every turn: draw the top card of the stock or of the discard pile, then discard one card."),
            cite="S2; S3",
        ),
        w.p(msg("The hand ends when someone knocks or goes gin."), cite="S2, Gameplay 4"),
    ]


def _gin_melds(w: _Pen) -> tuple[list[Paragraph], list[Example]]:
    paras = [
        w.p(msg("A set: 3 or 4 cards of one rank. A run: 3 or more cards of one suit in order."), cite=gin.MELD_SOURCE),
        w.p(msg("The ace is low only: A-2-3 is a run; Q-K-A and K-A-2 are not."), cite=gin.MELD_SOURCE, id="ace-low"),
        w.p(msg("A card belongs to one meld only. Cards in no meld are your deadwood."), cite=gin.MELD_SOURCE),
    ]
    examples: list[Example] = [
        _meld_example_gin("ex-meld-run", "AS 2S 3S"),
        _meld_example_gin("ex-meld-set", "7S 7H 7D 7C"),
        _meld_example_gin("ex-meld-ace-high", "QH KH AH"),
    ]
    return paras, examples


def _gin_limit(w: _Pen, rules: GinRules) -> tuple[list[Paragraph], list[Example]]:
    paras = [
        w.p(
            msg(
                "The first upcard's points set the knock limit for the hand: 2 to 9 their face value; 10, J, Q "
                "and K 10. To knock, your deadwood must be at or below the limit."
            ),
            cite=_outcome_cite(rules, "limit"),
        ),
        w.p(
            msg(
                "An ace upcard means gin only: nobody may knock with any deadwood. Ruling: S2's “Ace = 1 (gin "
                "only hand)” is read as gin only, as S4 and BO say."
            ),
            cite=Cite("S4, BO", "source"),
            id="ace-upcard",
        ),
    ]
    examples: list[Example] = [
        _scored(
            rules,
            "ex-over-the-limit",
            msg("Over the limit"),
            msg("The upcard is the 3♥; Ann tries to knock with the 7♠ left over."),
            (ANN, BEN),
            [
                {
                    **_gin_knock(),
                    "upcard": "3H",
                    "hands": {ANN: {"melds": GIN_ANN, "deadwood": ["7S"]}, BEN: {"cards": GIN_BEN}},
                }
            ],
        ),
        _scored(
            rules,
            "ex-ace-upcard",
            msg("An ace upcard"),
            msg("The upcard is the A♦; Ann tries to knock with the A♠ left over."),
            (ANN, BEN),
            [{**_gin_knock(), "upcard": "AD"}],
        ),
    ]
    return paras, examples


def _gin_knocking(w: _Pen, rules: GinRules) -> tuple[list[Paragraph], list[Example]]:
    paras = [
        w.p(
            msg("To knock, discard face down and lay your cards out: your melds, then your deadwood."),
            cite="S2, Gameplay 4",
        ),
        w.p(
            msg(
                "The knocker's spread is scored as he lays it down: the score keeper never rearranges it. Enter "
                "only his cards and it finds the spread with the least deadwood and, from 11 cards, the best "
                "discard."
            ),
            cite="RECORD.md",
            id="spread",
        ),
    ]
    return paras, []


def _gin_layoffs(w: _Pen, rules: GinRules) -> tuple[list[Paragraph], list[Example]]:
    chained = rules.layoffs == "chained"
    paras = [
        w.p(
            msg(
                "After a knock the defender lays down his own melds and lays off cards that fit the knocker's "
                "melds, which lowers his deadwood. Never after gin."
            ),
            cite=Cite("; ".join(dict.fromkeys((gin.outcome_source(rules, "layoff"), "S4")))),  # party: "S4" once
        ),
        w.p(
            msg("Layoffs here: {layoffs}."),
            layoffs=w.knob(
                "layoffs",
                msg("a layoff may extend a run that an earlier layoff extended (7♥ onto 4♥ 5♥ 6♥, then 8♥)")
                if chained
                else msg(
                    "only onto the knocker's melds as laid down; nothing extends a card already laid off, "
                    "the defender's own layoffs included (ruling, from S4's example)"
                ),
            ),
            id="chaining",
        ),
        w.p(
            msg("The score keeper chooses the defender's melds and layoffs together, to leave him the least deadwood."),
            cite=RULES_MD,
        ),
    ]
    if rules.penalty and rules.max_players > 2:
        paras.append(
            w.p(
                msg(
                    "With three or four players, the defenders lay off in seat order after the knocker, each for his "
                    "least deadwood given what the earlier ones laid off. Ruling: when a defender has equally good "
                    "choices, the one that leaves the later defenders the least deadwood is taken."
                ),
                cite="S4",
                id="seat-order",
            )
        )
    return paras, [_gin_layoff_example(rules)]


def _gin_layoff_example(rules: GinRules) -> Example:
    deal = {
        "upcard": UPCARD,
        "knocker": ANN,
        "hands": {
            ANN: {"melds": [["3C", "4C", "5C"], ["9D", "9H", "9C"], ["4H", "5H", "6H"]], "deadwood": ["AS"]},
            BEN: {"cards": ["KS", "QD", "JC", "10S", "7H", "8H", "6S", "2H", "4D", "2S"]},
        },
    }
    return _scored(
        rules,
        "ex-layoff",
        msg("Laying off"),
        msg("Ann knocks with the run 4♥ 5♥ 6♥; Ben holds the 7♥ and the 8♥."),
        (ANN, BEN),
        [deal],
    )


def _gin_knock_won(w: _Pen, rules: GinRules) -> tuple[list[Paragraph], list[Example]]:
    cite = _outcome_cite(rules, "knock")
    if rules.penalty:
        paras = [
            w.p(
                msg(
                    "If every defender's deadwood after layoffs is higher than the knocker's, each of them takes his "
                    "deadwood minus the knocker's as penalty points."
                ),
                cite=cite,
            )
        ]
    else:
        paras = [
            w.p(
                msg(
                    "If the knocker's deadwood is lower than the defender's after layoffs, the knocker scores the "
                    "difference."
                ),
                cite=cite,
            )
        ]
    return paras, _gin_knock_examples(rules)


def _gin_knock_examples(rules: GinRules) -> list[Example]:
    examples: list[Example] = [
        _scored(rules, "ex-knock", msg("A knock"), msg("Ann knocks with the A♠ left over."), (ANN, BEN), [_gin_knock()])
    ]
    if rules.penalty and rules.max_players > 2:
        cleo = ["5H", "4D", "2S", "KD", "QC", "JH", "10C"]
        deal = {
            "upcard": UPCARD,
            "knocker": ANN,
            "hands": {
                ANN: {"melds": GIN_ANN[:2], "deadwood": ["AS"]},
                BEN: {"cards": ["KS", "QD", "JC", "10S", "8H", "7D", "6S"]},
                CLEO: {"cards": cleo},
            },
        }
        examples.append(
            _scored(
                rules,
                "ex-knock-three",
                msg("A knock with three players"),
                msg("Ann knocks; Ben and Cleo each take their own penalty points."),
                (ANN, BEN, CLEO),
                [deal],
            )
        )
    return examples


def _gin_undercut_section(w: _Pen, rules: GinRules) -> tuple[list[Paragraph], list[Example]]:
    cite = _outcome_cite(rules, "undercut")
    if rules.penalty:
        paras = [
            w.p(
                msg(
                    "A defender whose deadwood after layoffs is equal to or less than the knocker's undercuts him. "
                    "The undercutter is the defender with the least deadwood; ruling: on a tie, the first in seat "
                    "order after the knocker."
                ),
                cite=cite,
            ),
            w.p(
                msg(
                    "Everyone but the undercutter takes his deadwood minus the undercutter's, and the knocker takes "
                    "{undercut_bonus} more, even on equal deadwood."
                ),
                undercut_bonus=w.knob("undercut_bonus"),
                id="undercut-bonus",
            ),
        ]
    else:
        paras = [
            w.p(
                msg(
                    "If the defender's deadwood after layoffs is equal to or less than the knocker's, he undercuts "
                    "him: the defender scores the difference, plus an undercut bonus of {undercut_bonus}."
                ),
                undercut_bonus=w.knob("undercut_bonus"),
                cite=cite,
                id="undercut-bonus",
            )
        ]
    paras.append(w.p(msg("Gin is never undercut."), cite=_outcome_cite(rules, "gin")))
    examples: list[Example] = [
        _scored(
            rules,
            "ex-undercut",
            msg("An undercut"),
            msg("Ann knocks with the 8♠ left over (8 points); Ben has only the A♥ left."),
            (ANN, BEN),
            [_gin_undercut()],
        )
    ]
    return paras, examples


def _gin_gin_section(w: _Pen, rules: GinRules) -> tuple[list[Paragraph], list[Example]]:
    cite = _outcome_cite(rules, "gin")
    if rules.penalty:
        text = w.p(
            msg(
                "Gin: every card melded, no deadwood. Nobody may lay off. Each loser takes his own deadwood plus "
                "{gin_bonus}."
            ),
            gin_bonus=w.knob("gin_bonus"),
            cite=cite,
            id="gin-bonus",
        )
    else:
        text = w.p(
            msg(
                "Gin: every card melded, no deadwood. The defender may not lay off. Gin scores a bonus of "
                "{gin_bonus} plus the defender's whole deadwood."
            ),
            gin_bonus=w.knob("gin_bonus"),
            cite=cite,
            id="gin-bonus",
        )
    examples: list[Example] = [
        _scored(rules, "ex-gin", msg("Gin"), msg("Ann melds all ten cards."), (ANN, BEN), [_gin_gin()])
    ]
    return [text], examples


def _gin_big_gin(w: _Pen, rules: GinRules) -> tuple[list[Paragraph], list[Example]]:
    if not rules.big_gin_bonus:
        return [
            w.p(
                msg(
                    "Big gin (all 11 cards melded, no discard) is a house option. This table does not play it "
                    "({big_gin_bonus}): a big gin scores as gin."
                ),
                big_gin_bonus=w.knob("big_gin_bonus", msg("bonus 0")),
                id="big-gin-bonus",
            )
        ], []
    paras = [
        w.p(
            msg(
                "Big gin: all 11 cards melded, with no discard. It scores a bonus of {big_gin_bonus} instead of "
                "the gin bonus, plus the defender's whole deadwood."
            ),
            big_gin_bonus=w.knob("big_gin_bonus"),
            id="big-gin-bonus",
        )
    ]
    deal = {
        "upcard": UPCARD,
        "knocker": ANN,
        "hands": {
            ANN: {"melds": [["3C", "4C", "5C", "6C"], *GIN_GIN[1:]], "deadwood": [], "big_gin": True},
            BEN: {"cards": GIN_BEN},
        },
    }
    return paras, [_scored(rules, "ex-big-gin", msg("Big gin"), msg("Ann melds all eleven cards."), (ANN, BEN), [deal])]


def _gin_spades(w: _Pen, rules: GinRules) -> tuple[list[Paragraph], list[Example]]:
    m = rules.spade_multiplier
    if m > 1:
        paras = [
            w.p(
                msg(
                    "If the first upcard is a spade, every point of the hand is multiplied by {spade_multiplier}, "
                    "the gin and undercut bonuses included. (×3 is called “Double Oklahoma”.)"
                ),
                spade_multiplier=w.knob("spade_multiplier", f"{m}"),
                id="spade-multiplier",
            ),
            w.p(msg("The multiplied points count toward the target."), cite="S2"),
        ]
    else:
        paras = [
            w.p(
                msg(
                    "A spade upcard changes nothing at this table: {spade_multiplier}. (S2 doubles every point of "
                    "the hand; “Double Oklahoma” triples it.)"
                ),
                spade_multiplier=w.knob("spade_multiplier", msg("×1")),
                id="spade-multiplier",
            )
        ]
    examples: list[Example] = [
        _scored(
            rules,
            "ex-spade",
            msg("A spade upcard"),
            msg("The same knock as above, but the first upcard is the 8♠."),
            (ANN, BEN),
            [_gin_knock(SPADE_UPCARD)],
        )
    ]
    return paras, examples


def _gin_void(w: _Pen, rules: GinRules) -> tuple[list[Paragraph], list[Example]]:
    if rules.stock_out == "void":
        paras = [
            w.p(
                msg(
                    "If only two cards are left in the stock and nobody has knocked, {stock_out}: nobody scores and "
                    "the same dealer deals again."
                ),
                stock_out=w.knob("stock_out", msg("the hand is void")),
                id="void-hand",
            )
        ]
        examples: list[Example] = [
            _scored(
                rules,
                "ex-void",
                msg("A void hand"),
                msg("Nobody knocked."),
                (ANN, BEN),
                [{"upcard": UPCARD, "knocker": None, "hands": {}}],
            )
        ]
        return paras, examples
    return [
        w.p(
            msg(
                "If only two cards are left in the stock, {stock_out} and play goes on: every hand ends with a "
                "knock or gin."
            ),
            stock_out=w.knob("stock_out", msg("the discard pile is shuffled into a new stock")),
            id="void-hand",
        )
    ], []


def _gin_end(w: _Pen, rules: GinRules) -> tuple[list[Paragraph], list[Example]]:
    paras = [
        _gin_target(w, rules),
        (
            w.p(
                msg(
                    "Ruling: when someone reaches the target and two or more tie for the lowest total, the game goes "
                    "on (S4 names one winner)."
                ),
                cite=RULING,
                id="tie",
            )
            if rules.penalty
            else w.p(
                msg(
                    "Ruling: when two players pass the target after the same deal (typed points can do it), the "
                    "higher total wins; if they are equal, the game goes on."
                ),
                cite=RULING,
                id="tie",
            )
        ),
        _gin_game_bonus(w, rules),
        w.p(
            msg(
                "Final tally: each player's game total, plus what is added at the end: the game bonus, the "
                "boxes, the shutout."
            ),
            cite=_outcome_cite(rules, "game"),
            id="final-tally",
        ),
    ]
    return paras, [_gin_whole_game(rules)]


def _gin_target(w: _Pen, rules: GinRules) -> Paragraph:
    target = w.knob("target")
    if rules.penalty:
        return w.p(
            msg(
                "Penalty points add up. The game ends when someone reaches {target} penalty points "
                "({target_strict}); the lowest total wins."
            ),
            target=target,
            target_strict=w.knob(
                "target_strict", msg("more than that") if rules.target_strict else msg("exactly that is enough")
            ),
            cite=_outcome_cite(rules, "game"),
            id="target",
        )
    if rules.target_strict:
        return w.p(
            msg("The first to score more than {target} wins the game: {target_strict}."),
            target=target,
            target_strict=w.knob("target_strict", msg("exactly the target is not enough")),
            cite=_outcome_cite(rules, "game"),
            id="target",
        )
    return w.p(
        msg("The first to reach {target} wins the game: {target_strict}."),
        target=target,
        target_strict=w.knob("target_strict", msg("reaching it exactly is enough")),
        cite=_outcome_cite(rules, "game"),
        id="target",
    )


def _gin_game_bonus(w: _Pen, rules: GinRules) -> Paragraph:
    if rules.penalty:
        return w.p(
            msg(
                "Ruling: with penalty points there is no game bonus, no boxes and no shutout (S4 pays none): rules "
                "that set one are refused."
            ),
            cite=RULING,
            id="game-bonus",
        )
    if rules.game_bonus:
        return w.p(
            msg("The winner gets a game bonus of {game_bonus}."), game_bonus=w.knob("game_bonus"), id="game-bonus"
        )
    return w.p(msg("No game bonus at this table: {game_bonus}."), game_bonus=w.knob("game_bonus"), id="game-bonus")


def _gin_whole_game(rules: GinRules) -> Example:
    deals = _until_the_end(rules, (ANN, BEN), [_gin_knock(knocker=BEN)], _gin_gin())
    if rules.hollywood:
        text = msg("Ben wins the first hand with a knock; then Ann goes gin, hand after hand, until the match ends.")
    else:
        text = msg("Ben wins the first hand with a knock; then Ann goes gin, hand after hand, until the game ends.")
    title = nmsg("A whole game in {n} hand", "A whole game in {n} hands", len(deals))
    example = _scored(rules, "ex-end", title, text, (ANN, BEN), deals)
    return replace(example, show="final")


def _gin_boxes(w: _Pen, rules: GinRules) -> tuple[list[Paragraph], list[Example]]:
    if rules.penalty:
        return [w.p(msg("Ruling: boxes are not counted with penalty points."), cite=RULING, id="box-bonus")], []
    if rules.box_bonus:
        return [
            w.p(
                msg(
                    "Each hand a player wins is a box. When the game ends, each box is worth {box_bonus}, added to "
                    "that player's total with the game bonus."
                ),
                box_bonus=w.knob("box_bonus"),
                id="box-bonus",
            )
        ], []
    return [w.p(msg("No box bonus at this table: {box_bonus}."), box_bonus=w.knob("box_bonus"), id="box-bonus")], []


def _gin_shutout(w: _Pen, rules: GinRules) -> tuple[list[Paragraph], list[Example]]:
    if rules.penalty:
        return [w.p(msg("Ruling: no shutout with penalty points."), cite=RULING, id="shutout-double")], []
    if not rules.shutout:
        return [
            w.p(
                msg(
                    "Shutout doubling is a house option: {shutout}. Where it is played, a game won with the loser on "
                    "0 or less doubles the winner's points from hands."
                ),
                shutout=w.knob("shutout", msg("not played at this table")),
                id="shutout-double",
            )
        ], []
    paras = [
        w.p(
            msg(
                "Shutout: when the game is won with the loser still on 0, {shutout}; then the box and game "
                "bonuses are added, not doubled."
            ),
            shutout=w.knob("shutout", msg("the winner's points from hands are doubled")),
            cite="GC",
            id="shutout-double",
        ),
        w.p(
            msg("Ruling: a loser below 0 (typed points can take him there) scored nothing either: he is shut out too."),
            cite=RULING,
            id="shutout-below-zero",
        ),
    ]
    deals = _until_the_end(rules, (ANN, BEN), [], _gin_gin())
    example = _scored(
        rules,
        "ex-shutout",
        msg("A shutout"),
        msg("Ann goes gin, hand after hand; Ben never scores."),
        (ANN, BEN),
        deals,
    )
    return paras, [replace(example, show="final")]


def _gin_scoring(w: _Pen, rules: GinRules) -> tuple[list[Paragraph], list[Example]]:
    if rules.penalty:
        return [
            w.p(
                msg("Scoring: {scoring}. Each hand, the losers take penalty points; the lowest total wins the game."),
                scoring=w.knob("scoring", msg("penalty points")),
                id="penalty",
            ),
            w.p(
                msg(
                    "Gin: each loser takes his deadwood plus the gin bonus. Knock: each loser takes his deadwood "
                    "minus the knocker's. Undercut: each player but the undercutter takes his deadwood minus the "
                    "undercutter's, and the knocker the undercut bonus on top."
                ),
                cite="S4",
            ),
        ], []
    return [
        w.p(
            msg("Scoring: {scoring}. The loser scores nothing for the hand; the highest total wins the game."),
            scoring=w.knob("scoring", msg("points to the hand's winner")),
            id="penalty",
        ),
        w.p(
            msg(
                "Ruling: scoring to the hand's winner is for two players. Three or four play the party game, with "
                "penalty points (S4): a game of more players that scores to the winner is refused."
            ),
            cite=RULING,
            id="two-players",
        ),
    ], []


def _gin_hollywood(w: _Pen, rules: GinRules) -> tuple[list[Paragraph], list[Example]]:
    if not rules.hollywood:
        return [
            w.p(
                msg(
                    "Hollywood is a house option for two players: three games scored at once, in three columns. "
                    "{hollywood}."
                ),
                hollywood=w.knob("hollywood", msg("Not played at this table")),
                id="columns",
            )
        ], []
    source = gin.HOLLYWOOD_SOURCE
    paras = [
        w.p(
            msg(
                "Hollywood: {hollywood}, in three columns, each to {target}. Two players only, scoring to the "
                "hand's winner."
            ),
            hollywood=w.knob("hollywood", msg("three games are scored at once")),
            target=w.knob("target"),
            id="columns",
        ),
        w.p(
            msg(
                "Each hand you win goes in every open column where you already have an entry, and in the first "
                "open column where you have none. So your first win goes in column 1, your second in columns 1 "
                "and 2, your third and later in all three. A first win after column 1 has closed starts you in "
                "column 2."
            ),
            cite=source,
            id="entries",
        ),
        w.p(
            msg(
                "A column closes when someone reaches the target in it. Each column is settled as a game of its "
                "own: the game bonus, boxes for the hands won in it, the shutout."
            ),
            cite=source,
            id="column-closes",
        ),
        w.p(
            msg(
                "The match ends when all three columns are closed. Ruling: its running total and its final tally "
                "are the sums of the three columns, so a hand entered in two columns counts twice, and the match "
                "goes to the player with the larger sum of finals, not to the one who won the most columns; on "
                "equal sums, to the one who won more columns."
            ),
            cite=RULING,
            id="match",
        ),
        w.p(
            msg(
                "Ruling: a Hollywood deal is scored from its cards. Points typed without the cards cannot say "
                "which columns they go in, so a deal of points only is refused."
            ),
            cite=RULING,
            id="cards-only",
        ),
    ]
    return paras, [_gin_hollywood_example(rules)]


def _gin_hollywood_example(rules: GinRules) -> Example:
    deals = [_gin_gin(), _gin_knock(), _gin_knock(knocker=BEN), _gin_knock()]
    example = _scored(
        rules,
        "ex-hollywood",
        msg("Four hands in three columns"),
        msg("Ann wins the first, second and fourth hands; Ben the third."),
        (ANN, BEN),
        deals,
    )
    return replace(example, show="columns")


def _gin_sections(rules: GinRules) -> list[Section]:
    w = _Pen(rules)
    makers: dict[str, Callable[[], tuple[list[Paragraph], list[Example]]]] = {
        "players": lambda: (_gin_players(w, rules), []),
        "deal": lambda: (_gin_deal(w, rules), []),
        "turn": lambda: (_gin_turn(w), []),
        "melds": lambda: _gin_melds(w),
        "knock-limit": lambda: _gin_limit(w, rules),
        "knocking": lambda: _gin_knocking(w, rules),
        "layoffs": lambda: _gin_layoffs(w, rules),
        "knock": lambda: _gin_knock_won(w, rules),
        "undercut": lambda: _gin_undercut_section(w, rules),
        "gin": lambda: _gin_gin_section(w, rules),
        "big-gin": lambda: _gin_big_gin(w, rules),
        "spades": lambda: _gin_spades(w, rules),
        "void": lambda: _gin_void(w, rules),
        "end": lambda: _gin_end(w, rules),
        "boxes": lambda: _gin_boxes(w, rules),
        "shutout": lambda: _gin_shutout(w, rules),
        "scoring": lambda: _gin_scoring(w, rules),
        "hollywood": lambda: _gin_hollywood(w, rules),
    }
    out = []
    for sid, title in GIN_SECTIONS:
        paras, examples = makers[sid]()
        out.append(Section(sid, title, tuple(paras), tuple(examples)))
    return out


# -------------------------------------------------------------------------------------------
# Where the sources disagree, and every knob at a glance

# Disagreements that are not one knob's values: (id, topic, what each source says, the ruling, why).
_TEXT_DISPUTES: Mapping[str, tuple[tuple[str, str, tuple[tuple[str, str], ...], str, str], ...]] = {
    OKLAHOMA: (
        (
            "dispute-reaching",
            N_("Reaching the target"),
            (("S0", N_("the game ends on the deal on which a player “passes” 1,000")),),
            N_("reaching the target exactly is enough"),
            N_("a score of exactly the target has reached it; S1 gives no target at all"),
        ),
        (
            "dispute-readings",
            N_("Melds that read more than one way"),
            (
                ("S0", N_("a wild card in a sequence is announced when melded")),
                ("S1 law 9", N_("the player who melds the Joker announces the card it represents")),
            ),
            N_("name the wild cards only where the readings score differently"),
            N_("a unique reading, or readings that score the same, need no name; the score sheet says which was taken"),
        ),
    ),
    GIN: (
        (
            "dispute-ace-upcard",
            N_("An ace upcard"),
            (
                ("S2", N_("“Ace = 1 (gin only hand)”")),
                ("S4", N_("a starting ace sets the knock value to “Gin only”")),
                ("BO", N_("gin only")),
            ),
            N_("gin only: nobody may knock with any deadwood"),
            N_("S2's own variation says an ace upcard “strictly requires gin”"),
        ),
    ),
}


def _disputes(rules: Rules) -> tuple[Dispute, ...]:
    game, current = rules.game, rules.profile
    out: list[Dispute] = []
    for k in profiles.knobs(game):
        values = {repr(s.value) for s in k.settings.values()}
        if len(values) < 2:
            continue
        says = tuple(
            Said(
                profiles.PROFILES[game][name].title,
                name,
                s.value,
                Cite(s.source, s.basis),
                s.note,
                name == current,
            )
            for name, s in k.settings.items()
        )
        cite = _cite_of(rules.cite(k.name))
        setting = k.settings[current]
        out.append(
            Dispute(
                f"dispute-{k.name.replace('_', '-')}",
                k.label,
                says,
                rules.values[k.name],
                cite,
                setting.note if k.name not in rules.overridden else "",
                k.name,
            )
        )
    for did, topic, said, taken, why in _TEXT_DISPUTES[game]:
        out.append(Dispute(did, topic, tuple(Said(src, "", text, Cite(src)) for src, text in said), taken, RULING, why))
    return tuple(out)


def _glance(rules: Rules) -> tuple[Glance, ...]:
    out = []
    for k in profiles.knobs(rules.game):
        setting = k.settings[rules.profile]
        out.append(
            Glance(
                k.name,
                k.label,
                k.description,
                rules.values[k.name],
                _cite_of(rules.cite(k.name)),
                setting.note if k.name not in rules.overridden else "",
                k.type_name,
                k.allowed_text(),
            )
        )
    return tuple(out)


_CODE = re.compile(r"\b(S[0-4]|PG|BO|GC|AR|HW)\b")
_MORE_SOURCES: Mapping[str, str] = {
    "RULES.md": N_("this project's rules: what the score keeper must know"),
    "RECORD.md": N_("this project's game record: how a deal is written down"),
}


def _cites(sections: Iterable[Section], disputes: Iterable[Dispute], glance: Iterable[Glance]) -> list[Cite]:
    """Every citation in the book: the paragraphs' and their values', the disputes', the knobs'."""
    cites: list[Cite] = []
    for s in sections:
        for p in s.paragraphs:
            cites += [p.cite] if p.cite else []
            cites += [x.cite for _, x in p.values if x.cite]
    for d in disputes:
        cites += [d.cite, *(x.cite for x in d.says)]
    cites += [g.cite for g in glance]
    return cites


def _sources(
    sections: Iterable[Section], disputes: Iterable[Dispute], glance: Iterable[Glance]
) -> tuple[tuple[str, str], ...]:
    codes: set[str] = set()
    for c in _cites(sections, disputes, glance):
        codes.update(_CODE.findall(c.source))
        codes.update(x for x in ("RULES.md", "RECORD.md") if x in c.source)
    known = {**profiles.SOURCES, **_MORE_SOURCES}
    order = [*profiles.SOURCES, *_MORE_SOURCES]
    return tuple((code, known[code]) for code in order if code in codes)


# -------------------------------------------------------------------------------------------
# The book


@cached(maxsize=64)
def build(rules: Rules) -> Book:
    """The rule book of ``rules``' game under its profile and house options."""
    if isinstance(rules, OklahomaRules):
        sections = _oklahoma_sections(rules)
    elif isinstance(rules, GinRules):
        sections = _gin_sections(rules)
    else:  # pragma: no cover - every game has a Rules class
        raise TypeError(f"no rule book for {rules.game}")
    disputes = _disputes(rules)
    glance = _glance(rules)
    prof = profiles.PROFILES[rules.game][rules.profile]
    return Book(
        game=rules.game,
        profile=rules.profile,
        title=msg("{game}: {profile}", game=profiles.GAME_NAME_MESSAGES[rules.game], profile=marked(prof.title)),
        description=prof.description,
        rules=rules,
        sections=tuple(sections),
        disputes=disputes,
        glance=glance,
        sources=_sources(sections, disputes, glance),
    )


def book(game: str, profile: str, options: Mapping[str, Any] | None = None) -> Book:
    """The rule book of ``game`` under ``profile`` with ``options``; RecordInvalid names what is wrong."""
    return build(profiles.resolve(game, profile, options))


def refused(rules: Rules) -> list[RecordError]:
    """What these rules refuse whatever the players (Hollywood with penalty points, say): the
    engine's own messages. Player counts are a table's, not the book's."""
    if isinstance(rules, GinRules):
        return gin.setup_errors(rules, ("A", "B"))
    return []


# -------------------------------------------------------------------------------------------
# From a score line to the paragraph that explains it

# The rule texts of the engine's score lines, by game, to the anchor (a paragraph or section id)
# that explains them. ``section_for`` tries these first, then the patterns below.
_RULE_ANCHORS: Mapping[str, Mapping[str, str]] = {
    OKLAHOMA: {
        oklahoma_values.JOKER_MELDED.rule: "value-joker",
        oklahoma_values.JOKER_HELD.rule: "value-joker",
        oklahoma_values.QUEEN_OF_SPADES_MELDED.rule: "value-queen",
        oklahoma_values.QUEEN_OF_SPADES_HELD.rule: "value-queen",
        oklahoma_values.ACE_MELDED.rule: "value-ace",
        oklahoma_values.ACE_HELD.rule: "value-ace",
        oklahoma_values.K_TO_8_MELDED.rule: "value-high",
        oklahoma_values.SEVEN_TO_3_MELDED.rule: "value-low",
        oklahoma_values.SEVEN_TO_3_HELD.rule: "value-low",
        oklahoma_values.TWO_AS_QUEEN_OF_SPADES.rule: "value-two",
        oklahoma_values.TWO_HELD.rule: "value-two",
        oklahoma_values.TWO_AS_TWO.rule: "two-as-two",
        "a 2 scores the card it stands for": "value-two",
        "going out": "out-bonus",
        "no bonus for going out on one's first turn": "first-turn",
        "concealed bonus": "concealed",
        "the concealed bonus is additional to the going-out bonus": "concealed-first-turn",
        "the running game score": "final-tally",
        "the concealed bonus counts only in the final tally": "final-tally",
        "the winner of the game": "game-bonus",
    },
    GIN: {
        "knock": "knock",
        "undercut": "undercut",
        "undercut bonus": "undercut-bonus",
        "gin": "gin",
        "gin bonus": "gin-bonus",
        "big gin bonus": "big-gin-bonus",
        "spade upcard": "spade-multiplier",
        "hollywood": "entries",
        "game total": "final-tally",
        "game bonus": "game-bonus",
        "box bonus": "box-bonus",
        "shutout": "shutout-double",
    },
}

# Rule texts with a value in them, and new wordings of a rule: (pattern, anchor), first match wins.
_RULE_PATTERNS: Mapping[str, tuple[tuple[re.Pattern[str], str], ...]] = {
    OKLAHOMA: tuple(
        (re.compile(p, re.IGNORECASE), a)
        for p, a in (
            (r"misdeal", "misdeal-no-bonus"),
            (r"first turn", "first-turn"),
            (r"concealed.*(final|side)", "final-tally"),
            (r"concealed", "concealed"),
            (r"joker", "value-joker"),
            (r"q♠|queen of spades", "value-queen"),
            (r"2 standing for a 2|2 as (a )?2", "two-as-two"),
            (r"^(a )?2s?\b|\bdeuce", "value-two"),
            (r"\bace", "value-ace"),
            (r"^k q j 10 9 8", "value-high"),
            (r"^7 6 5 4 3", "value-low"),
            (r"going out|went out|goes out", "out-bonus"),
            (r"winner of the game|game bonus", "game-bonus"),
            (r"running|final tally", "final-tally"),
        )
    ),
    GIN: tuple(
        (re.compile(p, re.IGNORECASE), a)
        for p, a in (
            (r"big gin", "big-gin-bonus"),
            (r"hollywood|column", "entries"),
            (r"undercut.*(bonus|penalty)", "undercut-bonus"),
            (r"undercut", "undercut"),
            (r"gin.*bonus", "gin-bonus"),
            (r"\bgin\b", "gin"),
            (r"spade", "spade-multiplier"),
            (r"shutout", "shutout-double"),
            (r"\bbox", "box-bonus"),
            (r"game bonus", "game-bonus"),
            (r"game total|final", "final-tally"),
            (r"knock", "knock"),
        )
    ),
}


def section_for(game: str, line: Line | Mapping[str, Any] | str) -> str | None:
    """The id of the paragraph (or section) of ``game``'s rule book that explains a score line,
    found by the line's ``rule`` text (a Line, a line's dict as the result JSON has it, or the
    rule text itself); None for a rule text the book does not know."""
    if isinstance(line, Line):
        rule = line.rule
    elif isinstance(line, Mapping):
        rule = str(line.get("rule", ""))
    else:
        rule = line
    anchors = _RULE_ANCHORS.get(game, {})
    if rule in anchors:
        return anchors[rule]
    for pattern, anchor in _RULE_PATTERNS.get(game, ()):
        if pattern.search(rule):
            return anchor
    return None
