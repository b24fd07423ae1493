"""`sitegen verify DIR` on a built site: it passes on the demo build as written, and it catches
tampering with a download, a figure, the file list and the raw records, one line each.

Every test works on a copy of the session's demo build; verify itself only reads.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import shutil
from pathlib import Path

import pytest

from conftest import CELLS_REL, hash_tree, ref_status, reference, run_cli, two_standard_scores


@pytest.fixture
def site(built_site, tmp_path) -> Path:
    """A private copy of the built demo site."""
    return Path(shutil.copytree(built_site.out, tmp_path / "site"))


def verify(site: Path):
    r = run_cli("verify", str(site))
    return r.returncode, r.stderr.splitlines()


def bump_first_score(path: Path) -> tuple[int, str, str]:
    """Add 1 to the score of the first published row of a board CSV, leaving every other byte
    as it was. Returns the row number (1 = first data row), the old and the new text."""
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    col = rows[0].index("score")
    row_no = next(i for i in range(1, len(rows)) if rows[i][col])
    old = rows[row_no][col]
    rows[row_no][col] = new = repr(float(old) + 1.0)
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")
    return row_no, old, new


def lines_about(lines: list[str], rel: str) -> list[str]:
    return [x for x in lines if x.startswith(rel)]


def test_verify_passes_on_the_built_demo_site_and_changes_nothing(built_site):
    before = hash_tree(built_site.out)
    r = run_cli("verify", str(built_site.out))
    assert r.returncode == 0, r.stderr
    assert "verified" in r.stdout
    assert hash_tree(built_site.out) == before


def test_a_changed_score_in_a_board_csv_is_caught_by_hash_and_by_recomputation(site):
    rel = "canonic/book-opening/board.csv"
    path = site / rel
    row_no, old, new = bump_first_score(path)

    code, out = verify(site)
    assert code == 1
    about = lines_about(out, rel)
    assert any("SHA-256" in x and "manifest" in x for x in about), out
    (recomputed,) = [x for x in about if f"row {row_no} column score" in x]
    assert new in recomputed and old in recomputed

    # updating the manifest's hash too does not hide it: the number is recomputed from raw/
    manifest = json.loads((site / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"][rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    (site / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    code, out = verify(site)
    assert code == 1
    assert [x for x in lines_about(out, rel) if "SHA-256" in x] == []
    assert [x for x in lines_about(out, rel) if f"row {row_no} column score" in x], out


def test_one_flipped_byte_of_a_figure_svg_is_caught(site):
    rel = "canonic/figure-3.svg"
    data = bytearray((site / rel).read_bytes())
    i = next(m.start() for m in re.finditer(rb"[0-9]", bytes(data)) if m.start() > 200)
    data[i] = ord("1") if data[i] != ord("1") else ord("2")
    (site / rel).write_bytes(bytes(data))
    code, out = verify(site)
    assert code == 1
    assert len(lines_about(out, rel)) == 1, out
    assert "SHA-256" in lines_about(out, rel)[0]


def test_a_deleted_file_and_an_unlisted_file_are_both_reported(site):
    gone = "canonic/diagnostics/index.html"
    (site / gone).unlink()
    (site / "canonic" / "extra.csv").write_text("domain,score\nall,99\n", encoding="utf-8")
    code, out = verify(site)
    assert code == 1
    assert any(x.startswith(gone) and "missing" in x for x in out), out
    assert any(x.startswith("canonic/extra.csv") and "not listed" in x for x in out), out


def test_an_edited_raw_record_is_reported(site, built_site):
    """One anchor of one counted cell in raw/data/canonic/cells.jsonl: the raw file no longer
    has the hash the site was built from, and the boards recomputed from it differ."""
    ref = reference(built_site.root)
    raw = site / "raw" / CELLS_REL
    lines = raw.read_text(encoding="utf-8").split("\n")
    task_domain = {t["id"]: t["domain"] for t in ref.sweep["tasks"]}
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        rec = json.loads(line)
        if two_standard_scores(rec) and ref.rows[(rec["model"], task_domain[rec["task"]])].published:
            j = rec["judgments"][0]
            dim = next(d for d, v in j["anchors"].items() if v != 1.0)
            j["anchors"][dim] = 1.0
            j.pop("weighted_score", None)
            lines[i] = json.dumps(rec, ensure_ascii=False)
            break
    raw.write_text("\n".join(lines), encoding="utf-8")
    domain = task_domain[rec["task"]]
    assert ref_status(rec) == "counted"

    code, out = verify(site)
    assert code == 1
    assert lines_about(out, f"raw/{CELLS_REL}"), out
    board = f"canonic/{domain}/board.csv"
    assert any(x.startswith(f"{board} row ") and "column score" in x for x in out), out


def test_a_manifest_cannot_switch_recomputation_off(site):
    rel = "canonic/book-opening/board.csv"
    path = site / rel
    bump_first_score(path)
    manifest = json.loads((site / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"][rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    manifest["families"] = []
    (site / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    code, out = verify(site)
    assert code == 1
    assert any(x.startswith(rel) for x in out), out
