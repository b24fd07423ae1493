"""What a reader of Vignette's pairwise board sees, recounted here from the published raw
judgments alone: each model's judgments, wins, ties and losses; its rating as its download
carries it, rounded to whole points; the warning and the separate listing of the models the
judgments do not join to the rest, and the pairs never compared; the share of ties, of verdicts
for the output shown first and of verdicts that changed with the order; the win-rate matrix; the
rank correlation with each rubric board; and each prompt's page with every verdict in both
orders, the reasoning and both outputs, escaped."""

from __future__ import annotations

import csv
import html
import json
import re
from pathlib import Path

import markupsafe
import pytest
from conftest import one_family, run_cli

from sitegen import stats
from sitegen.numbers import display

FID = "vignette"
BOARD = "head-to-head"


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _csv(path: Path) -> list[dict]:
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _text(path: Path) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8"))))


def _winner(r: dict) -> str | None:
    if r["verdict"] == "tie":
        return None
    first = r["model_a"] if r["shown_first"] == "a" else r["model_b"]
    second = r["model_b"] if first == r["model_a"] else r["model_a"]
    return first if r["verdict"] == "first" else second


@pytest.fixture(scope="module")
def site(built_site):
    out = built_site.out
    recs = _jsonl(out / "raw" / "data" / FID / "pairwise.jsonl")
    names = {m["id"]: m["name"] for m in _jsonl(out / "raw" / "data" / FID / "models.jsonl")}
    return out, recs, names


def test_each_models_counts_and_rating_are_on_the_board(site) -> None:
    out, recs, names = site
    rows = {r["model"]: r for r in _csv(out / FID / "pairwise" / BOARD / "board.csv")}
    page = _text(out / FID / "pairwise" / BOARD / "index.html")
    for m, row in rows.items():
        mine = [r for r in recs if m in (r["model_a"], r["model_b"])]
        wins = sum(_winner(r) == m for r in mine)
        ties = sum(_winner(r) is None for r in mine)
        assert (int(row["judgments"]), int(row["wins"]), int(row["ties"]), int(row["losses"])) == (len(mine), wins, ties, len(mine) - wins - ties)
        if row["rating"]:
            shown = f"{names[m]} {display(float(row['rating']), 0)} {display(float(row['low']), 0)} – {display(float(row['high']), 0)} {len(mine)} {wins} {ties}"
            assert shown in page, shown


def test_models_the_judgments_do_not_join_are_listed_apart_with_a_warning(site) -> None:
    out, recs, names = site
    rows = _csv(out / FID / "pairwise" / BOARD / "board.csv")
    apart = [r for r in rows if r["part"] not in ("0", "")]
    assert {r["model"] for r in apart} == {"meridian/wren-5-lite", "tessera/kite-0.9"}
    assert all(not r["rating"] and not r["rank_best"] for r in apart)
    rated = {r["model"] for r in rows if r["part"] == "0"}
    assert not any({r["model_a"], r["model_b"]} & rated and {r["model_a"], r["model_b"]} & {a["model"] for a in apart} for r in recs)
    page = _text(out / FID / "pairwise" / BOARD / "index.html")
    assert "Not one comparison: the judgments do not join every model to every other." in page
    assert "Wren 5 Lite and Kite 0.9 were compared only with each other" in page
    never = [(a, b) for a in sorted(rated) for b in ("meridian/wren-5-lite", "tessera/kite-0.9")]
    assert f"{len(never)} pairs of models were never compared on this board" in page
    matrix = _csv(out / FID / "pairwise" / BOARD / "matrix.csv")
    assert {(r["model"], r["opponent"]) for r in matrix if r["judgments"] == "0"} == {p for a, b in never for p in ((a, b), (b, a))}


def test_ties_order_and_swapped_verdicts_are_recounted(site) -> None:
    out, recs, _names = site
    ties = sum(r["verdict"] == "tie" for r in recs)
    decisive = len(recs) - ties
    first = sum(r["verdict"] == "first" for r in recs)
    orders: dict[tuple, list[list]] = {}
    for r in recs:
        texts = (r["model_a"], r.get("output_a") or r["iteration_a"]), (r["model_b"], r.get("output_b") or r["iteration_b"])
        key = (r["prompt"], r["judge"], *sorted(texts))
        shown = texts[0] if r["shown_first"] == "a" else texts[1]
        orders.setdefault(key, [[], []])[0 if shown == sorted(texts)[0] else 1].append(_winner(r))
    swapped = sum(min(len(x), len(y)) for x, y in orders.values())
    changed = sum(a != b for x, y in orders.values() for a, b in zip(x, y))
    bias = _csv(out / FID / "pairwise" / BOARD / "bias.csv")[0]
    assert (int(bias["ties"]), int(bias["first_wins"]), int(bias["swapped"]), int(bias["changed"])) == (ties, first, swapped, changed)
    page = _text(out / FID / "pairwise" / BOARD / "index.html")
    assert (f"{ties:,} of the {len(recs):,} judgments are ties ({display(ties / len(recs), 1, times100=True)}%). Of the {decisive:,} that chose, "
            f"{first:,} chose the output shown first ({display(first / decisive, 1, times100=True)}%).") in page
    assert f"in {changed:,} of them ({display(changed / swapped, 1, times100=True)}%) the verdict changed with the order" in page


