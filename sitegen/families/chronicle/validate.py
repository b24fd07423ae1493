"""ChronicleBench intake: the cohort design, the runs, the human reference corpus, the v1.0
archive, the frozen protocol and its amendment log. Every problem is collected.

Rules across documents checked here: references (entrant, brief, cohort, profile), boards that
cannot blend (one board per arm; system entrants only on the system board), withdrawn models
never on a board, the eligibility band of cohort.json equal to the one the frozen protocol
states, the reference corpus's selection record (its seed, places and extended ceiling those the
protocol states, its times in order and before any reference scoring, its content exclusions
recorded by an amendment made before that scoring) and the v1.1 reference novels exactly the
works its seeded selection draws (selection.py), a run's calls numbered 1..n in order, amendment
ids unique and gap-free with dates not before the freeze, every stated composite, window
median and ChronicleBench Score recomputed, the judge's evidence placed (each window's span in
order through the text, every quote inside the window or the book its judge run read, to the
section), and section 6's standing procedure: every cohort and every score on the boards' one
instrument, each run in its entrant's cohort and generated between the freeze and the day its
cohort landed.
"""

from __future__ import annotations

import os
import re
import statistics
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import TypeAdapter

from sitegen import amendments as amendments_mod
from sitegen import clock
from sitegen import freeze as freeze_mod
from sitegen import frozen_texts
from sitegen import names
from sitegen.amendments import Entry
from sitegen.config import Limits
from sitegen.contract import duplicates, validate_many, validate_one
from sitegen.errors import InputError, Problem, short_repr
from sitegen.fingerprint import text_fingerprint
from sitegen.load import Loaded, MarkdownDoc, SourceFile, input_bytes, read_json, read_jsonl, read_markdown
from sitegen.families.chronicle.models import (
    DIMENSIONS, AmendmentMeta, ArchiveFile, CohortFile, Location, ProtocolMeta, ReferenceNovel, Run, SelectionFile, WindowScore,
)
from sitegen.families.chronicle import protocol_rules, published
from sitegen.families.chronicle.published import ARCHIVE_ID, ARCHIVE_KIND, ENTRY_KIND, FREEZE_FILE
from sitegen.families.chronicle.selection import NOT_DRAWN, SELECTED, Selection, select

from sitegen.families.chronicle.files import ARCHIVE_FILE, COHORT_FILE, PROTOCOL_DOC, REFERENCE_FILE, RUNS_FILE, SELECTION_FILE  # noqa: F401
STATED_TOLERANCE = 1e-6
WINDOW_START = {"opening": 0, "25k": 25_000, "50k": 50_000, "75k": 75_000, "ending": 0}

BOOK_START = Location(ch=1, sec=1)  # where a whole book, and its opening window, begins
_RUNS = TypeAdapter(list[Run])
_REFS = TypeAdapter(list[ReferenceNovel])


@dataclass(frozen=True)
class ChronicleInput:
    cohort: CohortFile
    runs: list[Run]
    references: list[ReferenceNovel]
    archive: ArchiveFile
    selection_record: SelectionFile
    selection: Selection  # computed from the record (selection.py): what reference.jsonl holds
    protocol: MarkdownDoc
    protocol_meta: ProtocolMeta
    amendments: list[Entry]  # the amendment log's valid entries, in file order
    frozen: list[freeze_mod.FrozenCheck]
    files: dict[str, SourceFile]
    unrecorded: list[str]  # entries of the log not yet in the freeze record (still open to edits)
    # every version of the protocol, oldest first, with its text where it is kept (sitegen.frozen_texts)
    protocol_versions: list[frozen_texts.Version] = field(default_factory=list)


def weighted_composite(run, weights: dict[str, float]) -> float:
    """10 x the weighted mean of the eight 1-10 scores (weights in DIMENSIONS order)."""
    return 10.0 * sum(weights[d] * run.dimensions[d] for d in DIMENSIONS)


def capped_composite(run, weights: dict[str, float]) -> float:
    """The weighted composite, then any hard cap: min(cap, composite). A cap applies to each
    judge run, before the median of the three (protocol section 3a: caps come after the
    composite of an evaluation, and every score file records them)."""
    composite = weighted_composite(run, weights)
    return min(run.cap.value, composite) if run.cap is not None else composite


def median_composite(runs, weights_of) -> float:
    """The median of judge runs' capped composites: a window's, or the whole book's."""
    return float(statistics.median(capped_composite(r, weights_of(r.profile)) for r in runs))


def window_composite(window: WindowScore, weights_of) -> float:
    """The median of the window's three judge runs' capped composites."""
    return median_composite(window.runs, weights_of)


def book_score(windows: list[WindowScore], weights_of) -> float:
    """ChronicleBench Score: the mean of the window composites."""
    return float(statistics.fmean(window_composite(w, weights_of) for w in windows))


def _check_scores(rel: str, line: int, windows: list[WindowScore], stated: float | None, profiles: dict, expected_windows,
                  profile: str | None, out: list[Problem], stated_key: str = "score") -> None:
    """Recompute every composite, median and score of one text; `profile` is the weight profile
    its genre maps to (None when that is unknown, e.g. the brief does not exist)."""
    names = [w.window for w in windows]
    if names != list(expected_windows):
        out.append(Problem(rel, line, "$.windows", f"the windows {', '.join(expected_windows)} in that order", ", ".join(names) or "none"))
    else:
        _check_spans(rel, line, windows, out)
    for wi, w in enumerate(windows):
        for ri, r in enumerate(w.runs):
            _check_quotes(rel, line, f"$.windows[{wi}].runs[{ri}]", r, w.span.first, w.span.last, f"the {w.window} window's span", out)
    for wi, w in enumerate(windows):
        for ri, r in enumerate(w.runs):
            if not _check_judge_run(rel, line, f"$.windows[{wi}].runs[{ri}]", r, profiles, profile, out):
                return
        m = window_composite(w, profiles.__getitem__)
        if w.composite is not None and abs(w.composite - m) > STATED_TOLERANCE:
            out.append(Problem(rel, line, f"$.windows[{wi}].composite", f"{m:.6f}, the median of the three runs' capped composites", short_repr(w.composite)))
    if windows and stated is not None:
        s = book_score(windows, profiles.__getitem__)
        if abs(stated - s) > STATED_TOLERANCE:
            out.append(Problem(rel, line, f"$.{stated_key}", f"{s:.6f}, the mean of the window composites", short_repr(stated)))


