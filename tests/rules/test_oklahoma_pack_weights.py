"""The pack's limits counted at once (``oklahoma_melds.within_the_pack``, the quick deal check's
count) agree with counting each card: two of each card at most, one Joker, on many random lists
of cards, near the limits and far past them."""

from __future__ import annotations

import random
from collections import Counter

from scorekeeper.rules import oklahoma_melds
from scorekeeper.rules.cards import JOKER, PACK_52
from scorekeeper.rules.oklahoma_melds import PACK_WEIGHT, within_the_pack

LABELS = [card.label for card in (*PACK_52, JOKER)]


def _counted(labels: list[str]) -> bool:
    counts = Counter(labels)
    return counts["JK"] <= 1 and all(k <= 2 for k in counts.values())


def _weighed(labels: list[str]) -> bool:
    return within_the_pack(sum(PACK_WEIGHT[label] for label in labels), len(labels))


def test_every_card_has_a_weight_and_the_entered_cards_carry_it():
    assert sorted(PACK_WEIGHT) == sorted(LABELS)
    for label in LABELS:
        code = "JK" if label == "JK" else label[:-1] + "SHDC"["♠♥♦♣".index(label[-1])]
        assert oklahoma_melds.entered(code).weight == PACK_WEIGHT[label]
        assert oklahoma_melds.entered(code.lower()).weight == PACK_WEIGHT[label]


def test_the_whole_pack_and_one_card_more():
    pack = [label for label in LABELS for _ in range(1 if label == "JK" else 2)]
    assert len(pack) == oklahoma_melds.PACK_SIZE
    assert _weighed(pack) and _counted(pack)
    for label in LABELS:
        assert not _weighed([*pack, label])


def test_random_lists_of_cards():
    rng = random.Random(20261125)
    seen: Counter[bool] = Counter()
    for _ in range(20000):
        roll = rng.random()
        if roll < 0.4:  # a deal's worth, from two packs and a Joker, maybe a card too many
            pack = [label for label in LABELS for _ in range(1 if label == "JK" else 2)]
            labels = rng.sample(pack, rng.randint(0, 60))
            for _ in range(rng.choice([0, 0, 1, 2])):
                labels.insert(rng.randrange(len(labels) + 1), rng.choice(LABELS))
        elif roll < 0.8:  # few kinds of card, many times over
            kinds = rng.sample(LABELS, rng.randint(1, 4))
            labels = [rng.choice(kinds) for _ in range(rng.randint(0, 12))]
        else:  # anything, up to far more cards than the pack
            labels = [rng.choice(LABELS) for _ in range(rng.choice([rng.randint(0, 40), rng.randint(100, 700)]))]
        rng.shuffle(labels)
        expected = _counted(labels)
        assert _weighed(labels) == expected, labels
        seen[expected] += 1
    assert seen[True] > 3000 and seen[False] > 3000, seen
