"""The failure record and the diagnostics: every number that can weaken trust in the
boards, computed from the same store as the boards and published beside them.

Probes, contamination split, judge calibration, the reframe appendix, sitcom transfer, the
external rank comparison and the score ladders. Nothing here corrects a score: each analysis
is published as measured.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Iterator

import numpy as np

from sitegen import stats, store
from sitegen.families.canonic import store as cstore
from sitegen.families.canonic.validate import CanonicInput, weighted_score

CONTAMINATION_LABEL = "contamination"  # the last part of the split's seed text


@dataclass(frozen=True)
class ProbeResult:
    id: str
    domain: str
    task: str
    attack: str
    output: str
    max_score: float
    judge_scores: list[tuple[str, float]]  # (judge id, weighted score)
    score: float
    caught: bool


@dataclass(frozen=True)
class SplitRow:
    model: str
    domain: str
    n_novel: int
    n_canonical: int
    novel: float
    canonical: float
    difference: float
    low: float
    high: float
    seed: int


@dataclass(frozen=True)
class Calibration:
    domain: str
    n: int  # counted cells, each scored by both judges
    means: list[tuple[str, float]]  # (judge id, mean weighted score)
    offset: float  # first judge's mean minus the second's
    disagreement: float  # mean absolute difference between the two judges on one cell


@dataclass(frozen=True)
class Comparison:
    domain: str
    predeclared: bool
    pairs: list[tuple[str, float, float]]  # (model id, domain score, external score)
    rho: float | None


@dataclass(frozen=True)
class Rung:
    position: str  # low, middle, high
    model: str
    task_score: float
    judge_scores: list[tuple[str, float]]
    text: str | None  # None when the release does not publish this output
    # judge -> (dimension -> chosen anchor, rationale): each judge's standard-prompt score
    judgments: dict[str, tuple[dict[str, float], str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Ladder:
    domain: str
    task: str
    candidates: int  # publishable outputs for the task
    rungs: list[Rung]
    strict: bool  # both judges scored low < middle < high


@dataclass(frozen=True)
class JudgeOrdering:
    """One domain's published models as each judge orders them, by that judge's own mean
    weighted score over the counted cells (each scored by both judges)."""

    domain: str
    rows: list[tuple[str, list[float], list[float]]]  # model, mean per judge, rank per judge (1 = highest, ties averaged)
    rho: float | None  # Spearman's rho between the judges' means; None when undefined


@dataclass(frozen=True)
class Evidence:
    exclusions_by_model: list[tuple[str, str, int]]
    probes: list[ProbeResult]
    split: list[SplitRow]
    calibration: list[Calibration]
    reframes: list[tuple[str, str, str, str, float]]  # domain, task, model, judge, reframed score
    by_show: list[tuple[str, str, int, float]]  # model, show, counted tasks, mean score
    show_dimensions: list[tuple[str, str, float, int]]  # show, dimension, mean anchor, n
    comparisons: list[Comparison]
    ladders: list[Ladder]
    tasks_total: int
    orderings: list[JudgeOrdering] = field(default_factory=list)
    exclusions_by_row: list[tuple[str, str, str, int]] = field(default_factory=list)  # model, domain, status, cells
    # model, show format, dimension, mean anchor, judgments: format against voice, model by model
    model_dimensions: list[tuple[str, str, str, float, int]] = field(default_factory=list)
    # (model, domain) and its cells' tasks, statuses and task scores (None: not counted), as lists
    cells: list[tuple[tuple[str, str], tuple[list, list, list]]] = field(default_factory=list)
    # show, model (None: every published model pooled), novel cells, canonical-anchored cells, their means
    show_split: list[tuple[str, str | None, int, int, float, float]] = field(default_factory=list)

    @property
    def ladders_strict(self) -> int:
        return sum(1 for lad in self.ladders if lad.strict)


def stored_evidence(db, inp: CanonicInput, published: set[tuple[str, str]]) -> dict[str, Any]:
    """The analyses that need to know only which (model, domain) rows publish (the gate), not
    their intervals: the caller asks them while the bootstraps run. Evidence's fields by name."""
    s = inp.sweep
    judges = [j.id for j in s.judges]
    out = {
        "exclusions_by_model": cstore.exclusions_by_model(db),
        "exclusions_by_row": cstore.exclusions_by_row(db),
        "cells": cstore.cell_statuses(db),
        "probes": _probes(inp),
        "reframes": cstore.reframed(db),
        "by_show": cstore.sitcom_by_show(db),
        # The largest join of the build: asked before the judge pairs are held in memory.
        "show_dimensions": cstore.show_dimension_means(db),
        "model_dimensions": cstore.model_format_dimension_means(db, {sh.id: sh.format for sh in s.shows}),
        "tasks_total": len(s.tasks),
    }
    out["show_split"] = _show_split(cstore.counted_with_origin(db), {t.id: t.show for t in s.tasks}, [m.id for m in s.models],
                                    [sh.id for sh in s.shows], published)
    pairs = cstore.judge_pairs(db)  # calibration and ladders read the same rows: fetched once
    out["calibration"] = _calibration(pairs, judges, [d.id for d in s.domains])
    out["orderings"] = _orderings(pairs, judges, [d.id for d in s.domains], [m.id for m in s.models], published)
    out["ladders"] = _ladders(db, pairs, judges, published, inp.output_texts)
    return out


