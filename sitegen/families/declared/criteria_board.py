"""Per-criterion results of a board: for each published model and each criterion, its mean score
on the criterion's own scale, with a 95% interval, so a reader sees which criterion a model
loses on without recomputing it from the items.

A model's criterion mean on a board is taken as its score is: per prompt, the mean of the
criterion's scores over the model's scored items of that prompt (every iteration, every judge of
the sweep; a null of an optional criterion left out), then the mean over the board's prompts that
have one. The interval resamples those prompts: one draw of the model's scored prompts per
(sweep, model, board), seeded with stats.derive_seed(sweep, model, board, "criteria") and shared by
every criterion of that model, so the intervals of one model's criteria are drawn together (a
criterion with no value on some drawn prompts takes its mean over the drawn prompts that have
one; a draw with none is left out). A board too small to rank (boards.min_prompts) gets the
means without intervals, as its scores.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from sitegen import stats

CHUNK = 2_000  # draws taken at once: 2,000 x 32 prompts x 22 criteria of floats is 11 MB


@dataclass(frozen=True)
class CriterionCell:
    model: str
    criterion: str
    mean: float | None  # None: the model has no score on this criterion on the board
    prompts: int  # prompts with a score of it
    low: float | None = None
    high: float | None = None
    seed: int | None = None


def criterion_cells(sweep: str, board, criteria: list, scored: dict) -> list[CriterionCell]:
    """Every (published model, criterion) cell of BOARD (a compute.Board), in the board's order
    then CRITERIA's. SCORED maps (model, prompt) to that prompt's scored items (compute.ScoredItem)."""
    ids = [c.id for c in criteria]
    out = []
    for row in board.published:
        prompts = [p for p in board.prompts if scored.get((row.model, p))]
        means = np.array([_means(scored[(row.model, p)], ids) for p in prompts], dtype=np.float64).reshape(len(prompts), len(ids))
        counts = (~np.isnan(means)).sum(axis=0)
        with warnings.catch_warnings():  # a criterion no prompt has is None below
            warnings.simplefilter("ignore", RuntimeWarning)
            point = [float(m) if n else None for m, n in zip(np.nanmean(means, axis=0), counts)]
        if not board.ranked or not prompts:
            out += [CriterionCell(row.model, c, point[k], int(counts[k])) for k, c in enumerate(ids)]
            continue
        seed = stats.derive_seed(sweep, row.model, board.id, "criteria")
        bounds = _intervals(means, seed)
        out += [CriterionCell(row.model, c, point[k], int(counts[k]), *bounds[k], seed) for k, c in enumerate(ids)]
    return out


def _means(items: list, ids: list[str]) -> np.ndarray:
    """Each criterion's mean score over ITEMS (each judge's reading one score), in IDS' order;
    nan for a criterion none of them scored. One matrix of readings x criteria, so a prompt's
    items are read once for all its criteria."""
    readings = [[j.scores.get(c) for c in ids] for x in items for j in x.item.judgments if j.scores]
    if not readings:
        return np.full(len(ids), np.nan)
    values = np.array(readings, dtype=np.float64)  # a null (None) of an optional criterion is nan
    with warnings.catch_warnings():  # a criterion with no reading here is nan, as said
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmean(values, axis=0)


def _intervals(means: np.ndarray, seed: int) -> list[tuple[float | None, float | None]]:
    """The 95% percentile interval of each column's mean over resampled rows (prompts), every
    column under the same draws (stats.RESAMPLES of them, the published formula's indices). With
    a gap in MEANS, a column's draws of no value are left out (nanmean, nanpercentile: the same
    numbers as filtering them, only slower, so taken only then)."""
    n = means.shape[0]
    idx = np.random.default_rng(seed).integers(0, n, size=(stats.RESAMPLES, n))
    tail = (100.0 - stats.CONFIDENCE) / 2.0
    gaps = bool(np.isnan(means).any())
    with warnings.catch_warnings():  # nanmean and nanpercentile of all-nan slices warn: those are left out, as said
        warnings.simplefilter("ignore", RuntimeWarning)
        mean, percentile = (np.nanmean, np.nanpercentile) if gaps else (np.mean, np.percentile)
        draws = np.concatenate([mean(means[chunk], axis=1) for chunk in np.array_split(idx, max(1, stats.RESAMPLES // CHUNK))])
        # a criterion's draws made contiguous first: partitioning down a column is several times slower
        bounds = percentile(np.ascontiguousarray(draws.T), [tail, 100.0 - tail], axis=1)
    return [(None, None) if np.isnan(lo) else (float(lo), float(hi)) for lo, hi in bounds.T]
