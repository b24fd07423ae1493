"""The Canonic artifact contract: every rejection names the file and the JSON path.

Each test breaks one thing in a private copy of the demo artifact and checks the InputError
that `validate` raises (and, for a few, what `sitegen validate` prints and its exit status).
"""

from __future__ import annotations

import json

import pytest

from sitegen.build import compute, validate
from sitegen.config import load_config
from sitegen.errors import InputError, Problem

from conftest import (CELLS_REL, EXTERNAL_REL, FREEZE_REL, OUTPUTS_REL, PROBES_REL, SWEEP_REL, enable_only,
                      find_cell_line, only, read_cells, read_json, read_sweep, ref_fingerprint, rewrite_cell_line,
                      rubric_dims, run_cli, set_sweep_key, two_standard_scores, weighted, where, write_json,
                      write_sweep)

@pytest.fixture
def site_copy(site_copy):
    """Canonic alone: these tests are about its inputs and its pages, and a validation or build
    of the other families would only repeat theirs."""
    return enable_only(site_copy, ["canonic"])


AGGREGATE_KEYS = ["overall", "overall_score", "aggregate", "grand_mean", "total_score", "cross_domain_mean"]


def problems_of(root) -> list[Problem]:
    with pytest.raises(InputError) as exc:
        validate(load_config(root))
    problems = exc.value.problems
    text = str(exc.value)
    # the error text carries every problem, one line each, after a one-line summary
    assert text.splitlines()[0].startswith(f"{len(problems)} problem")
    assert text.splitlines()[1:] == [str(p) for p in problems]
    return problems


# --------------------------------------------------------------------------- the demo is valid


def test_demo_artifact_is_valid(site_copy):
    results = compute(load_config(site_copy))
    assert "canonic" in results and results["canonic"].rows_published == 77


# --------------------------------------------------------------------------- anchors
# (rubric weights, an anchor outside the five, a disagreeing stated score, judges of one family
# and an aggregate at depth 5: tests/test_semantic_faults.py)


def test_anchor_for_a_dimension_the_rubric_lacks_rejected(site_copy):
    line, rec = find_cell_line(site_copy, two_standard_scores)

    def edit(r):
        r["judgments"][1]["anchors"]["humour"] = 0.5
        r["judgments"][1].pop("weighted_score", None)

    rewrite_cell_line(site_copy, line, edit)
    p = only(problems_of(site_copy))
    assert where(p) == f"{CELLS_REL}:{line} $.judgments[1].anchors.humour"


def test_missing_anchor_rejected(site_copy):
    line, rec = find_cell_line(site_copy, two_standard_scores)
    dim = rubric_dims(site_copy, rec["task"])[0]["id"]

    def edit(r):
        del r["judgments"][1]["anchors"][dim]
        r["judgments"][1].pop("weighted_score", None)

    rewrite_cell_line(site_copy, line, edit)
    p = only(problems_of(site_copy))
    assert where(p) == f"{CELLS_REL}:{line} $.judgments[1].anchors.{dim}"


# --------------------------------------------------------------------------- stated weighted scores


def test_stated_weighted_score_that_agrees_is_accepted(site_copy):
    line, rec = find_cell_line(site_copy, two_standard_scores)
    dims = rubric_dims(site_copy, rec["task"])

    def edit(r):
        for j in r["judgments"]:
            j["weighted_score"] = weighted(dims, j["anchors"])

    rewrite_cell_line(site_copy, line, edit)
    validate(load_config(site_copy))


# --------------------------------------------------------------------------- judges


def test_a_third_judge_rejected(site_copy):
    sweep = read_sweep(site_copy)
    sweep["judges"].append({"id": "extra/judge", "name": "Extra", "family": "extra"})
    write_sweep(site_copy, sweep)
    p = only(problems_of(site_copy))
    assert where(p) == f"{SWEEP_REL} $.judges"


