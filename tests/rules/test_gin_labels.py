"""The printed cards of a mask: ``gin.labels`` (per-suit tables) and the table of every legal meld's
labels, against reading the mask bit by bit."""

from __future__ import annotations

import random

from scorekeeper.rules import gin
from scorekeeper.rules import gin_search as gf


def _slow_labels(mask: int) -> tuple[str, ...]:
    return tuple(gin.LABELS[i] for i in gf.bits_of(mask))


def test_labels_read_bit_by_bit():
    rnd = random.Random(3)
    masks = [0, (1 << 52) - 1, 1, 1 << 51, gf._COLUMN, gf._COLUMN << 12]
    masks += [gf.mask_of(rnd.sample(range(52), rnd.randint(0, 14))) for _ in range(5000)]
    for mask in masks:
        assert gin.labels(mask) == _slow_labels(mask), mask


def test_meld_labels_hold_every_legal_meld_and_nothing_else():
    table = gin._MELD_LABELS
    assert all(gf.meld_kind(m) for m in table)
    assert len(table) == 13 * 5 + 4 * sum(13 - length + 1 for length in range(3, 14))  # sets; runs of 3..13
    for m, printed in table.items():
        assert printed == _slow_labels(m)
