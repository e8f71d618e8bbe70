"""Oklahoma, the Canasta-like game (RULES.md §1): a deal's checks and scores, and the race to 1,000.

Plain Python, no Django. One deal at a time: ``begin`` gives where a game stands before its first
deal, ``play`` checks and scores one deal onto a ``Standing`` (raising ``RecordInvalid`` with every
error of that deal), ``conclude`` gives the game's result. ``score_game`` scores a whole game from
the raw deals of a record on them, and reports every error of every deal. ``check_meld`` (from
``oklahoma_melds``) checks one meld alone, as the web app does while a player types it.

Sources: S0 (book description), S1 (Laws of Oklahoma). Values that are this project's reading
carry basis "ruling"; knob values are cited through ``rules.cite``.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from operator import itemgetter
from typing import TypeGuard

from .caches import cached
from .cards import CardError
from .errors import RecordError, RecordInvalid, Report
from .messages import N_, Msg, msg
from .oklahoma_meld_shortcut import check_meld
from .oklahoma_melds import SRC_NOTATION, SRC_WILD, Entered, MeldCheck, entered
from .oklahoma_split import MeldedCheck, check_melded
from .oklahoma_values import CardValue, card_value_held, card_value_melded, k8_held, pack_counts
from .players import first_dealer_errors, player_count_errors, player_errors
from .profiles import OklahomaRules
from .results import DealResult, GameResult, Line, PlayerDeal, Standing

__all__ = [
    "GAME",
    "MeldCheck",
    "begin",
    "card_value_held",
    "card_value_melded",
    "MeldedCheck",
    "check_meld",
    "check_melded",
    "conclude",
    "pack_counts",
    "play",
    "score_deal",
    "score_game",
    "score_hand",
]

GAME = "oklahoma"

SRC_PACK = "S0; S1 law 1"
SRC_OUT = "S0; S1 law 6"

SRC_MISDEAL = "S1 law 4"
# Every player who did not go out holds a card: RULES.md states it (§1), one source wherever it is broken.
SRC_CARDS_IN_HAND = "RULES.md §1"

_second = itemgetter(1)

DEAL_KEYS = ("out", "first_turn", "concealed", "late_misdeal", "hands")
HAND_KEYS = ("melds", "melded", "held")  # 'melds' or 'melded' (one flat list, split by the engine)
FLAGS = ("first_turn", "concealed")  # how the player who went out did it

FORMAT = N_("format")
CARDS_IN_HAND = N_("cards in hand")


# --------------------------------------------------------------------------------------------
# Checking a deal.


@dataclass(slots=True)
class _Hand:
    melds: list[MeldCheck]
    held: list[Entered]
    split_note: Msg | str = ""  # how a 'melded' list was split, where it splits more than one way


@dataclass(frozen=True, slots=True)
class _Deal:
    """A deal that passed every check: each player's hand, who went out and how.

    ``concealed`` is true for a first-turn out whatever the record says (RULES.md §1: no meld can
    have been laid before it); ``concealed_given`` is what the record said."""

    hands: dict[str, _Hand]
    out: str | None
    first_turn: bool
    concealed: bool
    late_misdeal: bool = False
    concealed_given: bool = False


def _check_deal(
    rules: OklahomaRules, players: tuple[str, ...], deal: object, number: int, errors: list[RecordError]
) -> _Deal | None:
    """Validate one deal, every check in turn; append every error; return the parsed deal when it is valid."""
    start = len(errors)
    report = Report(number, errors)
    if not _is_mapping(deal):
        report.add(
            msg("a deal is an object with 'out', 'hands' (and optionally 'first_turn', 'concealed', 'late_misdeal')"),
            FORMAT,
            SRC_NOTATION,
        )
        return None
    _check_deal_keys(deal, report)
    out = _check_out(deal, players, report)
    flags = _check_flags(deal, report)
    late_misdeal = _check_late_misdeal(deal, report)
    hands_raw = deal.get("hands")
    if not _is_mapping(hands_raw):
        report.add(
            msg("the deal has no 'hands' object: every player's melds and cards held"),
            FORMAT,
            SRC_NOTATION,
            field="hands",
        )
        return None
    hands = _check_hands(rules, players, hands_raw, report, out)
    if out is not None and out in hands:
        _check_out_hand(out, hands[out], hands_raw[out], report)
    if len(errors) > start:
        return None
    first_turn = flags["first_turn"]
    concealed = flags["concealed"] or first_turn
    return _Deal(
        hands=hands,
        out=out,
        first_turn=first_turn,
        concealed=concealed,
        late_misdeal=late_misdeal,
        concealed_given=flags["concealed"],
    )


def _check_deal_keys(deal: Mapping[object, object], report: Report) -> None:
    for key in deal:
        if key not in DEAL_KEYS:
            message = msg("unknown key '{key}': an Oklahoma deal has {keys}", key=str(key), keys=", ".join(DEAL_KEYS))
            report.add(message, FORMAT, SRC_NOTATION, field=str(key))
    if "out" not in deal:
        report.add(
            msg("the deal has no 'out': name the player who went out, or null when the stock ran out"),
            FORMAT,
            SRC_NOTATION,
            field="out",
        )


def _check_out(deal: Mapping[object, object], players: tuple[str, ...], report: Report) -> str | None:
    """The player who went out (None: the stock ran out, or not a player: reported)."""
    out = deal.get("out")
    if out is None:
        return None
    if not isinstance(out, str) or out not in players:
        report.add(msg("'out' is {value}, not one of the players", value=repr(out)), FORMAT, SRC_NOTATION, field="out")
        return None
    return out


def _check_flags(deal: Mapping[object, object], report: Report) -> dict[str, bool]:
    """``first_turn`` and ``concealed``: true or false, and true only when someone went out."""
    flags = {}
    for key in FLAGS:
        value = deal.get(key, False)
        if not isinstance(value, bool):
            message = msg("'{key}' takes true or false, not {value}", key=key, value=repr(value))
            report.add(message, FORMAT, SRC_NOTATION, field=key)
            value = False
        if value and deal.get("out") is None:
            report.add(
                msg(
                    "'{key}' says how the player who went out did it: with nobody out (stock ran out) it "
                    "cannot be true",
                    key=key,
                ),
                N_("going out"),
                "S0",
                field=key,
            )
        flags[key] = value
    return flags


def _check_late_misdeal(deal: Mapping[object, object], report: Report) -> bool:
    """``late_misdeal``: a misdeal found after the first play (S1 law 4); true or false."""
    value = deal.get("late_misdeal", False)
    if not isinstance(value, bool):
        message = msg("'{key}' takes true or false, not {value}", key="late_misdeal", value=repr(value))
        report.add(message, FORMAT, SRC_NOTATION, field="late_misdeal")
        return False
    return value


def _is_mapping(value: object) -> TypeGuard[Mapping[object, object]]:
    """isinstance(value, Mapping), quick for the plain dict JSON gives."""
    return type(value) is dict or isinstance(value, Mapping)


def _check_hands(
    rules: OklahomaRules,
    players: tuple[str, ...],
    hands_raw: Mapping[object, object],
    report: Report,
    out: str | None,
) -> dict[str, _Hand]:
    """Every player's hand, and the pack's limits over all of them together."""
    for name in hands_raw:
        if name not in players:
            report.add(
                msg("'{name}' is not one of the players", name=str(name)),
                FORMAT,
                SRC_NOTATION,
                player=str(name),
                field=f"hands.{name}",
            )
    hands: dict[str, _Hand] = {}
    entered_cards: list[tuple[str | None, str]] = []  # every card entered, with its player, for the pack count
    for name in players:
        if name not in hands_raw:
            report.add(
                msg("{name} has no hand in this deal: every player has an entry (melds and cards held)", name=name),
                FORMAT,
                SRC_NOTATION,
                player=name,
                field=f"hands.{name}",
            )
            continue
        hands[name] = _check_hand(rules, name, hands_raw[name], report, entered_cards)
        if name != out:
            _check_holds_a_card(name, hands_raw[name], report, out)
    _check_pack(rules, entered_cards, report)
    return hands


def _check_holds_a_card(name: str, raw: object, report: Report, out: str | None) -> None:
    """A player who did not go out holds at least one card at the end of the deal, whatever he
    melded (RULES.md §1): a player whose hand empties has gone out. No cards at all is an entry
    error, not a score of 0; melds and nothing held is an entry error on ``held``. With the stock
    out nobody went out, so every player holds a card. One rule: each refusal cites it alike."""
    if not _is_mapping(raw):
        return  # reported as a format error
    melds, melded, held = raw.get("melds", []), raw.get("melded", []), raw.get("held", [])
    if not isinstance(melds, list) or not isinstance(melded, list) or not isinstance(held, list):
        return  # reported as a format error
    if held:
        return
    if not melded and not any(isinstance(meld, list) and meld for meld in melds):
        report.add(
            msg("{name} has no cards: every player who did not go out holds at least one card", name=name),
            CARDS_IN_HAND,
            SRC_CARDS_IN_HAND,
            player=name,
            field=f"hands.{name}",
        )
        return
    if out is None:
        message = msg(
            "{name} melded every card and holds none: with the stock run out nobody went out, "
            "so every player still holds at least one card",
            name=name,
        )
    else:
        message = msg(
            "{name} melded every card and holds none, but {out} went out: every player who did not "
            "go out holds at least one card (a player whose hand empties has gone out)",
            name=name,
            out=out,
        )
    report.add(message, CARDS_IN_HAND, SRC_CARDS_IN_HAND, player=name, field=f"hands.{name}.held")


def _check_hand(
    rules: OklahomaRules, name: str, raw: object, report: Report, entered_cards: list[tuple[str | None, str]]
) -> _Hand:
    hand = _Hand([], [])
    if not _is_mapping(raw):
        report.add(
            msg("{name}'s hand is an object with 'melds' and 'held'", name=name),
            FORMAT,
            SRC_NOTATION,
            player=name,
            field=f"hands.{name}",
        )
        return hand
    _check_hand_keys(name, raw, report)
    path = f"hands.{name}."
    if "melded" in raw:
        _check_melded(rules, name, path, raw["melded"], report, hand, entered_cards)
    else:
        _check_melds(rules, name, path, raw.get("melds", []), report, hand, entered_cards)
    _check_held(rules, name, path, raw.get("held", []), report, hand, entered_cards)
    return hand


def _check_hand_keys(name: str, raw: Mapping[object, object], report: Report) -> None:
    for key in raw:
        if key not in HAND_KEYS:
            report.add(
                msg("unknown key '{key}': a hand has 'melds' (or 'melded') and 'held'", key=str(key)),
                FORMAT,
                SRC_NOTATION,
                player=name,
                field=f"hands.{name}.{key}",
            )
    if "melds" in raw and "melded" in raw:
        report.add(
            msg(
                "{name}'s hand gives both 'melds' and 'melded': give the melds, or one list of every card melded",
                name=name,
            ),
            FORMAT,
            SRC_NOTATION,
            player=name,
            field=f"hands.{name}.melded",
        )
    if "melds" not in raw and "melded" not in raw:
        report.add(
            msg("{name}'s hand has no 'melds' (write [] for none, or give 'melded')", name=name),
            FORMAT,
            SRC_NOTATION,
            player=name,
            field=f"hands.{name}.melds",
        )
    if "held" not in raw:
        report.add(
            msg("{name}'s hand has no 'held' (write [] for none)", name=name),
            FORMAT,
            SRC_NOTATION,
            player=name,
            field=f"hands.{name}.held",
        )


def _check_melds(
    rules: OklahomaRules,
    name: str | None,
    path: str,
    melds: object,
    report: Report,
    hand: _Hand,
    entered_cards: list[tuple[str | None, str]],
) -> None:
    """A hand's melds, each checked alone; ``path`` leads to the hand in the record ("hands.Ann.")."""
    if not isinstance(melds, list) or not all(isinstance(m, list) for m in melds):
        report.add(
            msg("'melds' is a list of melds, each a list of cards"),
            FORMAT,
            SRC_NOTATION,
            player=name,
            field=path + "melds",
        )
        return
    for i, meld in enumerate(melds):
        check = check_meld(meld, rules)
        if check.ok:
            hand.melds.append(check)
            entered_cards += [(name, label) for label in check.card_labels]
            continue
        field = f"{path}melds[{i}]"  # a path into the record: counted from 0, as in Gin
        for e in check.errors:
            report.errors.append(replace(e, deal=report.number, player=name, field=field))
        for raw_token in meld:
            with contextlib.suppress(CardError):
                entered_cards.append((name, entered(raw_token).card_label))