def _at(loc) -> str:
    return f"chapter {loc.ch} section {loc.sec}"


def _check_spans(rel: str, line: int, windows: list[WindowScore], out: list[Problem]) -> None:
    """The windows' spans, as far as the record can tell: each ends at or after it begins, the
    opening begins at chapter 1 section 1, the positional windows begin in the order they stand
    in the text (the ending, tail-kept, may begin before the 75k window of a short book), and
    none ends after the ending, whose last section is the text's last."""
    end = windows[-1].span.last if windows and windows[-1].window == "ending" else None
    begun = None  # (window, its first location) of the previous positional window
    for wi, w in enumerate(windows):
        first, last = w.span.first, w.span.last
        if (first.ch, first.sec) > (last.ch, last.sec):
            out.append(Problem(rel, line, f"$.windows[{wi}].span.last", f"a location at or after the span's first, {_at(first)}", _at(last)))
        if w.window == "opening" and (first.ch, first.sec) != (1, 1):
            out.append(Problem(rel, line, f"$.windows[{wi}].span.first", "chapter 1 section 1, where the opening window begins", _at(first)))
        if w.window != "ending":
            if begun is not None and (first.ch, first.sec) < (begun[1].ch, begun[1].sec):
                out.append(Problem(rel, line, f"$.windows[{wi}].span.first", f"a location at or after {_at(begun[1])}, where the {begun[0]} "
                                   "window begins (the windows stand in the text in order)", _at(first)))
            begun = (w.window, first)
        if end is not None and (last.ch, last.sec) > (end.ch, end.sec):
            out.append(Problem(rel, line, f"$.windows[{wi}].span.last", f"a location at or before {_at(end)}, the text's last section "
                               "(where the ending window, kept from the tail, ends)", _at(last)))


def _check_quotes(rel: str, line: int, where: str, r, first, last, inside: str, out: list[Problem]) -> None:
    """Every quote a judge run cites lies in the text it judged: from `first` to `last`, to the
    section (protocol section 3a: quotes with chapter and section locations)."""
    lo, hi = (first.ch, first.sec), (last.ch, last.sec)
    ev = r.evidence
    for d in DIMENSIONS:
        for k, q in enumerate(getattr(ev, d)):
            if not lo <= (q.ch, q.sec) <= hi:
                out.append(Problem(rel, line, f"{where}.evidence.{d}[{k}]", f"a location inside {inside}, {_at(first)} to {_at(last)} "
                                   "(a quote cites the text the judge read)", _at(q)))


def _check_judge_run(rel: str, line: int, where: str, r, profiles: dict, profile: str | None, out: list[Problem]) -> bool:
    """One judge run: its profile one of the weight profiles (else False: nothing more can be
    recomputed) and the one its text's genre maps to, its stated composite recomputed."""
    if r.profile not in profiles:
        out.append(Problem(rel, line, f"{where}.profile", f"one of the weight profiles ({', '.join(profiles)})", short_repr(r.profile)))
        return False
    if profile is not None and r.profile != profile:
        out.append(Problem(rel, line, f"{where}.profile", f"{profile!r}, the profile this text's genre is scored under", short_repr(r.profile)))
    c = capped_composite(r, profiles[r.profile])
    if r.composite is not None and abs(r.composite - c) > STATED_TOLERANCE:
        out.append(Problem(rel, line, f"{where}.composite", f"{c:.6f}, recomputed from the eight scores, the weights and the cap", short_repr(r.composite)))
    return True


def expected_windows(words: int, windows: list[str]) -> list[str]:
    """The windows a text of `words` words has: each positional window that starts inside it,
    and the ending (tail-kept) always."""
    return [w for w in windows if w == "ending" or WINDOW_START[w] < words]


