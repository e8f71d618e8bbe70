"""Oklahoma card values, melded and left in hand (RULES.md §1 table; S0; S1 law 12), and the pack.

Each value is a ``CardValue``: its points, the rule in words and where it comes from, so a score
line can cite it. The K–8 in-hand value is a knob (``k8_in_hand``) and is cited through the rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from .caches import cached
from .cards import ACE, JOKER, PACK_52, QUEEN, Card, Suit, Token, parse_token
from .messages import N_
from .profiles import OklahomaRules

SRC_VALUES = "S0; S1 law 12"

QUEEN_OF_SPADES = Card(QUEEN, Suit.SPADES)


@dataclass(frozen=True, slots=True, eq=False)
class CardValue:
    """What a card scores, the rule in words and its source; compared by identity, so the lines
    of a meld group the cards that score by the same rule."""

    points: int
    rule: str
    source: str
    basis: str = "source"


def natural_melded_points(rank: int) -> int:
    """A natural card's melded points by rank: ace 20, K–8 10, 7–3 5 (the Q♠ apart)."""
    if rank == ACE:
        return 20
    if rank >= 8:
        return 10
    return 5  # 7..3 (a 2 standing for a 2 is a ruling: TWO_AS_TWO)


JOKER_MELDED = CardValue(points=100, rule=N_("a Joker melded scores 100, whatever it stands for"), source="S0")
QUEEN_OF_SPADES_MELDED = CardValue(points=50, rule=N_("Q♠ melded scores 50"), source=SRC_VALUES)
ACE_MELDED = CardValue(points=20, rule=N_("an ace melded scores 20"), source=SRC_VALUES)
K_TO_8_MELDED = CardValue(points=10, rule=N_("K Q J 10 9 8 melded score 10"), source=SRC_VALUES)
SEVEN_TO_3_MELDED = CardValue(points=5, rule=N_("7 6 5 4 3 melded score 5"), source=SRC_VALUES)
TWO_AS_QUEEN_OF_SPADES = CardValue(points=10, rule=N_("a 2 standing for Q♠ scores 10"), source="S0")
TWO_AS_TWO = CardValue(
    points=5, rule=N_("a 2 standing for a 2 scores as a low card, 5"), source="ruling", basis="ruling"
)
TWO_AS_RANK: dict[int, CardValue] = {
    rank: CardValue(points=natural_melded_points(rank), rule=N_("a 2 scores the card it stands for"), source="S0")
    for rank in range(1, 14)
    if rank != 2
}

JOKER_HELD = CardValue(points=-200, rule=N_("a Joker left in hand costs 200"), source="S0")
TWO_HELD = CardValue(points=-20, rule=N_("a 2 left in hand costs 20"), source="S0")
QUEEN_OF_SPADES_HELD = CardValue(points=-100, rule=N_("Q♠ left in hand costs 100"), source=SRC_VALUES)
ACE_HELD = CardValue(points=-20, rule=N_("an ace left in hand costs 20"), source=SRC_VALUES)
SEVEN_TO_3_HELD = CardValue(points=-5, rule=N_("7 6 5 4 3 left in hand cost 5"), source=SRC_VALUES)


def natural_melded(card: Card) -> CardValue:
    """What a natural card (not a 2, not the Joker) scores melded."""
    rank = card.rank
    if rank == QUEEN and card.suit is Suit.SPADES:
        return QUEEN_OF_SPADES_MELDED
    if rank == ACE:
        return ACE_MELDED
    if rank >= 8:
        return K_TO_8_MELDED
    return SEVEN_TO_3_MELDED


def wild_melded(joker: bool, stands_rank: int, stands_for_queen_of_spades: bool) -> CardValue:
    """What a wild card scores melded standing for a card of ``stands_rank``."""
    if joker:
        return JOKER_MELDED
    if stands_for_queen_of_spades:
        return TWO_AS_QUEEN_OF_SPADES
    if stands_rank == 2:
        return TWO_AS_TWO
    return TWO_AS_RANK[stands_rank]


def melded(card: Card, stands_rank: int | None, stands_for_queen_of_spades: bool) -> CardValue:
    """What a card scores melded; for a wild, ``stands_rank`` is the rank it stands for."""
    if card.is_joker:
        return JOKER_MELDED
    if card.is_two:
        if stands_for_queen_of_spades:
            return TWO_AS_QUEEN_OF_SPADES
        if stands_rank is None:
            raise ValueError(f"{card.label}: say which card the 2 stands for")
        return wild_melded(False, stands_rank, False)
    return natural_melded(card)


# The rule of each value the knob allows (profiles: -10 or -20), each a message id of its own.
_K8_RULES = {-10: N_("K Q J 10 9 8 left in hand cost 10"), -20: N_("K Q J 10 9 8 left in hand cost 20")}


@cached(maxsize=64)
def k8_held(rules: OklahomaRules) -> CardValue:
    """What a K, Q, J, 10, 9 or 8 left in hand costs under these rules (a knob)."""
    cite = rules.cite("k8_in_hand")
    value = rules.k8_in_hand
    return CardValue(points=value, rule=_K8_RULES[value], source=cite.source, basis=cite.basis)


def held(card: Card, k8: CardValue) -> CardValue:
    """What a card left in hand costs; ``k8`` is the rules' K–8 value (``k8_held``)."""
    rank = card.rank
    if rank == 0:
        return JOKER_HELD
    if rank == 2:
        return TWO_HELD
    if rank == QUEEN and card.suit is Suit.SPADES:
        return QUEEN_OF_SPADES_HELD
    if rank == ACE:
        return ACE_HELD
    if rank >= 8:
        return k8
    return SEVEN_TO_3_HELD


_RULES_K8 = CardValue(points=0, rule="K Q J 10 9 8 left in hand", source="the rules")  # stands for the knob's value


def held_whatever_the_rules(card: Card) -> CardValue | None:
    """What a card left in hand costs under any rules; None for K–8, whose cost is a knob."""
    value = held(card, _RULES_K8)
    return None if value is _RULES_K8 else value


def _as_token(raw: str | Token | Card) -> Token:
    if isinstance(raw, Token):
        return raw
    if isinstance(raw, Card):
        return Token(raw)
    return parse_token(raw)


def card_value_melded(token: str | Token | Card, rules: OklahomaRules | None = None, rank: int | None = None) -> int:
    """Points a card scores melded. A wild needs what it stands for: named in the token
    (``'2C=7H'``) or, for a wild in a set, the set's ``rank``. The Joker is 100 whatever it is."""
    tok = _as_token(token)
    stands = tok.stands_for
    if tok.card.is_two and stands is None and rank is None:
        raise ValueError(f"{tok.label}: say which card the 2 stands for")
    stands_rank = stands.rank if stands is not None else rank
    return melded(tok.card, stands_rank, stands == QUEEN_OF_SPADES).points


def card_value_held(card: str | Card | Token, rules: OklahomaRules) -> int:
    """Points a card left in hand costs (negative)."""
    tok = _as_token(card)
    if tok.stands_for is not None:
        raise ValueError(f"{tok.label}: a card in hand stands for nothing")
    return held(tok.card, k8_held(rules)).points


def pack_counts(rules: OklahomaRules) -> dict[Card, int]:
    """How many of each card the pack holds: two of every natural card and of every 2 (eight 2s),
    one Joker or none (S0; S1 law 1). Keys are Cards; the Joker is ``cards.JOKER``."""
    counts = dict.fromkeys(PACK_52, 2)
    counts[JOKER] = 1 if rules.joker else 0
    return counts