def test_judgment_from_a_judge_not_in_the_sweep_rejected(site_copy):
    line, _ = find_cell_line(site_copy, two_standard_scores)
    rewrite_cell_line(site_copy, line, lambda r: r["judgments"][0].__setitem__("judge", "somebody/else"))
    problems = problems_of(site_copy)
    assert f"{CELLS_REL}:{line} $.judgments[0].judge" in [where(p) for p in problems]
    assert all(p.line == line for p in problems)


# --------------------------------------------------------------------------- shape: unknown keys, types


@pytest.mark.parametrize("loc, expect_path", [
    (("colour",), "$.colour"),
    (("generation", "seed"), "$.generation.seed"),
    (("judgments", 1, "confidence"), "$.judgments[1].confidence"),
])
def test_unknown_key_in_a_cell_rejected(site_copy, loc, expect_path):
    line, _ = find_cell_line(site_copy, two_standard_scores)

    def edit(r):
        target = r
        for part in loc[:-1]:
            target = target[part]
        target[loc[-1]] = 1

    rewrite_cell_line(site_copy, line, edit)
    p = only(problems_of(site_copy))
    assert where(p) == f"{CELLS_REL}:{line} {expect_path}"
    assert loc[-1] in p.found


@pytest.mark.parametrize("loc", [("models", 0, "nickname"), ("sweep", "operator"), ("build_notes",)])
def test_unknown_key_in_the_sweep_rejected(site_copy, loc):
    set_sweep_key(site_copy, loc, "x")
    p = only(problems_of(site_copy))
    path = "$" + "".join(f"[{x}]" if isinstance(x, int) else f".{x}" for x in loc)
    assert where(p) == f"{SWEEP_REL} {path}"


@pytest.mark.parametrize("edit, path", [
    (lambda r: r["generation"].__setitem__("attempts", "1"), "$.generation.attempts"),
    (lambda r: r["generation"].__setitem__("attempts", 1.0), "$.generation.attempts"),
    (lambda r: r["judgments"][0].__setitem__("weighted_score", "50"), "$.judgments[0].weighted_score"),
    (lambda r: r.__setitem__("model", 7), "$.model"),
    (lambda r: r["judgments"].__setitem__(0, "score"), "$.judgments[0]"),
])
def test_wrong_type_in_a_cell_rejected(site_copy, edit, path):
    line, _ = find_cell_line(site_copy, two_standard_scores)
    rewrite_cell_line(site_copy, line, edit)
    p = only(problems_of(site_copy))
    assert where(p) == f"{CELLS_REL}:{line} {path}"


def test_string_for_an_anchor_number_rejected(site_copy):
    line, rec = find_cell_line(site_copy, two_standard_scores)
    dim = rubric_dims(site_copy, rec["task"])[0]["id"]

    def edit(r):
        r["judgments"][0]["anchors"][dim] = "0.5"
        r["judgments"][0].pop("weighted_score", None)

    rewrite_cell_line(site_copy, line, edit)
    p = only(problems_of(site_copy))
    assert where(p) == f"{CELLS_REL}:{line} $.judgments[0].anchors.{dim}"
    assert p.found == '"0.5"'


@pytest.mark.parametrize("loc, value", [
    (("generation", "temperature"), "0.7"),
    (("synthetic",), "true"),
    (("domains", 0, "rubric", "dimensions", 0, "weight"), "0.25"),
])
def test_wrong_type_in_the_sweep_rejected(site_copy, loc, value):
    set_sweep_key(site_copy, loc, value)
    problems = problems_of(site_copy)
    path = "$" + "".join(f"[{x}]" if isinstance(x, int) else f".{x}" for x in loc)
    assert f"{SWEEP_REL} {path}" in [where(p) for p in problems]


@pytest.mark.parametrize("value, found", [(True, "true"), (1.0, "1.0")])
def test_retries_must_be_the_integer_1(site_copy, value, found):
    """True == 1 and 1.0 == 1 in Python, so a bare Literal[1] would let both through."""
    set_sweep_key(site_copy, ("generation", "retries"), value)
    p = only(problems_of(site_copy))
    assert str(p) == f"{SWEEP_REL} $.generation.retries: expected the integer 1; found {found}"


