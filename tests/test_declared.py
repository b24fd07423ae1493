"""The declarative family, on the demo's fourth benchmark (Vignette: content/vignette/
benchmark.toml and data/vignette/, no Python of its own).

Every published board number is recomputed here from the raw files with tomllib, json, hashlib
and numpy alone, following the method page; what the pages say (one judge, no freeze, the
earlier sweep archived, withheld rows) is checked against the data; and bad input is refused
with every problem at once, each naming its file, line, path, expected and found."""

from __future__ import annotations

import csv
import hashlib
import json
import re
import tomllib
from pathlib import Path

import numpy as np
import pytest
from conftest import compute_family, one_family, run_cli

from sitegen.build import validate
from sitegen.config import load_config
from sitegen.errors import InputError

FID = "vignette"
CONFIG = f"content/{FID}/benchmark.toml"


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _seed(*parts: str) -> int:
    return int.from_bytes(hashlib.sha256("|".join(parts).encode("utf-8")).digest()[:8], "big")


def _reference(raw: Path) -> dict[tuple[str, str, str], dict]:
    """(sweep, board, model) -> the row as the method page describes it, each sweep under its
    own criteria and gate where it gives them."""
    cfg = tomllib.loads((raw / CONFIG).read_text(encoding="utf-8"))
    n_iter = cfg["repeats"]["iterations"]
    prompts = _jsonl(raw / f"data/{FID}/prompts.jsonl")
    models = _jsonl(raw / f"data/{FID}/models.jsonl")
    boards: dict[str, list[str]] = {}
    for p in prompts:
        boards.setdefault(p[cfg["boards"]["by"]], []).append(p["id"])
    out = {}
    for sweep in cfg["sweeps"]:
        crit, gate = sweep.get("criteria", cfg["criteria"]), sweep.get("gate", cfg["gate"])
        scores = {}
        for it in _jsonl(raw / f"data/{FID}/{sweep['items']}"):
            if it["attempts"][-1]["outcome"] != "ok":
                continue
            per_judge = []
            for j in it["judgments"]:
                num = den = 0.0
                for c in crit:
                    v = j["scores"][c["id"]]
                    if v is None:
                        continue
                    x = (v - c["min"]) / (c["max"] - c["min"])
                    w = c.get("weight", 1.0)
                    num += w * (1 - x if c.get("direction") == "lower" else x)
                    den += w
                per_judge.append(100 * num / den)
            scores[(it["model"], it["prompt"], it["iteration"])] = sum(per_judge) / len(per_judge)
        for label, ids in boards.items():
            board = "".join(ch if ch.isalnum() else "-" for ch in label.lower())
            rows = {}
            for m in models:
                means = [np.mean(got) for p in ids if (got := [scores[k] for i in range(1, n_iter + 1) if (k := (m["id"], p, i)) in scores])]
                scored = sum(1 for p in ids for i in range(1, n_iter + 1) if (m["id"], p, i) in scores)
                row = {"scored": scored, "expected": len(ids) * n_iter, "published": scored >= gate["min_scored_share"] * len(ids) * n_iter}
                if row["published"]:
                    arr = np.array(means)
                    rng = np.random.default_rng(_seed(sweep["id"], m["id"], board))
                    boot = arr[rng.integers(0, len(arr), size=(10_000, len(arr)))].mean(axis=1)
                    row["score"] = arr.mean()
                    row["low"], row["high"] = np.percentile(boot, [2.5, 97.5])
                rows[m["id"]] = row
            pub = {k: r for k, r in rows.items() if r["published"]}
            for k, r in pub.items():
                r["rank_best"] = 1 + sum(o["low"] > r["high"] for o in pub.values())
                r["rank_worst"] = sum(o["high"] >= r["low"] for o in pub.values())
            for k, r in rows.items():
                out[(sweep["id"], board, k)] = r
    return out


def _published(out: Path) -> dict[tuple[str, str, str], dict]:
    rows = {}
    for path in sorted((out / FID).rglob("*.csv")):
        with path.open(encoding="utf-8", newline="") as fh:
            for r in csv.DictReader(fh):
                if "rank_best" in r and "sweep" in r and "board" in r:
                    rows[(r["sweep"], r["board"], r["model"])] = r
    return rows


