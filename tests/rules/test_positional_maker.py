"""``results.positional_maker``: the quick constructor of the engine's frozen slots dataclasses
makes the very object the class's own constructor makes: of the class itself, equal, frozen, with
the same hash, fields, size, pickling and replacement; and it refuses a class it cannot make."""

from __future__ import annotations

import copy
import dataclasses
import gc
import pickle
import random
import sys

import pytest

from scorekeeper.rules import oklahoma, oklahoma_melds, results
from scorekeeper.rules.results import positional_maker

MAKERS = [
    (results.Line, results.make_line),
    (results.PlayerDeal, results.make_player_deal),
    (results.DealResult, results.make_deal_result),
    (results.Standing, results.make_standing),
    (oklahoma_melds.MeldCheck, oklahoma_melds._make_meld_check),
    (oklahoma._Deal, oklahoma._make_deal),
]


def _value(rng: random.Random) -> object:
    return rng.choice(
        [
            None,
            0,
            rng.randint(-500, 500),
            True,
            "",
            "7♥ melded",
            (),
            (1, 2, 3),
            ("a", "b"),
            (results.Line("x", 5, "r", "s"),),
        ]
    )


@pytest.mark.parametrize(("cls", "make"), MAKERS, ids=[cls.__name__ for cls, _ in MAKERS])
def test_the_maker_makes_what_the_class_makes(cls, make):
    rng = random.Random(cls.__name__)
    names = [f.name for f in dataclasses.fields(cls)]
    for _ in range(300):
        values = [_value(rng) for _ in names]
        made = make(*values)
        own = cls(*values)
        assert type(made) is cls
        assert made == own and own == made
        assert repr(made) == repr(own)
        assert [getattr(made, name) for name in names] == values
        assert all(getattr(made, name) is value for name, value in zip(names, values, strict=True))
        assert sys.getsizeof(made) == sys.getsizeof(own)
        assert gc.is_tracked(made) == gc.is_tracked(own)
        assert hash(made) == hash(own)
        assert pickle.loads(pickle.dumps(made)) == own
        assert copy.copy(made) == own
        assert dataclasses.replace(made) == own
        assert dataclasses.astuple(made) == dataclasses.astuple(own)
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(made, names[0], 1)
        assert not hasattr(made, "__dict__")


def test_the_maker_refuses_a_class_it_cannot_make():
    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Base:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Derived(Base):
        b: int

    @dataclasses.dataclass(frozen=True, slots=True, weakref_slot=True)
    class Weak:
        a: int

    for cls in (NoSlots, Derived, Weak):
        with pytest.raises(TypeError):
            positional_maker(cls)
    assert positional_maker(Base)(3) == Base(3)
