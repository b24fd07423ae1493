"""Bradley-Terry ratings by maximum likelihood, and their seeded bootstrap.

The model: model i beats model j with probability 1 / (1 + exp(θ_j − θ_i)). Given W, where
W[i, j] is what i won from j (a win 1, or its margin's declared wins; a tie half a win to each),
the log-likelihood is Σ W[i, j] · log σ(θ_i − θ_j). It is maximised by scipy's trust-region
Newton method (trust-ncg) with its exact gradient and Hessian; a term ½(Σθ)² fixes the free constant (the likelihood's gradient always sums to
zero, so at the optimum Σθ = 0 and the differences are the likelihood's own). The objective is
divided by the total weight of the judgments, so one tolerance serves a board of any size.

A fit has converged when no rating has a step left larger than STEP_TOLERANCE (in θ: 1.7e-4
rating points on Elo's scale, far below the whole points shown), its step being its gradient
over its curvature, |g_i| / H_ii (Newton's step on the diagonal); that is checked here, whatever
the solver reports, and otherwise NotConverged says why. The
maximum exists only when the graph of "took something from" is strongly connected: no group of
models won every judgment against the rest (`strong_parts` finds such a group).

The bootstrap fits all its resamples at once: one objective, the sum of the resamples', over
their stacked ratings (the resamples share nothing, so its optimum is each one's), warm-started
from the full fit, in chunks of CHUNK resamples to bound the memory (CHUNK × m × m floats).
"""

from __future__ import annotations

import numpy as np
from scipy import optimize, sparse
from scipy.sparse import csgraph
from scipy.special import expit

STEP_TOLERANCE = 1e-6  # the largest step left on any θ for a fit to count as converged
CHUNK = 250  # resamples fitted together
MAX_ITERATIONS = 200


class NotConverged(Exception):
    """The solver stopped short of the maximum."""


def _objective(x: np.ndarray, W: np.ndarray, total: np.ndarray) -> tuple[float, np.ndarray]:
    """Minus the scaled log-likelihood of each resample (B x m x m wins W, B totals), plus the
    centring term, and its gradient; X holds the B x m ratings, flattened."""
    B, m = W.shape[0], W.shape[1]
    th = x.reshape(B, m)
    d = th[:, :, None] - th[:, None, :]
    scale = 1.0 / total
    f = float((np.einsum("bij,bij->b", W, np.logaddexp(0.0, -d)) * scale).sum() + 0.5 * (th.sum(axis=1) ** 2).sum())
    A = W * expit(-d)  # W[i, j] (1 - σ(θ_i - θ_j)): what each win adds to i's gradient
    g = -(A.sum(axis=2) - A.sum(axis=1)) * scale[:, None] + th.sum(axis=1, keepdims=True)
    return f, g.ravel()


class _Curvature:
    """The objective's Hessian-vector product at the last X it was asked about: per resample,
    Σ_j N_ij σ(1 − σ)(v_i − v_j) scaled, plus the centring term's (Σv). Its weights K are made
    once per X (the solver asks for many products at one point), not once per product."""

    def __init__(self, W: np.ndarray, total: np.ndarray):
        self.W, self.N, self.total, self.at, self.K = W, W + W.transpose(0, 2, 1), total, None, None

    def __call__(self, x: np.ndarray, v: np.ndarray, *_args) -> np.ndarray:
        B, m = self.W.shape[0], self.W.shape[1]
        if self.at is None or not np.array_equal(self.at, x):
            th = x.reshape(B, m)
            p = expit(th[:, :, None] - th[:, None, :])
            self.K = self.N * p * (1.0 - p) / self.total[:, None, None]
            self.Kd = self.K.sum(axis=2)
            self.at = x.copy()
        vv = v.reshape(B, m)
        hv = self.Kd * vv - np.einsum("bij,bj->bi", self.K, vv) + vv.sum(axis=1, keepdims=True)
        return hv.ravel()


def steps(theta: np.ndarray, W: np.ndarray) -> np.ndarray:
    """Each rating's step left at THETA (B x m) for wins W (B x m x m): the log-likelihood's
    gradient over its curvature, |g_i| / H_ii."""
    d = theta[:, :, None] - theta[:, None, :]
    p = expit(d)
    A = W * (1.0 - p)
    g = A.sum(axis=2) - A.sum(axis=1)
    h = ((W + W.transpose(0, 2, 1)) * p * (1.0 - p)).sum(axis=2)
    return np.abs(g) / np.maximum(h, 1e-300)


