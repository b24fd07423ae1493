"""Each board row's drill-down: a page per (model, domain) listing every cell of the row, its
status (counted or the one exclusion reason), its task score and every judge call with the
anchors it chose and its rationale, beside the rubric's dimensions. A board row links to it."""

from __future__ import annotations

from collections import defaultdict
from functools import partial
from typing import NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sitegen import numbers, store
from sitegen.families import Outputs, Page, Table
from sitegen.families.canonic.compute import CanonicResults
from sitegen.families.canonic.sentences import SENTENCES
from sitegen.families.canonic.store import REASONS
from sitegen.families.canonic.task_pages import TASKS_DIR
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


# Calls are made only by _CallIndex, from table columns it checks whole when it is made.
numbers.checked_where_made(Call)


def _strings(table, column: str) -> list:
    """A string column as Python values, each distinct string one object: every row page holds
    its calls while it is made, and a few words repeat on every call. (A column held as a
    dictionary, validate.WORDS, already is one.)"""
    values = table.column(column).combine_chunks()
    encoded = values if pa.types.is_dictionary(values.type) else pc.dictionary_encode(values)
    words = encoded.dictionary.to_pylist()
    return [None if i is None else words[i] for i in encoded.indices.to_pylist()]


def _judgments(judgments, anchors, counts: list[int], ids: dict[str, list[str]]) -> dict[tuple[str, str], list[Call]]:
    """(model, task) -> its judge calls in artifact order, each with the anchors it chose:
    `anchors` holds them judgment after judgment, `counts[i]` of them for row i of `judgments`. A
    combination of anchors is one dict, shared by every call that chose it (a rubric of five
    dimensions on five anchors has 3,125). The tables hold codes; `ids` says what they stand for."""
    dims = ids["dimension"]
    codes, values = anchors.column("dimension").to_pylist(), anchors.column("anchor").to_pylist()
    none: dict[str, float] = {}
    shared: dict[tuple, dict[str, float]] = {}
    chosen: list[dict[str, float]] = []
    at = 0
    for n in counts:  # a slice per judgment, not a step per anchor: a row page's calls choose 400 of them
        if n:
            key = (tuple(codes[at:at + n]), tuple(values[at:at + n]))
            made = shared.get(key)
            if made is None:
                made = shared[key] = dict(zip([dims[c] for c in key[0]], key[1]))
            chosen.append(made)
            at += n
        else:
            chosen.append(none)
    out: dict[tuple[str, str], list[Call]] = defaultdict(list)
    models, tasks, judges = ids["model"], ids["task"], ids["judge"]
    cols = (*(judgments.column(c).to_pylist() for c in ("model", "task", "judge", "seq")), _strings(judgments, "prompt"),
            _strings(judgments, "outcome"), *(judgments.column(c).to_pylist() for c in ("weighted", "rationale")), chosen)
    for model, task, judge, seq, prompt, outcome, weighted, rationale, chose in zip(*cols):
        out[(models[model], tasks[task])].append(Call(judges[judge], seq, prompt, outcome, weighted, rationale, chose))
    for calls in out.values():
        calls.sort(key=lambda c: c.seq)
    return out


# Board rows beyond which each row's table and page are made when written, not held from the
# start: at 100x data, 7,800 rows hold 493,000 judge calls.
DEFER_ROWS = 2000


# Board rows whose judge calls are gathered together. A row's table and page are made in board
# order, and a gathering has fixed costs (a take from each table's batches, the dictionary
# encoding of two columns, a conversion per column): at 100x data, the 7,800 rows' calls took
# 3.0-3.1 s gathered 64 rows at a time against 3.4-3.75 s one row at a time.
BLOCK = 64


