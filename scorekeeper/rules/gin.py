"""Oklahoma Gin: validate the deals of a game record and score them (RULES.md section 2).

``score_game(rules, players, deals, first_dealer)`` returns a results.GameResult or raises
errors.RecordInvalid naming every error found. The arrangement searches are in gin_search.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import gin_search as gf
from .cards import CARD_BY_INDEX, Card, CardError, Suit, knock_limit, parse_card
from .errors import RecordError, RecordInvalid
from .results import DealResult, GameResult, Line, PlayerDeal

GAME = "oklahoma-gin"
DEAL_KEYS = ("upcard", "knocker", "hands")
HAND_KEYS = ("cards", "melds", "deadwood", "big_gin")

# Where each profile's outcome rules come from (the bonuses cite their knobs).
_OUTCOME_SOURCE = {
    "standard": {
        "knock": "S2, Scoring 1",
        "undercut": "S2, Scoring 3",
        "gin": "S2, Scoring 2",
        "limit": "S2, Gameplay 1",
        "layoff": "S2, Gameplay 5",
        "game": "S2, Scoring 5",
    },
    "classic": {"knock": "PG, BO", "undercut": "PG, BO", "gin": "PG, BO", "limit": "BO", "layoff": "PG", "game": "PG"},
    "casino": {"knock": "S3", "undercut": "S3", "gin": "S3", "limit": "S3", "layoff": "S3", "game": "S3"},
    "party": {"knock": "S4", "undercut": "S4", "gin": "S4", "limit": "S4", "layoff": "S4", "game": "S4"},
}
MELD_RULE = "meld"
MELD_SOURCE = "S2, Gameplay 3; S4"


def _src(rules, what: str) -> str:
    return _OUTCOME_SOURCE.get(rules.profile, _OUTCOME_SOURCE["standard"])[what]


def labels(mask: int) -> tuple[str, ...]:
    """Printed cards of a mask, in suit-major rank order."""
    return tuple(CARD_BY_INDEX[i].label for i in gf.bits_of(mask))


# ---------------------------------------------------------------------------------------------
# Parsed deal


@dataclass
class Hand:
    player: str
    given: str  # "cards" or "spread"
    mask: int = 0  # every card given
    melds: tuple[int, ...] = ()  # spread: melds as given
    meld_labels: tuple[tuple[str, ...], ...] = ()
    deadwood: int = 0  # spread: deadwood as given
    big_gin: bool = False


@dataclass
class ParsedDeal:
    number: int
    upcard: Card
    knocker: str | None
    hands: dict[str, Hand] = field(default_factory=dict)


def hand_size(n_players: int) -> int:
    """10 cards each for two players, 7 for three or four (S2, S3, S4)."""
    return 10 if n_players == 2 else 7


def _parse_cards(
    raw: Any, errors: list, number: int, player: str | None, fld: str, seen: dict[int, str], upcard: Card | None
) -> list[Card] | None:
    if not isinstance(raw, list):
        errors.append(
            RecordError(f"'{fld}' must be a list of cards", rule="format", deal=number, player=player, field=fld)
        )
        return None
    out = []
    for text in raw:
        try:
            card = parse_card(text)
        except CardError as exc:
            errors.append(
                RecordError(
                    exc.message,
                    rule="cards",
                    source="RECORD.md",
                    deal=number,
                    player=player,
                    cards=(exc.token,),
                    field=fld,
                )
            )
            continue
        if card.is_joker:
            errors.append(
                RecordError(
                    "the Joker is not in the Oklahoma Gin pack (one 52-card pack, no Joker)",
                    rule="pack",
                    source="S4",
                    deal=number,
                    player=player,
                    cards=("JK",),
                    field=fld,
                )
            )
            continue
        where = seen.get(card.index)
        if where is not None:
            whose = f"twice in {player}'s hand" if where == player else f"twice in this deal ({where} and {player})"
            errors.append(
                RecordError(
                    f"{card.label} is entered {whose}: the pack holds one of each card",
                    rule="pack",
                    source="S2, Setup",
                    deal=number,
                    player=player,
                    cards=(card.label,),
                    field=fld,
                )
            )
            continue
        seen[card.index] = player or "?"
        out.append(card)
    return out


def _mask(cards: list[Card]) -> int:
    return gf.mask_of(c.index for c in cards)


def meld_problem(m: int) -> str | None:
    """None for a legal meld, else why it is not one."""
    if gf.meld_kind(m):
        return None
    n = m.bit_count()
    if n < 3:
        return "a meld needs 3 or more cards: a set of 3 or 4 of one rank, or a run of 3 or more of one suit"
    ranks = 0
    suits = set()
    for i in gf.bits_of(m):
        ranks |= 1 << (i % 13)
        suits.add(i // 13)
    if ranks.bit_count() == 1:
        return "a set holds 3 or 4 cards of one rank"
    if len(suits) == 1:
        (s,) = suits
        part = m >> (13 * s) & gf.FULL
        if part & 1 and part & (1 << 12):
            return "the ace is low only in Oklahoma Gin: A-2-3 is a run, Q-K-A and K-A-2 are not"
        return "a run's cards must follow one another in rank with no gap"
    return "not a meld: a set is 3 or 4 cards of one rank, a run 3 or more cards in order of one suit"


def check_meld(cards: list[Card]) -> tuple[str | None, str | None]:
    """A live check of one meld as entered: ("set" or "run", None) when legal, else (None, what is
    wrong with the rule and its source)."""
    if len(set(cards)) != len(cards):
        return None, "a card is named twice in this meld: the pack has one of each — S2, Setup"
    if any(c.is_joker for c in cards):
        return None, "Oklahoma Gin is played without the Joker — S2, Setup; S4"
    mask = gf.mask_of(c.index for c in cards)
    problem = meld_problem(mask)
    if problem:
        return None, f"{problem} — {MELD_RULE}, {MELD_SOURCE}"
    return gf.meld_kind(mask), None


def _parse_deal(rules, players: tuple[str, ...], raw: Any, number: int, errors: list) -> ParsedDeal | None:
    start = len(errors)
    if not isinstance(raw, Mapping):
        errors.append(
            RecordError("a deal is an object with 'upcard', 'knocker' and 'hands'", rule="format", deal=number)
        )
        return None
    for key in raw:
        if key not in DEAL_KEYS:
            errors.append(
                RecordError(
                    f"unknown key '{key}' in an Oklahoma Gin deal: a deal has {', '.join(DEAL_KEYS)}",
                    rule="format",
                    source="RECORD.md",
                    deal=number,
                    field=str(key),
                )
            )
    for key in ("upcard", "knocker"):
        if key not in raw:
            errors.append(
                RecordError(
                    f"the deal has no '{key}'" + (" (null when the hand was void)" if key == "knocker" else ""),
                    rule="format",
                    source="RECORD.md",
                    deal=number,
                    field=key,
                )
            )
    upcard = None
    if "upcard" in raw:
        try:
            upcard = parse_card(raw["upcard"]) if raw["upcard"] is not None else None
            if upcard is None:
                errors.append(
                    RecordError(
                        "the deal has no upcard: enter the first upcard",
                        rule="upcard",
                        source=_src(rules, "limit"),
                        deal=number,
                        field="upcard",
                    )
                )
            elif upcard.is_joker:
                errors.append(
                    RecordError(
                        "the Joker is not in the Oklahoma Gin pack",
                        rule="pack",
                        source="S4",
                        deal=number,
                        cards=("JK",),
                        field="upcard",
                    )
                )
                upcard = None
        except CardError as exc:
            errors.append(
                RecordError(
                    exc.message, rule="cards", source="RECORD.md", deal=number, cards=(exc.token,), field="upcard"
                )
            )
    knocker = raw.get("knocker")
    if knocker is not None and knocker not in players:
        errors.append(
            RecordError(
                f"the knocker {knocker!r} is not one of the players", rule="knocker", deal=number, field="knocker"
            )
        )
        knocker = None
    if "knocker" in raw and knocker is None and raw.get("knocker") is None and rules.stock_out != "void":
        c = rules.cite("stock_out")
        errors.append(
            RecordError(
                "nobody knocked: at this table a stock down to two cards is reshuffled and play goes on, "
                "so every deal ends with a knock or gin — say who knocked",
                rule="stock out",
                source=c.source,
                deal=number,
                field="knocker",
            )
        )
    void = "knocker" in raw and raw.get("knocker") is None
    hands_raw = raw.get("hands")
    hands: dict[str, Hand] = {}
    if hands_raw is None:
        if not void:
            errors.append(
                RecordError("the deal has no 'hands'", rule="format", source="RECORD.md", deal=number, field="hands")
            )
        hands_raw = {}
    if not isinstance(hands_raw, Mapping):
        errors.append(
            RecordError(
                "'hands' must be an object with one entry per player", rule="format", deal=number, field="hands"
            )
        )
        hands_raw = {}
    for name in hands_raw:
        if name not in players:
            errors.append(
                RecordError(
                    f"'hands' names {name!r}, who is not one of the players",
                    rule="format",
                    deal=number,
                    player=str(name),
                    field=f"hands.{name}",
                )
            )
    n = hand_size(len(players))
    seen: dict[int, str] = {}
    for name in players:
        entry = hands_raw.get(name)
        if entry is None:
            if not void:
                errors.append(
                    RecordError(
                        f"no hand for {name}: every player's cards are needed",
                        rule="format",
                        deal=number,
                        player=name,
                        field=f"hands.{name}",
                    )
                )
            continue
        base = f"hands.{name}"
        if not isinstance(entry, Mapping):
            errors.append(
                RecordError(
                    "a hand is an object with 'cards', or 'melds' and 'deadwood'",
                    rule="format",
                    deal=number,
                    player=name,
                    field=base,
                )
            )
            continue
        bad = [k for k in entry if k not in HAND_KEYS]
        for k in bad:
            errors.append(
                RecordError(
                    f"unknown key '{k}' in a hand: a hand has 'cards', or 'melds' and "
                    "'deadwood' (and 'big_gin' for the knocker)",
                    rule="format",
                    source="RECORD.md",
                    deal=number,
                    player=name,
                    field=f"{base}.{k}",
                )
            )
        is_knocker = name == knocker
        big = entry.get("big_gin", False)
        if not isinstance(big, bool):
            errors.append(
                RecordError(
                    "'big_gin' is true or false", rule="format", deal=number, player=name, field=f"{base}.big_gin"
                )
            )
            big = False
        if big and not is_knocker:
            errors.append(
                RecordError(
                    "only the knocker can have big gin",
                    rule="big gin",
                    source=rules.cite("big_gin_bonus").source,
                    deal=number,
                    player=name,
                    field=f"{base}.big_gin",
                )
            )
            big = False
        has_cards = "cards" in entry
        has_spread = "melds" in entry or "deadwood" in entry
        if has_cards and has_spread:
            errors.append(
                RecordError(
                    "give either the spread ('melds' and 'deadwood') or all the 'cards', not both",
                    rule="format",
                    source="RECORD.md",
                    deal=number,
                    player=name,
                    field=base,
                )
            )
            continue
        if has_cards:
            cards = _parse_cards(entry["cards"], errors, number, name, f"{base}.cards", seen, upcard)
            if cards is None:
                continue
            hand = Hand(name, "cards", _mask(cards), big_gin=big)
            count = len(entry["cards"])  # as entered: a bad card still counts
        else:
            melds_raw = entry.get("melds", [])
            if not isinstance(melds_raw, list):
                errors.append(
                    RecordError(
                        "'melds' must be a list of melds (each a list of cards)",
                        rule="format",
                        deal=number,
                        player=name,
                        field=f"{base}.melds",
                    )
                )
                continue
            melds = []
            mlabels = []
            count = 0
            total = 0
            ok = True
            for k, mraw in enumerate(melds_raw):
                fld = f"{base}.melds[{k}]"
                cards = _parse_cards(mraw, errors, number, name, fld, seen, upcard)
                if cards is None:
                    ok = False
                    continue
                count += len(mraw)
                if not cards:
                    continue
                m = _mask(cards)
                total |= m
                if len(cards) != len(mraw):
                    ok = False
                    continue
                problem = meld_problem(m)
                if problem:
                    errors.append(
                        RecordError(
                            problem,
                            rule=MELD_RULE,
                            source=MELD_SOURCE,
                            deal=number,
                            player=name,
                            cards=tuple(c.label for c in cards),
                            field=fld,
                        )
                    )
                    ok = False
                melds.append(m)
                mlabels.append(tuple(c.label for c in cards))
            dead_cards = _parse_cards(entry.get("deadwood", []), errors, number, name, f"{base}.deadwood", seen, upcard)
            if dead_cards is None:
                continue
            count += len(entry.get("deadwood", []))
            dead = _mask(dead_cards)
            if not ok:
                continue
            hand = Hand(name, "spread", total | dead, tuple(melds), tuple(mlabels), dead, big)
        # Counts.
        if void and count == 0:
            continue
        if not void:
            if is_knocker and big:
                if count != n + 1:
                    errors.append(
                        RecordError(
                            f"big gin is all {n + 1} cards melded (the hand before the discard); {name} has {count}",
                            rule="big gin",
                            source=rules.cite("big_gin_bonus").source,
                            deal=number,
                            player=name,
                            field=base,
                        )
                    )
                    continue
            elif is_knocker and hand.given == "cards":
                if count not in (n, n + 1):
                    errors.append(
                        RecordError(
                            f"the knocker holds {n} cards after the discard ({n + 1} before it); {name} has {count}",
                            rule="cards dealt",
                            source="S2, Setup; S4",
                            deal=number,
                            player=name,
                            field=base,
                        )
                    )
                    continue
            elif count != n:
                extra = ""
                if is_knocker and count == n + 1:
                    extra = (
                        " (the discard is face down, not part of the spread; "
                        "enter it as 'cards' to let the app choose it)"
                    )
                errors.append(
                    RecordError(
                        f"{name} has {count} cards; each player holds {n}" + extra,
                        rule="cards dealt",
                        source="S2, Setup; S4",
                        deal=number,
                        player=name,
                        field=base,
                    )
                )
                continue
        hands[name] = hand
    if len(errors) > start or upcard is None:
        return None
    return ParsedDeal(number, upcard, knocker, hands)


# ---------------------------------------------------------------------------------------------
# One deal


@dataclass
class _Side:
    """One player's arrangement in a scored deal."""

    melds: tuple[int, ...]
    deadwood: int  # mask of deadwood after layoffs
    layoffs: int
    points: int  # deadwood points after layoffs
    meld_labels: tuple[tuple[str, ...], ...] | None = None
    discard: int | None = None


