"""Every number the pairwise unit publishes, computed from its validated judgments.

Per board (the prompts `pairwise.by` groups, or every prompt): each model's judgments, wins, ties
and losses (counted in judgments, whatever their margins); the gate (a model in fewer than
`gate.min_judgments` judgments of the board is withheld, and its judgments leave the fit); the
comparison graph's parts (models joined by judgments): only the largest is rated and ranked, and
every other part's models are listed apart, with no rating across parts; the Bradley-Terry rating
of that part (fit.py), in which a win counts 1 (or its margin's declared wins), a tie half a win
to each, and `prior_ties` virtual ties join every pair of models compared; a 95% percentile
bootstrap interval from `resamples` refits of the board's prompts drawn with all their judgments,
seeded with stats.derive_seed(pairwise id, board id), every refit normalised as the full fit; the
rank ranges by stats.rank_ranges; the win-rate matrix; the pairs never compared; and position
bias: of the judgments of the same two outputs shown in both orders (paired in file order), the
share whose verdict changed, and the share of decisive verdicts that went to the output shown first.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from sitegen import stats
from sitegen.errors import BuildError, InputError, Problem
from sitegen.families.declared.pairwise import fit as bt
from sitegen.families.declared.pairwise.records import PairJudgment
from sitegen.families.declared.validate import board_slug

TAIL = (100.0 - stats.CONFIDENCE) / 2.0


@dataclass(frozen=True)
class PairRow:
    model: str
    name: str
    house: str
    judgments: int
    wins: int
    ties: int
    losses: int
    published: bool  # passed the gate
    part: int | None = None  # 0: the part rated; 1, 2...: another part; None: withheld
    rating: float | None = None
    low: float | None = None
    high: float | None = None
    rank_best: int | None = None
    rank_worst: int | None = None


@dataclass(frozen=True)
class Cell:
    """Model a against model b on one board: judgments, a's wins, ties and losses."""
    a: str
    b: str
    judgments: int
    wins: int
    ties: int
    losses: int

    @property
    def share(self) -> float:
        """a's win rate: wins and half its ties over its judgments against b."""
        return (self.wins + 0.5 * self.ties) / self.judgments


@dataclass(frozen=True)
class Bias:
    judgments: int
    ties: int
    decisive: int
    first_wins: int  # decisive verdicts for the output shown first
    swapped: int  # pairs of judgments of the same outputs in both orders
    changed: int  # of which the verdict (the model preferred, or a tie) changed


@dataclass(frozen=True)
class PairBoard:
    id: str
    label: str
    prompts: list[str]
    rows: list[PairRow]  # the rated part by rating, then model id; then the other parts; then withheld
    ranked: bool  # at least pairwise.min_prompts prompts: intervals and rank ranges
    seed: int
    parts: list[list[str]]  # model ids of each part, the rated part first
    never: list[tuple[str, str]]  # pairs of published models never compared here
    cells: list[Cell]
    bias: Bias
    judged: list[int] = field(default_factory=list)  # index of each of the board's judgments
    draws: np.ndarray | None = field(default=None, compare=False, repr=False)  # the resamples' prompt indices
    ratings: np.ndarray | None = field(default=None, compare=False, repr=False)  # resamples x rated models

    @property
    def rated(self) -> list[PairRow]:
        return [r for r in self.rows if r.part == 0]

    @property
    def apart(self) -> list[PairRow]:
        return [r for r in self.rows if r.part not in (0, None)]

    @property
    def withheld(self) -> list[PairRow]:
        return [r for r in self.rows if not r.published]

    @property
    def first(self) -> list[PairRow]:
        return [r for r in self.rows if r.rank_best == 1]


@dataclass(frozen=True)
class PairwiseResult:
    id: str
    date: str
    judges: list[str]
    boards: list[PairBoard]
    judgments: list[PairJudgment]
    texts: list[tuple[str, str]]  # each judgment's two outputs (a, b) as the judge read them


def wins_of(j: PairJudgment, margins: dict[str, float]) -> tuple[float, float]:
    """What a judgment counts for (a, b): a tie half a win each, a win 1 or its margin's wins."""
    if j.winner is None:
        return 0.5, 0.5
    w = margins[j.margin] if j.margin is not None else 1.0
    return (w, 0.0) if j.winner == "a" else (0.0, w)


