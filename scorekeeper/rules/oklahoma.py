"""Oklahoma, the Canasta-like game (RULES.md §1): meld checking, card values, deal and game scoring.

Plain Python, no Django. ``check_meld`` is usable alone (the web app checks each meld while a
player types it); ``score_game`` scores a whole game from the raw deals of a record and raises
``RecordInvalid`` with every error found.

Sources: S0 (book description), S1 (Laws of Oklahoma). Values that are this project's reading
carry basis "ruling"; knob values are cited through ``rules.cite``.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .cards import ACE, JOKER, KING, PACK_52, QUEEN, RANK_NAMES, SUITS, Card, CardError, Suit, Token, parse_token
from .errors import RecordError, RecordInvalid
from .players import first_dealer_errors, player_count_errors, player_errors
from .results import DealResult, GameResult, Line, PlayerDeal

GAME = "oklahoma"

# Sources of the fixed rules (knob values are cited through rules.cite).
SRC_MELD = "S0; S1 law 7"
SRC_SET = "S0; S1 law 7"
SRC_SEQUENCE = "S0; S1 laws 7, 11"
SRC_CORNER = "S0; S1 law 11"
SRC_WILD = "S0; S1 laws 8, 9"
SRC_WILD_SEQ = "S0"
SRC_JOKER_NAME = "S0; S1 law 9"
SRC_PACK = "S0; S1 law 1"
SRC_VALUES = "S0; S1 law 12"
SRC_OUT = "S0; S1 law 6"
SRC_NOTATION = "RECORD.md"

DEAL_KEYS = ("out", "first_turn", "concealed", "hands")
HAND_KEYS = ("melds", "held")

_QS = Card(QUEEN, Suit.SPADES)


# --------------------------------------------------------------------------------------------
# Card values (RULES.md §1 table).


@dataclass(frozen=True, slots=True, eq=False)
class _Value:
    points: int
    rule: str
    source: str
    basis: str = "source"


def _natural_melded(rank: int) -> int:
    if rank == ACE:
        return 20
    if rank >= 8:
        return 10
    return 5  # 7..3 (a 2 standing for a 2 is a ruling handled by the caller)


_V_JOKER = _Value(100, "a Joker melded scores 100, whatever it stands for", "S0")
_V_QS = _Value(50, "Q♠ melded scores 50", SRC_VALUES)
_V_ACE = _Value(20, "an ace melded scores 20", SRC_VALUES)
_V_K8 = _Value(10, "K Q J 10 9 8 melded score 10", SRC_VALUES)
_V_73 = _Value(5, "7 6 5 4 3 melded score 5", SRC_VALUES)
_V_TWO_QS = _Value(10, "a 2 standing for Q♠ scores 10", "S0")
_V_TWO_TWO = _Value(5, "a 2 standing for a 2 scores as a low card, 5", "ruling", "ruling")
_V_TWO = {r: _Value(_natural_melded(r), "a 2 scores the card it stands for", "S0") for r in range(1, 14) if r != 2}


def _melded(card: Card, stands_rank: int | None, stands_qs: bool) -> _Value:
    """What a card scores melded; for a wild, ``stands_rank`` is the rank it stands for."""
    rank = card.rank
    if rank == 0:
        return _V_JOKER
    if rank == 2:
        if stands_qs:
            return _V_TWO_QS
        if stands_rank == 2:
            return _V_TWO_TWO
        if stands_rank is None:
            raise ValueError(f"{card.label}: say which card the 2 stands for")
        return _V_TWO[stands_rank]
    if rank == QUEEN and card.suit is Suit.SPADES:
        return _V_QS
    if rank == ACE:
        return _V_ACE
    if rank >= 8:
        return _V_K8
    return _V_73


def _k8_held(rules: Any) -> _Value:
    cite = rules.cite("k8_in_hand")
    value = rules.k8_in_hand
    return _Value(value, f"K Q J 10 9 8 left in hand cost {-value}", cite.source, cite.basis)


_H_JOKER = _Value(-200, "a Joker left in hand costs 200", "S0")
_H_TWO = _Value(-20, "a 2 left in hand costs 20", "S0")
_H_QS = _Value(-100, "Q♠ left in hand costs 100", SRC_VALUES)
_H_ACE = _Value(-20, "an ace left in hand costs 20", SRC_VALUES)
_H_73 = _Value(-5, "7 6 5 4 3 left in hand cost 5", SRC_VALUES)


def _held(card: Card, rules: Any, k8: _Value | None = None) -> _Value:
    rank = card.rank
    if rank == 0:
        return _H_JOKER
    if rank == 2:
        return _H_TWO
    if rank == QUEEN and card.suit is Suit.SPADES:
        return _H_QS
    if rank == ACE:
        return _H_ACE
    if rank >= 8:
        return k8 if k8 is not None else _k8_held(rules)
    return _H_73


def card_value_melded(token: str | Token | Card, rules: Any = None, rank: int | None = None) -> int:
    """Points a card scores melded. A wild needs what it stands for: named in the token
    (``'2C=7H'``) or, for a wild in a set, the set's ``rank``. The Joker is 100 whatever it is."""
    tok = _token(token)
    stands = tok.stands_for
    if tok.card.is_two and stands is None and rank is None:
        raise ValueError(f"{tok.label}: say which card the 2 stands for")
    stands_rank = stands.rank if stands is not None else rank
    return _melded(tok.card, stands_rank, stands == _QS).points