# --------------------------------------------------------------------------- no cross-domain aggregate


def _nest(key):
    return {"harness": {"runs": [{"summary": {key: 71.3}}]}}  # the key at depth 5


def test_aggregate_keys_at_depth_1_of_cells_rejected_each_with_its_line(site_copy):
    lines = [find_cell_line(site_copy, two_standard_scores)[0] + 3 * k for k in range(len(AGGREGATE_KEYS))]
    for line, key in zip(lines, AGGREGATE_KEYS):
        rewrite_cell_line(site_copy, line, lambda r, key=key: r.__setitem__(key, 71.3))
    problems = problems_of(site_copy)
    assert [where(p) for p in problems] == [f"{CELLS_REL}:{n} $.{k}" for n, k in zip(lines, AGGREGATE_KEYS)]
    assert all("aggregate" in p.expected for p in problems)


def test_aggregate_key_inside_a_judgment_rejected(site_copy):
    line, _ = find_cell_line(site_copy, two_standard_scores)
    rewrite_cell_line(site_copy, line, lambda r: r["judgments"][1].update({"notes": [{"grandMean": 1}]}))
    p = only(problems_of(site_copy))
    assert where(p) == f"{CELLS_REL}:{line} $.judgments[1].notes[0].grandMean"


def test_aggregate_keys_at_depth_1_of_the_sweep_rejected(site_copy):
    sweep = read_sweep(site_copy)
    for key in AGGREGATE_KEYS:
        sweep[key] = 1
    write_sweep(site_copy, sweep)
    problems = problems_of(site_copy)
    assert sorted(where(p) for p in problems) == sorted(f"{SWEEP_REL} $.{k}" for k in AGGREGATE_KEYS)


def test_aggregate_keys_deep_in_the_sweep_rejected(site_copy):
    sweep = read_sweep(site_copy)
    sweep.update(_nest("overall_score"))
    sweep["domains"][1]["rubric"]["dimensions"][0]["crossDomainWeight"] = 0.5
    sweep["models"][3]["total_score"] = 88
    write_sweep(site_copy, sweep)
    problems = problems_of(site_copy)
    assert sorted(where(p) for p in problems) == sorted([
        f"{SWEEP_REL} $.harness.runs[0].summary.overall_score",
        f"{SWEEP_REL} $.domains[1].rubric.dimensions[0].crossDomainWeight",
        f"{SWEEP_REL} $.models[3].total_score",
    ])


# --------------------------------------------------------------------------- task set


def test_task_edit_without_new_fingerprint_rejected(site_copy):
    """An edited task is caught twice over: the sweep's own task_set_fingerprint no longer
    matches its tasks, and the task set no longer matches the freeze record. Both problems
    point into sweep.json, and together they tell the reader the old and the new fingerprint."""
    sweep = read_sweep(site_copy)
    frozen = sweep["task_set_fingerprint"]
    t = sweep["tasks"][5]
    t["premise_origin"] = "novel" if t["premise_origin"] == "canonical-anchored" else "canonical-anchored"
    write_sweep(site_copy, sweep)
    now = ref_fingerprint(sweep["tasks"])
    assert now != frozen
    problems = problems_of(site_copy)
    assert {p.file for p in problems} == {SWEEP_REL}  # nothing else is blamed
    by_where = {where(p): p for p in problems}
    stated = by_where[f"{SWEEP_REL} $.task_set_fingerprint"]
    assert stated.found == json.dumps(frozen)
    assert now in stated.expected  # the reader is told the fingerprint to record
    against_freeze = by_where[f"{SWEEP_REL} $.tasks"]
    assert frozen in against_freeze.expected and FREEZE_REL in against_freeze.expected
    assert now in against_freeze.found


