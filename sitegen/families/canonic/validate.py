"""Canonic intake: read the two artifact files, check every rule, collect every problem.

Order of checks, each on what the previous one let through:
1. bytes -> JSON (duplicate keys, NaN, invalid UTF-8 rejected in sitegen.load);
2. the no-overall-score rule on the raw JSON, at any depth, before the models see it
   (so the message says *why* the key is refused, not merely that it is unknown);
3. pydantic shape (models.py);
4. rules across documents: references, one judgment per judge, anchors per rubric, the
   task-set fingerprint and every stated weighted score recomputed.
"""

from __future__ import annotations

import os
import sys
from functools import partial
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pydantic import TypeAdapter

from sitegen import amendments, names
from sitegen.aggregate import is_aggregate_key
from sitegen.config import Limits
from sitegen.contract import duplicates, validate_many
from sitegen.errors import BuildError, Problem, short_repr
from sitegen.load import JsonlReader, Loaded, RawChunk, SourceFile, json_path, map_chunks, parse_chunk
from sitegen.parquet import ParquetReader, RawBatch, parse_batch
from sitegen.families.canonic import evidence_intake as ev
from sitegen.families.canonic import prompts
from sitegen.families.canonic.codes import UNKNOWN, decoded, vocabularies
from sitegen.families.canonic.evidence_intake import SWEEP_FILE, FreezeResult, aggregate_problems, task_set_fingerprint
from sitegen.families.canonic.models import ANCHOR_VALUES, WEIGHT_TOLERANCE, Cell, ExternalBoard, ProbesFile, SweepFile

CELLS_FILE = "data/canonic/cells.jsonl"
# The same records as Parquet rows, which a harness at scale writes instead (sitegen.parquet):
# a site holds one of the two.
CELLS_PARQUET = "data/canonic/cells.parquet"
# The folders of Canonic's own pages under canonic/, beside one folder per domain (its board):
# a domain id naming one of them would take that page's path (evidence_pages.py; the method
# page and the Show Bibles are authored under content/canonic/).
RESERVED_DOMAIN_IDS = ("bibles", "diagnostics", "ladders", "method", "tasks", "verification")
STATED_SCORE_TOLERANCE = 1e-6  # on the 0-100 scale: far below display precision, far above float noise

_CELLS = TypeAdapter(list[Cell])


CHUNK = 5000  # cells validated per pydantic call: bounds memory, keeps the call fast


# The validated cells as columns. A model, task, judge or dimension is held as its code, its
# place in the sweep's own list of them (CODED, vocabularies()), not as its id again on every
# row: at 1000x data there are 5 million judgments and 25 million anchors, and their ids alone
# would take 1.3 GB. The store decodes them (store.py), so every query sees the ids.
# A column of a few words on every row (a prompt, an outcome, a generation's status) is held
# as a dictionary: a byte per row instead of the word again (queries read it as VARCHAR).
WORDS = pa.dictionary(pa.int8(), pa.string())
SCHEMAS = {
    "cells": {"model": pa.int32(), "task": pa.int32(), "gen_status": WORDS, "gen_reason": pa.string(), "line": pa.int64()},
    "judgments": {"model": pa.int32(), "task": pa.int32(), "judge": pa.int32(), "seq": pa.int32(),
                  "prompt": WORDS, "outcome": WORDS, "weighted": pa.float64(), "rationale": pa.string()},
    # An anchor names its judgment by the judgment's row in the judgments table (its "id" once
    # the chunks are joined), not by model, task, judge and seq again. Anchors are most of the
    # rows (25 million at 1000x data), so each is held in 10 bytes instead of 20: a row number
    # fits 32 bits (JUDGMENT_ROWS), a dimension's code 16, and an anchor, a quarter step
    # (ANCHOR_VALUES), is exact in 32-bit floating point. The store reads them back as BIGINT,
    # INTEGER and DOUBLE (store.py), so every query computes as it did on 64-bit columns.
    "anchors": {"judgment": pa.int32(), "dimension": pa.int16(), "anchor": pa.float32()},
}
JUDGMENT_ROWS = 2 ** 31 - 1  # judgments an artifact may hold: each anchor's judgment row fits an int32