def card_value_held(card: str | Card | Token, rules: Any) -> int:
    """Points a card left in hand costs (negative)."""
    tok = _token(card)
    if tok.stands_for is not None:
        raise ValueError(f"{tok.label}: a card in hand stands for nothing")
    return _held(tok.card, rules).points


def pack_counts(rules: Any) -> dict[Card, int]:
    """How many of each card the pack holds: two of every natural card and of every 2 (eight 2s),
    one Joker or none (S0; S1 law 1). Keys are Cards; the Joker is ``cards.JOKER``."""
    counts = dict.fromkeys(PACK_52, 2)
    counts[JOKER] = 1 if rules.joker else 0
    return counts


# --------------------------------------------------------------------------------------------
# Card parsing, cached: the same few dozen tokens come back on every keystroke and every deal.
# Each distinct token text is parsed once into an entry of plain ints and strings, so checking
# a meld never parses, prints or hashes a card again.

_POS_CARD: tuple[tuple[Card, ...], ...] = tuple(
    tuple(Card(ACE if p == 14 else max(p, 1), s) for p in range(15)) for s in SUITS
)
_POS_LABEL: tuple[tuple[str, ...], ...] = tuple(tuple(c.label for c in row) for row in _POS_CARD)
_POS_CODE: tuple[tuple[str, ...], ...] = tuple(tuple(c.code for c in row) for row in _POS_CARD)


class _E:
    """One parsed token: the Token and what the meld check needs of it."""

    __slots__ = ("tok", "label", "clabel", "ccode", "rank", "si", "wild", "joker", "srank", "ssi", "slabel", "value")

    def __init__(self, tok: Token) -> None:
        card, stands = tok.card, tok.stands_for
        self.tok = tok
        self.label = tok.label  # '2♣=7♥'
        self.clabel = card.label  # '2♣'
        self.ccode = card.code  # '2C'
        self.rank = card.rank
        self.si = card.suit.index if card.suit is not None else -1
        self.wild = card.is_wild
        self.joker = card.is_joker
        self.srank = stands.rank if stands is not None else 0
        self.ssi = stands.suit.index if stands is not None and stands.suit is not None else -1
        self.slabel = stands.label if stands is not None else ""
        self.value = None if self.wild else _melded(card, None, False)


_ENTRIES: dict[Any, _E | CardError] = {}
_CACHE_LIMIT = 4096


def _entry(raw: Any) -> _E:
    """The parsed entry of a token (``'2C=7H'``, a Token or a Card); raise CardError."""
    hit = _ENTRIES.get(raw) if type(raw) is str else None
    if hit is None:
        try:
            if isinstance(raw, Token):
                return _E(raw)
            if isinstance(raw, Card):
                return _E(Token(raw))
            hit = _E(parse_token(raw))
        except CardError as exc:
            hit = exc
        if type(raw) is str:
            if len(_ENTRIES) >= _CACHE_LIMIT:
                _ENTRIES.clear()
            _ENTRIES[raw] = hit
    if type(hit) is _E:
        return hit
    raise hit  # type: ignore[misc]


def _token(raw: Any) -> Token:
    """Parse a meld token (``'2C=7H'``) or pass a Token through; raise CardError."""
    return _entry(raw).tok


# --------------------------------------------------------------------------------------------
# Meld checking.


@dataclass(frozen=True, slots=True)
class MeldCheck:
    """The verdict on one meld.

    ``cards`` are the tokens as resolved: sorted by position in a sequence (each wild with the
    card it stands for), naturals then wilds in a set (a wild in a set stands for the set's
    rank; its suit is not named unless the player named it). ``meaning`` prints what each card
    counts as ("7♥", "a 7"). ``lines`` add up to ``points``. ``errors`` carry no deal or player:
    ``score_game`` adds them.
    """

    ok: bool
    kind: str | None
    cards: tuple[Token, ...] = ()
    points: int = 0
    lines: tuple[Line, ...] = ()
    errors: tuple[RecordError, ...] = ()
    rank: int | None = None
    suit: Suit | None = None
    meaning: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()  # ``cards`` printed ('2♣=7♥')


def _err(message: str, rule: str, source: str, cards: Sequence[str] = ()) -> RecordError:
    return RecordError(message, rule=rule, source=source, cards=tuple(cards))


def _fail(errors: list[RecordError], kind: str | None = None, es: Sequence[_E] = ()) -> MeldCheck:
    return MeldCheck(False, kind, tuple(e.tok for e in es), 0, (), tuple(errors), labels=tuple(e.label for e in es))


def _labels(es: Sequence[_E]) -> list[str]:
    return [e.label for e in es]


def _rank_word(rank: int) -> str:
    return RANK_NAMES[rank]


def _pos_card(pos: int, suit: Suit) -> Card:
    return _POS_CARD[suit.index][pos]


def _pos_label(pos: int, suit: Suit) -> str:
    return _POS_LABEL[suit.index][pos]


_MELDS: dict[tuple, MeldCheck] = {}


