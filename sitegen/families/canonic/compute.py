"""Every number Canonic publishes, computed from the stored records.

Counting happens in SQL (store.py); means, intervals and rank ranges come from sitegen.stats,
because the method page promises that a reader can reproduce them with numpy alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from sitegen import stats
from sitegen.numbers import display
from sitegen.parallel import Background, call
from sitegen.families.canonic import store as cstore
from sitegen.families.canonic.evidence import Evidence, compute_evidence, split_jobs, split_rows, stored_evidence
from sitegen.families.canonic.validate import CanonicInput, weighted_score

GATE_NUMERATOR, GATE_DENOMINATOR = 4, 5  # a row publishes when counted / total >= 4/5 (80%)


@dataclass(frozen=True)
class BoardRow:
    model: str
    name: str
    family: str
    self_family: bool
    total: int
    attempted: int
    counted: int
    published: bool
    reason: str | None = None
    score: float | None = None
    low: float | None = None
    high: float | None = None
    rank_best: int | None = None
    rank_worst: int | None = None
    seed: int | None = None


@dataclass(frozen=True)
class Board:
    domain: str
    name: str
    rows: list[BoardRow]  # published rows by score, then model id; then withheld rows by name

    @property
    def published(self) -> list[BoardRow]:
        return [r for r in self.rows if r.published]

    @property
    def withheld(self) -> list[BoardRow]:
        return [r for r in self.rows if not r.published]

    @property
    def first(self) -> list[BoardRow]:
        """The rows whose rank range starts at 1: tied for first when there are several."""
        return [r for r in self.rows if r.rank_best == 1]


@dataclass(frozen=True)
class WorkedExample:
    model: str
    model_name: str
    task: str
    domain: str
    judges: list[dict]  # per judge: id, name, terms [(dimension, weight, anchor, product)], score
    task_score: float
    row: BoardRow
    seed_text: str


@dataclass(frozen=True)
class CanonicResults:
    input: CanonicInput
    boards: list[Board]
    cells_total: int
    cells_counted: int
    rows_total: int
    rows_published: int
    exclusions: list[tuple[str, str, int]] = field(default_factory=list)
    example: WorkedExample | None = None
    evidence: Evidence | None = None
    # the cells the cells file records: fewer than cells_total when a model's task has none
    cells_recorded: int = 0

    @property
    def cells_missing(self) -> int:
        """Cells of the sweep (a model given a task) with no record in the cells file."""
        return self.cells_total - self.cells_recorded

    @property
    def sweep(self):
        return self.input.sweep


def gate(total: int, attempted: int, counted: int) -> str | None:
    """None when the row publishes, else the reason it is withheld."""
    if attempted < total:
        return f"{total - attempted} of {total} tasks not attempted; every task must be attempted"
    if counted * GATE_DENOMINATOR < total * GATE_NUMERATOR:
        return f"only {counted} of {total} tasks counted ({display(counted / total, 0, times100=True)}%); the gate needs 80%"
    return None


def compute(db, inp: CanonicInput) -> CanonicResults:
    s = inp.sweep
    models = {m.id: m for m in s.models}
    judge_families = {j.family for j in s.judges}
    scores = dict(cstore.counted_scores(db))  # (model, domain) -> its counted scores, in task order

    grid = cstore.grid(db)
    # The cells of the sweep are every model given every task (a row's total); those recorded
    # are its attempted ones: a task with no cell is a gap, counted as not counted, never dropped.
    cells_total, cells_recorded, cells_counted = (sum(row[k] for row in grid) for k in (2, 3, 4))
    pending, jobs = [], []
    for model, domain, total, attempted, counted in grid:
        reason = gate(total, attempted, counted)
        if reason is None:
            arr = scores[(model, domain)]
            seed = stats.derive_seed(s.sweep.id, model, domain)
            jobs.append((stats.percentile_bootstrap, arr, seed))
            pending.append((model, domain, total, attempted, counted, None, float(arr.mean()), seed))
        else:
            pending.append((model, domain, total, attempted, counted, reason, None, None))
    del scores
    with Background(call) as bootstraps:
        bootstraps.submit(jobs)  # the workers start on the boards' intervals at once
        # The contamination split bootstraps the same published rows (the gate decides which,
        # not the intervals): its jobs follow the boards' to the same workers. Every job
        # carries its own seed, so the numbers do not depend on how the jobs are spread.
        gated = {(p[0], p[1]) for p in pending if p[5] is None}
        split_keys, split_args = split_jobs(db, s.sweep.id, gated)
        bootstraps.submit([(stats.difference_bootstrap, *args) for args in split_args])
        # The store's other questions, which need no interval, are asked while the bootstraps run.
        exclusions = cstore.exclusions_by_reason(db)
        stored = stored_evidence(db, inp, gated)
        results = bootstraps.result()
    n_boards = len(jobs)
    intervals = iter(results[:n_boards])
    split = split_rows(split_keys, split_args, results[n_boards:])

    by_domain: dict[str, list[BoardRow]] = {d.id: [] for d in s.domains}
    for model, domain, total_, attempted, counted_, reason, score, seed in pending:
        m = models[model]
        low = high = None
        if reason is None:
            low, high = next(intervals)
        by_domain[domain].append(BoardRow(
            model=model, name=m.name, family=m.family, self_family=m.family in judge_families,
            total=total_, attempted=attempted, counted=counted_, published=reason is None,
            reason=reason, score=score, low=low, high=high, seed=seed))

    boards = []
    for d in s.domains:
        rows = by_domain[d.id]
        ranks = stats.rank_ranges([stats.Interval(r.model, r.low, r.high) for r in rows if r.published])
        published = sorted(
            (replace(r, rank_best=ranks[r.model][0], rank_worst=ranks[r.model][1]) for r in rows if r.published),
            key=lambda r: (-r.score, r.model))
        withheld = sorted((r for r in rows if not r.published), key=lambda r: (r.name.casefold(), r.model))
        boards.append(Board(d.id, d.name, published + withheld))

    rows_total = sum(len(b.rows) for b in boards)
    rows_published = sum(len(b.published) for b in boards)
    return CanonicResults(
        input=inp, boards=boards, cells_total=cells_total, cells_counted=cells_counted, cells_recorded=cells_recorded,
        rows_total=rows_total, rows_published=rows_published,
        exclusions=exclusions, example=_worked_example(db, inp, boards),
        evidence=compute_evidence(stored, inp, boards, split))


def _worked_example(db, inp: CanonicInput, boards: list[Board]) -> WorkedExample | None:
    found = cstore.first_counted_cell(db)
    if found is None:
        return None
    model, task, domain = found
    s = inp.sweep
    rubric = next(d.rubric for d in s.domains if d.id == domain)
    judge_names = {j.id: j.name for j in s.judges}
    scored = cstore.standard_scores(db, [(model, task)])[(model, task)]  # judge -> (anchors, rationale)
    judges = []
    for judge in (j.id for j in s.judges):
        anchors, rationale = scored[judge]
        terms = [(d.id, d.weight, anchors[d.id], 100.0 * d.weight * anchors[d.id]) for d in rubric.dimensions]
        judges.append({"id": judge, "name": judge_names[judge], "terms": terms, "score": weighted_score(rubric, anchors),
                       "rationale": rationale})
    row = next(r for b in boards if b.domain == domain for r in b.rows if r.model == model)
    return WorkedExample(
        model=model, model_name=next(m.name for m in s.models if m.id == model), task=task, domain=domain,
        judges=judges, task_score=float(np.mean([j["score"] for j in judges])), row=row,
        seed_text=f"{s.sweep.id}|{model}|{domain}")
