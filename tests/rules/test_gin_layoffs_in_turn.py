"""Three or four players: the defenders lay off in seat order after the knocker (RULES.md §2).

Under ``chained`` a later defender may extend a run an earlier defender's layoff extended, and an
earlier defender with equally good choices takes the one leaving the later defenders the least
deadwood (ruling); under ``original`` everyone lays off onto the knocker's melds as laid down."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import gin_search as search
from scorekeeper.rules import record
from scorekeeper.rules.cards import parse_card
from tests.rules import gin_reference as ref


def hand(text: str) -> int:
    return search.mask_of(parse_card(t).index for t in text.split())


def cards_of(mask: int) -> set[str]:
    from scorekeeper.rules.cards import CARD_BY_INDEX

    return {CARD_BY_INDEX[i].code for i in search.bits_of(mask)}


@st.composite
def tables(draw: st.DrawFn) -> tuple[tuple[int, ...], list[int]]:
    """The knocker's melds (his best arrangement of 7 or 8 cards drawn from six neighbouring
    ranks) and two or three defenders' 7 cards, often near his."""
    lo = draw(st.integers(0, 7))
    near = [s * 13 + r for s in range(4) for r in range(lo, lo + 6)]
    knock = search.mask_of(draw(st.lists(st.sampled_from(near), min_size=7, max_size=8, unique=True)))
    _, melds, _ = search.best_arrangement(knock)
    rest = [i for i in range(52) if not knock >> i & 1]
    close = [i for i in rest if lo - 2 <= i % 13 < lo + 8]
    pool = close if len(close) >= 21 and draw(st.booleans()) else rest
    count = draw(st.sampled_from((2, 3)))
    picks = draw(st.lists(st.sampled_from(pool), min_size=7 * count, max_size=7 * count, unique=True))
    return melds, [search.mask_of(picks[7 * k : 7 * k + 7]) for k in range(count)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.booleans())
def test_defenders_in_turn_match_the_brute_force(table, chained):
    melds, defenders = table
    plays = search.defenders_in_turn(defenders, melds, chained)
    want = ref.defenders_least([ref.from_mask(h) for h in defenders], [ref.from_mask(m) for m in melds], chained)
    assert tuple(p[0] for p in plays) == want
    grown = melds
    for h, (points, own, laid_off, dead) in zip(defenders, plays, strict=True):
        covered = 0
        for m in own:
            assert search.meld_kind(m) and not covered & m
            covered |= m
        assert covered | laid_off | dead == h and not (covered & laid_off or laid_off & dead or covered & dead)
        assert search.hand_points(dead) == points
        # what he lays off can be laid off onto the melds as the defenders before him left them
        assert search.layoff_closure(laid_off | dead, grown if chained else melds, chained) & laid_off == laid_off
        if chained:
            grown = search.grown_melds(grown, laid_off)


def test_a_later_defender_extends_a_run_an_earlier_defender_extended():
    # S4's example turned round: the knocker's 7-8-9♥; the next player lays off 6♥, the third 5♥.
    melds = (hand("7H 8H 9H"), hand("KS KH KD"))
    ben, cleo = hand("6H 2S 3S 4S QC JC 9C"), hand("5H AD 2D 3D 10C 8C 4C")
    chained = search.defenders_in_turn([ben, cleo], melds, True)
    assert cards_of(chained[0][2]) == {"6H"} and cards_of(chained[1][2]) == {"5H"}
    assert [p[0] for p in chained] == [10 + 10 + 9, 10 + 8 + 4]
    # original: only onto the knocker's melds as laid down, 5♥ stays
    original = search.defenders_in_turn([ben, cleo], melds, False)
    assert cards_of(original[1][2]) == set() and original[1][0] == 5 + 22


def test_an_earlier_defender_with_equal_choices_leaves_the_later_ones_the_least():
    # Ben holds all four 8s: 8♠ 8♦ 8♣ and 8♥ laid off on 5-6-7♥, or the four as his own set: 0
    # either way. Laying off 8♥ lets Cleo lay off 9♥ (ruling).
    melds = (hand("5H 6H 7H"), hand("QS QH QD"))
    ben, cleo = hand("8S 8H 8D 8C 2S 3S 4S"), hand("9H AC 2C 3C KD KC KH")
    plays = search.defenders_in_turn([ben, cleo], melds, True)
    assert plays[0][0] == 0 and cards_of(plays[0][2]) == {"8H"}
    assert cards_of(plays[1][2]) == {"9H"} and plays[1][0] == 0
    # each on his own (two separate two-player hands) Cleo would keep 9♥
    assert search.defender_best(cleo, melds, True)[0] == 9


def _party(layoffs: str) -> dict:
    return {
        "format": "oklahoma-scorekeeper/1",
        "game": "oklahoma-gin",
        "rules": {"profile": "party", "options": {"layoffs": layoffs}},
        "players": ["Ann", "Ben", "Cleo"],
        "deals": [
            {
                "upcard": "9D",
                "knocker": "Ann",
                "hands": {
                    "Ann": {"melds": [["7H", "8H", "9H"], ["KS", "KH", "KD"]], "deadwood": ["AC"]},
                    "Ben": {"cards": ["6H", "2S", "3S", "4S", "QC", "JC", "9C"]},
                    "Cleo": {"cards": ["5H", "AD", "2D", "3D", "10C", "8C", "4C"]},
                },
            }
        ],
    }


def test_scored_deal_chains_through_the_earlier_defender():
    [deal] = record.score_record(_party("chained")).deals
    assert deal.players["Ben"].layoffs == ("6♥",) and deal.players["Cleo"].layoffs == ("5♥",)
    # Ann knocks with A♣ = 1: Ben 29 − 1, Cleo 22 − 1 (penalty points)
    assert deal.outcome == "knock" and deal.players["Ben"].points == 28
    assert deal.players["Cleo"].deadwood_points == 22 and deal.players["Cleo"].points == 21
    assert any("seat order" in n and "ruling" in n for n in map(str, deal.notes))
    assert not any("builds only on" in n for n in map(str, deal.notes))
    [deal] = record.score_record(_party("original")).deals
    assert deal.players["Cleo"].layoffs == () and deal.players["Cleo"].points == 27 - 1