def _check_melded(
    rules: OklahomaRules,
    name: str | None,
    path: str,
    melded: object,
    report: Report,
    hand: _Hand,
    entered_cards: list[tuple[str | None, str]],
) -> None:
    """A hand's melded cards as one flat list: split into legal melds by the engine (RECORD.md)."""
    field = path + "melded"
    if not isinstance(melded, list):
        report.add(msg("'melded' is one list of every card melded"), FORMAT, SRC_NOTATION, player=name, field=field)
        return
    split = check_melded(melded, rules)
    for e in split.errors:
        report.errors.append(replace(e, deal=report.number, player=name, field=field))
    if split.ok:
        hand.melds.extend(split.melds)
        hand.split_note = split.note
    for raw_token in melded:
        with contextlib.suppress(CardError, TypeError):
            entered_cards.append((name, entered(raw_token).card_label))


def _check_held(
    rules: OklahomaRules,
    name: str | None,
    path: str,
    cards: object,
    report: Report,
    hand: _Hand,
    entered_cards: list[tuple[str | None, str]],
) -> None:
    """The cards left in a hand: natural cards as they are (a wild card in hand stands for nothing)."""
    if not isinstance(cards, list):
        report.add(msg("'held' is a list of cards"), FORMAT, SRC_NOTATION, player=name, field=path + "held")
        return
    field = path + "held"
    for raw_card in cards:
        try:
            e = entered(raw_card)
        except CardError as exc:
            report.add(exc.message, N_("card notation"), SRC_NOTATION, player=name, cards=[exc.token], field=field)
            continue
        if e.named_rank:
            report.add(
                msg(
                    "a card in hand stands for nothing: write {card}, not {entered}",
                    card=e.card_code,
                    entered=e.token.code,
                ),
                N_("wild cards"),
                SRC_WILD,
                player=name,
                cards=[e.label],
                field=field,
            )
        if e.joker and not rules.joker:
            source = rules.cite("joker").source
            report.add(
                msg("this game is played without the Joker"),
                N_("no Joker"),
                source,
                player=name,
                cards=["JK"],
                field=field,
            )
            continue
        entered_cards.append((name, e.card_label))
        hand.held.append(e)