def test_every_board_number_of_every_sweep_matches_an_independent_recomputation(built_site):
    ref = _reference(built_site.out / "raw")
    pub = _published(built_site.out)
    assert set(pub) == set(ref) and len(ref) == 2 * 8 * 12
    for key, r in ref.items():
        p = pub[key]
        assert (int(p["scored"]), int(p["expected"]), p["published"] == "True") == (r["scored"], r["expected"], r["published"]), key
        if r["published"]:
            for col in ("score", "low", "high"):
                assert float(p[col]) == pytest.approx(r[col], abs=1e-9), (key, col)
            assert (int(p["rank_best"]), int(p["rank_worst"])) == (r["rank_best"], r["rank_worst"]), key
    assert any(not r["published"] for r in ref.values()), "the demo has a withheld row, so the gate is exercised"


def test_the_pages_say_one_judge_no_freeze_and_which_sweep_they_show(built_site):
    out = built_site.out / FID
    home = (out / "index.html").read_text(encoding="utf-8")
    assert "Sweep <strong>s2</strong> of 2026-11-02, judged by one judge, Lark 3 (as judge)" in home
    assert "No freeze was recorded." in home
    method = (out / "method" / "index.html").read_text(encoding="utf-8")
    judges = re.search(r'<h2 id="vignette-judges">.*?<h2', method, re.S).group(0)  # the rho of two sweeps compared is elsewhere
    assert "no agreement between judges is computed" in judges and "Spearman" not in judges and "Agreement between judges" not in method
    assert "For 9 of them a lower score is better" in method and "3 are optional" in method
    for page in [home, method, *(p.read_text(encoding="utf-8") for p in (out / "boards").glob("*/index.html"))]:
        assert "frozen" not in page.lower() and "fingerprint matched" not in page
    board = (out / "boards" / "noir" / "index.html").read_text(encoding="utf-8")
    assert "WITHHELD" in board and "Kite 0.9" in board
    # The judge of sweep s2 is Lumen's: Lumen's models carry the self-family flag, others do not.
    assert board.count('class="flag"') == 2 + 1  # two Lumen rows and the legend
    archived = (out / "sweeps" / "s1" / "index.html").read_text(encoding="utf-8")
    assert "judged by one judge, Juniper 2" in archived and "never rescored" in archived


def test_a_second_judge_in_a_sweep_brings_agreement_and_averaged_item_scores(site_copy):
    cfg = site_copy / CONFIG
    cfg.write_text(cfg.read_text(encoding="utf-8").replace('judges = ["judge-b"]', 'judges = ["judge-b", "judge-c"]')
                   + '\n[[judges]]\nid = "judge-c"\nname = "Third Judge"\nmodel = "x/third-judge"\nversion = "1"\nhouse = "Thirdhouse"\nsince = "2026-10-01"\n',
                   encoding="utf-8")
    items = site_copy / f"data/{FID}/sweep-s2.jsonl"
    recs = _jsonl(items)
    for r in recs:
        if r.get("judgments"):
            other = dict(r["judgments"][0], judge="judge-c")
            other["scores"] = {k: (None if v is None else max(0.0, v - 1.0)) for k, v in other["scores"].items()}
            r["judgments"].append(other)
    items.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    res = compute_family(site_copy, FID)
    assert res.current.judges == ["judge-b", "judge-c"]
    assert {a.board for a in res.current.agreement} == {b.id for b in res.current.boards}
    assert all(a.rho is not None and a.models == 12 for a in res.current.agreement)
    x = next(x for x in res.current.items if x.score is not None)
    assert x.score == pytest.approx((x.judge_scores["judge-b"] + x.judge_scores["judge-c"]) / 2)


def _edit_line(path: Path, index: int, edit) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    rec = json.loads(lines[index])
    edit(rec)
    lines[index] = json.dumps(rec)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return index + 1


