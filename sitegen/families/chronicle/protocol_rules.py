"""ChronicleBench's records checked against what its frozen protocol states, not only against
each other: the data restates a number or a name for the computation (the band, the word cap,
the selection's seed, the instrument and its judge, the word target), and the protocol is where
it is decided, so the two must agree; and the runs are held to the arm rules of section 2.

Each statement is read from the protocol's text by the sentence that makes it (_stated); a
sentence no longer there is a problem of its own, so an edit of the protocol cannot switch a
check off quietly.
"""

from __future__ import annotations

import re

from sitegen.errors import Problem, short_repr
from sitegen.load import MarkdownDoc
from sitegen.families.chronicle.files import COHORT_FILE, PROTOCOL_DOC, RUNS_FILE, SELECTION_FILE
from sitegen.families.chronicle.models import CohortFile, Run, SelectionFile


def check(protocol: MarkdownDoc, cohort: CohortFile, runs: list[Run], lines: list[int], out: list[Problem]) -> None:
    """Every statement of the protocol the cohort and the runs restate or are held to."""
    _check_band(protocol, cohort, out)
    _check_word_cap(protocol, cohort, out)
    _check_instrument(protocol, cohort, out)
    _check_arms(protocol, runs, lines, out)
    _check_run_plan(protocol, cohort, out)
    _check_tags(protocol, cohort, out)


# The protocol's own statement of the band (section 3), e.g. "Eligibility band: 80,000–95,000 words".
_BAND = re.compile(r"Eligibility band: ([0-9][0-9,]*) ?[–-] ?([0-9][0-9,]*) words")


def _stated(protocol: MarkdownDoc, rx: re.Pattern, sentence: str, out: list[Problem]) -> tuple[re.Match, int] | None:
    """Where the frozen protocol states a number the data restates: the match and its line, or
    None (and a problem: the sentence the check reads is gone)."""
    m = rx.search(protocol.body)
    if m is None:
        out.append(Problem(PROTOCOL_DOC, None, "", sentence, "no such sentence"))
        return None
    return m, protocol.body_line + protocol.body.count("\n", 0, m.start())


def _check_band(protocol: MarkdownDoc, cohort: CohortFile, out: list[Problem]) -> None:
    """cohort.json restates the eligibility band for the computation; the frozen protocol is
    where it is decided. A band that drifts from the protocol would move runs onto or off the
    boards (a run outside the frozen band counted as eligible) without any edit to a frozen
    document, so the two must agree."""
    if not (found := _stated(protocol, _BAND, "the eligibility band stated as \"Eligibility band: N–M words\"", out)):
        return
    m, line = found
    frozen = {"min_words": int(m.group(1).replace(",", "")), "max_words": int(m.group(2).replace(",", ""))}
    for key, want in frozen.items():
        stated = getattr(cohort.eligibility, key)
        if stated != want:
            out.append(Problem(COHORT_FILE, None, f"$.eligibility.{key}", f"{want}, the band the frozen protocol states ({PROTOCOL_DOC}:{line})", str(stated)))


# The protocol's own statement of the harness's cap (section 2): "a hard word cap of 94,000".
_WORD_CAP = re.compile(r"hard word cap of ([0-9][0-9,]*)")


def _check_word_cap(protocol: MarkdownDoc, cohort: CohortFile, out: list[Problem]) -> None:
    """cohort.json restates the hard word cap the runs are held to; the frozen protocol decides it."""
    if not (found := _stated(protocol, _WORD_CAP, 'the hard word cap stated as "a hard word cap of N"', out)):
        return
    m, line = found
    want = int(m.group(1).replace(",", ""))
    if cohort.hard_cap_words != want:
        out.append(Problem(COHORT_FILE, None, "$.hard_cap_words", f"{want}, the hard word cap the frozen protocol states ({PROTOCOL_DOC}:{line})",
                           str(cohort.hard_cap_words)))