class CellColumns:
    """Validated cells collected as columns, then frozen into Arrow tables. The parsed JSON
    and the pydantic objects of a chunk are dropped once its columns are out, so a large
    artifact costs its compact columns, not its object tree; Arrow tables also cross from a
    worker process as a few buffers instead of millions of Python objects."""

    def __init__(self) -> None:
        self.data = {t: {c: [] for c in cols} for t, cols in SCHEMAS.items()}
        self.cells, self.judgments, self.anchors = self.data["cells"], self.data["judgments"], self.data["anchors"]

    def to_arrow(self) -> dict[str, pa.Table]:
        return {t: pa.table({c: pa.array(self.data[t][c], type=typ) for c, typ in cols.items()}) for t, cols in SCHEMAS.items()}


@dataclass(frozen=True)
class CanonicInput:
    """The validated artifact, ready for the store."""

    sweep: SweepFile
    tables: dict[str, pa.Table]  # cells, judgments, anchors (see SCHEMAS); outputs when published
    sweep_file: SourceFile
    cells_file: SourceFile
    freeze: FreezeResult
    probes: ProbesFile | None = None
    probes_file: SourceFile | None = None
    external: ExternalBoard | None = None
    external_file: SourceFile | None = None
    outputs_file: SourceFile | None = None
    log: amendments.Log | None = None  # content/canonic/amendments/ (sitegen.amendments)
    output_texts: ev.OutputTexts | None = None  # the texts of outputs.jsonl, read when shown

    @property
    def ids(self) -> dict[str, list[str]]:
        """What the coded columns of `tables` decode to (vocabularies())."""
        return vocabularies(self.sweep)


def weighted_score(rubric, anchors: dict[str, float]) -> float:
    """sum(weight x anchor) over the rubric's dimensions in rubric order, on 0-100."""
    return 100.0 * sum(d.weight * anchors[d.id] for d in rubric.dimensions)


def load_canonic(root: Path, loaded: Loaded, limits: Limits) -> CanonicInput | None:
    """Read and check every Canonic file. Each file is read and shape-checked even when
    another is missing or broken, so one run reports every file's own problems; only the
    checks across files that need a sound sweep are skipped without one."""
    problems = loaded.problems
    sweep_path = root / SWEEP_FILE
    if not os.path.lexists(sweep_path):  # anything else there is refused by the reader, by name
        problems.append(Problem(SWEEP_FILE, None, "", "this file (the Canonic family is enabled)", "no such file"))
    cells_rel = _cells_file(root, problems)

    sweep_src, sweep = _load_sweep(root, loaded, limits) if os.path.lexists(sweep_path) else (None, None)

    tables: dict[str, pa.Table] | None = None
    reader = None
    if cells_rel is not None:
        # The cells are checked even when the sweep is broken (their shape still can be).
        if cells_rel == CELLS_PARQUET:
            reader = ParquetReader(root, root / cells_rel, loaded, limits)
            batches, check = reader.raw_batches(CHUNK), partial(_check_batch, sweep)
        else:
            reader = JsonlReader(root, root / cells_rel, loaded, limits)
            batches, check = reader.raw_chunks(CHUNK), partial(_check_chunk, sweep)
        parts: dict[str, list[pa.Table]] = {t: [] for t in SCHEMAS}
        for chunk_tables, found in map_chunks(check, batches, reader.size):
            problems.extend(found)
            for t, table in (chunk_tables or {}).items():
                parts[t].append(table)
        if sweep is not None:
            tables = _joined(parts)
            problems.extend(_duplicate_cells(tables["cells"], cells_rel, vocabularies(sweep)))

    probes_src, probes = ev.load_probes(root, loaded, limits, sweep)
    freeze = ev.load_freeze(root, loaded, limits, sweep, probes)
    external_src, external = ev.load_external(root, loaded, limits, sweep)
    # Outputs are checked against the cells only when the cells are sound; otherwise every
    # output of a broken cell line would be reported a second time.
    sound = None if problems or tables is None else (tables["cells"], vocabularies(sweep))
    outputs_src, outputs = ev.load_outputs(root, loaded, limits, sound)
    log = amendments.read(root, "canonic", loaded, limits)
    amendments.check(log, problems)
    if problems or sweep is None or tables is None or reader is None or reader.source is None:
        return None
    if outputs is not None:
        tables["outputs"] = outputs
    return CanonicInput(sweep, tables, sweep_src, reader.source, freeze, probes, probes_src, external, external_src,
                        outputs_src, log, ev.OutputTexts(root, outputs_src.rel) if outputs is not None else None)


