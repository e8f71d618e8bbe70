"""Cards and the card notation of RECORD.md.

Ranks ``A 2 3 4 5 6 7 8 9 10 J Q K`` (``T`` is accepted for 10), suits ``S H D C``
(``♠ ♥ ♦ ♣`` accepted), any case; the Joker is ``JK``. An Oklahoma wild card may name the
card it stands for after ``=``: ``2C=7H``, ``JK=QS``. Cards print with suit symbols.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from .messages import Msg, msg, rank_letter


class CardError(ValueError):
    """A token that is not a card; the message says what is wrong with it."""

    def __init__(self, token: str, message: Msg) -> None:
        super().__init__(str(message))
        self.token = token
        self.message = message


class Suit(Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def index(self) -> int:
        return _SUIT_INDEX[self]

    @property
    def noun(self) -> str:
        return self.name.lower()


SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}
_SUIT_BY_TEXT = {
    "S": Suit.SPADES,
    "H": Suit.HEARTS,
    "D": Suit.DIAMONDS,
    "C": Suit.CLUBS,
    "♠": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
}

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
RANKS: tuple[int, ...] = tuple(range(1, 14))
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K", **{r: str(r) for r in range(2, 11)}}
RANK_WORDS = {1: "ace", 11: "jack", 12: "queen", 13: "king", **{r: str(r) for r in range(2, 11)}}
_RANK_BY_TEXT = {**{name: rank for rank, name in RANK_NAMES.items()}, "T": 10}

_TOKEN = re.compile(r"^(10|[2-9TAJQK])([SHDC♠♥♦♣♤♡♢♧])$")


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A card of the pack. The Joker has rank 0 and no suit."""

    rank: int
    suit: Suit | None = None

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    @property
    def is_two(self) -> bool:
        return self.rank == 2

    @property
    def is_wild(self) -> bool:
        """Wild in Oklahoma: every 2 and the Joker (S0; S1 laws 8, 9)."""
        return self.rank in (0, 2)

    @property
    def code(self) -> str:
        """The card in record notation, e.g. ``10H``, ``JK``."""
        if self.is_joker:
            return "JK"
        assert self.suit is not None
        return RANK_NAMES[self.rank] + self.suit.value

    @property
    def label(self) -> str:
        """The card as printed, e.g. ``10♥``, ``JK``."""
        if self.is_joker:
            return "JK"
        assert self.suit is not None
        return RANK_NAMES[self.rank] + self.suit.symbol

    @property
    def index(self) -> int:
        """0..51, suit-major (``suit.index * 13 + rank - 1``): the bit of a card in a hand mask."""
        assert self.suit is not None, "the Joker has no index"
        return self.suit.index * 13 + self.rank - 1

    def __str__(self) -> str:
        return self.label


JOKER = Card(0, None)
PACK_52: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)
CARD_BY_INDEX: tuple[Card, ...] = PACK_52


def parse_card(text: object) -> Card:
    """Parse one card (``QS``, ``10h``, ``T♥``, ``JK``); raise CardError saying what is wrong."""
    if not isinstance(text, str):
        raise _not_text(text, "'QS' or '10H'")
    raw = text.strip()
    token = raw.upper().replace(" ", "")
    if token in ("JK", "JOKER", "JKR"):
        return JOKER
    match = _TOKEN.match(token)
    if match:
        return Card(_RANK_BY_TEXT[match.group(1)], _SUIT_BY_TEXT[match.group(2)])
    raise _not_a_card(raw, token)


# The messages of a CardError.


def _not_text(text: object, like: str) -> CardError:
    return CardError(
        str(text), msg("{value} is not a card: a card is written as text like {like}", value=repr(text), like=like)
    )


def _not_a_card(raw: str, token: str) -> CardError:
    """What is off in a token that is not a card."""
    if not token:
        return CardError(raw, msg("an empty card: write a rank and a suit, like 'QS' or '10H'"))
    suit_char = token[-1]
    rank_text = token[:-1]
    if suit_char not in _SUIT_BY_TEXT:
        if token in _RANK_BY_TEXT or token == "10":
            return CardError(
                raw, msg("'{raw}' has no suit: add S, H, D or C (♠ ♥ ♦ ♣), like '{token}S'", raw=raw, token=token)
            )
        return CardError(raw, msg("'{raw}' is not a card: the suit must be S, H, D or C (♠ ♥ ♦ ♣)", raw=raw))
    if rank_text in ("1", "11", "12", "13", "14", "0", "01"):
        hint = {"1": "A", "14": "A", "11": "J", "12": "Q", "13": "K"}.get(rank_text)
        if hint:
            return CardError(
                raw,
                msg(
                    "'{raw}' is not a card: ranks are A, 2–10, J, Q, K (write '{card}')",
                    raw=raw,
                    card=msg("{rank}{suit}", rank=rank_letter(hint), suit=suit_char),
                ),
            )
        return CardError(raw, msg("'{raw}' is not a card: ranks are A, 2–10, J, Q, K", raw=raw))
    return CardError(raw, msg("'{raw}' is not a card: the rank must be A, 2–10 (or T), J, Q or K", raw=raw))


@dataclass(frozen=True, slots=True)
class Token:
    """A card as entered in an Oklahoma meld: the card, and for a wild card what it stands for."""

    card: Card
    stands_for: Card | None = None

    @property
    def code(self) -> str:
        return self.card.code + (f"={self.stands_for.code}" if self.stands_for else "")

    @property
    def label(self) -> str:
        return self.card.label + (f"={self.stands_for.label}" if self.stands_for else "")

    def __str__(self) -> str:
        return self.label


def parse_token(text: object) -> Token:
    """Parse ``2C``, ``2C=7H`` or ``JK=QS``. Only a 2 or the Joker may name another card."""
    if not isinstance(text, str):
        raise _not_text(text, "'QS' or '2C=7H'")
    if "=" not in text:
        return Token(parse_card(text))
    left, _, right = text.partition("=")
    card = parse_card(left)
    if not right.strip():
        raise _bad_naming(text.strip(), "nothing named")
    named = parse_card(right)
    if not card.is_wild:
        raise _bad_naming(text.strip(), "not wild")
    if named.is_joker:
        raise _bad_naming(text.strip(), "the Joker named")
    return Token(card, named)


def _bad_naming(token: str, problem: str) -> CardError:
    """A card that names another card after ``=`` where it may not."""
    if problem == "nothing named":
        return CardError(token, msg("'{token}': name the card after '=', like '2C=7H'", token=token))
    if problem == "not wild":
        return CardError(
            token, msg("'{token}': only a 2 or the Joker is wild and may stand for another card", token=token)
        )
    return CardError(token, msg("'{token}': a wild card stands for a natural card, not the Joker", token=token))


def split_cards(text: str) -> list[str]:
    """Split typed text into card tokens: spaces, commas and semicolons separate cards."""
    return [part for part in re.split(r"[\s,;]+", text.strip()) if part]


def knock_limit(upcard: Card) -> int:
    """The knock limit an upcard sets: its point value, pictures 10; an ace means gin only (0)."""
    return 0 if upcard.rank == ACE else min(upcard.rank, 10)


def cards_text(cards: object) -> str:
    """A list of card codes (or of melds, each a list) as typed: ``QS QH QD / 5S 6S 7S``."""
    if not isinstance(cards, list):
        return ""
    if cards and all(isinstance(m, list) for m in cards):
        return " / ".join(" ".join(str(c) for c in m) for m in cards)
    return " ".join(str(c) for c in cards)