def test_bad_records_and_configuration_are_all_reported_at_once(site_copy):
    items = site_copy / f"data/{FID}/sweep-s2.jsonl"
    recs = _jsonl(items)
    ok = [i for i, r in enumerate(recs) if r["attempts"][-1]["outcome"] == "ok"]
    a = _edit_line(items, ok[0], lambda r: r["judgments"][0]["scores"].update(voice=21.0))
    b = _edit_line(items, ok[1], lambda r: r["judgments"][0]["scores"].update(voice=None))
    c = _edit_line(items, ok[2], lambda r: r.update(attempts=[{"outcome": "failed", "reason": "error"}] * 3 + [{"outcome": "ok"}]))
    d = _edit_line(items, ok[3], lambda r: r["judgments"][0].update(judge="judge-a"))
    e = _edit_line(items, ok[4], lambda r: r["judgments"][0].update(score=99.0))
    f = _edit_line(items, ok[5], lambda r: r.update(attempts=[{"outcome": "failed", "reason": "tired"}, {"outcome": "ok"}]))
    cfg = site_copy / CONFIG
    cfg.write_text(cfg.read_text(encoding="utf-8").replace('date = "2026-11-02"', 'date = "2026-10-01"'), encoding="utf-8")
    with pytest.raises(InputError) as exc:
        validate(load_config(site_copy))
    got = {(p.file, p.line, p.path) for p in exc.value.problems}
    rel = f"data/{FID}/sweep-s2.jsonl"
    assert {(rel, a, "$.judgments[0].scores.voice"), (rel, b, "$.judgments[0].scores.voice"), (rel, c, "$.attempts"),
            (rel, d, "$.judgments"), (rel, e, "$.judgments[0].score"), (rel, f, "$.attempts[0].reason"),
            (CONFIG, None, "$.sweeps[1].date")} <= got, str(exc.value)
    text = str(exc.value)
    assert f"{rel}:{a} $.judgments[0].scores.voice: expected a score on 0.00-20.00; found 21.0" in text
    assert f"{rel}:{b} $.judgments[0].scores.voice: expected a score on 0.00-20.00 (the criterion is not optional); found null" in text
    assert f"{CONFIG} $.sweeps[1].date: expected a date when judge 'judge-b' judged (2026-10-20 to now); found 2026-10-01" in text


def test_a_configuration_error_names_the_key(site_copy):
    cfg = site_copy / CONFIG
    text = cfg.read_text(encoding="utf-8")
    cfg.write_text(text.replace('direction = "lower"', 'direction = "down"', 1).replace("[gate]", "[gate]\nshare = 1", 1), encoding="utf-8")
    r = run_cli("validate", "--root", str(site_copy))
    assert r.returncode == 1
    assert f"{CONFIG} $.criteria[13].direction: expected 'higher' or 'lower'; found \"down\"" in r.stderr
    assert f"{CONFIG} $.gate.share: expected no such key" in r.stderr


def test_a_family_id_without_its_configuration_is_not_a_family(site_copy):
    (site_copy / CONFIG).unlink()
    r = run_cli("validate", "--root", str(site_copy))
    assert r.returncode == 1
    assert "or a family declared by content/<id>/benchmark.toml; found ['vignette']" in r.stderr


def test_items_as_parquet_give_the_same_numbers_and_problems_name_the_row(site_copy):
    import pyarrow as pa
    import pyarrow.parquet as pq

    want = compute_family(site_copy, FID)
    rel = f"data/{FID}/sweep-s2.jsonl"
    recs = _jsonl(site_copy / rel)
    pq.write_table(pa.Table.from_pylist(recs), site_copy / f"data/{FID}/sweep-s2.parquet")
    (site_copy / rel).unlink()
    cfg = site_copy / CONFIG
    cfg.write_text(cfg.read_text(encoding="utf-8").replace('items = "sweep-s2.jsonl"', 'items = "sweep-s2.parquet"'), encoding="utf-8")
    got = compute_family(site_copy, FID)
    assert [[(r.model, r.score, r.low, r.high, r.rank_best, r.rank_worst) for r in b.rows] for b in got.current.boards] == \
        [[(r.model, r.score, r.low, r.high, r.rank_best, r.rank_worst) for r in b.rows] for b in want.current.boards]
    assert [x.item for x in got.current.items] == [x.item for x in want.current.items]
    n = next(i for i, r in enumerate(recs) if r.get("judgments"))
    recs[n]["judgments"][0]["scores"]["voice"] = 25.0
    pq.write_table(pa.Table.from_pylist(recs), site_copy / f"data/{FID}/sweep-s2.parquet")
    with pytest.raises(InputError) as exc:
        validate(load_config(site_copy))
    assert f"data/{FID}/sweep-s2.parquet row {n + 1} $.judgments[0].scores.voice: expected a score on 0.00-20.00; found 25.0" in str(exc.value)


# --------------------------------------------------------------------------- a recorded freeze


def _fingerprint(value) -> str:
    # the method page's rule: JSON with keys sorted, no whitespace, UTF-8; SHA-256 in hex
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")).hexdigest()


