"""Whole random Gin deals: invariants of the scoring, checked against the brute force."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import gin, profiles
from scorekeeper.rules import gin_search as gf
from scorekeeper.rules.cards import CARD_BY_INDEX, parse_card
from tests.rules import gin_reference as ref


def codes(mask: int) -> list[str]:
    return [CARD_BY_INDEX[i].code for i in gf.bits_of(mask)]


@st.composite
def deals(draw, players: int = 2):
    """A deal where the knocker's best arrangement is within a 10 (K upcard) limit."""
    seed = draw(st.integers(0, 2**32 - 1))
    rnd = random.Random(seed)
    n = 10 if players == 2 else 7
    lo = rnd.randint(0, 7)
    near = [s * 13 + r for s in range(4) for r in range(lo, lo + 6)]
    extra = draw(st.booleans())
    knock = gf.mask_of(rnd.sample(near, n + (1 if extra else 0)))
    rest = [i for i in range(52) if not knock >> i & 1]
    rnd.shuffle(rest)
    # defenders from cards near the knocker's (more layoffs) or anywhere
    if draw(st.booleans()):
        rest.sort(key=lambda i: (abs(i % 13 - lo - 3), rnd.random()))
    hands = [knock]
    for _ in range(players - 1):
        hands.append(gf.mask_of(rest[:n]))
        rest = rest[n:]
    return hands, draw(st.sampled_from("SHDC")), extra


def score(profile: str, names, hands, upcard, options=None):
    rules = profiles.resolve("oklahoma-gin", profile, options)
    assert isinstance(rules, profiles.GinRules)
    deal = {
        "upcard": upcard,
        "knocker": names[0],
        "hands": {name: {"cards": codes(h)} for name, h in zip(names, hands, strict=True)},
    }
    return gin.score_game(rules, tuple(names), [deal], None)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(deals(), st.sampled_from(["standard", "classic", "casino", "party"]))
def test_two_player_deal_invariants(deal, profile):
    hands, upcard, extra = deal
    knock = hands[0]
    kbest = gf.best_deadwood_discard(knock) if extra else gf.best_deadwood(knock)
    assume(kbest <= 10)
    upcard = "K" + upcard  # limit 10; the upcard may be in a hand
    names = ("Ann", "Ben")
    result = score(profile, names, hands, upcard)
    again = score(profile, names, hands, upcard)
    assert result == again
    d = result.deals[0]
    ann, ben = d.players["Ann"], d.players["Ben"]
    assert ann.deadwood_points == kbest
    for pd in (ann, ben):
        assert sum(x.points for x in pd.lines) == pd.points
    if kbest == 0:
        assert d.outcome == "gin" and ben.layoffs == ()
        assert ben.deadwood_points == gf.best_deadwood(hands[1])
    else:
        # layoffs never raise deadwood, and the defender's is the brute-force least
        assert ben.deadwood_points <= gf.best_deadwood(hands[1])
        kmelds = _melds_of(ann)
        chained = profile != "party"
        assert ben.deadwood_points == ref.defender_least(ref.from_mask(hands[1]), kmelds, chained)
        assert d.outcome == ("undercut" if ben.deadwood_points <= kbest else "knock")
    mult = 2 if upcard.endswith("S") and profile in ("standard", "classic") else 1
    assert d.multiplier == mult
    total = ann.points + ben.points
    if profile != "party":
        assert total % mult == 0 and (ann.points == 0 or ben.points == 0)


def _melds_of(pd) -> list[frozenset]:
    """The knocker's melds as printed, as brute-force cards."""
    return [frozenset((c.index // 13, c.rank) for c in map(parse_card, meld)) for meld in pd.melds]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(deals(players=3))
def test_party_deal_invariants(deal):
    hands, upcard, extra = deal
    kbest = gf.best_deadwood_discard(hands[0]) if extra else gf.best_deadwood(hands[0])
    assume(kbest <= 10)
    upcard = "Q" + upcard
    names = ("Ann", "Ben", "Cleo")
    result = score("party", names, hands, upcard)
    d = result.deals[0]
    assert result == score("party", names, hands, upcard)
    assert d.players["Ann"].deadwood_points == kbest
    for name, h in zip(names[1:], hands[1:], strict=True):
        pd = d.players[name]
        assert sum(x.points for x in pd.lines) == pd.points >= 0
        if kbest:
            assert pd.deadwood_points == ref.defender_least(ref.from_mask(h), _melds_of(d.players["Ann"]), False)
    if d.outcome == "knock":
        assert d.players["Ann"].points == 0
    if d.outcome == "undercut":
        assert d.players["Ann"].points >= 25
