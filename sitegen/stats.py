"""Pure statistics. Every random draw takes its seed as an argument; nothing here reads a clock,
a global generator or the environment.

>>> import numpy as np
>>> lo, hi = percentile_bootstrap(np.array([60.0, 70.0, 80.0]), seed=1, resamples=1000)
>>> bool(lo <= 70.0 <= hi)
True
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Sequence

import numpy as np

RESAMPLES = 10_000
CONFIDENCE = 95.0


def _draw_indices(rng: np.random.Generator, n: int, resamples: int) -> np.ndarray:
    """rng.integers(0, n, size=(resamples, n)), the published formula, as int32.

    numpy draws a range below 2**32 with the same 32-bit generator whatever the output dtype,
    so these are the very indices the int64 default gives (tests/test_stats_draws.py checks
    it): half the memory, and about half the time of a bootstrap, which is mostly moving them."""
    dtype = np.int32 if n <= np.iinfo(np.int32).max else np.int64
    return rng.integers(0, n, size=(resamples, n), dtype=dtype)


def derive_seed(*parts: str) -> int:
    """seed = first 8 bytes (big-endian) of SHA-256 of the parts joined by '|', UTF-8.

    Canonic uses derive_seed(sweep_id, model_id, domain_id): a reader can reproduce any
    interval with hashlib and numpy alone.
    """
    digest = hashlib.sha256("|".join(parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")


def percentile_bootstrap(scores: np.ndarray, seed: int, resamples: int = RESAMPLES, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean, exactly as published::

        rng = numpy.random.default_rng(seed)
        idx = rng.integers(0, n, size=(resamples, n))
        numpy.percentile(scores[idx].mean(axis=1), [2.5, 97.5])
    """
    scores = np.asarray(scores, dtype=np.float64)
    n = scores.shape[0]
    if n == 0:
        raise ValueError("a bootstrap needs at least one score")
    rng = np.random.default_rng(seed)
    idx = _draw_indices(rng, n, resamples)
    means = scores.take(idx).mean(axis=1)  # = scores[idx], in half the time
    tail = (100.0 - confidence) / 2.0
    lo, hi = np.percentile(means, [tail, 100.0 - tail])
    return float(lo), float(hi)


@dataclass(frozen=True)
class Interval:
    key: str
    low: float
    high: float


def rank_bands(intervals: Sequence[Interval]) -> dict[str, int]:
    """Band number (1 = top) for each key: the connected components of the overlap graph of
    closed intervals (touching counts as overlap), numbered from the highest.

    On a line, the components are the runs of the union of the intervals, so one pass over
    the intervals sorted by upper end (descending) finds them: a new band starts when an
    interval ends strictly below the lowest point the current band reaches.

    >>> rank_bands([Interval("a", 70, 80), Interval("b", 60, 70), Interval("c", 40, 50)])
    {'a': 1, 'b': 1, 'c': 2}
    """
    order = sorted(intervals, key=lambda iv: (-iv.high, -iv.low, iv.key))
    bands: dict[str, int] = {}
    band, reach = 0, float("inf")
    for iv in order:
        if band == 0 or iv.high < reach:
            band += 1
            reach = iv.low
        else:
            reach = min(reach, iv.low)
        bands[iv.key] = band
    return bands


def difference_bootstrap(a: np.ndarray, b: np.ndarray, seed: int, resamples: int = RESAMPLES, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Percentile bootstrap interval of mean(a) - mean(b), each group resampled on its own::

        rng = numpy.random.default_rng(seed)
        ia = rng.integers(0, len(a), size=(resamples, len(a)))
        ib = rng.integers(0, len(b), size=(resamples, len(b)))
        numpy.percentile(a[ia].mean(axis=1) - b[ib].mean(axis=1), [2.5, 97.5])
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if len(a) == 0 or len(b) == 0:
        raise ValueError("a difference bootstrap needs at least one score in each group")
    rng = np.random.default_rng(seed)
    ia = _draw_indices(rng, len(a), resamples)
    ib = _draw_indices(rng, len(b), resamples)
    tail = (100.0 - confidence) / 2.0
    lo, hi = np.percentile(a.take(ia).mean(axis=1) - b.take(ib).mean(axis=1), [tail, 100.0 - tail])  # take = a[ia], faster
    return float(lo), float(hi)


def average_ranks(values: Sequence[float]) -> list[float]:
    """Ranks 1..n, ties sharing the mean of the ranks they span.

    >>> average_ranks([10, 20, 20, 30])
    [1.0, 2.5, 2.5, 4.0]
    """
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2.0 + 1.0
        i = j + 1
    return ranks


def spearman_rho(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Spearman's rank correlation: Pearson's r of the average ranks. None when it is not
    defined (fewer than two pairs, or no variation in either ranking).

    >>> spearman_rho([1, 2, 3, 4], [10, 30, 20, 40])
    0.8
    """
    if len(x) != len(y):
        raise ValueError("x and y must pair up")
    if len(x) < 2:
        return None
    rx, ry = np.array(average_ranks(x)), np.array(average_ranks(y))
    dx, dy = rx - rx.mean(), ry - ry.mean()
    denom = float(np.sqrt((dx * dx).sum() * (dy * dy).sum()))
    if denom == 0.0:
        return None
    return round(float((dx * dy).sum()) / denom, 12)