# The protocol's own statements of the selection (section 7): "three strata of 12", "the ceiling
# extends mechanically to 110,000 words", "seed string `sagabench-v1.1-gutenberg`".
_SELECTION_STATEMENTS = (
    ("places_per_stratum", re.compile(r"three strata of ([0-9]+)"), "the places per stratum", 'the strata stated as "three strata of N"'),
    ("extended_max_words", re.compile(r"ceiling extends mechanically to\s+([0-9][0-9,]*) words"), "the extended ceiling",
     'the extended ceiling stated as "the ceiling extends mechanically to N words"'),
    ("seed", re.compile(r"seed string\s+`([^`\n]+)`"), "the seed string", 'the seed stated as "seed string `...`"'),
)


def check_selection_statements(protocol: MarkdownDoc, record: SelectionFile, out: list[Problem]) -> None:
    """selection.json restates the seed, the places per stratum and the extended ceiling for the
    computation; the frozen protocol decides them, so the two must agree (as for the band)."""
    for key, rx, name, sentence in _SELECTION_STATEMENTS:
        if not (found := _stated(protocol, rx, f"{sentence} (section 7)", out)):
            continue
        m, line = found
        want = m.group(1) if key == "seed" else int(m.group(1).replace(",", ""))
        if getattr(record, key) != want:
            out.append(Problem(SELECTION_FILE, None, f"$.{key}", f"{want!r}, {name} the frozen protocol states ({PROTOCOL_DOC}:{line})",
                               short_repr(getattr(record, key))))


# Section 3a: "pinned at system-prompt hash `obr-v2.1-2026-03-08`. The judge model is Claude
# Sonnet 4.6 at temperature 0, with three independent runs per text".
_INSTRUMENT = re.compile(r"pinned\s+at system-prompt hash\s+`([^`\n]+)`\.\s+The judge model is\s+(.+?)\s+at temperature\s+([0-9.]+),\s+"
                         r"with\s+(\w+)\s+independent runs", re.S)
_COUNTS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}


def _check_instrument(protocol: MarkdownDoc, cohort: CohortFile, out: list[Problem]) -> None:
    """The instrument every score comes from, and its judge, are the protocol's: a cohort that
    names another judge or another prompt hash would publish that name under a frozen text that
    says otherwise."""
    if not (found := _stated(protocol, _INSTRUMENT, 'the instrument stated as "pinned at system-prompt hash `H`. The judge model is J at '
                             'temperature T, with N independent runs" (section 3a)', out)):
        return
    m, line = found
    runs = _COUNTS.get(m.group(4).lower(), int(m.group(4)) if m.group(4).isdigit() else None)
    frozen = {"id": m.group(1), "judge": " ".join(m.group(2).split()), "temperature": float(m.group(3)), "runs": runs}
    for key, want in frozen.items():
        stated = getattr(cohort.instrument, key)
        if (" ".join(stated.split()) if key == "judge" else stated) != want:  # the protocol's text is wrapped
            out.append(Problem(COHORT_FILE, None, f"$.instrument.{key}", f"{want!r}, as the frozen protocol states ({PROTOCOL_DOC}:{line})",
                               short_repr(stated)))


# Section 2: a free run continues "only while `finish=length`"; a sustained run is continued
# "until ≥85,000 words at a stop, a stall or the cap".
_FREE_RUN = re.compile(r"continue only while\s+`finish=length`")
_TARGET = re.compile(r"until\s+≥\s*([0-9][0-9,]*)\s+words")


