"""The semantic faults: inputs that parse and have the right shape but break a rule of the
benchmark. Each test gives a private copy of the demo site exactly one such fault and checks the
InputError names the file (and line), the JSON path, what was expected and what was found.

1. rubric weights not summing to 1            6. a model on two ChronicleBench boards
2. an anchor that is not one of the five      7. an amendment with a reused id / dated before the freeze
3. a stated weighted score that disagrees     8. a frozen document edited without a version bump
4. a judge pair from one family               9. a cross-domain aggregate field at depth 5
5. a ChronicleBench run outside the frozen eligibility band counted as eligible
"""

from __future__ import annotations

import json
import re
import shutil

import pytest

from sitegen.build import build, validate
from sitegen.config import load_config
from sitegen.errors import InputError, Problem

from conftest import (BIBLES_DIR, CELLS_REL, EXTERNAL_REL, FREEZE_REL, OUTPUTS_REL, PROBES_REL, SWEEP_REL, edit_line,
                      find_cell_line, only, read_json, read_jsonl, read_sweep, ref_rubric_fingerprint,
                      ref_text_fingerprint, rewrite_cell_line, rubric_dims, set_sweep_key, set_words_stalled,
                      two_standard_scores, weighted, where, write_json, write_sweep)

COHORT_REL = "data/chronicle/cohort.json"
RUNS_REL = "data/chronicle/runs.jsonl"
CHRONICLE_FREEZE_REL = "data/chronicle/freeze.json"
PROTOCOL_REL = "content/chronicle/protocol.md"
AMEND_DIR = "content/chronicle/amendments"
SYSTEM = "chronicle/chronicle-engine"
AGGREGATE_KEYS = ["overall", "overall_score", "aggregate", "grand_mean", "total_score", "cross_domain_mean"]


def problems_of(root) -> list[Problem]:
    """The problems `validate` reports for the site at root; the error text carries each one."""
    with pytest.raises(InputError) as exc:
        validate(load_config(root))
    problems = exc.value.problems
    lines = str(exc.value).splitlines()
    assert lines[0].startswith(f"{len(problems)} problem")
    assert lines[1:] == [str(p) for p in problems]
    return problems


def set_front(path, key: str, value: str) -> None:
    """Replace one front matter line of a markdown file."""
    text = path.read_text(encoding="utf-8")
    pattern = re.compile(rf"(?m)^{re.escape(key)}:.*\n")
    assert pattern.search(text), key
    path.write_text(pattern.sub(f"{key}: {value}\n", text, count=1), encoding="utf-8")


# --------------------------------------------------------------------------- 1. rubric weights


@pytest.mark.parametrize("delta", [0.05, -0.01, 1e-6])
def test_weights_not_summing_to_one_rejected(site_copy, delta):
    sweep = read_sweep(site_copy)
    dims = sweep["domains"][2]["rubric"]["dimensions"]
    dims[0]["weight"] = round(dims[0]["weight"] + delta, 9)
    write_sweep(site_copy, sweep)
    total = sum(d["weight"] for d in dims)
    p = only(problems_of(site_copy))  # and not one stated weighted score per cell of the domain
    assert str(p) == f"{SWEEP_REL} $.domains[2].rubric.dimensions: expected dimension weights summing to 1; found weights summing to {total:.12g}"


# --------------------------------------------------------------------------- 2. anchors


@pytest.mark.parametrize("value", [0.3, 0.2, 1.25, -0.25, 0.7500001])
def test_anchor_not_one_of_the_five_rejected_with_line_and_path(site_copy, value):
    line, rec = find_cell_line(site_copy, two_standard_scores)
    dim = rubric_dims(site_copy, rec["task"])[-1]["id"]

    def edit(r):
        r["judgments"][0]["anchors"][dim] = value
        r["judgments"][0].pop("weighted_score", None)

    rewrite_cell_line(site_copy, line, edit)
    p = only(problems_of(site_copy))
    assert where(p) == f"{CELLS_REL}:{line} $.judgments[0].anchors.{dim}"
    assert p.expected == "one of the anchors 0, 0.25, 0.5, 0.75, 1.0"
    assert p.found == repr(value)


# --------------------------------------------------------------------------- 3. stated weighted scores


@pytest.mark.parametrize("offset", [1.0, -0.01, 0.005])
def test_stated_weighted_score_that_disagrees_rejected(site_copy, offset):
    line, rec = find_cell_line(site_copy, two_standard_scores)
    j = rec["judgments"][1]
    true = weighted(rubric_dims(site_copy, rec["task"]), j["anchors"])
    stated = true + offset if true + offset <= 100 else true - offset
    rewrite_cell_line(site_copy, line, lambda r: r["judgments"][1].__setitem__("weighted_score", stated))
    p = only(problems_of(site_copy))
    assert where(p) == f"{CELLS_REL}:{line} $.judgments[1].weighted_score"
    assert f"{true:.6f}" in p.expected  # the recomputed value is what the reader is told to expect
    assert p.found == repr(stated)


# --------------------------------------------------------------------------- 4. judges