def _check_pack(rules: OklahomaRules, entered_cards: list[tuple[str | None, str]], report: Report) -> None:
    """Two of each natural card, two of each 2 (eight 2s), one Joker (S0; S1 law 1), all hands together."""
    counts = Counter(map(_second, entered_cards))
    for label, count in counts.items():
        if count <= 1 or (count == 2 and label != "JK"):
            continue
        if label == "JK" and not rules.joker:
            continue  # already reported where it was entered
        limit = 1 if label == "JK" else 2
        by_player = Counter(name for name, card in entered_cards if card == label)
        if label == "JK":
            what = msg("one Joker")
        elif label[0] == "2":
            what = msg("two of each card (eight 2s)")
        else:
            what = msg("two of each card")
        if None in by_player:  # a hand alone
            message = msg("{card} is entered {n} times: the pack has {what}", card=label, n=count, what=what)
        else:
            message = msg(
                "{card} is entered {n} times ({by}): the pack has {what}",
                card=label,
                n=count,
                by=", ".join(f"{name} {k}" for name, k in by_player.items()),
                what=what,
            )
        report.add(
            message,
            N_("the pack"),
            SRC_PACK,
            player=_past_the_limit(entered_cards, label, limit),
            cards=[label],
            whole_pack=True,
        )


def _past_the_limit(entered_cards: list[tuple[str | None, str]], label: str, limit: int) -> str | None:
    """The player whose entry went past the pack's count, in seat order of entry."""
    seen = 0
    for name, card in entered_cards:
        if card == label:
            seen += 1
            if seen > limit:
                return name
    return None


