"""The pairwise ordering beside the rubric's: for a pairwise board and each rubric board of the
current sweep whose prompts are among its own, Spearman's ρ between the models' ratings and their
rubric scores (over the models rated on one and published on the other), with a 95% percentile
interval from the pairwise board's own bootstrap draws: each draw's ratings (refitted on the
prompts drawn) against each model's rubric score over the same draw's prompts of the rubric
board, each counted as often as drawn (stats' average ranks; a draw holding none of the rubric
board's prompts, or whose ranking does not vary, is left out and counted). No number blends the
two: each board keeps its own, and only their orderings are compared.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sitegen import stats
from sitegen.families.declared.compare import MIN_RHO_MODELS, _prompt_means

TAIL = (100.0 - stats.CONFIDENCE) / 2.0


@dataclass(frozen=True)
class Versus:
    pairwise: str  # the pairwise board's id
    board: str  # the rubric board's id
    label: str
    models: list[str]
    rho: float | None
    low: float | None = None
    high: float | None = None
    draws: int = 0  # the draws the interval rests on
    left_out: int = 0  # draws with none of the board's prompts, or no variation


def versus(pb, sweep) -> list[Versus]:
    """PB: a pairwise board (compute.PairBoard); SWEEP: the rubric's current sweep."""
    means = _prompt_means(sweep)
    rated = {r.model: r.rating for r in pb.rated}
    ids = pb.parts[0] if pb.parts else []  # the columns of pb.ratings
    where = {p: k for k, p in enumerate(pb.prompts)}
    out = []
    for b in sweep.boards:
        if not b.prompts or not set(b.prompts) <= set(where):
            continue
        models = [r.model for r in b.published if r.model in rated]
        models.sort(key=ids.index)
        if len(models) < MIN_RHO_MODELS:
            out.append(Versus(pb.id, b.id, b.label, models, None))
            continue
        score = {r.model: r.score for r in b.published}
        rho = stats.spearman_rho([rated[m] for m in models], [score[m] for m in models])
        if pb.draws is None or rho is None:
            out.append(Versus(pb.id, b.id, b.label, models, rho))
            continue
        out.append(_interval(pb, b, models, ids, means, where, rho))
    return out


def _interval(pb, b, models: list[str], ids: list[str], means: dict, where: dict, rho: float) -> Versus:
    cols = [where[p] for p in b.prompts]
    C = np.zeros((pb.draws.shape[0], len(pb.prompts)))
    np.add.at(C, (np.repeat(np.arange(pb.draws.shape[0]), pb.draws.shape[1]), pb.draws.ravel()), 1.0)
    C = C[:, cols]  # how often each of the rubric board's prompts was drawn
    M = np.array([[means.get((m, p), np.nan) for m in models] for p in b.prompts])  # prompts x models
    have = np.isfinite(M)
    weight = C @ have  # draws x models
    with np.errstate(invalid="ignore", divide="ignore"):
        rubric = (C @ np.where(have, M, 0.0)) / weight
    ratings = pb.ratings[:, [ids.index(m) for m in models]]
    keep = (weight > 0).all(axis=1)
    rhos = stats._row_rho(ratings[keep], rubric[keep])
    rhos = rhos[np.isfinite(rhos)]
    left_out = pb.draws.shape[0] - rhos.size
    if rhos.size == 0:
        return Versus(pb.id, b.id, b.label, models, rho, left_out=left_out)
    lo, hi = np.percentile(rhos, [TAIL, 100.0 - TAIL])
    return Versus(pb.id, b.id, b.label, models, rho, float(lo), float(hi), int(rhos.size), left_out)
