"""From the harness to the site: Inspect AI evaluation logs published by configuration alone.

The logs are written here with Inspect's own API (EvalLog, EvalSample, Score) into real `.eval`
files: three models, six prompts in two categories, two epochs, a rubric scorer whose value is a
dict of two criteria with an explanation, one sample that errored, one retried before it
succeeded, and one model run again (a second sweep). `sitegen new site --from-inspect` makes the
site; the placeholder it leaves is refused until written; then every published board number
is recomputed here from the scores the logs hold, and every failure, rationale and log identity
is found on the site.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai._util.error import EvalError  # noqa: E402
from inspect_ai.log import EvalConfig, EvalDataset, EvalLog, EvalRetryError, EvalSample, EvalSpec, write_eval_log  # noqa: E402
from inspect_ai.model import GenerateConfig, ModelOutput  # noqa: E402
from inspect_ai.scorer import Score  # noqa: E402
from test_new_site import assert_installs_this_sitegen  # noqa: E402

import sitegen  # noqa: E402

from conftest import pin_sweeps, run_cli  # noqa: E402
from sitegen.build import build, validate  # noqa: E402
from sitegen.config import load_config  # noqa: E402
from sitegen.errors import InputError  # noqa: E402

FID = "tales"
MODELS = {"lab-a/model-1": 0.8, "lab-b/model-2": 0.6, "lab-c/model-3": 0.4}
PROMPTS = [(f"p{i}", "Fiction" if i <= 3 else "Poetry") for i in range(1, 7)]
EPOCHS = 2
ERRORED = ("lab-c/model-3", "p6", 2)
RETRIED = ("lab-b/model-2", "p1", 1)
RERUN = "lab-a/model-1"


def score(model: str, prompt: str, epoch: int, run: int) -> dict[str, float]:
    """A deterministic score per criterion on 0-10 (whole and half points)."""
    base = MODELS[model] * 10
    k = int(prompt[1:])
    return {"voice": min(10.0, round(base + (k % 3) * 0.5 - epoch * 0.5 + run, 1)),
            "structure": max(0.0, round(base - (k % 2) - run * 0.5, 1))}


def sample(model: str, prompt: str, category: str, epoch: int, run: int) -> EvalSample:
    key = (model, prompt, epoch)
    common = dict(id=prompt, epoch=epoch, input=f"Write a short {category.lower()} piece: {prompt}.", target="",
                  metadata={"category": category, "difficulty": 2})
    if key == ERRORED and run == 1:
        return EvalSample(**common, error=EvalError(message="RateLimitError: too many requests\ntraceback...", traceback="tb", traceback_ansi="tb"))
    retries = [EvalRetryError(message="APIConnectionError: connection reset", traceback="tb", traceback_ansi="tb")] if key == RETRIED else None
    return EvalSample(**common, output=ModelOutput.from_content(model, f"{model} on {prompt}, epoch {epoch}, run {run}."),
                      scores={"rubric": Score(value=score(model, prompt, epoch, run), explanation=f"Reasoned about {prompt} <b>carefully</b>."),
                              "length": Score(value=42)}, error_retries=retries)


def write_log(path: Path, model: str, run: int, status: str = "success", created: str = "2026-11-20T10:00:00+00:00",
              prompts=PROMPTS, **spec_fields) -> None:
    """A model's log of the task (SPEC_FIELDS in place of the task's own: another task, version or dataset)."""
    fields = dict(created=created, task="tales", task_version=3, task_id=f"task-{run}", eval_id=f"eval-{model.split('/')[1]}-{run}",
                  run_id=f"run-{run}", dataset=EvalDataset(name="tales", samples=len(prompts)), model=model,
                  model_generate_config=GenerateConfig(temperature=0.7, max_tokens=2048), config=EvalConfig(epochs=EPOCHS))
    spec = EvalSpec(**{**fields, **spec_fields})
    samples = [sample(model, p, c, e, run) for p, c in prompts for e in range(1, EPOCHS + 1)]
    write_eval_log(EvalLog(status=status, eval=spec, samples=samples), str(path))


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("logs")
    for m in MODELS:
        write_log(d / f"{m.split('/')[1]}.eval", m, 1)
    return d


FILLED = {"description": "Short fiction and poetry, read criterion by criterion."}
# The grader, declared as the team knows it (the logs do not record it).
GRADER = 'name = "Rubric grader"\nkind = "model"\nmodel = "lab-z/grader-1"\nversion = "2026-11-01"\nhouse = "Lab Z"\n'


def fill(root: Path) -> None:
    """Write what the placeholder asks, declare the grader and confirm the scales, as a team would:
    the rubric scores 0-10, though no 0 was given, so the scaffold's 1-10 is moved to 0."""
    path = root / f"content/{FID}/benchmark.toml"
    text = path.read_text(encoding="utf-8")
    text = re.sub(r'^description = "FILL IN[^"]*"', f'description = "{FILLED["description"]}"', text, flags=re.M)
    unknown = 'name = "Inspect scorers length and rubric"\nkind = "unknown"\n'
    assert unknown in text
    text = text.replace(unknown, GRADER)
    text, n = re.subn(r"^min = 1\.0 .*$", "min = 0.0", text, flags=re.M)
    assert n == 2
    path.write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def site(tmp_path_factory, logs) -> Path:
    """The site `sitegen new site --from-inspect` writes, its placeholders written, and a second
    sweep: model-1 run again (a log of its own), with the other two models' logs as they were."""
    root = tmp_path_factory.mktemp("site") / "tales"
    r = run_cli("new", "site", str(root), "--id", FID, "--title", "Tales", "--from-inspect", str(logs))
    assert r.returncode == 0, r.stderr
    assert_installs_this_sitegen(root, sitegen.requirement("inspect"))
    fill(root)
    config = root / f"content/{FID}/benchmark.toml"
    text = config.read_text(encoding="utf-8").replace('logs = "logs/*.eval"', 'logs = "logs/s1/*.eval"')
    data = root / f"data/{FID}/logs"
    (data / "s1").mkdir()
    (data / "s2").mkdir()
    for p in sorted(data.glob("*.eval")):
        shutil.copy(p, data / "s2" / p.name)
        p.rename(data / "s1" / p.name)
    write_log(data / "s2" / "model-1.eval", RERUN, 2, created="2026-11-27T09:00:00+00:00")
    text += '\n[[sweeps]]\nid = "s2"\ndate = "2026-11-27"\njudges = ["grader"]\nlogs = "logs/s2/*.eval"\nnote = "model-1 run again."\n'
    config.write_text(text, encoding="utf-8")
    pin_sweeps(root, FID)  # s1, now archived, keeps the settings it was published with
    return root