def _check_out_hand(out: str, hand: _Hand, raw: object, report: Report) -> None:
    """The player who went out melded every card (the last one discarded)."""
    if hand.held:
        report.add(
            msg("{name} went out: nothing is left in hand (every card melded but the last, discarded)", name=out),
            N_("going out"),
            SRC_OUT,
            player=out,
            cards=[e.label for e in hand.held],
            field=f"hands.{out}.held",
        )
    key = "melded" if _is_mapping(raw) and "melded" in raw else "melds"
    raw_melds = raw.get(key) if _is_mapping(raw) else None
    if isinstance(raw_melds, list) and not raw_melds:
        report.add(
            msg("{name} went out but melded nothing: going out means melding all one's cards", name=out),
            N_("going out"),
            "ruling",
            player=out,
            field=f"hands.{out}.{key}",
        )


# --------------------------------------------------------------------------------------------
# Scoring a deal.


def _score_deal(rules: OklahomaRules, players: tuple[str, ...], deal: _Deal) -> dict[str, PlayerDeal]:
    k8 = k8_held(rules)
    result = {}
    for name in players:
        if name == deal.out:
            bonus, side = _bonus_lines(rules, deal.late_misdeal, deal.first_turn, deal.concealed)
            result[name] = _player_deal(deal.hands[name], k8, bonus, side)
        else:
            result[name] = _player_deal(deal.hands[name], k8)
    return result


