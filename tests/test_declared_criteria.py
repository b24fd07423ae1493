"""Each board criterion by criterion: every published model's mean on every criterion, on the
criterion's own scale, with a 95% interval that resamples prompts, as a page linked from the
board and as CSV and JSON; each number recomputed here from the published raw items with numpy."""

from __future__ import annotations

import csv
import hashlib
import json
import re
import tomllib
import warnings
from pathlib import Path

import numpy as np
import pytest
from conftest import one_family, pin_sweeps

from sitegen.build import build
from sitegen.config import load_config
from sitegen.numbers import display

FID = "vignette"


def _csv(path: Path) -> list[dict]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    base = tmp_path_factory.mktemp("criteria")
    root = one_family(base / "site", FID)
    build(load_config(root), base / "out", cache=False)
    return base / "out"


def _reference(raw: Path, items: str, board: str) -> dict[tuple[str, str], dict]:
    """(model, criterion) -> {"mean", "prompts", "means" per prompt} for BOARD, from the raw files."""
    cfg = tomllib.loads((raw / f"content/{FID}/benchmark.toml").read_text(encoding="utf-8"))
    prompts = [p["id"] for p in map(json.loads, (raw / f"data/{FID}/prompts.jsonl").read_text(encoding="utf-8").splitlines())
               if p["category"].lower().replace(" ", "-") == board]
    per: dict[tuple[str, str], list[float]] = {}
    for it in map(json.loads, (raw / f"data/{FID}/{items}").read_text(encoding="utf-8").splitlines()):
        if it["prompt"] in prompts and it["attempts"][-1]["outcome"] == "ok":
            for j in it["judgments"]:
                for c, v in j["scores"].items():
                    if v is not None:
                        per.setdefault((it["model"], it["prompt"], c), []).append(v)
    out = {}
    models = {m for m, _p, _c in per}
    for m in models:
        scored = [p for p in prompts if any((m, p, c["id"]) in per for c in cfg["criteria"])]
        for c in cfg["criteria"]:
            means = [np.mean(per[(m, p, c["id"])]) if (m, p, c["id"]) in per else np.nan for p in scored]
            out[(m, c["id"])] = {"mean": np.nanmean(means), "means": means}
    return out


def test_every_criterion_mean_and_interval_is_recomputed_from_the_raw_items(built):
    rows = _csv(built / FID / "boards" / "noir" / "criteria.csv")
    ref = _reference(built / "raw", "sweep-s2.jsonl", "noir")
    board = {r["model"] for r in _csv(built / FID / "boards" / "noir" / "board.csv") if r["published"] == "True"}
    assert {r["model"] for r in rows} == board and len(rows) == len(board) * 22
    by_model: dict[str, list[dict]] = {}
    for r in rows:
        want = ref[(r["model"], r["criterion"])]
        assert float(r["mean"]) == pytest.approx(want["mean"], abs=1e-9)
        by_model.setdefault(r["model"], []).append(r)
    for model, cells in by_model.items():
        seed = int.from_bytes(hashlib.sha256("|".join(["s2", model, "noir", "criteria"]).encode()).digest()[:8], "big")
        M = np.array([ref[(model, r["criterion"])]["means"] for r in cells]).T  # prompts x criteria
        idx = np.random.default_rng(seed).integers(0, M.shape[0], size=(10_000, M.shape[0]))
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            draws = np.nanmean(M[idx], axis=1)
        for k, r in enumerate(cells):
            assert int(r["seed"]) == seed
            col = draws[:, k][~np.isnan(draws[:, k])]  # a draw of no prompt with a score of it is left out
            assert [float(r["low"]), float(r["high"])] == pytest.approx(list(np.percentile(col, [2.5, 97.5])), abs=1e-9)


def test_the_board_links_its_criteria_page_and_the_page_shows_each_mean(built):
    board = (built / FID / "boards" / "noir" / "index.html").read_text(encoding="utf-8")
    assert 'href="criteria/"' in board or "/noir/criteria/" in board
    page = (built / FID / "boards" / "noir" / "criteria" / "index.html").read_text(encoding="utf-8")
    rows = _csv(built / FID / "boards" / "noir" / "criteria.csv")
    cells = re.findall(r'<td class="n">([0-9.]+)<br><span class="note">([0-9.]+)–([0-9.]+)</span></td>', page)
    assert len(cells) == len(rows)
    shown = {tuple(display(float(r[k]), 1) for k in ("mean", "low", "high")) for r in rows}
    assert set(cells) <= shown
    assert page.count("lower is better") >= 9  # each of the nine lower-is-better criteria says so
    assert (built / FID / "sweeps" / "s1" / "noir-criteria.csv").is_file()  # the archived sweep keeps its own


def test_a_board_too_small_to_rank_gets_means_without_intervals(tmp_path):
    root = one_family(tmp_path / "site", FID)
    cfg = root / f"content/{FID}/benchmark.toml"
    cfg.write_text(cfg.read_text(encoding="utf-8").replace("overall = false", "overall = false\nmin_prompts = 5"), encoding="utf-8")
    pin_sweeps(root, FID)
    out = tmp_path / "out"
    build(load_config(root), out, cache=False)
    rows = _csv(out / FID / "boards" / "noir" / "criteria.csv")
    assert rows and all(r["mean"] and not r["low"] and not r["high"] and not r["seed"] for r in rows)
    page = (out / FID / "boards" / "noir" / "criteria" / "index.html").read_text(encoding="utf-8")
    assert "too few to rank, so no interval is given" in page
    assert "<br>" not in re.search(r"<tbody>.*</tbody>", page, re.S).group(0)  # an interval is the line under a mean
