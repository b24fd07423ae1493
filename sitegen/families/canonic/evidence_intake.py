"""Intake of the evidence artifacts that sit beside the score artifact:

- data/canonic/freeze.json     the freeze record: every rubric, Show Bible and the task set,
                               with the fingerprint each had when frozen (required);
- data/canonic/probes.json     reward-hacking probes and how the judges scored them;
- data/canonic/external.json   an external leaderboard for the rank comparison;
- data/canonic/outputs.jsonl   the model outputs, for the score ladders.

The last three are optional: a release without them publishes a page that says so. The freeze
record is not optional: without it nothing proves the inputs are the ones that were frozen.
"""

from __future__ import annotations

import codecs
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

import orjson
import pyarrow as pa
from pydantic import TypeAdapter

from sitegen.aggregate import find_aggregate_keys, is_aggregate_key
from sitegen.config import Limits
from sitegen.contract import validate_many, validate_one
from sitegen.errors import BuildError, Problem, short_repr
from sitegen.families.builtin import canonic as DECLARATION
from sitegen.fingerprint import record_fingerprint, text_fingerprint
from sitegen.incremental import covers
from sitegen.load import JsonlReader, JsonRecord, Loaded, RawChunk, SourceFile, json_path, map_chunks, open_input, parse_chunk, read_bytes, read_json
from sitegen.freeze import FreezeFile, FrozenCheck, Wanted
from sitegen.freeze import check as check_frozen
from sitegen.families.canonic.codes import decoded
from sitegen.families.canonic.models import ANCHOR_VALUES, ExternalBoard, Output, ProbesFile, SweepFile

FREEZE_FILE = "data/canonic/freeze.json"
SWEEP_FILE = "data/canonic/sweep.json"
PROBES_FILE = "data/canonic/probes.json"
EXTERNAL_FILE = "data/canonic/external.json"
OUTPUTS_FILE = "data/canonic/outputs.jsonl"

_OUTPUTS = TypeAdapter(list[Output])


def aggregate_problems(rec: JsonRecord) -> list[Problem]:
    """The no-overall-score rule on one parsed document or line, each key at its JSON path."""
    if not rec.screened:  # the reader saw no such key while parsing: nothing to locate
        return []
    return [
        Problem(rec.source, rec.line, json_path(loc), "no cross-domain aggregate field (Canonic publishes no overall score)", f"key {short_repr(loc[-1])}")
        for loc in find_aggregate_keys(rec.value)
    ]


def read_model(root: Path, rel: str, model, loaded: Loaded, limits: Limits, required: bool):
    """One Canonic JSON document: read (a missing file is a problem only when required),
    screened for aggregate keys, then validated against MODEL. (source, model or None)."""
    path = root / rel
    if not os.path.lexists(path):  # anything else there is refused by read_json, by name
        if required:
            loaded.problems.append(Problem(rel, None, "", "this file (the Canonic family needs it)", "no such file"))
        return None, None
    src, rec = read_json(root, path, loaded, limits, is_aggregate_key)
    if rec is None:
        return src, None
    agg = aggregate_problems(rec)
    if agg:
        loaded.problems.extend(agg)
        return src, None
    value, errs = validate_one(model, rec.value, rel, None)
    loaded.problems.extend(errs)
    return src, value



def task_set_fingerprint(tasks) -> str:
    """The task set's fingerprint: the first 32 hex digits of the SHA-256 of its canonical JSON
    (tasks sorted by id, keys sorted, no whitespace, UTF-8). Any edit to any task changes it."""
    canon = sorted((t.model_dump(mode="json") for t in tasks), key=lambda t: t["id"])
    data = json.dumps(canon, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:32]

@dataclass(frozen=True)
class FreezeResult:
    source: SourceFile | None  # freeze.json
    frozen_at: str  # the freeze record's own time
    checks: list[FrozenCheck]
    documents: list[SourceFile]  # the frozen markdown documents, as read for their fingerprints


def probe_maximums(probes: ProbesFile) -> dict[str, float]:
    """What the freeze record fingerprints of the probes: each probe's maximum, by probe id. A
    maximum moved after the judges scored would turn a miss into a catch."""
    return {p.id: p.max_score for p in probes.probes}