def load_chronicle(root: Path, loaded: Loaded, limits: Limits) -> ChronicleInput | None:
    out = loaded.problems
    n_before = len(out)
    files: dict[str, SourceFile] = {}

    def read_model(rel, model):
        p = root / rel
        if not os.path.lexists(p):
            out.append(Problem(rel, None, "", "this file (the ChronicleBench family is enabled)", "no such file"))
            return None
        src, rec = read_json(root, p, loaded, limits)
        files[rel] = src
        if rec is None:
            return None
        value, errs = validate_one(model, rec.value, rel, None)
        out.extend(errs)
        return value

    cohort = read_model(COHORT_FILE, CohortFile)
    archive = read_model(ARCHIVE_FILE, ArchiveFile)
    selection_record = read_model(SELECTION_FILE, SelectionFile)
    freeze = read_model(FREEZE_FILE, freeze_mod.FreezeFile)
    runs, runs_lines, runs_archived = _read_lines(root, RUNS_FILE, _RUNS, loaded, limits, files)
    refs, refs_lines, refs_archived = _read_lines(root, REFERENCE_FILE, _REFS, loaded, limits, files)
    refs_whole = not any(p.file == REFERENCE_FILE for p in out[n_before:])  # every line read: a drawn work's absence is then real
    protocol, protocol_meta = _read_protocol(root, loaded, limits)
    log = amendments_mod.read(root, "chronicle", loaded, limits, AmendmentMeta)

    selection = None
    if archive is not None:
        out.extend(names.clashes(((ARCHIVE_FILE, None, f"$.rows[{i}].entrant", r.entrant) for i, r in enumerate(archive.rows)), "archived entrant"))
    if cohort is not None:
        _check_cohort(cohort, out)
        _check_runs(cohort, runs, runs_lines, runs_archived, out, set(log.present))
        _check_release(cohort, runs, out)
        _check_not_after_the_build(cohort, runs, runs_lines, archive, out, selection_record, refs, refs_lines)
        _check_references(cohort, refs, refs_lines, refs_archived, out)
        if selection_record is not None:
            if protocol is not None:
                protocol_rules.check_selection_statements(protocol, selection_record, out)
            selection = _check_selection(cohort, selection_record, refs, refs_lines, log, out, refs_whole)
        if protocol_meta is not None and protocol_meta.frozen_on != cohort.protocol_frozen_on:
            out.append(Problem(PROTOCOL_DOC, 1, "frozen_on", f"{cohort.protocol_frozen_on}, the freeze date in {COHORT_FILE}", protocol_meta.frozen_on))
        _check_withdrawals(log, cohort, out)
        if protocol is not None:
            protocol_rules.check(protocol, cohort, runs, runs_lines, out)
    # The log's rules run whatever else is broken (every problem at once, not in rounds): from
    # the protocol's freeze date, or from cohort.json's when the protocol's front matter is broken.
    frozen_on = protocol_meta.frozen_on if protocol_meta is not None else cohort.protocol_frozen_on if cohort is not None else None
    amendments_mod.check(log, out, (frozen_on, "the protocol's freeze") if frozen_on else None)
    frozen, unrecorded, versions = [], [], []
    if freeze is not None and protocol is not None and protocol_meta is not None:
        wanted = [freeze_mod.Wanted("protocol", f"protocol-{protocol_meta.version}", PROTOCOL_DOC,
                                    text_fingerprint(input_bytes(root, root / PROTOCOL_DOC)))]
        record, unrecorded = _published_record(root, log, freeze, archive is not None, out)
        loaded.frozen[FREEZE_FILE] = wanted + [w for w in record if w.kind != ENTRY_KIND] + _log_entries(root, log)
        frozen = freeze_mod.check(freeze, FREEZE_FILE, wanted + record, out) + published.entry_records(freeze)
        versions = [frozen_texts.read(root, "chronicle", f, input_bytes(root, root / PROTOCOL_DOC), loaded, limits, FREEZE_FILE)
                    for f in frozen if f.kind == "protocol"]
    else:
        frozen_texts.read_files(root, "chronicle", loaded, limits)
    if len(out) > n_before or None in (cohort, archive, selection_record, selection, freeze, protocol, protocol_meta):
        return None
    return ChronicleInput(cohort, runs, refs, archive, selection_record, selection, protocol, protocol_meta, list(log.entries), frozen, files, unrecorded,
                          versions[0] if versions else [])


# What the site has published stays as published: each entry of the amendment log and the v1.0
# archive is recorded in the freeze record (kind log-entry, id entry-a1, ...; kind archive). An
# edit needs a new version whose note names the later entry that records the correction; a
# recorded entry cannot be deleted. An entry not yet recorded is new, and the protocol page says so.
_ENTRY_ID = re.compile(r"\b([ACR][1-9][0-9]*)\b")


def _published_record(root: Path, log: amendments_mod.Log, freeze, archive_read: bool, out: list[Problem]):
    """(what the freeze record must match for the log and the archive, the entries it does not
    hold yet)."""
    wanted = [freeze_mod.Wanted(ARCHIVE_KIND, ARCHIVE_ID, ARCHIVE_FILE,
                                text_fingerprint(input_bytes(root, root / ARCHIVE_FILE)) if archive_read else None)]
    dates = {e: d for _rel, e, d in log.stated if e is not None and d is not None}
    where = {}  # entry id -> the file that holds it (its name may disagree: that is its own problem)
    for rel, e, _d in log.stated:
        if e is not None:
            where.setdefault(e, rel)
    recorded = set()
    for i, item in enumerate(freeze.items):
        if item.kind != ENTRY_KIND:
            continue
        eid = item.id.removeprefix("entry-").upper()
        recorded.add(eid)
        rel = where.get(eid) or (f"{log.dir}/{eid}.md" if eid in log.present else None)
        if rel is None:
            rel = f"{log.dir}/{eid}.md"
            out.append(Problem(rel, None, "", f"the entry {eid}, published and recorded in {FREEZE_FILE} $.items[{i}] (a published entry is "
                               "never deleted: a later entry records a correction)", "no such file"))
            wanted.append(freeze_mod.Wanted(ENTRY_KIND, item.id, rel, None))
            continue
        # matched, not compared: an entry's text is the build's to check, on every build (check_log)
        wanted.append(freeze_mod.Wanted(ENTRY_KIND, item.id, rel, None))
        for k in range(1, len(item.history)):  # each later version is a correction, recorded by a later entry
            named = [n for n in _ENTRY_ID.findall(item.history[k].note) if n != eid and n in log.present and dates.get(n, "") >= dates.get(eid, "")]
            if not named:
                out.append(Problem(FREEZE_FILE, None, f"$.items[{i}].history[{k}].note", f"the id of a later entry of the log that records this "
                                   f"correction of {eid} (a published entry changes only by a recorded correction)", short_repr(item.history[k].note)))
    return wanted, sorted(e for e in log.present if e not in recorded and _ENTRY_ID.fullmatch(e))


def _log_entries(root: Path, log: amendments_mod.Log) -> list[freeze_mod.Wanted]:
    """Every entry of the log that can be read, with the fingerprint of its text now: what the
    freeze record holds of the log once each entry is recorded (sitegen.freeze_record)."""
    out = []
    for eid in sorted(log.present):
        rel = f"{log.dir}/{eid}.md"
        if not _ENTRY_ID.fullmatch(eid):
            continue
        try:
            fingerprint = text_fingerprint(input_bytes(root, root / rel))
        except (InputError, UnicodeDecodeError, OSError):
            continue  # its problem is reported where it is read
        out.append(freeze_mod.Wanted(ENTRY_KIND, published.entry_item_id(eid), rel, fingerprint))
    return out


