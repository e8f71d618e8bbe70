"""Oklahoma, the Canasta-like game (RULES.md §1): meld checking, card values, deal and game scoring.

Plain Python, no Django. ``check_meld`` is usable alone (the web app checks each meld while a
player types it); ``score_game`` scores a whole game from the raw deals of a record and raises
``RecordInvalid`` with every error found.

Sources: S0 (book description), S1 (Laws of Oklahoma). Values that are this project's reading
carry basis "ruling"; knob values are cited through ``rules.cite``.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from .cards import ACE, JOKER, KING, PACK_52, QUEEN, RANK_NAMES, Card, CardError, Suit, Token, parse_token
from .errors import RecordError, RecordInvalid
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
# Card parsing, cached: the same few dozen tokens come back on every keystroke and every deal.

_TOKENS: dict[str, Token | CardError] = {}
_CACHE_LIMIT = 4096


def _token(raw: Any) -> Token:
    """Parse a meld token (``'2C=7H'``) or pass a Token through; raise CardError."""
    if type(raw) is str:
        hit = _TOKENS.get(raw)
        if hit is None:
            try:
                hit = parse_token(raw)
            except CardError as exc:
                hit = exc
            if len(_TOKENS) >= _CACHE_LIMIT:
                _TOKENS.clear()
            _TOKENS[raw] = hit
        if type(hit) is Token:
            return hit
        raise hit  # type: ignore[misc]
    if isinstance(raw, Token):
        return raw
    if isinstance(raw, Card):
        return Token(raw)
    return parse_token(raw)  # raises CardError naming the value


# --------------------------------------------------------------------------------------------
# Card values (RULES.md §1 table).

@dataclass(frozen=True, slots=True)
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


def _held(card: Card, rules: Any) -> _Value:
    rank = card.rank
    if rank == 0:
        return _Value(-200, "a Joker left in hand costs 200", "S0")
    if rank == 2:
        return _Value(-20, "a 2 left in hand costs 20", "S0")
    if rank == QUEEN and card.suit is Suit.SPADES:
        return _Value(-100, "Q♠ left in hand costs 100", SRC_VALUES)
    if rank == ACE:
        return _Value(-20, "an ace left in hand costs 20", SRC_VALUES)
    if rank >= 8:
        cite = rules.cite("k8_in_hand")
        value = rules.k8_in_hand
        return _Value(value, f"K Q J 10 9 8 left in hand cost {-value}", cite.source, cite.basis)
    return _Value(-5, "7 6 5 4 3 left in hand cost 5", SRC_VALUES)


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
    counts = {card: 2 for card in PACK_52}
    counts[JOKER] = 1 if rules.joker else 0
    return counts


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

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(t.label for t in self.cards)


def _err(message: str, rule: str, source: str, cards: Sequence[Token | str] = ()) -> RecordError:
    return RecordError(message, rule=rule, source=source,
                       cards=tuple(c if isinstance(c, str) else c.label for c in cards))


def _fail(errors: list[RecordError], kind: str | None = None, cards: Sequence[Token] = ()) -> MeldCheck:
    return MeldCheck(False, kind, tuple(cards), 0, (), tuple(errors))


def _rank_word(rank: int) -> str:
    return RANK_NAMES[rank]


def _pos_card(pos: int, suit: Suit) -> Card:
    return Card(ACE if pos == 14 else pos, suit)


def _pos_label(pos: int, suit: Suit) -> str:
    return _pos_card(pos, suit).label


def check_meld(tokens: Sequence[str | Token], rules: Any) -> MeldCheck:
    """Check one meld as entered (any order) and score it as melded.

    A set is 3–4 cards of one rank, wilds included (S0; S1 law 7); a sequence 3–14 cards of one
    suit in order, ace high or low, never round the corner (S0; S1 laws 7, 11). Every 2 and the
    Joker are wild (S0; S1 laws 8, 9) and may name their card after '='.
    """
    errors: list[RecordError] = []
    toks: list[Token] = []
    for raw in tokens:
        try:
            toks.append(_token(raw))
        except CardError as exc:
            errors.append(_err(exc.message, "card notation", SRC_NOTATION, [exc.token]))
    if errors:
        return _fail(errors)
    if not toks:
        return _fail([_err("an empty meld: a meld is 3 or more cards", "meld", SRC_MELD)])
    if not rules.joker:
        jokers = [t for t in toks if t.card.is_joker]
        if jokers:
            cite = rules.cite("joker")
            errors.append(_err("this game is played without the Joker", "no Joker", cite.source, jokers))
            return _fail(errors)
    if len(toks) < 3:
        return _fail([_err(f"a meld needs at least 3 cards, not {len(toks)}", "meld", SRC_MELD, toks)])

    naturals = [t for t in toks if not t.card.is_wild]
    named = [t for t in toks if t.card.is_wild and t.stands_for is not None]
    if not naturals and not named:
        return _fail([_err("a meld of wild cards only must name what each card stands for "
                           "(like 2C=7H)", "wild cards", SRC_WILD, toks)])
    basis_cards = [t.card for t in naturals] + [t.stands_for for t in named]  # type: ignore[misc]
    ranks = {c.rank for c in basis_cards}
    suits = {c.suit for c in basis_cards}
    if len(ranks) == 1:
        return _check_set(toks, basis_cards[0].rank, rules)
    if len(suits) == 1:
        return _check_sequence(toks, basis_cards[0].suit, rules)  # type: ignore[arg-type]
    # The named cards do not fit: say which wild is at fault when the natural cards agree.
    nat_ranks = {t.card.rank for t in naturals}
    nat_suits = {t.card.suit for t in naturals}
    if naturals and len(nat_ranks) == 1:
        rank = next(iter(nat_ranks))
        for t in named:
            if t.stands_for.rank != rank:  # type: ignore[union-attr]
                errors.append(_err(f"in a set of {_rank_word(rank)}s a wild card must stand for a "
                                   f"{_rank_word(rank)}, not {t.stands_for.label}",  # type: ignore[union-attr]
                                   "set: one rank", SRC_SET, [t]))
        return _fail(errors, "set", toks)
    if naturals and len(nat_suits) == 1:
        suit = next(iter(nat_suits))
        for t in named:
            if t.stands_for.suit is not suit:  # type: ignore[union-attr]
                errors.append(_err(f"in a {suit.symbol} sequence a wild card must stand for a "
                                   f"{suit.symbol} card, not {t.stands_for.label}",  # type: ignore[union-attr]
                                   "sequence: one suit", SRC_SEQUENCE, [t]))
        return _fail(errors, "sequence", toks)
    return _fail([_err("not a meld: a set is cards of one rank, a sequence cards of one suit in order",
                       "meld", SRC_MELD, toks)])


def _score(entries: list[tuple[Token, str, _Value]]) -> tuple[int, tuple[Line, ...]]:
    """Group (token, shown-as, value) entries into cited lines, in order of first appearance."""
    groups: dict[tuple, list[str]] = {}
    for tok, shown, value in entries:
        key = (value.rule, value.source, value.basis, value.points)
        groups.setdefault(key, []).append(shown)
    lines = []
    total = 0
    for (rule, source, basis, unit), shown in groups.items():
        n = len(shown)
        sep = ", " if any(" " in x for x in shown) else " "
        label = sep.join(shown) + (" melded" if n == 1 else f" melded ({n} × {unit})")
        lines.append(Line(label, unit * n, rule, source, basis))
        total += unit * n
    return total, tuple(lines)


def _check_set(toks: list[Token], rank: int, rules: Any) -> MeldCheck:
    if len(toks) > 4:
        return _fail([_err(f"a set has at most 4 cards, wild cards included, not {len(toks)}",
                           "set: at most 4 cards", "S0", toks)], "set", toks)
    naturals = sorted((t for t in toks if not t.card.is_wild), key=lambda t: t.card.sort_key())
    wilds = [t for t in toks if t.card.is_wild]
    ordered = naturals + wilds
    entries = []
    meaning = []
    word = _rank_word(rank)
    for t in ordered:
        c = t.card
        if c.is_wild:
            stands = t.stands_for
            value = _melded(c, rank, stands == _QS)
            shown = f"{c.label} as {stands.label}" if stands is not None else f"{c.label} as a {word}"
            meaning.append(stands.label if stands is not None else f"a {word}")
        else:
            value = _melded(c, None, False)
            shown = c.label
            meaning.append(c.label)
        entries.append((t, shown, value))
    points, lines = _score(entries)
    return MeldCheck(True, "set", tuple(ordered), points, lines, (), rank, None, tuple(meaning))


def _run_value(pos: int) -> int:
    """What a 2 scores standing at a sequence position (14 = high ace)."""
    if pos in (1, 14):
        return 20
    if pos >= 8:
        return 10
    return 5


def _corner(ranks: set[int], n: int) -> bool:
    """Do these ranks (ace as 1) only fit in n cards by going round the corner (K-A-2)?"""
    for cut in range(1, 13):
        shifted = sorted(r + 13 if r <= cut else r for r in ranks)
        if shifted[0] <= 13 and shifted[-1] >= 15 and shifted[-1] - shifted[0] + 1 <= n:
            return True
    return False


def _check_sequence(toks: list[Token], suit: Suit, rules: Any) -> MeldCheck:
    n = len(toks)
    errors: list[RecordError] = []
    if n > 14:
        return _fail([_err(f"a sequence has at most 14 cards (A to K to A), not {n}",
                           "sequence: at most 14 cards", "S0", toks)], "sequence", toks)
    fixed: list[tuple[Token, int]] = []          # (token, rank it holds) for naturals and named wilds
    free: list[Token] = []
    for t in toks:
        if t.card.is_wild and t.stands_for is None:
            free.append(t)
        else:
            fixed.append((t, (t.stands_for or t.card).rank))
    aces = [t for t, r in fixed if r == ACE]
    by_rank: dict[int, list[Token]] = {}
    for t, r in fixed:
        if r != ACE:
            by_rank.setdefault(r, []).append(t)
    for r, ts in sorted(by_rank.items()):
        if len(ts) > 1:
            errors.append(_err(f"{_pos_label(r, suit)} is in the sequence {len(ts)} times: each card "
                               "of a sequence holds its own place", "sequence: each place once", SRC_SEQUENCE, ts))
    if len(aces) > 2:
        errors.append(_err(f"{len(aces)} aces: a sequence holds at most two (A-2-3… and …Q-K-A in a "
                           "14-card sequence)", "sequence: each place once", SRC_SEQUENCE, aces))
    if errors:
        return _fail(errors, "sequence", toks)

    others = sorted(by_rank)
    ace_options: list[tuple[int, ...]] = [()] if not aces else ([(1,), (14,)] if len(aces) == 1 else [(1, 14)])
    placements: list[tuple[tuple[int, ...], int, frozenset[int]]] = []   # (ace places, lowest place, fixed)
    for opt in ace_options:
        places = sorted(others + list(opt))
        lo_min = max(1, places[-1] - n + 1)
        lo_max = min(places[0], 15 - n)
        for lo in range(lo_min, lo_max + 1):
            placements.append((opt, lo, frozenset(places)))

    ranks_held = set(others) | ({ACE} if aces else set())
    suited_twos = [t for t in free if t.card.is_two and t.card.suit is suit]
    own_place: Token | None = None
    if suited_twos and placements:
        # RULING: an unnamed 2 of the sequence's own suit stands for itself when its place is open.
        at_two = [p for p in placements if p[1] <= 2 <= p[1] + n - 1 and 2 not in p[2]]
        if at_two:
            placements = at_two
            own_place = suited_twos[0]
    if suited_twos and own_place is None and _corner(ranks_held | {2}, n):
        # RULING: K, A and the 2 of one suit laid together read as going round the corner.
        at_fault = [t for t, r in fixed if r in (KING, ACE)] + suited_twos
        return _fail([_err("a sequence never goes round the corner (K-A-2); to use the "
                           f"{suited_twos[0].card.label} as another card, name it (like "
                           f"{suited_twos[0].card.code}={_pos_card(12, suit).code})",
                           "sequence: no round the corner", SRC_CORNER, at_fault)], "sequence", toks)
    if not placements:
        return _fail([_no_placement(toks, fixed, free, others, aces, ace_options, suit, n)], "sequence", toks)
    if len(placements) > 1:
        return _fail([_ambiguous(toks, free, placements, suit, n)], "sequence", toks)

    opt, lo, places = placements[0]
    open_places = [p for p in range(lo, lo + n) if p not in places]
    assigned: dict[int, Token] = {}
    rest = list(free)
    if own_place is not None:
        assigned[2] = Token(own_place.card, Card(2, suit))
        open_places.remove(2)
        rest.remove(own_place)
    twos = [t for t in rest if t.card.is_two]
    jokers = [t for t in rest if t.card.is_joker]
    if twos and jokers and len({_run_value(p) for p in open_places}) > 1:
        # RULING: which wild fills which place changes the score: the Joker must be named.
        shown = " ".join(_pos_label(p, suit) for p in open_places)
        return _fail([_err(f"the Joker and the 2 fill {shown}, which score differently as a 2: name the "
                           "card the Joker stands for (like JK=" + _pos_card(open_places[-1], suit).code + ")",
                           "wild cards: name the card", SRC_JOKER_NAME, jokers + twos)], "sequence", toks)
    for p, t in zip(open_places, twos + jokers):
        assigned[p] = Token(t.card, _pos_card(p, suit))
    ace_places = list(opt)
    for t, r in fixed:
        if r == ACE:
            assigned[ace_places.pop(0)] = t if t.stands_for is None else Token(t.card, Card(ACE, suit))
        else:
            assigned[r] = t
    ordered = [assigned[p] for p in sorted(assigned)]
    entries = []
    meaning = []
    for p in sorted(assigned):
        t = assigned[p]
        c = t.card
        if c.is_wild:
            stands = t.stands_for
            value = _melded(c, stands.rank, stands == _QS)  # type: ignore[union-attr]
            shown = f"{c.label} as {stands.label}"  # type: ignore[union-attr]
        else:
            value = _melded(c, None, False)
            shown = c.label
        meaning.append(_pos_label(p, suit))
        entries.append((t, shown, value))
    points, lines = _score(entries)
    return MeldCheck(True, "sequence", tuple(ordered), points, lines, (), None, suit, tuple(meaning))


def _no_placement(toks, fixed, free, others, aces, ace_options, suit, n) -> RecordError:
    ranks_held = set(others) | ({ACE} if aces else set())
    if ACE in ranks_held and _corner(ranks_held, n):
        return _err("a sequence never goes round the corner (K-A-2)", "sequence: no round the corner",
                    SRC_CORNER, [t for t, _ in fixed] + free)
    best = None
    for opt in ace_options:
        places = sorted(others + list(opt))
        missing = [p for p in range(places[0], places[-1] + 1) if p not in places]
        if best is None or len(missing) < len(best):
            best = missing
    assert best is not None
    shown = " ".join(_pos_label(p, suit) for p in best)
    wilds = f"{len(free)} wild card{'s' if len(free) != 1 else ''}" if free else "no wild card"
    return _err(f"not in sequence: {shown} missing, and {wilds} to fill "
                f"{'them' if len(best) > 1 else 'it'}", "sequence: in order", SRC_SEQUENCE, toks)


def _ambiguous(toks, free, placements, suit, n) -> RecordError:
    options = []
    for _opt, lo, places in placements:
        text = " ".join(_pos_label(p, suit) for p in range(lo, lo + n) if p not in places)
        if text not in options:
            options.append(text)
    what = "a 2" if all(t.card.is_two for t in free) else ("the Joker" if len(free) == 1 else "a wild card")
    one = free[0]
    example = f"{one.card.code}={_pos_card(next(p for p in range(placements[0][1], placements[0][1] + n) if p not in placements[0][2]), suit).code}"
    return _err(f"{what} in a sequence must name the card it stands for: "
                f"{' '.join(t.card.label for t in free)} could be {' or '.join(options)} (write it like {example})",
                "wild cards: name the card", SRC_WILD_SEQ if what == "a 2" else SRC_JOKER_NAME, toks)


# --------------------------------------------------------------------------------------------
# Deals and games.

@dataclass(slots=True)
class _Hand:
    melds: list[MeldCheck]
    held: list[Card]


def _deal_error(errors: list[RecordError], number: int, message: str, rule: str, source: str,
                player: str | None = None, cards: Sequence[str] = (), field: str | None = None) -> None:
    errors.append(RecordError(message, rule=rule, source=source, deal=number, player=player,
                              cards=tuple(cards), field=field))


def _check_deal(rules: Any, players: tuple[str, ...], deal: Any, number: int,
                errors: list[RecordError]) -> tuple[dict[str, _Hand], str | None, bool, bool] | None:
    """Validate one deal; append every error; return the parsed hands when it is valid."""
    start = len(errors)
    if not isinstance(deal, Mapping):
        _deal_error(errors, number, "a deal is an object with 'out', 'hands' (and optionally 'first_turn', "
                    "'concealed')", "format", SRC_NOTATION)
        return None
    for key in deal:
        if key not in DEAL_KEYS:
            _deal_error(errors, number, f"unknown key '{key}': an Oklahoma deal has {', '.join(DEAL_KEYS)}",
                        "format", SRC_NOTATION, field=str(key))
    if "out" not in deal:
        _deal_error(errors, number, "the deal has no 'out': name the player who went out, or null when the "
                    "stock ran out", "format", SRC_NOTATION, field="out")
    out = deal.get("out")
    if out is not None and (not isinstance(out, str) or out not in players):
        _deal_error(errors, number, f"'out' is {out!r}, not one of the players", "format", SRC_NOTATION,
                    field="out")
        out = None
    flags = {}
    for key in ("first_turn", "concealed"):
        value = deal.get(key, False)
        if not isinstance(value, bool):
            _deal_error(errors, number, f"'{key}' takes true or false, not {value!r}", "format", SRC_NOTATION,
                        field=key)
            value = False
        if value and deal.get("out") is None:
            _deal_error(errors, number, f"'{key}' says how the player who went out did it: with nobody out "
                        "(stock ran out) it cannot be true", "going out", "S0", field=key)
        flags[key] = value
    hands_raw = deal.get("hands")
    if not isinstance(hands_raw, Mapping):
        _deal_error(errors, number, "the deal has no 'hands' object: every player's melds and cards held",
                    "format", SRC_NOTATION, field="hands")
        return None
    for name in hands_raw:
        if name not in players:
            _deal_error(errors, number, f"'{name}' is not one of the players", "format", SRC_NOTATION,
                        player=str(name), field=f"hands.{name}")
    hands: dict[str, _Hand] = {}
    physical: list[tuple[str, Token]] = []     # every card entered, with its player, for the pack count
    for name in players:
        if name not in hands_raw:
            _deal_error(errors, number, f"{name} has no hand in this deal: every player has an entry "
                        "(melds and cards held)", "format", SRC_NOTATION, player=name, field=f"hands.{name}")
            continue
        hands[name] = _check_hand(rules, name, hands_raw[name], number, errors, physical)
    _check_pack(rules, physical, number, errors)
    if out is not None and out in hands:
        hand = hands[out]
        if hand.held:
            _deal_error(errors, number, f"{out} went out: nothing is left in his hand (he melded every card and "
                        "discarded the last)", "going out", SRC_OUT, player=out,
                        cards=[c.label for c in hand.held], field=f"hands.{out}.held")
        raw_melds = hands_raw[out].get("melds") if isinstance(hands_raw.get(out), Mapping) else None
        if isinstance(raw_melds, list) and not raw_melds:
            _deal_error(errors, number, f"{out} went out but melded nothing: going out means melding all "
                        "one's cards", "going out", "ruling", player=out, field=f"hands.{out}.melds")
    if len(errors) > start:
        return None
    return hands, out, flags["first_turn"], flags["concealed"]


def _check_hand(rules: Any, name: str, raw: Any, number: int, errors: list[RecordError],
                physical: list[tuple[str, Token]]) -> _Hand:
    hand = _Hand([], [])
    if not isinstance(raw, Mapping):
        _deal_error(errors, number, f"{name}'s hand is an object with 'melds' and 'held'", "format",
                    SRC_NOTATION, player=name, field=f"hands.{name}")
        return hand
    for key in raw:
        if key not in HAND_KEYS:
            _deal_error(errors, number, f"unknown key '{key}': a hand has 'melds' and 'held'", "format",
                        SRC_NOTATION, player=name, field=f"hands.{name}.{key}")
    for key in HAND_KEYS:
        if key not in raw:
            _deal_error(errors, number, f"{name}'s hand has no '{key}' (write [] for none)", "format",
                        SRC_NOTATION, player=name, field=f"hands.{name}.{key}")
    melds = raw.get("melds", [])
    if not isinstance(melds, list) or not all(isinstance(m, list) for m in melds):
        _deal_error(errors, number, "'melds' is a list of melds, each a list of cards", "format", SRC_NOTATION,
                    player=name, field=f"hands.{name}.melds")
        melds = []
    for i, meld in enumerate(melds, 1):
        field = f"hands.{name}.melds[{i}]"
        check = check_meld(meld, rules)
        for e in check.errors:
            errors.append(replace(e, deal=number, player=name, field=field))
        if check.ok:
            hand.melds.append(check)
            physical.extend((name, t) for t in check.cards)
        else:
            for raw_tok in meld:
                try:
                    physical.append((name, _token(raw_tok)))
                except CardError:
                    pass
    held = raw.get("held", [])
    if not isinstance(held, list):
        _deal_error(errors, number, "'held' is a list of cards", "format", SRC_NOTATION, player=name,
                    field=f"hands.{name}.held")
        held = []
    for raw_card in held:
        try:
            tok = _token(raw_card)
        except CardError as exc:
            _deal_error(errors, number, exc.message, "card notation", SRC_NOTATION, player=name,
                        cards=[exc.token], field=f"hands.{name}.held")
            continue
        if tok.stands_for is not None:
            _deal_error(errors, number, f"a card in hand stands for nothing: write {tok.card.code}, not "
                        f"{tok.code}", "wild cards", SRC_WILD, player=name, cards=[tok.label],
                        field=f"hands.{name}.held")
        if tok.card.is_joker and not rules.joker:
            _deal_error(errors, number, "this game is played without the Joker", "no Joker",
                        rules.cite("joker").source, player=name, cards=["JK"], field=f"hands.{name}.held")
            continue
        physical.append((name, tok))
        hand.held.append(tok.card)
    return hand


def _check_pack(rules: Any, physical: list[tuple[str, Token]], number: int, errors: list[RecordError]) -> None:
    counts = Counter(t.card for _, t in physical)
    for card, count in counts.items():
        limit = 1 if card.is_joker else 2
        if card.is_joker and not rules.joker:
            continue  # already reported where it was entered
        if count <= limit:
            continue
        who = Counter(name for name, t in physical if t.card == card)
        # The player whose entry went past the pack's count, in seat order of entry.
        seen = 0
        culprit = None
        for name, t in physical:
            if t.card == card:
                seen += 1
                if seen > limit:
                    culprit = name
                    break
        by = ", ".join(f"{name} {k}" for name, k in who.items())
        what = "one Joker" if card.is_joker else ("two of each card (eight 2s)" if card.is_two
                                                  else "two of each card")
        _deal_error(errors, number, f"{card.label} is entered {count} times ({by}): the pack has {what}",
                    "the pack", SRC_PACK, player=culprit, cards=[card.label])


def _score_deal(rules: Any, players: tuple[str, ...], hands: dict[str, _Hand], out: str | None,
                first_turn: bool, concealed: bool) -> dict[str, PlayerDeal]:
    result = {}
    for name in players:
        hand = hands[name]
        lines: list[Line] = []
        points = 0
        for check in hand.melds:
            lines.extend(check.lines)
            points += check.points
        held_entries = [(Token(c), c.label, _held(c, rules)) for c in hand.held]
        groups: dict[tuple, list[str]] = {}
        for _t, shown, v in held_entries:
            groups.setdefault((v.rule, v.source, v.basis, v.points), []).append(shown)
        for (rule, source, basis, unit), shown in groups.items():
            k = len(shown)
            label = " ".join(shown) + (" in hand" if k == 1 else f" in hand ({k} × {unit})")
            lines.append(Line(label, unit * k, rule, source, basis))
            points += unit * k
        side_lines: list[Line] = []
        side = 0
        if name == out:
            cite = rules.cite("out_bonus")
            if first_turn and not rules.first_turn_bonus:
                ft = rules.cite("first_turn_bonus")
                lines.append(Line("went out on his first turn: no going-out bonus", 0,
                                  "no bonus for going out on one's first turn", ft.source, ft.basis))
            else:
                lines.append(Line("went out", rules.out_bonus, "going out", cite.source, cite.basis))
                points += rules.out_bonus
            if concealed:
                cc = rules.cite("concealed_bonus")
                if rules.concealed_bonus == 0:
                    side_lines.append(Line("went out concealed: no concealed bonus under these rules", 0,
                                           "concealed bonus", cc.source, cc.basis))
                elif first_turn and not rules.first_turn_bonus:
                    side_lines.append(Line("went out concealed on his first turn: no concealed bonus either", 0,
                                           "the concealed bonus is additional to the going-out bonus",
                                           "ruling", "ruling"))
                else:
                    side_lines.append(Line("went out concealed (side column, outside the race)",
                                           rules.concealed_bonus, "concealed bonus", cc.source, cc.basis))
                    side += rules.concealed_bonus
        melds = tuple(check.labels for check in hand.melds)
        result[name] = PlayerDeal(points=points, lines=tuple(lines), melds=melds,
                                  held=tuple(c.label for c in hand.held), side_points=side,
                                  side_lines=tuple(side_lines))
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


def _check_players(rules: Any, players: tuple[str, ...], first_dealer: str | None,
                   errors: list[RecordError]) -> None:
    if not all(isinstance(p, str) and p for p in players):
        errors.append(RecordError("players are named by non-empty text", rule="players", field="players"))
    if len(set(players)) != len(players):
        errors.append(RecordError("a player is named twice: player names must be unique", rule="players",
                                  field="players"))
    if not 2 <= len(players) <= rules.max_players:
        errors.append(RecordError(f"{len(players)} players: these rules of Oklahoma take 2 to {rules.max_players}",
                                  rule="players", source=rules.cite("max_players").source, field="players"))
    if first_dealer is not None and first_dealer not in players:
        errors.append(RecordError(f"the first dealer {first_dealer!r} is not one of the players",
                                  rule="players", field="first_dealer"))


def _winner(totals: Mapping[str, int], target: int) -> tuple[str | None, bool]:
    """(winner, tie at the top) once someone has reached the target."""
    if max(totals.values()) < target:
        return None, False
    top = max(totals.values())
    leaders = [p for p, t in totals.items() if t == top]
    if len(leaders) > 1:
        return None, True
    return leaders[0], False


def score_game(rules: Any, players: Sequence[str], deals: Sequence[Any],
               first_dealer: str | None = None) -> GameResult:
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
    totals = {p: 0 for p in players}
    side = {p: 0 for p in players}
    dealer = first_dealer
    results: list[DealResult] = []
    winner: str | None = None
    ended_on: int | None = None
    scoring = True            # False once a deal is invalid: later totals are unknown
    for number, deal in enumerate(deals, 1):
        before = len(errors)
        parsed = _check_deal(rules, players, deal, number, errors)
        if ended_on is not None:
            _deal_error(errors, number, f"the game ended on deal {ended_on} ({winner} reached "
                        f"{target:,}): no deal follows it", "end of the game", rules.cite("target").source)
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
            notes.append(f"{win} wins the game with {totals[win]:,} (target {target:,}; "
                         "when several reach it the highest total wins — S0)")
        results.append(DealResult(number=number, outcome="out" if out is not None else "stock_out",
                                  multiplier=1, players=scored, totals_before=totals_before,
                                  totals=dict(totals), side=dict(side), dealer=dealer,
                                  next_dealer=next_dealer, notes=tuple(notes)))
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
                lines.append(Line("concealed bonuses (side column)", side[p],
                                  "the concealed bonus counts only in the final tally", cb.source, cb.basis))
            if p == winner:
                lines.append(Line("game bonus", rules.game_bonus, "the winner of the game", gb.source, gb.basis))
            final_lines[p] = tuple(lines)
            final[p] = sum(x.points for x in lines)
    return GameResult(game=GAME, profile=rules.profile, players=players, deals=tuple(results),
                      totals=dict(totals), side=dict(side), state=state, winner=winner, final=final,
                      final_lines=final_lines, target=target)