def _record_freeze(root: Path, frozen_at: str) -> dict[str, str]:
    config = root / "content" / "vignette" / "benchmark.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('kind = "none"', 'kind = "recorded"'), encoding="utf-8")
    table = tomllib.loads(config.read_text(encoding="utf-8"))
    prints = {"rubric": _fingerprint({"criteria": table["criteria"], "item_score": table["item_score"]}),
              "prompts": _fingerprint(_jsonl(root / "data" / "vignette" / "prompts.jsonl"))}
    record = {"schema": "vignette.freeze/1", "frozen_at": frozen_at,
              "items": [{"kind": k, "id": k, "history": [{"version": "v1", "fingerprint": v, "frozen_at": frozen_at}]} for k, v in prints.items()]}
    (root / "data" / "vignette" / "freeze.json").write_text(json.dumps(record, indent=1), encoding="utf-8")
    return prints


def test_a_recorded_freeze_is_checked_on_every_build_and_each_sweep_says_whether_it_followed_it(tmp_path):
    from sitegen.build import build

    root = one_family(tmp_path / "site", "vignette")
    prints = _record_freeze(root, "2026-09-20T08:00:00Z")  # after sweep s1 (2026-09-14), before s2 (2026-11-02)
    out = tmp_path / "out"
    build(load_config(root), out)
    home = (out / "vignette" / "index.html").read_text(encoding="utf-8")
    assert "Sweep s2 (2026-11-02) ran after they were frozen." in home and "No freeze was recorded" not in home
    s1 = (out / "vignette" / "sweeps" / "s1" / "index.html").read_text(encoding="utf-8")
    assert "Sweep s1 (2026-09-14) did not run after the versions in force were frozen" in s1
    method = (out / "vignette" / "method" / "index.html").read_text(encoding="utf-8")
    for fp in prints.values():  # recorded and recomputed, both shown
        assert method.count(fp) == 2
    assert (out / "raw" / "data" / "vignette" / "freeze.json").is_file()

    # one character of a criterion's label, or of a prompt, after the freeze: refused, by name
    config = root / "content" / "vignette" / "benchmark.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace('label = "Pacing"', 'label = "Pacing."'), encoding="utf-8")
    prompts = root / "data" / "vignette" / "prompts.jsonl"
    ptext = prompts.read_text(encoding="utf-8")
    prompts.write_text(ptext.replace("The violin", "The violin!", 1), encoding="utf-8")
    with pytest.raises(InputError) as ei:
        validate(load_config(root))
    where = sorted((p.file, p.path) for p in ei.value.problems)
    # the label is also a setting the archived sweep s1 was published with: its pin refuses it too
    assert where == [("content/vignette/benchmark.toml", "$.criteria"), ("content/vignette/benchmark.toml", "$.sweeps[0].settings_fingerprint"),
                     ("data/vignette/prompts.jsonl", "")], where
    assert all("version bump" in p.expected for p in ei.value.problems if p.path != "$.sweeps[0].settings_fingerprint")

    # a layout change is not an edit: keys reordered and spaced, the same fingerprints
    config.write_text(text, encoding="utf-8")
    prompts.write_text("\n".join(json.dumps(dict(reversed(list(json.loads(line).items()))), indent=None, ensure_ascii=True)
                                 for line in ptext.split("\n") if line.strip()) + "\n", encoding="utf-8")
    validate(load_config(root))

    (root / "data" / "vignette" / "freeze.json").unlink()
    with pytest.raises(InputError) as ei:
        validate(load_config(root))
    assert [(p.file, p.found) for p in ei.value.problems] == [("data/vignette/freeze.json", "no such file")]


# --------------------------------------------------------------------------- an empty sweep


@pytest.mark.parametrize("sweep", ["s1", "s2"], ids=["archived", "current"])
def test_a_sweep_with_an_empty_items_file_is_an_input_problem_naming_it(tmp_path, sweep):
    """A sweep whose items file holds no record published boards with no row (an archived one,
    still described by its note), or crashed in a template (the current one): it is a problem
    of that file, from validate and build alike, and nothing is written."""
    root = one_family(tmp_path / "site", FID)
    rel = f"data/{FID}/sweep-{sweep}.jsonl"
    out = tmp_path / "out"
    (root / rel).write_bytes(b"")
    want = f"{rel}: expected at least one item record (the items sweep {sweep} judged); found none"
    for args in (["validate", "--root", str(root)], ["build", "--root", str(root), "--out", str(out)]):
        r = run_cli(*args)
        assert r.returncode == 1, (args, r.stdout)
        assert want in r.stderr.splitlines(), (args, r.stderr)
        assert "Traceback" not in r.stderr
    assert not out.exists()  # no partial output
