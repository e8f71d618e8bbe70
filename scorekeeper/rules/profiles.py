"""Rule profiles as data: every knob, its type, allowed values, default per profile and its source.

This is the one place that defines the rule sets of RULES.md. The engine, the web app's new-game
form and the rules pages all read it. A value a profile takes from its source text is cited as
"source"; a value the sources do not state is this project's reading and is cited as "ruling";
a value the table changed is cited as "house option".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, Literal, overload

from .errors import RecordError, RecordInvalid
from .messages import N_, Msg, msg

OKLAHOMA: Final = "oklahoma"
GIN: Final = "oklahoma-gin"
GAMES: tuple[str, ...] = (OKLAHOMA, GIN)
GAME_NAME_MESSAGES: Mapping[str, Msg] = MappingProxyType({OKLAHOMA: msg("Oklahoma"), GIN: msg("Oklahoma Gin")})
GAME_NAMES = {game: str(name) for game, name in GAME_NAME_MESSAGES.items()}

SOURCES: Mapping[str, str] = MappingProxyType(
    {
        "S0": N_("Oklahoma, book-style description (105 cards, to 1,000)"),
        "S1": N_("Laws of Oklahoma, Regency and Cavendish clubs of New York"),
        "S2": N_("Oklahoma Rummy (Oklahoma Gin), two players, to 200"),
        "S3": N_("Oklahoma Gin, German text (machine translation), to over 100"),
        "S4": N_("Oklahoma Gin for up to four players, penalty points"),
        "BO": N_("Bicycle's published Oklahoma Gin rules"),
        "PG": N_("pagat's Gin Rummy page"),
        "GC": N_("widely used modern tournament values"),
        # RULES.md cites these two for Hollywood scoring without saying which texts they are.
        "AR": N_("cited by RULES.md for Hollywood scoring (a first entry in the next column)"),
        "HW": N_("cited by RULES.md for Hollywood scoring"),
    }
)


@dataclass(frozen=True, slots=True)
class Citation:
    """Where a value comes from: ``source`` names it (e.g. "S1 law 12"); ``basis`` is
    "source", "ruling" or "option"."""

    source: str
    basis: str = "source"


@dataclass(frozen=True, slots=True)
class Setting:
    """A knob's default in one profile, with its citation and, for rulings, why."""

    value: Any
    source: str
    basis: str = "source"
    note: str = ""


@dataclass(frozen=True, slots=True)
class Knob:
    name: str
    type: type
    label: str
    description: str
    allowed: tuple[Any, ...] | None = None  # a closed list of values
    minimum: int | None = None  # for ints without a closed list
    maximum: int | None = None
    settings: Mapping[str, Setting] = MappingProxyType({})

    @property
    def type_name(self) -> str:
        return {bool: N_("boolean"), int: N_("integer"), str: N_("text")}[self.type]

    def allowed_text(self) -> str:
        if self.allowed is not None:
            return ", ".join(_show(v) for v in self.allowed)
        if self.type is bool:
            return "true, false"
        lo = "" if self.minimum is None else str(self.minimum)
        hi = "" if self.maximum is None else str(self.maximum)
        return f"{lo}–{hi}" if lo or hi else N_("any whole number")

    def check(self, value: Any) -> Msg | None:
        """None when ``value`` is allowed, else what is wrong with it."""
        return self._type_problem(value) or self._range_problem(value)

    def _type_problem(self, value: Any) -> Msg | None:
        name, shown = self.name, _show(value)
        if self.type is bool:
            if not isinstance(value, bool):
                return msg("'{name}' takes true or false, not {value}", name=name, value=shown)
        elif self.type is int:
            if isinstance(value, bool) or not isinstance(value, int):
                return msg("'{name}' takes a whole number, not {value}", name=name, value=shown)
        elif not isinstance(value, self.type):
            return msg("'{name}' takes {type}, not {value}", name=name, type=self.type_name, value=shown)
        return None

    def _range_problem(self, value: Any) -> Msg | None:
        name, shown = self.name, _show(value)
        if self.allowed is not None and value not in self.allowed:
            return msg(
                "'{name}' must be one of {allowed}, not {value}", name=name, allowed=self.allowed_text(), value=shown
            )
        if self.minimum is not None and value < self.minimum:
            return msg("'{name}' must be at least {least}, not {value}", name=name, least=self.minimum, value=shown)
        if self.maximum is not None and value > self.maximum:
            return msg("'{name}' must be at most {most}, not {value}", name=name, most=self.maximum, value=shown)
        return None


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"'{value}'"
    return str(value)