def check_meld(tokens: Sequence[str | Token], rules: Any) -> MeldCheck:
    """Check one meld as entered (any order) and score it as melded.

    A set is 3–4 cards of one rank, wilds included (S0; S1 law 7); a sequence 3–14 cards of one
    suit in order, ace high or low, never round the corner (S0; S1 laws 7, 11). Every 2 and the
    Joker are wild (S0; S1 laws 8, 9) and may name their card after '='.

    Verdicts are values and depend on the tokens and the Joker knob only: they are cached.
    """
    try:
        key = (True, *tokens) if rules.joker else (rules.cite("joker").source, *tokens)
        hit = _MELDS.get(key)
    except TypeError:  # something unhashable was entered: check it uncached
        return _check_meld(tokens, rules)
    if hit is None:
        hit = _check_meld(tokens, rules)
        if len(_MELDS) >= _CACHE_LIMIT:
            _MELDS.clear()
        _MELDS[key] = hit
    return hit


def clear_caches() -> None:
    """Forget every parsed card and meld verdict (for benchmarks and tests)."""
    _ENTRIES.clear()
    _MELDS.clear()


def _check_meld(tokens: Sequence[str | Token], rules: Any) -> MeldCheck:
    errors: list[RecordError] = []
    es: list[_E] = []
    for raw in tokens:
        try:
            es.append(_entry(raw))
        except CardError as exc:
            errors.append(_err(exc.message, "card notation", SRC_NOTATION, [exc.token]))
    if errors:
        return _fail(errors)
    if not es:
        return _fail([_err("an empty meld: a meld is 3 or more cards", "meld", SRC_MELD)])
    if not rules.joker:
        jokers = [e for e in es if e.joker]
        if jokers:
            cite = rules.cite("joker")
            return _fail([_err("this game is played without the Joker", "no Joker", cite.source, _labels(jokers))])
    if len(es) < 3:
        return _fail([_err(f"a meld needs at least 3 cards, not {len(es)}", "meld", SRC_MELD, _labels(es))])

    naturals = [e for e in es if not e.wild]
    named = [e for e in es if e.wild and e.srank]
    if not naturals and not named:
        return _fail(
            [
                _err(
                    "a meld of wild cards only must name what each card stands for (like 2C=7H)",
                    "wild cards",
                    SRC_WILD,
                    _labels(es),
                )
            ]
        )
    ranks = {e.rank for e in naturals}
    ranks.update(e.srank for e in named)
    if len(ranks) == 1:
        return _check_set(es, ranks.pop())
    suits = {e.si for e in naturals}
    suits.update(e.ssi for e in named)
    if len(suits) == 1:
        return _check_sequence(es, suits.pop())
    # The named cards do not fit: say which wild is at fault when the natural cards agree.
    nat_ranks = {e.rank for e in naturals}
    nat_suits = {e.si for e in naturals}
    if naturals and len(nat_ranks) == 1:
        rank = nat_ranks.pop()
        for e in named:
            if e.srank != rank:
                errors.append(
                    _err(
                        f"in a set of {_rank_word(rank)}s a wild card must stand for a "
                        f"{_rank_word(rank)}, not {e.slabel}",
                        "set: one rank",
                        SRC_SET,
                        [e.label],
                    )
                )
        return _fail(errors, "set", es)
    if naturals and len(nat_suits) == 1:
        si = nat_suits.pop()
        symbol = SUITS[si].symbol
        for e in named:
            if e.ssi != si:
                errors.append(
                    _err(
                        f"in a {symbol} sequence a wild card must stand for a {symbol} card, not {e.slabel}",
                        "sequence: one suit",
                        SRC_SEQUENCE,
                        [e.label],
                    )
                )
        return _fail(errors, "sequence", es)
    return _fail(
        [
            _err(
                "not a meld: a set is cards of one rank, a sequence cards of one suit in order",
                "meld",
                SRC_MELD,
                _labels(es),
            )
        ]
    )


def _score(entries: list[tuple[str, _Value]]) -> tuple[int, tuple[Line, ...]]:
    """Group (shown-as, value) entries into cited lines, in order of first appearance."""
    groups: dict[_Value, list[str]] = {}
    for shown, value in entries:
        group = groups.get(value)
        if group is None:
            groups[value] = [shown]
        else:
            group.append(shown)
    lines = []
    total = 0
    for value, shown in groups.items():
        n = len(shown)
        unit = value.points
        if n == 1:
            label = shown[0] + " melded"
        else:
            sep = ", " if " " in shown[0] else " "
            label = f"{sep.join(shown)} melded ({n} × {unit})"
        lines.append(Line(label, unit * n, value.rule, value.source, value.basis))
        total += unit * n
    return total, tuple(lines)