def _solve(W: np.ndarray, x0: np.ndarray):
    total = W.sum(axis=(1, 2))
    # Newton's method in a trust region (the Hessian by its product with a vector, exact): a few
    # iterations to the last digits, where a quasi-Newton method stalls on the rounding of the
    # objective's sum over thousands of judgments (its stop is then "a bad approximation").
    res = optimize.minimize(_objective, x0.ravel(), args=(W, total), jac=True, hessp=_Curvature(W, total), method="trust-ncg",
                            options={"maxiter": MAX_ITERATIONS, "gtol": 1e-13})
    theta = res.x.reshape(W.shape[0], W.shape[1])
    return theta - theta.mean(axis=1, keepdims=True), res


def fit(W: np.ndarray, start: np.ndarray | None = None) -> np.ndarray:
    """The maximum-likelihood θ (B x m, each row summing to zero) for the wins W (B x m x m),
    from START (B x m; zeros when None). The B fits are solved together; one the joint solve
    leaves short of the tolerance (the rounding of a sum over B fits can stop it a hair early)
    is solved again alone, from where it stopped. Raises NotConverged."""
    B, m = W.shape[0], W.shape[1]
    x0 = np.zeros((B, m)) if start is None else np.asarray(start, dtype=np.float64).copy()
    theta, res = _solve(W, x0)
    worst = steps(theta, W).max(axis=1)
    for b in np.flatnonzero(worst > STEP_TOLERANCE) if B > 1 else ():
        alone, res = _solve(W[b:b + 1], theta[b:b + 1])
        theta[b] = alone[0]
        worst[b] = steps(theta[b:b + 1], W[b:b + 1]).max()
    if not (worst <= STEP_TOLERANCE).all():
        b = int(worst.argmax())
        raise NotConverged(f"the solver (scipy trust-ncg) stopped after {res.nit} iterations ({res.message}) with a step of "
                           f"{worst[b]:.3g} left on a rating in fit {b + 1} of {B}, above the tolerance {STEP_TOLERANCE:g}")
    return theta


def parts(N: np.ndarray) -> list[list[int]]:
    """The comparison graph's parts (models joined by any judgment, N = W + Wᵀ), largest first,
    then by their first model; each part's models in index order."""
    _n, labels = csgraph.connected_components(sparse.csr_matrix(N > 0), directed=False)
    groups: dict[int, list[int]] = {}
    for i, lab in enumerate(labels):
        groups.setdefault(int(lab), []).append(i)
    return sorted(groups.values(), key=lambda g: (-len(g), g[0]))


def strong_parts(W: np.ndarray) -> list[list[int]] | None:
    """None when the ratings of W's models (one part) have a maximum: every model took something
    from every group of the others. Otherwise the groups that never lost to the rest (no edge in
    from outside in the graph of "took something from"), each in index order."""
    n, labels = csgraph.connected_components(sparse.csr_matrix(W > 0), directed=True, connection="strong")
    if n == 1:
        return None
    rows, cols = np.nonzero(W > 0)
    # a group never lost to the rest when no model outside it took anything from one of its models
    taken_from = {int(labels[j]) for i, j in zip(rows, cols) if labels[i] != labels[j]}
    top = [k for k in range(n) if k not in taken_from]
    return [[i for i in range(len(labels)) if labels[i] == k] for k in top]


def counts(idx: np.ndarray, n: int) -> np.ndarray:
    """How often each of N prompts is drawn in each resample (rows of IDX)."""
    C = np.zeros((idx.shape[0], n), dtype=np.float64)
    np.add.at(C, (np.repeat(np.arange(idx.shape[0]), idx.shape[1]), idx.ravel()), 1.0)
    return C


def bootstrap(per_prompt: np.ndarray, prior: np.ndarray, theta: np.ndarray, seed: int, resamples: int) -> tuple[np.ndarray, list[int], np.ndarray]:
    """θ of each resample (resamples x m), the resamples (1-based) whose ratings have no
    maximum, and the draws (resamples x n prompt indices). PER_PROMPT: each prompt's wins (n x m x m); PRIOR: the virtual wins added to every
    fit (m x m); THETA: the full fit, the warm start. The draws are stats.percentile_bootstrap's:
    rng = numpy.random.default_rng(seed); idx = rng.integers(0, n, size=(resamples, n))."""
    n, m = per_prompt.shape[0], per_prompt.shape[1]
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(resamples, n), dtype=np.int32 if n <= np.iinfo(np.int32).max else np.int64)
    flat = per_prompt.reshape(n, m * m)
    out = np.empty((resamples, m))
    failed: list[int] = []
    for lo in range(0, resamples, CHUNK):
        C = counts(idx[lo:lo + CHUNK], n)
        W = (C @ flat).reshape(-1, m, m) + prior
        bad = [b for b in range(W.shape[0]) if strong_parts(W[b]) is not None]
        failed += [lo + b + 1 for b in bad]
        if bad:
            continue
        out[lo:lo + W.shape[0]] = fit(W, np.repeat(theta[None, :], W.shape[0], axis=0))
    return out, failed, idx
