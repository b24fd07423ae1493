"""NextChapterBench intake: the run, the items, the chapters and the judge calls, with every
rule across them. Every problem is collected.

Rules checked here: the judge audition chose the run's judge from its own candidates, and every
candidate read the same chapters of its declared items and writers, the author's among them, once
each; the earlier panel's marks are by its own judges on its own models, once each; each frozen
reference chapter still hashes to its recorded SHA-256; every chapter belongs to a declared
effort variant and item, once; a variant marked not-judged has nothing recorded, one marked
judged has a judged chapter for every item and one marked incomplete does not; every judged
chapter has exactly one call and every call a judged chapter; each call checks every beat,
prohibition, the end state and each trap exactly once, for the candidate and for the reference.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pydantic import TypeAdapter

from sitegen import amendments, names
from sitegen.config import Limits
from sitegen.contract import duplicates, validate_many, validate_one
from sitegen.errors import Problem, short_repr
from sitegen.load import Loaded, SourceFile, read_json, read_jsonl
from sitegen.families.nextchapter.models import AUTHOR_WRITER, Call, Chapter, Item, RunFile

RUN_FILE = "data/nextchapter/run.json"
ITEMS_FILE = "data/nextchapter/items.jsonl"
CHAPTERS_FILE = "data/nextchapter/chapters.jsonl"
CALLS_FILE = "data/nextchapter/calls.jsonl"

_ITEMS = TypeAdapter(list[Item])
_CHAPTERS = TypeAdapter(list[Chapter])
_CALLS = TypeAdapter(list[Call])


@dataclass(frozen=True)
class NextChapterInput:
    run: RunFile
    items: list[Item]
    chapters: list[Chapter]
    calls: list[Call]
    files: dict[str, SourceFile]
    log: amendments.Log  # content/nextchapter/amendments/ (sitegen.amendments)


def expected_checks(item: Item) -> Counter:
    """(kind, index) of every check one chapter must receive for this item's brief."""
    wanted = Counter()
    wanted.update(("beat", i) for i in range(len(item.brief.beats)))
    wanted.update(("prohibition", i) for i in range(len(item.brief.prohibitions)))
    wanted[("end-state", 0)] += 1
    wanted.update(("trap", i) for i in range(len(item.traps)))
    return wanted


def _lines(root, rel, adapter, loaded, limits, files):
    p = root / rel
    if not os.path.lexists(p):
        loaded.problems.append(Problem(rel, None, "", "this file (the NextChapterBench family is enabled)", "no such file"))
        return [], []
    src, records = read_jsonl(root, p, loaded, limits)
    files[rel] = src
    values, errs = validate_many(adapter, records, rel)
    loaded.problems.extend(errs)
    bad = {e.line for e in errs}
    return values, [r.line for r in records if r.line not in bad], [r.value for r in records if r.line in bad]


def _keys(records: list) -> set[tuple]:
    """(model, effort, item) of records refused by the contract, where they name them: a
    chapter whose call was refused has its problem already, not a second one for a missing call."""
    keys = (tuple(r.get(k) for k in ("model", "effort", "item")) for r in records if isinstance(r, dict))
    return {k for k in keys if all(isinstance(v, str) for v in k)}


def load_nextchapter(root: Path, loaded: Loaded, limits: Limits) -> NextChapterInput | None:
    out = loaded.problems
    before = len(out)
    files: dict[str, SourceFile] = {}
    run = None
    if not os.path.lexists(root / RUN_FILE):
        out.append(Problem(RUN_FILE, None, "", "this file (the NextChapterBench family is enabled)", "no such file"))
    else:
        src, rec = read_json(root, root / RUN_FILE, loaded, limits)
        files[RUN_FILE] = src
        if rec is not None:
            run, errs = validate_one(RunFile, rec.value, RUN_FILE, None)
            out.extend(errs)
    items, item_lines, _ = _lines(root, ITEMS_FILE, _ITEMS, loaded, limits, files)
    chapters, chapter_lines, refused_chapters = _lines(root, CHAPTERS_FILE, _CHAPTERS, loaded, limits, files)
    calls, call_lines, refused_calls = _lines(root, CALLS_FILE, _CALLS, loaded, limits, files)
    if run is not None:
        _check_audition(run, out)
        _check_panel(run, out)
    if run is not None and not loaded.incomplete & {ITEMS_FILE, CHAPTERS_FILE, CALLS_FILE}:
        _check(run, items, item_lines, chapters, chapter_lines, calls, call_lines, _keys(refused_chapters), _keys(refused_calls), out)
    log = amendments.read(root, "nextchapter", loaded, limits)
    amendments.check(log, out)
    if run is None or len(out) > before:
        return None
    return NextChapterInput(run, items, chapters, calls, files, log)


