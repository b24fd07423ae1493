"""Contract holes the mutation corpus found in NextChapterBench and ChronicleBench, one test
each: a value that is well-formed but wrong is rejected at its own file, line and JSON path.

NextChapterBench: the judge audition names only its own candidates, chose the run's judge,
has at least one correlation and one leniency result, and bounds a leniency offset to the
0-100 scale. ChronicleBench: a run's calls are numbered 1..n in order, and a v1.1 reference
novel lies within the eligibility band (protocol section 7).

Each test edits a private copy of the site and runs the family's load, which is where every
input problem is raised; the message is the one `sitegen validate` prints.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sitegen.config import load_config
from sitegen.errors import Problem
from sitegen.families import FAMILIES
from sitegen.load import Loaded

from conftest import (edit_line, read_json, write_json)

RUN_REL = "data/nextchapter/run.json"
RUNS_REL = "data/chronicle/runs.jsonl"
REFS_REL = "data/chronicle/reference.jsonl"
CANDIDATES = "anthropic/claude-sonnet-5, openai/gpt-5.6-sol, google/gemini-3.1-pro"


def problems(root: Path, family: str) -> list[str]:
    loaded = Loaded()
    FAMILIES[family].load(root, loaded, load_config(root).limits)
    return [str(p) for p in sorted(loaded.problems, key=Problem.__str__)]


def edit_run(root: Path, edit) -> dict:
    run = read_json(root, RUN_REL)
    edit(run["audition"])
    write_json(root, RUN_REL, run)
    return run


def test_the_demo_inputs_load_cleanly(site_copy):
    assert problems(site_copy, "nextchapter") == []
    assert problems(site_copy, "chronicle") == []


# --------------------------------------------------------------------------- NextChapterBench audition


@pytest.mark.parametrize("path, edit", [
    ("$.audition.chosen", lambda a: a.update(chosen="no-such/judge")),
    ("$.audition.correlations[0].a", lambda a: a["correlations"][0].update(a="no-such/judge")),
    ("$.audition.correlations[2].b", lambda a: a["correlations"][2].update(b="no-such/judge")),
    ("$.audition.leniency[1].judge", lambda a: a["leniency"][1].update(judge="no-such/judge")),
])
def test_an_audition_naming_a_judge_it_did_not_audition_is_rejected(site_copy, path, edit):
    edit_run(site_copy, edit)
    assert problems(site_copy, "nextchapter") == [
        f'{RUN_REL} {path}: expected a candidate of the audition ({CANDIDATES}); found "no-such/judge"']


def test_an_audition_choosing_a_candidate_other_than_the_runs_judge_is_rejected(site_copy):
    edit_run(site_copy, lambda a: a.update(chosen="openai/gpt-5.6-sol"))
    assert problems(site_copy, "nextchapter") == [
        f"{RUN_REL} $.audition.chosen: expected 'anthropic/claude-sonnet-5', the run's judge; found \"openai/gpt-5.6-sol\""]


def test_a_correlation_of_a_candidate_with_itself_is_rejected(site_copy):
    edit_run(site_copy, lambda a: a["correlations"][1].update(b=a["correlations"][1]["a"]))
    assert problems(site_copy, "nextchapter") == [
        f"{RUN_REL} $.audition.correlations[1]: expected two different candidates; found anthropic/claude-sonnet-5 with itself"]


@pytest.mark.parametrize("table", ["correlations", "leniency"])
def test_an_audition_without_results_is_rejected(site_copy, table):
    edit_run(site_copy, lambda a: a.update({table: []}))
    (p,) = problems(site_copy, "nextchapter")
    assert p.startswith(f"{RUN_REL} $.audition.{table}: expected ")
    assert "at least 1 item" in p and p.endswith("found an empty list")


@pytest.mark.parametrize("offset, ok", [(1e9, False), (-100.5, False), (100, True), (-100, True)])
def test_a_leniency_offset_lies_on_the_score_scale(site_copy, offset, ok):
    edit_run(site_copy, lambda a: a["leniency"][0].update(offset=offset))
    got = problems(site_copy, "nextchapter")
    if ok:
        assert got == []
    else:
        (p,) = got
        bound = "less than or equal to 100" if offset > 0 else "greater than or equal to -100"
        assert p.startswith(f"{RUN_REL} $.audition.leniency[0].offset: expected ") and bound in p
        assert p.endswith(f"found {offset!r}")


# --------------------------------------------------------------------------- ChronicleBench


def first_multi_call_run(root: Path) -> tuple[int, int]:
    text = (root / RUNS_REL).read_text(encoding="utf-8").split("\n")
    return next((i, len(r["calls"])) for i, r in ((i, json.loads(t)) for i, t in enumerate(text, 1) if t.strip()) if len(r["calls"]) >= 3)


@pytest.mark.parametrize("seqs", ["huge", "from-two", "swapped"])
def test_a_runs_calls_are_numbered_one_to_n_in_order(site_copy, seqs):
    line, n = first_multi_call_run(site_copy)
    new = {"huge": [1_000_000_000] + list(range(2, n + 1)), "from-two": list(range(2, n + 2)),
           "swapped": [2, 1] + list(range(3, n + 1))}[seqs]

    def renumber(rec):
        for call, seq in zip(rec["calls"], new):
            call["seq"] = seq

    edit_line(site_copy, RUNS_REL, line, renumber)
    want = [f"{RUNS_REL}:{line} $.calls[{k}].seq: expected {k + 1}, the call's place in the run (calls numbered 1 to {n} in order); "
            f"found {s}" for k, s in enumerate(new) if s != k + 1]
    assert problems(site_copy, "chronicle") == sorted(want)


@pytest.mark.parametrize("words", [1_000_000_000, 79_999, 95_001])
def test_a_v1_1_reference_novel_outside_the_eligibility_band_is_rejected(site_copy, words):
    assert json.loads((site_copy / REFS_REL).read_text(encoding="utf-8").split("\n")[0])["corpus"] == "v1.1"
    edit_line(site_copy, REFS_REL, 1, lambda r: r.update(words=words))
    got = problems(site_copy, "chronicle")
    if words > 2_000_000:  # beyond what a novel can be: refused by the contract itself
        (p,) = got
        assert p.startswith(f"{REFS_REL}:1 $.words: expected ") and "less than or equal to 2000000" in p
    else:
        assert got == [f"{REFS_REL}:1 $.words: expected 80000 to 95000 words, the eligibility band of the reference "
                       f"additions (protocol section 7); found {words}"]


def test_a_legacy_anchor_keeps_its_v1_0_length(site_copy):
    """The legacy anchors were chosen under v1.0 and are never rescored away: one of 73,459
    words (below the v1.1 floor) is valid as it stands."""
    lines = (site_copy / REFS_REL).read_text(encoding="utf-8").split("\n")
    legacy = [json.loads(t) for t in lines if t.strip() and json.loads(t)["corpus"] == "legacy-v1.0"]
    assert any(r["words"] < 80_000 for r in legacy)
    assert problems(site_copy, "chronicle") == []