def _check_set(es: list[_E], rank: int) -> MeldCheck:
    if len(es) > 4:
        return _fail(
            [
                _err(
                    f"a set has at most 4 cards, wild cards included, not {len(es)}",
                    "set: at most 4 cards",
                    "S0",
                    _labels(es),
                )
            ],
            "set",
            es,
        )
    naturals = sorted((e for e in es if not e.wild), key=_by_suit)
    wilds = [e for e in es if e.wild]
    word = _rank_word(rank)
    entries = [(e.label, e.value) for e in naturals]
    meaning = [e.label for e in naturals]
    two_value = _V_TWO_TWO if rank == 2 else _V_TWO.get(rank)
    for e in wilds:
        if e.joker:
            value = _V_JOKER
        elif e.srank == QUEEN and e.ssi == 0:
            value = _V_TWO_QS
        else:
            value = two_value
        if e.srank:
            entries.append((f"{e.clabel} as {e.slabel}", value))
            meaning.append(e.slabel)
        else:
            entries.append((f"{e.clabel} as a {word}", value))
            meaning.append(f"a {word}")
    ordered = naturals + wilds
    points, lines = _score(entries)
    return MeldCheck(
        True,
        "set",
        tuple(e.tok for e in ordered),
        points,
        lines,
        (),
        rank,
        None,
        tuple(meaning),
        tuple(e.label for e in ordered),
    )


def _by_suit(e: _E) -> int:
    return e.si


def _run_value(pos: int) -> int:
    """What a 2 scores standing at a sequence position (14 = high ace)."""
    if pos in (1, 14):
        return 20
    if pos >= 8:
        return 10
    return 5


def _wild_at(e: _E, pos: int, si: int) -> _Value:
    """What a wild card scores standing at a sequence position (14 = high ace)."""
    if e.joker:
        return _V_JOKER
    if pos == 12 and si == 0:
        return _V_TWO_QS
    if pos == 2:
        return _V_TWO_TWO
    return _V_TWO[1 if pos == 14 else pos]


def _corner(ranks: set[int], n: int) -> bool:
    """Do these ranks (ace as 1) only fit in n cards by going round the corner (K-A-2)?"""
    for cut in range(1, 13):
        shifted = sorted(r + 13 if r <= cut else r for r in ranks)
        if shifted[0] <= 13 and shifted[-1] >= 15 and shifted[-1] - shifted[0] + 1 <= n:
            return True
    return False


def _check_sequence(es: list[_E], si: int) -> MeldCheck:
    n = len(es)
    errors: list[RecordError] = []
    if n > 14:
        return _fail(
            [
                _err(
                    f"a sequence has at most 14 cards (A to K to A), not {n}",
                    "sequence: at most 14 cards",
                    "S0",
                    _labels(es),
                )
            ],
            "sequence",
            es,
        )
    pos_label = _POS_LABEL[si]
    fixed: list[tuple[_E, int]] = []  # (entry, rank it holds) for naturals and named wilds
    free: list[_E] = []
    for e in es:
        if e.wild and not e.srank:
            free.append(e)
        else:
            fixed.append((e, e.srank or e.rank))
    aces = [e for e, r in fixed if r == ACE]
    by_rank: dict[int, list[_E]] = {}
    for e, r in fixed:
        if r != ACE:
            if r in by_rank:
                by_rank[r].append(e)
            else:
                by_rank[r] = [e]
    if len(by_rank) + len(aces) < len(fixed) or len(aces) > 2:
        for r, group in sorted(by_rank.items()):
            if len(group) > 1:
                errors.append(
                    _err(
                        f"{pos_label[r]} is in the sequence {len(group)} times: each card of a "
                        "sequence holds its own place",
                        "sequence: each place once",
                        SRC_SEQUENCE,
                        _labels(group),
                    )
                )
        if len(aces) > 2:
            errors.append(
                _err(
                    f"{len(aces)} aces: a sequence holds at most two (A-2-3… and …Q-K-A in a 14-card sequence)",
                    "sequence: each place once",
                    SRC_SEQUENCE,
                    _labels(aces),
                )
            )
        return _fail(errors, "sequence", es)

    others = sorted(by_rank)
    ace_options: list[tuple[int, ...]] = [()] if not aces else ([(1,), (14,)] if len(aces) == 1 else [(1, 14)])
    placements: list[tuple[tuple[int, ...], int, frozenset[int]]] = []  # (ace places, lowest place, held)
    for opt in ace_options:
        places = sorted(others + list(opt)) if opt else others
        lo_min = max(1, places[-1] - n + 1)
        lo_max = min(places[0], 15 - n)
        if lo_min <= lo_max:
            held = frozenset(places)
            for lo in range(lo_min, lo_max + 1):
                placements.append((opt, lo, held))

    suited_twos = [e for e in free if e.si == si]  # a free wild is a 2 or the Joker (si -1)
    own_place: _E | None = None
    if suited_twos and placements:
        # RULING: an unnamed 2 of the sequence's own suit stands for itself when its place is open.
        at_two = [p for p in placements if p[1] <= 2 <= p[1] + n - 1 and 2 not in p[2]]
        if at_two:
            placements = at_two
            own_place = suited_twos[0]
    if suited_twos and own_place is None:
        ranks_held = set(others) | ({ACE} if aces else set())
        if _corner(ranks_held | {2}, n):
            # RULING: K, A and the 2 of one suit laid together read as going round the corner.
            two = suited_twos[0]
            at_fault = [e.label for e, r in fixed if r in (KING, ACE)] + _labels(suited_twos)
            return _fail(
                [
                    _err(
                        "a sequence never goes round the corner (K-A-2); to use the "
                        f"{two.clabel} as another card, name it (like {two.ccode}={_POS_CODE[si][12]})",
                        "sequence: no round the corner",
                        SRC_CORNER,
                        at_fault,
                    )
                ],
                "sequence",
                es,
            )
    if not placements:
        return _fail([_no_placement(es, fixed, free, others, aces, ace_options, si, n)], "sequence", es)
    if len(placements) > 1:
        # Placements that differ only in which end an ace takes, the wilds standing for the same
        # cards, are one meld (A-2-…-K or 2-…-K-A; a Joker for the other ace of a 14-card
        # sequence): the first is taken, ace low.
        meanings = {
            tuple(sorted(1 if p == 14 else p for p in range(lo, lo + n) if p not in held))
            for _opt, lo, held in placements
        }
        if len(meanings) == 1:
            placements = placements[:1]
    if len(placements) > 1:
        return _fail([_ambiguous(es, free, placements, si, n)], "sequence", es)

    opt, lo, places = placements[0]
    open_places = [p for p in range(lo, lo + n) if p not in places]
    pos_card = _POS_CARD[si]
    # place -> (token, printed token, value, shown in the score line)
    placed: dict[int, tuple[Token, str, _Value, str]] = {}

    def put_free(e: _E, p: int) -> None:
        label = pos_label[p]
        placed[p] = (
            Token(e.tok.card, pos_card[p]),
            f"{e.clabel}={label}",
            _wild_at(e, p, si),
            f"{e.clabel} as {label}",
        )

    rest = free
    if own_place is not None:
        put_free(own_place, 2)
        open_places.remove(2)
        rest = [e for e in free if e is not own_place]
    if len(rest) > 1:
        twos = [e for e in rest if not e.joker]
        jokers = [e for e in rest if e.joker]
        if twos and jokers and len({_run_value(p) for p in open_places}) > 1:
            # RULING: which wild fills which place changes the score: the Joker must be named.
            shown = " ".join(pos_label[p] for p in open_places)
            return _fail(
                [
                    _err(
                        f"the Joker and the 2 fill {shown}, which score differently as a 2: name the "
                        f"card the Joker stands for (like JK={_POS_CODE[si][open_places[-1]]})",
                        "wild cards: name the card",
                        SRC_JOKER_NAME,
                        _labels(jokers) + _labels(twos),
                    )
                ],
                "sequence",
                es,
            )
        rest = twos + jokers
    for p, e in zip(open_places, rest, strict=False):
        put_free(e, p)
    ace_places = list(opt)
    # Two aces (a 14-card sequence): a natural ace takes the low end, a wild one the high end.
    fixed.sort(key=lambda item: item[1] == ACE and item[0].wild)
    for e, r in fixed:
        p = ace_places.pop(0) if r == ACE else r
        if e.wild:
            placed[p] = (e.tok, e.label, _wild_at(e, p, si), f"{e.clabel} as {e.slabel}")
        else:
            placed[p] = (e.tok, e.label, e.value, e.label)
    order = sorted(placed)
    points, lines = _score([(placed[p][3], placed[p][2]) for p in order])
    return MeldCheck(
        True,
        "sequence",
        tuple(placed[p][0] for p in order),
        points,
        lines,
        (),
        None,
        SUITS[si],
        tuple(pos_label[p] for p in order),
        tuple(placed[p][1] for p in order),
    )