def _player_deal(hand: _Hand, k8: CardValue, bonus: tuple[Line, ...] = (), side: tuple[Line, ...] = ()) -> PlayerDeal:
    """One player's score: the melds, the cards left in hand, the going-out bonus; the side column."""
    lines = [line for check in hand.melds for line in check.lines]
    lines += _held_lines(hand.held, k8)
    lines += bonus
    return PlayerDeal(
        points=sum(line.points for line in lines),
        lines=tuple(lines),
        melds=tuple(check.labels for check in hand.melds),
        held=tuple(e.card_label for e in hand.held),
        side_points=sum(line.points for line in side),
        side_lines=side,
    )


def _held_lines(cards: list[Entered], k8: CardValue) -> list[Line]:
    """The cards left in hand, one line for each rule that prices them (``k8``: the K–8 value)."""
    groups: dict[CardValue, list[str]] = {}
    for e in cards:
        groups.setdefault(e.held_value or k8, []).append(e.card_label)
    return [_held_line(tuple(shown), value) for value, shown in groups.items()]


@cached(maxsize=16384)
def _held_line(shown: tuple[str, ...], value: CardValue) -> Line:
    """One line of cards left in hand, priced by one rule: "K♦ in hand", "K♦ Q♥ in hand (2 × −20)"."""
    k = len(shown)
    cards = " ".join(shown)
    if k == 1:
        label = msg("{cards} in hand", cards=cards)
    else:
        label = msg("{cards} in hand ({n} × {unit})", cards=cards, n=k, unit=value.points)
    return Line(label=label, points=value.points * k, rule=value.rule, source=value.source, basis=value.basis)


@cached(maxsize=256)
def _bonus_lines(
    rules: OklahomaRules, late_misdeal: bool, first_turn: bool, concealed: bool
) -> tuple[tuple[Line, ...], tuple[Line, ...]]:
    """The going-out line and the side column's line of the player who went out, as he went out."""
    side = (_concealed_line(rules, late_misdeal, first_turn),) if concealed else ()
    return (_going_out_line(rules, late_misdeal, first_turn),), side


_NO_BONUS_AFTER_A_MISDEAL = N_("after a misdeal found after the first play, the winner gets no bonus for going out")