def _read_lines(root, rel, adapter, loaded, limits, files):
    """(validated records, their lines, the lines that state the score under its archived name)."""
    p = root / rel
    if not os.path.lexists(p):
        loaded.problems.append(Problem(rel, None, "", "this file (the ChronicleBench family is enabled)", "no such file"))
        return [], [], set()
    src, records = read_jsonl(root, p, loaded, limits)
    files[rel] = src
    values, errs = validate_many(adapter, records, rel)
    loaded.problems.extend(errs)
    bad = {e.line for e in errs}
    archived = {r.line for r in records if isinstance(r.value, dict) and "sagascore" in r.value}
    return values, [r.line for r in records if r.line not in bad], archived


def _read_protocol(root: Path, loaded: Loaded, limits: Limits):
    p = root / PROTOCOL_DOC
    if not os.path.lexists(p):
        loaded.problems.append(Problem(PROTOCOL_DOC, None, "", "the frozen protocol document", "no such file"))
        return None, None
    doc = read_markdown(root, p, loaded, limits)
    if doc is None:
        return None, None
    return doc, amendments_mod.front_matter(ProtocolMeta, doc, loaded)


def _check_withdrawals(log: amendments_mod.Log, c: CohortFile, out: list[Problem]) -> None:
    known = log.present  # an entry whose file is broken is still there: its own problem says what is wrong
    for e in c.entrants:
        if e.withdrawn_by is not None and e.withdrawn_by not in known:
            out.append(Problem(COHORT_FILE, None, "$.entrants", f"withdrawn_by naming an entry of the amendment log ({', '.join(sorted(known))})", f"{e.id}: {e.withdrawn_by}"))


def _check_cohort(c: CohortFile, out: list[Problem]) -> None:
    f = COHORT_FILE
    for name, items in (("profiles", c.profiles), ("briefs", c.briefs), ("entrants", c.entrants), ("boards", c.boards), ("cohorts", c.cohorts)):
        for d in duplicates(x.id for x in items):
            out.append(Problem(f, None, f"$.{name}", "unique ids", f"{d!r} more than once"))
    out.extend(names.clashes(((f, None, f"$.entrants[{i}].name", e.name) for i, e in enumerate(c.entrants)), "entrant"))
    out.extend(names.clashes(((f, None, f"$.boards[{i}].title", b.title) for i, b in enumerate(c.boards)), "board"))
    out.extend(names.clashes(((f, None, f"$.briefs[{i}].title", b.title) for i, b in enumerate(c.briefs)), "brief"))
    # One board per arm: a run's arm decides its board, so no run can stand on two boards.
    for arm in duplicates(b.arm for b in c.boards):
        out.append(Problem(f, None, "$.boards", "one board per arm (boards are never blended)", f"two boards for arm {arm!r}"))
    profiles = {p.id for p in c.profiles}
    for i, b in enumerate(c.briefs):
        if b.profile not in profiles:
            out.append(Problem(f, None, f"$.briefs[{i}].profile", "one of the weight profiles", short_repr(b.profile)))
    cohorts = {k.id for k in c.cohorts}
    for i, e in enumerate(c.entrants):
        if e.cohort not in cohorts:
            out.append(Problem(f, None, f"$.entrants[{i}].cohort", "one of the cohorts", short_repr(e.cohort)))
        if moving_alias(e.id):
            out.append(Problem(f, None, f"$.entrants[{i}].id", "a pinned model slug, not a moving alias such as latest or auto (protocol section 1)",
                               short_repr(e.id)))
    if c.exhibit is not None:
        kinds = {e.id: e.kind for e in c.entrants}
        if kinds.get(c.exhibit.system) != "system":
            out.append(Problem(f, None, "$.exhibit.system", "a system entrant", short_repr(c.exhibit.system)))
        if kinds.get(c.exhibit.base_model) != "model":
            out.append(Problem(f, None, "$.exhibit.base_model", "a model entrant", short_repr(c.exhibit.base_model)))
    if list(c.windows) != ["opening", "25k", "50k", "75k", "ending"]:
        out.append(Problem(f, None, "$.windows", "the five windows opening, 25k, 50k, 75k, ending", ", ".join(c.windows)))
    # Protocol section 6: the boards are scored on one pinned instrument; a model joins a cohort
    # on that instrument or not at all. Cohorts are dated entries of the changelog, oldest first,
    # none before the protocol was frozen.
    for i, k in enumerate(c.cohorts):
        if k.instrument != c.instrument.id:
            out.append(Problem(f, None, f"$.cohorts[{i}].instrument", f"{c.instrument.id!r}, the instrument the boards are scored on "
                               "(protocol section 6: a whole cohort on the same instrument)", short_repr(k.instrument)))
        if i == 0 and k.date < c.protocol_frozen_on:
            out.append(Problem(f, None, f"$.cohorts[{i}].date", f"a date on or after {c.protocol_frozen_on}, when the protocol was frozen", k.date))
        if i > 0 and k.date <= c.cohorts[i - 1].date:
            out.append(Problem(f, None, f"$.cohorts[{i}].date", f"a date after {c.cohorts[i - 1].date}, the previous cohort's (cohorts are listed oldest first)", k.date))