def _no_placement(es, fixed, free, others, aces, ace_options, si, n) -> RecordError:
    ranks_held = set(others) | ({ACE} if aces else set())
    if ACE in ranks_held and _corner(ranks_held, n):
        return _err(
            "a sequence never goes round the corner (K-A-2)",
            "sequence: no round the corner",
            SRC_CORNER,
            [e.label for e, _ in fixed] + _labels(free),
        )
    best = None
    for opt in ace_options:
        places = sorted(others + list(opt))
        missing = [p for p in range(places[0], places[-1] + 1) if p not in places]
        if best is None or len(missing) < len(best):
            best = missing
    assert best is not None
    shown = " ".join(_POS_LABEL[si][p] for p in best)
    wilds = f"{len(free)} wild card{'s' if len(free) != 1 else ''}" if free else "no wild card"
    return _err(
        f"not in sequence: {shown} missing, and {wilds} to fill {'them' if len(best) > 1 else 'it'}",
        "sequence: in order",
        SRC_SEQUENCE,
        _labels(es),
    )


def _ambiguous(es, free, placements, si, n) -> RecordError:
    options = []
    for _opt, lo, places in placements:
        text = " ".join(_POS_LABEL[si][p] for p in range(lo, lo + n) if p not in places)
        if text not in options:
            options.append(text)
    what = "a 2" if not any(e.joker for e in free) else ("the Joker" if len(free) == 1 else "a wild card")
    _opt, lo, places = placements[0]
    first_open = next(p for p in range(lo, lo + n) if p not in places)
    example = f"{free[0].ccode}={_POS_CODE[si][first_open]}"
    return _err(
        f"{what} in a sequence must name the card it stands for: "
        f"{' '.join(e.clabel for e in free)} could be {' or '.join(options)} (write it like {example})",
        "wild cards: name the card",
        SRC_WILD_SEQ if what == "a 2" else SRC_JOKER_NAME,
        _labels(es),
    )