def compute(inp) -> PairwiseResult:
    cfg, pin = inp.config, inp.pairwise
    pw = cfg.pairwise
    texts = [tuple(_text(j, s, pin.outputs) for s in ("a", "b")) for j in pin.judgments]
    groups: dict[str, tuple[str, list[str]]] = {}
    for p in inp.prompts:
        value = p.field(pw.by) if pw.by else pw.label
        groups.setdefault(board_slug(value), (value, []))[1].append(p.id)
    boards = [_board(inp, bid, label, prompts, texts) for bid, (label, prompts) in groups.items()]
    return PairwiseResult(pw.id, pw.date, list(pw.judges), boards, pin.judgments, texts)


def _text(j: PairJudgment, side: str, outputs: dict) -> str:
    text = getattr(j, f"output_{side}")
    return text if text is not None else outputs[(getattr(j, f"model_{side}"), j.prompt, getattr(j, f"iteration_{side}"))]


def _board(inp, bid: str, label: str, prompts: list[str], texts) -> PairBoard:
    pw, models = inp.config.pairwise, inp.models
    at = {p: k for k, p in enumerate(prompts)}
    judged = [k for k, j in enumerate(inp.pairwise.judgments) if j.prompt in at]
    js = [inp.pairwise.judgments[k] for k in judged]
    count: dict[str, list[int]] = {m.id: [0, 0, 0] for m in models}  # wins, ties, losses
    for j in js:
        for side, other in (("a", "b"), ("b", "a")):
            k = 1 if j.winner is None else 0 if j.winner == side else 2
            count[getattr(j, f"model_{side}")][k] += 1
    seen = [m for m in models if sum(count[m.id])]
    passed = {m.id for m in seen if sum(count[m.id]) >= pw.gate.min_judgments}
    idx = {m.id: i for i, m in enumerate(m for m in seen if m.id in passed)}
    ids = list(idx)
    margins = {m.label: m.wins for m in pw.margins}
    per_prompt = np.zeros((len(prompts), len(ids), len(ids)))
    for j in js:
        if j.model_a in idx and j.model_b in idx:
            wa, wb = wins_of(j, margins)
            i, k = idx[j.model_a], idx[j.model_b]
            per_prompt[at[j.prompt], i, k] += wa
            per_prompt[at[j.prompt], k, i] += wb
    W = per_prompt.sum(axis=0)
    parts = [[ids[i] for i in g] for g in bt.parts(W + W.T)] if ids else []
    main = [idx[m] for m in parts[0]] if parts else []
    ranked = len(prompts) >= pw.min_prompts
    seed = stats.derive_seed(pw.id, bid)
    ratings, draws, boot = _rate(inp, bid, label, per_prompt[:, main][:, :, main], [ids[i] for i in main], ranked, seed)
    part_of = {m: k for k, g in enumerate(parts) for m in g}
    rows = []
    for m in seen:
        w, t, lo_ = count[m.id]
        rows.append(PairRow(m.id, m.name, m.house, w + t + lo_, w, t, lo_, m.id in passed, part_of.get(m.id), *ratings.get(m.id, (None,) * 5)))
    order = {m.id: k for k, m in enumerate(models)}
    rows = (sorted((r for r in rows if r.part == 0), key=lambda r: (-r.rating, r.model))
            + sorted((r for r in rows if r.part not in (0, None)), key=lambda r: (r.part, r.name, r.model))
            + sorted((r for r in rows if r.part is None), key=lambda r: (r.name, r.model)))
    cells = _cells(js, passed)
    pub = sorted(passed, key=order.get)
    compared = {(c.a, c.b) for c in cells}
    never = [(a, b) for i, a in enumerate(pub) for b in pub[i + 1:] if (a, b) not in compared]
    return PairBoard(bid, label, prompts, rows, ranked, seed, parts, never, cells, _bias(js, [texts[k] for k in judged]), judged, draws, boot)