def test_stated_fingerprint_that_does_not_match_rejected(site_copy):
    true = ref_fingerprint(read_sweep(site_copy)["tasks"])
    set_sweep_key(site_copy, ("task_set_fingerprint",), "0" * 32)
    p = only(problems_of(site_copy))
    assert where(p) == f"{SWEEP_REL} $.task_set_fingerprint"
    assert true in p.expected and p.found == json.dumps("0" * 32)


# --------------------------------------------------------------------------- references


def test_task_in_a_domain_the_sweep_lacks_rejected_without_checking_its_cells(site_copy):
    """The task's cells have anchors, but no rubric to check them against: the task is the
    problem (and, being edited, the task set's fingerprints), not each of its cells."""
    sweep = read_sweep(site_copy)
    task = sweep["tasks"][0]["id"]
    assert any(r["task"] == task and two_standard_scores(r) for r in read_cells(site_copy))
    set_sweep_key(site_copy, ("tasks", 0, "domain"), "no-such-domain")
    problems = problems_of(site_copy)
    assert sorted(where(p) for p in problems) == [f"{SWEEP_REL} $.task_set_fingerprint", f"{SWEEP_REL} $.tasks",
                                                  f"{SWEEP_REL} $.tasks[0].domain"]
    p = next(p for p in problems if p.path == "$.tasks[0].domain")
    assert p.expected.startswith("one of the sweep's domains (") and p.found == '"no-such-domain"'


def test_cell_naming_a_model_that_does_not_exist_rejected(site_copy):
    line, _ = find_cell_line(site_copy, two_standard_scores)
    rewrite_cell_line(site_copy, line, lambda r: r.__setitem__("model", "nobody/ghost-1"))
    problems = problems_of(site_copy)
    assert f"{CELLS_REL}:{line} $.model" in [where(p) for p in problems]
    assert any('"nobody/ghost-1"' in p.found for p in problems)


def test_cell_naming_a_task_that_does_not_exist_rejected(site_copy):
    line, _ = find_cell_line(site_copy, two_standard_scores)
    rewrite_cell_line(site_copy, line, lambda r: r.__setitem__("task", "no-such-task-99"))
    problems = problems_of(site_copy)
    assert f"{CELLS_REL}:{line} $.task" in [where(p) for p in problems]


def test_a_second_cell_for_the_same_model_and_task_rejected(site_copy):
    path = site_copy / CELLS_REL
    lines = path.read_text(encoding="utf-8").split("\n")
    n = len([x for x in lines if x.strip()])
    lines.insert(n, lines[0])  # a copy of line 1 appended as the last record
    path.write_text("\n".join(lines), encoding="utf-8")
    p = only(problems_of(site_copy))
    assert p.file == CELLS_REL and p.line == n + 1
    assert "line 1" in p.expected


def test_failed_generation_with_judgments_rejected(site_copy):
    line, _ = find_cell_line(site_copy, two_standard_scores)
    rewrite_cell_line(site_copy, line, lambda r: r.__setitem__(
        "generation", {"status": "failed", "attempts": 2, "failure_reason": "truncated"}))
    p = only(problems_of(site_copy))
    assert where(p) == f"{CELLS_REL}:{line} $.judgments"


def test_valid_output_judged_by_one_judge_only_rejected(site_copy):
    line, _ = find_cell_line(site_copy, two_standard_scores)
    rewrite_cell_line(site_copy, line, lambda r: r["judgments"].pop())
    p = only(problems_of(site_copy))
    assert where(p) == f"{CELLS_REL}:{line} $.judgments"


# --------------------------------------------------------------------------- all problems at once