# --------------------------------------------------------------------------------------------
# Deals and games.


@dataclass(slots=True)
class _Hand:
    melds: list[MeldCheck]
    held: list[_E]


def _deal_error(
    errors: list[RecordError],
    number: int,
    message: str,
    rule: str,
    source: str,
    player: str | None = None,
    cards: Sequence[str] = (),
    field: str | None = None,
) -> None:
    errors.append(
        RecordError(message, rule=rule, source=source, deal=number, player=player, cards=tuple(cards), field=field)
    )


def _check_deal(
    rules: Any, players: tuple[str, ...], deal: Any, number: int, errors: list[RecordError]
) -> tuple[dict[str, _Hand], str | None, bool, bool] | None:
    """Validate one deal; append every error; return the parsed hands when it is valid."""
    start = len(errors)
    if not isinstance(deal, Mapping):
        _deal_error(
            errors,
            number,
            "a deal is an object with 'out', 'hands' (and optionally 'first_turn', 'concealed')",
            "format",
            SRC_NOTATION,
        )
        return None
    for key in deal:
        if key not in DEAL_KEYS:
            _deal_error(
                errors,
                number,
                f"unknown key '{key}': an Oklahoma deal has {', '.join(DEAL_KEYS)}",
                "format",
                SRC_NOTATION,
                field=str(key),
            )
    if "out" not in deal:
        _deal_error(
            errors,
            number,
            "the deal has no 'out': name the player who went out, or null when the stock ran out",
            "format",
            SRC_NOTATION,
            field="out",
        )
    out = deal.get("out")
    if out is not None and (not isinstance(out, str) or out not in players):
        _deal_error(errors, number, f"'out' is {out!r}, not one of the players", "format", SRC_NOTATION, field="out")
        out = None
    flags = {}
    for key in ("first_turn", "concealed"):
        value = deal.get(key, False)
        if not isinstance(value, bool):
            _deal_error(
                errors, number, f"'{key}' takes true or false, not {value!r}", "format", SRC_NOTATION, field=key
            )
            value = False
        if value and deal.get("out") is None:
            _deal_error(
                errors,
                number,
                f"'{key}' says how the player who went out did it: with nobody out (stock ran out) it cannot be true",
                "going out",
                "S0",
                field=key,
            )
        flags[key] = value
    hands_raw = deal.get("hands")
    if not isinstance(hands_raw, Mapping):
        _deal_error(
            errors,
            number,
            "the deal has no 'hands' object: every player's melds and cards held",
            "format",
            SRC_NOTATION,
            field="hands",
        )
        return None
    for name in hands_raw:
        if name not in players:
            _deal_error(
                errors,
                number,
                f"'{name}' is not one of the players",
                "format",
                SRC_NOTATION,
                player=str(name),
                field=f"hands.{name}",
            )
    hands: dict[str, _Hand] = {}
    physical: list[tuple[str, _E]] = []  # every card entered, with its player, for the pack count
    for name in players:
        if name not in hands_raw:
            _deal_error(
                errors,
                number,
                f"{name} has no hand in this deal: every player has an entry (melds and cards held)",
                "format",
                SRC_NOTATION,
                player=name,
                field=f"hands.{name}",
            )
            continue
        hands[name] = _check_hand(rules, name, hands_raw[name], number, errors, physical)
    _check_pack(rules, physical, number, errors)
    if out is not None and out in hands:
        hand = hands[out]
        if hand.held:
            _deal_error(
                errors,
                number,
                f"{out} went out: nothing is left in hand (every card melded but the last, discarded)",
                "going out",
                SRC_OUT,
                player=out,
                cards=[c.label for c in hand.held],
                field=f"hands.{out}.held",
            )
        raw_melds = hands_raw[out].get("melds") if isinstance(hands_raw.get(out), Mapping) else None
        if isinstance(raw_melds, list) and not raw_melds:
            _deal_error(
                errors,
                number,
                f"{out} went out but melded nothing: going out means melding all one's cards",
                "going out",
                "ruling",
                player=out,
                field=f"hands.{out}.melds",
            )
    if len(errors) > start:
        return None
    return hands, out, flags["first_turn"], flags["concealed"]


