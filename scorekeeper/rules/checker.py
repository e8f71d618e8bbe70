"""Answers for "Check a ruling": one question, no game needed, through the engine.

Four kinds of question:

* ``meld``   Oklahoma: is this meld legal, what is it worth (``oklahoma.check_meld``).
* ``hand``   Oklahoma: melds laid and cards left in hand: what they score, card by card, scored by
             the engine as one player's hand (``oklahoma.score_hand``: as if the stock ran out).
* ``knock``  Oklahoma Gin: a hand (10 cards, or 11 before the discard) and the first upcard:
             can it knock, gin, the least deadwood and its arrangement (``gin_search``).
* ``layoff`` Oklahoma Gin: the knocker's melds and the defender's cards: what the defender
             lays off and the deadwood left (``gin_search.defender_best``).
* ``gin``    Oklahoma Gin: the upcard, the knocker's cards and the defender's: the whole hand scored
             by the engine (best arrangements, layoffs, knock/undercut/gin, spade multiplier).
* ``deal``   Either game: a whole deal in the RECORD.md notation (or a whole record), scored
             through ``record.score_record`` exactly as a saved game would be.

Every verdict names the rule and its source. Nothing here raises on bad input: every problem
becomes an error in the verdict.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import cards as cardlib
from . import gin, gin_search, profiles, record
from .errors import RecordInvalid
from .messages import N_, Msg, marked, meld_kind, msg, outcome_words, source_words
from .oklahoma import MeldCheck, check_meld, score_hand
from .oklahoma_melds import SRC_MELD

log = logging.getLogger(__name__)

KINDS: tuple[tuple[str, str, str], ...] = (
    ("meld", "oklahoma", N_("Is this meld legal? (Oklahoma)")),
    ("hand", "oklahoma", N_("What does this hand score? (Oklahoma)")),
    ("knock", "oklahoma-gin", N_("Can I knock with this hand? (Gin)")),
    ("layoff", "oklahoma-gin", N_("What can the defender lay off? (Gin)")),
    ("gin", "oklahoma-gin", N_("Who scores what in this Gin hand?")),
    ("deal", "", N_("Score a whole deal (either game)")),
)
KIND_GAME = {k: g for k, g, _ in KINDS}
DEFAULT_PROFILE = {profiles.OKLAHOMA: "laws", profiles.GIN: "standard"}
MAX_TEXT = 400
MAX_DEAL = 20000


@dataclass(frozen=True, slots=True)
class Question:
    """One question to the checker, as the web form cleaned it: what is asked (``kind``), under
    which rules (``game``, ``profile`` and the table's house ``options``, knob names to values) and
    the text of each field (cards as typed)."""

    kind: str = "knock"
    game: str = profiles.GIN
    profile: str = "standard"
    cards: str = ""
    upcard: str = ""
    spread: str = ""
    other: str = ""
    deal: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def asked(self) -> bool:
        """Has anything been entered to answer?"""
        return any(text.strip() for text in (self.cards, self.upcard, self.spread, self.other, self.deal))

    @property
    def rules(self) -> profiles.Rules:
        """The rules of the question's profile and options; RecordInvalid if the profile is not one of the
        game's, or an option is not one of its knobs or values."""
        return profiles.resolve(self.game, self.profile, self.options)

    @property
    def record_rules(self) -> dict[str, Any]:
        """The ``rules`` of a record scored under the question's rules (RECORD.md)."""
        return {"profile": self.profile, "options": dict(self.options)} if self.options else {"profile": self.profile}


@dataclass
class Verdict:
    """The answer to a question. What it says are messages (``said``: the headline, ``explained``: the
    details, an error's ``msg``); ``headline``, ``details`` and an error's ``message`` are their English
    text."""

    kind: str
    ok: bool | None = None  # True: yes/legal; False: no/illegal; None: just an answer
    said: Msg | None = None
    explained: list[Msg] = field(default_factory=list)
    # rule, value, source, basis (msg: the rule's message; said: the source as a reader sees it)
    cites: list[dict[str, Any]] = field(default_factory=list)
    melds: list[list[str]] = field(default_factory=list)
    deadwood: list[str] = field(default_factory=list)
    layoffs: list[str] = field(default_factory=list)
    discard: str = ""
    errors: list[dict[str, Any]] = field(default_factory=list)
    lines: list[dict[str, Any]] = field(default_factory=list)  # score lines (a meld)
    deals: list[dict[str, Any]] = field(default_factory=list)  # scored deals (result JSON)
    game_result: dict[str, Any] | None = None

    @property
    def headline(self) -> str:
        return "" if self.said is None else str(self.said)

    @property
    def details(self) -> list[str]:
        return [str(m) for m in self.explained]

    def cite(self, rule: Msg | str, source: str, basis: str = "source", value: str = "") -> None:
        self.cites.append(
            {
                "rule": str(rule),
                "source": source,
                "basis": basis,
                "value": value,
                "msg": rule,
                "said": source_words(source),
            }
        )

    def error(
        self,
        message: Msg | str,
        rule: str = "",
        source: str = "",
        cards: tuple[str, ...] = (),
        deal: int | None = None,
        player: str | None = None,
    ) -> None:
        self.errors.append(
            {
                "message": str(message),
                "rule": rule,
                "source": source,
                "cards": list(cards),
                "deal": deal,
                "player": player,
                "msg": message,
            }
        )
        self.ok = False


def _knob_cite(v: Verdict, rules: profiles.Rules, name: str, shown: object = None) -> None:
    c = rules.cite(name)
    k = profiles.knob(rules.game, name)
    value = rules.values[name] if shown is None else shown
    v.cite(marked(k.label), c.source, c.basis, str(value))


def answer(q: Question) -> Verdict:
    """The verdict on a question. Never raises on what was entered: every problem is an error in it."""
    v = Verdict(q.kind)
    rules = _question_rules(q, v)
    if rules is None:
        return v
    if isinstance(rules, profiles.GinRules):
        if q.kind == "knock":
            _knock(q, rules, v)
        elif q.kind == "layoff":
            _layoff(q, rules, v)
        elif q.kind == "gin":
            _gin_hand(q, rules, v)
        else:
            _deal(q, rules, v)
    elif isinstance(rules, profiles.OklahomaRules):
        if q.kind == "meld":
            _meld(q, rules, v)
        elif q.kind == "hand":
            _hand(q, rules, v)
        else:
            _deal(q, rules, v)
    return v


def _question_rules(q: Question, v: Verdict) -> profiles.Rules | None:
    """The question's rules, or None with the reason in the verdict (a kind of the other game, say)."""
    if q.kind not in KIND_GAME:
        v.error(msg("unknown question '{kind}'", kind=q.kind[:20]), rule="question")
        return None
    if KIND_GAME[q.kind] and KIND_GAME[q.kind] != q.game:
        game = profiles.GAME_NAMES.get(KIND_GAME[q.kind], KIND_GAME[q.kind])
        v.error(msg("this question is about {game}", game=game), rule="question")
        return None
    try:
        return q.rules
    except RecordInvalid as exc:
        for e in exc.errors:
            v.error(e.message, e.rule, e.source)
        return None


# ------------------------------------------------------------------------------------------ cards


def _parse_gin_cards(text: str, v: Verdict, what: Msg) -> list[cardlib.Card] | None:
    """The cards typed for ``what`` (the hand, a meld), or None with every problem in the verdict."""
    out: list[cardlib.Card] = []
    bad = False
    for token in cardlib.split_cards(text):
        try:
            card = cardlib.parse_card(token)
        except cardlib.CardError as exc:
            v.error(
                msg("{what}: {problem}", what=what, problem=exc.message),
                rule="card notation",
                source="RECORD.md",
                cards=(exc.token,),
            )
            bad = True
            continue
        if card.is_joker:
            v.error(
                msg("{what}: Oklahoma Gin is played with one 52-card pack, no Joker", what=what),
                rule="cards",
                source=gin.SETUP_SOURCE,
                cards=("JK",),
            )
            bad = True
            continue
        if card in out:
            v.error(
                msg("{what}: {card} is entered twice, and the pack has one of each card", what=what, card=card.label),
                rule="cards",
                source=gin.SETUP_SOURCE,
                cards=(card.label,),
            )
            bad = True
            continue
        out.append(card)
    return None if bad else out


def _labels(mask: int) -> list[str]:
    """Printed cards of a mask: suit-major order, so a set reads by suit and a run by rank."""
    return list(gin.labels(mask))


def _hand_sizes(rules: profiles.Rules) -> tuple[int, ...]:
    """The hand sizes these rules deal, over every number of players they allow."""
    return tuple(sorted({gin.hand_size(n) for n in range(rules.min_players, rules.max_players + 1)}))


# ----------------------------------------------------------------------------------------- knock


def _knock(q: Question, rules: profiles.GinRules, v: Verdict) -> None:
    hand = _parse_gin_cards(q.cards, v, msg("hand"))
    upcard = _read_upcard(q.upcard, rules, v)
    if hand is None or upcard is None:
        return
    sizes = _hand_sizes(rules)
    if not _knock_hand_size(hand, sizes, rules, v):
        return
    mask = gin_search.mask_of(c.index for c in hand)
    before_discard = len(hand) not in sizes
    limit = cardlib.knock_limit(upcard)
    _cite_knock_limit(upcard, limit, rules, v)
    dead = _arrange(mask, before_discard, v)
    if before_discard and gin_search.best_deadwood(mask) == 0:
        _big_gin(mask, len(hand), rules, v)
    elif dead == 0:
        _gin(v, rules)
    elif dead <= limit:
        v.ok = True
        v.said = _may_knock(dead, limit, v.discard)
        v.explained.append(msg('A knock needs deadwood at or below the limit (S2: "at or below").'))
        v.explained.append(msg("The knocker chooses his spread; this is the arrangement with the least deadwood."))
    else:
        v.ok = False
        v.said = _may_not_knock(dead, limit, v.discard)
    if upcard.suit is cardlib.Suit.SPADES:
        _spade_upcard(rules, v)


def _may_knock(dead: int, limit: int, discard: str) -> Msg:
    if discard:
        return msg(
            "Yes, you may knock: least deadwood {dead}, limit {limit}, discarding {discard}.",
            dead=dead,
            limit=limit,
            discard=discard,
        )
    return msg("Yes, you may knock: least deadwood {dead}, limit {limit}.", dead=dead, limit=limit)


def _may_not_knock(dead: int, limit: int, discard: str) -> Msg:
    if limit == 0:
        if discard:
            return msg(
                "No, you may not knock: least deadwood {dead} (discarding {discard}), "
                "and an ace upcard allows gin only.",
                dead=dead,
                discard=discard,
            )
        return msg("No, you may not knock: least deadwood {dead}, and an ace upcard allows gin only.", dead=dead)
    if discard:
        return msg(
            "No, you may not knock: least deadwood {dead} (discarding {discard}), over the limit of {limit}.",
            dead=dead,
            discard=discard,
            limit=limit,
        )
    return msg("No, you may not knock: least deadwood {dead}, over the limit of {limit}.", dead=dead, limit=limit)


def _read_upcard(text: str, rules: profiles.GinRules, v: Verdict) -> cardlib.Card | None:
    """The first upcard (it sets the knock limit), or None with the problem in the verdict."""
    if not text.strip():
        limit = gin.outcome_source(rules, "limit")
        v.error(msg("enter the first upcard: it sets the knock limit"), rule="knock limit", source=limit)
        return None
    try:
        upcard = cardlib.parse_card(text)
    except cardlib.CardError as exc:
        v.error(
            msg("the upcard: {problem}", problem=exc.message),
            rule="card notation",
            source="RECORD.md",
            cards=(exc.token,),
        )
        return None
    if upcard.is_joker:
        v.error(msg("the upcard: Oklahoma Gin has no Joker"), rule="cards", source=gin.SETUP_SOURCE, cards=("JK",))
        return None
    return upcard


def _knock_hand_size(hand: list[cardlib.Card], sizes: tuple[int, ...], rules: profiles.GinRules, v: Verdict) -> bool:
    """A knocker holds a dealt hand's size, or one more before the discard."""
    allowed = sorted(set(sizes) | {n + 1 for n in sizes})
    if len(hand) in allowed:
        return True
    v.error(
        msg(
            "a hand here has {sizes} cards (one more before the discard), not {n}",
            sizes=_sizes(allowed),
            n=len(hand),
        ),
        rule="deal",
        source=gin.SETUP_SOURCE,
    )
    return False


def _sizes(sizes: list[int] | tuple[int, ...]) -> Msg:
    """Hand sizes as words: ``10 or 11``, ``7 or 10`` (every one joined by "or")."""
    words: Msg = msg("{n}", n=sizes[0])
    for n in sizes[1:]:
        words = msg("{sizes} or {n}", sizes=words, n=n)
    return words


def _cite_knock_limit(upcard: cardlib.Card, limit: int, rules: profiles.GinRules, v: Verdict) -> None:
    if upcard.rank == cardlib.ACE:
        v.cite(msg("Knock limit: an ace upcard means gin only"), "S4, BO", "source", str(msg("gin only")))
    else:
        said = msg("Knock limit: the upcard's points ({card})", card=upcard.label)
        v.cite(said, gin.outcome_source(rules, "limit"), "source", str(limit))


def _arrange(mask: int, before_discard: bool, v: Verdict) -> int:
    """The least-deadwood arrangement (and the best discard from one card more) into the verdict."""
    if before_discard:
        dead, melds, dead_mask, discard = gin_search.best_arrangement_discard(mask)
        v.discard = cardlib.CARD_BY_INDEX[discard].label
    else:
        dead, melds, dead_mask = gin_search.best_arrangement(mask)
    v.melds = [_labels(m) for m in melds]
    v.deadwood = _labels(dead_mask)
    return int(dead)


def _big_gin(mask: int, n: int, rules: profiles.GinRules, v: Verdict) -> None:
    """Every card of a hand before the discard melds: big gin, where the rules play it."""
    v.melds = [_labels(m) for m in gin_search.best_arrangement(mask)[1]]
    v.deadwood = []
    v.discard = ""
    v.ok = True
    if rules.big_gin_bonus:
        v.said = msg("Big gin: all {n} cards meld without a discard.", n=n)
        _knob_cite(v, rules, "big_gin_bonus")
    else:
        v.said = msg("Gin: all {n} cards meld (big gin is not played under these rules, so it scores as gin).", n=n)
        _knob_cite(v, rules, "big_gin_bonus", str(msg("not played")))
        _knob_cite(v, rules, "gin_bonus")


def _gin(v: Verdict, rules: profiles.GinRules) -> None:
    v.ok = True
    if v.discard:
        v.said = msg("Gin: every card melds after discarding {discard}.", discard=v.discard)
    else:
        v.said = msg("Gin: every card melds.")
    _knob_cite(v, rules, "gin_bonus")
    v.explained.append(
        msg(
            "Gin scores the gin bonus plus the defender's whole deadwood; the defender may not lay off, "
            "and gin is never undercut (S2, S4)."
        )
    )


def _spade_upcard(rules: profiles.GinRules, v: Verdict) -> None:
    _knob_cite(v, rules, "spade_multiplier", f"×{rules.spade_multiplier}")
    if rules.spade_multiplier > 1:
        v.explained.append(
            msg(
                "A spade upcard: every point of this hand counts ×{multiplier}, bonuses included.",
                multiplier=rules.spade_multiplier,
            )
        )


# ---------------------------------------------------------------------------------------- layoff


def _split_melds(text: str) -> list[str]:
    return [part for part in re.split(r"[/|\n]+", text) if part.strip()]


def _layoff(q: Question, rules: profiles.GinRules, v: Verdict) -> None:
    knocker_melds, used = _knocker_melds(q.spread, v)
    hand = _defender_hand(q.cards, used, rules, v)
    if hand is None or v.errors:
        return
    chained = rules.layoffs == "chained"
    mask = gin_search.mask_of(c.index for c in hand)
    dead, own, lay, dead_mask = gin_search.defender_best(mask, knocker_melds, chained=chained)
    v.melds = [_labels(m) for m in own]
    v.layoffs = _labels(lay)
    v.deadwood = _labels(dead_mask)
    v.ok = None
    if v.layoffs:
        v.said = msg(
            "The defender lays off {cards}; deadwood left: {dead}.", cards=", ".join(v.layoffs), dead=int(dead)
        )
    else:
        v.said = msg("The defender lays off nothing; deadwood left: {dead}.", dead=int(dead))
    _knob_cite(v, rules, "layoffs")
    v.explained.append(
        msg("The defender's own melds and layoffs are chosen together for the least deadwood (RULES.md).")
    )
    if chained:
        v.explained.append(msg("Chained: a layoff may extend a run that an earlier layoff extended."))
    else:
        v.explained.append(
            msg(
                "Only onto the knocker's melds as laid down: a card may extend a run by one at each end or "
                "complete a set."
            )
        )
    v.explained.append(msg("After gin the defender may not lay off at all (S2, S4)."))


def _knocker_melds(text: str, v: Verdict) -> tuple[list[int], set[cardlib.Card]]:
    """The knocker's legal melds as masks, and every card they hold (bad melds: errors in the verdict)."""
    if not text.strip():
        v.error(
            msg("enter the knocker's melds, separated by '/' (e.g. 3C 4C 5C / 9D 9H 9S)"),
            rule="layoffs",
            source="S2, S4",
        )
    melds: list[int] = []
    used: set[cardlib.Card] = set()
    for i, part in enumerate(_split_melds(text), start=1):
        meld = _parse_gin_cards(part, v, msg("knocker's meld {i}", i=i))
        if meld is None:
            continue
        if used & set(meld):
            v.error(
                msg("knocker's meld {i} uses a card of another meld", i=i),
                rule="melds",
                source=gin.MELD_SOURCE,
                cards=tuple(c.label for c in meld if c in used),
            )
            continue
        used |= set(meld)
        m = gin_search.mask_of(c.index for c in meld)
        if gin_search.meld_kind(m) is None:
            v.error(
                msg(
                    "knocker's meld {i} is neither a set of 3–4 of a rank nor a run of 3+ of a suit (ace low only)",
                    i=i,
                ),
                rule="melds",
                source=gin.MELD_SOURCE,
                cards=tuple(c.label for c in meld),
            )
            continue
        melds.append(m)
    return melds, used


def _defender_hand(
    text: str, used: set[cardlib.Card], rules: profiles.GinRules, v: Verdict
) -> list[cardlib.Card] | None:
    """The defender's cards: a dealt hand's size, none of them in the knocker's melds."""
    hand = _parse_gin_cards(text, v, msg("defender's hand"))
    if hand is None:
        return None
    if not hand:
        v.error(msg("enter the defender's cards"), rule="layoffs", source="S2, S4")
        return None
    clash = [c.label for c in hand if c in used]
    if clash:
        v.error(
            msg("the defender's hand holds a card of the knocker's melds"),
            rule="cards",
            source=gin.SETUP_SOURCE,
            cards=tuple(clash),
        )
        return None
    sizes = _hand_sizes(rules)
    if len(hand) not in sizes:
        v.error(
            msg("the defender holds {sizes} cards, not {n}", sizes=_sizes(sizes), n=len(hand)),
            rule="deal",
            source=gin.SETUP_SOURCE,
        )
        return None
    return hand


# ------------------------------------------------------------------------------------------ meld


def _meld(q: Question, rules: profiles.OklahomaRules, v: Verdict) -> None:
    tokens = cardlib.split_cards(q.cards)
    if not tokens:
        v.error(msg("enter the cards of the meld, e.g. QS QH 2C=QD"), rule="melds", source=SRC_MELD)
        return
    _meld_result(check_meld(tokens, rules), v)
    if v.ok:
        _within_the_pack(tokens, rules, v)


def _meld_result(result: MeldCheck, v: Verdict) -> None:
    """Show ``oklahoma.check_meld``'s MeldCheck: its errors, or the meld with its points and lines."""
    if not result.ok:
        for e in result.errors:
            v.error(e.message, e.rule, e.source, tuple(e.cards))
        v.said = (
            msg("Not a legal meld ({kind}).", kind=meld_kind(result.kind)) if result.kind else msg("Not a legal meld.")
        )
        return
    v.ok = True
    v.said = msg(
        "A legal {kind}, worth {points} melded.", kind=meld_kind(result.kind or ""), points=_signed(result.points)
    )
    v.melds = [list(result.labels)]
    if result.meaning:
        listed: Msg = msg("{item}", item=result.meaning[0]) if isinstance(result.meaning[0], str) else result.meaning[0]
        for item in result.meaning[1:]:
            listed = msg("{first}, {next}", first=listed, next=item)
        v.explained.append(msg("The cards count as: {cards}.", cards=listed))
    if result.note:
        v.explained.append(_said(result.note))
    v.lines = [line.as_dict() for line in result.lines]


def _within_the_pack(tokens: list[str], rules: profiles.OklahomaRules, v: Verdict) -> None:
    """A legal meld is also within the pack: two of each natural card, eight 2s, one Joker (or none
    without it). The engine checks a hand's cards against the pack as the deal form does
    (``oklahoma.score_hand``), so the meld goes through it as a hand of this one meld."""
    try:
        score_hand(rules, [tokens], [])
    except RecordInvalid as exc:
        for e in exc.errors:
            v.error(e.message, e.rule, e.source, e.cards)
        v.said = msg("Not a legal meld: the pack does not hold these cards.")
        v.melds, v.explained, v.lines = [], [], []


# ------------------------------------------------------------------------------------------ deal


def _deal(q: Question, rules: profiles.Rules, v: Verdict) -> None:
    data = _read_deal(q.deal, v)
    if data is None:
        return
    rec = _as_record(q, data, v)
    if rec is not None:
        _score(rec, rules, v)


def _read_deal(text: str, v: Verdict) -> Any:
    """The JSON typed, or None with the problem in the verdict."""
    if not text.strip():
        v.error(msg("enter a deal in the RECORD.md notation"), rule="format", source="RECORD.md")
        return None
    try:
        return record.parse_json(text.strip())
    except RecordInvalid as exc:
        for e in exc.errors:
            v.error(e.message, e.rule, e.source)
    except RecursionError:
        v.error(msg("not valid JSON: nested too deeply"), rule="format", source="RECORD.md")
    return None


def _as_record(q: Question, data: Any, v: Verdict) -> dict[str, Any] | None:
    """A whole record as it is, or one deal made a record of the question's game and rules (its players
    named by its hands); None with the problem in the verdict."""
    if isinstance(data, dict) and "format" in data:
        return data
    if not isinstance(data, dict):
        v.error(
            msg("a deal is a JSON object like {example}", example='{"hands": {...}}'), rule="format", source="RECORD.md"
        )
        return None
    hands = data.get("hands")
    if not isinstance(hands, dict) or not hands:
        v.error(msg("a deal has 'hands': an object with one entry per player"), rule="format", source="RECORD.md")
        return None
    return {"format": record.FORMAT, "game": q.game, "rules": q.record_rules, "players": list(hands), "deals": [data]}


def _score(rec: dict[str, Any], rules: profiles.Rules, v: Verdict) -> dict[str, Any] | None:
    try:
        result = record.score_record(rec)
    except RecordInvalid as exc:
        for e in exc.errors:
            v.error(e.message, e.rule, e.source, e.cards, e.deal, e.player)
        v.said = msg("The engine rejects this deal.")
        return None
    except (ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError):
        log.exception("checker: the engine could not read a deal")
        v.error(
            msg("the engine could not read this deal: check it against RECORD.md"), rule="format", source="RECORD.md"
        )
        return None
    doc = record.result_json(result)
    v.ok = None
    v.deals = doc["deals"]
    v.game_result = doc
    v.said = _scored_said(doc)
    if isinstance(rules, profiles.GinRules) and any(d.get("multiplier", 1) > 1 for d in doc["deals"]):
        _knob_cite(v, rules, "spade_multiplier", f"×{rules.spade_multiplier}")
    return doc


def _scored_said(doc: dict[str, Any]) -> Msg:
    """One deal's outcome and each player's points, or the totals after several deals."""
    if len(doc["deals"]) == 1:
        d = doc["deals"][0]
        parts = ", ".join(f"{name} {p['points']:+d}" for name, p in d["players"].items())
        return msg("{outcome}: {points}.", outcome=outcome_words(d["outcome"]), points=parts)
    parts = ", ".join(f"{name} {t}" for name, t in doc["totals"].items())
    return msg("{n} deals: totals {totals}.", n=len(doc["deals"]), totals=parts)


def _hand(q: Question, rules: profiles.OklahomaRules, v: Verdict) -> None:
    melds = [cardlib.split_cards(part) for part in _split_melds(q.spread)]
    held = cardlib.split_cards(q.cards)
    if not melds and not held:
        v.error(msg("enter the melds laid and the cards left in hand"), rule="melds", source="S0")
        return
    try:
        scored = score_hand(rules, melds, held)
    except RecordInvalid as exc:
        for e in exc.errors:
            v.error(e.message, e.rule, e.source, e.cards)
        v.said = msg("The engine rejects this hand.")
        return
    v.lines = [line.as_dict() for line in scored.lines]
    v.melds = [list(m) for m in scored.melds]
    v.ok = None
    v.said = msg("This hand scores {points}.", points=_signed(scored.points))
    v.explained += [_said(check.note) for check in (check_meld(m, rules) for m in melds) if check.note]
    v.explained.append(msg("Scored as if the stock ran out. The player who goes out adds the going-out bonus."))
    _knob_cite(v, rules, "out_bonus")
    _knob_cite(v, rules, "k8_in_hand")


def _gin_hand(q: Question, rules: profiles.GinRules, v: Verdict) -> None:
    knocker = cardlib.split_cards(q.cards)
    defender = cardlib.split_cards(q.other)
    if not q.upcard.strip() or not knocker or not defender:
        v.error(msg("enter the upcard, the knocker's cards and the defender's cards"), rule="deal", source="S2, S4")
        return
    # The two hands' names, in the reader's language (the translator in force renders them).
    knocker_name, defender_name = str(msg("Knocker")), str(msg("Defender"))
    rec = {
        "format": record.FORMAT,
        "game": profiles.GIN,
        "rules": q.record_rules,
        "players": [knocker_name, defender_name],
        "deals": [
            {
                "upcard": q.upcard.strip(),
                "knocker": knocker_name,
                "hands": {knocker_name: {"cards": knocker}, defender_name: {"cards": defender}},
            }
        ],
    }
    doc = _score(rec, rules, v)
    if doc is None:
        return
    d = doc["deals"][0]
    k, dd = d["players"][knocker_name], d["players"][defender_name]
    v.said = msg(
        "{outcome} — the knocker scores {knocker}, the defender {defender}.",
        outcome=outcome_words(d["outcome"]),
        knocker=k["points"],
        defender=dd["points"],
    )
    v.explained.append(
        msg(
            "The engine finds the knocker's least-deadwood spread (and his discard from 11 cards), then "
            "the defender's melds and layoffs together for the least deadwood."
        )
    )


def _signed(points: int) -> str:
    """``+70``, ``−20`` (a true minus)."""
    return f"{points:+d}".replace("-", "−")


def _said(note: Msg | str) -> Msg:
    """A note of the engine's as a message (a message already, or text the engine still gives as text)."""
    return note if isinstance(note, Msg) else msg("{note}", note=note)


def example_deal(game: str) -> str:
    if game == profiles.OKLAHOMA:
        deal = {
            "out": "Ann",
            "hands": {
                "Ann": {"melds": [["QS", "QH", "2C=QD"], ["9H", "8H", "JK=7H"]], "held": []},
                "Ben": {"melds": [["5S", "6S", "7S"]], "held": ["AD", "KC"]},
            },
        }
    else:
        deal = {
            "upcard": "7S",
            "knocker": "Ann",
            "hands": {
                "Ann": {"cards": ["3C", "4C", "5C", "9D", "9H", "9S", "JH", "QH", "KH", "2S"]},
                "Ben": {"cards": ["2H", "3H", "4H", "6D", "6C", "8S", "10S", "KD", "AC", "5H"]},
            },
        }
    return json.dumps(deal)