def _going_out_line(rules: OklahomaRules, late_misdeal: bool, first_turn: bool) -> Line:
    if late_misdeal:
        return Line(
            label=msg("went out, but a misdeal was found late: no going-out bonus"),
            points=0,
            rule=_NO_BONUS_AFTER_A_MISDEAL,
            source=SRC_MISDEAL,
        )
    if first_turn and not rules.first_turn_bonus:
        cite = rules.cite("first_turn_bonus")
        return Line(
            label=msg("went out on the first turn: no going-out bonus"),
            points=0,
            rule=N_("no bonus for going out on one's first turn"),
            source=cite.source,
            basis=cite.basis,
        )
    cite = rules.cite("out_bonus")
    return Line(
        label=msg("went out"), points=rules.out_bonus, rule=N_("going out"), source=cite.source, basis=cite.basis
    )


def _concealed_line(rules: OklahomaRules, late_misdeal: bool, first_turn: bool) -> Line:
    """The concealed bonus, kept in the side column outside the race."""
    cite = rules.cite("concealed_bonus")
    if rules.concealed_bonus == 0:
        return Line(
            label=msg("went out concealed: no concealed bonus under these rules"),
            points=0,
            rule=N_("concealed bonus"),
            source=cite.source,
            basis=cite.basis,
        )
    if late_misdeal:
        return Line(
            label=msg("went out concealed, but a misdeal was found late: no concealed bonus"),
            points=0,
            rule=_NO_BONUS_AFTER_A_MISDEAL,
            source=SRC_MISDEAL,
        )
    if first_turn and not rules.first_turn_bonus:
        return Line(
            label=msg("went out concealed on the first turn: no concealed bonus either"),
            points=0,
            rule=N_("the concealed bonus is additional to the going-out bonus"),
            source="ruling",
            basis="ruling",
        )
    return Line(
        label=msg("went out concealed (side column, outside the race)"),
        points=rules.concealed_bonus,
        rule=N_("concealed bonus"),
        source=cite.source,
        basis=cite.basis,
    )


def score_hand(rules: OklahomaRules, melds: object, held: object) -> PlayerDeal:
    """One player's melds and cards left in hand scored alone, as when the stock runs out (no bonus):
    each meld checked as in a deal, the pack's limits within the hand. Raises RecordInvalid with
    every error (no deal, no player; fields ``melds[i]``, ``held``)."""
    errors: list[RecordError] = []
    report = Report(None, errors)
    hand = _Hand([], [])
    entered_cards: list[tuple[str | None, str]] = []
    _check_melds(rules, None, "", melds, report, hand, entered_cards)
    _check_held(rules, None, "", held, report, hand, entered_cards)
    _check_pack(rules, entered_cards, report)
    if errors:
        raise RecordInvalid(errors)
    return _player_deal(hand, k8_held(rules))


def score_deal(rules: OklahomaRules, players: Sequence[str], deal: object, number: int = 1) -> dict[str, PlayerDeal]:
    """Validate and score one deal alone (no running totals); raise RecordInvalid with every error."""
    errors: list[RecordError] = []
    players = tuple(players)
    parsed = _check_deal(rules, players, deal, number, errors)
    if errors or parsed is None:
        raise RecordInvalid(errors)
    return _score_deal(rules, players, parsed)


# --------------------------------------------------------------------------------------------
# The game, one deal at a time.


def _players_errors(rules: OklahomaRules, players: tuple[str, ...], first_dealer: str | None) -> list[RecordError]:
    """The same checks of the players as a whole record gets (record.check_header)."""
    errors = player_errors(players)
    if not errors:
        errors += player_count_errors(rules, players)
    errors += first_dealer_errors(players, first_dealer)
    return errors


def begin(rules: OklahomaRules, players: Sequence[str], first_dealer: str | None = None) -> Standing:
    """Where a game stands before its first deal; raise RecordInvalid if the players are not right."""
    players = tuple(players)
    errors = _players_errors(rules, players, first_dealer)
    if errors:
        raise RecordInvalid(errors)
    return _start(players, first_dealer)