def _check_runs(c: CohortFile, runs: list[Run], lines: list[int], archived: set[int], out: list[Problem], amendment_ids: set[str]) -> None:
    f = RUNS_FILE
    entrants = {e.id: e for e in c.entrants}
    briefs = {b.id: b for b in c.briefs}
    cohorts = {k.id: k for k in c.cohorts}
    arms = {b.arm for b in c.boards}
    profiles = {p.id: p.weights for p in c.profiles}
    seen: dict[str, int] = {}
    keys: dict[tuple, int] = {}
    for run, line in zip(runs, lines):
        if run.id in seen:
            out.append(Problem(f, line, "$.id", f"a unique run id (first at line {seen[run.id]})", short_repr(run.id)))
        seen.setdefault(run.id, line)
        key = (run.entrant, run.brief, run.arm, run.replicate)
        if key in keys:
            out.append(Problem(f, line, "", f"one run per (entrant, brief, arm, replicate) (first at line {keys[key]})", " x ".join(map(str, key))))
        keys.setdefault(key, line)
        e = entrants.get(run.entrant)
        if e is None:
            out.append(Problem(f, line, "$.entrant", "an entrant of cohort.json", short_repr(run.entrant)))
        elif (e.kind == "system") != (run.arm == "system"):
            out.append(Problem(f, line, "$.arm", f"the system arm exactly for system entrants ({e.id} is a {e.kind})", short_repr(run.arm)))
        if run.brief not in briefs:
            out.append(Problem(f, line, "$.brief", "a brief of cohort.json", short_repr(run.brief)))
        cohort = cohorts.get(run.cohort)
        if cohort is None:
            out.append(Problem(f, line, "$.cohort", "a cohort of cohort.json", short_repr(run.cohort)))
        else:
            _check_membership(run, line, cohort, e, c, out)
        if e is not None:
            _check_calls(run, line, e, c, out)
        _check_rerun(run, line, amendment_ids, out)
        if run.arm not in arms:
            out.append(Problem(f, line, "$.arm", "an arm that has a board", short_repr(run.arm)))
        total = sum(call.words_to - call.words_from for call in run.calls)
        if total != run.words:
            out.append(Problem(f, line, "$.words", f"{total}, the words the calls' offsets add up to", short_repr(run.words)))
        if run.arm != "system":  # the model harness's cap (section 2); a system runs its own engine
            cap = c.hard_cap_words
            if run.words > cap:
                out.append(Problem(f, line, "$.words", f"at most {cap:,} words, the harness's hard word cap (protocol section 2)", short_repr(run.words)))
            elif run.stop_reason == "cap" and run.words != cap:
                out.append(Problem(f, line, "$.stop_reason", f"the reason the run stopped at {run.words:,} words: a run stopped by the hard "
                                   f"word cap has {cap:,} (protocol section 2)", "cap"))
        # The calls are numbered 1..n in the order they ran. Their word offsets already chain
        # without a gap, so the recorded calls are the whole run and no number can be missing.
        for k, call in enumerate(run.calls):
            if call.seq != k + 1:
                out.append(Problem(f, line, f"$.calls[{k}].seq", f"{k + 1}, the call's place in the run (calls numbered 1 to {len(run.calls)} in order)",
                                   short_repr(call.seq)))
        for k in range(1, len(run.calls)):
            if run.calls[k].words_from != run.calls[k - 1].words_to:
                out.append(Problem(f, line, f"$.calls[{k}].words_from", f"{run.calls[k - 1].words_to}, where the previous call ended", short_repr(run.calls[k].words_from)))
        brief = briefs.get(run.brief)
        if e is not None:
            _check_harness(run, line, brief, e, c, out)
        _check_scores(f, line, run.windows, run.score, profiles, expected_windows(run.words, c.windows), brief.profile if brief else None, out,
                      "sagascore" if line in archived else "score")
        _check_scoring(run, line, c, profiles, brief.profile if brief else None, out)


# Slugs that name whatever a provider currently serves, not one model: "Moving latest/alias
# slugs are prohibited" (protocol section 1).
_ALIAS = re.compile(r"(^|[/:._-])(latest|auto|default|stable|current)$")


def moving_alias(slug: str) -> bool:
    return _ALIAS.search(slug.lower()) is not None


def _check_calls(run: Run, line: int, entrant, c: CohortFile, out: list[Problem]) -> None:
    """Protocol section 2: every call is served by the entrant's pinned provider (no fallback:
    a pinned-provider failure is a recorded failure, not a silent reroute), and a model's calls
    run at the cohort's temperature, or record that the endpoint refused it (params_transformed).
    A model's run of which no call was returned by the pinned model (or a dated snapshot of it,
    "vendor/model-0821") was written by another model: it is not the entrant's, whatever the
    flag on its page would say, and is refused."""
    f = RUNS_FILE
    served = [k.returned_model == entrant.id or k.returned_model.startswith(entrant.id + "-") for k in run.calls]
    if entrant.kind == "model" and run.calls and not any(served):
        others = sorted({k.returned_model for k in run.calls})
        out.append(Problem(f, line, "$.calls[0].returned_model", f"a run written by {entrant.id}, the pinned slug it is entered under, in at "
                           "least one call (protocol section 1: a run wholly written by another model is not its run)",
                           f"every call returned by {', '.join(others)}"))
    for k, call in enumerate(run.calls):
        if call.returned_provider != entrant.provider:
            out.append(Problem(f, line, f"$.calls[{k}].returned_provider", f"{entrant.provider!r}, the provider {entrant.id} is pinned to "
                               "(no fallback: a pinned-provider failure is a recorded failure, not a reroute; protocol section 2)",
                               short_repr(call.returned_provider)))
        if entrant.kind != "model":
            continue  # a system generates under its own engine's parameters
        temperature = call.params.get("temperature")
        if temperature is None and call.params.get("params_transformed") is not True:
            out.append(Problem(f, line, f"$.calls[{k}].params", f"temperature {c.temperature:g}, or params_transformed: true where the "
                               "endpoint refused it (protocol section 2)", "neither"))
        elif temperature is not None and (isinstance(temperature, bool) or temperature != c.temperature):
            out.append(Problem(f, line, f"$.calls[{k}].params.temperature", f"{c.temperature:g}, the cohort's one temperature (protocol section 2)",
                               short_repr(temperature)))


def latest_date(c: CohortFile, runs: list[Run], archive: ArchiveFile | None, log_dates, record: SelectionFile | None = None,
                refs: list[ReferenceNovel] = ()) -> str:
    """The latest date the family's inputs hold (YYYY-MM-DD): what the build's date must not
    precede (sitegen.clock; the summary's dated_until)."""
    dates = [k.date for k in c.cohorts] + [call.timestamp[:10] for r in runs for call in r.calls]
    dates += [t[:10] for t in (record.genres_assigned_at, record.committed_at)] if record is not None else []
    dates += [ref.scored_at[:10] for ref in refs if ref.scored_at is not None]
    dates += [a.timestamp[:10] for r in runs for a in r.superseded] + [e.release.frozen_on for e in c.entrants if e.release]
    dates += ([archive.published_on] if archive is not None else []) + list(log_dates)
    return max(dates, default="")


