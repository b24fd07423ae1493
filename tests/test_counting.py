"""The counting rule, the publication gate and the rank ranges, on tiny hand-made sweeps.

Each test writes its own sweep.json + cells.jsonl (two domains, three models, five tasks per
domain, two judges) into a tmp site and checks what `validate` computes.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen.build import compute
from sitegen.config import load_config
from sitegen.families.canonic.models import Task
from sitegen.families.canonic.validate import task_set_fingerprint

from conftest import reference, ref_status, write_freeze

SWEEP_ID = "tiny-001"
J1, J2 = "judge/one", "judge/two"
MODELS = [
    {"id": "lab-a/model-a", "name": "Model A", "family": "house-a"},  # same family as judge one
    {"id": "lab-b/model-b", "name": "Model B", "family": "house-b2"},
    {"id": "lab-c/model-c", "name": "Model C", "family": "house-c"},
]
A, B, C = (m["id"] for m in MODELS)
DOMAINS = ("alpha", "beta")
WEIGHTS = {"craft": 0.4, "fit": 0.6}
TASKS = [f"{d}-{i:02d}" for d in DOMAINS for i in range(1, 6)]
ANCHORS = (0.0, 0.25, 0.5, 0.75, 1.0)


def make_sweep() -> dict:
    tasks = [{"id": t, "domain": t.split("-")[0], "premise_origin": "novel" if t.endswith("1") else "canonical-anchored",
              "show": None, "premise": f"Premise of {t}.", "constraints": ["One constraint."], "output_form": "A short piece."}
             for t in TASKS]
    rubric = {"version": "v1", "dimensions": [
        {"id": dim, "question": f"How good is the {dim}?", "scope": "portable", "weight": w,
         "anchors": [{"value": v, "descriptor": f"{dim} at {v}"} for v in ANCHORS]}
        for dim, w in WEIGHTS.items()]}
    return {
        "schema": "canonic.sweep/1",
        "synthetic": True,
        "sweep": {"id": SWEEP_ID, "date": "2026-01-02", "frozen_at": "2026-01-02T03:04:05Z"},
        "task_set_fingerprint": task_set_fingerprint([Task.model_validate(t) for t in tasks]),
        "task_set_version": "1",
        "generation": {"temperature": 0.7, "max_tokens": 4000, "retries": 1},
        "prompts": {"generation": {"version": "1", "text": "Write: {{premise}}\n{{constraints}}\n{{output_form}}"},
                    "judge": {"version": "1", "text": "Task: {{task}}\nRubric: {{rubric}}\nOutput: {{output}}"}},
        "judges": [{"id": J1, "name": "Judge One", "family": "house-a"},
                   {"id": J2, "name": "Judge Two", "family": "house-b"}],
        "models": MODELS,
        "shows": [],
        "domains": [{"id": d, "name": d.title(), "rubric": rubric} for d in DOMAINS],
        "tasks": tasks,
    }


def score(judge: str, craft: float, fit: float, prompt: str = "standard") -> dict:
    return {"judge": judge, "prompt": prompt, "outcome": "score", "anchors": {"craft": craft, "fit": fit},
            "rationale": "hand-made"}


def refusal(judge: str, prompt: str = "standard") -> dict:
    return {"judge": judge, "prompt": prompt, "outcome": "refusal"}


def error(judge: str, prompt: str = "standard") -> dict:
    return {"judge": judge, "prompt": prompt, "outcome": "error"}


def ok(model: str, task: str, judgments: list[dict]) -> dict:
    return {"model": model, "task": task, "generation": {"status": "ok", "attempts": 1}, "judgments": judgments}


def failed(model: str, task: str, reason: str = "empty") -> dict:
    return {"model": model, "task": task, "generation": {"status": "failed", "attempts": 2, "failure_reason": reason},
            "judgments": []}


def default_anchors(model: str, task: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """Varied but fixed anchors for (judge one, judge two), from a hash of the cell."""
    h = hashlib.sha256(f"{model}|{task}".encode()).digest()
    return (ANCHORS[h[0] % 5], ANCHORS[h[1] % 5]), (ANCHORS[h[2] % 5], ANCHORS[h[3] % 5])


def counted_cell(model: str, task: str) -> dict:
    (c1, f1), (c2, f2) = default_anchors(model, task)
    return ok(model, task, [score(J1, c1, f1), score(J2, c2, f2)])


def weighted(craft: float, fit: float) -> float:
    return 100.0 * (WEIGHTS["craft"] * craft + WEIGHTS["fit"] * fit)


def task_score(cell: dict) -> float:
    s = [weighted(j["anchors"]["craft"], j["anchors"]["fit"]) for j in cell["judgments"]]
    assert len(s) == 2
    return (s[0] + s[1]) / 2


def grid(overrides: dict | None = None) -> dict[tuple[str, str], dict | None]:
    """Every (model, task) counted, except `overrides`: (model, task) -> cell, or None for no cell."""
    cells = {(m["id"], t): counted_cell(m["id"], t) for m in MODELS for t in TASKS}
    cells.update(overrides or {})
    return cells


def run(tmp_path: Path, cells: dict[tuple[str, str], dict | None], sweep: dict | None = None):
    root = tmp_path / "tiny"
    (root / "data" / "canonic").mkdir(parents=True)
    # validate renders every page too, with the built-in theme and the family's own templates
    (root / "pyproject.toml").write_text('[tool.sitegen]\ntitle = "tiny"\nfamilies = ["canonic"]\n', encoding="utf-8")
    (root / "data" / "canonic" / "sweep.json").write_text(json.dumps(sweep or make_sweep(), indent=1), encoding="utf-8")
    lines = [json.dumps(c) for c in cells.values() if c is not None]
    (root / "data" / "canonic" / "cells.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    write_freeze(root)  # no shows in these sweeps: rubrics and the task set only
    return compute(load_config(root))["canonic"]


def row(res, model: str, domain: str):
    board = next(b for b in res.boards if b.domain == domain)
    return next(r for r in board.rows if r.model == model)


def recipe_interval(scores: list[float], model: str, domain: str) -> tuple[float, float]:
    seed = int.from_bytes(hashlib.sha256(f"{SWEEP_ID}|{model}|{domain}".encode("utf-8")).digest()[:8], "big")
    arr = np.asarray(scores, dtype=np.float64)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(arr), size=(10000, len(arr)))
    lo, hi = np.percentile(arr[idx].mean(axis=1), [2.5, 97.5])
    return float(lo), float(hi)


def exclusions(res, domain: str) -> dict[str, int]:
    return {status: n for d, status, n in res.exclusions if d == domain}


# --------------------------------------------------------------------------- everything counted


def test_all_counted_every_row_publishes_with_mean_of_both_judges(tmp_path):
    cells = grid()
    res = run(tmp_path, cells)
    assert (res.cells_total, res.cells_counted) == (30, 30)
    assert (res.rows_total, res.rows_published) == (6, 6)
    for m in MODELS:
        for d in DOMAINS:
            r = row(res, m["id"], d)
            scores = [task_score(cells[(m["id"], t)]) for t in TASKS if t.startswith(d)]
            assert r.published and r.reason is None
            assert (r.counted, r.attempted, r.total) == (5, 5, 5)
            assert r.score == pytest.approx(float(np.mean(scores)), abs=1e-12)
            assert (r.low, r.high) == pytest.approx(recipe_interval(scores, m["id"], d), abs=1e-12)


def test_score_is_the_mean_of_the_two_weighted_scores_not_of_the_anchors(tmp_path):
    # judge one: craft 1.0, fit 0.0 -> 40; judge two: craft 0.0, fit 0.5 -> 30; task score 35
    cells = grid({(A, t): ok(A, t, [score(J1, 1.0, 0.0), score(J2, 0.0, 0.5)]) for t in TASKS if t.startswith("alpha")})
    r = row(run(tmp_path, cells), A, "alpha")
    assert r.score == pytest.approx(35.0, abs=1e-12)
    assert (r.low, r.high) == pytest.approx((35.0, 35.0), abs=1e-12)


def test_self_family_flag_marks_models_sharing_a_family_with_a_judge(tmp_path):
    res = run(tmp_path, grid())
    for d in DOMAINS:
        assert row(res, A, d).self_family is True
        assert row(res, B, d).self_family is False  # "house-b2" is not "house-b"
        assert row(res, C, d).self_family is False


# --------------------------------------------------------------------------- the gate


def test_exactly_80_percent_counted_publishes(tmp_path):
    cells = grid({(B, "alpha-03"): ok(B, "alpha-03", [score(J1, 0.5, 0.5), error(J2)])})
    res = run(tmp_path, cells)
    r = row(res, B, "alpha")
    assert (r.counted, r.attempted, r.total) == (4, 5, 5)
    assert r.published and r.reason is None
    kept = [task_score(cells[(B, t)]) for t in ("alpha-01", "alpha-02", "alpha-04", "alpha-05")]
    assert r.score == pytest.approx(float(np.mean(kept)), abs=1e-12)  # the excluded task is left out
    assert (r.low, r.high) == pytest.approx(recipe_interval(kept, B, "alpha"), abs=1e-12)
    assert res.rows_published == 6


def test_60_percent_counted_is_withheld_with_a_reason_and_no_score(tmp_path):
    cells = grid({(B, t): ok(B, t, [refusal(J1), refusal(J1, "reframe"), refusal(J2), refusal(J2, "reframe")])
                  for t in ("alpha-02", "alpha-04")})
    res = run(tmp_path, cells)
    r = row(res, B, "alpha")
    assert (r.counted, r.attempted, r.total) == (3, 5, 5)
    assert not r.published
    assert r.reason and "3 of 5" in r.reason and "80%" in r.reason
    assert (r.score, r.low, r.high, r.rank_best, r.rank_worst) == (None, None, None, None, None)
    assert res.rows_published == 5 and res.rows_total == 6
    # the other domain of the same model is unaffected
    assert row(res, B, "beta").published


def test_missing_cell_withholds_the_row_even_when_the_rest_counted(tmp_path):
    # 4 of 5 tasks present and all counted: 80% counted, but one task was never attempted
    res = run(tmp_path, grid({(C, "beta-05"): None}))
    r = row(res, C, "beta")
    assert (r.counted, r.attempted, r.total) == (4, 4, 5)
    assert not r.published
    assert r.reason and "not attempted" in r.reason
    assert r.score is None and r.rank_best is None and r.rank_worst is None
    # the task without a record is a gap of the sweep's cells, not a cell fewer
    assert (res.cells_total, res.cells_recorded, res.cells_counted, res.cells_missing) == (30, 29, 29, 1)


def test_generation_failure_counts_as_attempted_and_excluded(tmp_path):
    res = run(tmp_path, grid({(C, "beta-02"): failed(C, "beta-02", "filtered")}))
    r = row(res, C, "beta")
    assert (r.counted, r.attempted, r.total) == (4, 5, 5)
    assert r.published


def test_two_generation_failures_withhold_the_row(tmp_path):
    res = run(tmp_path, grid({(C, t): failed(C, t, "truncated") for t in ("beta-01", "beta-05")}))
    r = row(res, C, "beta")
    assert (r.counted, r.attempted) == (3, 5)
    assert not r.published and r.score is None


def test_no_partial_row_when_every_task_is_excluded(tmp_path):
    res = run(tmp_path, grid({(A, t): ok(A, t, [error(J1), error(J2)]) for t in TASKS if t.startswith("beta")}))
    r = row(res, A, "beta")
    assert r.counted == 0 and not r.published and r.score is None


# --------------------------------------------------------------------------- exclusion reasons


# The method page's table, first rule that applies wins: generation failure, reframe, refusal,
# single judge (one scored, the other errored), error (both errored). Every refusal on the
# standard prompt has its one reframed retry, as the contract requires.
REASON_CASES = {
    "generation failure": failed(B, "alpha-01", "empty"),
    "reframe": ok(B, "alpha-01", [refusal(J1), score(J1, 1.0, 1.0, prompt="reframe"), score(J2, 1.0, 1.0)]),
    "reframe (both refused, one reframed score)": ok(B, "alpha-01", [
        refusal(J1), refusal(J1, prompt="reframe"), refusal(J2), score(J2, 0.5, 0.5, prompt="reframe")]),
    "refusal (the other scored)": ok(B, "alpha-01", [refusal(J1), error(J1, prompt="reframe"), score(J2, 0.5, 0.5)]),
    "refusal (reframe refused too)": ok(B, "alpha-01", [
        refusal(J1), refusal(J1, prompt="reframe"), score(J2, 0.5, 0.5)]),
    "refusal (both refused)": ok(B, "alpha-01", [refusal(J1), refusal(J1, prompt="reframe"), refusal(J2), refusal(J2, prompt="reframe")]),
    "refusal (the other errored)": ok(B, "alpha-01", [error(J1), refusal(J2), refusal(J2, prompt="reframe")]),
    "refusal (reframe errored)": ok(B, "alpha-01", [refusal(J1), error(J1, prompt="reframe"), error(J2)]),
    "single judge": ok(B, "alpha-01", [score(J1, 0.5, 0.5), error(J2)]),
    "single judge (first errored)": ok(B, "alpha-01", [error(J1), score(J2, 0.5, 0.5)]),
    "error": ok(B, "alpha-01", [error(J1), error(J2)]),
}


@pytest.mark.parametrize("case", sorted(REASON_CASES))
def test_exclusion_reason_is_the_first_rule_that_applies(tmp_path, case):
    expected = case.split(" (")[0]
    res = run(tmp_path, grid({(B, "alpha-01"): REASON_CASES[case]}))
    assert exclusions(res, "alpha") == {"counted": 14, expected: 1}
    assert exclusions(res, "beta") == {"counted": 15}
    r = row(res, B, "alpha")
    assert r.counted == 4 and r.published  # one excluded task of five: still at the gate
    # a reframed score never enters the row's score
    kept = [task_score(grid()[(B, t)]) for t in TASKS if t.startswith("alpha") and t != "alpha-01"]
    assert r.score == pytest.approx(float(np.mean(kept)), abs=1e-12)


def test_each_excluded_cell_gets_exactly_one_reason(tmp_path):
    overrides = {
        (A, "alpha-01"): REASON_CASES["generation failure"] | {"model": A},
        (A, "alpha-02"): REASON_CASES["reframe"] | {"model": A, "task": "alpha-02"},
        (B, "alpha-03"): REASON_CASES["single judge"] | {"task": "alpha-03"},
        (C, "alpha-04"): REASON_CASES["refusal (both refused)"] | {"model": C, "task": "alpha-04"},
        (C, "alpha-05"): REASON_CASES["error"] | {"model": C, "task": "alpha-05"},
    }
    res = run(tmp_path, grid(overrides))
    assert exclusions(res, "alpha") == {"counted": 10, "generation failure": 1, "reframe": 1,
                                        "single judge": 1, "refusal": 1, "error": 1}
    assert (res.cells_total, res.cells_counted) == (30, 25)
    assert not row(res, A, "alpha").published  # two excluded of five: 60%
    assert row(res, B, "alpha").published and not row(res, C, "alpha").published


# --------------------------------------------------------------------------- rank ranges


def constant_cells(model: str, domain: str, craft: float, fit: float) -> dict:
    return {(model, t): ok(model, t, [score(J1, craft, fit), score(J2, craft, fit)]) for t in TASKS if t.startswith(domain)}


def test_rank_ranges_from_hand_made_intervals(tmp_path):
    # constant task scores give point intervals: A = B = 100 (touching: tied, 1-2), C = 50 below
    cells = grid({**constant_cells(A, "alpha", 1.0, 1.0), **constant_cells(B, "alpha", 1.0, 1.0),
                  **constant_cells(C, "alpha", 0.5, 0.5)})
    res = run(tmp_path, cells)
    assert (row(res, A, "alpha").low, row(res, A, "alpha").high) == (100.0, 100.0)
    assert [(row(res, m, "alpha").rank_best, row(res, m, "alpha").rank_worst) for m in (A, B, C)] == [(1, 2), (1, 2), (3, 3)]
    board = next(b for b in res.boards if b.domain == "alpha")
    assert [r.model for r in board.rows] == [A, B, C]  # by score, then by model id
    assert [r.model for r in board.first] == [A, B]


def test_rank_ranges_count_down_from_the_top_and_skip_withheld_rows(tmp_path):
    cells = grid({**constant_cells(A, "beta", 0.25, 0.25), **constant_cells(B, "beta", 0.75, 0.75),
                  **constant_cells(C, "beta", 0.5, 0.5), (B, "beta-01"): None})
    res = run(tmp_path, cells)
    assert row(res, B, "beta").rank_best is None and not row(res, B, "beta").published
    assert [(row(res, m, "beta").rank_best, row(res, m, "beta").rank_worst) for m in (C, A)] == [(1, 1), (2, 2)]
    board = next(b for b in res.boards if b.domain == "beta")
    assert [r.model for r in board.rows] == [C, A, B]  # withheld rows stay on the board, after the ranked ones


def test_overlapping_rows_share_a_rank_range_and_are_listed_by_score(tmp_path):
    # A's tasks: 100 on four, 0 on one (mean 80, wide interval); C: constant 85, inside A's interval
    a = constant_cells(A, "alpha", 1.0, 1.0)
    a[(A, "alpha-03")] = ok(A, "alpha-03", [score(J1, 0.0, 0.0), score(J2, 0.0, 0.0)])
    cells = grid({**a, **constant_cells(C, "alpha", 0.75, 1.0), **constant_cells(B, "alpha", 0.0, 0.0)})
    res = run(tmp_path, cells)
    ra, rc = row(res, A, "alpha"), row(res, C, "alpha")
    assert ra.score < rc.score and ra.low <= rc.low <= ra.high
    assert (ra.rank_best, ra.rank_worst) == (rc.rank_best, rc.rank_worst) == (1, 2)
    board = next(b for b in res.boards if b.domain == "alpha")
    assert [r.model for r in board.rows] == [C, A, B]


# --------------------------------------------------------------------------- property: any mix of outcomes


def _pattern(draw, model: str, task: str):
    kind = draw(st.sampled_from(["counted"] * 5 + sorted(REASON_CASES) + ["missing"]))
    if kind == "missing":
        return None
    if kind == "counted":
        a = [draw(st.sampled_from(ANCHORS)) for _ in range(4)]
        return ok(model, task, [score(J1, a[0], a[1]), score(J2, a[2], a[3])])
    return {**REASON_CASES[kind], "model": model, "task": task}


@st.composite
def outcome_grids(draw):
    return {(m["id"], t): _pattern(draw, m["id"], t) for m in MODELS for t in TASKS}


@given(outcome_grids())
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_mix_of_outcomes_matches_the_independent_reference(cells):
    with tempfile.TemporaryDirectory() as tmp:
        res = run(Path(tmp), cells)
        ref = reference(Path(tmp) / "tiny")
    assert (res.cells_total, res.cells_counted) == (ref.cells_total, ref.status["counted"])
    for d in DOMAINS:
        want = Counter()
        for (m, t), c in cells.items():
            if c is not None and t.startswith(d):
                want[ref_status(c)] += 1
        assert exclusions(res, d) == dict(want)
    for (m, d), want in ref.rows.items():
        got = row(res, m, d)
        assert (got.counted, got.attempted, got.total, got.published) == (want.counted, want.attempted, want.total, want.published)
        if want.published:
            assert got.score == pytest.approx(want.score, abs=1e-9)
            assert (got.low, got.high) == pytest.approx((want.low, want.high), abs=1e-9)
            assert (got.rank_best, got.rank_worst, got.seed) == (want.rank_best, want.rank_worst, want.seed)
        else:
            assert (got.score, got.low, got.high, got.rank_best, got.rank_worst) == (None, None, None, None, None) and got.reason
