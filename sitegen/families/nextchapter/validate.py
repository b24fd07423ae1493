"""NextChapterBench intake: the run, the items, the chapters and the judge calls, with every
rule across them. Every problem is collected.

Rules checked here: the judge audition names only its own candidates and chose the run's
judge; each frozen reference chapter still hashes to its recorded SHA-256; every
chapter belongs to a declared effort variant and item, once per draft; a variant marked
not-judged has nothing recorded, one marked judged has a judged chapter for every item and one
marked incomplete does not; every judged chapter has exactly one call and every call a judged
chapter; each call checks every beat, prohibition, the end state and each trap exactly once,
for the candidate and for the reference.
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
from sitegen.families.nextchapter.models import Call, Chapter, Item, RunFile

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
    return values, [r.line for r in records if r.line not in bad]


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
    items, item_lines = _lines(root, ITEMS_FILE, _ITEMS, loaded, limits, files)
    chapters, chapter_lines = _lines(root, CHAPTERS_FILE, _CHAPTERS, loaded, limits, files)
    calls, call_lines = _lines(root, CALLS_FILE, _CALLS, loaded, limits, files)
    if run is not None:
        _check_audition(run, out)
    if run is not None and not loaded.incomplete & {ITEMS_FILE, CHAPTERS_FILE, CALLS_FILE}:
        _check(run, items, item_lines, chapters, chapter_lines, calls, call_lines, out)
    log = amendments.read(root, "nextchapter", loaded, limits)
    amendments.check(log, out)
    if run is None or len(out) > before:
        return None
    return NextChapterInput(run, items, chapters, calls, files, log)


def _check_audition(run: RunFile, out: list[Problem]) -> None:
    """Every judge the audition names is one of its candidates, and the one it chose is the
    run's judge: the audition is the published reason for that judge, so a result about a judge
    that was not auditioned, or a choice the run did not use, would justify nothing."""
    audition = run.audition
    ids = [c.id for c in audition.candidates]
    for d in duplicates(ids):
        out.append(Problem(RUN_FILE, None, "$.audition.candidates", "unique candidate ids", f"{d!r} more than once"))
    out.extend(names.clashes(((RUN_FILE, None, f"$.audition.candidates[{i}].name", c.name) for i, c in enumerate(audition.candidates)), "candidate"))
    wanted = f"a candidate of the audition ({', '.join(ids)})"

    def named(path: str, value: str) -> bool:
        if value in ids:
            return True
        out.append(Problem(RUN_FILE, None, path, wanted, short_repr(value)))
        return False

    if named("$.audition.chosen", audition.chosen) and audition.chosen != run.judge.id:
        out.append(Problem(RUN_FILE, None, "$.audition.chosen", f"{run.judge.id!r}, the run's judge", short_repr(audition.chosen)))
    for i, c in enumerate(audition.correlations):
        named(f"$.audition.correlations[{i}].a", c.a)
        named(f"$.audition.correlations[{i}].b", c.b)
        if c.a == c.b:  # a judge's agreement with itself is 1 by definition and says nothing
            out.append(Problem(RUN_FILE, None, f"$.audition.correlations[{i}]", "two different candidates", f"{c.a} with itself"))
    for i, x in enumerate(audition.leniency):
        named(f"$.audition.leniency[{i}].judge", x.judge)


def _check(run, items, item_lines, chapters, chapter_lines, calls, call_lines, out) -> None:
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

    judged: dict[tuple, int] = {}  # (model, effort, item, draft) of a chapter that was judged -> line
    seen: dict[tuple, int] = {}
    recorded: Counter = Counter()
    for ch, line in zip(chapters, chapter_lines):
        key = (ch.model, ch.effort, ch.item, ch.draft)
        if key in seen:
            out.append(Problem(CHAPTERS_FILE, line, "", f"one record per (model, effort, item, draft) (first at line {seen[key]})", " x ".join(map(str, key))))
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
            if ch.draft == 1:
                recorded[(ch.model, ch.effort)] += 1
    for (model, effort), v in variants.items():
        n = recorded[(model, effort)]
        if v.status == "judged" and n != len(by_id):
            out.append(Problem(RUN_FILE, None, "$.models", "a judged chapter on every item for a setting marked judged (else mark it incomplete)",
                               f"{model} at {effort}: {n} of {len(by_id)}"))
        if v.status == "incomplete" and n >= len(by_id):
            out.append(Problem(RUN_FILE, None, "$.models", "a setting marked incomplete to miss at least one item", f"{model} at {effort}: all {n}"))

    called: dict[tuple, int] = {}
    for call, line in zip(calls, call_lines):
        key = (call.model, call.effort, call.item, call.draft)
        if key not in judged:
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
        if key not in called:
            out.append(Problem(CHAPTERS_FILE, line, "", "a judge call for every judged chapter", "none in calls.jsonl"))
