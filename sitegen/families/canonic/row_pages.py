"""Each board row's drill-down: a page per (model, domain) listing every cell of the row, its
status (counted or the one exclusion reason), its task score and every judge call with the
anchors it chose and its rationale, beside the rubric's dimensions. A board row links to it."""

from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple

import pyarrow.compute as pc

from sitegen.families import Outputs, Page, Table
from sitegen.families.canonic.compute import CanonicResults
from sitegen.families.canonic.sentences import SENTENCES
from sitegen.families.canonic.store import REASONS
from sitegen.families.canonic.task_pages import task_path
from sitegen.families.canonic.validate import SWEEP_FILE

GENERATION_FAILURE = REASONS[0]  # the status of a cell whose output and retry both failed
# One row per judge call, its anchors a column per dimension of the row's rubric (anchor_<id>):
# a call's rationale once, not once per dimension.
COLUMNS = ["model", "domain", "task", "status", "task_score", "judge", "prompt", "outcome"]
TAIL = ["judge_weighted_score", "rationale"]


def row_path(domain: str, model: str) -> str:
    return f"canonic/{domain}/cells/{model}/index.html"


class Call(NamedTuple):
    """One judge call as its row page shows it."""

    judge: str
    seq: int
    prompt: str
    outcome: str
    weighted: float | None
    rationale: str
    anchors: dict[str, float]  # dimension -> the anchor chosen; {} unless it scored


def _strings(table, column: str) -> list:
    """A string column as Python values, each distinct string one object: ids repeat hundreds
    of thousands of times at scale, and every row page holds its calls for the whole build."""
    encoded = pc.dictionary_encode(table.column(column).combine_chunks())
    words = encoded.dictionary.to_pylist()
    return [None if i is None else words[i] for i in encoded.indices.to_pylist()]


def _judgments(tables) -> dict[tuple[str, str], list[Call]]:
    """(model, task) -> its judge calls in artifact order, each with the anchors it chose. A
    combination of anchors is one dict, shared by every call that chose it (a rubric of five
    dimensions on five anchors has 3,125)."""
    a = tables["anchors"]
    chosen: dict[tuple[str, str, int], list[tuple[str, float]]] = defaultdict(list)
    cols = (_strings(a, "model"), _strings(a, "task"), a.column("seq").to_pylist(), _strings(a, "dimension"),
            a.column("anchor").to_pylist())
    for model, task, seq, dim, value in zip(*cols):
        chosen[(model, task, seq)].append((dim, value))
    shared: dict[tuple, dict[str, float]] = {}
    anchors = {key: shared.setdefault(tuple(pairs), dict(pairs)) for key, pairs in chosen.items()}
    del chosen
    out: dict[tuple[str, str], list[Call]] = defaultdict(list)
    j = tables["judgments"]
    strings = {c: _strings(j, c) for c in ("model", "task", "judge", "prompt", "outcome")}
    cols = (strings["model"], strings["task"], strings["judge"], j.column("seq").to_pylist(), strings["prompt"],
            strings["outcome"], j.column("weighted").to_pylist(), j.column("rationale").to_pylist())
    none: dict[str, float] = {}
    for model, task, judge, seq, prompt, outcome, weighted, rationale in zip(*cols):
        out[(model, task)].append(Call(judge, seq, prompt, outcome, weighted, rationale, anchors.get((model, task, seq), none)))
    for calls in out.values():
        calls.sort(key=lambda c: c.seq)
    return out


def row_outputs(res: CanonicResults, common: dict, out: Outputs) -> None:
    s = res.sweep
    cells_file = res.input.cells_file
    sources = {SWEEP_FILE: common["sources"][SWEEP_FILE], cells_file.rel: cells_file.sha256}
    calls = _judgments(res.input.tables)
    cells: dict[tuple[str, str], list[tuple[str, str, float | None]]] = defaultdict(list)
    for model, domain, task, status, score in res.evidence.cells:
        cells[(model, domain)].append((task, status, score))
    domains = {d.id: d for d in s.domains}
    judge_name = {j.id: j.name for j in s.judges}
    for b in res.boards:
        rubric = domains[b.domain].rubric
        dims = [d.id for d in rubric.dimensions]
        columns = [*COLUMNS, *(f"anchor_{d}" for d in dims), *TAIL]
        unscored = (None,) * len(dims)
        for r in b.rows:
            rows = []
            for task, status, score in cells[(r.model, b.domain)]:
                for c in calls.get((r.model, task), []):
                    anchors = tuple(c.anchors[d] for d in dims) if c.anchors else unscored
                    rows.append((r.model, b.domain, task, status, score, c.judge, c.prompt, c.outcome, *anchors,
                                 c.weighted, c.rationale))
                if status == GENERATION_FAILURE:  # never judged: one row says so
                    rows.append((r.model, b.domain, task, status, score, None, None, None, *unscored, None, None))
            stem = row_path(b.domain, r.model).removesuffix("/index.html") + "/cells"
            out.tables.append(Table(stem, SENTENCES.table_row_cells(b, r), columns, rows, sources, "canonic.cells"))
            out.pages.append(Page(row_path(b.domain, r.model), "canonic/row_cells.html", SENTENCES.page_row_cells(b, r), {
                **common, "board": b, "row": r, "rubric": rubric, "domain": domains[b.domain], "judge_name": judge_name,
                "cells": [(task, status, score, calls.get((r.model, task), []), status == GENERATION_FAILURE)
                          for task, status, score in cells[(r.model, b.domain)]],
                "task_path": task_path, "stem": stem,
            }))