@dataclass(frozen=True, slots=True)
class Profile:
    game: str
    name: str
    title: str
    description: str
    source: str
    min_players: int = 2


def _s(value: Any, source: str, note: str = "") -> Setting:
    return Setting(value, source, "source", note)


def _r(value: Any, note: str) -> Setting:
    return Setting(value, "ruling", "ruling", note)


def _k(name: str, type_: type, label: str, description: str, settings: dict[str, Setting], **kw: Any) -> Knob:
    return Knob(name, type_, label, description, settings=MappingProxyType(settings), **kw)


PROFILES: Mapping[str, Mapping[str, Profile]] = MappingProxyType(
    {
        OKLAHOMA: MappingProxyType(
            {
                "laws": Profile(
                    OKLAHOMA,
                    "laws",
                    N_("Laws of Oklahoma"),
                    N_("The club laws (S1), with the gaps filled from the book description (S0)."),
                    "S1",
                ),
                "book": Profile(
                    OKLAHOMA,
                    "book",
                    N_("Book rules"),
                    N_("The book-style description (S0): bigger penalties, concealed bonus."),
                    "S0",
                ),
            }
        ),
        GIN: MappingProxyType(
            {
                "standard": Profile(
                    GIN, "standard", N_("Standard"), N_("Oklahoma Rummy (S2): two players to 200."), "S2"
                ),
                "classic": Profile(
                    GIN,
                    "classic",
                    N_("Classic"),
                    N_("Classic Gin values (pagat, Bicycle): to 150 with box bonuses."),
                    "PG, BO",
                ),
                "casino": Profile(GIN, "casino", N_("Casino"), N_("The German rules (S3): to more than 100."), "S3"),
                "party": Profile(
                    GIN,
                    "party",
                    N_("Party (2–4 players)"),
                    N_("Up to four players, penalty points, 7 cards each for 3–4 (S4)."),
                    "S4",
                ),
            }
        ),
    }
)