def compute_evidence(stored: dict[str, Any], inp: CanonicInput, boards, split: list[SplitRow]) -> Evidence:
    """Evidence from stored_evidence's analyses, the contamination split (split_jobs and
    split_rows, bootstrapped beside the boards) and the comparisons, which need the boards."""
    return Evidence(**stored, split=split, comparisons=_comparisons(inp, boards))


def _probes(inp: CanonicInput) -> list[ProbeResult]:
    if inp.probes is None:
        return []
    rubrics = {d.id: d.rubric for d in inp.sweep.domains}
    order = [j.id for j in inp.sweep.judges]
    out = []
    for p in inp.probes.probes:
        by_judge = {j.judge: weighted_score(rubrics[p.domain], j.anchors) for j in p.judgments}
        judge_scores = [(jid, by_judge[jid]) for jid in order]
        score = float(np.mean([v for _, v in judge_scores]))
        out.append(ProbeResult(p.id, p.domain, p.task, p.attack, p.output, p.max_score, judge_scores, score, score <= p.max_score))
    return out


def split_jobs(db, sweep_id: str, published) -> tuple[list[tuple[str, str]], list[tuple]]:
    """The contamination split's bootstraps for each published row (`published`: its
    (model, domain) keys): novel minus canonical-anchored premise scores, seeded with the seed
    text sweep|model|domain|contamination. Returns (keys, stats.difference_bootstrap args)."""
    groups: dict[tuple[str, str], dict[str, np.ndarray]] = defaultdict(dict)
    for (model, domain, origin), scores in cstore.counted_by_origin(db):
        groups[(model, domain)][origin] = scores
    keys, jobs = [], []
    for (model, domain), g in sorted(groups.items()):
        if (model, domain) not in published or "novel" not in g or "canonical-anchored" not in g:
            continue
        seed = stats.derive_seed(sweep_id, model, domain, CONTAMINATION_LABEL)
        keys.append((model, domain))
        jobs.append((g["novel"], g["canonical-anchored"], seed))
    return keys, jobs


def split_rows(keys: list[tuple[str, str]], jobs: list[tuple], intervals: list[tuple[float, float]]) -> list[SplitRow]:
    """The split's rows from split_jobs and the intervals its bootstraps gave, in job order."""
    out = []
    for (model, domain), (a, b, seed), (low, high) in zip(keys, jobs, intervals, strict=True):
        out.append(SplitRow(model, domain, len(a), len(b), float(a.mean()), float(b.mean()), float(a.mean() - b.mean()), low, high, seed))
    return out


def _cells_of_both(pairs: list) -> np.ndarray:
    """The first row of each cell in cstore.judge_pairs columns: a cell's two rows (one per
    judge, as validation requires of a counted cell) are consecutive."""
    domain, task, model, judge, _weighted = pairs
    first = store.run_starts([domain.codes, task.codes, model.codes])
    sizes = np.diff(np.append(first, len(judge.codes)))
    first = first[sizes == 2]
    return first[judge.codes[first] != judge.codes[first + 1]]


