"""The pairwise unit of a declared benchmark, from its judgment records to its ratings: a bad
judgment is refused with its file, line, JSON path, what was expected and what was found (every
one at once, nothing written); and the ratings, their intervals and rank ranges are recomputed
here independently, from the JSONL alone, by Zermelo's iteration (the MM algorithm, not the
build's Newton solver), and match to the precision the pages show."""

from __future__ import annotations

import json
import math
import tomllib
from pathlib import Path

import numpy as np
import pytest
from conftest import compute_family, one_family, run_cli

from sitegen import stats
from sitegen.build import validate
from sitegen.config import load_config
from sitegen.errors import InputError

FID = "vignette"
JUDGMENTS = f"data/{FID}/pairwise.jsonl"
CONFIG = f"content/{FID}/benchmark.toml"
REPO = Path(__file__).resolve().parents[1]


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _write(path: Path, recs: list[dict]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")


def _problems(root: Path) -> list[str]:
    with pytest.raises(InputError) as exc:
        validate(load_config(root).model_copy(update={"families": [FID]}), cache=False)
    return [str(p) for p in exc.value.problems]


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return one_family(tmp_path / "site", FID)


def test_every_bad_judgment_is_named_at_its_line_and_path(site: Path) -> None:
    recs = _jsonl(site / JUDGMENTS)
    decisive = next(k for k, r in enumerate(recs) if r["verdict"] != "tie")
    tie = next(k for k, r in enumerate(recs) if r["verdict"] == "tie")
    recs[0]["model_b"] = recs[0]["model_a"]
    recs[1]["model_a"] = "nobody/none-1"
    recs[2]["output_a"] = "Both given."
    recs[3]["iteration_b"] = 4  # sweep s2 has three iterations
    recs[4]["judge"] = "judge-a"
    recs[decisive].pop("margin")
    recs[tie]["margin"] = "+"
    recs[5]["verdict"] = "better"
    _write(site / JUDGMENTS, recs)
    got = _problems(site)
    j = JUDGMENTS
    assert f"{j}:1 $.model_b: expected a model other than model_a (a judgment compares two); found \"lumen/lark-3\"" in got
    assert f"{j}:2 $.model_a: expected a model of data/{FID}/models.jsonl; found \"nobody/none-1\"" in got
    assert (f"{j}:3 $.output_a: expected exactly one of output_a (the text) and iteration_a (an item of pairwise.outputs_from); "
            "found both") in got
    assert any(p == (f"{j}:4 $.iteration_b: expected an item of sweep s2 with an output (model {recs[3]['model_b']}, prompt p01); found 4") for p in got), got
    assert f"{j}:5 $.judge: expected one of pairwise.judges (judge-b); found \"judge-a\"" in got
    assert f"{j}:{decisive + 1} $.margin: expected one of the margins +, ++, +++ (pairwise.margins); found nothing" in got
    assert f"{j}:{tie + 1} $.margin: expected no margin on a tie; found \"+\"" in got
    assert any(p.startswith(f"{j}:6 $.verdict: expected ") and "better" in p for p in got), got


def test_a_missing_anchor_and_a_wrong_date_are_refused_at_their_keys(site: Path) -> None:
    cfg = site / CONFIG
    text = cfg.read_text(encoding="utf-8")
    text = text.replace('anchors = [{ model = "meridian/wren-5", rating = 1000.0 }]', 'anchors = [{ model = "meridian/wren-9", rating = 1000.0 }]')
    text = text.replace('date = "2026-11-09"', 'date = "2026-10-01"')  # before judge-b judged
    cfg.write_text(text, encoding="utf-8")
    got = _problems(site)
    assert f'{CONFIG} $.pairwise.anchors[0].model: expected a model of data/{FID}/models.jsonl; found "meridian/wren-9"' in got
    assert f"{CONFIG} $.pairwise.date: expected a date when judge 'judge-b' judged (2026-10-20 to now); found 2026-10-01" in got


def test_an_anchor_outside_the_rated_part_is_refused(site: Path) -> None:
    cfg = site / CONFIG
    cfg.write_text(cfg.read_text(encoding="utf-8").replace('model = "meridian/wren-5", rating', 'model = "tessera/kite-0.9", rating'), encoding="utf-8")
    got = _problems(site)
    assert got == [f"{CONFIG} $.pairwise.anchors[0].model: expected a model rated on board Head to head (in the part of its comparison "
                   "graph that is rated, past the gate); found tessera/kite-0.9, which is not"]


def test_a_model_that_never_lost_has_no_rating_and_the_build_says_so(site: Path, tmp_path: Path) -> None:
    recs = _jsonl(site / JUDGMENTS)
    for r in recs:  # Lark 3 wins every judgment it is in
        if "lumen/lark-3" in (r["model_a"], r["model_b"]):
            first = r["model_a"] if r["shown_first"] == "a" else r["model_b"]
            r["verdict"] = "first" if first == "lumen/lark-3" else "second"
            r["margin"] = "+"
    _write(site / JUDGMENTS, recs)
    before = {p.name for p in tmp_path.iterdir()}
    r = run_cli("build", "--root", str(site), "--out", str(tmp_path / "out"), "--no-cache")
    assert r.returncode == 1
    assert (f"{JUDGMENTS}: expected judgments on board Head to head in which every group of models rated together loses or ties at least "
            "once to the others") in r.stderr
    assert "found models that never lost to the rest: Lark 3" in r.stderr
    assert {p.name for p in tmp_path.iterdir()} == before  # nothing written


def test_the_schema_of_a_judgment_is_published() -> None:
    schema = json.loads((REPO / "schemas" / "declared-pairwise-judgment.schema.json").read_text(encoding="utf-8"))
    assert {"prompt", "model_a", "model_b", "shown_first", "verdict", "judge"} <= set(schema["required"])
    assert schema["properties"]["verdict"]["enum"] == ["first", "second", "tie"]


# --------------------------------------------------------------------------- the rating, recomputed


def _mm(W: np.ndarray, sweeps: int = 20000) -> np.ndarray:
    """Zermelo's iteration for Bradley-Terry strengths (Hunter 2004, MM), vectorised over the
    leading axis of W (B x m x m, W[i, j] what i won from j): p_i <- w_i / sum_j n_ij / (p_i + p_j)."""
    N = W + W.transpose(0, 2, 1)
    w = W.sum(axis=2)
    p = np.ones(W.shape[:2])
    for _ in range(sweeps):
        new = w / (N / (p[:, :, None] + p[:, None, :])).sum(axis=2)
        new /= np.exp(np.log(new).mean(axis=1, keepdims=True))
        if np.abs(np.log(new) - np.log(p)).max() < 1e-13:
            return np.log(new)
        p = new
    return np.log(p)


def _wins_by_prompt(root: Path):
    cfg = tomllib.loads((root / CONFIG).read_text(encoding="utf-8"))["pairwise"]
    recs = _jsonl(root / JUDGMENTS)
    prompts = [json.loads(line)["id"] for line in (root / f"data/{FID}/prompts.jsonl").read_text(encoding="utf-8").splitlines()]
    margin = {m["label"]: m["wins"] for m in cfg["margins"]}
    count: dict[str, int] = {}
    for r in recs:
        for m in (r["model_a"], r["model_b"]):
            count[m] = count.get(m, 0) + 1
    models = sorted(m for m, n in count.items() if n >= cfg["gate"]["min_judgments"])
    # the rated part: the models joined to the first anchor by judgments
    part, grew = {cfg["anchors"][0]["model"]}, True
    while grew:
        grew = False
        for r in recs:
            a, b = r["model_a"], r["model_b"]
            if a in models and b in models and (a in part) != (b in part):
                part |= {a, b}
                grew = True
    ids = sorted(part)
    at = {m: i for i, m in enumerate(ids)}
    W = np.zeros((len(prompts), len(ids), len(ids)))
    for r in recs:
        a, b = r["model_a"], r["model_b"]
        if a not in at or b not in at:
            continue
        first = a if r["shown_first"] == "a" else b
        other = b if first == a else a
        if r["verdict"] == "tie":
            W[prompts.index(r["prompt"]), at[a], at[b]] += 0.5
            W[prompts.index(r["prompt"]), at[b], at[a]] += 0.5
        else:
            win, lose = (first, other) if r["verdict"] == "first" else (other, first)
            W[prompts.index(r["prompt"]), at[win], at[lose]] += margin[r["margin"]]
    return cfg, ids, W


def test_the_ratings_match_an_independent_mm_fit_to_the_points_shown(repo_root: Path) -> None:
    cfg, ids, W = _wins_by_prompt(repo_root)
    theta = _mm(W.sum(axis=0)[None])[0]
    anchor = cfg["anchors"][0]
    rating = anchor["rating"] + cfg["points"] / math.log(10) * (theta - theta[ids.index(anchor["model"])])
    board = compute_family(repo_root, FID).pairwise.boards[0]
    got = {r.model: r for r in board.rated}
    assert sorted(got) == ids
    for i, m in enumerate(ids):
        assert abs(got[m].rating - rating[i]) < 1e-3, m  # far inside the whole points shown
        assert round(got[m].rating) == round(rating[i])
    # the interval: the documented draws, each refitted by MM
    seed = stats.derive_seed(cfg.get("id", "pairwise"), board.id)
    n = W.shape[0]
    idx = np.random.default_rng(seed).integers(0, n, size=(cfg["resamples"], n))
    C = np.zeros((len(idx), n))
    np.add.at(C, (np.repeat(np.arange(len(idx)), n), idx.ravel()), 1.0)
    Wb = (C @ W.reshape(n, -1)).reshape(-1, len(ids), len(ids))
    tb = _mm(Wb)
    rb = anchor["rating"] + cfg["points"] / math.log(10) * (tb - tb[:, [ids.index(anchor["model"])]])
    lo, hi = np.percentile(rb, [2.5, 97.5], axis=0)
    ranks = stats.rank_ranges([stats.Interval(m, float(lo[i]), float(hi[i])) for i, m in enumerate(ids)])
    for i, m in enumerate(ids):
        assert abs(got[m].low - lo[i]) < 1e-3 and abs(got[m].high - hi[i]) < 1e-3, m
        assert (got[m].rank_best, got[m].rank_worst) == ranks[m], m


def test_without_anchors_the_ratings_average_the_base_and_two_anchors_are_both_held(site: Path) -> None:
    cfg = site / CONFIG
    text = cfg.read_text(encoding="utf-8")
    cfg.write_text(text.replace('anchors = [{ model = "meridian/wren-5", rating = 1000.0 }]\n', "").replace("base = 1000.0", "base = 1500.0"),
                   encoding="utf-8")
    rated = compute_family(site, FID).pairwise.boards[0].rated
    assert np.mean([r.rating for r in rated]) == pytest.approx(1500.0, abs=1e-9)
    assert all(r.high - r.low > 1 for r in rated)  # no model pinned
    two = text.replace('anchors = [{ model = "meridian/wren-5", rating = 1000.0 }]',
                       'anchors = [{ model = "meridian/wren-5", rating = 1000.0 }, { model = "lumen/lark-3", rating = 2500.0 }]')
    cfg.write_text(two, encoding="utf-8")
    got = {r.model: r for r in compute_family(site, FID).pairwise.boards[0].rated}
    for m, value in (("meridian/wren-5", 1000.0), ("lumen/lark-3", 2500.0)):
        assert got[m].rating == pytest.approx(value, abs=1e-9) and got[m].low == pytest.approx(value) and got[m].high == pytest.approx(value)
    page_rule = "the scale stretched to hold both"
    r = run_cli("build", "--root", str(site), "--out", str(site.parent / "out"))
    assert r.returncode == 0, r.stderr
    assert page_rule in (site.parent / "out" / FID / "pairwise" / "head-to-head" / "index.html").read_text(encoding="utf-8")


def test_a_resample_without_a_rating_is_refused_until_virtual_ties_are_declared(tmp_path: Path) -> None:
    from sitegen.families.declared.pairwise import scale

    root = scale.write_site(tmp_path / "arena", models=4, prompts=4)
    r = run_cli("validate", "--root", str(root))
    assert r.returncode == 1
    assert "content/arena/benchmark.toml $.pairwise.prior_ties: expected ratings for every bootstrap resample of board Head to head" in r.stderr
    assert "resamples without one (the first: " in r.stderr
    cfg = root / "content" / "arena" / "benchmark.toml"
    cfg.write_text(cfg.read_text(encoding="utf-8").replace("resamples = 1000\n", "resamples = 1000\nprior_ties = 0.5\n"), encoding="utf-8")
    rated = {r.model: r.rating for r in compute_family(root, "arena").pairwise.boards[0].rated}
    # the declared virtual ties: half a tie (a quarter of a win) each way for every pair compared, in the MM fit too
    recs = _jsonl(root / "data" / "arena" / "pairwise.jsonl")
    ids = sorted(rated)
    at = {m: i for i, m in enumerate(ids)}
    W = np.zeros((len(ids), len(ids)))
    wins = {"+": 1.0, "++": 2.0}
    for rec in recs:
        a, b = at[rec["model_a"]], at[rec["model_b"]]
        first, second = (a, b) if rec["shown_first"] == "a" else (b, a)
        if rec["verdict"] == "tie":
            W[a, b] += 0.5
            W[b, a] += 0.5
        else:
            win, lose = (first, second) if rec["verdict"] == "first" else (second, first)
            W[win, lose] += wins[rec["margin"]]
    W += 0.25 * ((W + W.T) > 0)
    theta = _mm(W[None])[0]
    anchor = ids.index("house-0/model-000")
    expected = 1500.0 + 400.0 / math.log(10) * (theta - theta[anchor])
    for m in ids:
        assert rated[m] == pytest.approx(expected[at[m]], abs=1e-3)


def test_a_fit_that_does_not_converge_fails_the_build_saying_why(monkeypatch, repo_root: Path) -> None:
    from sitegen.errors import BuildError
    from sitegen.families.declared.pairwise import fit

    monkeypatch.setattr(fit, "MAX_ITERATIONS", 1)
    with pytest.raises(BuildError) as exc:
        compute_family(repo_root, FID)
    said = str(exc.value)
    assert said.startswith("the pairwise ratings of board Head to head did not converge: the solver (scipy trust-ncg) stopped after 1 iterations")
    assert "left on a rating in fit 1 of 1, above the tolerance 1e-06" in said