def _check_not_after_the_build(c: CohortFile, runs: list[Run], lines: list[int], archive: ArchiveFile | None, out: list[Problem],
                               record: SelectionFile | None, refs: list[ReferenceNovel], ref_lines: list[int]) -> None:
    """Nothing on record is dated after the build (a 2031 call or cohort would date the feed and
    the boards from the future): cohorts, calls, reruns, releases, the archive, the selection
    record's times and the reference novels' scoring."""
    today, now = clock.today(), clock.now_iso()
    expected = f"on or before {today}, the build's date (SOURCE_DATE_EPOCH, or today)"
    for i, k in enumerate(c.cohorts):
        if k.date > today:
            out.append(Problem(COHORT_FILE, None, f"$.cohorts[{i}].date", f"a date {expected}", k.date))
    for i, e in enumerate(c.entrants):
        if e.release is not None and e.release.frozen_on > today:
            out.append(Problem(COHORT_FILE, None, f"$.entrants[{i}].release.frozen_on", f"a date {expected}", e.release.frozen_on))
    if archive is not None and archive.published_on > today:
        out.append(Problem(ARCHIVE_FILE, None, "$.published_on", f"a date {expected}", archive.published_on))
    for run, line in zip(runs, lines):
        late = [(f"$.calls[{k}].timestamp", call.timestamp) for k, call in enumerate(run.calls) if call.timestamp > now]
        late += [(f"$.superseded[{k}].timestamp", a.timestamp) for k, a in enumerate(run.superseded) if a.timestamp > now]
        if late:  # the first: the calls are in order
            out.append(Problem(RUNS_FILE, line, late[0][0], f"a time on or before {now}, the build's time", late[0][1]))
    if record is not None:
        for key in ("genres_assigned_at", "committed_at"):
            if getattr(record, key) > now:
                out.append(Problem(SELECTION_FILE, None, f"$.{key}", f"a time on or before {now}, the build's time", getattr(record, key)))
    for ref, line in zip(refs, ref_lines):
        if ref.scored_at is not None and ref.scored_at > now:
            out.append(Problem(REFERENCE_FILE, line, "$.scored_at", f"a time on or before {now}, the build's time", ref.scored_at))


def _check_release(c: CohortFile, runs: list[Run], out: list[Problem]) -> None:
    """Protocol section 3: a system generates only on a release that passed its frozen gates,
    frozen before its first run."""
    for i, e in enumerate(c.entrants):
        if e.release is None:
            continue
        for g, gate in enumerate(e.release.gates):
            if gate.min > gate.max:
                out.append(Problem(COHORT_FILE, None, f"$.entrants[{i}].release.gates[{g}].max", f"at least min ({gate.min:g})", short_repr(gate.max)))
            elif not gate.passed:
                out.append(Problem(COHORT_FILE, None, f"$.entrants[{i}].release.gates[{g}].value",
                                   f"a value from {gate.min:g} to {gate.max:g}: the release must pass every gate before it generates (protocol section 3)",
                                   short_repr(gate.value)))
        first = min((call.timestamp for r in runs if r.entrant == e.id for call in r.calls), default=None)
        if first is not None and first[:10] < e.release.frozen_on:
            out.append(Problem(COHORT_FILE, None, f"$.entrants[{i}].release.frozen_on", f"a date on or before {first[:10]}, when {e.id}'s first run began",
                               e.release.frozen_on))


def _check_scoring(run: Run, line: int, c: CohortFile, profiles: dict, profile: str | None, out: list[Problem]) -> None:
    """Section 3a's record beside the scores: an engagement timeline that covers the text from
    its first word to its last in order, with tags and issues from the instrument's vocabularies,
    and a whole-book composite judged like a window (under the text's profile, recomputed)."""
    f, s = RUNS_FILE, run.scoring
    at = 0
    for k, seg in enumerate(s.engagement):
        if seg.words_from != at:
            out.append(Problem(f, line, f"$.scoring.engagement[{k}].words_from", f"{at}, where the previous segment ended (the timeline covers the text in order)",
                               short_repr(seg.words_from)))
        if seg.words_to <= seg.words_from:
            out.append(Problem(f, line, f"$.scoring.engagement[{k}].words_to", f"more than words_from ({seg.words_from})", short_repr(seg.words_to)))
        at = seg.words_to
        for t, tag in enumerate(seg.tags):
            if tag not in c.vocabulary.tags:
                out.append(Problem(f, line, f"$.scoring.engagement[{k}].tags[{t}]", f"a tag of the instrument's vocabulary ({', '.join(c.vocabulary.tags)})", short_repr(tag)))
    if at != run.words:
        out.append(Problem(f, line, f"$.scoring.engagement[{len(s.engagement) - 1}].words_to", f"{run.words}, the run's last word", short_repr(at)))
    for i, issue in enumerate(s.issues):
        if issue not in c.vocabulary.issues:
            out.append(Problem(f, line, f"$.scoring.issues[{i}]", f"an issue of the diagnosis taxonomy ({', '.join(c.vocabulary.issues)})", short_repr(issue)))
    for d in duplicates(s.issues):
        out.append(Problem(f, line, "$.scoring.issues", "each issue once", f"{d!r} more than once"))
    ending = run.windows[-1] if run.windows and run.windows[-1].window == "ending" else None
    for k, j in enumerate(s.whole_book):
        _check_judge_run(f, line, f"$.scoring.whole_book[{k}]", j, profiles, profile, out)
        if ending is not None:  # the whole book runs from chapter 1 section 1 to the ending window's last section
            _check_quotes(f, line, f"$.scoring.whole_book[{k}]", j, BOOK_START, ending.span.last,
                          "the book, from its first section to the ending window's last", out)