def _calibration(pairs: list, judges: list[str], domains: list[str]) -> list[Calibration]:
    """Per domain, from cstore.judge_pairs columns: over the cells both judges scored, in
    task and model order, each judge's mean, their difference and the mean absolute gap."""
    domain, _task, _model, judge, weighted = pairs
    first = _cells_of_both(pairs)
    is_first = judge.codes[first] == judge.code(judges[0])  # which of the cell's rows is the first judge's
    mine = np.where(is_first, weighted[first], weighted[first + 1])
    other = np.where(is_first, weighted[first + 1], weighted[first])
    of_cell = domain.codes[first]
    out = []
    for d in domains:
        at = of_cell == domain.code(d)
        if not at.any():
            continue
        arr = np.column_stack([mine[at], other[at]])  # (cells, 2), C order: the array the cells' pairs made
        means = arr.mean(axis=0)
        out.append(Calibration(d, len(arr), [(judges[0], float(means[0])), (judges[1], float(means[1]))],
                               float(means[0] - means[1]), float(np.abs(arr[:, 0] - arr[:, 1]).mean())))
    return out


def _of_published(model, domain, published: set[tuple[str, str]]) -> np.ndarray:
    """Which rows of a store.coded_columns result (its `model` and `domain` columns) belong to a
    published (model, domain) row of a board."""
    width = len(domain.names)
    keys = [model.code(m) * width + domain.code(d) for m, d in published if model.code(m) >= 0 and domain.code(d) >= 0]
    return np.isin(model.codes.astype(np.int64) * width + domain.codes, keys)


def _show_split(counted: list, show_of: dict[str, str | None], roster: list[str], shows: list[str],
                published: set[tuple[str, str]]) -> list[tuple]:
    """The contamination split per show, over the counted cells of published rows (`counted`:
    cstore.counted_with_origin columns): for each show, every model pooled, then each model.
    Descriptive (no interval): a show has only a few novel tasks. Means by math.fsum, so the
    order of the rows cannot move a last digit."""
    model, domain, origin, task, score = counted
    show_at = {sh: i for i, sh in enumerate(shows)}
    row_show = np.array([show_at.get(show_of.get(t), -1) for t in task.names], dtype=np.int64)[task.codes] \
        if task.names else np.empty(0, dtype=np.int64)
    keep = np.flatnonzero((row_show >= 0) & _of_published(model, domain, published))
    shown, of_model, of_origin, values = row_show[keep], model.codes[keep].astype(np.int64), origin.codes[keep], score[keep]
    n_models, n_origins = max(len(model.names), 1), max(len(origin.names), 1)

    def means(key: np.ndarray) -> dict[int, tuple[int, float]]:
        """key -> (rows, their mean) over the kept rows, grouped by key."""
        return {k: (len(at), math.fsum(values[at].tolist()) / len(at)) for k, at in store.positions_by(key)}

    pooled = means(shown * n_origins + of_origin)
    by_model = means((shown * n_models + of_model) * n_origins + of_origin)
    novel, canonical = origin.code("novel"), origin.code("canonical-anchored")
    out = []
    for s_i, show in enumerate(shows):
        for m in [None, *roster]:
            if m is None:
                a, b = pooled.get(s_i * n_origins + novel), pooled.get(s_i * n_origins + canonical)
            else:
                at = (s_i * n_models + model.code(m)) * n_origins
                a, b = (by_model.get(at + novel), by_model.get(at + canonical)) if model.code(m) >= 0 else (None, None)
            if a is not None and b is not None and novel >= 0 and canonical >= 0:
                out.append((show, m, a[0], b[0], a[1], b[1]))
    return out


def _orderings(pairs: list, judges: list[str], domains: list[str], roster: list[str],
               published: set[tuple[str, str]]) -> list[JudgeOrdering]:
    """Per domain, from cstore.judge_pairs columns: each judge's mean over a published row's
    counted cells (math.fsum, so the order of the rows cannot move a last digit), its ranks,
    and the rank correlation of the two judges. Rows in the board's order: by the mean of the
    judges' means (the row's score), then by model id."""
    domain, _task, model, judge, weighted = pairs
    # one group per (domain, model, judge), its rows in order (a stable sort by a code of the three)
    key = (domain.codes.astype(np.int64) * len(model.names) + model.codes) * len(judge.names) + judge.codes
    scores: dict[tuple[str, str], dict[str, float]] = defaultdict(dict)  # (domain, model) -> judge -> mean
    for k, at in store.positions_by(key):
        rest, j = divmod(k, len(judge.names))
        d, m = divmod(rest, len(model.names))
        d, m = domain.names[d], model.names[m]
        if (m, d) in published:
            values = weighted[at].tolist()
            scores[(d, m)][judge.names[j]] = math.fsum(values) / len(values)
    out = []
    for d in domains:
        models = [m for m in roster if (d, m) in scores]
        if not models:
            continue
        means = [[scores[(d, m)][j] for j in judges] for m in models]
        ranks = [stats.average_ranks([-row[k] for row in means]) for k in range(len(judges))]
        rows = sorted(((m, means[i], [ranks[k][i] for k in range(len(judges))]) for i, m in enumerate(models)),
                      key=lambda r: (-math.fsum(r[1]) / len(r[1]), r[0]))
        out.append(JudgeOrdering(d, rows, stats.spearman_rho([r[0] for r in means], [r[1] for r in means])))
    return out