def load_freeze(root: Path, loaded: Loaded, limits: Limits, sweep: SweepFile | None, probes: ProbesFile | None = None) -> FreezeResult:
    """Check every rubric, Show Bible, the task set, the prompts and the probes' maximums
    against the freeze record (the record's own shape and its paths only, without a sound
    sweep)."""
    src, freeze = read_model(root, FREEZE_FILE, FreezeFile, loaded, limits, required=True)
    if freeze is None:
        return FreezeResult(src, "", [], [])
    if freeze.schema_ != "canonic.freeze/1":
        loaded.problems.append(Problem(FREEZE_FILE, None, "$.schema", '"canonic.freeze/1"', short_repr(freeze.schema_)))
    # A path names the file to fingerprint: when there is none, the fix is in this record.
    for i, item in enumerate(freeze.items):
        if item.path is not None and not os.path.lexists(root / item.path):
            loaded.problems.append(Problem(FREEZE_FILE, None, f"$.items[{i}].path", "an existing file", f"{short_repr(item.path)} (no such file)"))
    if sweep is None:
        return FreezeResult(src, freeze.frozen_at, [], [])

    wanted = [Wanted("rubric", d.id, f"data/canonic/sweep.json $.domains[{i}].rubric",
                     record_fingerprint(d.rubric.model_dump(mode="json")), d.rubric.version)
              for i, d in enumerate(sweep.domains)]
    items = {item.id: (i, item) for i, item in enumerate(freeze.items) if item.kind == "show-bible"}
    documents = []
    for k, sh in enumerate(sweep.shows):
        i, item = items.get(sh.id, (None, None))
        path = item.path if item is not None and item.path else f"content/canonic/bibles/{sh.id}.md"
        if item is not None and item.path and not covers(DECLARATION.inputs, path):  # else it would escape the cache's key
            loaded.problems.append(Problem(FREEZE_FILE, None, f"$.items[{i}].path", "the path of a Show Bible under content/canonic/bibles/", short_repr(path)))
            wanted.append(Wanted("show-bible", sh.id, path, None))
            continue
        if not os.path.lexists(root / path):
            if item is not None and not item.path:  # an explicit path is reported above
                loaded.problems.append(Problem(FREEZE_FILE, None, f"$.items[{i}].path", f"the path of the Show Bible of {sh.name} (there is none at {path})", "nothing"))
            # No fingerprint to compare; without an item at all, freeze_mod.check says so.
            wanted.append(Wanted("show-bible", sh.id, path, None))
            continue
        # Read as the page's own read reads it (a file over the size limit or one that is not
        # an input gives the same problem), its problems kept apart so they are not reported twice.
        scratch = Loaded()
        doc, data = read_bytes(root, root / path, scratch, limits)
        loaded.problems.extend(scratch.problems)
        if data is None:
            wanted.append(Wanted("show-bible", sh.id, path, None))
            continue
        documents.append(doc)
        loaded.files.append(doc)  # the family's reads are checked against its declared inputs
        wanted.append(Wanted("show-bible", sh.id, path, text_fingerprint(data), sh.bible_version,
                             f"data/canonic/sweep.json $.shows[{k}].bible_version"))
    wanted.append(Wanted("task-set", "task-set", "data/canonic/sweep.json $.tasks", task_set_fingerprint(sweep.tasks),
                         sweep.task_set_version, "data/canonic/sweep.json $.task_set_version"))
    # The prompt templates are frozen with the tasks: the same task under another wrapper is
    # another question, and a judge prompt edited after the freeze is another instrument.
    for key in ("generation", "judge"):
        prompt = getattr(sweep.prompts, key)
        wanted.append(Wanted("prompt", key, f"data/canonic/sweep.json $.prompts.{key}", record_fingerprint(prompt.model_dump(mode="json")),
                             prompt.version))
    if probes is not None or os.path.lexists(root / PROBES_FILE):  # a broken file's problems are its own: no comparison
        wanted.append(Wanted("probe-maximums", "probes", f"{PROBES_FILE} $.probes",
                             record_fingerprint(probe_maximums(probes)) if probes is not None else None))
    loaded.frozen[FREEZE_FILE] = wanted
    checks = check_frozen(freeze, FREEZE_FILE, wanted, loaded.problems)
    _swept_after_freeze(sweep, checks, loaded.problems)
    return FreezeResult(src, freeze.frozen_at, checks, documents)