def _check_rerun(run: Run, line: int, amendment_ids: set[str], out: list[Problem]) -> None:
    """Protocol section 2: a run is rerun at most once, only after an infrastructure failure
    before any content, under identical parameters, and after the attempt it replaces."""
    f = RUNS_FILE
    if len(run.superseded) > 1:
        out.append(Problem(f, line, "$.superseded", "at most one superseded attempt (a run is rerun once, protocol section 2)",
                           f"{len(run.superseded)} attempts"))
    first = run.calls[0]
    for k, a in enumerate(run.superseded):
        where = f"$.superseded[{k}]"
        if a.words != 0:
            out.append(Problem(f, line, f"{where}.words", "0: a rerun is allowed only after a failure before any content (protocol section 2)",
                               short_repr(a.words)))
        if a.params != first.params:
            out.append(Problem(f, line, f"{where}.params", f"the rerun's parameters, {short_repr(first.params)} (identical parameters, protocol section 2)",
                               short_repr(a.params)))
        if a.timestamp >= first.timestamp:
            out.append(Problem(f, line, f"{where}.timestamp", f"a time before the rerun's first call ({first.timestamp})", a.timestamp))
        if a.documented_by is not None and a.documented_by not in amendment_ids:
            out.append(Problem(f, line, f"{where}.documented_by", f"an entry of the amendment log ({', '.join(sorted(amendment_ids))})",
                               short_repr(a.documented_by)))


def _check_harness(run: Run, line: int, brief, entrant, c: CohortFile, out: list[Problem]) -> None:
    """Protocol section 2: a run records the brief it was given and (a model's) the frozen
    template, by hash, as the cohort's."""
    if brief is not None and run.brief_sha256 != brief.sha256:
        out.append(Problem(RUNS_FILE, line, "$.brief_sha256", f"{brief.sha256}, the hash of brief {brief.code} in {COHORT_FILE} (protocol section 2: "
                           "briefs verbatim, hashed into every manifest)", run.brief_sha256))
    if entrant.kind == "model" and run.template_sha256 != c.template_sha256:
        out.append(Problem(RUNS_FILE, line, "$.template_sha256", f"{c.template_sha256}, the frozen generation template's hash in {COHORT_FILE} "
                           "(protocol section 2: one byte-identical harness for every model)", run.template_sha256))


def _check_membership(run: Run, line: int, cohort, entrant, c: CohortFile, out: list[Problem]) -> None:
    """Protocol section 6: a run stands in its entrant's cohort, was generated after the freeze
    and on or before the day its cohort landed (a later run is a new dated cohort, never a
    silent addition to an older one), and was scored on its cohort's instrument."""
    f = RUNS_FILE
    if entrant is not None and run.cohort != entrant.cohort:
        out.append(Problem(f, line, "$.cohort", f"{entrant.cohort!r}, the cohort {entrant.id} joined with ({COHORT_FILE})", short_repr(run.cohort)))
    if run.instrument != cohort.instrument:
        out.append(Problem(f, line, "$.instrument", f"{cohort.instrument!r}, the instrument of cohort {cohort.id}", short_repr(run.instrument)))
    for k, call in enumerate(run.calls):
        day = call.timestamp[:10]
        if day > cohort.date:
            out.append(Problem(f, line, f"$.calls[{k}].timestamp", f"a time on or before {cohort.date}, the day cohort {cohort.id} landed "
                               "(a model run later joins a later dated cohort, protocol section 6)", call.timestamp))
            break
        if day < c.protocol_frozen_on:
            out.append(Problem(f, line, f"$.calls[{k}].timestamp", f"a time on or after {c.protocol_frozen_on}, when the protocol was frozen", call.timestamp))
            break


def _check_references(c: CohortFile, refs: list[ReferenceNovel], lines: list[int], archived: set[int], out: list[Problem]) -> None:
    profiles = {p.id: p.weights for p in c.profiles}
    seen = set()
    for ref, line in zip(refs, lines):
        if ref.id in seen:
            out.append(Problem(REFERENCE_FILE, line, "$.id", "a unique id", short_repr(ref.id)))
        seen.add(ref.id)
        legacy = ref.corpus == "legacy-v1.0"
        if legacy != (ref.stratum == "legacy"):
            out.append(Problem(REFERENCE_FILE, line, "$.stratum", "the legacy stratum exactly for the legacy-v1.0 corpus", short_repr(ref.stratum)))
        # Protocol section 7: a v1.1 addition is a work the seeded selection drew, its manuscript
        # the one committed before scoring, and it was scored after that commit
        # (_check_selection). The legacy anchors were selected under v1.0 and are kept as they were.
        if not legacy:
            for key, what in (("manuscript_sha256", "the SHA-256 of its manuscript as committed in the selection record"),
                              ("scored_at", "the time it was scored (after the selection record's commit)")):
                if getattr(ref, key) is None:
                    out.append(Problem(REFERENCE_FILE, line, f"$.{key}", f"{what} (protocol section 7)", "none"))
        if ref.instrument != c.instrument.id:
            out.append(Problem(REFERENCE_FILE, line, "$.instrument", f"{c.instrument.id!r}, the instrument every score on the site comes from "
                               "(protocol section 3a)", short_repr(ref.instrument)))
        wanted = ["opening", "25k", "50k", "ending"] if legacy else expected_windows(ref.words, c.windows)
        if ref.profile not in profiles:
            out.append(Problem(REFERENCE_FILE, line, "$.profile", f"one of the weight profiles ({', '.join(profiles)})", short_repr(ref.profile)))
            continue
        _check_scores(REFERENCE_FILE, line, ref.windows, ref.score, profiles, wanted, ref.profile, out,
                      "sagascore" if line in archived else "score")