def _load_sweep(root: Path, loaded: Loaded, limits: Limits) -> tuple[SourceFile | None, SweepFile | None]:
    """sweep.json, read and checked on its own. The sweep is None if its shape or its weights
    are broken: wrong weights would make every weighted score recomputed from them wrong (and
    the rubric differ from its frozen fingerprint), so the other files are then checked for
    their own rules only. Its other problems leave it usable for the checks across files."""
    src, sweep = ev.read_model(root, SWEEP_FILE, SweepFile, loaded, limits, required=False)
    if sweep is None:
        return src, None
    weights = _weight_problems(sweep)
    loaded.problems.extend(weights + _check_sweep(sweep))
    return src, None if weights else sweep


def _joined(parts: dict[str, list[pa.Table]]) -> dict[str, pa.Table]:
    """The chunks' tables joined in file order: the judgments numbered by their row ("id"),
    each chunk's anchors pointing at their judgment's row in the whole table."""
    offset = 0
    for k, (judgments, anchors) in enumerate(zip(parts["judgments"], parts["anchors"])):
        if offset:
            parts["anchors"][k] = anchors.set_column(0, "judgment", pc.add_checked(anchors.column("judgment"), pa.scalar(offset, pa.int32())))
        offset += judgments.num_rows
        if offset > JUDGMENT_ROWS:  # ~2 billion judge calls: a cells file of over 100 GB
            raise BuildError(f"the Canonic cells hold more than {JUDGMENT_ROWS:,} judgments, more than one build can hold")
    tables = {t: pa.concat_tables(p) if p else CellColumns().to_arrow()[t] for t, p in parts.items()}
    tables["judgments"] = tables["judgments"].append_column("id", pa.array(np.arange(offset, dtype=np.int64)))
    return tables


def _cells_file(root: Path, problems: list[Problem]) -> str | None:
    """The cells file the site holds, cells.jsonl or cells.parquet; None (and the problem) when
    it holds neither or both."""
    there = [rel for rel in (CELLS_FILE, CELLS_PARQUET) if os.path.lexists(root / rel)]
    if len(there) == 1:
        return there[0]
    if there:
        problems.append(Problem(CELLS_PARQUET, None, "", f"one file of cells ({CELLS_FILE} or this one, not both)", "both"))
    else:
        problems.append(Problem(CELLS_FILE, None, "", f"this file, or {CELLS_PARQUET} (the Canonic family is enabled)", "no such file"))
    return None


def _check_chunk(sweep: SweepFile | None, chunk: RawChunk) -> tuple[dict[str, pa.Table] | None, list[Problem]]:
    """Everything that can be checked about a chunk of cells.jsonl on its own (all but
    duplicates across chunks). Runs in a worker process for large files."""
    records, problems = parse_chunk(chunk, is_aggregate_key)
    return _check_records(sweep, chunk.rel, records, problems)


def _check_batch(sweep: SweepFile | None, batch: RawBatch) -> tuple[dict[str, pa.Table] | None, list[Problem]]:
    """The same, for a batch of rows of cells.parquet."""
    records, problems = parse_batch(batch, is_aggregate_key)
    return _check_records(sweep, batch.rel, records, problems)


def _check_records(sweep: SweepFile | None, rel: str, records: list, problems: list[Problem]) -> tuple[dict[str, pa.Table] | None, list[Problem]]:
    clean = []
    for rec in records:
        agg = aggregate_problems(rec)
        problems.extend(agg)
        if not agg:
            clean.append(rec)
    cells, errs = validate_many(_CELLS, clean, rel)
    problems.extend(errs)
    if sweep is None:
        return None, problems
    bad = {e.line for e in errs}
    checker = _CellChecker(sweep, rel)
    checker.check(cells, [r.line for r in clean if r.line not in bad])
    return checker.columns.to_arrow(), problems + checker.problems