def _defender_side(hand: Hand, knocker_melds, gin: bool, chained: bool) -> _Side:
    if hand.given == "spread":
        lay = 0 if gin else gf.layoff_closure(hand.deadwood, knocker_melds, chained)
        dead = hand.deadwood & ~lay
        return _Side(hand.melds, dead, lay, gf.hand_points(dead), hand.meld_labels)
    if gin:
        pts, melds, dead = gf.best_arrangement(hand.mask)
        return _Side(melds, dead, 0, pts)
    pts, melds, lay, dead = gf.defender_best(hand.mask, knocker_melds, chained)
    return _Side(melds, dead, lay, pts)


@dataclass
class _Outcome:
    outcome: str
    points: dict[str, int]
    lines: dict[str, list[Line]]
    winner: str | None  # the hand's winner (next dealer, box)
    notes: list[str]


def _seat_order_after(players: tuple[str, ...], knocker: str) -> list[str]:
    k = players.index(knocker)
    return [players[(k + i) % len(players)] for i in range(1, len(players))]


def _settle(
    rules, players, knocker: str, sides: dict[str, _Side], outcome: str, multiplier: int, upcard: Card
) -> _Outcome:
    """Points and lines of one deal, given the arrangements."""
    lines: dict[str, list[Line]] = {p: [] for p in players}
    defenders = _seat_order_after(players, knocker)
    k = sides[knocker].points
    penalty = rules.scoring == "penalty"
    notes: list[str] = []
    gin_c = rules.cite("gin_bonus")
    big_c = rules.cite("big_gin_bonus")
    und_c = rules.cite("undercut_bonus")
    winner = knocker
    if outcome in ("gin", "big_gin"):
        if outcome == "big_gin":
            bonus, label, c = rules.big_gin_bonus, "big gin bonus", big_c
        else:
            bonus, label, c = rules.gin_bonus, "gin bonus", gin_c
        src = _src(rules, "gin")
        for d in defenders:
            dw = sides[d].points
            who = d if penalty else knocker
            lines[who].append(Line(f"{d}'s deadwood {dw} (no layoffs after gin)", dw, "gin", src))
            lines[who].append(Line(label + ("" if not penalty else " (penalty)"), bonus, label, c.source, c.basis))
    else:
        under = [d for d in defenders if sides[d].points <= k]
        if not under:
            src = _src(rules, "knock")
            for d in defenders:
                dw = sides[d].points
                who = d if penalty else knocker
                lines[who].append(Line(f"knock: {dw} − {k}", dw - k, "knock", src))
        else:
            outcome = "undercut"
            src = _src(rules, "undercut")
            if penalty:
                # The undercutter: least deadwood after layoffs, ties to the first after the knocker.
                best = min(sides[d].points for d in defenders)
                u = next(d for d in defenders if sides[d].points == best)
                winner = u
                if sum(1 for d in defenders if sides[d].points == best) > 1:
                    notes.append(
                        f"undercut: {u} is the undercutter, first in seat order after the knocker among "
                        f"equal deadwood (ruling)"
                    )
                for p in players:
                    if p == u:
                        continue
                    dw = sides[p].points
                    lines[p].append(Line(f"undercut: {dw} − {best}", dw - best, "undercut", src))
                    if p == knocker:
                        lines[p].append(
                            Line(
                                "undercut penalty on the knocker",
                                rules.undercut_bonus,
                                "undercut bonus",
                                und_c.source,
                                und_c.basis,
                            )
                        )
            else:
                # Each defender settles with the knocker (two players: the one defender).
                best = min(sides[d].points for d in defenders)
                winner = next(d for d in defenders if sides[d].points == best)
                if len(defenders) > 1:
                    notes.append(
                        "more than two players scoring to the winner: each defender settles with the "
                        "knocker on his own (ruling)"
                    )
                for d in defenders:
                    dw = sides[d].points
                    if dw <= k:
                        lines[d].append(Line(f"undercut: {k} − {dw}", k - dw, "undercut", src))
                        lines[d].append(
                            Line("undercut bonus", rules.undercut_bonus, "undercut bonus", und_c.source, und_c.basis)
                        )
                    else:
                        lines[knocker].append(
                            Line(
                                f"knock: {dw} − {k} ({d})" if len(defenders) > 1 else f"knock: {dw} − {k}",
                                dw - k,
                                "knock",
                                _src(rules, "knock"),
                            )
                        )
    points: dict[str, int] = {}
    mult_c = rules.cite("spade_multiplier")
    for p in players:
        base = sum(x.points for x in lines[p])
        if multiplier > 1 and base:
            lines[p].append(
                Line(
                    f"spade upcard ×{multiplier}", base * (multiplier - 1), "spade upcard", mult_c.source, mult_c.basis
                )
            )
        points[p] = sum(x.points for x in lines[p])
    return _Outcome(outcome, points, lines, winner, notes)