def test_several_errors_in_one_file_all_reported_in_one_error(site_copy):
    cells = read_cells(site_copy)
    # lines with two standard scores, well apart
    lines = [i for i, r in enumerate(cells, start=1) if two_standard_scores(r)][::97][:7]
    assert len(lines) == 7

    def bad_anchor(r):
        d = next(iter(r["judgments"][0]["anchors"]))
        r["judgments"][0]["anchors"][d] = 0.3
        r["judgments"][0].pop("weighted_score", None)

    def stated_mismatch(r):
        j = r["judgments"][1]
        true = weighted(rubric_dims(site_copy, r["task"]), j["anchors"])
        j["weighted_score"] = true + 2.5 if true <= 90 else true - 2.5

    def two_problems(r):  # an unknown key and a wrong type on one line
        r["extra"] = 1
        r["task"] = 12

    edits = [
        (bad_anchor, 1),
        (lambda r: r["generation"].__setitem__("attempts", "2"), 1),
        (lambda r: r.__setitem__("colour", "red"), 1),
        (lambda r: r.__setitem__("model", "nobody/ghost"), 1),
        (stated_mismatch, 1),
        (lambda r: r.update(_nest("grand_mean")), 1),
        (two_problems, 2),
    ]
    for line, (edit, _) in zip(lines, edits):
        rewrite_cell_line(site_copy, line, edit)
    problems = problems_of(site_copy)
    assert len(problems) == sum(n for _, n in edits), "\n".join(map(str, problems))
    assert sorted({p.line for p in problems}) == lines
    assert all(p.file == CELLS_REL for p in problems)


def test_several_errors_in_the_sweep_all_reported(site_copy):
    sweep = read_sweep(site_copy)
    sweep["colour"] = "red"
    sweep["generation"]["temperature"] = "hot"
    sweep["models"][2]["id"] = "Not A Slug"
    write_sweep(site_copy, sweep)
    problems = problems_of(site_copy)
    assert sorted(where(p) for p in problems) == sorted([
        f"{SWEEP_REL} $.colour", f"{SWEEP_REL} $.generation.temperature", f"{SWEEP_REL} $.models[2].id"])


def test_a_large_artifact_still_reports_every_problem_at_its_line(site_copy):
    """A 5x artifact (12,350 cells, ~10 MB) is checked in pieces, possibly in parallel: every
    problem must still come back, with the right line, including a duplicate cell far from
    its first occurrence."""
    from sitegen.families.canonic.demo import generate

    generate(site_copy, scale=5)
    n = len(read_cells(site_copy))
    assert n == 5 * 2470
    bad = [3, 4999, 5000, 5001, 9000, n]
    for line in bad:
        rewrite_cell_line(site_copy, line, lambda r: r.__setitem__("colour", 1))
    path = site_copy / CELLS_REL
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[10_000] = lines[1]  # line 10,001 repeats line 2's (model, task)
    path.write_text("\n".join(lines), encoding="utf-8")
    problems = problems_of(site_copy)
    assert [where(p) for p in problems] == sorted(
        [f"{CELLS_REL}:{x} $.colour" for x in bad] + [f"{CELLS_REL}:10001"], key=lambda w: int(w.split(":")[1].split()[0]))
    dup = next(p for p in problems if p.line == 10_001)
    assert "line 2" in dup.expected


# --------------------------------------------------------------------------- the freeze record


def _show_bible_item(root) -> tuple[dict, int]:
    freeze = read_json(root, FREEZE_REL)
    return freeze, next(k for k, item in enumerate(freeze["items"]) if item["kind"] == "show-bible" and item["path"])


def test_freeze_path_naming_no_file_rejected_at_the_path(site_copy):
    freeze, k = _show_bible_item(site_copy)
    freeze["items"][k]["path"] = "content/canonic/bibles/no-such-show.md"
    write_json(site_copy, FREEZE_REL, freeze)
    p = only(problems_of(site_copy))
    assert str(p) == (f'{FREEZE_REL} $.items[{k}].path: expected an existing file; '
                      'found "content/canonic/bibles/no-such-show.md" (no such file)')


def test_show_bible_missing_at_its_default_path_rejected_at_the_item(site_copy):
    """With no path, the Show Bible is looked for at content/canonic/bibles/<id>.md; when it
    is not there either, the fix (a path, or the file) is named at the item."""
    freeze, k = _show_bible_item(site_copy)
    item = freeze["items"][k]
    (site_copy / item["path"]).unlink()
    item["path"] = None
    write_json(site_copy, FREEZE_REL, freeze)
    p = only(problems_of(site_copy))
    assert where(p) == f"{FREEZE_REL} $.items[{k}].path"
    assert p.expected.startswith("the path of the Show Bible of ") and f"content/canonic/bibles/{item['id']}.md" in p.expected
    assert p.found == "nothing"