def _duplicate_cells(cells: pa.Table, rel: str, ids: dict[str, list[str]]) -> list[Problem]:
    seen: dict[tuple[str, str], int] = {}
    out = []
    cols = [decoded(cells, "model", ids), decoded(cells, "task", ids), cells.column("line").to_pylist()]
    for model, task, line in zip(*cols):
        first = seen.setdefault((model, task), line)
        if first != line:
            where = "row" if rel.endswith(".parquet") else "line"
            out.append(Problem(rel, line, "", f"one cell per (model, task) (first at {where} {first})", f"{model} x {task} again"))
    return out



def _weight_problems(s: SweepFile) -> list[Problem]:
    """Each rubric's dimension weights sum to 1 (checked here rather than in the model so the
    message can say what they sum to)."""
    out = []
    for i, d in enumerate(s.domains):
        total = sum(dim.weight for dim in d.rubric.dimensions)
        if abs(total - 1.0) > WEIGHT_TOLERANCE:
            out.append(Problem(SWEEP_FILE, None, f"$.domains[{i}].rubric.dimensions", "dimension weights summing to 1", f"weights summing to {total:.12g}"))
    return out


def _check_sweep(s: SweepFile) -> list[Problem]:
    f = SWEEP_FILE
    out: list[Problem] = []
    j1, j2 = s.judges
    if j1.family == j2.family:
        out.append(Problem(f, None, "$.judges[1].family", f"a judge from a different family than {j1.id} ({j1.family})", short_repr(j2.family)))
    for name, items in (("judges", s.judges), ("models", s.models), ("shows", s.shows), ("domains", s.domains), ("tasks", s.tasks)):
        for d in duplicates(x.id for x in items):
            out.append(Problem(f, None, f"$.{name}", "unique ids", f"{d!r} more than once"))
    for name, items in (("judges", s.judges), ("models", s.models), ("shows", s.shows), ("domains", s.domains)):
        out.extend(names.clashes(((f, None, f"$.{name}[{i}].name", x.name) for i, x in enumerate(items)), name[:-1]))
    judge_ids = {j.id for j in s.judges}
    for i, m in enumerate(s.models):
        if m.id in judge_ids:
            out.append(Problem(f, None, f"$.models[{i}].id", "a model that is not also a judge", short_repr(m.id)))
    domains = {d.id: d for d in s.domains}
    shows = {sh.id for sh in s.shows}
    for i, t in enumerate(s.tasks):
        dom = domains.get(t.domain)
        if dom is None:
            out.append(Problem(f, None, f"$.tasks[{i}].domain", f"one of the sweep's domains ({', '.join(sorted(domains))})", short_repr(t.domain)))
            continue
        show_conditioned = any(d.scope == "show-conditioned" for d in dom.rubric.dimensions)
        if show_conditioned and t.show is None:
            out.append(Problem(f, None, f"$.tasks[{i}].show", f"a show (the {dom.id} rubric is show-conditioned)", "null"))
        elif not show_conditioned and t.show is not None:
            out.append(Problem(f, None, f"$.tasks[{i}].show", f"null (the {dom.id} rubric has no show-conditioned dimension)", short_repr(t.show)))
        elif t.show is not None and t.show not in shows:
            out.append(Problem(f, None, f"$.tasks[{i}].show", "one of the sweep's shows", short_repr(t.show)))
    for i, d in enumerate(s.domains):
        if d.id.split("/")[0] in RESERVED_DOMAIN_IDS:
            out.append(Problem(f, None, f"$.domains[{i}].id", f"a domain id other than the names of Canonic's own pages "
                               f"({', '.join(RESERVED_DOMAIN_IDS)})", short_repr(d.id)))
    used = {t.domain for t in s.tasks}
    for i, d in enumerate(s.domains):
        if d.id not in used:
            out.append(Problem(f, None, f"$.domains[{i}]", "at least one task in every domain", f"no task in {d.id!r}"))
    show_conditioned = any(dim.scope == "show-conditioned" for d in s.domains for dim in d.rubric.dimensions)
    judge_required = set(prompts.JUDGE_SLOTS) - (set() if show_conditioned else {"show_bible"})
    for key, known, required in (("generation", prompts.GENERATION_SLOTS, set(prompts.GENERATION_SLOTS)),
                                 ("judge", prompts.JUDGE_SLOTS, judge_required)):
        for expected, found in prompts.slot_problems(getattr(s.prompts, key).text, known, required):
            out.append(Problem(f, None, f"$.prompts.{key}.text", expected, found))
    out.extend(_development_problems(s))
    recomputed = task_set_fingerprint(s.tasks)
    if recomputed != s.task_set_fingerprint:
        out.append(Problem(f, None, "$.task_set_fingerprint", f"the fingerprint of the tasks as they are ({recomputed})", short_repr(s.task_set_fingerprint)))
    return out