def _check_selection(c: CohortFile, record: SelectionFile, refs: list[ReferenceNovel], lines: list[int], log: amendments_mod.Log,
                     out: list[Problem], refs_whole: bool = True) -> Selection:
    """Protocol section 7 and amendment A3: the pool's ids once each, every duplicate_of naming a
    work of the pool or a legacy anchor, every content exclusion recorded by an amendment of the
    log dated no later than the first reference scoring, genres assigned after the freeze and
    committed after that; then the seeded selection, each stratum's places filled, and the v1.1
    lines of reference.jsonl exactly the works it draws, as committed, scored after the commit
    (a drawn work is reported missing only when every line of the file could be read)."""
    f = SELECTION_FILE
    anchors = {r.gutenberg_id for r in refs if r.corpus == "legacy-v1.0"}
    first_at: dict[int, int] = {}
    for i, cand in enumerate(record.candidates):
        if cand.gutenberg_id in first_at:
            out.append(Problem(f, None, f"$.candidates[{i}].gutenberg_id", f"each work once in the pool (first at $.candidates[{first_at[cand.gutenberg_id]}])",
                               str(cand.gutenberg_id)))
        first_at.setdefault(cand.gutenberg_id, i)
    for i, cand in enumerate(record.candidates):
        d = cand.duplicate_of
        # a legacy anchor is known only when every line of the reference corpus was read
        if d is not None and (d == cand.gutenberg_id or (d not in first_at and d not in anchors and refs_whole)):
            out.append(Problem(f, None, f"$.candidates[{i}].duplicate_of", f"the Gutenberg id of another work of the pool or of a legacy anchor "
                               f"({REFERENCE_FILE})", str(d)))
    v11 = [(ref, line) for ref, line in zip(refs, lines) if ref.corpus != "legacy-v1.0"]
    scored = sorted((ref.scored_at, line) for ref, line in v11 if ref.scored_at is not None)
    first = scored[0] if scored else None
    dates = {e: d for _rel, e, d in log.stated if e is not None and d is not None}
    for i, cand in enumerate(record.candidates):
        ex = cand.exclusion
        if ex is None:
            continue
        where = f"$.candidates[{i}].exclusion.documented_by"
        if ex.documented_by not in log.present:
            out.append(Problem(f, None, where, f"an entry of the amendment log ({', '.join(sorted(log.present))})", short_repr(ex.documented_by)))
        elif first is not None and dates.get(ex.documented_by, "") > first[0][:10]:
            out.append(Problem(f, None, where, f"an amendment dated on or before {first[0][:10]}, when the reference scoring began ({REFERENCE_FILE}:{first[1]}): "
                               "exclusions are made before any scoring (amendment A3)", f"{ex.documented_by}, dated {dates[ex.documented_by]}"))
    if record.genres_assigned_at[:10] < c.protocol_frozen_on:
        out.append(Problem(f, None, "$.genres_assigned_at", f"a time on or after {c.protocol_frozen_on}, when the protocol was frozen", record.genres_assigned_at))
    if record.committed_at < record.genres_assigned_at:
        out.append(Problem(f, None, "$.committed_at", f"a time at or after {record.genres_assigned_at}, when the genres were assigned (protocol section 7)",
                           record.committed_at))
    if first is not None and record.committed_at >= first[0]:
        out.append(Problem(f, None, "$.committed_at", f"a time before {first[0]}, when the first v1.1 reference novel was scored ({REFERENCE_FILE}:{first[1]}): "
                           "the title list and manuscript hashes are committed before any scoring (protocol section 7)", record.committed_at))

    band = c.eligibility
    sel = select(record, band.min_words, band.max_words, anchors, lambda words: expected_windows(words, c.windows), list(c.windows))
    for s in sel.strata:
        if len(s.drawn) < sel.places:
            out.append(Problem(f, None, "$.candidates", f"{sel.places} eligible {s.stratum} works within {s.ceiling:,} words, its stratum's places "
                               "(protocol section 7)", f"{len(s.drawn)}"))
    by_id = {o.candidate.gutenberg_id: o for o in sel.outcomes}
    seen: dict[int, int] = {}
    for ref, line in v11:
        gid = ref.gutenberg_id
        if gid in seen:
            out.append(Problem(REFERENCE_FILE, line, "$.gutenberg_id", f"each drawn work once (first at line {seen[gid]})", str(gid)))
            continue
        seen[gid] = line
        o = by_id.get(gid)
        wanted = f"a work the seeded selection of {f} draws (protocol section 7)"
        if o is None:
            out.append(Problem(REFERENCE_FILE, line, "$.gutenberg_id", wanted, f"{gid}, which is not in the candidate pool"))
            continue
        if o.status == NOT_DRAWN:
            out.append(Problem(REFERENCE_FILE, line, "$.gutenberg_id", wanted, f"{gid}, eligible but not drawn: draw rank {o.rank} in {o.candidate.stratum}, "
                               f"which has {sel.places} places ($.candidates[{o.index}])"))
            continue
        if o.status != SELECTED:
            out.append(Problem(REFERENCE_FILE, line, "$.gutenberg_id", wanted, f"{gid}, excluded: {', '.join(r.code for r in o.reasons)} ($.candidates[{o.index}])"))
            continue
        cand = o.candidate
        for key in ("stratum", "title", "author", "words", "manuscript_sha256"):
            mine, theirs = getattr(ref, key), getattr(cand, key)
            if mine is not None and mine != theirs:
                found = mine if key == "manuscript_sha256" else short_repr(mine)  # a hash whole, as the expected one
                expected = theirs if key == "manuscript_sha256" else repr(theirs)
                out.append(Problem(REFERENCE_FILE, line, f"$.{key}", f"{expected}, as committed for work {gid} in {f} $.candidates[{o.index}]", found))
    for gid, o in sel.drawn.items():
        if refs_whole and gid not in seen:
            out.append(Problem(f, None, f"$.candidates[{o.index}]", f"a line of {REFERENCE_FILE} for this work, which the seeded selection "
                               f"draws ({o.candidate.stratum}, draw rank {o.rank}: {gid}, {o.candidate.title!r})", f"no line of {REFERENCE_FILE} for it"))
    return sel