def _start(players: tuple[str, ...], first_dealer: str | None) -> Standing:
    zeros = (0,) * len(players)
    dealer = players.index(first_dealer) if first_dealer is not None else None
    return Standing(deals=0, totals=zeros, side=zeros, dealer=dealer)


def _deal_errors(
    rules: OklahomaRules, players: tuple[str, ...], standing: Standing, deal: object, number: int
) -> tuple[_Deal | None, list[RecordError]]:
    """Check deal ``number`` played from ``standing``: its own errors, then whether the game had ended."""
    errors: list[RecordError] = []
    parsed = _check_deal(rules, players, deal, number, errors)
    if standing.ended_on is not None:
        assert standing.winner is not None
        winner = players[standing.winner]
        errors.append(
            RecordError(
                msg(
                    "the game ended on deal {deal} ({name} reached {target:,}): no deal follows it",
                    deal=standing.ended_on,
                    name=winner,
                    target=rules.target,
                ),
                rule=N_("end of the game"),
                source=rules.cite("target").source,
                deal=number,
            )
        )
    return parsed, errors


def play(
    rules: OklahomaRules, players: Sequence[str], standing: Standing, deal: object, number: int
) -> tuple[DealResult, Standing]:
    """Check and score deal ``number`` onto ``standing``; raise RecordInvalid with every error of the deal."""
    players = tuple(players)
    parsed, errors = _deal_errors(rules, players, standing, deal, number)
    if errors or parsed is None:
        raise RecordInvalid(errors)
    return _play(rules, players, standing, parsed, number)


def _play(
    rules: OklahomaRules, players: tuple[str, ...], standing: Standing, deal: _Deal, number: int
) -> tuple[DealResult, Standing]:
    scored = _score_deal(rules, players, deal)
    totals = tuple(total + scored[name].points for total, name in zip(standing.totals, players, strict=True))
    side = tuple(total + scored[name].side_points for total, name in zip(standing.side, players, strict=True))
    out = deal.out
    next_dealer = players.index(out) if out is not None else standing.dealer
    winner, ended = game_end(rules, players, totals)
    notes = _deal_notes(players, deal) + ended
    result = DealResult(
        number=number,
        outcome="out" if out is not None else "stock_out",
        multiplier=1,  # no multiplier in Oklahoma
        players=scored,
        totals_before=dict(zip(players, standing.totals, strict=True)),
        totals=dict(zip(players, totals, strict=True)),
        side=dict(zip(players, side, strict=True)),
        dealer=_name(players, standing.dealer),
        next_dealer=_name(players, next_dealer),
        notes=tuple(notes),
        actor=out,  # who went out
        winner=out,  # who won the hand
    )
    after = Standing(
        deals=standing.deals + 1,
        totals=totals,
        side=side,
        boxes=standing.boxes,
        dealer=next_dealer,
        ended_on=number if winner is not None else None,
        winner=winner,
    )
    return result, after


def _deal_notes(players: tuple[str, ...], deal: _Deal) -> list[Msg]:
    """What the engine decided and why: how the deal ended, the readings of unnamed wild cards."""
    notes: list[Msg] = []
    if deal.out is None:
        notes.append(msg("the stock ran out: nobody went out, no bonus (S0); the same dealer deals again (ruling)"))
        if deal.late_misdeal:
            notes.append(msg("a misdeal was found late, but nobody went out: there is no bonus to withhold (ruling)"))
    elif deal.first_turn and not deal.concealed_given:
        notes.append(
            msg(
                "{name} went out on the first turn: that is going out concealed, no meld can have been laid "
                "before it (RULES.md §1)",
                name=deal.out,
            )
        )
    for name in players:
        hand = deal.hands[name]
        if hand.split_note:
            notes.append(msg("{name}'s melded cards: {note}", name=name, note=hand.split_note))
        notes += [msg("{name}: {note}", name=name, note=check.note) for check in hand.melds if check.note]
    return notes


def _name(players: tuple[str, ...], seat: int | None) -> str | None:
    return players[seat] if seat is not None else None