def test_a_task_set_bump_under_the_published_sweep_is_not_a_re_sweep(site_copy):
    """A "re-sweep" that is only a version label (the same cells, sweep id and date, the task
    set's new version frozen after the sweep) is refused at the sweep's date: a re-sweep is a
    new sweep, run after the new version."""
    freeze = read_json(site_copy, FREEZE_REL)
    item = next(i for i in freeze["items"] if i["kind"] == "task-set")
    item["history"].append({**item["history"][-1], "version": "2", "frozen_at": "2026-08-20T09:00:00Z", "note": "A re-sweep."})
    write_json(site_copy, FREEZE_REL, freeze)
    set_sweep_key(site_copy, ("task_set_version",), "2")
    p = only([p for p in problems_of(site_copy) if where(p) == f"{SWEEP_REL} $.sweep.date"])
    assert p.expected.startswith("a date on or after 2026-08-20, when task-set version 2 it ran was frozen") and "a re-sweep is a new sweep" in p.expected
    assert p.found == "2026-08-08"


# --------------------------------------------------------------------------- every file, every run


def test_a_broken_sweep_hides_no_other_files_problems(site_copy):
    """Without a sound sweep the checks across files are skipped, but every file is still
    read and checked for its own shape."""
    set_sweep_key(site_copy, ("schema",), {})
    for rel, key in ((FREEZE_REL, "frozen_at"), (PROBES_REL, "synthetic"), (EXTERNAL_REL, "name")):
        doc = read_json(site_copy, rel)
        doc[key] = 7
        write_json(site_copy, rel, doc)
    rewrite_cell_line(site_copy, 2, lambda r: r.__setitem__("model", 7))
    path = site_copy / OUTPUTS_REL
    lines = path.read_text(encoding="utf-8").split("\n")
    out = json.loads(lines[2])
    out["text"] = ""
    lines[2] = json.dumps(out, ensure_ascii=False)
    path.write_text("\n".join(lines), encoding="utf-8")
    problems = problems_of(site_copy)
    assert sorted(where(p) for p in problems) == sorted([
        f"{SWEEP_REL} $.schema", f"{FREEZE_REL} $.frozen_at", f"{PROBES_REL} $.synthetic", f"{EXTERNAL_REL} $.name",
        f"{CELLS_REL}:2 $.model", f"{OUTPUTS_REL}:3 $.text"])


# --------------------------------------------------------------------------- the CLI


def test_cli_validate_exits_0_on_the_demo_data(site_copy):
    # From the demo build's cache, as a maintainer validates after building: what the cache
    # holds passed these same checks with these same inputs (the session's build checked them all).
    r = run_cli("validate", "--root", str(site_copy))
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""


def test_cli_validate_exits_1_and_prints_one_line_per_problem(site_copy):
    cells = read_cells(site_copy)
    lines = [i for i, r in enumerate(cells, start=1) if two_standard_scores(r)][:40:10]
    for line in lines:
        rewrite_cell_line(site_copy, line, lambda r: r.__setitem__("overall_score", 50.0))
    set_sweep_key(site_copy, ("judges", 1, "family"), read_sweep(site_copy)["judges"][0]["family"])
    r = run_cli("validate", "--root", str(site_copy))
    assert r.returncode == 1
    out = r.stderr.strip().splitlines()
    assert out[0].startswith("5 problems")
    body = out[1:]
    assert len(body) == 5
    assert body[0].startswith(f"{CELLS_REL}:{lines[0]} $.overall_score: expected ")
    assert all(": expected " in b and "; found " in b for b in body)
    assert [b.split(": expected")[0] for b in body] == [f"{CELLS_REL}:{n} $.overall_score" for n in lines] + [
        f"{SWEEP_REL} $.judges[1].family"]