def test_the_win_rate_matrix_counts_half_a_tie(site) -> None:
    out, recs, names = site
    for row in _csv(out / FID / "pairwise" / BOARD / "matrix.csv"):
        a, b = row["model"], row["opponent"]
        between = [r for r in recs if {r["model_a"], r["model_b"]} == {a, b}]
        assert int(row["judgments"]) == len(between)
        if between:
            rate = (sum(_winner(r) == a for r in between) + 0.5 * sum(_winner(r) is None for r in between)) / len(between)
            assert float(row["win_rate"]) == pytest.approx(rate, abs=1e-12)


def test_the_orderings_are_compared_with_each_rubric_board(site) -> None:
    out, _recs, _names = site
    ratings = {r["model"]: float(r["rating"]) for r in _csv(out / FID / "pairwise" / BOARD / "board.csv") if r["rating"]}
    rows = _csv(out / FID / "pairwise" / BOARD / "rubric.csv")
    assert len(rows) == 8
    page = _text(out / FID / "pairwise" / BOARD / "rubric" / "index.html")
    for v in rows:
        scores = {r["model"]: float(r["score"]) for r in _csv(out / FID / "boards" / v["rubric_board"] / "board.csv") if r["score"]}
        models = sorted(set(ratings) & set(scores))
        assert int(v["models"]) == len(models)
        rho = stats.spearman_rho([ratings[m] for m in models], [scores[m] for m in models])
        assert float(v["rho"]) == pytest.approx(rho, abs=1e-12)
        assert float(v["low"]) <= rho + 1e-12 and float(v["high"]) >= rho - 1e-12
        assert int(v["draws"]) + int(v["left_out"]) == 1000
        assert f"{len(models)} {display(rho, 2)} {display(float(v['low']), 2)} to {display(float(v['high']), 2)}" in page


def test_a_prompts_page_shows_each_verdict_in_both_orders_with_both_outputs(site) -> None:
    out, recs, names = site
    page = (out / FID / "pairwise" / "prompts" / "p01" / "index.html").read_text(encoding="utf-8")
    text = _text(out / FID / "pairwise" / "prompts" / "p01" / "index.html")
    items = {(r["model"], r["iteration"]): r.get("output") for r in _jsonl(out / "raw" / "data" / FID / "sweep-s2.jsonl") if r["prompt"] == "p01"}
    mine = [r for r in recs if r["prompt"] == "p01"]
    assert f"{len(mine)} judgments of {len(mine) // 2} pairs of outputs to this prompt" in text
    for k, r in enumerate(recs):
        if r["prompt"] != "p01":
            continue
        first, second = (r["model_a"], r["model_b"]) if r["shown_first"] == "a" else (r["model_b"], r["model_a"])
        row = page.split(f'<tr id="j{k + 1}">', 1)[1].split("</tr>", 1)[0]
        cells = [html.unescape(c) for c in re.findall(r"<td>(.*?)</td>", row)]
        w = _winner(r)
        assert cells[:4] == [names[first], names[second], r["verdict"] + (f" {r['margin']}" if r.get("margin") else ""), names[w] if w else "tie"]
        assert cells[5] == r["reasoning"]
        for side in ("a", "b"):
            output = r.get(f"output_{side}") or items[(r[f"model_{side}"], r[f"iteration_{side}"])]
            assert str(markupsafe.escape(output)) in page


def test_untrusted_text_in_a_judgment_is_escaped(tmp_path: Path) -> None:
    root = one_family(tmp_path / "site", FID)
    path = root / "data" / FID / "pairwise.jsonl"
    recs = _jsonl(path)
    solo = next(k for k, r in enumerate(recs) if "output_a" in r)
    recs[solo]["output_a"] = "<script>alert(1)</script> and <img src=x onerror=alert(2)>"
    recs[0]["reasoning"] = "<script>alert(3)</script>"
    path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    r = run_cli("build", "--root", str(root), "--out", str(tmp_path / "out"))
    assert r.returncode == 0, r.stderr
    pages = [(tmp_path / "out" / FID / "pairwise" / "prompts" / p / "index.html").read_text(encoding="utf-8")
             for p in (recs[solo]["prompt"], recs[0]["prompt"])]
    assert "&lt;script&gt;alert(1)&lt;/script&gt; and &lt;img src=x onerror=alert(2)&gt;" in pages[0]
    assert "&lt;script&gt;alert(3)&lt;/script&gt;" in pages[1]
    assert not any("<script>alert" in p or "<img src=x" in p for p in pages)
