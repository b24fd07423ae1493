"""A declared benchmark's record says what its harness recorded, and no more: a harness that
keeps only each item's final output declares attempts unrecorded, and the site says so instead
of counting them; an output whose judge replied without scores is judged without scores, shown
with the reply and counted apart from failed generations and from missing records, which the
board and the prompt's page name too. Built on a small synthetic site (`sitegen new site`) with
each case; its numbers are recomputed here with numpy alone."""

from __future__ import annotations

import csv
import hashlib
import html
import json
import re
import tomllib
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli

from sitegen.build import validate
from sitegen.config import load_config
from sitegen.errors import InputError

FID = "recbench"
ITEMS = f"data/{FID}/items-s1.jsonl"
CONFIG = f"content/{FID}/benchmark.toml"
UNSCORED = ("example/alpha-1", "p1", 1)  # judged; the reply carried no scores
FAILED = ("example/gamma-3", "p2", 1)  # generation failed, nothing judged
MISSING = ("example/beta-2", "p2", 2)  # no record at all
REPLY = '{"voice": 7, "struc'


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _write(path: Path, recs: list[dict]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")


def _key(r: dict) -> tuple[str, str, int]:
    return (r["model"], r["prompt"], r["iteration"])


def _site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    r = run_cli("new", "site", str(root), "--id", FID, "--title", "Records")
    assert r.returncode == 0, r.stderr
    cfg = root / CONFIG
    cfg.write_text(cfg.read_text(encoding="utf-8").replace("attempts = 2\n", "attempts = 2\nattempts_recorded = false\n"), encoding="utf-8")
    recs = []
    for r in _jsonl(root / ITEMS):
        del r["attempts"]
        if _key(r) == UNSCORED:
            r["judgments"] = [{"judge": "judge", "status": "unscored", "reply": REPLY}]
        elif _key(r) == FAILED:
            r.pop("output")
            r.update(final={"outcome": "failed", "reason": "truncated"}, judgments=[])
        if _key(r) != MISSING:
            recs.append(r)
    _write(root / ITEMS, recs)
    return root


def _text(path: Path) -> str:
    """A page as its reader sees it: tags dropped, entities decoded, white space folded."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8"))))


def _row(page: str, name: str) -> str:
    """The text of a board's row for the model called NAME, up to the next row."""
    body = page.split("Flags", 1)[1]
    return body.split(f" {name} ", 1)[1].split(" Computed by ", 1)[0][:60]


def _item_score(scores: dict, crit: dict) -> float:
    num = den = 0.0
    for cid, v in scores.items():
        if v is None:
            continue
        c = crit[cid]
        x = (v - c["min"]) / (c["max"] - c["min"])
        num += 1 - x if c.get("direction") == "lower" else x
        den += 1
    return 100 * num / den


def test_unknown_attempts_an_unscored_judgment_and_a_missing_record_are_each_said_as_they_are(tmp_path):
    root = _site(tmp_path)
    out = tmp_path / "out"
    r = run_cli("build", "--root", str(root), "--out", str(out))
    assert r.returncode == 0, r.stderr
    site = out / FID
    home, board, method = (_text(site / p / "index.html") for p in ("", "boards/fiction", "method"))
    p1, p2 = _text(site / "items" / "p1" / "index.html"), _text(site / "items" / "p2" / "index.html")

    # (a) attempts unknown: said, never counted as 0
    for page in (home, board, method):
        assert "attempts not recorded" in page
        assert "needed more than one attempt" not in page or "how many items needed more than one attempt is unknown" in page
        assert not re.search(r"\b0 items needed more than one attempt", page)
    assert "Alpha 1 2 not recorded" in p1  # the Attempts column of iteration 2
    assert "Gamma 3 1 not recorded; failed (truncated) failed" in p2
    # (b) judged without scores: the row's note, the reply on the prompt's page, counted apart
    assert "7 / 8 1 judged without scores 0" in _row(board, "Alpha 1")  # scored / expected, its note, 0 failed
    assert "Alpha 1 1 not recorded judged without scores" in p1 and REPLY in p1
    assert "1 item was judged without scores (the judge's reply carried none)" in home and "1 item failed generation" in home
    # (c) the missing record: the row's note, and the prompt's page names it
    assert "7 / 8 1 missing 0" in _row(board, "Beta 2")
    assert "No record in sweep s1 for 1 output of this prompt the sweep should have: Beta 2, iteration 2." in p2
    assert "1 record the sweep should have is missing" in home and "1 record the sweep should have is missing" in method
    # the rule, on the method page, for all three
    assert ("A failed item, an item judged without scores and a missing record (a model, prompt and iteration the sweep "
            "should have and has no record of) are each counted apart, left out of every score and interval") in method

    # the downloads: counts apart; attempts empty, never a count the harness did not make
    with (site / "boards" / "fiction" / "board.csv").open(encoding="utf-8", newline="") as fh:
        rows = {r["model"]: r for r in csv.DictReader(fh)}
    got = {m: (int(r["scored"]), int(r["failed"]), int(r["unscored"]), int(r["missing"])) for m, r in rows.items()}
    assert got == {"example/alpha-1": (7, 0, 1, 0), "example/beta-2": (7, 0, 0, 1), "example/gamma-3": (7, 1, 0, 0),
                   "example/delta-4": (8, 0, 0, 0)}
    with (site / "sweeps" / "s1" / "items.csv").open(encoding="utf-8", newline="") as fh:
        items = list(csv.DictReader(fh))
    assert {r["attempts"] for r in items} == {""}
    assert json.loads((site / "sweeps" / "s1" / "items.json").read_text(encoding="utf-8"))["title"].endswith("(attempts not recorded)")
    states = {(r["model"], r["prompt"], int(r["iteration"])): r["state"] for r in items}
    assert (states[UNSCORED], states[FAILED], states[MISSING]) == ("unscored", "failed", "missing")

    # the score and interval of Alpha 1 on Fiction leave its unscored item out, as the method says
    crit = {c["id"]: c for c in tomllib.loads((root / CONFIG).read_text(encoding="utf-8"))["criteria"]}
    recs = {_key(r): r for r in _jsonl(root / ITEMS)}
    means = []
    for p in ("p1", "p2", "p3", "p4"):  # the Fiction board's
        got_ = [_item_score(recs[k]["judgments"][0]["scores"], crit) for i in (1, 2)
                if (k := ("example/alpha-1", p, i)) in recs and k != UNSCORED]
        means.append(np.mean(got_))
    arr = np.array(means)
    rng = np.random.default_rng(int.from_bytes(hashlib.sha256(b"s1|example/alpha-1|fiction").digest()[:8], "big"))
    boot = arr[rng.integers(0, len(arr), size=(10_000, len(arr)))].mean(axis=1)
    row = rows["example/alpha-1"]
    assert float(row["score"]) == pytest.approx(arr.mean(), abs=1e-9)
    assert (float(row["low"]), float(row["high"])) == pytest.approx(tuple(np.percentile(boot, [2.5, 97.5])), abs=1e-9)


def test_a_record_that_claims_more_than_the_harness_recorded_is_refused_by_its_place(tmp_path):
    root = _site(tmp_path)
    recs = _jsonl(root / ITEMS)
    at = {_key(r): n for n, r in enumerate(recs, start=1)}
    ok = [n for k, n in at.items() if k not in (UNSCORED, FAILED)]
    recs[ok[0] - 1]["attempts"] = [{"outcome": "ok"}]  # attempts, though declared unrecorded
    recs[at[UNSCORED] - 1]["judgments"][0]["scores"] = {"voice": 7.0}  # unscored, yet scores
    recs[ok[1] - 1]["judgments"][0] = {"judge": "judge", "status": "unscored"}  # unscored, no reply
    del recs[ok[2] - 1]["judgments"][0]["scores"]  # scored, no scores
    _write(root / ITEMS, recs)
    with pytest.raises(InputError) as exc:
        validate(load_config(root))
    text = str(exc.value)
    assert f"{ITEMS}:{ok[0]} $.attempts: expected no attempts list (generation.attempts_recorded is false); found 1 attempts" in text
    assert (f"{ITEMS}:{at[UNSCORED]} $.judgments[0].scores: expected no scores (status is \"unscored\": the judge's reply "
            "carried none); found 1 scores") in text
    assert f"{ITEMS}:{ok[1]} $.judgments[0].reply: expected the judge's reply as received (status is \"unscored\"); found nothing" in text
    assert f"{ITEMS}:{ok[2]} $.judgments[0].scores: expected a score (or null, if optional) for every criterion" in text
    assert len(exc.value.problems) == 4, text

    # attempts recorded (the default), an item without its list is refused too
    cfg = root / CONFIG
    cfg.write_text(cfg.read_text(encoding="utf-8").replace("attempts_recorded = false\n", ""), encoding="utf-8")
    with pytest.raises(InputError) as exc:
        validate(load_config(root))
    got = {(p.line, p.path): p for p in exc.value.problems}
    assert str(got[(ok[3], "$.attempts")]).endswith("$.attempts: expected every generation attempt (or generation.attempts_recorded = false); found nothing")
    assert got[(at[FAILED], "$.final")].expected.startswith("no final")


def test_with_two_judges_one_reply_without_scores_leaves_the_item_unscored_as_the_method_says(tmp_path):
    from conftest import compute_family

    root = _site(tmp_path)
    cfg = root / CONFIG
    cfg.write_text(cfg.read_text(encoding="utf-8").replace('judges = ["judge"]', 'judges = ["judge", "judge-2"]')
                   + '\n[[judges]]\nid = "judge-2"\nname = "Second Judge"\nmodel = "x/second"\nversion = "1"\nhouse = "Other"\nsince = "2026-01-01"\n',
                   encoding="utf-8")
    recs = _jsonl(root / ITEMS)
    for r in recs:
        if r["judgments"] and _key(r) != UNSCORED:
            r["judgments"].append(dict(r["judgments"][0], judge="judge-2"))
    lone = next(r for r in recs if _key(r) == ("example/delta-4", "p3", 2))
    lone["judgments"][1] = {"judge": "judge-2", "status": "unscored", "reply": "The story's voice is"}
    recs[[_key(r) for r in recs].index(UNSCORED)]["judgments"].append({"judge": "judge-2", "status": "unscored", "reply": REPLY})
    _write(root / ITEMS, recs)
    res = compute_family(root, FID)
    x = next(x for x in res.current.items if _key(x.item.model_dump()) == ("example/delta-4", "p3", 2))
    assert (x.state, x.score, sorted(x.judge_scores)) == ("unscored", None, ["judge"])  # the scoring judge's reading is kept, not counted
    fiction = next(b for b in res.current.boards if b.id == "fiction")
    assert {r.model: r.unscored for r in fiction.rows} == {"example/alpha-1": 1, "example/beta-2": 0, "example/gamma-3": 0, "example/delta-4": 1}
    out = tmp_path / "out"
    r = run_cli("build", "--root", str(root), "--out", str(out))
    assert r.returncode == 0, r.stderr
    method = _text(out / FID / "method" / "index.html")
    assert "and an output any one judge left without scores is not scored" in method
    assert "2 items were judged without scores" in method
    p3 = _text(out / FID / "items" / "p3" / "index.html")
    assert "judged without scores: a judge's reply carried none" in p3 and "The story's voice is" in p3