def _check_hand(
    rules: Any, name: str, raw: Any, number: int, errors: list[RecordError], physical: list[tuple[str, _E]]
) -> _Hand:
    hand = _Hand([], [])
    if not isinstance(raw, Mapping):
        _deal_error(
            errors,
            number,
            f"{name}'s hand is an object with 'melds' and 'held'",
            "format",
            SRC_NOTATION,
            player=name,
            field=f"hands.{name}",
        )
        return hand
    for key in raw:
        if key not in HAND_KEYS:
            _deal_error(
                errors,
                number,
                f"unknown key '{key}': a hand has 'melds' and 'held'",
                "format",
                SRC_NOTATION,
                player=name,
                field=f"hands.{name}.{key}",
            )
    for key in HAND_KEYS:
        if key not in raw:
            _deal_error(
                errors,
                number,
                f"{name}'s hand has no '{key}' (write [] for none)",
                "format",
                SRC_NOTATION,
                player=name,
                field=f"hands.{name}.{key}",
            )
    melds = raw.get("melds", [])
    if not isinstance(melds, list) or not all(isinstance(m, list) for m in melds):
        _deal_error(
            errors,
            number,
            "'melds' is a list of melds, each a list of cards",
            "format",
            SRC_NOTATION,
            player=name,
            field=f"hands.{name}.melds",
        )
        melds = []
    for i, meld in enumerate(melds):
        field = f"hands.{name}.melds[{i}]"  # a path into the record: counted from 0, as in Gin
        check = check_meld(meld, rules)
        for e in check.errors:
            errors.append(replace(e, deal=number, player=name, field=field))
        if check.ok:
            hand.melds.append(check)
        for raw_tok in meld:
            with contextlib.suppress(CardError):
                physical.append((name, _entry(raw_tok)))
    held = raw.get("held", [])
    if not isinstance(held, list):
        _deal_error(
            errors, number, "'held' is a list of cards", "format", SRC_NOTATION, player=name, field=f"hands.{name}.held"
        )
        held = []
    for raw_card in held:
        try:
            e = _entry(raw_card)
        except CardError as exc:
            _deal_error(
                errors,
                number,
                exc.message,
                "card notation",
                SRC_NOTATION,
                player=name,
                cards=[exc.token],
                field=f"hands.{name}.held",
            )
            continue
        if e.srank:
            _deal_error(
                errors,
                number,
                f"a card in hand stands for nothing: write {e.ccode}, not {e.tok.code}",
                "wild cards",
                SRC_WILD,
                player=name,
                cards=[e.label],
                field=f"hands.{name}.held",
            )
        if e.joker and not rules.joker:
            _deal_error(
                errors,
                number,
                "this game is played without the Joker",
                "no Joker",
                rules.cite("joker").source,
                player=name,
                cards=["JK"],
                field=f"hands.{name}.held",
            )
            continue
        physical.append((name, e))
        hand.held.append(e)
    return hand


def _check_pack(rules: Any, physical: list[tuple[str, _E]], number: int, errors: list[RecordError]) -> None:
    """Two of each natural card, two of each 2 (eight 2s), one Joker (S0; S1 law 1), all hands together."""
    counts = Counter(e.clabel for _, e in physical)
    for label, count in counts.items():
        if count <= 1 or (count == 2 and label != "JK"):
            continue
        if label == "JK" and not rules.joker:
            continue  # already reported where it was entered
        limit = 1 if label == "JK" else 2
        who = Counter(name for name, e in physical if e.clabel == label)
        # The player whose entry went past the pack's count, in seat order of entry.
        seen = 0
        culprit = None
        for name, e in physical:
            if e.clabel == label:
                seen += 1
                if seen > limit:
                    culprit = name
                    break
        by = ", ".join(f"{name} {k}" for name, k in who.items())
        what = (
            "one Joker" if label == "JK" else ("two of each card (eight 2s)" if label[0] == "2" else "two of each card")
        )
        _deal_error(
            errors,
            number,
            f"{label} is entered {count} times ({by}): the pack has {what}",
            "the pack",
            SRC_PACK,
            player=culprit,
            cards=[label],
        )


def _score_deal(
    rules: Any, players: tuple[str, ...], hands: dict[str, _Hand], out: str | None, first_turn: bool, concealed: bool
) -> dict[str, PlayerDeal]:
    result = {}
    k8 = _k8_held(rules)
    for name in players:
        hand = hands[name]
        lines: list[Line] = []
        points = 0
        for check in hand.melds:
            lines.extend(check.lines)
            points += check.points
        groups: dict[_Value, list[str]] = {}
        for e in hand.held:
            v = _held(e.tok.card, rules, k8)
            if v in groups:
                groups[v].append(e.clabel)
            else:
                groups[v] = [e.clabel]
        for v, shown in groups.items():
            k = len(shown)
            unit = v.points
            label = " ".join(shown) + (" in hand" if k == 1 else f" in hand ({k} × {unit})")
            lines.append(Line(label, unit * k, v.rule, v.source, v.basis))
            points += unit * k
        side_lines: list[Line] = []
        side = 0
        if name == out:
            cite = rules.cite("out_bonus")
            if first_turn and not rules.first_turn_bonus:
                ft = rules.cite("first_turn_bonus")
                lines.append(
                    Line(
                        "went out on the first turn: no going-out bonus",
                        0,
                        "no bonus for going out on one's first turn",
                        ft.source,
                        ft.basis,
                    )
                )
            else:
                lines.append(Line("went out", rules.out_bonus, "going out", cite.source, cite.basis))
                points += rules.out_bonus
            if concealed:
                cc = rules.cite("concealed_bonus")
                if rules.concealed_bonus == 0:
                    side_lines.append(
                        Line(
                            "went out concealed: no concealed bonus under these rules",
                            0,
                            "concealed bonus",
                            cc.source,
                            cc.basis,
                        )
                    )
                elif first_turn and not rules.first_turn_bonus:
                    side_lines.append(
                        Line(
                            "went out concealed on the first turn: no concealed bonus either",
                            0,
                            "the concealed bonus is additional to the going-out bonus",
                            "ruling",
                            "ruling",
                        )
                    )
                else:
                    side_lines.append(
                        Line(
                            "went out concealed (side column, outside the race)",
                            rules.concealed_bonus,
                            "concealed bonus",
                            cc.source,
                            cc.basis,
                        )
                    )
                    side += rules.concealed_bonus
        melds = tuple(check.labels for check in hand.melds)
        result[name] = PlayerDeal(
            points=points,
            lines=tuple(lines),
            melds=melds,
            held=tuple(e.clabel for e in hand.held),
            side_points=side,
            side_lines=tuple(side_lines),
        )
    return result