def _rate(inp, bid: str, label: str, per_prompt: np.ndarray, ids: list[str], ranked: bool, seed: int):
    """(model -> (rating, low, high, rank_best, rank_worst), the draws, the resampled ratings) of
    the rated part IDS, whose wins on each prompt are PER_PROMPT."""
    pw, rel = inp.config.pairwise, inp.pairwise.file
    if not ids:
        return {}, None, None
    W = per_prompt.sum(axis=0)
    prior = 0.5 * pw.prior_ties * ((W + W.T) > 0)
    _anchors(inp, bid, label, ids)
    top = bt.strong_parts(W + prior)
    if top is not None:
        names = {m.id: m.name for m in inp.models}
        groups = "; ".join(", ".join(names[ids[i]] for i in g) for g in top)
        raise InputError([Problem(rel, None, "", f"judgments on board {label} in which every group of models rated together loses or ties "
                                  "at least once to the others (else its ratings have no maximum-likelihood estimate; pairwise.prior_ties "
                                  "adds virtual ties)", f"models that never lost to the rest: {groups}")])
    try:
        theta = bt.fit((W + prior)[None])[0]
    except bt.NotConverged as exc:
        raise BuildError(f"the pairwise ratings of board {label} did not converge: {exc}") from None
    rating = _scale(pw, ids, theta[None])[0]
    if not ranked:
        return {m: (float(rating[i]), None, None, None, None) for i, m in enumerate(ids)}, None, None
    try:
        boot, failed, draws = bt.bootstrap(per_prompt, prior, theta, seed, pw.resamples)
    except bt.NotConverged as exc:
        raise BuildError(f"the pairwise bootstrap of board {label} did not converge: {exc}") from None
    if failed:
        raise InputError([Problem(f"content/{inp.fid}/benchmark.toml", None, "$.pairwise.prior_ties",
                                  f"ratings for every bootstrap resample of board {label} (a resample in which a group of models never lost "
                                  "to the rest has no maximum-likelihood estimate: declare virtual ties)",
                                  f"{len(failed)} of {pw.resamples} resamples without one (the first: {failed[0]})")])
    rs = _scale(pw, ids, boot)
    lo, hi = np.percentile(rs, [TAIL, 100.0 - TAIL], axis=0)
    ranks = stats.rank_ranges([stats.Interval(m, float(lo[i]), float(hi[i])) for i, m in enumerate(ids)])
    return {m: (float(rating[i]), float(lo[i]), float(hi[i]), *ranks[m]) for i, m in enumerate(ids)}, draws, rs


def _anchors(inp, bid: str, label: str, ids: list[str]) -> None:
    pw = inp.config.pairwise
    missing = [(k, a) for k, a in enumerate(pw.anchors) if a.model not in ids]
    if missing:
        raise InputError([Problem(f"content/{inp.fid}/benchmark.toml", None, f"$.pairwise.anchors[{k}].model",
                                  f"a model rated on board {label} (in the part of its comparison graph that is rated, past the gate)",
                                  f"{a.model}, which is not") for k, a in missing])


def _scale(pw, ids: list[str], theta: np.ndarray) -> np.ndarray:
    """Ratings from θ (B x m), normalised as declared: base + points/ln 10 · (θ − mean θ); with one
    anchor shifted to its rating; with two, stretched too."""
    k = pw.points / math.log(10.0)
    if not pw.anchors:
        return pw.base + k * (theta - theta.mean(axis=1, keepdims=True))
    a = pw.anchors[0]
    ta = theta[:, [ids.index(a.model)]]
    if len(pw.anchors) == 1:
        return a.rating + k * (theta - ta)
    b = pw.anchors[1]
    tb = theta[:, [ids.index(b.model)]]
    return a.rating + (b.rating - a.rating) * (theta - ta) / (tb - ta)


def _cells(js: list[PairJudgment], passed: set[str]) -> list[Cell]:
    got: dict[tuple[str, str], list[int]] = {}
    for j in js:
        if j.model_a not in passed or j.model_b not in passed:
            continue
        for me, other, side in ((j.model_a, j.model_b, "a"), (j.model_b, j.model_a, "b")):
            c = got.setdefault((me, other), [0, 0, 0])
            c[1 if j.winner is None else 0 if j.winner == side else 2] += 1
    return [Cell(a, b, sum(c), *c) for (a, b), c in sorted(got.items())]


def _bias(js: list[PairJudgment], texts: list[tuple[str, str]]) -> Bias:
    ties = sum(j.winner is None for j in js)
    first = sum(j.verdict == "first" for j in js)
    both: dict[tuple, tuple[list, list]] = {}
    for j, (ta, tb) in zip(js, texts):
        sides = sorted([(j.model_a, ta), (j.model_b, tb)])
        shown = (j.model_a, ta) if j.shown_first == "a" else (j.model_b, tb)
        pair = both.setdefault((j.prompt, j.judge, *sides), ([], []))
        winner = None if j.winner is None else (j.model_a if j.winner == "a" else j.model_b)
        pair[0 if shown == sides[0] else 1].append(winner)
    swapped = changed = 0
    for one, other in both.values():
        for x, y in zip(one, other):
            swapped += 1
            changed += x != y
    return Bias(len(js), ties, len(js) - ties, first, swapped, changed)
