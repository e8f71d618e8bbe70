"""Errors in a record or an entry: each names the deal, the player, the cards and the rule."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .messages import Msg, source_words


@dataclass(frozen=True, slots=True)
class Fix:
    """One way to mend an entry in a tap: wild cards named as one reading takes them. Each name is
    a token in the record's notation (``2C=7H``): it takes the place of the first unnamed card of
    its kind (``2C``) in the field. ``points``: what the field then scores."""

    names: tuple[str, ...]
    points: int


@dataclass(frozen=True, slots=True)
class RecordError:
    message: Msg  # what is wrong, as a message: str(message) is its English text
    rule: str = ""
    source: str = ""
    deal: int | None = None
    player: str | None = None
    cards: tuple[str, ...] = ()
    field: str | None = None  # where in the entry: "melds[1]", "held", "upcard", "rules.options.x"
    fixes: tuple[Fix, ...] = ()  # the ways to mend it in a tap, where the engine knows them
    # A card entered more times than the pack holds: it concerns every hand holding ``cards``, not
    # only ``player``'s (the one whose entry went past the count).
    whole_pack: bool = False

    def in_hand(self, players: Sequence[str]) -> tuple[str | None, str]:
        """The player whose hand ``field`` names, and the rest of its path (``"melds[1]"``; ``""``
        for the hand as a whole); ``(None, field)`` for a field outside the hands (``"upcard"``).
        The longest name first: "Ann B" is not "Ann"."""
        field = self.field or ""
        for name in sorted(players, key=len, reverse=True):
            head = f"hands.{name}"
            if field == head or field.startswith(head + "."):
                return name, field[len(head) + 1 :]
        return None, field

    def as_dict(self) -> dict:
        return {
            "deal": self.deal,
            "player": self.player,
            "cards": list(self.cards),
            "message": str(self.message),
            "rule": self.rule,
            "source": self.source,
        }

    def __str__(self) -> str:
        where = []
        if self.deal is not None:
            where.append(f"deal {self.deal}")
        if self.player is not None:
            where.append(self.player)
        head = ", ".join(where)
        cards = " ".join(self.cards)
        text = f"{head}: " if head else ""
        text += f"{cards} — " if cards else ""
        text += str(self.message)
        if self.source:
            text += f" ({source_words(self.source)})"
        return text


@dataclass(slots=True)
class Report:
    """Collects the errors of one deal (``number``; None: a hand alone), each naming the deal."""

    number: int | None
    errors: list[RecordError]

    def add(
        self,
        message: Msg,
        rule: str,
        source: str,
        *,
        player: str | None = None,
        cards: Sequence[str] = (),
        field: str | None = None,
        whole_pack: bool = False,
    ) -> None:
        self.errors.append(
            RecordError(
                message,
                rule=rule,
                source=source,
                deal=self.number,
                player=player,
                cards=tuple(cards),
                field=field,
                whole_pack=whole_pack,
            )
        )


class RecordInvalid(ValueError):
    """Raised with every error found; nothing is scored from an invalid record."""

    def __init__(self, errors: list[RecordError] | tuple[RecordError, ...]) -> None:
        self.errors = tuple(errors)
        super().__init__("; ".join(str(e) for e in self.errors) or "invalid record")
