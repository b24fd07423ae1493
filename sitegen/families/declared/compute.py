"""Every number a declared benchmark publishes, computed from its validated records.

Per sweep and board, a model's row: the items expected (the board's prompts times the declared
iterations), how many were scored, how many failed generation, how many were judged without
scores (a judge's reply carried none) and how many have no record; its score, the mean over the board's
prompts of each prompt's mean over its scored iterations (so every prompt weighs the same,
however many of its iterations were scored; a failed, unscored or missing item is left out of
the score and the interval and counts against the gate); a 95% percentile bootstrap interval that
resamples prompts, each drawn with all its iterations (stats.percentile_bootstrap over the
prompt means, seeded with stats.derive_seed(sweep id, model id, board id)); and, among the rows
that pass the gate, the pairwise rank range (stats.rank_ranges).

A board of fewer prompts than boards.min_prompts is not ranked: its rows keep their scores and
counts, with no interval and no rank range, since a bootstrap over n prompts can draw only
C(2n-1, n) distinct resamples (one for a single prompt) and, below four prompts, the
percentile interval is the range of the prompt scores.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from math import comb

import numpy as np

from sitegen import stats
from sitegen.families.declared import scorers, settings
from sitegen.families.declared.criteria_board import criterion_cells
from sitegen.families.declared.config import BenchmarkConfig
from sitegen.families.declared.models import Item, Judgment
from sitegen.families.declared.validate import OVERALL, DeclaredInput, board_slug, judgment_score


@dataclass(frozen=True)
class Row:
    model: str
    name: str
    house: str
    expected: int  # prompts x iterations
    scored: int
    failed: int  # every attempt failed
    missing: int  # no record at all
    unscored: int  # judged, a reply without scores
    published: bool
    score: float | None = None
    low: float | None = None
    high: float | None = None
    prompts: int = 0  # prompts with at least one scored iteration
    rank_best: int | None = None
    rank_worst: int | None = None
    seed: int | None = None

    @property
    def share(self) -> float:
        return self.scored / self.expected if self.expected else 0.0


@dataclass(frozen=True)
class Board:
    id: str
    label: str
    prompts: list[str]
    rows: list[Row]  # published by score, then model id; then withheld by name
    ranked: bool = True  # at least boards.min_prompts prompts: intervals and rank ranges computed
    overall: bool = False  # the board across every other, published by the benchmark's choice

    @property
    def resamples(self) -> int:
        """How many distinct resamples (multisets of its prompts) a bootstrap over the board's
        prompts can draw: C(2n-1, n). A row with fewer prompts scored draws from fewer."""
        n = len(self.prompts)
        return comb(2 * n - 1, n) if n else 0

    @property
    def draws(self) -> int:
        return stats.RESAMPLES

    @property
    def few_resamples(self) -> bool:
        """Fewer distinct resamples than the bootstrap draws: the interval rests on that many."""
        return self.resamples < stats.RESAMPLES

    @property
    def published(self) -> list[Row]:
        return [r for r in self.rows if r.published]

    @property
    def withheld(self) -> list[Row]:
        return [r for r in self.rows if not r.published]

    @property
    def first(self) -> list[Row]:
        return [r for r in self.rows if r.rank_best == 1]


@dataclass(frozen=True)
class Agreement:
    board: str
    a: str
    b: str
    rho: float | None
    models: int


@dataclass(frozen=True)
class ScoredItem:
    item: Item
    judge_scores: dict[str, float]  # judge id -> item score by that judge
    score: float | None  # the mean over the sweep's judges; None when not generated, or a judge returned no scores

    @property
    def state(self) -> str:
        """`scored`; `failed` (no output: not judged); or `unscored` (judged, a reply without scores)."""
        return "failed" if self.item.last.outcome == "failed" else "unscored" if self.item.unscored else "scored"


@dataclass(frozen=True)
class SweepResult:
    id: str
    date: str
    judges: list[str]
    note: str
    boards: list[Board]
    items: list[ScoredItem]
    agreement: list[Agreement] = field(default_factory=list)
    retried: int | None = 0  # items that needed more than one attempt; None when attempts are not recorded
    failures: list[ScoredItem] = field(default_factory=list)  # generation failed: nothing judged
    unscored: list[ScoredItem] = field(default_factory=list)  # judged, a reply without scores
    missing: list[tuple[str, str, int]] = field(default_factory=list)  # (model, prompt, iteration) a board row expects, no record
    amendment: str | None = None  # the amendment log's entry that records why it was run
    # With a recorded freeze: whether every frozen input's version in force was frozen on a day
    # before this sweep's date (a freeze on the sweep's own day is not claimed to precede it).
    # None without a recorded freeze.
    after_freeze: bool | None = None
    config: BenchmarkConfig | None = None  # what it was computed with: the top level, its own settings in place (settings.py)
    fingerprint: str = ""  # of those settings as written
    changes: list[str] = field(default_factory=list)  # how its settings differ from the previous sweep's (by date)
    criteria: dict[str, list] = field(default_factory=dict)  # board id -> its per-criterion cells (criteria_board.py)
    metric: scorers.Metric | None = None  # the metric its boards are of (scorers.py): the headline's, for res.sweeps
    others: list["SweepResult"] = field(default_factory=list)  # every other metric's boards of this sweep, apart
    errored: str | None = None  # a sweep of Inspect logs: what its errored samples count as ("excluded", "failing")

    @property
    def models(self) -> list[str]:
        """The ids of the models this sweep ran (those with at least one record in it), sorted."""
        return sorted({x.item.model for x in self.items})


@dataclass(frozen=True)
class DeclaredResults:
    input: DeclaredInput
    sweeps: list[SweepResult]  # newest first: the first is the one the boards show
    pairwise: object = None  # pairwise.compute.PairwiseResult, when [pairwise] is declared

    @property
    def current(self) -> SweepResult:
        return self.sweeps[0]

    @property
    def config(self) -> BenchmarkConfig:
        return self.input.config


def board_ids(inp: DeclaredInput, cfg: BenchmarkConfig) -> list[tuple[str, str, list[str]]]:
    """(id, label, prompt ids) of every board under CFG (a sweep's configuration), in the order
    of their first prompt; then the overall board when the configuration publishes one."""
    by = cfg.boards.by
    boards: dict[str, list[str]] = {}
    for p in inp.prompts:
        boards.setdefault(p.field(by) if by else "all", []).append(p.id)
    out = [(board_slug(value), value if by else cfg.title, ids) for value, ids in boards.items()]
    if cfg.boards.overall and by is not None:
        out.append((OVERALL, cfg.boards.overall_label, [p.id for p in inp.prompts]))
    return out


def compute(inp: DeclaredInput) -> DeclaredResults:
    cfg = inp.config
    order = sorted(range(len(cfg.sweeps)), key=lambda i: (cfg.sweeps[i].date, i), reverse=True)
    previous = dict(zip(order, order[1:]))  # sweep index -> the one before it by date
    pairwise = None
    if inp.pairwise is not None:
        from sitegen.families.declared.pairwise.compute import compute as compute_pairwise

        pairwise = compute_pairwise(inp)
    return DeclaredResults(inp, [_sweep(inp, i, previous.get(i)) for i in order], pairwise)


def _sweep(inp: DeclaredInput, index: int, before: int | None) -> SweepResult:
    """Sweep INDEX computed with its own settings, never the newest sweep's (settings.py): each of
    its metrics apart (scorers.py), the headline's boards the sweep's own, the others beside them."""
    full = settings.for_sweep(inp.config, index)
    errored = scorers.errored_rule(full) if inp.config.sweeps[index].logs else None
    each = [_metric_sweep(inp, index, before, scorers.restrict(full, m), m, errored) for m in scorers.metrics_of(full)]
    return replace(each[0], others=each[1:])


def _metric_sweep(inp: DeclaredInput, index: int, before: int | None, cfg: BenchmarkConfig, metric: scorers.Metric,
                  errored: str | None) -> SweepResult:
    """One metric's boards of sweep INDEX, under CFG (the sweep's settings, its criteria the metric's).
    Under errored = "failing", an item whose generation failed scores 0 (every criterion at its
    worst end), counted among the scored; otherwise it is left out, as every failure is."""
    s, data = inp.config.sweeps[index], inp.sweeps[index]
    scored = []
    for item in data.items:
        by_judge = {j.judge: judgment_score(cfg, j) for j in item.judgments if j.scores is not None}
        score = float(np.mean([by_judge[j] for j in sorted(by_judge)])) if by_judge and not item.unscored else None
        if errored == "failing" and item.last.outcome == "failed":
            score = 0.0
        scored.append(ScoredItem(item, by_judge, score))
    by_key = {(x.item.model, x.item.prompt, x.item.iteration): x for x in scored}
    missing: set[tuple[str, str, int]] = set()
    boards = [_board(inp, cfg, s.id, bid, label, prompts, by_key, missing) for bid, label, prompts in board_ids(inp, cfg)]
    agreement = []
    if len(s.judges) >= 2:
        for b in boards:
            for i, a in enumerate(s.judges):
                for bj in s.judges[i + 1:]:
                    agreement.append(_agreement(b, a, bj, scored))
    retried = sum(len(x.item.attempts) > 1 for x in scored) if cfg.generation.attempts_recorded else None
    by_prompt: dict[tuple[str, str], list[ScoredItem]] = {}
    for x in scored:
        if x.state == "scored":
            by_prompt.setdefault((x.item.model, x.item.prompt), []).append(x)
        elif x.state == "failed" and x.score is not None:  # failing: read at every criterion's worst end
            worst = Judgment(judge=s.judges[0], scores=scorers.lowest(cfg.criteria))
            by_prompt.setdefault((x.item.model, x.item.prompt), []).append(replace(x, item=x.item.model_copy(update={"judgments": [worst]})))
    cells = {b.id: criterion_cells(s.id, b, cfg.criteria, by_prompt) for b in boards}
    return SweepResult(s.id, s.date, list(s.judges), s.note, boards, scored, agreement, retried,
                       [x for x in scored if x.state == "failed"], [x for x in scored if x.state == "unscored"], sorted(missing), s.amendment,
                       all(f.frozen_at[:10] < s.date for f in inp.frozen) if inp.frozen else None,
                       cfg, inp.fingerprints[index] if inp.fingerprints else "",
                       [] if before is None else settings.changes(settings.for_sweep(inp.config, before), settings.for_sweep(inp.config, index)),
                       cells, metric, [], errored)


def _board(inp: DeclaredInput, cfg: BenchmarkConfig, sweep: str, bid: str, label: str, prompts: list[str], by_key: dict,
           missing_keys: set) -> Board:
    n_iter = cfg.repeats.iterations
    ranks_at = len(prompts) >= cfg.boards.min_prompts
    rows = []
    for m in inp.models:
        means, scored, failed, unscored, lacking = [], 0, 0, 0, []
        for p in prompts:
            got = []
            for k in range(1, n_iter + 1):
                x = by_key.get((m.id, p, k))
                if x is None:
                    lacking.append((m.id, p, k))
                elif x.state == "failed":
                    failed += 1
                    if x.score is not None:  # errored = "failing": scored, at the lowest score
                        got.append(x.score)
                elif x.state == "unscored":
                    unscored += 1
                else:
                    got.append(x.score)
            scored += len(got)
            if got:
                means.append(float(np.mean(got)))
        expected = len(prompts) * n_iter
        if len(lacking) == expected:
            continue  # a model this sweep did not run is not on its boards
        missing = len(lacking)
        if bid != OVERALL:  # the overall board repeats its boards' prompts (and may hold a model one of them lacks)
            missing_keys.update(lacking)
        published = scored >= cfg.gate.min_scored_share * expected and bool(means)
        arr = np.array(means, dtype=np.float64)
        if published and ranks_at:
            seed = stats.derive_seed(sweep, m.id, bid)
            lo, hi = stats.percentile_bootstrap(arr, seed)
            rows.append(Row(m.id, m.name, m.house, expected, scored, failed, missing, unscored, True, float(arr.mean()), lo, hi, len(means), seed=seed))
        elif published:  # too few prompts to rank: the score, without an interval to order it by
            rows.append(Row(m.id, m.name, m.house, expected, scored, failed, missing, unscored, True, float(arr.mean()), prompts=len(means)))
        else:
            rows.append(Row(m.id, m.name, m.house, expected, scored, failed, missing, unscored, False, prompts=len(means)))
    ranks = stats.rank_ranges([stats.Interval(r.model, r.low, r.high) for r in rows if r.published]) if ranks_at else {}
    ranked = sorted((Row(**{**r.__dict__, "rank_best": ranks[r.model][0], "rank_worst": ranks[r.model][1]}) if ranks_at else r
                     for r in rows if r.published), key=lambda r: (-r.score, r.model))
    withheld = sorted((r for r in rows if not r.published), key=lambda r: (r.name, r.model))
    return Board(bid, label, prompts, ranked + withheld, ranks_at, bid == OVERALL and cfg.boards.overall)


def _agreement(board: Board, a: str, b: str, scored: list[ScoredItem]) -> Agreement:
    """Spearman's rho between two judges' model means on one board (over the items both scored)."""
    prompts = set(board.prompts)
    per: dict[str, list[tuple[float, float]]] = {}
    for x in scored:
        if x.item.prompt in prompts and a in x.judge_scores and b in x.judge_scores:
            per.setdefault(x.item.model, []).append((x.judge_scores[a], x.judge_scores[b]))
    models = sorted(per)
    xs = [float(np.mean([p[0] for p in per[m]])) for m in models]
    ys = [float(np.mean([p[1] for p in per[m]])) for m in models]
    return Agreement(board.id, a, b, stats.spearman_rho(xs, ys), len(models))