_WORD_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


def contains_word(text: str, word: str) -> bool:
    """Whether `word` occurs in `text` with neither an a-z nor a 0-9 right before or after it:
    the regex (?<![a-z0-9])word(?![a-z0-9]) without compiling one per word (a sweep of 1,300
    models has 5,000 words to look for in each label, past the regex module's cache)."""
    at = text.find(word)
    while at != -1:
        end = at + len(word)
        if (at == 0 or text[at - 1] not in _WORD_CHARACTERS) and (end == len(text) or text[end] not in _WORD_CHARACTERS):
            return True
        at = text.find(word, at + 1)
    return False


def _development_problems(s: SweepFile) -> list[Problem]:
    """The tuning subset: pinned models, each under a label of its own that gives none of them
    away (no model's id, name or house in it), the mapping released at the freeze itself."""
    if s.development is None:
        return []
    f, dev, out = SWEEP_FILE, s.development, []
    pinned = {m.id for m in s.models}
    giveaways = sorted({w.casefold() for m in s.models for w in (m.id, m.name, m.family, m.id.split("/")[-1])})
    for d in duplicates(x.label.casefold() for x in dev.models):
        out.append(Problem(f, None, "$.development.models", "a label of its own for each model", f"{d!r} more than once"))
    for d in duplicates(x.model for x in dev.models):
        out.append(Problem(f, None, "$.development.models", "each model once", f"{d!r} more than once"))
    for i, x in enumerate(dev.models):
        if x.model not in pinned:
            out.append(Problem(f, None, f"$.development.models[{i}].model", "a model pinned in this sweep", short_repr(x.model)))
        # whole words only: "Metalwork" is a fine label even though a house is called meta
        label = x.label.casefold()
        told = [w for w in giveaways if contains_word(label, w)]
        if told:
            out.append(Problem(f, None, f"$.development.models[{i}].label", "a neutral label (naming no model, id or house)",
                               f"{short_repr(x.label)}, which contains {told[0]!r}"))
    if dev.released_at != s.sweep.frozen_at:
        out.append(Problem(f, None, "$.development.released_at", f"the freeze's own time, {s.sweep.frozen_at} (the mapping is released by the freeze)",
                           short_repr(dev.released_at)))
    return out


