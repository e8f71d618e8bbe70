"""Oklahoma Gin: validate the deals of a game record and score them (RULES.md section 2).

One deal at a time: ``begin`` gives where a game stands before its first deal, ``play`` checks
and scores one deal from a ``Standing`` (raising errors.RecordInvalid with every error of that
deal), ``conclude`` gives the game's result. ``score_game`` folds ``play`` over a whole record
and raises RecordInvalid naming every error of every deal. The arrangement searches (least
deadwood, the defender's layoffs) are in ``gin_search``.

A deal goes through three steps: ``_parse_deal`` checks the entry and turns cards into masks,
``_score_deal`` finds the arrangements and settles the hand, ``play`` adds it to the standing.

Hollywood (the ``hollywood`` house option, two players): the hand's points go in up to three
columns, each settled as a game of its own (``_enter_in_columns``, ``_column_results``). Rulings:
a deal's points for a player are what it adds to his columns together (a hand entered in two
columns adds its points twice, with a line for each); the match's running totals and final
tallies are the sums of the three columns'; the match goes to the player with the larger sum of
finals once all three are closed (equal sums: to the player who won more columns).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from . import gin_search as search
from .caches import cached
from .cards import CARD_BY_INDEX, Card, CardError, Suit, knock_limit, parse_card
from .errors import RecordError, RecordInvalid, Report
from .messages import N_, Msg, msg, nmsg, source_words
from .players import first_dealer_errors
from .profiles import Citation, GinRules
from .results import (
    ColumnResult,
    ColumnStanding,
    DealResult,
    GameResult,
    Line,
    PlayerDeal,
    Standing,
    fold_deals,
)

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
MELD_RULE = N_("meld")
MELD_SOURCE = "S2, Gameplay 3; S4"
SETUP_SOURCE = "S2, Setup; S4"  # the pack (52 cards, no Joker, one of each) and the cards dealt
HOLLYWOOD_SOURCE = "AR, HW"
COLUMNS = 3  # Hollywood: three games at once


def outcome_source(rules: GinRules, what: str) -> str:
    """The source of one of the profile's outcome rules ("knock", "undercut", "gin", "limit", ...)."""
    return _OUTCOME_SOURCE.get(rules.profile, _OUTCOME_SOURCE["standard"])[what]


def _cited(cited: Citation) -> Msg:
    """A citation as a note prints it: "S2, Scoring 4", "ruling" (never "ruling (ruling)"), "house option";
    its words in the reader's language (``source_words``)."""
    if cited.basis == "ruling" and cited.source not in ("ruling", "house option"):
        return msg("{source} (ruling)", source=source_words(cited.source))
    return source_words(cited.source)


def _source(cited: Citation) -> Msg:
    """A citation's source as a note's parameter, its words in the reader's language ("S2, Scoring 4",
    "ruling", "house option")."""
    return source_words(cited.source)


def _points(n: int) -> Msg:
    return nmsg("{n} point", "{n} points", n)


LABELS: tuple[str, ...] = tuple(card.label for card in CARD_BY_INDEX)  # printed cards by bit index


def labels(mask: int) -> tuple[str, ...]:
    """Printed cards of a mask, in suit-major rank order."""
    out: tuple[str, ...] = ()
    for suit, part in enumerate(search.suits_of(mask)):
        if part:
            out += _suit_labels(suit, part)
    return out


@cached(maxsize=None)
def _suit_labels(suit: int, part: int) -> tuple[str, ...]:
    """Printed cards of suit mask ``part`` in ``suit`` (at most 4 x 8,192 of them)."""
    return tuple(LABELS[i + search.SUIT_SHIFTS[suit]] for i in search.bits_of(part))


def hand_size(n_players: int) -> int:
    """10 cards each for two players, 7 for three or four (S2, S3, S4)."""
    return 10 if n_players == 2 else 7


# ---------------------------------------------------------------------------------------------
# Melds