class _CallIndex:
    """Where each (model, domain)'s judge calls and their anchors lie in the validated tables,
    so that a row's table or page takes its own calls when it is made. `order`: the (model,
    domain) of the board rows in the order their tables and pages are made; a row's calls are
    gathered with those of the rows after it (BLOCK), and held until a row outside them is
    asked for."""

    def __init__(self, tables, ids: dict[str, list[str]], task_domain: dict[str, str],
                 order: list[tuple[str, str]], sources: dict[str, str]) -> None:
        self.ids, self.task_domain = ids, task_domain
        # Every number a Call holds comes from these two columns: checked here, whole, so that
        # the check of each row page's context does not search its calls (see Call).
        numbers.finite_column(tables["judgments"].column("weighted"), "the judge calls' weighted scores", sources)
        numbers.finite_column(tables["anchors"].column("anchor"), "the judge calls' anchors", sources)
        self.j, self.a = _Batches(tables["judgments"]), _Batches(tables["anchors"])
        self.j_at = _positions(tables["judgments"], ids, task_domain)
        # The anchors follow their judgments in order: a judgment's are the rows from the first
        # naming it to the first naming a later one.
        self.a_of = tables["anchors"].column("judgment").to_numpy()
        self.order, self.at = order, {key: i for i, key in enumerate(order)}
        self.block: dict[tuple[str, str], dict[tuple[str, str], list[Call]]] = {}

    def calls(self, model: str, domain: str) -> dict[tuple[str, str], list[Call]]:
        """(model, task) -> its calls, for the tasks of one domain (_judgments)."""
        key = (model, domain)
        if key not in self.block:
            i = self.at.get(key)
            self.block = self._gather([key] if i is None else self.order[i:i + BLOCK])
        return self.block[key]

    def _gather(self, keys: list[tuple[str, str]]) -> dict[tuple[str, str], dict[tuple[str, str], list[Call]]]:
        found = [self.j_at[k] for k in keys if k in self.j_at]
        # a judgment's id is its row; in table order, as _Batches.take returns its rows and as
        # the anchors follow them
        judgments = np.sort(np.concatenate(found)) if found else np.empty(0, dtype=np.int64)
        # searched as the anchors' own type (int32): a needle of another type would make numpy
        # convert all 25 million anchors for every block at 1000x data
        needles = judgments.astype(self.a_of.dtype)
        lo, hi = np.searchsorted(self.a_of, needles, "left"), np.searchsorted(self.a_of, needles, "right")
        counts = hi - lo
        # the positions lo..hi-1 of each judgment in turn, without a Python step per judgment:
        # position k of the result is k plus its judgment's lo less the anchors before it
        anchors = np.arange(counts.sum()) + np.repeat(lo - (np.cumsum(counts) - counts), counts)
        block: dict[tuple[str, str], dict[tuple[str, str], list[Call]]] = {k: {} for k in keys}
        calls = _judgments(self.j.take(judgments), self.a.take(anchors), counts.tolist(), self.ids)
        for (model, task), mine in calls.items():
            block[(model, self.task_domain[task])][(model, task)] = mine
        return block


class _Batches:
    """A table's rows taken by position from the batch each lies in: Table.take would join a
    table of many chunks (one per batch of the intake) into one on every call, and joining it
    once would hold the table twice."""

    def __init__(self, table) -> None:
        self.schema = table.schema
        self.batches = table.to_batches()
        self.starts = np.cumsum([0, *(b.num_rows for b in self.batches)])

    def take(self, positions: np.ndarray):
        which = np.searchsorted(self.starts, positions, side="right") - 1
        parts = [self.batches[k].take(pa.array(positions[which == k] - self.starts[k])) for k in np.unique(which).tolist()]
        return pa.Table.from_batches(parts, schema=self.schema)


