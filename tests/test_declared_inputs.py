"""Declared-benchmark inputs that no page could show (a criterion scale no judge uses, a board
no item was run on, an empty category) are each one problem naming the file and key, from
`validate` and `build` alike, never a traceback; a board whose every row is withheld is
published, without a figure."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import one_family, run_cli, pin_sweeps
from test_declared import _edit_line

FID = "vignette"
CONFIG = f"content/{FID}/benchmark.toml"


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _fails_alike(root: Path, *lines: str) -> None:
    """`validate` and `build` both exit 1 with exactly LINES as their problems, no traceback,
    and the build publishes nothing."""
    for command in ("validate", "build"):
        r = run_cli(command, "--root", str(root))
        assert r.returncode == 1, r.stdout
        assert "Traceback" not in r.stderr and "unexpected" not in r.stderr, r.stderr
        assert f"{len(lines)} problem{'s' if len(lines) > 1 else ''} in the inputs:" in r.stderr, r.stderr
        for line in lines:
            assert line in r.stderr, r.stderr
    assert not (root / "_site").exists()


@pytest.mark.parametrize("scale, found", [
    ("min = 0.0\nmax = 1e30", ["$.criteria[0].max: expected less than or equal to 1000000000; found 1e+30"]),
    ("min = -1.7e308\nmax = 1.7e308", ["$.criteria[0].max: expected less than or equal to 1000000000; found 1.7e+308",
                                       "$.criteria[0].min: expected greater than or equal to -1000000000; found -1.7e+308"]),
])
def test_a_criterion_scale_no_judge_uses_is_a_problem_of_its_key(tmp_path, scale, found):
    root = one_family(tmp_path / "site", FID)
    cfg = root / CONFIG
    text = cfg.read_text(encoding="utf-8")
    cfg.write_text(text.replace('label = "Distinct voice"\nmin = 0.0\nmax = 20.0', f'label = "Distinct voice"\n{scale}', 1), encoding="utf-8")
    _fails_alike(root, *(f"{CONFIG} {f}" for f in found))


def test_an_empty_category_and_a_category_no_item_names_are_each_one_problem(tmp_path):
    root = one_family(tmp_path / "empty", FID)
    prompts = root / f"data/{FID}/prompts.jsonl"
    _edit_line(prompts, 0, lambda r: r.update(category=""))
    # every item of p01 names a prompt refused for its category: not a second problem each
    _fails_alike(root, f"data/{FID}/prompts.jsonl:1 $.category: expected a string that should have at least 1 character; found \"\"")

    root = one_family(tmp_path / "unjudged", FID)
    prompts = root / f"data/{FID}/prompts.jsonl"
    n = len(_jsonl(prompts)) + 1
    prompts.write_text(prompts.read_text(encoding="utf-8") + json.dumps({"id": "p99", "title": "Unjudged", "category": "Fable"}) + "\n"
                       + json.dumps({"id": "p98", "title": "Nobody", "category": "Sonnet"}) + "\n", encoding="utf-8")
    # p99 joins a board that has items; the Sonnet board has none in the sweep the boards show
    _fails_alike(root, f"data/{FID}/prompts.jsonl:{n + 1} $.category: expected a board with items in sweep s2 (the newest, which the "
                       f"boards show); found \"Sonnet\", whose prompts no item of data/{FID}/sweep-s2.jsonl names")


def test_a_board_whose_every_row_is_withheld_is_published_without_a_figure(tmp_path):
    root = one_family(tmp_path / "site", FID)
    cfg = root / CONFIG
    cfg.write_text(cfg.read_text(encoding="utf-8").replace("min_scored_share = 0.8", "min_scored_share = 1.0"), encoding="utf-8")
    pin_sweeps(root, FID)  # the gate of both sweeps, changed on purpose
    items = root / f"data/{FID}/sweep-s2.jsonl"
    recs = [r for r in _jsonl(items) if not (r["prompt"] == "p01" and r["iteration"] == 1)]  # one item short for every model
    items.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    pairwise = root / f"data/{FID}/pairwise.jsonl"  # its judgments of p01 read those outputs
    pairwise.write_text("".join(json.dumps(r) + "\n" for r in _jsonl(pairwise) if r["prompt"] != "p01"), encoding="utf-8")
    r = run_cli("build", "--root", str(root))
    assert r.returncode == 0, r.stderr
    page = (root / f"_site/{FID}/boards/ghost-story/index.html").read_text(encoding="utf-8")
    assert "0 of 12 models published" in page
    assert not (root / f"_site/{FID}/boards/ghost-story/figure.svg").exists()