def _check_audition(run: RunFile, out: list[Problem]) -> None:
    """The audition is the published reason for the run's judge: it chose that judge from its
    own candidates, and every candidate read the very same chapters (each once), the real
    author's among them on every item, so that what the site computes from the readings
    compares like with like."""
    audition = run.audition
    ids = [c.id for c in audition.candidates]
    for d in duplicates(ids):
        out.append(Problem(RUN_FILE, None, "$.audition.candidates", "unique candidate ids", f"{d!r} more than once"))
    out.extend(names.clashes(((RUN_FILE, None, f"$.audition.candidates[{i}].name", c.name) for i, c in enumerate(audition.candidates)), "candidate"))
    for field, values in (("items", [i.id for i in audition.items]), ("writers", [w.id for w in audition.writers])):
        for d in duplicates(values):
            out.append(Problem(RUN_FILE, None, f"$.audition.{field}", f"unique {field[:-1]} ids", f"{d!r} more than once"))
    out.extend(names.clashes(((RUN_FILE, None, f"$.audition.writers[{i}].name", w.name) for i, w in enumerate(audition.writers)), "writer"))
    if AUTHOR_WRITER not in {w.id for w in audition.writers}:
        out.append(Problem(RUN_FILE, None, "$.audition.writers", f"the real author among the writers (id {AUTHOR_WRITER!r})", "none"))
    if audition.chosen not in ids:
        out.append(Problem(RUN_FILE, None, "$.audition.chosen", f"a candidate of the audition ({', '.join(ids)})", short_repr(audition.chosen)))
    elif audition.chosen != run.judge.id:
        out.append(Problem(RUN_FILE, None, "$.audition.chosen", f"{run.judge.id!r}, the run's judge", short_repr(audition.chosen)))
    known = {"judge": set(ids), "item": {i.id for i in audition.items}, "writer": {w.id for w in audition.writers}}
    read: dict[str, set[tuple[str, str]]] = {j: set() for j in ids}
    for n, r in enumerate(audition.readings):
        path = f"$.audition.readings[{n}]"
        bad = [f for f in ("judge", "item", "writer") if getattr(r, f) not in known[f]]
        for f in bad:
            out.append(Problem(RUN_FILE, None, f"{path}.{f}", f"one of the audition's {f}s", short_repr(getattr(r, f))))
        if bad:
            continue
        if (r.item, r.writer) in read[r.judge]:
            out.append(Problem(RUN_FILE, None, path, "each chapter read once by each candidate", f"{r.judge} on {r.writer}, {r.item} again"))
        read[r.judge].add((r.item, r.writer))
    chapters = set().union(*read.values()) if read else set()
    for i, judge in enumerate(ids):
        missing = sorted(chapters - read[judge])
        if missing:
            out.append(Problem(RUN_FILE, None, f"$.audition.candidates[{i}]", "a reading of every chapter another candidate read",
                               f"{judge} did not read {len(missing)}: " + ", ".join(f"{w} on {it}" for it, w in missing[:5])))
    for it in sorted(known["item"] - {item for item, w in chapters if w == AUTHOR_WRITER}):
        out.append(Problem(RUN_FILE, None, "$.audition.readings", "the real author's chapter read on every audition item", f"none on {it}"))


def _check_panel(run: RunFile, out: list[Problem]) -> None:
    """The earlier panel's marks are its own judges' marks of its own models, one per
    (model, judge, item)."""
    panel = run.earlier_panel
    for field, values in (("judges", [j.id for j in panel.judges]), ("models", [m.id for m in panel.models])):
        for d in duplicates(values):
            out.append(Problem(RUN_FILE, None, f"$.earlier_panel.{field}", f"unique {field[:-1]} ids", f"{d!r} more than once"))
    for field, people in (("judges", panel.judges), ("models", panel.models)):
        out.extend(names.clashes(((RUN_FILE, None, f"$.earlier_panel.{field}[{i}].name", x.name) for i, x in enumerate(people)), field[:-1]))
    known = {"judge": {j.id for j in panel.judges}, "model": {m.id for m in panel.models}}
    seen: set[tuple[str, str, str]] = set()
    for n, m in enumerate(panel.marks):
        path = f"$.earlier_panel.marks[{n}]"
        for f in ("judge", "model"):
            if getattr(m, f) not in known[f]:
                out.append(Problem(RUN_FILE, None, f"{path}.{f}", f"one of the panel's {f}s", short_repr(getattr(m, f))))
        key = (m.model, m.judge, m.item)
        if key in seen:
            out.append(Problem(RUN_FILE, None, path, "one mark per model, judge and item", " x ".join(key)))
        seen.add(key)