def test_two_judges_of_the_same_family_rejected(site_copy):
    j1 = read_sweep(site_copy)["judges"][0]
    set_sweep_key(site_copy, ("judges", 1, "family"), j1["family"])
    p = only(problems_of(site_copy))
    assert where(p) == f"{SWEEP_REL} $.judges[1].family"
    assert p.expected == f"a judge from a different family than {j1['id']} ({j1['family']})"
    assert p.found == json.dumps(j1["family"])


# --------------------------------------------------------------------------- 5. the eligibility band


def test_a_cohort_band_wider_than_the_frozen_protocols_is_rejected(site_copy):
    """Eligibility is recomputed from a run's words, never declared by the run; a run outside
    the band is published as a DNF diagnostic, which is no fault. The fault is a run outside the
    band the frozen protocol states being counted eligible, and that can only come from
    cohort.json declaring a different band: here v1.0's defective 72,250-word floor, which
    would rank a 76,000-word run."""
    protocol = (site_copy / PROTOCOL_REL).read_text(encoding="utf-8")
    band_line = next(i for i, t in enumerate(protocol.split("\n"), start=1) if "Eligibility band: 80,000–95,000 words" in t)
    line, _ = next((i, r) for i, r in read_jsonl(site_copy, RUNS_REL) if r["arm"] == "sustained" and 80_000 <= r["words"] <= 95_000)

    edit_line(site_copy, RUNS_REL, line, lambda r: set_words_stalled(r, 76_000))  # still five windows: 76,000 > 75,000
    cohort = read_json(site_copy, COHORT_REL)
    cohort["eligibility"]["min_words"] = 72_250
    write_json(site_copy, COHORT_REL, cohort)
    p = only(problems_of(site_copy))
    assert str(p) == (f"{COHORT_REL} $.eligibility.min_words: expected 80000, the band the frozen protocol states "
                      f"({PROTOCOL_REL}:{band_line}); found 72250")


def test_a_run_outside_the_band_alone_is_a_dnf_not_a_fault(site_copy):
    """The control of the test above: the same run under the frozen band validates (as a DNF)."""
    line, _ = next((i, r) for i, r in read_jsonl(site_copy, RUNS_REL) if r["arm"] == "sustained" and 80_000 <= r["words"] <= 95_000)
    edit_line(site_copy, RUNS_REL, line, lambda r: set_words_stalled(r, 76_000))
    validate(load_config(site_copy))


# --------------------------------------------------------------------------- 6. a model on two boards


@pytest.mark.parametrize("who, arm, kind", [("anthropic/claude-opus-5", "system", "model"), (SYSTEM, "sustained", "system")])
def test_an_entrant_on_the_board_of_another_kind_is_rejected(site_copy, who, arm, kind):
    """A run's arm decides its board: a model's run on the system arm would put the model on
    the system board as well as its own (and the system on the model board the other way)."""
    line = next(i for i, r in read_jsonl(site_copy, RUNS_REL) if r["entrant"] == who and r["arm"] != arm and r["brief"] == "b2")
    edit_line(site_copy, RUNS_REL, line, lambda r: r.update(arm=arm, id=r["id"] + "-moved"))
    p = only(problems_of(site_copy))
    assert str(p) == f'{RUNS_REL}:{line} $.arm: expected the system arm exactly for system entrants ({who} is a {kind}); found "{arm}"'


def test_two_boards_for_one_arm_are_rejected(site_copy):
    """A second board for the sustained arm would rank every sustained model on two boards."""
    cohort = read_json(site_copy, COHORT_REL)
    cohort["boards"].append({"id": "sustained-b", "number": 4, "arm": "sustained", "title": "A second sustained board",
                             "description": "Would rank sustained runs a second time."})
    write_json(site_copy, COHORT_REL, cohort)
    p = only(problems_of(site_copy))
    assert str(p) == f"{COHORT_REL} $.boards: expected one board per arm (boards are never blended); found two boards for arm 'sustained'"


# --------------------------------------------------------------------------- 7. the amendment log


def test_an_amendment_reusing_an_id_is_rejected_naming_both_files(site_copy):
    # in a subfolder, so the copy's file name agrees with its id and the reuse is the only fault
    (site_copy / AMEND_DIR / "late").mkdir()
    shutil.copy(site_copy / AMEND_DIR / "A3.md", site_copy / AMEND_DIR / "late" / "A3.md")
    p = only(problems_of(site_copy))
    assert str(p) == f"{AMEND_DIR}/late/A3.md:1 id: expected a unique id (A3 is also {AMEND_DIR}/A3.md); found A3"


def test_an_amendment_dated_before_the_protocols_freeze_is_rejected(site_copy):
    # a new entry (a published one cannot change at all: tests/test_chronicle_procedure.py)
    (site_copy / AMEND_DIR / "A7.md").write_text("---\nid: A7\nkind: amendment\ntitle: \"Early\"\ndate: 2026-08-20\ntiming: mid-generation\n"
                                                 "directed_by: owner\nscope: reporting\n---\n\nText.\n", encoding="utf-8")
    p = only(problems_of(site_copy))
    assert str(p) == f"{AMEND_DIR}/A7.md:1 date: expected a date on or after the protocol's freeze (2026-08-21); found 2026-08-20"