def _positions(table, ids: dict[str, list[str]], task_domain: dict[str, str]) -> dict[tuple[str, str], np.ndarray]:
    """(model, domain) -> the positions of its rows in `table` (whose model and task columns
    hold codes), in table order."""
    models = table.column("model").to_numpy().astype(np.int64)
    tasks = table.column("task").to_numpy()
    domain_ids = sorted(set(task_domain.values()))
    of_task = np.array([domain_ids.index(task_domain[t]) for t in ids["task"]], dtype=np.int64)
    key = models * len(domain_ids) + of_task[tasks]
    return {(ids["model"][k // len(domain_ids)], domain_ids[k % len(domain_ids)]): at for k, at in store.positions_by(key)}


def row_outputs(res: CanonicResults, common: dict, out: Outputs) -> None:
    s = res.sweep
    cells_file = res.input.cells_file
    sources = {SWEEP_FILE: common["sources"][SWEEP_FILE], cells_file.rel: cells_file.sha256}
    order = [(r.model, b.domain) for b in res.boards for r in b.rows]  # as the tables and pages below are made
    index = _CallIndex(res.input.tables, res.input.ids, {t.id: t.domain for t in s.tasks}, order, sources)
    # (model, domain) -> its cells' tasks, statuses and task scores: three lists, not a tuple per cell
    cells = dict(res.evidence.cells)
    domains = {d.id: d for d in s.domains}
    judge_name = {j.id: j.name for j in s.judges}
    defer = sum(len(b.rows) for b in res.boards) > DEFER_ROWS
    for b in res.boards:
        rubric = domains[b.domain].rubric
        dims = [d.id for d in rubric.dimensions]
        columns = [*COLUMNS, *(f"anchor_{d}" for d in dims), *TAIL]
        for r in b.rows:
            mine = cells.get((r.model, b.domain), ([], [], []))
            stem = row_path(b.domain, r.model).removesuffix("/index.html") + "/cells"
            page = {**common, "board": b, "row": r, "rubric": rubric, "domain": domains[b.domain], "judge_name": judge_name,
                    "tasks_dir": TASKS_DIR, "stem": stem}
            if defer:  # each made from the row's own calls when it is written
                rows = partial(_row_rows, index, r.model, b.domain, dims, mine)
                context = partial(_row_context, index, r.model, b.domain, mine, page)
            else:
                calls = index.calls(r.model, b.domain)
                rows, context = _table_rows(r.model, b.domain, dims, mine, calls), _with_cells(page, mine, calls)
            out.tables.append(Table(stem, SENTENCES.table_row_cells(b, r), columns, rows, sources, "canonic.cells"))
            out.pages.append(Page(row_path(b.domain, r.model), "canonic/row_cells.html", SENTENCES.page_row_cells(b, r), context))


def _row_rows(index: _CallIndex, model: str, domain: str, dims: list[str], cells: tuple[list, list, list]) -> list[tuple]:
    return _table_rows(model, domain, dims, cells, index.calls(model, domain))


def _row_context(index: _CallIndex, model: str, domain: str, cells: tuple[list, list, list], page: dict) -> dict:
    return _with_cells(page, cells, index.calls(model, domain))


def _table_rows(model: str, domain: str, dims: list[str], cells: tuple[list, list, list], calls: dict) -> list[tuple]:
    """A row's download: one row per judge call, its anchors a column per dimension. `cells`:
    the row's tasks, statuses and task scores."""
    unscored = (None,) * len(dims)
    rows = []
    for task, status, score in zip(*cells):
        for c in calls.get((model, task), []):
            anchors = tuple(c.anchors[d] for d in dims) if c.anchors else unscored
            rows.append((model, domain, task, status, score, c.judge, c.prompt, c.outcome, *anchors, c.weighted, c.rationale))
        if status == GENERATION_FAILURE:  # never judged: one row says so
            rows.append((model, domain, task, status, score, None, None, None, *unscored, None, None))
    return rows


def _with_cells(page: dict, cells: tuple[list, list, list], calls: dict) -> dict:
    """A row page's context: its cells (`cells`: their tasks, statuses and task scores), each
    with its calls and those of them that scored (chosen here, not by a filter in the template:
    at 100x data a row page is rendered 7,800 times, and jinja2's selectattr was a tenth of it)."""
    model = page["row"].model
    shown = []
    for task, status, score in zip(*cells):
        mine = calls.get((model, task), [])
        shown.append((task, status, score, mine, status == GENERATION_FAILURE, [c for c in mine if c.outcome == "score"]))
    return {**page, "cells": shown}