def _check(run, items, item_lines, chapters, chapter_lines, calls, call_lines, refused_chapters, refused_calls, out) -> None:
    for d in duplicates(m.id for m in run.models):
        out.append(Problem(RUN_FILE, None, "$.models", "unique model ids", f"{d!r} more than once"))
    out.extend(names.clashes(((RUN_FILE, None, f"$.models[{i}].name", m.name) for i, m in enumerate(run.models)), "model"))
    out.extend(names.clashes(((ITEMS_FILE, line, "$.novel", item.novel) for item, line in zip(items, item_lines)), "item"))
    variants = {(m.id, v.effort): v for m in run.models for v in m.variants}
    if (run.reference.model, run.reference.effort) not in variants:
        out.append(Problem(RUN_FILE, None, "$.reference", "the reference model and effort among the models' variants",
                           f"{run.reference.model} at {run.reference.effort}"))
    by_id: dict[str, Item] = {}
    for item, line in zip(items, item_lines):
        if item.id in by_id:
            out.append(Problem(ITEMS_FILE, line, "$.id", "a unique item id", short_repr(item.id)))
        by_id[item.id] = item
        digest = hashlib.sha256(item.reference_chapter.encode("utf-8")).hexdigest()
        if digest != item.reference_sha256:
            out.append(Problem(ITEMS_FILE, line, "$.reference_sha256", f"{digest}, the SHA-256 of the frozen reference chapter as it is",
                               short_repr(item.reference_sha256)))
        for d in duplicates(t.id for t in item.traps):
            out.append(Problem(ITEMS_FILE, line, "$.traps", "unique trap ids", f"{d!r} more than once"))
        if item.brief.words_min >= item.brief.words_max:
            out.append(Problem(ITEMS_FILE, line, "$.brief", "words_min below words_max", f"{item.brief.words_min}-{item.brief.words_max}"))

    judged: dict[tuple, int] = {}  # (model, effort, item) of a chapter that was judged -> line
    seen: dict[tuple, int] = {}
    recorded: Counter = Counter()
    for ch, line in zip(chapters, chapter_lines):
        key = (ch.model, ch.effort, ch.item)
        if key in seen:
            out.append(Problem(CHAPTERS_FILE, line, "", f"one record per (model, effort, item) (first at line {seen[key]})", " x ".join(map(str, key))))
        seen.setdefault(key, line)
        variant = variants.get((ch.model, ch.effort))
        if variant is None:
            out.append(Problem(CHAPTERS_FILE, line, "$.effort", "a model and effort setting declared in run.json", f"{ch.model} at {ch.effort}"))
        elif variant.status == "not-judged":
            out.append(Problem(CHAPTERS_FILE, line, "", "nothing recorded for a setting marked not-judged", f"{ch.model} at {ch.effort}"))
        if ch.item not in by_id:
            out.append(Problem(CHAPTERS_FILE, line, "$.item", "an item of items.jsonl", short_repr(ch.item)))
        if ch.outcome == "chapter":
            judged[key] = line
            recorded[(ch.model, ch.effort)] += 1
    refused_settings = {(k[0], k[1]) for k in refused_chapters}
    for (model, effort), v in variants.items():
        if (model, effort) in refused_settings:
            continue  # a record of it was refused: its count is unknown, and its problem already said
        n = recorded[(model, effort)]
        if v.status == "judged" and n != len(by_id):
            out.append(Problem(RUN_FILE, None, "$.models", "a judged chapter on every item for a setting marked judged (else mark it incomplete)",
                               f"{model} at {effort}: {n} of {len(by_id)}"))
        if v.status == "incomplete" and n >= len(by_id):
            out.append(Problem(RUN_FILE, None, "$.models", "a setting marked incomplete to miss at least one item", f"{model} at {effort}: all {n}"))

    called: dict[tuple, int] = {}
    for call, line in zip(calls, call_lines):
        key = (call.model, call.effort, call.item)
        if key not in judged and key not in refused_chapters:
            out.append(Problem(CALLS_FILE, line, "", "a call on a judged chapter of chapters.jsonl", " x ".join(map(str, key))))
        if key in called:
            out.append(Problem(CALLS_FILE, line, "", f"one call per chapter (first at line {called[key]})", " x ".join(map(str, key))))
        called.setdefault(key, line)
        item = by_id.get(call.item)
        if item is None:
            continue
        wanted = expected_checks(item)
        for side in ("candidate_checks", "reference_checks"):
            got = Counter((c.kind, c.index) for c in getattr(call, side))
            if got != wanted:
                missing = sorted((wanted - got).elements())
                extra = sorted((got - wanted).elements())
                out.append(Problem(CALLS_FILE, line, f"$.{side}", "each beat, prohibition, the end state and each trap checked exactly once",
                                   "; ".join(filter(None, [f"missing {missing}" if missing else "", f"extra {extra}" if extra else ""]))))
    for key, line in sorted(judged.items(), key=lambda kv: kv[1]):
        if key not in called and key not in refused_calls:
            out.append(Problem(CHAPTERS_FILE, line, "", "a judge call for every judged chapter", "none in calls.jsonl"))