# --------------------------------------------------------------------------- 8. frozen documents


def test_editing_a_rubric_descriptor_without_a_bump_fails_naming_the_rubric(site_copy):
    sweep = read_sweep(site_copy)
    before = ref_rubric_fingerprint(sweep["domains"][2]["rubric"])
    sweep["domains"][2]["rubric"]["dimensions"][0]["anchors"][1]["descriptor"] += " (clarified)"
    write_sweep(site_copy, sweep)
    after = ref_rubric_fingerprint(sweep["domains"][2]["rubric"])
    p = only(problems_of(site_copy))
    assert where(p) == f"{SWEEP_REL} $.domains[2].rubric"
    assert before in p.expected and FREEZE_REL in p.expected and "version bump" in p.expected
    assert after in p.found


def test_editing_a_show_bible_fails_the_build_naming_it_and_both_fingerprints(cached_site_copy, tmp_path):
    show = read_sweep(cached_site_copy)["shows"][0]["id"]
    rel = f"{BIBLES_DIR}/{show}.md"
    path = cached_site_copy / rel
    recorded = ref_text_fingerprint(path.read_bytes())
    head, sep, body = path.read_text(encoding="utf-8").partition("\n---\n")
    assert sep and " the " in body
    path.write_text(head + sep + body.replace(" the ", " a ", 1), encoding="utf-8")  # one word of the body
    now = ref_text_fingerprint(path.read_bytes())
    assert now != recorded
    out = tmp_path / "out"
    with pytest.raises(InputError) as exc:
        build(load_config(cached_site_copy), out)
    p = only(exc.value.problems)
    assert (p.file, p.line, p.path) == (rel, None, "")  # the whole document
    assert recorded in p.expected and FREEZE_REL in p.expected and now in p.found
    assert not out.exists()


def test_editing_a_word_of_the_frozen_protocol_fails_naming_the_file_and_both_fingerprints(site_copy):
    path = site_copy / PROTOCOL_REL
    recorded = read_json(site_copy, CHRONICLE_FREEZE_REL)["items"][0]["history"][-1]["fingerprint"]
    text = path.read_text(encoding="utf-8")
    assert "a uniform harness" in text
    path.write_text(text.replace("a uniform harness", "a uniform pipeline", 1), encoding="utf-8")
    now = ref_text_fingerprint(path.read_bytes())
    assert now != recorded
    p = only(problems_of(site_copy))
    assert (p.file, p.path) == (PROTOCOL_REL, "")
    assert recorded in p.expected and CHRONICLE_FREEZE_REL in p.expected and now in p.found


# --------------------------------------------------------------------------- 9. a cross-domain aggregate at depth 5


def _nest(key):
    return {"harness": {"runs": [{"summary": {key: 71.3}}]}}  # the key at depth 5


AGGREGATE_EXPECTED = "no cross-domain aggregate field (Canonic publishes no overall score)"


def test_aggregate_keys_at_depth_5_of_cells_rejected_each_with_its_path(site_copy):
    lines = [find_cell_line(site_copy, two_standard_scores)[0] + 2 * k for k in range(len(AGGREGATE_KEYS))]
    for line, key in zip(lines, AGGREGATE_KEYS):
        rewrite_cell_line(site_copy, line, lambda r, key=key: r.update(_nest(key)))
    problems = problems_of(site_copy)
    assert [str(p) for p in problems] == [
        f'{CELLS_REL}:{n} $.harness.runs[0].summary.{k}: expected {AGGREGATE_EXPECTED}; found key "{k}"' for n, k in zip(lines, AGGREGATE_KEYS)]


@pytest.mark.parametrize("rel", [SWEEP_REL, FREEZE_REL, PROBES_REL, EXTERNAL_REL])
def test_an_aggregate_key_at_depth_5_of_any_canonic_document_is_rejected_at_its_path(site_copy, rel):
    doc = read_json(site_copy, rel)
    doc.update(_nest("overall_score"))
    write_json(site_copy, rel, doc)
    p = only(problems_of(site_copy))
    assert str(p) == f'{rel} $.harness.runs[0].summary.overall_score: expected {AGGREGATE_EXPECTED}; found key "overall_score"'


def test_an_aggregate_key_at_depth_5_of_an_output_line_is_rejected_at_its_line_and_path(site_copy):
    path = site_copy / OUTPUTS_REL
    lines = path.read_text(encoding="utf-8").split("\n")
    rec = json.loads(lines[6])
    rec.update(_nest("crossDomainMean"))
    lines[6] = json.dumps(rec, ensure_ascii=False)
    path.write_text("\n".join(lines), encoding="utf-8")
    p = only(problems_of(site_copy))
    assert str(p) == f'{OUTPUTS_REL}:7 $.harness.runs[0].summary.crossDomainMean: expected {AGGREGATE_EXPECTED}; found key "crossDomainMean"'