def _swept_after_freeze(sweep: SweepFile, checks, problems: list[Problem]) -> None:
    """A sweep ran the task-set version it names, so it is dated on or after that version was
    frozen: a task-set bump under an existing sweep (the same cells, id and date with a new
    version label) is not a re-sweep. A re-sweep is a new sweep: a new id, run after the bump."""
    for c in checks:
        if c.kind == "task-set" and c.version == sweep.task_set_version and sweep.sweep.date < c.frozen_at[:10]:
            problems.append(Problem(SWEEP_FILE, None, "$.sweep.date", f"a date on or after {c.frozen_at[:10]}, when task-set version {c.version} "
                                    f"it ran was frozen ({FREEZE_FILE}): a re-sweep is a new sweep, with a new id and its own cells, run after "
                                    "the new version", sweep.sweep.date))


def load_probes(root: Path, loaded: Loaded, limits: Limits, sweep: SweepFile | None) -> tuple[SourceFile | None, ProbesFile | None]:
    """probes.json: its own rules always; the references into the sweep only with a sound one."""
    src, probes = read_model(root, PROBES_FILE, ProbesFile, loaded, limits, required=False)
    if probes is None:
        return src, None
    out = loaded.problems
    seen = set()
    for i, p in enumerate(probes.probes):
        if p.id in seen:
            out.append(Problem(PROBES_FILE, None, f"$.probes[{i}].id", "unique probe ids", short_repr(p.id)))
        seen.add(p.id)
        for k, j in enumerate(p.judgments):
            for d, v in j.anchors.items():
                if v not in ANCHOR_VALUES:
                    out.append(Problem(PROBES_FILE, None, json_path(("probes", i, "judgments", k, "anchors", d)), "one of the anchors 0, 0.25, 0.5, 0.75, 1.0", short_repr(v)))
    if sweep is None:
        return src, probes
    domains = {d.id: d for d in sweep.domains}
    tasks = {t.id: t for t in sweep.tasks}
    judges = [j.id for j in sweep.judges]
    for i, p in enumerate(probes.probes):
        dom = domains.get(p.domain)
        if dom is None:
            out.append(Problem(PROBES_FILE, None, f"$.probes[{i}].domain", "one of the sweep's domains", short_repr(p.domain)))
            continue
        task = tasks.get(p.task)
        if task is None or task.domain != p.domain:
            out.append(Problem(PROBES_FILE, None, f"$.probes[{i}].task", f"a task of the {p.domain} domain", short_repr(p.task)))
        if sorted(j.judge for j in p.judgments) != sorted(judges):
            out.append(Problem(PROBES_FILE, None, f"$.probes[{i}].judgments", f"one record from each judge ({', '.join(judges)})",
                               ", ".join(j.judge for j in p.judgments)))
        dims = [d.id for d in dom.rubric.dimensions]
        for k, j in enumerate(p.judgments):
            if sorted(j.anchors) != sorted(dims):
                out.append(Problem(PROBES_FILE, None, f"$.probes[{i}].judgments[{k}].anchors", f"anchors for exactly {', '.join(dims)}", ", ".join(sorted(j.anchors))))
    return src, probes


def load_external(root: Path, loaded: Loaded, limits: Limits, sweep: SweepFile | None) -> tuple[SourceFile | None, ExternalBoard | None]:
    """external.json: its own rules always; the references into the sweep only with a sound one."""
    src, board = read_model(root, EXTERNAL_FILE, ExternalBoard, loaded, limits, required=False)
    if board is None:
        return src, None
    seen = set()
    for i, e in enumerate(board.entries):
        if e.model in seen:
            loaded.problems.append(Problem(EXTERNAL_FILE, None, f"$.entries[{i}].model", "each model once", short_repr(e.model)))
        seen.add(e.model)
    if sweep is not None:
        domains = {d.id for d in sweep.domains}
        for i, d in enumerate(board.predeclared):
            if d not in domains:
                loaded.problems.append(Problem(EXTERNAL_FILE, None, f"$.predeclared[{i}]", "one of the sweep's domains", short_repr(d)))
    return src, board


