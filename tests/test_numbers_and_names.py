"""Numbers that are numbers, rows that are who they say, one rounding rule.

- Every computed number the site publishes is finite, or the build (and `sitegen verify`)
  fails naming the inputs it was computed from; inputs are bounded so that their sums cannot
  overflow.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from sitegen.build import build
from sitegen.config import load_config
from sitegen.errors import InputError
from sitegen.families.chronicle import compute as chronicle_compute
from sitegen.verify import verify

from conftest import edit_line, run_cli
from test_chronicle import chronicle_only

RUNS_REL = "data/chronicle/runs.jsonl"


@pytest.fixture
def chron(tmp_path: Path) -> Path:
    return chronicle_only(tmp_path / "site")


# --------------------------------------------------------------------------- finite numbers


def test_call_costs_whose_sum_overflows_are_refused_by_the_contract(chron: Path):
    def huge_costs(rec: dict) -> None:
        first = rec["calls"][0]
        rec["calls"] = [{**first, "seq": 1, "words_to": first["words_from"], "cost_usd": 1.7e308},
                        {**first, "seq": 2, "cost_usd": 1.7e308}]

    edit_line(chron, RUNS_REL, 1, huge_costs)
    out = chron.parent / "out"
    r = run_cli("build", "--root", str(chron), "--out", str(out))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Traceback" not in r.stderr and "inf" not in r.stderr.replace("in the inputs", "")
    lines = r.stderr.strip().split("\n")
    assert lines[0] == "2 problems in the inputs:", r.stderr
    for k in (0, 1):
        assert f"{RUNS_REL}:1 $.calls[{k}].cost_usd: expected less than or equal to 1000000; found 1.7e+308" in lines, r.stderr
    assert not out.exists()


def _nan_percentile(monkeypatch) -> None:
    """A computation fault: the human percentile of every ranked entrant comes out as NaN."""
    monkeypatch.setattr(chronicle_compute, "percentile_of", lambda x, reference: math.nan)


def test_a_computed_number_that_is_not_finite_fails_the_build_naming_its_inputs(chron: Path, monkeypatch):
    _nan_percentile(monkeypatch)
    out = chron.parent / "out"
    with pytest.raises(InputError) as ei:
        build(load_config(chron), out, cache=False)
    text = str(ei.value)
    sources = "data/chronicle/cohort.json, data/chronicle/reference.jsonl, data/chronicle/runs.jsonl"
    assert (f"{sources}: expected finite computed numbers; found nan in table chronicle/boards/sustained, "
            "row 1, column human_percentile") in text.split("\n"), text
    # every non-finite number is named, not only the first
    assert sum("column percentile_low" in line for line in text.split("\n")) >= 2, text
    assert not out.exists()


def test_verify_refuses_a_published_table_whose_numbers_are_not_finite(chron: Path, monkeypatch):
    """A site published without the check, its costs download saying inf: the recomputation
    agrees with it byte for byte, and still the site does not verify."""
    from sitegen import numbers
    from sitegen.families.chronicle import pages as chronicle_pages

    monkeypatch.setattr(chronicle_pages, "round", lambda v, n: math.inf, raising=False)
    monkeypatch.setattr(numbers, "check_finite", lambda outputs: None, raising=False)
    out = chron.parent / "out"
    build(load_config(chron), out, cache=False)
    assert "inf" in (out / "chronicle/costs.csv").read_text(encoding="utf-8")
    monkeypatch.undo()
    monkeypatch.setattr(chronicle_pages, "round", lambda v, n: math.inf, raising=False)
    found = verify(out)
    assert any(line.startswith("recomputed numbers: ") and "found inf in table chronicle/costs, row 1, column cost_usd" in line
               for line in found), found
