"""Pure statistics. Every random draw takes its seed as an argument; nothing here reads a clock,
a global generator or the environment.

>>> import numpy as np
>>> lo, hi = percentile_bootstrap(np.array([60.0, 70.0, 80.0]), seed=1, resamples=1000)
>>> bool(lo <= 70.0 <= hi)
True
"""

from __future__ import annotations

import bisect
import hashlib
import threading
from dataclasses import dataclass
from typing import Callable, Sequence

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


_scratch = threading.local()  # each thread's array the resampled scores are taken into (_resampled)


def _resampled(scores: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """scores[idx], into an array this thread reuses, valid until its next call.

    A bootstrap's resampled scores are 10,000 x n floats (2.5 MB for 32 scores): a fresh array
    each time costs the allocator a new mapping and the kernel its page faults, which took longer
    than the arithmetic on them (2.4 ms a bootstrap of 32 scores as a fresh array, 1.4 ms into a
    reused one). mode="clip" changes no value (every index is in range): with "raise", the
    default, numpy copies through a buffer of its own when given `out`."""
    size = idx.size
    buf = getattr(_scratch, "buf", None)
    if buf is None or buf.size < size:
        buf = _scratch.buf = np.empty(size, dtype=np.float64)
    return scores.take(idx, out=buf[:size].reshape(idx.shape), mode="clip")


def derive_seed(*parts: str) -> int:
    """seed = first 8 bytes (big-endian) of SHA-256 of the parts joined by '|', UTF-8.

    Canonic uses derive_seed(sweep_id, model_id, domain_id): a reader can reproduce any
    interval with hashlib and numpy alone.
    """
    digest = hashlib.sha256("|".join(parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")


def percentile_bootstrap(scores: np.ndarray, seed: int, resamples: int = RESAMPLES, confidence: float = CONFIDENCE,
                         statistic: Callable[..., np.ndarray] = np.mean) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean (or of another statistic, such as
    numpy.median), exactly as published::

        rng = numpy.random.default_rng(seed)
        idx = rng.integers(0, n, size=(resamples, n))
        numpy.percentile(numpy.mean(scores[idx], axis=1), [2.5, 97.5])
    """
    scores = np.asarray(scores, dtype=np.float64)
    n = scores.shape[0]
    if n == 0:
        raise ValueError("a bootstrap needs at least one score")
    rng = np.random.default_rng(seed)
    idx = _draw_indices(rng, n, resamples)
    values = statistic(_resampled(scores, idx), axis=1)
    tail = (100.0 - confidence) / 2.0
    lo, hi = np.percentile(values, [tail, 100.0 - tail])
    return float(lo), float(hi)


@dataclass(frozen=True)
class Interval:
    key: str
    low: float
    high: float


def rank_ranges(intervals: Sequence[Interval]) -> dict[str, tuple[int, int]]:
    """Each key's rank range (best, worst), 1 = top, by the pairwise rule on closed intervals:

    - best = 1 + the number of intervals wholly above this one (their low > its high);
    - worst = the number of intervals reaching its low (their high >= its low), itself included.

    Two overlapping intervals (touching counts) always get overlapping ranges, and an interval
    wholly above another gets a strictly better best and a strictly better worst. A chain of
    overlaps joins nothing: below, a and c do not overlap, and both may be second only because
    b spans the gap between them. The rows whose range starts at 1 are tied for first: each
    reaches the highest low end, so every two of them overlap. The ranges do not depend on the
    order of the input; the families list ranked rows by score, then by id.

    >>> rank_ranges([Interval("a", 70, 80), Interval("b", 60, 71), Interval("c", 65, 68), Interval("d", 40, 50)])
    {'a': (1, 2), 'b': (1, 3), 'c': (2, 3), 'd': (4, 4)}
    """
    # Two sorted lists and a bisection per row: the 100x boards hold thousands of rows.
    lows = sorted(iv.low for iv in intervals)
    highs = sorted(iv.high for iv in intervals)
    n = len(lows)
    return {iv.key: (1 + n - bisect.bisect_right(lows, iv.high), n - bisect.bisect_left(highs, iv.low)) for iv in intervals}


@dataclass(frozen=True)
class RankExample:
    """One row's rank range worked out: the intervals that fix its two ends."""

    row: Interval
    above: list[Interval]  # wholly above it (their low > its high): best = 1 + len(above)
    reaching: list[Interval]  # reaching its low (their high >= its low), itself included: worst = len(reaching)

    @property
    def rank_best(self) -> int:
        return 1 + len(self.above)

    @property
    def rank_worst(self) -> int:
        return len(self.reaching)


def rank_example(intervals: Sequence[Interval]) -> RankExample | None:
    """The row a method page works the rule through: the first, in the order given (by score),
    whose range neither starts at 1 nor is a single rank, so that both ends have rows to show;
    failing that the first whose range is not a single rank; failing that the first row.

    >>> ex = rank_example([Interval("a", 70, 80), Interval("b", 60, 71), Interval("c", 65, 68), Interval("d", 40, 50)])
    >>> ex.row.key, [iv.key for iv in ex.above], [iv.key for iv in ex.reaching]
    ('c', ['a'], ['a', 'b', 'c'])
    """
    if not intervals:
        return None
    ranks = rank_ranges(intervals)
    order = ([iv for iv in intervals if 1 < ranks[iv.key][0] < ranks[iv.key][1]]
             + [iv for iv in intervals if ranks[iv.key][0] < ranks[iv.key][1]] + list(intervals))
    row = order[0]
    return RankExample(row, [iv for iv in intervals if iv.low > row.high], [iv for iv in intervals if iv.high >= row.low])


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
    means_a = _resampled(a, ia).mean(axis=1)  # a new array: the next _resampled reuses the scratch
    lo, hi = np.percentile(means_a - _resampled(b, ib).mean(axis=1), [tail, 100.0 - tail])
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


def spearman_bootstrap(before: np.ndarray, after: np.ndarray, seed: int, resamples: int = RESAMPLES,
                       confidence: float = CONFIDENCE) -> tuple[float, float] | None:
    """Percentile bootstrap interval of Spearman's rho between two readings of the same models
    on the same prompts: BEFORE and AFTER are (prompts x models) arrays of prompt scores. Each
    resample draws prompts (the same draw for both readings and every model), takes each
    model's mean over them in each reading, and correlates the two rankings::

        rng = numpy.random.default_rng(seed)
        idx = rng.integers(0, n_prompts, size=(resamples, n_prompts))
        rho of (before[idx].mean(axis=1), after[idx].mean(axis=1)), row by row; percentiles

    A draw whose ranking has no variation (every model tied) has no rho and is left out; None
    when no draw has one."""
    before, after = np.asarray(before, dtype=np.float64), np.asarray(after, dtype=np.float64)
    n = before.shape[0]
    if n == 0 or before.shape != after.shape or before.shape[1] < 2:
        raise ValueError("a rank-correlation bootstrap needs paired prompts x models arrays of two models or more")
    rng = np.random.default_rng(seed)
    idx = _draw_indices(rng, n, resamples)
    rhos = np.concatenate([_row_rho(before[chunk].mean(axis=1), after[chunk].mean(axis=1)) for chunk in np.array_split(idx, 10)])
    rhos = rhos[np.isfinite(rhos)]
    if rhos.size == 0:
        return None
    tail = (100.0 - confidence) / 2.0
    lo, hi = np.percentile(rhos, [tail, 100.0 - tail])
    return float(lo), float(hi)


def _row_rho(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Spearman's rho of each row of X with the same row of Y (average ranks for ties, as
    spearman_rho; nan where a row has no variation)."""
    rx, ry = _row_ranks(x), _row_ranks(y)
    dx, dy = rx - rx.mean(axis=1, keepdims=True), ry - ry.mean(axis=1, keepdims=True)
    denom = np.sqrt((dx * dx).sum(axis=1) * (dy * dy).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denom > 0, (dx * dy).sum(axis=1) / np.where(denom > 0, denom, 1.0), np.nan)


def _row_ranks(x: np.ndarray) -> np.ndarray:
    """Ranks 1..m within each row; a row holding ties takes average_ranks' (rare: means of scores)."""
    ranks = np.empty_like(x)
    order = np.argsort(x, axis=1, kind="stable")
    np.put_along_axis(ranks, order, np.arange(1, x.shape[1] + 1, dtype=np.float64)[None, :].repeat(x.shape[0], axis=0), axis=1)
    tied = (np.diff(np.take_along_axis(x, order, axis=1), axis=1) == 0).any(axis=1)
    for r in np.flatnonzero(tied):
        ranks[r] = average_ranks(list(x[r]))
    return ranks