KNOBS: Mapping[str, tuple[Knob, ...]] = MappingProxyType(
    {
        OKLAHOMA: (
            _k(
                "max_players",
                int,
                N_("Most players"),
                N_("How many may play (at least 2)."),
                {"laws": _s(4, "S1 law 1"), "book": _s(5, "S0")},
                minimum=2,
                maximum=5,
            ),
            _k(
                "joker",
                bool,
                N_("Play with the Joker"),
                N_("The 105-card pack has one Joker; the Laws allow playing without it."),
                {"laws": _s(True, "S1 law 1"), "book": _s(True, "S0")},
            ),
            _k(
                "k8_in_hand",
                int,
                N_("K–8 left in hand"),
                N_("What a K, Q, J, 10, 9 or 8 left in hand costs (the Q♠ apart)."),
                {"laws": _s(-10, "S1 law 12"), "book": _s(-20, "S0")},
                allowed=(-10, -20),
            ),
            _k(
                "out_bonus",
                int,
                N_("Going-out bonus"),
                N_("Paid to the player who melds all his cards and discards."),
                {"laws": _s(100, "S1 law 10"), "book": _s(100, "S0")},
                minimum=0,
                maximum=1000,
            ),
            _k(
                "first_turn_bonus",
                bool,
                N_("Bonus for going out on the first turn"),
                N_("Whether the going-out bonus is paid to a player who goes out on his own first turn."),
                {
                    "laws": _s(True, "S1 law 10", N_("the Laws pay the bonus to whoever goes out")),
                    "book": _s(False, "S0"),
                },
            ),
            _k(
                "concealed_bonus",
                int,
                N_("Concealed bonus"),
                N_(
                    "Paid for going out without having melded before; kept in a side column outside the race "
                    "and added in the final tally."
                ),
                {
                    "laws": _r(0, N_("S1 is silent on a concealed bonus: law 10 pays the going-out bonus only")),
                    "book": _s(250, "S0"),
                },
                allowed=(0, 250),
            ),
            _k(
                "target",
                int,
                N_("Game target"),
                N_("The game ends with the deal on which someone reaches it."),
                {"laws": _r(1000, N_("the Laws give no target; taken from S0")), "book": _s(1000, "S0")},
                minimum=100,
                maximum=10000,
            ),
            _k(
                "game_bonus",
                int,
                N_("Game bonus"),
                N_("Paid to the winner of the game."),
                {"laws": _r(200, N_("the Laws give no game bonus; taken from S0")), "book": _s(200, "S0")},
                minimum=0,
                maximum=1000,
            ),
        ),
        GIN: (
            _k(
                "max_players",
                int,
                N_("Most players"),
                N_("Two players; the party game takes three or four (7 cards each)."),
                {"standard": _s(2, "S2"), "classic": _s(2, "PG"), "casino": _s(2, "S3"), "party": _s(4, "S4")},
                minimum=2,
                maximum=4,
            ),
            _k(
                "undercut_bonus",
                int,
                N_("Undercut bonus"),
                N_(
                    "Paid to a defender whose deadwood after layoffs is equal to or less than the knocker's "
                    "(party: charged to the knocker)."
                ),
                {
                    "standard": _s(25, "S2, Scoring 3"),
                    "classic": _s(10, "PG, BO"),
                    "casino": _s(10, "S3"),
                    "party": _s(25, "S4"),
                },
                minimum=0,
                maximum=100,
            ),
            _k(
                "gin_bonus",
                int,
                N_("Gin bonus"),
                N_("Paid for going gin, on top of the defender's whole deadwood."),
                {
                    "standard": _s(25, "S2, Scoring 2"),
                    "classic": _s(20, "PG, BO"),
                    "casino": _s(25, "S3"),
                    "party": _s(25, "S4"),
                },
                minimum=0,
                maximum=100,
            ),
            _k(
                "big_gin_bonus",
                int,
                N_("Big gin bonus"),
                N_("House option: all 11 cards melded without a discard. 0 = not played (a big gin scores as gin)."),
                {
                    p: _r(0, N_("a house option; off unless the table plays it (GC: 31)"))
                    for p in ("standard", "classic", "casino", "party")
                },
                minimum=0,
                maximum=100,
            ),
            _k(
                "spade_multiplier",
                int,
                N_("Spade upcard multiplier"),
                N_(
                    "Every point of a hand whose first upcard is a spade is multiplied, bonuses included "
                    "(3 = 'Double Oklahoma')."
                ),
                {
                    "standard": _s(2, "S2, Scoring 4"),
                    "classic": _s(2, "BO"),
                    "casino": _r(1, N_("S3 is silent on spades")),
                    "party": _r(1, N_("S4 is silent on spades")),
                },
                allowed=(1, 2, 3),
            ),
            _k(
                "target",
                int,
                N_("Game target"),
                N_("Points that win the game (party: penalty points that end it)."),
                {
                    "standard": _s(200, "S2, Scoring 5"),
                    "classic": _s(150, "PG"),
                    "casino": _s(100, "S3"),
                    "party": _r(100, N_("S4 gives no target; 100 penalty points end the game, lowest wins")),
                },
                minimum=10,
                maximum=1000,
            ),
            _k(
                "target_strict",
                bool,
                N_("Target must be exceeded"),
                N_("The target reads 'more than N': exactly N does not reach it."),
                {
                    "standard": _s(False, "S2"),
                    "classic": _s(False, "PG"),
                    "casino": _s(True, "S3"),
                    "party": _r(False, N_("reaching 100 penalty points ends the game")),
                },
            ),
            _k(
                "game_bonus",
                int,
                N_("Game bonus"),
                N_("Paid to the winner of the game."),
                {
                    "standard": _s(100, "S2, Scoring 5"),
                    "classic": _s(100, "PG"),
                    "casino": _s(0, "S3"),
                    "party": _s(0, "S4"),
                },
                minimum=0,
                maximum=500,
            ),
            _k(
                "box_bonus",
                int,
                N_("Box bonus"),
                N_("Added at the end of the game for each hand a player won."),
                {"standard": _s(0, "S2"), "classic": _s(20, "PG"), "casino": _s(0, "S3"), "party": _s(0, "S4")},
                minimum=0,
                maximum=100,
            ),
            _k(
                "shutout",
                bool,
                N_("Shutout doubles"),
                N_(
                    "House option: a game won with the loser on 0 or less doubles the winner's points from hands; "
                    "the box and game bonuses are added after, not doubled (GC)."
                ),
                {
                    p: _r(False, N_("a house option; off unless the table plays it (GC)"))
                    for p in ("standard", "classic", "casino", "party")
                },
            ),
            _k(
                "stock_out",
                str,
                N_("Stock down to two cards"),
                N_(
                    "'void': nobody knocked, the hand is void and the same dealer deals again (S3); "
                    "'reshuffle': the discard pile becomes a new stock (S4)."
                ),
                {
                    "standard": _r("void", N_("S2 is silent; S3's void hand")),
                    "classic": _s("void", "PG"),
                    "casino": _s("void", "S3"),
                    "party": _s("reshuffle", "S4"),
                },
                allowed=("void", "reshuffle"),
            ),
            _k(
                "layoffs",
                str,
                N_("Layoffs"),
                N_(
                    "'chained': a layoff may extend a run an earlier layoff extended; 'original': only onto the "
                    "knocker's melds as laid down."
                ),
                {
                    "standard": _s("chained", "S2, Gameplay 5"),
                    "classic": _s("chained", "PG"),
                    "casino": _r("chained", N_("S3 is silent")),
                    "party": _s("original", "S4"),
                },
                allowed=("chained", "original"),
            ),
            _k(
                "scoring",
                str,
                N_("Scoring"),
                N_(
                    "'winner': the hand's winner scores (two players); 'penalty': each loser takes penalty points, "
                    "lowest total wins."
                ),
                {
                    "standard": _s("winner", "S2"),
                    "classic": _s("winner", "PG"),
                    "casino": _s("winner", "S3"),
                    "party": _s("penalty", "S4"),
                },
                allowed=("winner", "penalty"),
            ),
            _k(
                "hollywood",
                bool,
                N_("Hollywood (three columns)"),
                N_(
                    "House option, two players: three games scored at once in three columns, "
                    "each to the target (AR, HW)."
                ),
                {
                    p: _r(False, N_("a house option; off unless the table plays it (AR, HW)"))
                    for p in ("standard", "classic", "casino", "party")
                },
            ),
        ),
    }
)