def _knocker_net(rules, players, knocker, out: _Outcome) -> int:
    """How good a deal's result is for the knocker (to choose among equal arrangements)."""
    others = sum(out.points[p] for p in players if p != knocker)
    if rules.scoring == "penalty":
        return others - out.points[knocker]
    return out.points[knocker] - others


def _score_deal(rules, players: tuple[str, ...], deal: ParsedDeal, errors: list):
    """(outcome, per-player PlayerDeal, winner, notes) or None with errors added."""
    number = deal.number
    upcard = deal.upcard
    limit = knock_limit(upcard)
    notes: list[str] = []
    lsrc = _src(rules, "limit")
    if limit == 0:
        notes.append(f"knock limit: gin only (ace upcard {upcard.label}) — S4, BO; S2 'Ace = 1 (gin only hand)'")
    else:
        notes.append(f"knock limit {limit} (upcard {upcard.label}: its point value, pictures 10) — {lsrc}")
    multiplier = rules.spade_multiplier if upcard.suit is Suit.SPADES else 1
    if upcard.suit is Suit.SPADES:
        c = rules.cite("spade_multiplier")
        if multiplier > 1:
            notes.append(
                f"spade upcard {upcard.label}: every point of the hand ×{multiplier}, bonuses included "
                f"— {c.source}" + (" (ruling)" if c.basis == "ruling" else "")
            )
        else:
            notes.append(
                f"spade upcard {upcard.label}: no multiplier at this table — {c.source}"
                + (" (ruling)" if c.basis == "ruling" else "")
            )
    knocker = deal.knocker
    if knocker is None:
        notes.append(
            "void hand: nobody knocked before the stock ran down to two cards; the same dealer deals again — S3"
        )
        pds = {p: PlayerDeal(0, (), deadwood_points=None) for p in players}
        return "void", pds, None, notes, multiplier
    khand = deal.hands[knocker]
    n = hand_size(len(players))
    chained = rules.layoffs == "chained"
    big_allowed = rules.big_gin_bonus > 0
    # Candidate spreads for the knocker.
    candidates: list[_Side] = []
    big = False
    if khand.given == "spread":
        if khand.big_gin:
            if khand.deadwood:
                errors.append(
                    RecordError(
                        "big gin means every card melded: this spread has deadwood",
                        rule="big gin",
                        source=rules.cite("big_gin_bonus").source,
                        deal=number,
                        player=knocker,
                        cards=labels(khand.deadwood),
                        field=f"hands.{knocker}.deadwood",
                    )
                )
                return None
            big = True
        pts = gf.hand_points(khand.deadwood)
        candidates.append(_Side(khand.melds, khand.deadwood, 0, pts, khand.meld_labels))
    else:
        count = khand.mask.bit_count()
        if khand.big_gin:
            if gf.best_deadwood(khand.mask) != 0:
                pts, melds, dead = gf.best_arrangement(khand.mask)
                errors.append(
                    RecordError(
                        f"big gin means all {n + 1} cards melded: these cards leave at least {pts} points of deadwood",
                        rule="big gin",
                        source=rules.cite("big_gin_bonus").source,
                        deal=number,
                        player=knocker,
                        cards=labels(dead),
                        field=f"hands.{knocker}.cards",
                    )
                )
                return None
            big = True
            for pts, melds, dead, _ in gf.all_best_arrangements(khand.mask)[:1]:
                candidates.append(_Side(melds, dead, 0, pts))
        elif count == n + 1:
            for pts, melds, dead, disc in gf.all_best_arrangements(khand.mask, discard=True):
                candidates.append(_Side(melds, dead, 0, pts, discard=disc))
        else:
            for pts, melds, dead, _ in gf.all_best_arrangements(khand.mask):
                candidates.append(_Side(melds, dead, 0, pts))
    kpts = candidates[0].points
    if kpts > limit:
        if limit == 0:
            why = f"the upcard {upcard.label} is an ace: only gin (no deadwood) may end the hand"
        else:
            why = f"the upcard {upcard.label} sets the knock limit at {limit}"
        what = "this spread leaves" if khand.given == "spread" else "the best arrangement of these cards leaves"
        errors.append(
            RecordError(
                f"{knocker} cannot knock: {what} {kpts} points of deadwood; {why}",
                rule="knock limit",
                source=lsrc + ("; S4, BO" if limit == 0 else ""),
                deal=number,
                player=knocker,
                cards=labels(candidates[0].deadwood),
                field=f"hands.{knocker}" + (".deadwood" if khand.given == "spread" else ".cards"),
            )
        )
        return None
    gin = kpts == 0
    outcome = "gin" if gin else "knock"
    if big:
        if big_allowed:
            outcome = "big_gin"
        else:
            c = rules.cite("big_gin_bonus")
            notes.append(f"big gin is not played at this table (big gin bonus 0 — {c.source}): scored as gin (ruling)")
    best = None
    for cand in candidates:
        sides = {knocker: cand}
        for p in players:
            if p != knocker:
                sides[p] = _defender_side(deal.hands[p], cand.melds, gin, chained)
        out = _settle(rules, players, knocker, sides, outcome, multiplier, upcard)
        net = _knocker_net(rules, players, knocker, out)
        if best is None or net > best[0]:
            best = (net, cand, sides, out)
    _, cand, sides, out = best
    if khand.given == "cards" and len(candidates) > 1:
        notes.append(
            f"{knocker}'s cards allow {len(candidates)} equally low arrangements"
            + (" and discards" if cand.discard is not None else "")
            + ": the one best for the knocker (least laid off against it) is scored (ruling)"
        )
    if cand.discard is not None:
        notes.append(f"{knocker}'s discard: {CARD_BY_INDEX[cand.discard].label}, the one leaving the least deadwood")
    if not gin:
        lay = rules.cite("layoffs")
        notes.append(
            (
                "layoffs onto the knocker's melds, a layoff may extend a run an earlier one extended"
                if chained
                else "layoffs only onto the knocker's melds as laid down, no chaining (ruling: "
                "also for a player's own layoffs)"
            )
            + f" — {lay.source}"
        )
        if chained and len(players) > 2:
            notes.append("each defender builds only on the knocker's melds and his own layoffs (ruling)")
    notes.extend(out.notes)
    pds = {}
    for p in players:
        s = sides[p]
        mlabels = s.meld_labels if s.meld_labels is not None else tuple(labels(m) for m in s.melds)
        pds[p] = PlayerDeal(
            points=out.points[p],
            lines=tuple(out.lines[p]),
            melds=tuple(mlabels),
            deadwood=labels(s.deadwood),
            layoffs=labels(s.layoffs),
            deadwood_points=s.points,
            discard=CARD_BY_INDEX[s.discard].label if s.discard is not None else None,
        )
    return out.outcome, pds, out.winner, notes, multiplier