def _winner(totals: tuple[int, ...], target: int) -> tuple[int | None, bool]:
    """(the winner's seat, tie at the top) once someone has reached the target."""
    top = max(totals)
    if top < target:
        return None, False
    leaders = [seat for seat, total in enumerate(totals) if total == top]
    if len(leaders) > 1:
        return None, True
    return leaders[0], False


def game_end(rules: OklahomaRules, players: Sequence[str], totals: tuple[int, ...]) -> tuple[int | None, list[Msg]]:
    """Whether the game ends with these totals (by seat), as after a deal with cards: the winner's
    seat (None: it goes on) and the notes saying why."""
    winner, tie = _winner(totals, rules.target)
    notes: list[Msg] = []
    if tie:
        notes.append(msg("an exact tie at the top on {total:,}: the game goes on (ruling)", total=max(totals)))
    if winner is not None:
        notes.append(
            msg(
                "{name} wins the game with {total:,} (target {target:,}; when several reach it the highest "
                "total wins — S0)",
                name=players[winner],
                total=totals[winner],
                target=rules.target,
            )
        )
    return winner, notes


def conclude(
    rules: OklahomaRules, players: Sequence[str], standing: Standing, deals: Sequence[DealResult]
) -> GameResult:
    """The game's result from its scored deals and where it stands after them."""
    players = tuple(players)
    final = None
    final_lines = None
    if standing.winner is not None:
        final_lines = {p: _final_lines(rules, standing, seat) for seat, p in enumerate(players)}
        final = {p: sum(line.points for line in lines) for p, lines in final_lines.items()}
    return GameResult(
        game=GAME,
        profile=rules.profile,
        players=players,
        deals=tuple(deals),
        totals=dict(zip(players, standing.totals, strict=True)),
        side=dict(zip(players, standing.side, strict=True)),
        state="finished" if standing.winner is not None else "in_progress",
        winner=_name(players, standing.winner),
        final=final,
        final_lines=final_lines,
        target=rules.target,
    )


def _final_lines(rules: OklahomaRules, standing: Standing, seat: int) -> tuple[Line, ...]:
    """A player's final tally: the running total, the side column, the game bonus to the winner."""
    lines = [
        Line(
            label=msg("running total"),
            points=standing.totals[seat],
            rule=N_("the running game score"),
            source="S0",
        )
    ]
    if standing.side[seat]:
        cite = rules.cite("concealed_bonus")
        lines.append(
            Line(
                label=msg("concealed bonuses (side column)"),
                points=standing.side[seat],
                rule=N_("the concealed bonus counts only in the final tally"),
                source=cite.source,
                basis=cite.basis,
            )
        )
    if seat == standing.winner:
        cite = rules.cite("game_bonus")
        lines.append(
            Line(
                label=msg("game bonus"),
                points=rules.game_bonus,
                rule=N_("the winner of the game"),
                source=cite.source,
                basis=cite.basis,
            )
        )
    return tuple(lines)


def score_game(
    rules: OklahomaRules, players: Sequence[str], deals: Sequence[object], first_dealer: str | None = None
) -> GameResult:
    """Score a whole game of Oklahoma; raise RecordInvalid with every error found.

    ``play`` folded from ``begin``; after a deal in error the later deals are still checked (their
    totals are unknown, so they are not scored).
    """
    players = tuple(players)
    errors = _players_errors(rules, players, first_dealer)
    if not isinstance(deals, (list, tuple)):
        errors.append(RecordError(msg("'deals' must be a list"), rule=FORMAT, source="RECORD.md", field="deals"))
    if errors:
        raise RecordInvalid(errors)
    standing = _start(players, first_dealer)
    results: list[DealResult] = []
    for number, deal in enumerate(deals, 1):
        parsed, deal_errors = _deal_errors(rules, players, standing, deal, number)
        if deal_errors or parsed is None:
            errors += deal_errors
        elif not errors:
            result, standing = _play(rules, players, standing, parsed, number)
            results.append(result)
    if errors:
        raise RecordInvalid(errors)
    return conclude(rules, players, standing, results)
