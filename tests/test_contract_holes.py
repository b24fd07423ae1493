"""Contract holes the mutation corpus found in NextChapterBench and ChronicleBench, one test
each: a value that is well-formed but wrong is rejected at its own file, line and JSON path.

NextChapterBench: the judge audition chose the run's judge from its own candidates, and every
candidate read the same chapters (the real author's among them) once; the earlier panel's marks
lie on its scale; a model starts at one of its settings; a call shows the candidate and the
reference once each, and reads the author on five dimensions; only a chapter's last attempt is
a chapter. ChronicleBench: a run's calls are numbered 1..n in order, and a v1.1 reference
novel has the words its candidate was drawn with (protocol section 7).

Each test edits a private copy of the site and runs the family's load, which is where every
input problem is raised; the message is the one `sitegen validate` prints.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sitegen.config import load_config
from sitegen.errors import Problem
from sitegen.site_families import FAMILIES
from sitegen.load import Loaded

from conftest import (edit_line, read_json, write_json)

RUN_REL = "data/nextchapter/run.json"
RUNS_REL = "data/chronicle/runs.jsonl"
REFS_REL = "data/chronicle/reference.jsonl"
SEL_REL = "data/chronicle/selection.json"
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


def test_an_audition_choosing_a_judge_it_did_not_audition_is_rejected(site_copy):
    edit_run(site_copy, lambda a: a.update(chosen="no-such/judge"))
    assert problems(site_copy, "nextchapter") == [
        f'{RUN_REL} $.audition.chosen: expected a candidate of the audition ({CANDIDATES}); found "no-such/judge"']


def test_an_audition_choosing_a_candidate_other_than_the_runs_judge_is_rejected(site_copy):
    edit_run(site_copy, lambda a: a.update(chosen="openai/gpt-5.6-sol"))
    assert problems(site_copy, "nextchapter") == [
        f"{RUN_REL} $.audition.chosen: expected 'anthropic/claude-sonnet-5', the run's judge; found \"openai/gpt-5.6-sol\""]


@pytest.mark.parametrize("field, what", [("judge", "judges"), ("item", "items"), ("writer", "writers")])
def test_an_audition_reading_of_something_the_audition_does_not_declare_is_rejected(site_copy, field, what):
    edit_run(site_copy, lambda a: a["readings"][3].update({field: "no-such/thing"}))
    got = problems(site_copy, "nextchapter")
    assert f'{RUN_REL} $.audition.readings[3].{field}: expected one of the audition\'s {what}; found "no-such/thing"' in got
    # the chapter it read is now missing from that candidate's readings: said too, at the candidate
    assert all(p.startswith(f"{RUN_REL} $.audition.") for p in got)


def test_a_candidate_that_did_not_read_every_chapter_is_rejected(site_copy):
    run = edit_run(site_copy, lambda a: a["readings"].pop(0))
    judge = run["audition"]["candidates"][0]["id"]
    (p,) = problems(site_copy, "nextchapter")
    assert p.startswith(f"{RUN_REL} $.audition.candidates[0]: expected a reading of every chapter another candidate read; "
                        f"found {judge} did not read 1: ")


def test_a_chapter_read_twice_by_one_candidate_is_rejected(site_copy):
    edit_run(site_copy, lambda a: a["readings"].append(dict(a["readings"][0])))
    (p,) = problems(site_copy, "nextchapter")
    assert p.startswith(f"{RUN_REL} $.audition.readings[")
    assert "expected each chapter read once by each candidate" in p


def test_an_audition_without_the_real_author_is_rejected(site_copy):
    def drop_author(a):
        a["writers"] = [w for w in a["writers"] if w["id"] != "author"]
        a["readings"] = [r for r in a["readings"] if r["writer"] != "author"]
    edit_run(site_copy, drop_author)
    got = problems(site_copy, "nextchapter")
    assert f"{RUN_REL} $.audition.writers: expected the real author among the writers (id 'author'); found none" in got
    assert any("expected the real author's chapter read on every audition item" in p for p in got)


def edit_run_doc(root: Path, edit) -> dict:
    run = read_json(root, RUN_REL)
    edit(run)
    write_json(root, RUN_REL, run)
    return run


def test_an_earlier_panel_mark_off_its_scale_or_by_an_unknown_judge_is_rejected(site_copy):
    def edit(run):
        run["earlier_panel"]["marks"][0]["mark"] = 6
        run["earlier_panel"]["marks"][1]["judge"] = "no-such/judge"
    edit_run_doc(site_copy, edit)
    got = problems(site_copy, "nextchapter")
    assert any(p.startswith(f"{RUN_REL} $.earlier_panel: expected ") and "marks from 1 to scale_max (5), found 6" in p for p in got), got


def test_an_earlier_panel_mark_by_an_unknown_judge_is_rejected(site_copy):
    edit_run_doc(site_copy, lambda run: run["earlier_panel"]["marks"][1].update(judge="no-such/judge"))
    assert problems(site_copy, "nextchapter") == [
        f'{RUN_REL} $.earlier_panel.marks[1].judge: expected one of the panel\'s judges; found "no-such/judge"']


def test_a_starting_effort_that_is_not_one_of_the_models_settings_is_rejected(site_copy):
    edit_run_doc(site_copy, lambda run: run["models"][0].update(starting_effort="minimal"))
    (p,) = problems(site_copy, "nextchapter")
    assert p.startswith(f"{RUN_REL} $.models[0]: expected ") and "starting_effort 'minimal' among the model's variants" in p


CALLS_REL = "data/nextchapter/calls.jsonl"
CHAPTERS_REL = "data/nextchapter/chapters.jsonl"


@pytest.mark.parametrize("order", [["candidate", "candidate"], ["reference"], ["candidate", "reference", "author"]])
def test_a_calls_order_must_show_the_candidate_and_the_reference_once_each(site_copy, order):
    edit_line(site_copy, CALLS_REL, 1, lambda c: c.update(order=order))
    (p,) = problems(site_copy, "nextchapter")
    assert p.startswith(f"{CALLS_REL}:1 $.order: expected ")


def test_an_author_reading_on_a_dimension_the_author_is_not_read_on_is_rejected(site_copy):
    edit_line(site_copy, CALLS_REL, 1, lambda c: c["author"]["scores"].update(scene=80))
    (p,) = problems(site_copy, "nextchapter")
    assert p.startswith(f"{CALLS_REL}:1 $.author: expected ") and "the author's five dimensions" in p


def test_only_the_last_attempt_of_a_chapter_may_be_a_chapter(site_copy):
    edit_line(site_copy, CHAPTERS_REL, 1, lambda c: c.update(attempts=[{"outcome": "chapter", "reason": ""}] + c["attempts"]))
    (p,) = problems(site_copy, "nextchapter")
    assert p.startswith(f"{CHAPTERS_REL}:1 $: expected ") and "only the last attempt may be a chapter" in p


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
    """A v1.1 novel's words are those its candidate was drawn with in the selection record,
    where the band decides eligibility (tests/test_chronicle_selection.py: a work outside it is
    excluded, or drawn only under a short stratum's extended ceiling)."""
    line1 = json.loads((site_copy / REFS_REL).read_text(encoding="utf-8").split("\n")[0])
    assert line1["corpus"] == "v1.1"
    candidates = read_json(site_copy, SEL_REL)["candidates"]
    (i,) = [k for k, c in enumerate(candidates) if c["gutenberg_id"] == line1["gutenberg_id"]]
    assert candidates[i]["words"] == line1["words"]
    edit_line(site_copy, REFS_REL, 1, lambda r: r.update(words=words))
    got = problems(site_copy, "chronicle")
    if words > 2_000_000:  # beyond what a novel can be: refused by the contract itself
        (p,) = got
        assert p.startswith(f"{REFS_REL}:1 $.words: expected ") and "less than or equal to 2000000" in p
    else:
        assert got == [f"{REFS_REL}:1 $.words: expected {line1['words']}, as committed for work {line1['gutenberg_id']} in {SEL_REL} "
                       f"$.candidates[{i}]; found {words}"]


def test_a_legacy_anchor_keeps_its_v1_0_length(site_copy):
    """The legacy anchors were chosen under v1.0 and are never rescored away: one of 73,459
    words (below the v1.1 floor) is valid as it stands."""
    lines = (site_copy / REFS_REL).read_text(encoding="utf-8").split("\n")
    legacy = [json.loads(t) for t in lines if t.strip() and json.loads(t)["corpus"] == "legacy-v1.0"]
    assert any(r["words"] < 80_000 for r in legacy)
    assert problems(site_copy, "chronicle") == []
