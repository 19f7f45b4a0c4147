"""The K of `sigmoid(K * score)` that best predicts game results from an
engine's scores: shared by `pgn_to_data.py` and `uci_label.py`, whose
`--fit-k` prints it so that another engine's scores can be put on Shears'
scale (the ratio of the two K's)."""

import math


def fit_k(pairs):
    """The K closest to the results over (score in cp, result 0/0.5/1) pairs (least squares)."""

    def loss(k):
        return sum((r - 1 / (1 + math.exp(-k * s))) ** 2 for s, r in pairs)

    lo, hi = 0.0005, 0.05
    for _ in range(60):
        a, b = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        if loss(a) < loss(b):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2
