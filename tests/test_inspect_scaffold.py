"""`sitegen new site --from-inspect` writes what the logs say: each criterion's scale from the
scores seen, both ends; the scorer's own order of criteria; a direction left to declare; a
sample's title metadata as its prompt's title. Logs are written with Inspect's own API, as
tests/test_inspect.py writes them: a scorer on 1-10 that never gave a 0, a 0/1 check, a 0-5
scale that gave a 0, a 1-5 scale.
"""

from __future__ import annotations

import csv
import re
import statistics
import tomllib
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai.log import EvalConfig, EvalDataset, EvalLog, EvalSample, EvalSpec, write_eval_log  # noqa: E402
from inspect_ai.model import ModelOutput  # noqa: E402
from inspect_ai.scorer import Score  # noqa: E402

from conftest import run_cli  # noqa: E402
from sitegen.build import build  # noqa: E402
from sitegen.config import load_config  # noqa: E402
from sitegen.scaffold_inspect import scale  # noqa: E402

MODELS = ["lab-a/model-1", "lab-b/model-2"]
PROMPTS = [f"q{i}" for i in range(1, 5)]
# The scorer's own order, not the alphabet's.
ORDER = ["clarity", "accuracy", "depth", "fluency"]


def scores(m: int, k: int) -> dict[str, float]:
    """Model m (0, 1) on prompt k (1-4): clarity 1-9 (no 0), accuracy 0/1, depth 0-4, fluency 2-5."""
    return {"clarity": float([1, 4, 6, 9][k - 1] - m * (k > 1)), "accuracy": float((k + m) % 2), "depth": float((k + m) % 5),
            "fluency": float(2 + (k + m) % 4)}


def write_logs(folder: Path) -> None:
    folder.mkdir()
    for m, model in enumerate(MODELS):
        samples = [EvalSample(id=p, epoch=1, input=f"Answer {p}.", target="", metadata={"title": f"Question {p[1:]}: the {p} one"},
                              output=ModelOutput.from_content(model, f"{model} on {p}."),
                              scores={"check": Score(value=scores(m, k))}) for k, p in enumerate(PROMPTS, 1)]
        spec = EvalSpec(created="2026-11-20T10:00:00+00:00", task="quiz", task_version=1, task_id="t", eval_id=f"e{m}", run_id="r",
                        dataset=EvalDataset(name="quiz", samples=len(PROMPTS)), model=model, config=EvalConfig(epochs=1))
        write_eval_log(EvalLog(status="success", eval=spec, samples=samples), str(folder / f"model-{m + 1}.eval"))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("quiz")
    write_logs(base / "logs")
    root = base / "site"
    r = run_cli("new", "site", str(root), "--id", "quiz", "--title", "Quiz", "--from-inspect", str(base / "logs"))
    assert r.returncode == 0, r.stderr
    return root


def test_each_criterion_is_written_in_the_scorers_order_on_the_scale_that_holds_its_scores_both_ends(site):
    text = (site / "content/quiz/benchmark.toml").read_text(encoding="utf-8")
    config = tomllib.loads(text)
    assert [c["id"] for c in config["criteria"]] == ORDER
    assert [(c["min"], c["max"]) for c in config["criteria"]] == [(1.0, 10.0), (0.0, 1.0), (0.0, 5.0), (1.0, 5.0)]
    assert not any("direction" in c for c in config["criteria"])  # not invented: left to declare
    blocks = text.split("[[criteria]]")[1:]
    for block in blocks:
        assert re.search(r"^min = .*# the conventional scale holding every score seen \(.+ to .+\): confirm both ends$", block, re.M)
        assert re.search(r'^# direction = "lower"  # the logs do not say which end is good', block, re.M)
    assert "min = 1.0  # the conventional scale holding every score seen (1 to 9)" in blocks[0]


def test_the_composite_uses_both_ends_of_the_written_scale_and_titles_come_from_the_samples(site):
    path = site / "content/quiz/benchmark.toml"
    path.write_text(re.sub(r'^description = "FILL IN[^"]*"', 'description = "A quiz."', path.read_text(encoding="utf-8"), flags=re.M),
                    encoding="utf-8")
    build(load_config(site), site / "_site")
    ends = {"clarity": (1, 10), "accuracy": (0, 1), "depth": (0, 5), "fluency": (1, 5)}
    boards = sorted((site / "_site/quiz/boards").glob("*/board.csv"))
    assert len(boards) == 1  # no metadata field but the title varies: one board
    with boards[0].open(encoding="utf-8") as f:
        got = {r["model"]: float(r["score"]) for r in csv.DictReader(f)}
    for m, model in enumerate(MODELS):  # (score - min) / (max - min): a 1-10 scale read as 0-10 would shift every one
        want = statistics.fmean(100 * statistics.fmean((v - ends[c][0]) / (ends[c][1] - ends[c][0]) for c, v in scores(m, k).items())
                                for k in range(1, len(PROMPTS) + 1))
        assert got[model] == pytest.approx(want, abs=1e-9)
    method = (site / "_site/quiz/method/index.html").read_text(encoding="utf-8")
    assert re.search(r"Clarity</th><td>1–10</td>", method)
    item = (site / "_site/quiz/items/q2/index.html").read_text(encoding="utf-8")
    assert "<h1>Question 2: the q2 one</h1>" in item


@pytest.mark.parametrize("low, high, ends", [
    (1, 9, (1.0, 10.0)), (0, 9, (0.0, 10.0)), (1, 10, (1.0, 10.0)), (2, 4, (1.0, 5.0)), (0.5, 4, (0.0, 5.0)),
    (0.2, 0.9, (0.0, 1.0)), (3, 87, (0.0, 100.0)), (1, 17, (0.0, 20.0)), (-2, 3, (-2.0, 5.0)), (0, 150, (0.0, 150.0)),
])
def test_the_scale_is_the_conventional_one_holding_the_lowest_and_highest_score_seen(low, high, ends):
    assert scale(low, high) == ends