@dataclass(frozen=True, kw_only=True)
class Rules:
    """The rules a table plays: a profile's values with the table's house options applied.

    One typed attribute per knob of the game (``OklahomaRules``, ``GinRules``); ``values`` maps
    the knob names to them, ``cite`` says where each value comes from.
    """

    game: str
    profile: str
    overridden: frozenset[str]
    max_players: int
    target: int
    game_bonus: int
    target_strict: bool = False  # the target reads "more than N": exactly N does not reach it

    @property
    def min_players(self) -> int:
        return PROFILES[self.game][self.profile].min_players

    @property
    def penalty(self) -> bool:
        """Penalty points (lowest total wins) rather than points to the hand's winner."""
        return False

    def reached(self, total: int) -> bool:
        """Does a running total reach the target?"""
        return total > self.target if self.target_strict else total >= self.target

    @property
    def values(self) -> Mapping[str, Any]:
        """Every knob of the game with this table's value."""
        return MappingProxyType({k.name: getattr(self, k.name) for k in KNOBS[self.game]})

    def cite(self, name: str) -> Citation:
        """Where this table's value of knob ``name`` comes from."""
        if name in self.overridden:
            return Citation("house option", "option")
        setting = knob(self.game, name).settings[self.profile]
        return Citation(setting.source, setting.basis)

    def options(self) -> dict[str, Any]:
        """The house options: knobs whose value differs from the profile's."""
        return {name: getattr(self, name) for name in sorted(self.overridden)}


@dataclass(frozen=True, kw_only=True)
class OklahomaRules(Rules):
    joker: bool
    k8_in_hand: int
    out_bonus: int
    first_turn_bonus: bool
    concealed_bonus: int


@dataclass(frozen=True, kw_only=True)
class GinRules(Rules):
    undercut_bonus: int
    gin_bonus: int
    big_gin_bonus: int
    spade_multiplier: int
    box_bonus: int
    shutout: bool
    stock_out: str
    layoffs: str
    scoring: str
    hollywood: bool = False

    @property
    def penalty(self) -> bool:
        return self.scoring == "penalty"


