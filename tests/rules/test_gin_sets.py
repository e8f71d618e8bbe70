"""Oklahoma Gin hands holding ranks three or four times (sets competing with runs, two or three
such ranks) against the brute force of tests/rules/gin_reference.py; and a record in any accepted
spelling of its cards scores as in the usual one."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import gin_search as search
from scorekeeper.rules import record
from tests.rules import gin_reference as ref


def test_a_record_in_any_spelling_scores_as_in_the_usual_one():
    def rec(ann: list[str], ben: list[str]) -> dict:
        return {
            "format": "oklahoma-scorekeeper/1",
            "game": "oklahoma-gin",
            "rules": {"profile": "standard"},
            "players": ["Ann", "Ben"],
            "deals": [{"upcard": "t♥", "knocker": "Ann", "hands": {"Ann": {"cards": ann}, "Ben": {"cards": ben}}}],
        }

    usual = ["5H", "6H", "7H", "QS", "QD", "QC", "2C", "3C", "4C", "6S", "KD"]
    other = ["5♥", "6h", " 7 H", "q♤", "QD", "Qc", "2♣", "3c", "4C", "6s", "k♦"]
    ben = ["AD", "2D", "3D", "8S", "8D", "8C", "KH", "JH", "10D", "9S"]
    assert record.result_json(record.score_record(rec(usual, ben))) == record.result_json(
        record.score_record(rec(other, ben))
    )


@st.composite
def set_hands(draw: st.DrawFn, n: int) -> int:
    """A hand of ``n`` cards holding one, two or three ranks three or four times (often next to
    each other: sets and runs competing), the rest random or from neighbouring ranks."""
    ranks = draw(st.lists(st.integers(0, 12), min_size=1, max_size=3, unique=True))
    picks: set[int] = set()
    for r in ranks:
        suits = draw(st.sampled_from([(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3), (0, 1, 2, 3)]))
        picks.update(13 * s + r for s in suits)
    assume(len(picks) <= n)
    lo = min(max(min(ranks) - 2, 0), 7)
    near = [s * 13 + r for s in range(4) for r in range(lo, lo + 6) if s * 13 + r not in picks]
    pool = near if draw(st.booleans()) and len(near) >= n - len(picks) else [i for i in range(52) if i not in picks]
    more = draw(st.lists(st.sampled_from(pool), min_size=n - len(picks), max_size=n - len(picks), unique=True))
    return search.mask_of([*picks, *more])


def any_hands(n: int) -> st.SearchStrategy[int]:
    pool = st.one_of(
        st.just(list(range(52))),
        st.integers(0, 7).map(lambda lo: [s * 13 + r for s in range(4) for r in range(lo, lo + 6)]),
    )
    random_or_clustered = pool.flatmap(lambda p: st.lists(st.sampled_from(p), min_size=n, max_size=n, unique=True))
    return st.one_of(random_or_clustered.map(search.mask_of), set_hands(n))


@settings(max_examples=400, deadline=None)
@given(st.sampled_from((10, 11, 12)).flatmap(any_hands))
def test_hands_with_sets_match_the_brute_force(mask):
    least = ref.least_deadwood(ref.from_mask(mask))
    assert search.best_deadwood(mask) == least
    points, melds, dead = search.best_arrangement(mask)
    assert points == least == search.hand_points(dead)
    assert all(search.meld_kind(m) for m in melds)
    assert sum(melds) + dead == mask  # the melds and the deadwood share no card and hold every card
    discard = ref.least_deadwood_discard(ref.from_mask(mask))
    assert search.best_deadwood_discard(mask) == discard
    points, melds, dead, card = search.best_arrangement_discard(mask)
    assert card is not None
    assert points == discard == search.hand_points(dead)
    assert sum(melds) + dead + (1 << card) == mask