def _check_arms(protocol: MarkdownDoc, runs: list[Run], lines: list[int], out: list[Problem]) -> None:
    """The arm rules of section 2, run by run: a free run ends at the model's own stop (a call
    after a stop, or after anything but the length limit, is not a free run's), and is said to
    stop voluntarily exactly when its last call stopped; a sustained run said to reach the word
    target holds at least the words the protocol sets as the target."""
    free = _stated(protocol, _FREE_RUN, 'the free-run rule stated as "continue only while `finish=length`" (section 2)', out)
    target = _stated(protocol, _TARGET, 'the word target stated as "until ≥N words" (section 2)', out)
    want = int(target[0].group(1).replace(",", "")) if target else None
    for run, line in zip(runs, lines):
        if free and run.arm == "free-run":
            rule = f"{PROTOCOL_DOC}:{free[1]}"
            for k, call in enumerate(run.calls[:-1]):
                if call.finish != "length":
                    out.append(Problem(RUNS_FILE, line, f"$.calls[{k}].finish", f'"length": a free run is continued only while a call ends at the '
                                       f"length limit, and the model's own stop ends it ({rule})", short_repr(call.finish)))
            stopped = bool(run.calls) and run.calls[-1].finish == "stop"
            if run.stop_reason == "word-target" or (run.stop_reason == "voluntary-stop") != stopped:
                out.append(Problem(RUNS_FILE, line, "$.stop_reason", f'"voluntary-stop" exactly when the last call ended in the model\'s own stop '
                                   f"(a free run is never continued to a target: {rule})", short_repr(run.stop_reason)))
        # a system writes to its own commission (its runs' params): the target is the harness's
        if want is not None and run.arm == "sustained" and run.stop_reason == "word-target" and run.words < want:
            out.append(Problem(RUNS_FILE, line, "$.words", f"at least {want:,} words, the word target the frozen protocol sets "
                               f"({PROTOCOL_DOC}:{target[1]}), for a sustained run that stopped at the word target", f"{run.words:,}"))


# Section 2: "14 models × 2 briefs × 6 runs = 168 scored runs".
_RUN_PLAN = re.compile(r"([0-9]+) models × ([0-9]+) briefs × ([0-9]+) runs = ([0-9][0-9,]*) scored runs")


def run_plan(cohort: CohortFile) -> tuple[int, int, int]:
    """(the first cohort's models, the briefs, the runs per model and brief: a free run and a
    sustained run per replicate): the plan of section 2, from the cohort record."""
    first = cohort.cohorts[0].id
    models = sum(1 for e in cohort.entrants if e.kind == "model" and e.cohort == first)
    return models, len(cohort.briefs), 2 * cohort.replicates


def _check_run_plan(protocol: MarkdownDoc, cohort: CohortFile, out: list[Problem]) -> None:
    """The protocol's run arithmetic holds, and is the cohort record's: its first cohort's models,
    its briefs and its replicates make the runs it states (the protocol page reconciles them
    with the runs held)."""
    if not (found := _stated(protocol, _RUN_PLAN, 'the run arithmetic stated as "M models × B briefs × R runs = N scored runs" (section 2)', out)):
        return
    m, line = found
    stated = [int(g.replace(",", "")) for g in m.groups()]
    at = f"{PROTOCOL_DOC}:{line}"
    if stated[0] * stated[1] * stated[2] != stated[3]:
        out.append(Problem(PROTOCOL_DOC, line, "", f"{stated[0] * stated[1] * stated[2]:,} scored runs, the product it states", f"{stated[3]:,}"))
    for (what, key), want, have in zip((("models in the first cohort", "$.entrants"), ("briefs", "$.briefs"), ("runs per model and brief, "
                                        "two arms of each replicate", "$.replicates")), stated[:3], run_plan(cohort)):
        if want != have:
            out.append(Problem(COHORT_FILE, None, key, f"{want} {what}, as the frozen protocol's run arithmetic states ({at})", str(have)))


# Section 3a: "with a controlled tag vocabulary (`strong_hook`, `tension_spike`, …)".
_TAGS = re.compile(r"controlled tag vocabulary\s+\(([^)]*)\)")


def _check_tags(protocol: MarkdownDoc, cohort: CohortFile, out: list[Problem]) -> None:
    """Every tag the protocol names is in the cohort's vocabulary, spelled as the protocol
    spells it (a tag outside the vocabulary is dropped in validation, section 3a)."""
    if not (found := _stated(protocol, _TAGS, 'the tag vocabulary stated as "a controlled tag vocabulary (`tag`, …)" (section 3a)', out)):
        return
    m, line = found
    named = re.findall(r"`([^`]+)`", m.group(1))
    missing = [t for t in named if t not in cohort.vocabulary.tags]
    if missing:
        out.append(Problem(COHORT_FILE, None, "$.vocabulary.tags", f"every tag the frozen protocol names, spelled as it spells them "
                           f"({PROTOCOL_DOC}:{line}): {', '.join(missing)} missing", short_repr(cohort.vocabulary.tags)))