# ---------------------------------------------------------------------------------------------
# The game


def _reached(rules, total: int) -> bool:
    return total > rules.target if rules.target_strict else total >= rules.target


def score_game(rules, players, deals, first_dealer) -> GameResult:
    """Validate and score every deal of an Oklahoma Gin game. Raises RecordInvalid with every error."""
    players = tuple(players)
    errors: list[RecordError] = []
    if not isinstance(deals, list):
        raise RecordInvalid([RecordError("'deals' must be a list", rule="format", field="deals")])
    totals = dict.fromkeys(players, 0)
    boxes = dict.fromkeys(players, 0)
    results: list[DealResult] = []
    dealer = first_dealer
    finished = False
    winner: str | None = None
    penalty = rules.scoring == "penalty"
    scoring_ok = True
    game_src = _src(rules, "game")
    for number, raw in enumerate(deals, start=1):
        parsed = _parse_deal(rules, players, raw, number, errors)
        if parsed is None:
            scoring_ok = False
            continue
        if finished:
            errors.append(
                RecordError(
                    f"deal {number} comes after the game ended ({winner} won on deal {len(results)})",
                    rule="game end",
                    source=game_src,
                    deal=number,
                )
            )
            scoring_ok = False
            continue
        if not scoring_ok:
            # Still check this deal's spread against its knock limit.
            _score_deal(rules, players, parsed, errors)
            continue
        scored = _score_deal(rules, players, parsed, errors)
        if scored is None:
            scoring_ok = False
            continue
        outcome, pds, hand_winner, notes, multiplier = scored
        before = dict(totals)
        for p in players:
            totals[p] += pds[p].points
        if hand_winner is not None:
            boxes[hand_winner] += 1
        next_dealer = dealer if outcome == "void" else hand_winner
        # Game end.
        reached = [p for p in players if _reached(rules, totals[p])]
        if reached:
            if penalty:
                low = min(totals.values())
                leaders = [p for p in players if totals[p] == low]
            else:
                high = max(totals[p] for p in reached)
                leaders = [p for p in reached if totals[p] == high]
            if len(leaders) == 1:
                finished = True
                winner = leaders[0]
            else:
                notes = list(notes) + [f"{' and '.join(leaders)} tie for the win: the game goes on (ruling)"]
        results.append(
            DealResult(
                number=number,
                outcome=outcome,
                multiplier=multiplier,
                players=pds,
                totals_before=before,
                totals=dict(totals),
                side=dict.fromkeys(players, 0),
                dealer=dealer,
                next_dealer=next_dealer,
                notes=tuple(notes),
                actor=parsed.knocker,
                winner=hand_winner,
            )
        )
        dealer = next_dealer
    if errors:
        raise RecordInvalid(errors)
    final = None
    final_lines = None
    game_notes: list[str] = []
    if finished:
        final, final_lines, game_notes = _final(rules, players, totals, boxes, winner)
    return GameResult(
        game=GAME,
        profile=rules.profile,
        players=players,
        deals=tuple(results),
        totals=dict(totals),
        side=dict.fromkeys(players, 0),
        state="finished" if finished else "in_progress",
        winner=winner,
        final=final,
        final_lines=final_lines,
        target=rules.target,
        notes=tuple(game_notes),
    )


