"""An archived sweep is never recomputed with today's configuration: its criteria, weights,
gate, boards, repeats and `synthetic` are its own (a sweep's own tables, else the top level's,
pinned by their fingerprint once a newer sweep archives it). A rubric change is a new sweep with
its own criteria and its amendment; the old sweep's pages and downloads stay as they were.

Built on the demo's Vignette (two sweeps: s1 archived, s2 current, a judge change between)."""

from __future__ import annotations

import csv
import hashlib
import json
import re
import shutil
import tomllib
from pathlib import Path

import numpy as np
import pytest
from conftest import one_family, pin_sweeps, run_cli
from test_declared import _reference

from sitegen.build import build, validate
from sitegen.config import load_config
from sitegen.errors import InputError
from sitegen.families.declared import settings

FID = "vignette"
CONFIG = f"content/{FID}/benchmark.toml"
WEIGHTED = "originality"  # the criterion whose weight sweep s2 changes


def _config(root: Path) -> Path:
    return root / CONFIG


def _edit(root: Path, old: str, new: str) -> None:
    cfg = _config(root)
    text = cfg.read_text(encoding="utf-8")
    assert old in text, old
    cfg.write_text(text.replace(old, new, 1), encoding="utf-8")


def _own_criteria(root: Path, weight: float) -> None:
    """Sweep s2 (the file's last [[sweeps]]) gets its own criteria: the top level's, WEIGHTED's
    weight changed."""
    cfg = _config(root)
    text = cfg.read_text(encoding="utf-8")
    lines = []
    for c in tomllib.loads(text)["criteria"]:
        c = {**c, "weight": weight} if c["id"] == WEIGHTED else c
        lines.append("[[sweeps.criteria]]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in c.items()))
    cfg.write_text(text + "\n" + "\n".join(lines), encoding="utf-8")


def _toml(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(v)


def _csv(path: Path) -> list[dict]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _text(page: Path) -> str:
    t = re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8"))
    return re.sub(r"\s+", " ", t)


@pytest.fixture(scope="module")
def before(tmp_path_factory):
    """The demo's Vignette built as it is."""
    base = tmp_path_factory.mktemp("sweeps")
    root = one_family(base / "site", FID)
    build(load_config(root), base / "out", cache=False)
    return root, base / "out"


def _s1_files(out: Path) -> dict[str, bytes]:
    """Every download of the archived sweep s1 (its boards, items and settings), by path."""
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted((out / FID / "sweeps" / "s1").glob("*.csv"))}


def test_a_top_level_change_an_archived_sweep_takes_is_refused_at_its_pin_and_nothing_is_written(before, tmp_path):
    _root, built = before
    root = one_family(tmp_path / "site", FID)
    pinned = tomllib.loads(_config(root).read_text(encoding="utf-8"))["sweeps"][0]["settings_fingerprint"]
    _edit(root, "min_scored_share = 0.8", "min_scored_share = 0.95")
    now = settings.fingerprint(tomllib.loads(_config(root).read_text(encoding="utf-8")), 0)
    out = tmp_path / "out"
    shutil.copytree(built, out)  # the previously published site
    r = run_cli("build", "--root", str(root), "--out", str(out))
    assert r.returncode == 1, r.stderr
    line = next(ln for ln in r.stderr.splitlines() if "settings_fingerprint" in ln)
    assert line.startswith(f"{CONFIG} $.sweeps[0].settings_fingerprint: expected the settings sweep s1 was published with (fingerprint {pinned})")
    assert line.endswith(f"found settings whose fingerprint is {now}")
    assert _s1_files(out) == _s1_files(built)
    assert (out / FID / "index.html").read_bytes() == (built / FID / "index.html").read_bytes()


def test_an_archived_sweep_must_pin_its_settings_and_the_refusal_gives_the_value(tmp_path):
    root = one_family(tmp_path / "site", FID)
    cfg = _config(root)
    cfg.write_text(re.sub(r"(?m)^settings_fingerprint = .*\n", "", cfg.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(InputError) as ei:
        validate(load_config(root))
    [p] = ei.value.problems
    assert (p.file, p.path, p.found) == (CONFIG, "$.sweeps[0].settings_fingerprint", "none")
    value = re.search(r"[0-9a-f]{64}", p.expected).group(0)
    _edit(root, 'id = "s1"\n', f'id = "s1"\nsettings_fingerprint = "{value}"\n')
    validate(load_config(root))  # pinned with the value the refusal gave: it builds


def test_a_new_sweep_with_its_own_weight_is_computed_with_it_and_the_archived_one_stays_as_it_was(before, tmp_path):
    _root, built = before
    root = one_family(tmp_path / "site", FID)
    _own_criteria(root, 3.0)
    out = tmp_path / "out"
    build(load_config(root), out, cache=False)
    assert _s1_files(out) == _s1_files(built)  # the archived sweep: every download byte for byte as before
    assert (out / FID / "sweeps" / "s1" / "index.html").read_bytes() != b""
    ref = _reference(root)
    changed = 0
    for board in ("ghost-story", "noir"):
        for row in (r for r in _csv(out / FID / "boards" / board / "board.csv") if r["score"]):
            want = ref[("s2", board, row["model"])]
            assert float(row["score"]) == pytest.approx(want["score"], abs=1e-9)
        old = {r["model"]: float(r["score"]) for r in _csv(built / FID / "boards" / board / "board.csv") if r["score"]}
        changed += sum(abs(float(r["score"]) - old[r["model"]]) > 1e-9 for r in _csv(out / FID / "boards" / board / "board.csv")
                       if r["score"] and old.get(r["model"]))
    assert changed > 0  # the weight reached the current sweep's numbers
    home = _text(out / FID / "index.html")
    label = next(c["label"] for c in tomllib.loads(_config(root).read_text(encoding="utf-8"))["criteria"] if c["id"] == WEIGHTED)
    assert f"Its settings differ from the previous sweep's: the weight of {label} 1 → 3." in home
    s1 = _text(out / FID / "sweeps" / "s1" / "index.html")
    assert f"they are not sweep s2's (from this sweep to that: the weight of {label} 1 → 3)" in s1
    rows = {r["setting"]: r["value"] for r in _csv(out / FID / "sweeps" / "s2" / "settings.csv")}
    assert rows[f"criteria.{WEIGHTED}.weight"] == "3.0"
    assert {r["setting"]: r["value"] for r in _csv(out / FID / "sweeps" / "s1" / "settings.csv")}[f"criteria.{WEIGHTED}.weight"] == "1.0"


def test_a_change_of_settings_needs_the_amendment_that_records_it(tmp_path):
    """A new site's one sweep, then a second by the same judge with a weight changed: refused
    until it names an amendment, and the refusal says what changed."""
    root = tmp_path / "site"
    assert run_cli("new", "site", str(root), "--id", "one", "--title", "One").returncode == 0
    cfg = root / "content/one/benchmark.toml"
    table = tomllib.loads(cfg.read_text(encoding="utf-8"))
    first = table["sweeps"][0]
    (root / "data/one" / "items-s2.jsonl").write_bytes((root / "data/one" / first["items"]).read_bytes())
    crit = table["criteria"]
    text = cfg.read_text(encoding="utf-8") + (f'\n[[sweeps]]\nid = "s2"\ndate = "{first["date"]}"\njudges = {first["judges"]!r}\n'
                                              'items = "items-s2.jsonl"\n'.replace("'", '"'))
    for c in crit:
        c = {**c, "weight": 2.5} if c is crit[0] else c
        text += "[[sweeps.criteria]]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in c.items())
    cfg.write_text(text, encoding="utf-8")
    pin_sweeps(root, "one")
    with pytest.raises(InputError) as ei:
        validate(load_config(root))
    [p] = [p for p in ei.value.problems if p.path.endswith("amendment")]
    assert p.path == "$.sweeps[1].amendment" and p.found == "none"
    assert f"the change of settings from sweep {first['id']} to sweep s2 (the weight of {crit[0]['label']} {crit[0].get('weight', 1.0):g} → 2.5)" in p.expected


def test_a_synthetic_second_sweep_does_not_mark_a_real_first_one(tmp_path):
    root = one_family(tmp_path / "site", FID)
    _edit(root, "synthetic = true", "synthetic = false")
    _edit(root, 'id = "s2"\n', 'id = "s2"\nsynthetic = true\n')
    pin_sweeps(root, FID)  # s1 is declared real: its pin moves with it, on purpose
    out = tmp_path / "out"
    build(load_config(root), out, cache=False)
    s1 = out / FID / "sweeps" / "s1"
    assert "synthetic" not in _csv(s1 / "ghost-story.csv")[0]
    assert "synthetic" not in _csv(s1 / "items.csv")[0]
    assert "Synthetic demo data" not in (s1 / "index.html").read_text(encoding="utf-8")
    assert 'class="tag">synthetic' not in (s1 / "index.html").read_text(encoding="utf-8")
    assert all(r["synthetic"] == "True" for r in _csv(out / FID / "boards" / "ghost-story" / "board.csv"))
    assert all(r["synthetic"] == "True" for r in _csv(out / FID / "sweeps" / "s2" / "items.csv"))
    assert 'class="tag">synthetic' in (out / FID / "index.html").read_text(encoding="utf-8")
    assert "synthetic" in (out / FID / "boards" / "ghost-story" / "figure.csv").read_text(encoding="utf-8").splitlines()[0]


def test_the_home_page_counts_the_current_sweeps_models(tmp_path):
    root = one_family(tmp_path / "site", FID)
    items = root / f"data/{FID}/sweep-s2.jsonl"
    lines = items.read_text(encoding="utf-8").splitlines(keepends=True)
    gone = re.search(r'"model": ?"([^"]+)"', lines[0]).group(1)
    items.write_text("".join(ln for ln in lines if not re.search(rf'"model": ?"{re.escape(gone)}"', ln)), encoding="utf-8")
    pairwise = root / f"data/{FID}/pairwise.jsonl"  # its judgments read sweep s2's outputs: none of the model gone
    pairwise.write_text("".join(ln for ln in pairwise.read_text(encoding="utf-8").splitlines(keepends=True)
                                if f'"{gone}"' not in ln), encoding="utf-8")
    out = tmp_path / "out"
    build(load_config(root), out, cache=False)
    models = len((root / f"data/{FID}/models.jsonl").read_text(encoding="utf-8").splitlines())
    assert f"{models - 1} models, 32 prompts" in _text(out / FID / "index.html")
    s1 = _csv(out / FID / "sweeps" / "s1" / "ghost-story.csv")
    assert len({r["model"] for r in s1}) == models  # the archived sweep ran them all and keeps them
    assert np.isfinite([float(r["score"]) for r in s1 if r["score"]]).all()


# --------------------------------------------------------------------------- a judge change shown as a change


def _prompt_means(raw: Path, items: str) -> dict[tuple[str, str], float]:
    """(model, prompt) -> mean item score over its scored iterations, from the published raw
    items and configuration alone (one judge per item in the demo)."""
    cfg = tomllib.loads((raw / CONFIG).read_text(encoding="utf-8"))
    got: dict[tuple[str, str], list[float]] = {}
    for line in (raw / f"data/{FID}/{items}").read_text(encoding="utf-8").splitlines():
        it = json.loads(line)
        if it["attempts"][-1]["outcome"] != "ok":
            continue
        [j] = it["judgments"]
        num = den = 0.0
        for c in cfg["criteria"]:
            v = j["scores"][c["id"]]
            if v is not None:
                x = (v - c["min"]) / (c["max"] - c["min"])
                num += c.get("weight", 1.0) * (1 - x if c.get("direction") == "lower" else x)
                den += c.get("weight", 1.0)
        got.setdefault((it["model"], it["prompt"]), []).append(100 * num / den)
    return {k: float(np.mean(v)) for k, v in got.items()}


def test_the_judge_change_is_a_page_of_shifts_each_recomputed_with_a_paired_bootstrap(before):
    _root, out = before
    page = out / FID / "compare" / "s1" / "s2" / "index.html"
    text = _text(page)
    assert "judged 1,142 of its 1,142 outputs with the same text as sweep s1" in text and "the same outputs, read again" in text
    raw = out / "raw"
    a, b = _prompt_means(raw, "sweep-s1.jsonl"), _prompt_means(raw, "sweep-s2.jsonl")
    prompts = {p["id"]: p["category"] for p in map(json.loads, (raw / f"data/{FID}/prompts.jsonl").read_text(encoding="utf-8").splitlines())}
    rows = _csv(out / FID / "compare" / "s1" / "s2" / "shifts.csv")
    assert {r["board"] for r in rows} == {c.lower().replace(" ", "-") for c in prompts.values()}
    for r in rows:
        ids = [p for p, c in prompts.items() if c.lower().replace(" ", "-") == r["board"] and (r["model"], p) in a and (r["model"], p) in b]
        d = np.array([b[(r["model"], p)] - a[(r["model"], p)] for p in ids])
        assert float(r["shift"]) == pytest.approx(d.mean(), abs=1e-9) and int(r["prompts"]) == len(ids)
        seed = int.from_bytes(hashlib.sha256("|".join(["shift", "s1", "s2", r["model"], r["board"]]).encode()).digest()[:8], "big")
        assert int(r["seed"]) == seed
        boot = d[np.random.default_rng(seed).integers(0, len(d), size=(10_000, len(d)))].mean(axis=1)
        assert [float(r["low"]), float(r["high"])] == pytest.approx(list(np.percentile(boot, [2.5, 97.5])), abs=1e-9)
        s1 = next(x for x in _csv(out / FID / "sweeps" / "s1" / f"{r['board']}.csv") if x["model"] == r["model"])
        assert (r["score_before"], r["rank_best_before"], r["rank_worst_before"]) == (s1["score"], s1["rank_best"], s1["rank_worst"])
    # every row the page shows with an interval clear of 0 says which way it moved, and no other does
    moved = sum(float(r["low"]) > 0 or float(r["high"]) < 0 for r in rows)
    assert page.read_text(encoding="utf-8").count('<span class="note">down</span>') + page.read_text(encoding="utf-8").count('<span class="note">up</span>') == moved


def test_each_boards_rank_correlation_and_its_interval_are_recomputed(before):
    _root, out = before
    raw = out / "raw"
    a, b = _prompt_means(raw, "sweep-s1.jsonl"), _prompt_means(raw, "sweep-s2.jsonl")
    shifts = _csv(out / FID / "compare" / "s1" / "s2" / "shifts.csv")
    prompts = {p["id"]: p["category"] for p in map(json.loads, (raw / f"data/{FID}/prompts.jsonl").read_text(encoding="utf-8").splitlines())}
    row = next(r for r in _csv(out / FID / "compare" / "s1" / "s2" / "correlation.csv") if r["board"] == "noir")
    models = [r["model"] for r in shifts if r["board"] == "noir"]
    ids = [p for p, c in prompts.items() if c == "Noir" and all((m, p) in a and (m, p) in b for m in models)]
    A = np.array([[a[(m, p)] for m in models] for p in ids])
    B = np.array([[b[(m, p)] for m in models] for p in ids])

    def rho(x, y):  # no ties among means of real-valued scores: ordinal ranks
        rx, ry = np.argsort(np.argsort(x)), np.argsort(np.argsort(y))
        return np.corrcoef(rx, ry)[0, 1]

    assert float(row["rho"]) == pytest.approx(rho(A.mean(0), B.mean(0)), abs=1e-9)
    idx = np.random.default_rng(int(row["seed"])).integers(0, len(ids), size=(10_000, len(ids)))
    draws = [rho(A[i].mean(0), B[i].mean(0)) for i in idx]
    assert [float(row["low"]), float(row["high"])] == pytest.approx(list(np.percentile(draws, [2.5, 97.5])), abs=1e-9)
    assert f"Spearman's ρ between the sweeps' rankings: {float(row['rho']):.2f}" in _text(out / FID / "compare" / "s1" / "s2" / "index.html")


def test_the_comparison_is_linked_from_both_sweeps_the_amendment_and_the_feed(before):
    _root, out = before
    href = "compare/s1/s2/"
    assert href in (out / FID / "index.html").read_text(encoding="utf-8")
    assert href in (out / FID / "sweeps" / "s1" / "index.html").read_text(encoding="utf-8")
    assert href in (out / FID / "amendments" / "index.html").read_text(encoding="utf-8")
    assert f"{FID}/{href}" in (out / "feed.xml").read_text(encoding="utf-8")
