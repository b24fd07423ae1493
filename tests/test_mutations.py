"""The mutation corpus: every demo artifact of every family, broken one way at a time.

From each JSON/JSONL file under data/canonic/, data/chronicle/ and data/nextchapter/ the corpus
(tests/mutations.py) generates single-point mutants:

- drop each key; add an extra key to each object; empty each list;
- set each leaf to each bad value that fits its type: null, an empty string, a list, an
  object, a 1 MB string, a value of another type; for numbers also negative, out of range
  (1e9), NaN and Infinity written into the text; for strings a lone surrogate escape
  (\\ud800), NUL, a right-to-left override and a zero-width joiner appended to the value;
- a dangling reference (a model, task, judge, entrant, brief, item... that does not exist);
- once per file: a duplicated key (textual), the file cut in half mid-line, invalid UTF-8.

Scale: the artifacts are long homogeneous lists (190 tasks, 2,470 cell lines, 169 runs). Every
*path pattern* is mutated once, at its first occurrence (for JSONL, on the first line that has
it): list indices are collapsed (`$.tasks[*].premise_origin`), and so are the keys of the few
objects whose keys are data rather than field names (mutations.MAP_OBJECTS: anchors, weights,
dimension scores, free-form parameters). The code path that checks an element does not
depend on its index, so it is exercised identically at any index. List elements are not
"keys" and are not dropped one by one (emptying the list covers the list's own rules).

Each mutant is classified:

- rejected: validation raises InputError, and every problem names a file of the mutated
  family with a JSON path or a line, and at least one names the mutated file (others may be
  records elsewhere that now refer to something broken);
- accepted: validation passes; it must be in ALLOWED below, with the reason it is valid;
- crash: any other exception.

Speed: a full validate() costs one to three seconds, so each mutant first takes the fast
path, the mutated family's load(), which is where every input problem is raised (reading,
the contract, the checks across documents). Only a mutant that loads cleanly goes on to
validate() (store, compute, render) with that family enabled; families are independent.
Those are validated in batches (mutations.batches): a batch holds at most one mutant per file
of a family (or a field's two invisible-character mutants at once), one validation accepts
them all, and anything but an acceptance is decided again by each mutant's own validation,
so a mutant is only ever accepted by a run that held it and is rejected by its own.
Mutants run in two worker processes, each on its own copy of the site, rewriting only the
mutated file, and each memoizing the pure steps a mutant leaves unchanged (mutations.py says
which and why). The counts per file and kind go to artifacts/mutation-report.md.

In the suite the corpus is a seeded sample (`sample` below: every allow-listed mutant, every
(file, kind) pair at least once, and a fiftieth of the rest, drawn with random.Random(SAMPLE_SEED)),
which keeps the suite within its time budget; SITEGEN_MUTATIONS=all runs them all. Run the
whole corpus before changing a contract: `SITEGEN_MUTATIONS=all python -m pytest tests/test_mutations.py`.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import mutations as M
import pytest
from conftest import REPO_ROOT, copy_site, enable_only

from sitegen.build import validate
from sitegen.config import load_config
from sitegen.errors import InputError
from sitegen.site_families import for_site
from sitegen.load import Loaded, json_path

WORKERS = 2
SAMPLE_SEED = 20261202  # the suite's sample of the corpus; any change of it is a different sample
SAMPLE_SHARE = 0.02  # of the rest: with every allow-listed mutant and every (file, kind), about 640 of 4,500
REPORT = REPO_ROOT / "artifacts" / "mutation-report.md"


@dataclass(frozen=True)
class Allowed:
    """Accepted mutants that are still valid input: every (pattern, kind) pair listed must be
    accepted (a pair that is rejected now makes the entry stale, which fails too)."""

    file: str
    patterns: tuple[str, ...]
    kinds: tuple[str, ...]
    reason: str

    def pairs(self):
        return {(self.file, p, k) for p in self.patterns for k in self.kinds}


C, H, N, V = "data/canonic/", "data/chronicle/", "data/nextchapter/", "data/vignette/"
# Prose is quoted as written (model outputs, judges' words, descriptions): a zero-width joiner
# is part of ordinary text (emoji, Indic scripts) and a bidi override only reorders its own
# paragraph on the page. Names are identity and are held to more: neither.
PROSE = ("rtl-override", "zero-width-joiner")
OPTIONAL_DROPPED = ("drop-key", "null")

ALLOWED: list[Allowed] = [
    # ---- canonic
    Allowed(C + "cells.jsonl", ("$.generation.failure_reason",), ("drop-key",),
            "failure_reason is optional and null on an ok generation (line 1 is ok)"),
    Allowed(C + "cells.jsonl", ("$.judgments[*].rationale",), ("drop-key", "empty-string") + PROSE,
            "a judge's rationale is optional free text (default empty)"),
    Allowed(C + "cells.jsonl", ("$.judgments[*].weighted_score",), OPTIONAL_DROPPED,
            "the stated weighted score is optional: the site recomputes it from the anchors"),
    Allowed(C + "external.json", ("$.source",), PROSE, "the citation is prose"),
    Allowed(C + "external.json", ("$.predeclared",), ("empty-list",),
            "no predeclared domain is a valid release: every comparison is then exploratory"),
    Allowed(C + "external.json", ("$.entries[*].score",), ("negative", "out-of-range"),
            "an external board's scores are on its own scale; only their order is compared"),
    Allowed(C + "external.json", ("$.entries[*].model",), ("dangling-ref",),
            "an external entry is compared only when it equals a sweep model id; others are listed, not joined"),
    Allowed(C + "freeze.json", ("$.items[*].path",), ("drop-key",),
            "path is optional (null for a rubric, the first item): a Show Bible defaults to content/canonic/bibles/<id>.md"),
    Allowed(C + "freeze.json", ("$.items[*].history[*].note",), ("drop-key",) + PROSE, "a version note is optional prose"),
    Allowed(C + "outputs.jsonl", ("$.text",), PROSE, "a model output is untrusted text published as written (escaped)"),
    Allowed(C + "probes.json", ("$.probes[*].attack", "$.probes[*].output"), PROSE,
            "a probe's description and engineered output are prose"),
    Allowed(C + "probes.json", ("$.probes[*].judgments[*].rationale",), ("drop-key", "empty-string") + PROSE,
            "a judge's rationale is optional free text (default empty)"),
    Allowed(C + "sweep.json", ("$.domains[*].rubric.dimensions[*].scope",), ("drop-key",),
            "scope defaults to portable, which the first dimension is (so the rubric's fingerprint is unchanged)"),
    Allowed(C + "sweep.json", ("$.development",), ("drop-key",),
            "the tuning record is optional: without it the method page says the release records no tuning subset"),
    Allowed(C + "sweep.json", ("$.tasks[*].show",), ("drop-key",),
            "show is optional and null for the first task (its domain is not show-conditioned)"),
    # ---- chronicle
    # (archive-v1.0.json: no mutant is valid input, as the archive is recorded in the freeze record)
    Allowed(H + "cohort.json", ("$.boards[*].description", "$.cohorts[*].changelog", "$.exhibit.description"), PROSE,
            "descriptions and the changelog are prose"),
    Allowed(H + "cohort.json", ("$.entrants[*].status",), ("drop-key",), "status defaults to active, which the first entrant is"),
    Allowed(H + "cohort.json", ("$.exhibit",), ("drop-key",), "the controlled exhibit is optional"),
    Allowed(H + "freeze.json", ("$.items[*].path",), OPTIONAL_DROPPED,
            "path is optional: the protocol is found at content/chronicle/protocol.md"),
    Allowed(H + "freeze.json", ("$.items[*].history[*].note",), ("drop-key",) + PROSE, "a version note is optional prose"),
    Allowed(H + "reference.jsonl", ("$.windows[*].runs[*].composite", "$.windows[*].composite", "$.score", "$.sagascore"),
            OPTIONAL_DROPPED, "stated composites and scores are optional: the site recomputes them"),
    Allowed(H + "reference.jsonl", ("$.windows[*].runs[*].cap",), ("drop-key",),
            "the cap on line 1's first judge run does not bind (it is above the composite), so no number changes"),
    Allowed(H + "reference.jsonl", ("$.windows[*].runs[*].cap.reason",), PROSE, "a cap's reason is prose"),
    Allowed(H + "selection.json", ("$.candidates[*].exclusion.reason",), PROSE, "a content exclusion's reason is prose"),
    Allowed(H + "reference.jsonl", ("$.windows[*].runs[*].evidence.*[*].quote",), PROSE,
            "a quote is the judge's citation of the text, published as written (escaped)"),
    Allowed(H + "runs.jsonl", ("$.calls[*].params",), ("extra-key",),
            "params are free-form: the generation parameters as the harness recorded them"),
    Allowed(H + "runs.jsonl", ("$.windows[*].runs[*].cap",), ("drop-key",),
            "the cap on line 1's first judge run does not bind (it is above the composite), so no number changes"),
    Allowed(H + "runs.jsonl", ("$.windows[*].runs[*].composite", "$.windows[*].composite", "$.score", "$.sagascore"),
            OPTIONAL_DROPPED, "stated composites and scores are optional: the site recomputes them"),
    Allowed(H + "runs.jsonl", ("$.windows[*].runs[*].cap.reason",), PROSE, "a cap's reason is prose"),
    Allowed(H + "runs.jsonl", ("$.windows[*].runs[*].evidence.*[*].quote", "$.scoring.whole_book[*].evidence.*[*].quote"), PROSE,
            "a quote is the judge's citation of the text, published as written (escaped)"),
    Allowed(H + "runs.jsonl", ("$.calls[*].message", "$.superseded[*].message"), PROSE,
            "an error or a refusal is published as the provider returned it (escaped)"),
    Allowed(H + "runs.jsonl", ("$.superseded",), ("drop-key", "empty-list"), "a run that was never rerun has no superseded attempt"),
    Allowed(H + "runs.jsonl", ("$.scoring.engagement[*].tags",), ("empty-list",), "a segment of the timeline may carry no tag"),
    Allowed(H + "runs.jsonl", ("$.scoring.whole_book[*].cap",), ("drop-key",), "no cap is recorded on the whole-book runs: null or absent alike"),
    Allowed(H + "runs.jsonl", ("$.scoring.whole_book[*].composite",), OPTIONAL_DROPPED, "stated composites are optional: the site recomputes them"),
    Allowed(H + "runs.jsonl", ("$.superseded[*].documented_by",), OPTIONAL_DROPPED,
            "the recorded failure is the documentation; naming the amendment that also records it is optional"),
    # ---- nextchapter
    Allowed(N + "calls.jsonl", ("$.candidate_checks[*].quote", "$.reference_checks[*].quote"), ("drop-key", "empty-string") + PROSE,
            "a quotation may be empty or carry any text: a pass counts only when the quote occurs verbatim in the chapter (scoring.quote_holds)"),
    Allowed(N + "calls.jsonl", ("$.candidate.worst_flaw", "$.candidate.best_quality", "$.reference.worst_flaw", "$.reference.best_quality",
                                "$.author.worst_flaw", "$.author.best_quality"), PROSE, "the judge's sentences are prose"),
    Allowed(N + "chapters.jsonl", ("$.text",), PROSE, "a chapter is untrusted model text published as written (escaped)"),
    Allowed(N + "chapters.jsonl", ("$.attempts[*].reason",), ("drop-key",) + PROSE,
            "an attempt's reason is optional prose (line 1's only attempt is the chapter)"),
    Allowed(N + "chapters.jsonl", ("$.usage.output_tokens", "$.usage.reasoning_tokens"), ("out-of-range",),
            "a chapter's token counts may be large: a billion is within their bound (a cost of $1e9 is not)"),
    Allowed(N + "items.jsonl", ("$.source_chapter", "$.brief.beats[*]", "$.brief.prohibitions[*]", "$.brief.end_state",
                                "$.traps[*].fact", "$.author_chapter"), PROSE, "source texts and the brief are prose"),
    Allowed(N + "items.jsonl", ("$.brief.words_max",), ("out-of-range",),
            "a brief's word range is the author's choice; the rule is only min < max"),
    Allowed(N + "run.json", ("$.models[*].variants[*].note",), ("drop-key",) + PROSE, "a variant's note is optional prose"),
    Allowed(N + "run.json", ("$.models[*].starting_reason",), PROSE, "why a model started at its setting is prose"),
    Allowed(N + "run.json", ("$.memorisation_threshold",), ("drop-key",), "the threshold defaults to 30 words"),
    # ---- vignette (the declarative family)
    Allowed(V + "prompts.jsonl", ("$",), ("extra-key",), "a prompt's further fields are the harness's own (strings), shown and grouped by, never computed with"),
    Allowed(V + "prompts.jsonl", ("$.title", "$.text"), OPTIONAL_DROPPED, "a prompt's title and text are optional"),
    Allowed(V + "prompts.jsonl", ("$.text",), PROSE, "a prompt's text is prose"),
    Allowed(V + "sweep-s1.jsonl", ("$.output",), OPTIONAL_DROPPED + PROSE, "an output is optional untrusted text, published as written (escaped)"),
    # sweep s2's line 1 is an output the pairwise judgments read (by iteration): dropping it is refused there and at each judgment
    Allowed(V + "sweep-s2.jsonl", ("$.output",), PROSE, "an output is untrusted text, published as written (escaped)"),
    Allowed(V + "pairwise.jsonl", ("$.reasoning",), OPTIONAL_DROPPED + PROSE, "a judge's reasoning is optional prose"),
    Allowed(V + "pairwise.jsonl", ("$.output_a", "$.output_b"), PROSE, "an output a judgment carries is untrusted text, published as written (escaped)"),
    *[Allowed(V + sweep, ("$.judgments[*].rationale",), OPTIONAL_DROPPED + PROSE, "a judge's rationale is optional prose")
      for sweep in ("sweep-s1.jsonl", "sweep-s2.jsonl")],
    *[Allowed(V + sweep, ("$.judgments[*].scores.dialogue", "$.judgments[*].scores.humour"), ("null",),
              "dialogue and humour are optional criteria: a judge may leave them unscored") for sweep in ("sweep-s1.jsonl", "sweep-s2.jsonl")],
    *[Allowed(V + sweep, ("$.judgments[*].scores.world",), ("wrong-type:number",),
              "world is optional and unscored on line 1; a number in its scale scores it") for sweep in ("sweep-s1.jsonl", "sweep-s2.jsonl")],
]


# --------------------------------------------------------------------------- the corpus run


@dataclass
class Corpus:
    outcomes: list[M.Outcome]
    seconds: float
    cpu: float
    generated: int  # mutants in the whole corpus; len(outcomes) when it all ran
    whole: bool
    validations: int  # validate() runs for the mutants that loaded cleanly (in batches)


def _allowed_pairs() -> set[tuple[str, str, str]]:
    return {pair for a in ALLOWED for pair in a.pairs()}


def sample(specs: list[M.Spec], share: float = SAMPLE_SHARE, seed: int = SAMPLE_SEED) -> list[M.Spec]:
    """The mutants the suite runs, in corpus order: every one an allow-list entry names (so a
    stale entry is still found), the first of every (file, kind) pair (so no kind of fault goes
    untried on any artifact), and a seeded share of the rest."""
    allowed = _allowed_pairs()
    rng = random.Random(seed)
    seen: set[tuple[str, str]] = set()
    out = []
    for spec in specs:
        first = (spec.rel, spec.kind) not in seen
        seen.add((spec.rel, spec.kind))
        draw = rng.random() < share  # drawn for every mutant, so the sample does not shift with the rules above
        if first or (spec.rel, spec.pattern, spec.kind) in allowed or draw:
            out.append(spec)
    return out


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Corpus:
    base = tmp_path_factory.mktemp("mutations")
    site = copy_site(base / "site")  # copied once; each worker clones it and rewrites one file at a time
    config = load_config(site)
    for fid in M.FAMILY_IDS:  # a broken baseline would make every mutant look rejected
        loaded = Loaded()
        for_site(site, [fid])[fid].load(site, loaded, config.limits)
        assert not loaded.problems, f"the pristine {fid} inputs do not load: {loaded.problems[:3]}"
    specs = M.generate(site)
    whole = os.environ.get("SITEGEN_MUTATIONS", "") == "all"
    generated = len(specs)
    if not whole:
        specs = sample(specs)
    start = time.perf_counter()
    # spawn, not fork: the parent may hold DuckDB or process pools from earlier tests.
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(WORKERS, mp_context=ctx, initializer=M.init_worker, initargs=(str(site), str(base))) as pool:
        # Consecutive mutants of one file go to one worker, so its memoized intake is reused.
        loaded = list(pool.map(M.run, specs, chunksize=8))
        batches = M.batches([o.spec for o in loaded if o.status == M.LOADED])
        validated = {o.spec: o for found in pool.map(M.run_batch, batches) for o in found}
    outcomes = [validated[o.spec] if o.status == M.LOADED else o for o in loaded]
    corpus = Corpus(outcomes, time.perf_counter() - start, sum(o.cpu for o in outcomes), generated, whole, len(batches))
    write_report(corpus)
    print("\n" + totals_line(corpus))
    return corpus


def totals_line(corpus: Corpus) -> str:
    by = Counter((o.spec.family, o.status) for o in corpus.outcomes)
    parts = [f"{fid}: {sum(v for (f, _), v in by.items() if f == fid)} generated, {by[(fid, 'rejected')]} rejected, "
             f"{by[(fid, 'accepted')]} accepted, {by[(fid, 'crash')]} crashed" for fid in M.FAMILY_IDS]
    ran = "" if corpus.whole else f" (a seeded sample of {corpus.generated})"
    return (f"mutation corpus: {len(corpus.outcomes)} mutants{ran} in {corpus.seconds:.1f} s "
            f"({corpus.cpu:.0f} CPU s over {WORKERS} workers, {corpus.validations} validations of those that loaded); "
            + "; ".join(parts))


def _allowed_reason(o: M.Outcome) -> str | None:
    for a in ALLOWED:
        if (o.spec.rel, o.spec.pattern, o.spec.kind) in a.pairs():
            return a.reason
    return None


def write_report(corpus: Corpus) -> None:
    rows = defaultdict(Counter)
    kinds = defaultdict(Counter)
    for o in corpus.outcomes:
        rows[o.spec.rel]["generated"] += 1
        rows[o.spec.rel][o.status] += 1
        rows[o.spec.rel]["message faults"] += bool(o.bad_messages)
        kinds[(o.spec.rel, o.spec.kind)][o.status] += 1
    out = ["# Mutation corpus", "", totals_line(corpus), "",
           "| file | generated | rejected | accepted | crash | rejected with a faulty message |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for rel in sorted(rows):
        r = rows[rel]
        out.append(f"| {rel} | {r['generated']} | {r['rejected']} | {r['accepted']} | {r['crash']} | {r['message faults']} |")
    out += ["", "## By mutation kind", "", "| file | kind | rejected | accepted | crash |", "| --- | --- | ---: | ---: | ---: |"]
    for (rel, kind), c in sorted(kinds.items()):
        out.append(f"| {rel} | {kind} | {c['rejected']} | {c['accepted']} | {c['crash']} |")
    out += ["", "## Accepted", "", "| mutant | reason |", "| --- | --- |"]
    for o in corpus.outcomes:
        if o.status == "accepted":
            out.append(f"| `{o.spec.label}` | {_allowed_reason(o) or '**NOT ALLOWED: a contract hole?**'} |")
    out += ["", "## Crashes and faulty messages", ""]
    for o in corpus.outcomes:
        if o.status == "crash":
            out += [f"- crash: `{o.spec.label}`", "", "```", o.error, "```"]
        elif o.bad_messages:
            out.append(f"- `{o.spec.label}`: " + "; ".join(o.bad_messages))
    REPORT.parent.mkdir(exist_ok=True)
    REPORT.write_text("\n".join(out) + "\n", encoding="utf-8")


# --------------------------------------------------------------------------- the tests


def test_the_sample_holds_every_allow_listed_mutant_and_every_kind_on_every_file():
    specs = M.generate(REPO_ROOT)  # (read only; nothing here waits for the suite's demo build)
    picked = sample(specs)
    assert len(picked) < len(specs) / 2  # a sample, or the suite pays for the whole corpus
    keys = {(s.rel, s.pattern, s.kind) for s in picked}
    assert {(s.rel, s.pattern, s.kind) for s in specs} & _allowed_pairs() <= keys
    assert {(s.rel, s.kind) for s in picked} == {(s.rel, s.kind) for s in specs}
    assert picked == sample(specs), "the sample is seeded: the same every run"


def test_a_batch_holds_one_mutant_per_file_of_one_family():
    specs = [s for s in M.generate(REPO_ROOT) if s.kind not in M.WHOLE_FILE_KINDS]
    picked = sample(specs)
    found = M.batches(picked)
    batched = [spec for b in found for u in b for spec in u]
    assert len(batched) == len(picked) and set(batched) == set(picked), "every mutant in exactly one batch"
    for batch in found:
        assert len({u[0].family for u in batch}) == 1
        assert len({u[0].rel for u in batch}) == len(batch), "two units of one file in a batch"
        for unit in batch:
            assert len(unit) == 1 or ({s.kind for s in unit} == set(M.INVISIBLE) and len({(s.rel, s.line, s.loc) for s in unit}) == 1)
    # As few validations as the rule allows: a family's batches are as many as its file with the most units has.
    units = Counter(u[0].rel for b in found for u in b)
    for fid in M.FAMILY_IDS:
        assert sum(b[0][0].family == fid for b in found) == max(n for rel, n in units.items() if rel.startswith(f"data/{fid}/"))


def test_a_batch_that_is_not_accepted_is_decided_mutant_by_mutant(tmp_path):
    """A batch of an acceptable mutant and one the contract refuses: the refusal is not
    pinned on the acceptable one."""
    site = copy_site(tmp_path / "site")
    specs = M.generate(site)
    prose = next(s for s in specs if s.rel == "data/nextchapter/chapters.jsonl" and s.pattern == "$.text" and s.kind == "rtl-override")
    bad = next(s for s in specs if s.rel == "data/nextchapter/calls.jsonl" and s.kind == "wrong-type:object")
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=ctx, initializer=M.init_worker, initargs=(str(site), str(tmp_path))) as pool:
        outcomes = pool.submit(M.run_batch, ((prose,), (bad,))).result()
    assert [(o.spec, o.status) for o in outcomes] == [(prose, "accepted"), (bad, "rejected")]


def test_corpus_covers_every_artifact(corpus):
    """Every artifact file gets mutants, including the three whole-file ones."""
    by_file = defaultdict(set)
    for o in corpus.outcomes:
        by_file[o.spec.rel].add(o.spec.kind)
    assert sorted(by_file) == M.data_files(REPO_ROOT)
    for rel, kinds in by_file.items():
        assert set(M.WHOLE_FILE_KINDS) <= kinds and "drop-key" in kinds and "null" in kinds, rel


def test_no_mutant_crashes(corpus):
    crashes = [f"{o.spec.label} ({o.path} path):\n{o.error}" for o in corpus.outcomes if o.status == "crash"]
    assert not crashes, f"{len(crashes)} mutants crashed instead of being reported:\n\n" + "\n\n".join(crashes)


def test_every_rejection_names_its_file_and_location(corpus):
    faulty = [f"{o.spec.label}: " + " | ".join(o.bad_messages) for o in corpus.outcomes if o.status == "rejected" and o.bad_messages]
    assert not faulty, f"{len(faulty)} rejections do not say where the problem is:\n" + "\n".join(faulty)


def test_accepted_mutants_are_allow_listed(corpus):
    unexplained = [o.spec.label for o in corpus.outcomes if o.status == "accepted" and _allowed_reason(o) is None]
    assert not unexplained, (f"{len(unexplained)} mutants were accepted that no allow-list entry explains "
                             "(a contract hole, or an entry to add with its reason):\n" + "\n".join(unexplained)
                             + "\n\n" + totals_line(corpus))


def test_allow_list_has_no_stale_entries(corpus):
    # The sample holds every allow-listed mutant the corpus generates, so a pair missing from
    # the accepted ones is stale whether or not the whole corpus ran.
    accepted = {(o.spec.rel, o.spec.pattern, o.spec.kind) for o in corpus.outcomes if o.status == "accepted"}
    stale = [f"{a.file} {p} [{k}]: {a.reason}" for a in ALLOWED for (_, p, k) in sorted(a.pairs()) if (a.file, p, k) not in accepted]
    assert not stale, "allow-list entries that match no accepted mutant (remove them):\n" + "\n".join(stale)


# --------------------------------------------------------------------------- all errors at once


def _leaf(root: Path, rel: str, last: bool) -> tuple[int | None, tuple]:
    """A leaf to break: the first leaf of the first line (or document), or the first leaf of
    the last line (or the last leaf of the document)."""
    docs = M.documents(root, rel)
    line, doc = docs[-1] if last and len(docs) > 1 else docs[0]
    leaves = [loc for _, loc, v in M.walk(doc, set()) if not isinstance(v, (dict, list))]
    return line, leaves[-1] if last and len(docs) == 1 else leaves[0]


def _break(root: Path, rel: str, line: int | None, loc: tuple) -> None:
    """Set one leaf to an object: a wrong type for every leaf of every contract."""
    path = root / rel
    spec = M.Spec(rel.split("/")[1], rel, "wrong-type:object", "", line, loc)
    path.write_bytes(M.mutate_file(path.read_bytes(), spec))


PAIRS = [(files[i], files[(i + 1) % len(files)])
         for fid in M.FAMILY_IDS
         for files in [[f for f in M.data_files(REPO_ROOT) if f.startswith(f"data/{fid}/")]]
         for i in range(len(files))]


@pytest.mark.parametrize(("rel", "other"), PAIRS, ids=[f"{a.split('/', 1)[1]}+{b.rsplit('/', 1)[1]}" for a, b in PAIRS])
def test_all_errors_reported_at_once(cold_site_copy, rel, other):
    """Two problems in different places of one file and one in another file of the same
    family: one validation run reports all three. (The family alone is enabled: the others'
    inputs are pristine and would only be read.)"""
    site = cold_site_copy  # (a validation of one family: the demo build's cache would not serve it)
    wanted = [(rel, *_leaf(site, rel, False)), (rel, *_leaf(site, rel, True)), (other, *_leaf(site, other, False))]
    assert wanted[0] != wanted[1]
    for f, line, loc in wanted:
        _break(site, f, line, loc)
    enable_only(site, [rel.split("/")[1]])
    with pytest.raises(InputError) as exc:
        validate(load_config(site))
    found = {(p.file, p.line, p.path) for p in exc.value.problems}
    missing = [f"{f}{':' + str(line) if line else ''} {json_path(loc)}" for f, line, loc in wanted if (f, line, json_path(loc)) not in found]
    assert not missing, "not reported in the same run:\n" + "\n".join(missing) + "\n\nreported:\n" + str(exc.value)