RULES_CLASS: Mapping[str, type[Rules]] = MappingProxyType({OKLAHOMA: OklahomaRules, GIN: GinRules})


def knobs(game: str) -> tuple[Knob, ...]:
    return KNOBS[game]


def knob(game: str, name: str) -> Knob:
    for k in KNOBS[game]:
        if k.name == name:
            return k
    raise KeyError(name)


def option_values(game: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """The house options a form gives (each knob's field by the knob's name: as text, or as the
    form cleaned it; blank: the profile's value), with the engine's types. Text that is no number
    stays text for an integer knob: the engine then says what is wrong with it."""
    out: dict[str, Any] = {}
    for k in KNOBS[game]:
        raw = given.get(k.name)
        if raw is None or str(raw).strip() == "":
            continue
        text = str(raw).strip()
        if k.type is bool:
            out[k.name] = raw is True or text == "true"
        elif k.type is int and re.fullmatch(r"-?\d{1,9}", text):
            out[k.name] = int(text)
        else:
            out[k.name] = raw
    return out


def defaults(game: str, profile: str) -> dict[str, Any]:
    return {k.name: k.settings[profile].value for k in KNOBS[game]}


@overload
def resolve(game: Literal["oklahoma"], profile: str, options: Mapping[str, Any] | None = None) -> OklahomaRules: ...
@overload
def resolve(game: Literal["oklahoma-gin"], profile: str, options: Mapping[str, Any] | None = None) -> GinRules: ...
@overload
def resolve(game: str, profile: str, options: Mapping[str, Any] | None = None) -> Rules: ...
def resolve(game: str, profile: str, options: Mapping[str, Any] | None = None) -> Rules:
    """The Rules for ``game`` under ``profile`` with ``options`` overriding single knobs.

    Raises RecordInvalid naming every unknown game, profile, knob or value not allowed.
    """
    _check_game_and_profile(game, profile)
    if options is not None and not isinstance(options, Mapping):
        raise RecordInvalid(
            [
                RecordError(
                    msg("'rules.options' must be an object of knob names and values"),
                    rule="options",
                    source="RECORD.md",
                    field="rules.options",
                )
            ]
        )
    values = defaults(game, profile)
    errors: list[RecordError] = []
    overridden: set[str] = set()
    for name, value in (options or {}).items():
        problem = _option_problem(game, profile, name, value)
        if problem is not None:
            errors.append(problem)
            continue
        if value != values[name]:
            overridden.add(name)
        values[name] = value
    if errors:
        raise RecordInvalid(errors)
    return RULES_CLASS[game](game=game, profile=profile, overridden=frozenset(overridden), **values)


def _check_game_and_profile(game: str, profile: str) -> None:
    if game not in PROFILES:
        raise RecordInvalid(
            [
                RecordError(
                    msg("unknown game '{game}': the game is 'oklahoma' or 'oklahoma-gin'", game=game),
                    rule="game",
                    source="RECORD.md",
                    field="game",
                )
            ]
        )
    if profile not in PROFILES[game]:
        names = ", ".join(PROFILES[game])
        raise RecordInvalid(
            [
                RecordError(
                    msg(
                        "unknown profile '{profile}' for {game}: choose one of {names}",
                        profile=profile,
                        game=GAME_NAME_MESSAGES[game],
                        names=names,
                    ),
                    rule="profile",
                    source="RECORD.md",
                    field="rules.profile",
                )
            ]
        )


def _option_problem(game: str, profile: str, name: str, value: Any) -> RecordError | None:
    """What is wrong with a house option (None: it may be played)."""
    field = f"rules.options.{name}"
    try:
        k = knob(game, name)
    except KeyError:
        known = ", ".join(k.name for k in KNOBS[game])
        return RecordError(
            msg(
                "unknown rule option '{name}' for {game}: the options are {known}",
                name=name,
                game=GAME_NAME_MESSAGES[game],
                known=known,
            ),
            rule="options",
            source="RECORD.md",
            field=field,
        )
    problem = k.check(value)
    if problem:
        return RecordError(problem, rule="options", source="RECORD.md", field=field)
    least = PROFILES[game][profile].min_players
    if name == "max_players" and value < least:
        return RecordError(
            msg("'max_players' must be at least {least}", least=least), rule="options", source="RECORD.md", field=field
        )
    return None
