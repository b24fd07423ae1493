"""The CSV downloads are safe to open in a spreadsheet: a text cell that a spreadsheet would
run as a formula (it starts with =, +, -, @, a tab or a carriage return) is written with a
leading single quote, while numbers, negative ones too, stay numbers and the JSON downloads
keep the exact text. `sitegen verify` agrees with what was written."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from conftest import one_family, pin_sweeps

from sitegen.build import build
from sitegen.config import load_config
from sitegen.verify import verify

FID = "vignette"
LINK = '=HYPERLINK("https://example.org/x","Lark 3")'
SUM = "@SUM(1+1)"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _rows(path: Path) -> list[dict]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def test_formula_text_in_any_csv_is_quoted_numbers_stay_numbers_and_verify_agrees(tmp_path):
    root = one_family(tmp_path / "site", FID)
    models = root / f"data/{FID}/models.jsonl"
    lines = models.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["name"] = LINK
    lines[0] = json.dumps(first)
    models.write_text("\n".join(lines) + "\n", encoding="utf-8")
    cfg = root / f"content/{FID}/benchmark.toml"
    text = cfg.read_text(encoding="utf-8")
    text = text.replace('label = "Distinct voice"\nmin = 0.0', f'label = "{SUM}"\nmin = -5.0', 1)
    cfg.write_text(text, encoding="utf-8")
    pin_sweeps(root, FID)  # the archived sweep takes the edited criteria too, on purpose

    out = build(load_config(root), tmp_path / "out").out_dir

    board = out / f"{FID}/boards/ghost-story/board.csv"
    got = {r["model"]: r["name"] for r in _rows(board)}
    assert got[first["id"]] == "'" + LINK
    doc = json.loads(board.with_suffix(".json").read_bytes())
    assert {r["model"]: r["name"] for r in doc["rows"]}[first["id"]] == LINK  # the JSON keeps the text
    criteria = {r["id"]: r for r in _rows(out / f"{FID}/criteria.csv")}
    assert criteria["voice"]["label"] == "'" + SUM
    assert criteria["voice"]["min"] == "-5.0"  # a number, not quoted
    for path in sorted(out.rglob("*.csv")):
        for i, row in enumerate(csv.reader(io.StringIO(path.read_text(encoding="utf-8")))):
            live = [c for c in row if c.startswith(FORMULA_STARTS) and not _is_number(c)]
            assert not live, f"{path.relative_to(out)} row {i}: {live}"
    assert verify(out) == []