_IDS = pa.dictionary(pa.int32(), pa.string())


def _output_chunk(chunk: RawChunk) -> tuple[pa.Table, list[Problem]]:
    records, problems = parse_chunk(chunk, is_aggregate_key)
    clean = []
    for rec in records:  # the no-overall-score rule holds in every Canonic artifact
        agg = aggregate_problems(rec)
        problems.extend(agg)
        if not agg:
            clean.append(rec)
    records = clean
    outputs, errs = validate_many(_OUTPUTS, records, OUTPUTS_FILE)
    problems.extend(errs)
    bad = {e.line for e in errs}
    lines = [r.line for r in records if r.line not in bad]
    # Where each valid line lies in the file and what its bytes hash to, not its text: the few
    # texts the ladders show are read back (OutputTexts), and the rest need no memory.
    starts = [chunk.first_offset]
    for raw in chunk.lines[:-1]:
        starts.append(starts[-1] + len(raw))
    spans = [(starts[n - chunk.first_line], chunk.lines[n - chunk.first_line]) for n in lines]
    return pa.table({
        # ids as dictionaries: a chunk names a few models and tasks on thousands of lines
        "model": pa.array([o.model for o in outputs], type=_IDS),
        "task": pa.array([o.task for o in outputs], type=_IDS),
        "offset": pa.array([at for at, _ in spans], type=pa.int64()),
        "length": pa.array([len(raw) for _, raw in spans], type=pa.int64()),
        "sha256": pa.array([hashlib.sha256(raw).digest() for _, raw in spans], type=pa.binary(32)),
        "line": pa.array(lines, type=pa.int64()),
    }), problems


@dataclass(frozen=True)
class OutputTexts:
    """The output texts of outputs.jsonl, read back from the file when the pages need them:
    every line was validated at load, and each line read back must hash to what it hashed to
    then, so a text published is the text validated (a file changed since fails the build)."""

    root: Path
    rel: str

    def read(self, spans: list[tuple[tuple[str, str], int, int, bytes]]) -> dict[tuple[str, str], str]:
        """(key, offset, length, SHA-256 of the line) -> {key: the line's text}."""
        out = {}
        with open_input(self.root, self.root / self.rel) as fh:
            for key, offset, length, digest in sorted(spans, key=lambda s: s[1]):
                fh.seek(offset)
                raw = fh.read(length)
                if hashlib.sha256(raw).digest() != digest:
                    raise BuildError(f"{self.rel} changed during the build (line at byte {offset}); nothing was published (build again)")
                out[key] = orjson.loads(raw.removeprefix(codecs.BOM_UTF8))["text"]
        return out


def load_outputs(root: Path, loaded: Loaded, limits: Limits, cells: tuple | None) -> tuple[SourceFile | None, pa.Table | None]:
    """outputs.jsonl, each line checked on its own, and against the cells when `cells` (the
    cells table and the ids its codes stand for) is given."""
    path = root / OUTPUTS_FILE
    if not os.path.lexists(path):
        return None, None
    reader = JsonlReader(root, path, loaded, limits)
    parts = []
    for table, found in map_chunks(_output_chunk, reader.raw_chunks(5000), reader.size):
        loaded.problems.extend(found)
        parts.append(table)
    if not parts:
        return reader.source, None
    table = pa.concat_tables(parts)
    ok: set[tuple[str, str]] = set()
    if cells is not None:
        cell_table, ids = cells
        cols = (decoded(cell_table, "model", ids), decoded(cell_table, "task", ids), cell_table.column("gen_status").to_pylist())
        ok = {(m, t) for m, t, s in zip(*cols) if s == "ok"}
    seen: dict[tuple[str, str], int] = {}
    for m, t, line in zip(*(table.column(c).to_pylist() for c in ("model", "task", "line"))):
        if cells is not None and (m, t) not in ok:
            loaded.problems.append(Problem(OUTPUTS_FILE, line, "", "an output only for a cell whose generation is ok (in the cells file)", f"{m} x {t}"))
        first = seen.setdefault((m, t), line)
        if first != line:
            loaded.problems.append(Problem(OUTPUTS_FILE, line, "", f"one output per (model, task) (first at line {first})", f"{m} x {t} again"))
    return reader.source, table.drop(["line"])