class _CellChecker:
    """The rules across cells and the sweep, applied chunk by chunk; collects the columns."""

    def __init__(self, sweep: SweepFile, rel: str):
        self.rel = rel  # the cells file the problems point at
        self.code = {name: {x: i for i, x in enumerate(ids)} for name, ids in vocabularies(sweep).items()}
        self.models = {m.id for m in sweep.models}
        self.judges = [j.id for j in sweep.judges]
        self.tasks = {t.id: t for t in sweep.tasks}
        self.rubrics = {d.id: d.rubric for d in sweep.domains}
        self.problems: list[Problem] = []
        self.columns = CellColumns()

    def check(self, cells: list[Cell], lines: list[int]) -> None:
        for cell, line in zip(cells, lines):
            self._cell(cell, line)

    def _cell(self, cell: Cell, line: int) -> None:
        f, out = self.rel, self.problems
        # Interned: 247,000 cells repeat a few hundred ids; one string object each.
        model, task_id = sys.intern(cell.model), sys.intern(cell.task)
        if model not in self.models:
            out.append(Problem(f, line, "$.model", "a model pinned in sweep.json", short_repr(model)))
        task = self.tasks.get(task_id)
        if task is None:
            out.append(Problem(f, line, "$.task", "a task of sweep.json", short_repr(task_id)))
        if cell.generation.status == "failed" and cell.judgments:
            out.append(Problem(f, line, "$.judgments", "no judge records for a failed generation (it is never judged)", f"a list of {len(cell.judgments)}"))
        c = self.columns.cells
        model_code, task_code = self.code["model"].get(model, UNKNOWN), self.code["task"].get(task_id, UNKNOWN)
        c["model"].append(model_code)
        c["task"].append(task_code)
        c["gen_status"].append(cell.generation.status)
        c["gen_reason"].append(cell.generation.failure_reason)
        c["line"].append(line)
        standard: dict[str, str] = {}
        reframed: set[str] = set()
        for k, j in enumerate(cell.judgments):
            if j.judge not in self.judges:
                out.append(Problem(f, line, f"$.judgments[{k}].judge", f"one of the sweep's judges ({', '.join(self.judges)})", short_repr(j.judge)))
            elif j.prompt == "standard":
                if j.judge in standard:
                    out.append(Problem(f, line, f"$.judgments[{k}]", "one standard-prompt record per judge", f"a second one from {j.judge}"))
                standard[j.judge] = j.outcome
            else:
                if standard.get(j.judge) != "refusal":
                    out.append(Problem(f, line, f"$.judgments[{k}].prompt", "a reframe only after this judge's standard-prompt refusal (listed before it)", '"reframe"'))
                if j.judge in reframed:
                    out.append(Problem(f, line, f"$.judgments[{k}]", "at most one reframed retry per judge", f"a second one from {j.judge}"))
                reframed.add(j.judge)
            # A task whose domain the sweep lacks is reported in sweep.json (_check_sweep);
            # with no rubric its anchors cannot be checked, so that is the one problem.
            scorable = j.outcome == "score" and task is not None and task.domain in self.rubrics
            w = self._weighted(model, j, k, task, line) if scorable else None
            jc = self.columns.judgments
            for name, value in (("model", model_code), ("task", task_code), ("judge", self.code["judge"].get(j.judge, UNKNOWN)),
                                ("seq", k), ("prompt", j.prompt), ("outcome", j.outcome), ("weighted", w), ("rationale", j.rationale)):
                jc[name].append(value)
        for jid, outcome in standard.items():
            if outcome == "refusal" and jid not in reframed:
                out.append(Problem(f, line, "$.judgments", f"a reframed retry from judge {jid} after its standard-prompt refusal "
                                   "(every refusal gets exactly one, with the craft framing made explicit)", "none"))
        if cell.generation.status == "ok":
            for jid in self.judges:
                if jid not in standard:
                    out.append(Problem(f, line, "$.judgments", f"a standard-prompt record from judge {jid} (every valid output is judged twice)", "none"))

    def _weighted(self, model: str, j, k: int, task, line: int) -> float | None:
        """The judge record's weighted score, recomputed; None (with problems) if its anchors are bad."""
        f, out = self.rel, self.problems
        rubric = self.rubrics[task.domain]
        dims = [d.id for d in rubric.dimensions]
        anchors = j.anchors or {}
        ok = True
        for d in dims:
            if d not in anchors:
                out.append(Problem(f, line, f"$.judgments[{k}].anchors.{d}", f"an anchor for the {task.domain} dimension {d!r}", "nothing"))
                ok = False
        for d, v in anchors.items():
            if d not in dims:
                out.append(Problem(f, line, json_path(("judgments", k, "anchors", d)), f"a dimension of the {task.domain} rubric ({', '.join(dims)})", f"key {short_repr(d)}"))
                ok = False
            elif v not in ANCHOR_VALUES:
                out.append(Problem(f, line, json_path(("judgments", k, "anchors", d)), "one of the anchors 0, 0.25, 0.5, 0.75, 1.0", short_repr(v)))
                ok = False
        if not ok:
            return None
        w = weighted_score(rubric, anchors)
        if j.weighted_score is not None and abs(j.weighted_score - w) > STATED_SCORE_TOLERANCE:
            out.append(Problem(f, line, f"$.judgments[{k}].weighted_score", f"{w:.6f}, the sum of weight x anchor recomputed from the anchors", short_repr(j.weighted_score)))
        a = self.columns.anchors
        judgment = len(self.columns.judgments["model"])  # the row the caller appends it at, next
        for d in dims:
            a["judgment"].append(judgment)
            a["dimension"].append(self.code["dimension"][d])
            a["anchor"].append(float(anchors[d]))
        return w