def _final(rules, players, totals, boxes, winner):
    lines: dict[str, list[Line]] = {p: [] for p in players}
    notes: list[str] = []
    src = _src(rules, "game")
    for p in players:
        lines[p].append(
            Line(
                "game total" + (" (penalty points)" if rules.scoring == "penalty" else ""), totals[p], "game total", src
            )
        )
    if rules.scoring == "penalty":
        if rules.game_bonus or rules.box_bonus or rules.shutout:
            notes.append("game bonus, box bonus and shutout are not used with penalty scoring (ruling)")
        notes.append(
            f"the game ends when someone reaches {rules.target} penalty points; the lowest total wins "
            f"({rules.cite('target').source})"
        )
    else:
        if rules.game_bonus:
            c = rules.cite("game_bonus")
            lines[winner].append(Line("game bonus", rules.game_bonus, "game bonus", c.source, c.basis))
        if rules.box_bonus:
            c = rules.cite("box_bonus")
            for p in players:
                if boxes[p]:
                    lines[p].append(
                        Line(
                            f"boxes: {boxes[p]} hand{'s' if boxes[p] != 1 else ''} won × {rules.box_bonus}",
                            boxes[p] * rules.box_bonus,
                            "box bonus",
                            c.source,
                            c.basis,
                        )
                    )
        if rules.shutout and all(totals[p] == 0 for p in players if p != winner):
            c = rules.cite("shutout")
            sub = sum(x.points for x in lines[winner])
            lines[winner].append(
                Line("shutout: the winner's whole tally doubled (ruling)", sub, "shutout", c.source, c.basis)
            )
    final = {p: sum(x.points for x in lines[p]) for p in players}
    return final, {p: tuple(v) for p, v in lines.items()}, notes