def meld_problem(m: int) -> Msg | None:
    """None for a legal meld, else why it is not one."""
    if search.meld_kind(m):
        return None
    n = m.bit_count()
    if n < 3:
        return msg("a meld needs 3 or more cards: a set of 3 or 4 of one rank, or a run of 3 or more of one suit")
    ranks = 0
    suits = set()
    for i in search.bits_of(m):
        ranks |= 1 << (i % 13)
        suits.add(i // 13)
    if ranks.bit_count() == 1:
        return msg("a set holds 3 or 4 cards of one rank")
    if len(suits) == 1:
        (s,) = suits
        part = m >> search.SUIT_SHIFTS[s] & search.BB_SUIT
        if part & 1 and part & (1 << 12):
            return msg("the ace is low only in Oklahoma Gin: A-2-3 is a run, Q-K-A and K-A-2 are not")
        return msg("a run's cards must follow one another in rank with no gap")
    return msg("not a meld: a set is 3 or 4 cards of one rank, a run 3 or more cards in order of one suit")


def check_meld(cards: Sequence[Card]) -> tuple[str | None, RecordError | None]:
    """A live check of one meld as entered: ("set" or "run", None) when legal, else (None, what is
    wrong with it, the rule it breaks and its source)."""
    if len(set(cards)) != len(cards):
        said = msg("a card is named twice in this meld: the pack has one of each")
        return None, RecordError(said, rule=N_("cards"), source=SETUP_SOURCE)
    if any(c.is_joker for c in cards):
        return None, RecordError(msg("Oklahoma Gin is played without the Joker"), rule=N_("cards"), source=SETUP_SOURCE)
    mask = search.mask_of(c.index for c in cards)
    problem = meld_problem(mask)
    if problem:
        return None, RecordError(problem, rule=MELD_RULE, source=MELD_SOURCE)
    return search.meld_kind(mask), None


# ---------------------------------------------------------------------------------------------
# Step 1: the deal as entered, checked, cards turned into masks


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


def _parse_cards(raw: Any, player: str, where: str, seen: dict[int, str], report: Report) -> list[int] | None:
    """The cards of a list as entered, as bit indices; a bad, Joker or repeated card is an error
    and left out. None when ``raw`` is not a list."""
    if not isinstance(raw, list):
        report.add(
            msg("'{where}' must be a list of cards", where=where),
            N_("format"),
            source="RECORD.md",
            player=player,
            field=where,
        )
        return None
    out = []
    for text in raw:
        try:
            index = _read_card(text)
        except CardError as exc:
            report.add(exc.message, N_("cards"), source="RECORD.md", player=player, cards=(exc.token,), field=where)
            continue
        if index == _JOKER:
            report.add(
                msg("the Joker is not in the Oklahoma Gin pack (one 52-card pack, no Joker)"),
                N_("pack"),
                source=SETUP_SOURCE,
                player=player,
                cards=("JK",),
                field=where,
            )
            continue
        holder = seen.get(index)
        if holder is not None:
            if holder == player:
                twice = msg(
                    "{card} is entered twice in {player}'s hand: the pack holds one of each card",
                    card=LABELS[index],
                    player=player,
                )
            else:
                twice = msg(
                    "{card} is entered twice in this deal ({holder} and {player}): the pack holds one of each card",
                    card=LABELS[index],
                    holder=holder,
                    player=player,
                )
            report.add(
                twice,
                N_("pack"),
                source=SETUP_SOURCE,
                player=player,
                cards=(LABELS[index],),
                field=where,
                whole_pack=True,
            )
            continue
        seen[index] = player or "?"
        out.append(index)
    return out


_JOKER = -1  # what _read_card gives for the Joker, which has no bit


def _index_of(card: Card) -> int:
    return _JOKER if card.is_joker else card.index


@cached(maxsize=1024)
def _index_of_text(text: str) -> int:
    return _index_of(parse_card(text))


def _read_card(text: object) -> int:
    """The bit index of a card given as text (``_JOKER`` for the Joker) through ``cards.parse_card``,
    its answer for a text kept (a record names the same 52 cards again and again); CardError for
    anything that is not a card."""
    if isinstance(text, str):
        return _index_of_text(text)
    return _index_of(parse_card(text))  # parse_card refuses anything but text, saying why


def _mask(indices: list[int]) -> int:
    return search.mask_of(indices)


def _check_deal_keys(raw: Mapping[Any, Any], report: Report) -> None:
    for key in raw:
        if key not in DEAL_KEYS:
            report.add(
                msg(
                    "unknown key '{key}' in an Oklahoma Gin deal: a deal has {keys}",
                    key=str(key),
                    keys=", ".join(DEAL_KEYS),
                ),
                N_("format"),
                source="RECORD.md",
                field=str(key),
            )
    for key in ("upcard", "knocker"):
        if key not in raw:
            report.add(
                msg("the deal has no 'knocker' (null when the hand was void)")
                if key == "knocker"
                else msg("the deal has no '{key}'", key=key),
                N_("format"),
                source="RECORD.md",
                field=key,
            )


def _parse_upcard(rules: GinRules, raw: Mapping[Any, Any], report: Report) -> Card | None:
    if "upcard" not in raw:
        return None
    text = raw["upcard"]
    if text is None:
        report.add(
            msg("the deal has no upcard: enter the first upcard"),
            N_("upcard"),
            source=outcome_source(rules, "limit"),
            field="upcard",
        )
        return None
    try:
        index = _read_card(text)
    except CardError as exc:
        report.add(exc.message, N_("cards"), source="RECORD.md", cards=(exc.token,), field="upcard")
        return None
    if index == _JOKER:
        report.add(
            msg("the Joker is not in the Oklahoma Gin pack"),
            N_("pack"),
            source=SETUP_SOURCE,
            cards=("JK",),
            field="upcard",
        )
        return None
    return CARD_BY_INDEX[index]


def _parse_knocker(rules: GinRules, players: tuple[str, ...], raw: Mapping[Any, Any], report: Report) -> str | None:
    knocker = raw.get("knocker")
    if knocker is not None and knocker not in players:
        report.add(
            msg("the knocker {knocker} is not one of the players", knocker=repr(knocker)),
            N_("knocker"),
            source="RECORD.md",
            field="knocker",
        )
        knocker = None
    if "knocker" in raw and raw.get("knocker") is None and rules.stock_out != "void":
        report.add(
            msg(
                "nobody knocked: at this table a stock down to two cards is reshuffled and play goes on, "
                "so every deal ends with a knock or gin — say who knocked"
            ),
            N_("stock out"),
            source=rules.cite("stock_out").source,
            field="knocker",
        )
    return knocker


def _parse_big_gin(rules: GinRules, name: str, entry: Mapping[Any, Any], is_knocker: bool, report: Report) -> bool:
    big = entry.get("big_gin", False)
    if not isinstance(big, bool):
        report.add(
            msg("'big_gin' is true or false"),
            N_("format"),
            source="RECORD.md",
            player=name,
            field=f"hands.{name}.big_gin",
        )
        big = False
    if big and not is_knocker:
        report.add(
            msg("only the knocker can have big gin"),
            N_("big gin"),
            source=rules.cite("big_gin_bonus").source,
            player=name,
            field=f"hands.{name}.big_gin",
        )
        big = False
    return big


def _parse_meld(name: str, raw: Any, where: str, seen: dict[int, str], report: Report) -> list[int] | None:
    """The cards of one meld as entered (an empty list: none entered); None, with the errors
    reported, when the meld is not a list of good cards or is no legal meld."""
    cards = _parse_cards(raw, name, where, seen, report)
    if cards is None or len(cards) != len(raw):
        return None
    problem = meld_problem(_mask(cards)) if cards else None
    if problem:
        report.add(problem, MELD_RULE, source=MELD_SOURCE, player=name, cards=[LABELS[i] for i in cards], field=where)
        return None
    return cards


def _parse_spread(
    name: str, entry: Mapping[Any, Any], big: bool, seen: dict[int, str], report: Report
) -> tuple[Hand, int] | None:
    """A hand given as melds and deadwood, and how many cards were entered."""
    base = f"hands.{name}"
    melds_raw = entry.get("melds", [])
    if not isinstance(melds_raw, list):
        report.add(
            msg("'melds' must be a list of melds (each a list of cards)"),
            N_("format"),
            source="RECORD.md",
            player=name,
            field=f"{base}.melds",
        )
        return None
    melds: list[int] = []
    meld_labels: list[tuple[str, ...]] = []
    count = 0
    ok = True
    for k, meld_raw in enumerate(melds_raw):
        cards = _parse_meld(name, meld_raw, f"{base}.melds[{k}]", seen, report)
        if cards is None:
            ok = False
            continue
        count += len(meld_raw)
        if cards:
            melds.append(_mask(cards))
            meld_labels.append(tuple(LABELS[i] for i in cards))
    dead_cards = _parse_cards(entry.get("deadwood", []), name, f"{base}.deadwood", seen, report)
    if dead_cards is None:
        return None
    count += len(entry.get("deadwood", []))
    if not ok:
        return None
    dead = _mask(dead_cards)
    hand = Hand(
        player=name,
        given="spread",
        mask=sum(melds) | dead,
        melds=tuple(melds),
        meld_labels=tuple(meld_labels),
        deadwood=dead,
        big_gin=big,
    )
    return hand, count


def _parse_hand(
    rules: GinRules, name: str, entry: Any, is_knocker: bool, seen: dict[int, str], report: Report
) -> tuple[Hand, int] | None:
    """One player's hand and how many cards were entered; None when it has an error."""
    base = f"hands.{name}"
    if not isinstance(entry, Mapping):
        report.add(
            msg("a hand is an object with 'cards', or 'melds' and 'deadwood'"),
            N_("format"),
            source="RECORD.md",
            player=name,
            field=base,
        )
        return None
    for k in entry:
        if k not in HAND_KEYS:
            report.add(
                msg(
                    "unknown key '{key}' in a hand: a hand has 'cards', or 'melds' and "
                    "'deadwood' (and 'big_gin' for the knocker)",
                    key=str(k),
                ),
                N_("format"),
                source="RECORD.md",
                player=name,
                field=f"{base}.{k}",
            )
    big = _parse_big_gin(rules, name, entry, is_knocker, report)
    has_cards = "cards" in entry
    if has_cards and ("melds" in entry or "deadwood" in entry):
        report.add(
            msg("give either the spread ('melds' and 'deadwood') or all the 'cards', not both"),
            N_("format"),
            source="RECORD.md",
            player=name,
            field=base,
        )
        return None
    if has_cards:
        cards = _parse_cards(entry["cards"], name, f"{base}.cards", seen, report)
        if cards is None:
            return None
        hand = Hand(player=name, given="cards", mask=_mask(cards), big_gin=big)
        return hand, len(entry["cards"])  # a bad card still counts
    return _parse_spread(name, entry, big, seen, report)


def _count_ok(rules: GinRules, hand: Hand, count: int, size: int, is_knocker: bool, report: Report) -> bool:
    """Does the hand hold as many cards as the deal gives (the knocker: one more before his discard)?"""
    name = hand.player
    rule, source = N_("cards dealt"), SETUP_SOURCE
    if is_knocker and hand.big_gin:
        if count == size + 1:
            return True
        wrong = msg(
            "big gin is all {before} cards melded (the hand before the discard); {name} has {count}",
            before=size + 1,
            name=name,
            count=count,
        )
        rule, source = N_("big gin"), rules.cite("big_gin_bonus").source
    elif is_knocker and hand.given == "cards":
        if count in (size, size + 1):
            return True
        wrong = msg(
            "the knocker holds {size} cards after the discard ({before} before it); {name} has {count}",
            size=size,
            before=size + 1,
            name=name,
            count=count,
        )
    elif count == size:
        return True
    elif is_knocker and count == size + 1:
        wrong = msg(
            "{name} has {count} cards; each player holds {size} (the discard is face down, not part of the "
            "spread; enter it as 'cards' to let the app choose it)",
            name=name,
            count=count,
            size=size,
        )
    else:
        wrong = msg("{name} has {count} cards; each player holds {size}", name=name, count=count, size=size)
    report.add(wrong, rule, source=source, player=name, field=f"hands.{name}")
    return False


def _parse_hands(
    rules: GinRules,
    players: tuple[str, ...],
    raw: Mapping[Any, Any],
    knocker: str | None,
    void: bool,
    report: Report,
) -> dict[str, Hand]:
    hands_raw = raw.get("hands")
    if hands_raw is None:
        if not void:
            report.add(msg("the deal has no 'hands'"), N_("format"), source="RECORD.md", field="hands")
        hands_raw = {}
    if not isinstance(hands_raw, Mapping):
        report.add(
            msg("'hands' must be an object with one entry per player"), N_("format"), source="RECORD.md", field="hands"
        )
        hands_raw = {}
    for name in hands_raw:
        if name not in players:
            report.add(
                msg("'hands' names {name}, who is not one of the players", name=repr(name)),
                N_("format"),
                source="RECORD.md",
                player=str(name),
                field=f"hands.{name}",
            )
    size = hand_size(len(players))
    seen: dict[int, str] = {}
    hands: dict[str, Hand] = {}
    for name in players:
        entry = hands_raw.get(name)
        if entry is None:
            if not void:
                report.add(
                    msg("no hand for {name}: every player's cards are needed", name=name),
                    N_("format"),
                    source="RECORD.md",
                    player=name,
                    field=f"hands.{name}",
                )
            continue
        parsed = _parse_hand(rules, name, entry, name == knocker, seen, report)
        if parsed is None:
            continue
        hand, count = parsed
        if void and count == 0:
            continue
        if not void and not _count_ok(rules, hand, count, size, name == knocker, report):
            continue
        hands[name] = hand
    return hands


def _parse_deal(
    rules: GinRules, players: tuple[str, ...], raw: Any, number: int, errors: list[RecordError]
) -> ParsedDeal | None:
    """The deal as entered, checked; None (with the errors added) when anything is wrong."""
    report = Report(number, errors)
    start = len(errors)
    if not isinstance(raw, Mapping):
        report.add(msg("a deal is an object with 'upcard', 'knocker' and 'hands'"), N_("format"), source="RECORD.md")
        return None
    _check_deal_keys(raw, report)
    upcard = _parse_upcard(rules, raw, report)
    knocker = _parse_knocker(rules, players, raw, report)
    void = "knocker" in raw and raw.get("knocker") is None
    hands = _parse_hands(rules, players, raw, knocker, void, report)
    if len(errors) > start or upcard is None:
        return None
    return ParsedDeal(number=number, upcard=upcard, knocker=knocker, hands=hands)


# ---------------------------------------------------------------------------------------------
# Step 2: one deal's arrangements and settlement


@dataclass
class _Arrangement:
    """One player's arrangement in a scored deal."""

    melds: tuple[int, ...]
    deadwood: int  # mask of deadwood after layoffs
    points: int  # deadwood points after layoffs
    layoffs: int = 0
    meld_labels: tuple[tuple[str, ...], ...] | None = None
    discard: int | None = None


@dataclass
class _Settlement:
    """The points and lines of one deal, given the arrangements."""

    outcome: str
    points: dict[str, int]
    lines: dict[str, list[Line]]
    winner: str | None  # the hand's winner (next dealer, box)
    notes: list[Msg]


@dataclass
class _ScoredDeal:
    outcome: str
    players: dict[str, PlayerDeal]
    winner: str | None
    notes: list[Msg]
    multiplier: int


def _defender_arrangements(
    rules: GinRules, players: tuple[str, ...], deal: ParsedDeal, knocker: str, knocker_melds: tuple[int, ...], gin: bool
) -> dict[str, _Arrangement]:
    """Every defender's arrangement against the knocker's melds: his own melds and, unless the
    knocker went gin, his layoffs; with three or four players the defenders lay off in seat order
    after the knocker (``gin_search.defenders_in_turn``)."""
    defenders = _seat_order_after(players, knocker)
    hands = [deal.hands[p] for p in defenders]
    if gin:
        out = {}
        for hand in hands:
            if hand.given == "spread":
                out[hand.player] = _Arrangement(
                    melds=hand.melds,
                    deadwood=hand.deadwood,
                    points=search.hand_points(hand.deadwood),
                    meld_labels=hand.meld_labels,
                )
            else:
                best = search.best_arrangement(hand.mask)
                out[hand.player] = _Arrangement(melds=best.melds, deadwood=best.deadwood, points=best.points)
        return out
    given: list[int | search.Spread] = [
        search.Spread(melds=h.melds, deadwood=h.deadwood) if h.given == "spread" else h.mask for h in hands
    ]
    plays = search.defenders_in_turn(given, knocker_melds, rules.layoffs == "chained")
    return {
        hand.player: _Arrangement(
            melds=play.melds,
            deadwood=play.deadwood,
            layoffs=play.layoffs,
            points=play.points,
            meld_labels=hand.meld_labels if hand.given == "spread" else None,
        )
        for hand, play in zip(hands, plays, strict=True)
    }


def _seat_order_after(players: tuple[str, ...], knocker: str) -> list[str]:
    k = players.index(knocker)
    return [players[(k + i) % len(players)] for i in range(1, len(players))]


# The wording of each score line and note of a settlement.


def _gin_deadwood_line(defender: str, deadwood: int, source: str) -> Line:
    return Line(
        label=msg("{defender}'s deadwood {deadwood} (no layoffs after gin)", defender=defender, deadwood=deadwood),
        points=deadwood,
        rule=N_("gin"),
        source=source,
    )


def _gin_bonus(rules: GinRules, big: bool) -> tuple[int, str, Citation]:
    """The gin (or big gin) bonus, its label and its citation."""
    if big:
        return rules.big_gin_bonus, N_("big gin bonus"), rules.cite("big_gin_bonus")
    return rules.gin_bonus, N_("gin bonus"), rules.cite("gin_bonus")


# The gin bonus lines' labels, by the bonus's rule name and whether it is a penalty.
_GIN_BONUS_LABELS: dict[tuple[str, bool], Msg] = {
    ("gin bonus", False): msg("gin bonus"),
    ("gin bonus", True): msg("gin bonus (penalty)"),
    ("big gin bonus", False): msg("big gin bonus"),
    ("big gin bonus", True): msg("big gin bonus (penalty)"),
}


def _gin_bonus_line(label: str, bonus: int, penalty: bool, cited: Citation) -> Line:
    """The gin or big gin bonus (``label``: "gin bonus" or "big gin bonus")."""
    return Line(
        label=_GIN_BONUS_LABELS[label, penalty],
        points=bonus,
        rule=label,
        source=cited.source,
        basis=cited.basis,
    )


def _knock_line(deadwood: int, knock: int, source: str) -> Line:
    """A knock won: the defender's deadwood less the knocker's."""
    label = msg("knock: {deadwood} − {knock}", deadwood=deadwood, knock=knock)
    return Line(label=label, points=deadwood - knock, rule=N_("knock"), source=source)


def _undercut_line(deadwood: int, least: int, source: str) -> Line:
    """An undercut: ``deadwood`` less the ``least`` deadwood it is settled against."""
    return Line(
        label=msg("undercut: {deadwood} − {least}", deadwood=deadwood, least=least),
        points=deadwood - least,
        rule=N_("undercut"),
        source=source,
    )


def _undercut_penalty_line(bonus: int, cited: Citation) -> Line:
    return Line(
        label=msg("undercut penalty on the knocker"),
        points=bonus,
        rule=N_("undercut bonus"),
        source=cited.source,
        basis=cited.basis,
    )


def _undercut_bonus_line(bonus: int, cited: Citation) -> Line:
    return Line(
        label=msg("undercut bonus"), points=bonus, rule=N_("undercut bonus"), source=cited.source, basis=cited.basis
    )


def _spade_line(base: int, multiplier: int, cited: Citation) -> Line:
    """The spade upcard's multiplier on a player's ``base`` points: what it adds."""
    return Line(
        label=msg("spade upcard ×{multiplier}", multiplier=multiplier),
        points=base * (multiplier - 1),
        rule=N_("spade upcard"),
        source=cited.source,
        basis=cited.basis,
    )


def _equal_arrangements_note(knocker: str, count: int, discards: bool) -> Msg:
    if discards:
        return msg(
            "{knocker}'s cards allow {count} equally low arrangements and discards: the one best for the knocker "
            "(least laid off against it) is scored (ruling)",
            knocker=knocker,
            count=count,
        )
    return msg(
        "{knocker}'s cards allow {count} equally low arrangements: the one best for the knocker (least laid off "
        "against it) is scored (ruling)",
        knocker=knocker,
        count=count,
    )


def _discard_note(knocker: str, discard: int) -> Msg:
    """The knocker's discard (a bit index) chosen from cards entered before it."""
    return msg("{knocker}'s discard: {card}, the one leaving the least deadwood", knocker=knocker, card=LABELS[discard])


def _settle_gin(
    rules: GinRules,
    knocker: str,
    defenders: list[str],
    sides: Mapping[str, _Arrangement],
    outcome: str,
    lines: dict[str, list[Line]],
) -> None:
    """Gin: the gin (or big gin) bonus and each defender's whole deadwood, no layoffs."""
    bonus, label, cited = _gin_bonus(rules, outcome == "big_gin")
    source = outcome_source(rules, "gin")
    for d in defenders:
        deadwood = sides[d].points
        who = d if rules.penalty else knocker
        lines[who].append(_gin_deadwood_line(d, deadwood, source))
        lines[who].append(_gin_bonus_line(label, bonus, rules.penalty, cited))


def _settle_knock(
    rules: GinRules, knocker: str, defenders: list[str], sides: Mapping[str, _Arrangement], lines: dict[str, list[Line]]
) -> None:
    """A knock won: the deadwood difference, to the knocker (penalty: to each defender)."""
    knock = sides[knocker].points
    source = outcome_source(rules, "knock")
    for d in defenders:
        deadwood = sides[d].points
        who = d if rules.penalty else knocker
        lines[who].append(_knock_line(deadwood, knock, source))


def _settle_undercut_penalty(
    rules: GinRules,
    players: tuple[str, ...],
    knocker: str,
    defenders: list[str],
    sides: Mapping[str, _Arrangement],
    lines: dict[str, list[Line]],
    notes: list[Msg],
) -> str:
    """Penalty scoring: each player but the undercutter takes his deadwood minus the undercutter's,
    the knocker the undercut penalty on top. Returns the undercutter."""
    source = outcome_source(rules, "undercut")
    cited = rules.cite("undercut_bonus")
    # The undercutter: least deadwood after layoffs, ties to the first after the knocker.
    best = min(sides[d].points for d in defenders)
    undercutter = next(d for d in defenders if sides[d].points == best)
    if sum(1 for d in defenders if sides[d].points == best) > 1:
        notes.append(
            msg(
                "undercut: {undercutter} is the undercutter, first in seat order after the knocker among "
                "equal deadwood (ruling)",
                undercutter=undercutter,
            )
        )
    for p in players:
        if p == undercutter:
            continue
        deadwood = sides[p].points
        lines[p].append(_undercut_line(deadwood, best, source))
        if p == knocker:
            lines[p].append(_undercut_penalty_line(rules.undercut_bonus, cited))
    return undercutter


def _settle_undercut(
    rules: GinRules, knocker: str, defender: str, sides: Mapping[str, _Arrangement], lines: dict[str, list[Line]]
) -> str:
    """Points to the hand's winner (two players, ``setup_errors``): the defender scores the difference
    and the undercut bonus. Returns the hand's winner, the defender."""
    knock, deadwood = sides[knocker].points, sides[defender].points
    lines[defender].append(_undercut_line(knock, deadwood, outcome_source(rules, "undercut")))
    lines[defender].append(_undercut_bonus_line(rules.undercut_bonus, rules.cite("undercut_bonus")))
    return defender


def _apply_multiplier(
    rules: GinRules, players: tuple[str, ...], multiplier: int, lines: dict[str, list[Line]]
) -> dict[str, int]:
    """The spade multiplier's line for every player who scored, and each player's points."""
    points: dict[str, int] = {}
    for p in players:
        own = lines[p]
        if not own:
            points[p] = 0
            continue
        base = sum([x.points for x in own])
        if multiplier > 1 and base:
            own.append(_spade_line(base, multiplier, rules.cite("spade_multiplier")))
            base = sum([x.points for x in own])
        points[p] = base
    return points


def _settle(
    rules: GinRules,
    players: tuple[str, ...],
    knocker: str,
    sides: Mapping[str, _Arrangement],
    outcome: str,
    multiplier: int,
) -> _Settlement:
    """Points and lines of one deal, given the arrangements: gin, knock or undercut."""
    lines: dict[str, list[Line]] = {p: [] for p in players}
    defenders = _seat_order_after(players, knocker)
    notes: list[Msg] = []
    winner = knocker
    if outcome in ("gin", "big_gin"):
        _settle_gin(rules, knocker, defenders, sides, outcome, lines)
    elif not any(sides[d].points <= sides[knocker].points for d in defenders):
        _settle_knock(rules, knocker, defenders, sides, lines)
    else:
        outcome = "undercut"
        if rules.penalty:
            winner = _settle_undercut_penalty(rules, players, knocker, defenders, sides, lines, notes)
        else:
            [defender] = defenders
            winner = _settle_undercut(rules, knocker, defender, sides, lines)
    points = _apply_multiplier(rules, players, multiplier, lines)
    return _Settlement(outcome=outcome, points=points, lines=lines, winner=winner, notes=notes)


def _knocker_net(rules: GinRules, players: tuple[str, ...], knocker: str, settled: _Settlement) -> int:
    """How good a deal's result is for the knocker (to choose among equal arrangements)."""
    others = sum(settled.points[p] for p in players if p != knocker)
    if rules.penalty:
        return others - settled.points[knocker]
    return settled.points[knocker] - others


def _upcard_notes(rules: GinRules, upcard: Card, limit: int, multiplier: int) -> list[Msg]:
    """The knock limit and the spade multiplier the upcard sets."""
    notes: list[Msg] = []
    if limit == 0:
        notes.append(
            msg(
                "knock limit: gin only (ace upcard {upcard}) — S4, BO; S2 'Ace = 1 (gin only hand)'",
                upcard=upcard.label,
            )
        )
    else:
        notes.append(
            msg(
                "knock limit {limit} (upcard {upcard}: its point value, pictures 10) — {source}",
                limit=limit,
                upcard=upcard.label,
                source=source_words(outcome_source(rules, "limit")),
            )
        )
    if upcard.suit is Suit.SPADES:
        cited = rules.cite("spade_multiplier")
        if multiplier > 1:
            notes.append(
                msg(
                    "spade upcard {upcard}: every point of the hand ×{multiplier}, bonuses included — {source}",
                    upcard=upcard.label,
                    multiplier=multiplier,
                    source=_cited(cited),
                )
            )
        else:
            notes.append(
                msg(
                    "spade upcard {upcard}: no multiplier at this table — {source}",
                    upcard=upcard.label,
                    source=_cited(cited),
                )
            )
    return notes


def _knocker_candidates(
    rules: GinRules, deal: ParsedDeal, knocker: str, size: int, report: Report
) -> tuple[list[_Arrangement], bool] | None:
    """The knocker's arrangements to choose from (his spread, or every least-deadwood arrangement
    of his cards) and whether it is big gin; None when a big gin is not one."""
    hand = deal.hands[knocker]
    if hand.given == "spread":
        if hand.big_gin and hand.deadwood:
            report.add(
                msg("big gin means every card melded: this spread has deadwood"),
                N_("big gin"),
                source=rules.cite("big_gin_bonus").source,
                player=knocker,
                cards=labels(hand.deadwood),
                field=f"hands.{knocker}.deadwood",
            )
            return None
        points = search.hand_points(hand.deadwood)
        spread = _Arrangement(melds=hand.melds, deadwood=hand.deadwood, points=points, meld_labels=hand.meld_labels)
        return [spread], hand.big_gin
    if hand.big_gin:
        if search.best_deadwood(hand.mask) != 0:
            best = search.best_arrangement(hand.mask)
            points, dead = best.points, best.deadwood
            report.add(
                msg(
                    "big gin means all {before} cards melded: these cards leave at least {points} of deadwood",
                    before=size + 1,
                    points=_points(points),
                ),
                N_("big gin"),
                source=rules.cite("big_gin_bonus").source,
                player=knocker,
                cards=labels(dead),
                field=f"hands.{knocker}.cards",
            )
            return None
        first = search.all_best_arrangements(hand.mask)[0]
        return [_Arrangement(melds=first.melds, deadwood=first.deadwood, points=first.points)], True
    before_discard = hand.mask.bit_count() == size + 1
    return [
        _Arrangement(melds=found.melds, deadwood=found.deadwood, points=found.points, discard=found.discard)
        for found in search.all_best_arrangements(hand.mask, discard=before_discard)
    ], False


def _within_limit(
    rules: GinRules, deal: ParsedDeal, knocker: str, arrangement: _Arrangement, limit: int, report: Report
) -> bool:
    """May the knocker knock: is his deadwood at or below the knock limit?"""
    points = arrangement.points
    if points <= limit:
        return True
    upcard = deal.upcard
    if limit == 0:
        why = msg("the upcard {upcard} is an ace: only gin (no deadwood) may end the hand", upcard=upcard.label)
    else:
        why = msg("the upcard {upcard} sets the knock limit at {limit}", upcard=upcard.label, limit=limit)
    spread = deal.hands[knocker].given == "spread"
    if spread:
        cannot = msg(
            "{knocker} cannot knock: this spread leaves {points} of deadwood; {why}",
            knocker=knocker,
            points=_points(points),
            why=why,
        )
    else:
        cannot = msg(
            "{knocker} cannot knock: the best arrangement of these cards leaves {points} of deadwood; {why}",
            knocker=knocker,
            points=_points(points),
            why=why,
        )
    report.add(
        cannot,
        N_("knock limit"),
        source=outcome_source(rules, "limit") + ("; S4, BO" if limit == 0 else ""),
        player=knocker,
        cards=labels(arrangement.deadwood),
        field=f"hands.{knocker}" + (".deadwood" if spread else ".cards"),
    )
    return False


def _best_for_knocker(
    rules: GinRules,
    players: tuple[str, ...],
    deal: ParsedDeal,
    knocker: str,
    candidates: list[_Arrangement],
    outcome: str,
    multiplier: int,
    gin: bool,
) -> tuple[_Arrangement, dict[str, _Arrangement], _Settlement]:
    """The knocker's arrangement that settles best for him (least laid off against it), the
    defenders' arrangements against it and the settlement."""
    best: tuple[int, _Arrangement, dict[str, _Arrangement], _Settlement] | None = None
    for candidate in candidates:
        sides = {knocker: candidate}
        sides.update(_defender_arrangements(rules, players, deal, knocker, candidate.melds, gin))
        settled = _settle(rules, players, knocker, sides, outcome, multiplier)
        net = _knocker_net(rules, players, knocker, settled)
        if best is None or net > best[0]:
            best = (net, candidate, sides, settled)
    assert best is not None  # a knocker has at least one arrangement
    return best[1], best[2], best[3]


def _layoffs_note(chained: bool, cited: Citation) -> Msg:
    """How the layoffs were made (a knock, not gin)."""
    if chained:
        return msg(
            "layoffs onto the knocker's melds, a layoff may extend a run an earlier one extended — {source}",
            source=_source(cited),
        )
    return msg(
        "layoffs only onto the knocker's melds as laid down, no chaining (ruling: also for a player's own "
        "layoffs) — {source}",
        source=_source(cited),
    )


def _arrangement_notes(
    rules: GinRules,
    players: tuple[str, ...],
    deal: ParsedDeal,
    knocker: str,
    candidates: list[_Arrangement],
    chosen: _Arrangement,
    gin: bool,
) -> list[Msg]:
    """What the engine chose for the knocker, and how the layoffs were made."""
    notes: list[Msg] = []
    if deal.hands[knocker].given == "cards" and len(candidates) > 1:
        notes.append(_equal_arrangements_note(knocker, len(candidates), chosen.discard is not None))
    if chosen.discard is not None:
        notes.append(_discard_note(knocker, chosen.discard))
    if not gin:
        chained = rules.layoffs == "chained"
        cited = rules.cite("layoffs")
        notes.append(_layoffs_note(chained, cited))
        if chained and len(players) > 2:
            notes.append(
                msg(
                    "the defenders lay off in seat order after the knocker (S4), each for his least deadwood; a "
                    "later defender may extend a run an earlier defender's layoff extended — {source}; where "
                    "a defender has equally good choices, the one leaving the defenders after him, in seat order, "
                    "the least deadwood is taken (ruling)",
                    source=_source(cited),
                )
            )
    return notes


def _player_deals(
    players: tuple[str, ...], sides: Mapping[str, _Arrangement], settled: _Settlement
) -> dict[str, PlayerDeal]:
    out = {}
    points = settled.points
    lines = settled.lines
    for p in players:
        side = sides[p]
        meld_labels = side.meld_labels
        if meld_labels is None:
            meld_labels = tuple(labels(m) for m in side.melds)
        out[p] = PlayerDeal(
            points=points[p],
            lines=tuple(lines[p]),
            melds=meld_labels,
            deadwood=labels(side.deadwood),
            layoffs=labels(side.layoffs),
            deadwood_points=side.points,
            discard=LABELS[side.discard] if side.discard is not None else None,
        )
    return out


def _score_deal(
    rules: GinRules, players: tuple[str, ...], deal: ParsedDeal, errors: list[RecordError]
) -> _ScoredDeal | None:
    """Score one checked deal; None (with the errors added) when the knock is not allowed."""
    report = Report(deal.number, errors)
    upcard = deal.upcard
    limit = knock_limit(upcard)
    multiplier = rules.spade_multiplier if upcard.suit is Suit.SPADES else 1
    notes = _upcard_notes(rules, upcard, limit, multiplier)
    knocker = deal.knocker
    if knocker is None:
        notes.append(
            msg("void hand: nobody knocked before the stock ran down to two cards; the same dealer deals again — S3")
        )
        void = {p: PlayerDeal(points=0, lines=()) for p in players}
        return _ScoredDeal(outcome="void", players=void, winner=None, notes=notes, multiplier=multiplier)
    found = _knocker_candidates(rules, deal, knocker, hand_size(len(players)), report)
    if found is None:
        return None
    candidates, big = found
    if not _within_limit(rules, deal, knocker, candidates[0], limit, report):
        return None
    gin = candidates[0].points == 0
    outcome = "gin" if gin else "knock"
    if big:
        if rules.big_gin_bonus > 0:
            outcome = "big_gin"
        else:
            cited = rules.cite("big_gin_bonus")
            notes.append(
                msg(
                    "big gin is not played at this table (big gin bonus 0 — {source}): scored as gin (ruling)",
                    source=_source(cited),
                )
            )
    chosen, sides, settled = _best_for_knocker(rules, players, deal, knocker, candidates, outcome, multiplier, gin)
    notes.extend(_arrangement_notes(rules, players, deal, knocker, candidates, chosen, gin))
    notes.extend(settled.notes)
    return _ScoredDeal(
        outcome=settled.outcome,
        players=_player_deals(players, sides, settled),
        winner=settled.winner,
        notes=notes,
        multiplier=multiplier,
    )


# ---------------------------------------------------------------------------------------------
# Step 3: the game, one deal at a time


def _seat(players: tuple[str, ...], name: str | None) -> int | None:
    return None if name is None else players.index(name)


def _name(players: tuple[str, ...], seat: int | None) -> str | None:
    return None if seat is None else players[seat]


def setup_errors(rules: GinRules, players: Sequence[str]) -> list[RecordError]:
    """What these rules refuse for these players before any deal (RULES.md §2, rulings): scoring to
    the hand's winner is for two players (three or four play ``party``, penalty points), and so is
    Hollywood, which is not played with penalty points; penalty points take no game bonus, box bonus
    or shutout."""
    errors: list[RecordError] = []
    if rules.hollywood and len(players) != 2:
        errors.append(
            RecordError(
                msg(
                    "Hollywood scoring is for two players; this game has {count}: switch it off or play with two",
                    count=len(players),
                ),
                rule=N_("hollywood"),
                source=HOLLYWOOD_SOURCE,
                field="rules.options.hollywood",
            )
        )
    if rules.hollywood and rules.penalty:
        errors.append(
            RecordError(
                msg(
                    "Hollywood scoring enters the points of each hand's winner in three columns: it is not "
                    "played with penalty points ('scoring': 'penalty') (ruling)"
                ),
                rule=N_("hollywood"),
                source="ruling",
                field="rules.options.hollywood",
            )
        )
    if rules.penalty:
        errors += _penalty_setup_errors(rules)
    if not rules.penalty and len(players) > 2:
        errors.append(
            RecordError(
                msg(
                    "scoring to the hand's winner ('scoring': 'winner') is for two players; this game has {count}: "
                    "play 'party', penalty points, with three or four",
                    count=len(players),
                ),
                rule=N_("scoring"),
                source="ruling",
                field="rules.options.scoring" if "scoring" in rules.overridden else "rules.profile",
            )
        )
    return errors


def _penalty_setup_errors(rules: GinRules) -> list[RecordError]:
    """Penalty scoring has no game bonus, no box bonus and no shutout (RULES.md §2, ruling: S4 pays
    none): rules that set one are refused, not played as if they did not."""
    refused: list[tuple[str, Msg]] = []
    if rules.game_bonus:
        refused.append(
            (
                "game_bonus",
                msg(
                    "penalty scoring has no game bonus (S4 pays none): 'game_bonus' must be 0, not {value}",
                    value=rules.game_bonus,
                ),
            )
        )
    if rules.box_bonus:
        refused.append(
            (
                "box_bonus",
                msg(
                    "penalty scoring has no box bonus (S4 pays none): 'box_bonus' must be 0, not {value}",
                    value=rules.box_bonus,
                ),
            )
        )
    if rules.shutout:
        refused.append(("shutout", msg("penalty scoring has no shutout (S4 pays none): 'shutout' must be off")))
    return [
        RecordError(message, rule=N_("scoring"), source="ruling", field=f"rules.options.{name}")
        for name, message in refused
    ]


def begin(rules: GinRules, players: Sequence[str], first_dealer: str | None = None) -> Standing:
    """Where a game stands before its first deal."""
    players = tuple(players)
    errors = setup_errors(rules, players) + first_dealer_errors(players, first_dealer)
    if errors:
        raise RecordInvalid(errors)
    zeros = (0,) * len(players)
    columns = tuple(ColumnStanding(totals=zeros, boxes=zeros) for _ in range(COLUMNS)) if rules.hollywood else ()
    return Standing(
        deals=0, totals=zeros, side=zeros, boxes=zeros, dealer=_seat(players, first_dealer), columns=columns
    )


def _game_end(rules: GinRules, players: tuple[str, ...], totals: Mapping[str, int]) -> tuple[str | None, list[Msg]]:
    """The game's winner once someone reaches the target (penalty: the lowest total wins), and a
    note when the leaders tie (the game goes on)."""
    reached = [p for p in players if rules.reached(totals[p])]
    if not reached:
        return None, []
    if rules.penalty:
        low = min(totals.values())
        leaders = [p for p in players if totals[p] == low]
    else:
        high = max(totals[p] for p in reached)
        leaders = [p for p in reached if totals[p] == high]
    if len(leaders) == 1:
        return leaders[0], []
    return None, [msg("{players} tie for the win: the game goes on (ruling)", players=_joined(leaders))]


def game_end(rules: GinRules, players: Sequence[str], totals: tuple[int, ...]) -> tuple[int | None, list[Msg]]:
    """Whether the game ends with these totals (by seat), as after a deal with cards: the winner's
    seat (None: it goes on) and the notes saying why (a tie)."""
    winner, notes = _game_end(rules, tuple(players), dict(zip(players, totals, strict=True)))
    return (list(players).index(winner) if winner is not None else None), notes


def _scores(players: Sequence[str], points: Sequence[int]) -> Msg:
    """``Ann 132, Ben 0``: each player's points, in seat order."""
    each = [msg("{player} {points}", player=p, points=n) for p, n in zip(players, points, strict=True)]
    joined = each[0]
    for item in each[1:]:
        joined = msg("{first}, {next}", first=joined, next=item)
    return joined


def _joined(items: Sequence[str | int]) -> Msg:
    """``a and b and c``: the items joined by "and", each a plain parameter."""
    joined: Msg = msg("{item}", item=items[0])
    for item in items[1:]:
        joined = msg("{first} and {last}", first=joined, last=item)
    return joined


def _score_checked(
    rules: GinRules, players: tuple[str, ...], standing: Standing, deal: Any, number: int
) -> tuple[_ScoredDeal, str | None]:
    """The deal checked and scored in steps (``_parse_deal``, ``_score_deal``), and its knocker;
    raises RecordInvalid with every error of the deal."""
    errors: list[RecordError] = []
    parsed = _parse_deal(rules, players, deal, number, errors)
    if parsed is None:
        raise RecordInvalid(errors)
    if standing.ended_on is not None:
        raise RecordInvalid(
            [
                RecordError(
                    msg(
                        "deal {number} comes after the Hollywood match ended (all three columns closed; {winner} "
                        "won on deal {ended_on})",
                        number=number,
                        winner=str(_name(players, standing.winner)),
                        ended_on=str(standing.ended_on),
                    )
                    if rules.hollywood
                    else msg(
                        "deal {number} comes after the game ended ({winner} won on deal {ended_on})",
                        number=number,
                        winner=str(_name(players, standing.winner)),
                        ended_on=str(standing.ended_on),
                    ),
                    rule=N_("end of the game"),
                    source=HOLLYWOOD_SOURCE if rules.hollywood else rules.cite("target").source,
                    deal=number,
                )
            ]
        )
    scored = _score_deal(rules, players, parsed, errors)
    if scored is None:
        raise RecordInvalid(errors)
    return scored, parsed.knocker


def play(
    rules: GinRules, players: Sequence[str], standing: Standing, deal: Any, number: int
) -> tuple[DealResult, Standing]:
    """Check and score deal ``number`` from ``standing``: its result and where the game stands
    after it. Raises RecordInvalid with every error of the deal (a deal after the game ended is one), or
    with what the rules refuse for these players (``setup_errors``, as ``begin`` does)."""
    players = tuple(players)
    refused = setup_errors(rules, players)
    if refused:
        raise RecordInvalid(refused)
    scored, knocker = _score_checked(rules, players, standing, deal, number)
    entry = _enter_in_columns(rules, players, standing, scored, number) if rules.hollywood else None
    if entry is not None:
        scored = entry.scored
    before = dict(zip(players, standing.totals, strict=True))
    totals = {p: before[p] + scored.players[p].points for p in players}
    boxes = list(standing.boxes)
    if scored.winner is not None:
        boxes[players.index(scored.winner)] += 1
    dealer = _name(players, standing.dealer)
    next_dealer = dealer if scored.outcome == "void" else scored.winner
    winner, tie_notes = (entry.match_winner, []) if entry is not None else _game_end(rules, players, totals)
    result = DealResult(
        number=number,
        outcome=scored.outcome,
        multiplier=scored.multiplier,
        players=scored.players,
        totals_before=before,
        totals=totals,
        side=dict.fromkeys(players, 0),
        dealer=dealer,
        next_dealer=next_dealer,
        notes=tuple(scored.notes + tie_notes),
        actor=knocker,
        winner=scored.winner,
        columns=entry.entered if entry is not None else (),
    )
    after = Standing(
        deals=standing.deals + 1,
        totals=tuple([totals[p] for p in players]),
        side=standing.side,
        boxes=tuple(boxes),
        dealer=_seat(players, next_dealer),
        ended_on=number if winner is not None else None,
        winner=_seat(players, winner),
        columns=entry.columns if entry is not None else (),
    )
    return result, after


# ---------------------------------------------------------------------------------------------
# Hollywood: three games scored at once in three columns (RULES.md §2, a house option)


@dataclass
class _ColumnEntry:
    """A hand entered in the Hollywood columns."""

    scored: _ScoredDeal  # the winner's points and lines now count every column entered
    entered: tuple[int, ...]  # the columns entered, 1-based
    columns: tuple[ColumnStanding, ...]
    match_winner: str | None  # once all three columns are closed


def _columns_for(columns: Sequence[ColumnStanding], seat: int) -> list[int]:
    """The columns (0-based) a hand won by ``seat`` goes in: every open column where he already
    has an entry, and the first open column where he has none (AR, HW). So his first win goes in
    column 1, his second in columns 1 and 2, his third and later in all three; a first win after
    column 1 closed starts him in column 2."""
    open_columns = [k for k, column in enumerate(columns) if column.winner is None]
    entered = [k for k in open_columns if columns[k].boxes[seat]]
    first_new = next((k for k in open_columns if not columns[k].boxes[seat]), None)
    if first_new is not None:
        entered.append(first_new)
    return sorted(entered)


def _match_winner(
    rules: GinRules, players: tuple[str, ...], columns: Sequence[ColumnStanding]
) -> tuple[str, dict[str, int]]:
    """The match, once the three columns are closed: to the player with the larger sum of the three
    columns' final tallies (ruling); on equal sums, to the player who won more columns (two players,
    three columns: never equal). Returns the winner and each player's sum of finals."""
    sums = dict.fromkeys(players, 0)
    for column in _column_results(rules, players, columns):
        for p in players:
            sums[p] += (column.final or {}).get(p, 0)
    won = {p: sum(1 for c in columns if c.winner == seat) for seat, p in enumerate(players)}
    return max(players, key=lambda p: (sums[p], won[p])), sums


def _entry_notes(
    players: tuple[str, ...], winner: str, points: int, shown: list[int], columns: Sequence[ColumnStanding]
) -> list[Msg]:
    """The notes of a hand entered in the columns ``shown`` (1-based): where it went, and each
    column it closed."""
    notes: list[Msg] = []
    if len(shown) > 1:
        notes.append(
            msg(
                "Hollywood: {winner}'s {points} entered in columns {columns}: every open column where the hand's "
                "winner has an entry, and the first open column where he has none — {source}; the running total "
                "is the sum of the three columns, so the hand counts once for each (ruling)",
                winner=winner,
                points=_points(points),
                columns=_joined(shown),
                source=source_words(HOLLYWOOD_SOURCE),
            )
        )
    else:
        notes.append(
            msg(
                "Hollywood: {winner}'s {points} entered in column {column}: every open column where the hand's "
                "winner has an entry, and the first open column where he has none — {source}",
                winner=winner,
                points=_points(points),
                column=shown[0],
                source=source_words(HOLLYWOOD_SOURCE),
            )
        )
    for number in shown:
        column = columns[number - 1]
        if column.winner is not None:
            score = _scores(players, column.totals)
            notes.append(
                msg(
                    "Hollywood: column {column} closes: {winner} reaches the target ({score})",
                    column=number,
                    winner=winner,
                    score=score,
                )
            )
    return notes


def _enter_in_columns(
    rules: GinRules, players: tuple[str, ...], standing: Standing, scored: _ScoredDeal, number: int
) -> _ColumnEntry:
    """Enter the hand's points in the columns the rules send them to; close every column where
    the hand's winner reaches the target, and the match when all three are closed."""
    columns = list(standing.columns)
    notes = list(scored.notes)
    if scored.winner is None:
        notes.append(msg("Hollywood: nobody won this hand: nothing is entered in the columns"))
        return _ColumnEntry(scored=replace(scored, notes=notes), entered=(), columns=tuple(columns), match_winner=None)
    winner = scored.winner
    seat = players.index(winner)
    won = scored.players[winner]
    entered = _columns_for(columns, seat)
    for k in entered:
        totals, boxes = list(columns[k].totals), list(columns[k].boxes)
        totals[seat] += won.points
        boxes[seat] += 1
        closed = rules.reached(totals[seat])
        columns[k] = ColumnStanding(
            totals=tuple(totals),
            boxes=tuple(boxes),
            ended_on=number if closed else None,
            winner=seat if closed else None,
        )
    shown = [k + 1 for k in entered]
    notes += _entry_notes(players, winner, won.points, shown, columns)
    extra = tuple(
        Line(
            label=msg("Hollywood: also entered in column {column}", column=k),
            points=won.points,
            rule=N_("hollywood"),
            source=HOLLYWOOD_SOURCE,
            basis="option",
        )
        for k in shown[1:]
    )
    won = replace(won, points=won.points * len(shown), lines=won.lines + extra)
    match_winner = None
    if all(c.winner is not None for c in columns):
        match_winner, sums = _match_winner(rules, players, columns)
        score = _scores(players, [sums[p] for p in players])
        if len(set(sums.values())) == 1:
            said = msg(
                "Hollywood: all three columns are closed: the sums of the three columns' final tallies are equal "
                "({score}), so {winner}, who won more columns, wins the match (ruling)",
                winner=match_winner,
                score=score,
            )
        else:
            said = msg(
                "Hollywood: all three columns are closed: {winner} wins the match with the larger sum of the "
                "three columns' final tallies ({score}) (ruling)",
                winner=match_winner,
                score=score,
            )
        notes.append(said)
    scored = replace(scored, players={**scored.players, winner: won}, notes=notes)
    return _ColumnEntry(scored=scored, entered=tuple(shown), columns=tuple(columns), match_winner=match_winner)


def _column_results(
    rules: GinRules, players: tuple[str, ...], columns: Sequence[ColumnStanding]
) -> tuple[ColumnResult, ...]:
    """Each column settled as a game of its own: game bonus, boxes for the hands won in it, shutout."""
    out = []
    for k, column in enumerate(columns, start=1):
        totals = dict(zip(players, column.totals, strict=True))
        boxes = dict(zip(players, column.boxes, strict=True))
        winner = _name(players, column.winner)
        final = final_lines = None
        if winner is not None:
            final, final_lines, _ = _final(rules, players, totals, boxes, winner)
        out.append(
            ColumnResult(
                number=k,
                totals=totals,
                boxes=boxes,
                state="finished" if winner is not None else "in_progress",
                winner=winner,
                ended_on=column.ended_on,
                final=final,
                final_lines=final_lines,
            )
        )
    return tuple(out)


def _match_final(
    players: tuple[str, ...], columns: Sequence[ColumnResult]
) -> tuple[dict[str, int], dict[str, tuple[Line, ...]]]:
    """The match's final tally: the sum of the three columns' (ruling), one line per column."""
    lines = {
        p: tuple(
            Line(
                label=msg("column {column}: final tally", column=c.number),
                points=(c.final or {}).get(p, 0),
                rule=N_("hollywood"),
                source="ruling",
                basis="ruling",
            )
            for c in columns
        )
        for p in players
    }
    return {p: sum(x.points for x in lines[p]) for p in players}, lines


def _add_bonus_lines(
    rules: GinRules,
    players: tuple[str, ...],
    totals: Mapping[str, int],
    boxes: Mapping[str, int],
    winner: str,
    lines: dict[str, list[Line]],
) -> None:
    """The end-of-game bonuses of points scoring: shutout, game bonus, boxes."""
    if rules.shutout and all(totals[p] <= 0 for p in players if p != winner):  # on 0 or less (ruling)
        cited = rules.cite("shutout")
        lines[winner].append(
            Line(
                label=msg("shutout: the winner's points from hands doubled, the bonuses added after (GC)"),
                points=totals[winner],
                rule=N_("shutout"),
                source=cited.source,
                basis=cited.basis,
            )
        )
    if rules.game_bonus:
        cited = rules.cite("game_bonus")
        lines[winner].append(
            Line(
                label=msg("game bonus"),
                points=rules.game_bonus,
                rule=N_("game bonus"),
                source=cited.source,
                basis=cited.basis,
            )
        )
    if rules.box_bonus:
        cited = rules.cite("box_bonus")
        for p in players:
            if boxes[p]:
                lines[p].append(
                    Line(
                        label=nmsg(
                            "boxes: {n} hand won × {bonus}",
                            "boxes: {n} hands won × {bonus}",
                            boxes[p],
                            bonus=rules.box_bonus,
                        ),
                        points=boxes[p] * rules.box_bonus,
                        rule=N_("box bonus"),
                        source=cited.source,
                        basis=cited.basis,
                    )
                )


def _final(
    rules: GinRules, players: tuple[str, ...], totals: Mapping[str, int], boxes: Mapping[str, int], winner: str
) -> tuple[dict[str, int], dict[str, tuple[Line, ...]], list[Msg]]:
    """Each player's final tally with the end-of-game bonuses, their lines, and notes."""
    lines: dict[str, list[Line]] = {p: [] for p in players}
    notes: list[Msg] = []
    source = outcome_source(rules, "game")
    for p in players:
        label = msg("game total (penalty points)") if rules.penalty else msg("game total")
        lines[p].append(Line(label=label, points=totals[p], rule=N_("game total"), source=source))
    if rules.penalty:
        notes.append(
            msg(
                "the game ends when someone reaches {target} penalty points; the lowest total wins ({source})",
                target=rules.target,
                source=source_words(rules.cite("target").source),
            )
        )
    else:
        _add_bonus_lines(rules, players, totals, boxes, winner, lines)
    final = {p: sum(x.points for x in lines[p]) for p in players}
    return final, {p: tuple(v) for p, v in lines.items()}, notes


def conclude(rules: GinRules, players: Sequence[str], standing: Standing, deals: Sequence[DealResult]) -> GameResult:
    """The game's result from its scored deals and where it stands after them."""
    players = tuple(players)
    totals = dict(zip(players, standing.totals, strict=True))
    winner = _name(players, standing.winner)
    final: Mapping[str, int] | None = None
    final_lines: Mapping[str, tuple[Line, ...]] | None = None
    game_notes: list[Msg] = []
    columns = _column_results(rules, players, standing.columns) if rules.hollywood else ()
    if rules.hollywood:
        game_notes.append(
            msg(
                "Hollywood: three games scored at once, each settled on its own (game bonus, boxes for the hands "
                "won in it, shutout) — {source}; the match's totals and final are the sums of the three "
                "columns', and the match goes to the player with the larger sum of finals (ruling)",
                source=source_words(HOLLYWOOD_SOURCE),
            )
        )
        if standing.ended_on is not None:
            final, final_lines = _match_final(players, columns)
    elif standing.ended_on is not None and winner is not None:
        boxes = dict(zip(players, standing.boxes, strict=True))
        final, final_lines, game_notes = _final(rules, players, totals, boxes, winner)
    return GameResult(
        game=GAME,
        profile=rules.profile,
        players=players,
        deals=tuple(deals),
        totals=totals,
        side=dict.fromkeys(players, 0),
        state="finished" if standing.ended_on is not None else "in_progress",
        winner=winner,
        final=final,
        final_lines=final_lines,
        target=rules.target,
        notes=tuple(game_notes),
        columns=columns,
    )


def score_game(rules: GinRules, players: Sequence[str], deals: Any, first_dealer: str | None = None) -> GameResult:
    """Check and score every deal of an Oklahoma Gin game. Raises RecordInvalid with every error.

    After a deal with an error, the deals that follow are still checked (from the standing
    before it) but no longer scored."""
    players = tuple(players)
    if not isinstance(deals, list):
        raise RecordInvalid(
            [RecordError(msg("'deals' must be a list"), rule=N_("format"), source="RECORD.md", field="deals")]
        )
    return fold_deals(play, conclude, rules, players, begin(rules, players, first_dealer), deals)