@pytest.fixture(scope="module")
def built(site) -> Path:
    out = site / "_site"
    build(load_config(site), out)
    return out


def rows(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


def expected_board(run_of: dict[str, int]) -> dict[tuple[str, str], dict]:
    """Per (category, model): the board score recomputed from the logged scores (each criterion
    on 0-10 to 0-1, the item's mean x 100, a prompt's epochs averaged, the board's prompts
    averaged), and how many items were scored and failed."""
    out = {}
    for model in MODELS:
        run = run_of[model]
        for category in ("Fiction", "Poetry"):
            per_prompt, scored, failed = [], 0, 0
            for p, c in PROMPTS:
                if c != category:
                    continue
                items = []
                for e in range(1, EPOCHS + 1):
                    if (model, p, e) == ERRORED and run == 1:
                        failed += 1
                        continue
                    s = score(model, p, e, run)
                    items.append(100 * statistics.fmean(v / 10 for v in s.values()))
                    scored += 1
                if items:
                    per_prompt.append(statistics.fmean(items))
            out[(category, model)] = {"score": statistics.fmean(per_prompt), "scored": scored, "failed": failed}
    return out


def test_placeholders_left_by_the_scaffold_are_refused_until_written(tmp_path, logs):
    root = tmp_path / "fresh"
    assert run_cli("new", "site", str(root), "--id", FID, "--title", "Tales", "--from-inspect", str(logs)).returncode == 0
    with pytest.raises(InputError) as e:
        validate(load_config(root))
    found = sorted(p.path for p in e.value.problems)
    assert found == ["$.description"]  # the grader is declared unknown, not a placeholder: the logs do not record it
    assert all(p.file == f"content/{FID}/benchmark.toml" and "placeholder" in p.expected for p in e.value.problems)
    config = (root / f"content/{FID}/benchmark.toml").read_text(encoding="utf-8")
    assert '[[inspect.scorers]]\nname = "rubric"' in config and 'by = "category"' in config and f"iterations = {EPOCHS}" in config
    assert 'id = "structure"' in config and 'id = "voice"' in config and "max = 10.0" in config
    assert sorted(p.name for p in (root / f"data/{FID}/logs").iterdir()) == sorted(p.name for p in logs.iterdir())
    fill(root)
    build(load_config(root), root / "_site")  # with the placeholders written, it builds


def test_every_board_number_is_the_logged_scores_recomputed(built):
    want = expected_board({m: (2 if m == RERUN else 1) for m in MODELS})
    for category in ("fiction", "poetry"):
        got = rows(built / f"{FID}/boards/{category}/board.csv")
        assert {r["model"] for r in got} == set(MODELS)
        for r in got:
            w = want[(category.capitalize(), r["model"])]
            assert float(r["score"]) == pytest.approx(w["score"], abs=1e-9)
            assert (int(r["scored"]), int(r["failed"])) == (w["scored"], w["failed"])
            # three prompts a board, below boards.min_prompts (4): a score, with no interval or rank
            assert (r["low"], r["high"], r["rank_best"]) == ("", "", "")


def test_a_later_log_never_replaces_an_earlier_one_the_earlier_sweep_stays_published(built):
    want = expected_board({m: 1 for m in MODELS})
    archived = rows(built / f"{FID}/sweeps/s1/fiction.csv")
    for r in archived:
        assert float(r["score"]) == pytest.approx(want[("Fiction", r["model"])]["score"], abs=1e-9)
    assert (built / f"{FID}/sweeps/s1/index.html").is_file()


def test_an_errored_and_a_retried_sample_are_failures_with_their_reasons_on_the_site(built):
    # the error is in sweep s1 only (model-3's log is the same in s2): the current sweep's page shows it
    page = (built / f"{FID}/items/p6/index.html").read_text(encoding="utf-8")
    assert "RateLimitError: too many requests" in page and "traceback" not in page
    retried = (built / f"{FID}/items/p1/index.html").read_text(encoding="utf-8")
    assert "APIConnectionError: connection reset" in retried
    items = rows(built / f"{FID}/sweeps/s2/items.csv")
    failed = [r for r in items if r["outcome"] == "failed"]
    assert [(r["model"], r["prompt"], r["iteration"], r["reason"]) for r in failed] == [(ERRORED[0], ERRORED[1], str(ERRORED[2]), "error")]
    assert [r["attempts"] for r in items if (r["model"], r["prompt"], r["iteration"]) == (RETRIED[0], RETRIED[1], str(RETRIED[2]))] == ["2"]
    # the judge's explanation is the rationale, escaped
    assert "Reasoned about p1 &lt;b&gt;carefully&lt;/b&gt;." in retried


def test_each_logs_identity_stands_beside_its_sha256_in_the_manifest_and_on_the_method_page(built, site):
    manifest = json.loads((built / "manifest.json").read_text(encoding="utf-8"))
    logs = sorted((site / f"data/{FID}/logs").rglob("*.eval"))
    assert sorted(manifest["provenance"]) == sorted(p.relative_to(site).as_posix() for p in logs)
    for p in logs:
        rel = p.relative_to(site).as_posix()
        facts = manifest["provenance"][rel]
        run = 2 if rel.endswith("s2/model-1.eval") else 1
        model = next(m for m in MODELS if m.endswith(p.stem))
        assert facts["eval_id"] == f"eval-{p.stem}-{run}" and facts["run_id"] == f"run-{run}" and facts["task_id"] == f"task-{run}"
        assert (facts["task"], facts["task_version"], facts["model"], facts["status"]) == ("tales", "3", model, "success")
        assert facts["generation_config"] == {"temperature": 0.7, "max_tokens": 2048}
        assert rel in manifest["sources"]
    method = (built / f"{FID}/method/index.html").read_text(encoding="utf-8")
    for rel, facts in manifest["provenance"].items():
        assert manifest["sources"][rel] in method and facts["eval_id"] in method and facts["run_id"] in method
    assert "<code>temperature=0.7</code>" in method


def edit_and_validate(site: Path, tmp_path: Path, edit) -> list[str]:
    root = tmp_path / "site"
    shutil.copytree(site, root, ignore=shutil.ignore_patterns("_site", ".sitegen-cache"))
    edit(root)
    with pytest.raises(InputError) as e:
        validate(load_config(root))
    return [str(p) for p in e.value.problems]


def test_a_model_run_twice_in_one_sweep_names_both_logs_once_and_how_to_take_the_newer(site, tmp_path):
    got = edit_and_validate(site, tmp_path, lambda root: write_log(root / f"data/{FID}/logs/s1/model-1-again.eval", RERUN, 3,
                                                                   created="2026-11-20T11:00:00+00:00"))
    assert got == [f"data/{FID}/logs/s1/model-1.eval $.eval.model: expected one log of model {RERUN} in sweep s1: to take the model "
                   f"from its newer log, name this one in the sweep's superseded list ($.sweeps[0].superseded in content/{FID}/benchmark.toml: "
                   'superseded = ["logs/s1/model-1.eval"]), which keeps it published, marked superseded; '
                   f"found also data/{FID}/logs/s1/model-1-again.eval, created 2026-11-20T11:00:00+00:00 (this log: 2026-11-20T10:00:00+00:00)"]


def test_a_log_that_did_not_succeed_is_reported(site, tmp_path):
    got = edit_and_validate(site, tmp_path, lambda root: write_log(root / f"data/{FID}/logs/s2/model-2.eval", "lab-b/model-2", 1, status="error"))
    assert got == [f'data/{FID}/logs/s2/model-2.eval $.status: expected a log whose run succeeded ("success"); found "error"']


def test_a_score_off_its_scale_names_the_log_the_sample_the_epoch_and_the_field(site, tmp_path, monkeypatch):
    real = score

    def off(model, prompt, epoch, run):
        s = real(model, prompt, epoch, run)
        return {**s, "voice": 12.5} if (model, prompt, epoch) == ("lab-b/model-2", "p2", 2) else s

    monkeypatch.setattr(sys.modules[__name__], "score", off)
    got = edit_and_validate(site, tmp_path, lambda root: write_log(root / f"data/{FID}/logs/s2/model-2.eval", "lab-b/model-2", 1))
    assert got == [f"data/{FID}/logs/s2/model-2.eval $.samples[id=p2, epoch=2].scores.rubric.value.voice: expected a score on 0.00-10.00; found 12.5"]


def test_without_the_inspect_extra_a_site_naming_logs_gets_one_problem_saying_what_to_install(site, monkeypatch):
    from sitegen.families.declared import inspect_logs

    monkeypatch.setattr(inspect_logs, "reader", lambda: None)
    # Uninstalling the extra changes the build cache's keys (they hold every installed
    # distribution); hiding it in this process does not, so the cache is not read.
    with pytest.raises(InputError) as e:
        validate(load_config(site), cache=False)
    assert [str(p) for p in e.value.problems] == [
        f'content/{FID}/benchmark.toml $.sweeps: expected the Inspect AI log reader (pip install "sitegen-evidence[inspect]"); '
        "found inspect_ai is not installed"]


def test_a_site_naming_no_logs_never_imports_inspect(tmp_path):
    root = tmp_path / "plain"
    assert run_cli("new", "site", str(root), "--id", "plain", "--title", "Plain").returncode == 0
    code = ("import sys; from sitegen.build import validate; from sitegen.config import load_config; "
            f"validate(load_config(__import__('pathlib').Path({str(root)!r}))); print('inspect_ai' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_the_site_from_logs_verifies_against_a_fresh_build(built, site):
    r = run_cli("verify", str(built), "--source", str(site))
    assert r.returncode == 0, r.stdout + r.stderr


def test_logs_written_as_json_are_read_as_well(tmp_path):
    logs = tmp_path / "json-logs"
    logs.mkdir()
    for m in MODELS:
        write_log(logs / f"{m.split('/')[1]}.json", m, 1)
    root = tmp_path / "site"
    assert run_cli("new", "site", str(root), "--id", FID, "--title", "Tales", "--from-inspect", str(logs)).returncode == 0
    assert 'logs = "logs/*.json"' in (root / f"content/{FID}/benchmark.toml").read_text(encoding="utf-8")
    fill(root)
    build(load_config(root), root / "_site")
    want = expected_board({m: 1 for m in MODELS})
    for r in rows(root / f"_site/{FID}/boards/fiction/board.csv"):
        assert float(r["score"]) == pytest.approx(want[("Fiction", r["model"])]["score"], abs=1e-9)