def _comparisons(inp: CanonicInput, boards) -> list[Comparison]:
    """Spearman's rho between each domain's published scores and the external leaderboard,
    over exact model-identity matches only."""
    if inp.external is None:
        return []
    ext = {e.model: e.score for e in inp.external.entries}
    out = []
    for b in boards:
        pairs = [(r.model, r.score, ext[r.model]) for r in b.published if r.model in ext]
        rho = stats.spearman_rho([p[1] for p in pairs], [p[2] for p in pairs])
        out.append(Comparison(b.domain, b.domain in inp.external.predeclared, pairs, rho))
    return out


def _candidates(columns: list, published) -> Iterator[tuple[tuple[str, str], "_Ordered"]]:
    """((domain, task), its publishable outputs in order of task score, then model id) for each
    task with one, from cstore.ladder_candidates columns (in that order already)."""
    domain, task, model, score = columns
    rows = np.flatnonzero(_of_published(model, domain, published))
    of_task = domain.codes[rows].astype(np.int64) * max(len(task.names), 1) + task.codes[rows]
    starts = np.flatnonzero(np.diff(of_task, prepend=-1)) if len(rows) else np.empty(0, dtype=np.int64)
    bounds = [*starts.tolist(), len(rows)]
    for i, begin in enumerate(bounds[:-1]):
        mine = rows[begin:bounds[i + 1]]
        yield (domain.names[domain.codes[mine[0]]], task.names[task.codes[mine[0]]]), _Ordered(model, score, mine)


class _Ordered:
    """One task's candidates, (model id, task score) by position, made only where asked: at
    1000x data a task has 13,000 of them, and a ladder reads three."""

    def __init__(self, model, score: np.ndarray, rows: np.ndarray) -> None:
        self._model, self._score, self._rows = model, score, rows

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, i: int) -> tuple[str, float]:
        r = self._rows[i]
        return self._model.names[self._model.codes[r]], float(self._score[r])


def _ladders(db, pairs: list, judges: list[str], published, output_texts) -> list[Ladder]:
    """For each task with at least three publishable outputs (counted cells of published
    rows): the lowest, the middle and the highest by task score (ties broken by model id)."""
    chosen = {}
    for key, ordered in _candidates(cstore.ladder_candidates(db), published):
        if len(ordered) >= 3:
            chosen[key] = (len(ordered), [("low", ordered[0]), ("middle", ordered[(len(ordered) - 1) // 2]), ("high", ordered[-1])])
    keys = sorted({(m, t) for (_d, t), (_n, rungs) in chosen.items() for _p, (m, _s) in rungs})
    wanted = set(keys)  # the judges' scores of the chosen outputs only (at scale, millions of cells)
    judge_scores: dict[tuple[str, str], dict[str, float]] = defaultdict(dict)
    _domain, task, model, judge, weighted = pairs  # cstore.judge_pairs columns
    want = {model.code(m) * len(task.names) + task.code(t) for m, t in wanted if model.code(m) >= 0 and task.code(t) >= 0}
    rows = np.flatnonzero(np.isin(model.codes.astype(np.int64) * len(task.names) + task.codes, list(want)))
    for r in rows.tolist():
        judge_scores[(model.names[model.codes[r]], task.names[task.codes[r]])][judge.names[judge.codes[r]]] = float(weighted[r])
    texts = output_texts.read(cstore.output_spans(db, keys)) if output_texts is not None else {}
    records = cstore.standard_scores(db, keys)
    ladders = []
    for (domain, task), (n, picks) in sorted(chosen.items()):
        rungs = [Rung(pos, m, sc, [(j, judge_scores[(m, task)][j]) for j in judges], texts.get((m, task)), records[(m, task)])
                 for pos, (m, sc) in picks]
        strict = all(rungs[0].judge_scores[k][1] < rungs[1].judge_scores[k][1] < rungs[2].judge_scores[k][1] for k in range(len(judges)))
        ladders.append(Ladder(domain, task, n, rungs, strict))
    return ladders