def score_deal(rules: Any, players: Sequence[str], deal: Any, number: int = 1) -> dict[str, PlayerDeal]:
    """Validate and score one deal alone (no running totals); raise RecordInvalid with every error."""
    errors: list[RecordError] = []
    players = tuple(players)
    parsed = _check_deal(rules, players, deal, number, errors)
    if errors or parsed is None:
        raise RecordInvalid(errors)
    hands, out, first_turn, concealed = parsed
    return _score_deal(rules, players, hands, out, first_turn, concealed)


def _check_players(rules: Any, players: tuple[str, ...], first_dealer: str | None, errors: list[RecordError]) -> None:
    """The same checks of the players as a whole record gets (record.check_header)."""
    problems = player_errors(players)
    errors += problems
    if not problems:
        errors += player_count_errors(rules, players)
    errors += first_dealer_errors(players, first_dealer)


def _winner(totals: Mapping[str, int], target: int) -> tuple[str | None, bool]:
    """(winner, tie at the top) once someone has reached the target."""
    if max(totals.values()) < target:
        return None, False
    top = max(totals.values())
    leaders = [p for p, t in totals.items() if t == top]
    if len(leaders) > 1:
        return None, True
    return leaders[0], False


def score_game(rules: Any, players: Sequence[str], deals: Sequence[Any], first_dealer: str | None = None) -> GameResult:
    """Score a whole game of Oklahoma; raise RecordInvalid with every error found."""
    players = tuple(players)
    errors: list[RecordError] = []
    _check_players(rules, players, first_dealer, errors)
    if not isinstance(deals, (list, tuple)):
        errors.append(RecordError("'deals' must be a list", rule="format", field="deals"))
        raise RecordInvalid(errors)
    if errors:
        raise RecordInvalid(errors)
    target = rules.target
    totals = dict.fromkeys(players, 0)
    side = dict.fromkeys(players, 0)
    dealer = first_dealer
    results: list[DealResult] = []
    winner: str | None = None
    ended_on: int | None = None
    scoring = True  # False once a deal is invalid: later totals are unknown
    for number, deal in enumerate(deals, 1):
        before = len(errors)
        parsed = _check_deal(rules, players, deal, number, errors)
        if ended_on is not None:
            _deal_error(
                errors,
                number,
                f"the game ended on deal {ended_on} ({winner} reached {target:,}): no deal follows it",
                "end of the game",
                rules.cite("target").source,
            )
            continue
        if len(errors) > before or parsed is None:
            scoring = False
            continue
        if not scoring:
            continue
        hands, out, first_turn, concealed = parsed
        scored = _score_deal(rules, players, hands, out, first_turn, concealed)
        totals_before = dict(totals)
        for p in players:
            totals[p] += scored[p].points
            side[p] += scored[p].side_points
        next_dealer = out if out is not None else dealer
        notes = []
        if out is None:
            notes.append("the stock ran out: nobody went out, no bonus (S0); the same dealer deals again (ruling)")
        win, tie = _winner(totals, target)
        if tie:
            notes.append(f"an exact tie at the top on {max(totals.values()):,}: the game goes on (ruling)")
        if win is not None:
            winner = win
            ended_on = number
            notes.append(
                f"{win} wins the game with {totals[win]:,} (target {target:,}; "
                "when several reach it the highest total wins — S0)"
            )
        results.append(
            DealResult(
                number=number,
                outcome="out" if out is not None else "stock_out",
                multiplier=1,
                players=scored,
                totals_before=totals_before,
                totals=dict(totals),
                side=dict(side),
                dealer=dealer,
                next_dealer=next_dealer,
                notes=tuple(notes),
                actor=out,
                winner=out,
            )
        )
        dealer = next_dealer
    if errors:
        raise RecordInvalid(errors)
    final = None
    final_lines = None
    state = "in_progress"
    if winner is not None:
        state = "finished"
        final = {}
        final_lines = {}
        gb = rules.cite("game_bonus")
        cb = rules.cite("concealed_bonus")
        for p in players:
            lines = [Line("running total", totals[p], "the running game score", "S0")]
            if side[p]:
                lines.append(
                    Line(
                        "concealed bonuses (side column)",
                        side[p],
                        "the concealed bonus counts only in the final tally",
                        cb.source,
                        cb.basis,
                    )
                )
            if p == winner:
                lines.append(Line("game bonus", rules.game_bonus, "the winner of the game", gb.source, gb.basis))
            final_lines[p] = tuple(lines)
            final[p] = sum(x.points for x in lines)
    return GameResult(
        game=GAME,
        profile=rules.profile,
        players=players,
        deals=tuple(results),
        totals=dict(totals),
        side=dict(side),
        state=state,
        winner=winner,
        final=final,
        final_lines=final_lines,
        target=target,
    )
