"""Every scorer of an Inspect evaluation publishes: a numeric one as a mean on its scale, a C/I one
(`match`, `includes`) and a C/I/P one (`model_graded_qa`, partial credit a half) as a rate, and a
dict scorer beside a C/I scorer as two metrics, each with boards of its own, one the headline,
nothing blended. A sample that errored is excluded or counted as failing, as the configuration
declares, and the pages say which and how many it touched.

The logs are written with Inspect's own API (EvalLog, EvalSample, Score), as tests/test_inspect.py
writes them, into real `.eval` files: three models, eight prompts in two categories of four (so
the boards are ranked, with intervals), two epochs. `sitegen new site --from-inspect` makes each
site; every published board number is then recomputed here from the logs with
inspect_ai.log.read_eval_log alone, and every interval with hashlib and numpy, as the method says.
"""

from __future__ import annotations

import csv
import hashlib
import re
import statistics
import tomllib
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("inspect_ai")

from inspect_ai._util.error import EvalError  # noqa: E402
from inspect_ai.log import EvalConfig, EvalDataset, EvalLog, EvalSample, EvalSpec, read_eval_log, write_eval_log  # noqa: E402
from inspect_ai.model import ModelOutput  # noqa: E402
from inspect_ai.scorer import Score  # noqa: E402

from conftest import run_cli  # noqa: E402
from sitegen.build import build, validate  # noqa: E402
from sitegen.config import load_config  # noqa: E402
from sitegen.errors import InputError  # noqa: E402

FID = "quiz"
MODELS = ["lab-a/model-1", "lab-b/model-2", "lab-c/model-3"]
PROMPTS = [(f"q{i}", "Arithmetic" if i <= 4 else "Geography") for i in range(1, 9)]
EPOCHS = 2


def rubric(m: int, k: int, e: int) -> dict[str, float]:
    return {"accuracy": float((k * 3 + m * 5 + e) % 9 + 1), "clarity": float((k + 2 * m + 3 * e) % 6 + 4)}


def letter(m: int, k: int, e: int, letters: str = "CI") -> str:
    """A deterministic grade: the better the model (lower m), the more Cs."""
    i = (k * 7 + e * 3 + m * 2) % (len(letters) + m)
    return letters[min(i, len(letters) - 1)]


def value(kind: str, m: int, k: int, e: int):
    if kind == "numeric":
        return float((k * 5 + e * 2 + m * 3) % 8 + 1)  # 1..8
    if kind == "match":
        return letter(m, k, e, "CI")
    if kind == "graded":
        return letter(m, k, e, "CPI")
    raise AssertionError(kind)


def write_logs(folder: Path, scorers: dict, errored: set[tuple[int, str, int]] = frozenset()) -> Path:
    """One log per model; SCORERS maps a scorer's name to value(m, k, e). A sample of ERRORED
    (model index, prompt, epoch) errored, and holds no score."""
    folder.mkdir(parents=True)
    for m, model in enumerate(MODELS):
        samples = []
        for k, (p, cat) in enumerate(PROMPTS, 1):
            for e in range(1, EPOCHS + 1):
                common = dict(id=p, epoch=e, input=f"Answer {p}.", target="42", metadata={"category": cat})
                if (m, p, e) in errored:
                    samples.append(EvalSample(**common, error=EvalError(message="RuntimeError: boom", traceback="tb", traceback_ansi="tb")))
                    continue
                samples.append(EvalSample(**common, output=ModelOutput.from_content(model, f"{model} says {k}."),
                                          scores={name: Score(value=f(m, k, e), explanation=f"{name} on {p}") for name, f in scorers.items()}))
        spec = EvalSpec(created="2026-11-20T10:00:00+00:00", task="quiz", task_version=1, task_id="t", eval_id=f"e{m}", run_id="r",
                        dataset=EvalDataset(name="quiz", samples=len(PROMPTS)), model=model, config=EvalConfig(epochs=EPOCHS))
        write_eval_log(EvalLog(status="success", eval=spec, samples=samples), str(folder / f"model-{m + 1}.eval"))
    return folder


def scaffold(base: Path, logs: Path, edit=None) -> Path:
    root = base / "site"
    r = run_cli("new", "site", str(root), "--id", FID, "--title", "Quiz", "--from-inspect", str(logs))
    assert r.returncode == 0, r.stderr
    path = root / f"content/{FID}/benchmark.toml"
    text = re.sub(r'^description = "FILL IN[^"]*"', 'description = "A quiz."', path.read_text(encoding="utf-8"), flags=re.M)
    path.write_text(edit(text) if edit else text, encoding="utf-8")
    return root


def rows(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


def recomputed(root: Path, unit, sweep: str = "s1", failing: bool = False) -> dict[tuple[str, str], dict]:
    """(board, model) -> score, low and high, from the site's logs read with read_eval_log alone:
    UNIT(scores of a sample) is its value on 0-1; a prompt's score the mean of its scored epochs,
    the board's the mean of its prompts, times 100; the interval a percentile bootstrap of 10,000
    resamples of the prompts, seeded with the first 8 bytes of SHA-256 of "sweep|model|board"."""
    out = {}
    for path in sorted((root / f"data/{FID}/logs").glob("*.eval")):
        log = read_eval_log(str(path))
        per: dict[tuple[str, str], list[float]] = {}
        for s in log.samples:
            cat = s.metadata["category"].lower()
            if s.error is not None and not failing:
                continue
            per.setdefault((cat, str(s.id)), []).append(0.0 if s.error is not None else unit(s.scores))
        for board in {c for c, _p in per}:
            means = np.array([100 * statistics.fmean(v) for (c, _p), v in sorted(per.items()) if c == board])
            seed = int.from_bytes(hashlib.sha256(f"{sweep}|{log.eval.model}|{board}".encode()).digest()[:8], "big")
            idx = np.random.default_rng(seed).integers(0, len(means), size=(10_000, len(means)))
            low, high = np.percentile(np.mean(means[idx], axis=1), [2.5, 97.5])
            out[(board, log.eval.model)] = {"score": float(means.mean()), "low": float(low), "high": float(high)}
    return out


def assert_board(got: list[dict], want: dict, board: str) -> None:
    assert {r["model"] for r in got} == set(MODELS)
    for r in got:
        w = want[(board, r["model"])]
        for key in ("score", "low", "high"):
            assert float(r[key]) == pytest.approx(w[key], abs=1e-9), (board, r["model"], key)


def rate_of(name: str):
    return lambda scores: {"C": 1.0, "P": 0.5, "I": 0.0}[scores[name].value]


def test_a_numeric_scorer_alone_publishes_its_mean_on_its_scale(tmp_path):
    logs = write_logs(tmp_path / "logs", {"steps": lambda m, k, e: value("numeric", m, k, e)})
    root = scaffold(tmp_path, logs)
    config = tomllib.loads((root / f"content/{FID}/benchmark.toml").read_text(encoding="utf-8"))
    [scorer] = config["inspect"]["scorers"]
    assert (scorer["name"], scorer["kind"], scorer["min"], scorer["max"], scorer["headline"]) == ("steps", "numeric", 1.0, 10.0, True)
    assert "criteria" not in config  # no dict scorer: nothing to read criteria from
    out = root / "_site"
    build(load_config(root), out)
    want = recomputed(root, lambda sc: (sc["steps"].value - 1.0) / 9.0)  # the written scale, 1-10
    for board in ("arithmetic", "geography"):
        assert_board(rows(out / f"{FID}/boards/{board}/board.csv"), want, board)
        page = (out / f"{FID}/boards/{board}/index.html").read_text(encoding="utf-8")
        assert not (out / f"{FID}/boards/{board}/criteria").exists()  # one number: no criterion page
        assert "criterion by criterion" not in page
    method = (out / f"{FID}/method/index.html").read_text(encoding="utf-8")
    assert "one number per sample on its declared scale, 1.00–10.00; a score is its mean as a percentage of that scale (0 is 1.00, 100 is 10.00)" in method
    assert '<h2 id="quiz-criteria">' not in method


@pytest.mark.parametrize("name, letters", [("match", "CI"), ("includes", "CI"), ("model_graded_qa", "CPI")])
def test_a_grade_scorer_publishes_a_rate_with_partial_credit_a_half(tmp_path, name, letters):
    kind = "graded" if "P" in letters else "match"
    logs = write_logs(tmp_path / "logs", {name: lambda m, k, e: value(kind, m, k, e)})
    seen = {read_eval_log(str(p)).samples[0].scores[name].value for p in logs.glob("*.eval")}
    root = scaffold(tmp_path, logs)
    config = tomllib.loads((root / f"content/{FID}/benchmark.toml").read_text(encoding="utf-8"))
    assert [(s["name"], s["kind"], s.get("headline")) for s in config["inspect"]["scorers"]] == [(name, "rate", True)]
    out = root / "_site"
    build(load_config(root), out)
    want = recomputed(root, rate_of(name))
    for board in ("arithmetic", "geography"):
        assert_board(rows(out / f"{FID}/boards/{board}/board.csv"), want, board)
    assert seen <= set(letters)
    method = (out / f"{FID}/method/index.html").read_text(encoding="utf-8")
    assert "C (correct) 1, P (partial credit) 0.5, I (incorrect) 0, N (no answer) 0" in method
    assert "a P counts half a correct answer, as Inspect's own <code>value_to_float</code> counts it" in method
    if "P" in letters:  # the logs hold partial credit, and it counts a half
        items = rows(out / f"{FID}/sweeps/s1/items.csv")
        assert {r[name] for r in items} == {"1.0", "0.5", "0.0"}
        assert {r["score"] for r in items} == {"100.0", "50.0", "0.0"}


MIXED = {"rubric": rubric, "match": lambda m, k, e: value("match", m, k, e)}


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("mixed")
    root = scaffold(base, write_logs(base / "logs", MIXED))
    build(load_config(root), root / "_site")
    return root


def test_a_dict_scorer_and_a_grade_scorer_are_two_metrics_the_dict_the_headline(mixed):
    text = (mixed / f"content/{FID}/benchmark.toml").read_text(encoding="utf-8")
    config = tomllib.loads(text)
    assert [(s["name"], s["kind"], s.get("headline", False)) for s in config["inspect"]["scorers"]] == [
        ("match", "rate", False), ("rubric", "criteria", True)]
    assert "headline = true  # its boards are the benchmark's" in text
    assert [c["id"] for c in config["criteria"]] == ["accuracy", "clarity"]
    out = mixed / "_site" / FID
    home = (out / "index.html").read_text(encoding="utf-8")
    assert "The logs hold 2 scorers, each published as a metric with boards of its own, never combined" in home
    assert '<h3 id="metric-match">Match</h3>' in home
    for board in ("arithmetic", "geography"):
        assert f'href="metrics/match/boards/{board}/"' in home and f'href="boards/{board}/"' in home
        page = (out / f"metrics/match/boards/{board}/index.html").read_text(encoding="utf-8")
        assert "It is not the headline metric (Rubric): its boards stand apart, never combined with the headline's." in page
        assert (out / f"metrics/match/boards/{board}/figure.svg").is_file()
        assert (out / f"boards/{board}/criteria/index.html").is_file() and not (out / f"metrics/match/boards/{board}/criteria").exists()


def test_every_published_board_of_the_mixed_site_is_the_logs_recomputed_with_read_eval_log_alone(mixed):
    """The headline's boards are the rubric's alone, exactly as if the match scorer were not in
    the logs; the match boards are its rate alone: nothing of one is in the other."""
    out = mixed / "_site" / FID
    scale = {"accuracy": (1.0, 10.0), "clarity": (1.0, 10.0)}  # the scaffold's conventional scales for 1-9 and 4-9
    written = tomllib.loads((mixed / f"content/{FID}/benchmark.toml").read_text(encoding="utf-8"))
    assert {c["id"]: (c["min"], c["max"]) for c in written["criteria"]} == scale
    rubric_unit = lambda sc: statistics.fmean((v - scale[c][0]) / (scale[c][1] - scale[c][0]) for c, v in sc["rubric"].value.items())  # noqa: E731
    want_rubric, want_match = recomputed(mixed, rubric_unit), recomputed(mixed, rate_of("match"))
    boards = sorted(out.glob("boards/*/board.csv")) + sorted(out.glob("metrics/*/boards/*/board.csv"))
    assert [p.relative_to(out).as_posix() for p in boards] == [
        "boards/arithmetic/board.csv", "boards/geography/board.csv",
        "metrics/match/boards/arithmetic/board.csv", "metrics/match/boards/geography/board.csv"]
    for p in boards:
        board = p.parent.name
        assert_board(rows(p), want_match if "metrics/match" in p.as_posix() else want_rubric, board)


def test_the_errored_sample_rule_is_applied_both_ways_and_the_pages_say_which(tmp_path):
    errored = {(1, "q2", 1), (2, "q6", 1), (2, "q2", 1)}  # at most one a board per model: every row passes the gate
    logs = write_logs(tmp_path / "logs", {"match": lambda m, k, e: value("match", m, k, e)}, errored)
    built = {}
    for rule in ("excluded", "failing"):
        root = scaffold(tmp_path / rule, logs, lambda t, rule=rule: t.replace('errored = "excluded"', f'errored = "{rule}"'))
        text = (root / f"content/{FID}/benchmark.toml").read_text(encoding="utf-8")
        assert "3 samples errored in these logs: declare which the benchmark means." in text
        build(load_config(root), root / "_site")
        built[rule] = root
        want = recomputed(root, rate_of("match"), failing=rule == "failing")
        for board in ("arithmetic", "geography"):
            got = rows(root / f"_site/{FID}/boards/{board}/board.csv")
            assert_board(got, want, board)
            scored = {r["model"]: int(r["scored"]) for r in got}
            lost = {m: sum(1 for (i, p, _e) in errored if MODELS[i] == m and dict(PROMPTS)[p].lower() == board) for m in MODELS}
            assert scored == {m: 8 - (lost[m] if rule == "excluded" else 0) for m in MODELS}
        home = (root / f"_site/{FID}/index.html").read_text(encoding="utf-8")
        method = (root / f"_site/{FID}/method/index.html").read_text(encoding="utf-8")
        said = ("3 samples of sweep s1 errored: each is counted as failing, scored 0 (the lowest value of every metric) and counted among the scored"
                if rule == "failing" else "3 samples of sweep s1 errored: each is excluded, left unscored on every metric and counted against the gate")
        for page in (home, method, (root / f"_site/{FID}/boards/geography/index.html").read_text(encoding="utf-8")):
            assert f'{said}, under the rule <code>inspect.errored = "{rule}"</code> declares.' in page
    # the same logs, two rules: the model with errored samples scores lower when they count as failing
    ex = {r["model"]: float(r["score"]) for r in rows(built["excluded"] / f"_site/{FID}/boards/geography/board.csv")}
    fa = {r["model"]: float(r["score"]) for r in rows(built["failing"] / f"_site/{FID}/boards/geography/board.csv")}
    assert fa[MODELS[0]] == ex[MODELS[0]] and fa[MODELS[2]] < ex[MODELS[2]]
    item = (built["failing"] / f"_site/{FID}/items/q6/index.html").read_text(encoding="utf-8")
    assert "failed, scored 0.0 (counted as failing)" in item and "RuntimeError: boom" in item


def test_an_undeclared_rule_excludes_and_the_method_page_says_it_was_not_declared(tmp_path):
    logs = write_logs(tmp_path / "logs", {"match": lambda m, k, e: value("match", m, k, e)}, {(0, "q1", 1)})
    root = scaffold(tmp_path, logs, lambda t: t.replace('errored = "excluded"\n', ""))
    build(load_config(root), root / "_site")
    method = (root / f"_site/{FID}/method/index.html").read_text(encoding="utf-8")
    assert "the rule that holds when <code>inspect.errored</code> is not declared" in method
    assert "1 sample of sweep s1 errored: it is excluded" in method


def test_the_headline_is_refused_at_its_key_unless_exactly_one_and_an_unreadable_grade_at_its_sample(mixed, tmp_path):
    path = mixed / f"content/{FID}/benchmark.toml"
    text = path.read_text(encoding="utf-8")
    both = text.replace('kind = "rate"  #', 'headline = true\nkind = "rate"  #', 1)
    path.write_text(both, encoding="utf-8")
    try:
        with pytest.raises(InputError) as e:
            validate(load_config(mixed))
    finally:
        path.write_text(text, encoding="utf-8")
    assert [str(p) for p in e.value.problems] == [
        f"content/{FID}/benchmark.toml $.inspect.scorers: expected exactly one scorer with headline = true (the metric whose boards are "
        "the benchmark's); found 2 (match, rubric); found a list of 2"]
    logs = write_logs(tmp_path / "logs", {"match": lambda m, k, e: "maybe" if (m, k, e) == (1, 3, 2) else value("match", m, k, e)})
    fresh = tmp_path / "again"
    write_logs(fresh / "logs", {"match": lambda m, k, e: value("match", m, k, e)})
    site = scaffold(fresh, fresh / "logs")
    (site / f"data/{FID}/logs/model-2.eval").unlink()
    (logs / "model-2.eval").rename(site / f"data/{FID}/logs/model-2.eval")
    with pytest.raises(InputError) as e:
        validate(load_config(site))
    assert [str(p) for p in e.value.problems] == [
        f"data/{FID}/logs/model-2.eval $.samples[id=q3, epoch=2].scores.match.value: expected a valid number; found \"maybe\""]


def test_the_scaffold_names_a_scorer_it_cannot_read_and_reads_the_rest(tmp_path):
    logs = write_logs(tmp_path / "logs", {"match": lambda m, k, e: value("match", m, k, e), "trace": lambda m, k, e: [1, 2]})
    root = scaffold(tmp_path, logs)
    text = (root / f"content/{FID}/benchmark.toml").read_text(encoding="utf-8")
    assert "# Scorer trace is not read: its values are neither a dict, numbers, nor C/I/P/N or booleans (found list)." in text
    assert [s["name"] for s in tomllib.loads(text)["inspect"]["scorers"]] == ["match"]
    build(load_config(root), root / "_site")


def test_the_single_scorer_form_still_reads_one_dict_scorer_as_the_headline_and_nothing_else(mixed, tmp_path):
    """`scorer = "rubric"`, as written before [[inspect.scorers]]: the same headline boards, byte for
    byte, and no other metric published."""
    import shutil

    root = tmp_path / "single"
    shutil.copytree(mixed, root, ignore=shutil.ignore_patterns("_site", ".sitegen-cache"))
    path = root / f"content/{FID}/benchmark.toml"
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"\n\[\[inspect\.scorers\]\]\n(?:[^\[\n].*\n|\n(?!\[))*", "\n", text)
    text = text.replace("[inspect]\n", '[inspect]\nscorer = "rubric"\n', 1)
    assert "[[inspect.scorers]]" not in text and "[boards]" in text
    path.write_text(text, encoding="utf-8")
    build(load_config(root), root / "_site")
    for board in ("arithmetic", "geography"):
        assert (root / f"_site/{FID}/boards/{board}/board.csv").read_bytes() == (mixed / f"_site/{FID}/boards/{board}/board.csv").read_bytes()
    assert not (root / f"_site/{FID}/metrics").exists()


def test_an_archived_sweep_keeps_the_scorer_settings_it_was_computed_with(tmp_path):
    """How a sweep's logs are read ([inspect]) is one of its settings: a top-level edit an
    archived sweep would take is refused at its pin, and the sweep that carries its own
    [sweeps.inspect] keeps its numbers while the new sweep reads the logs the new way."""
    from conftest import pin_sweeps

    logs = write_logs(tmp_path / "logs", {"steps": lambda m, k, e: value("numeric", m, k, e)})

    def two_sweeps(text: str) -> str:
        s1 = text[text.index("[[sweeps]]"):]
        s1 = s1[:s1.index("\n\n") + 1] if "\n\n" in s1 else s1
        s2 = s1.replace('id = "s1"', 'id = "s2"').replace('date = "2026-11-20"', 'date = "2026-11-21"')
        return text.replace(s1, s1 + "\n" + s2)

    root = scaffold(tmp_path, logs, two_sweeps)
    pin_sweeps(root, FID)
    out = root / "_site"
    build(load_config(root), out)
    before = rows(out / f"{FID}/sweeps/s1/arithmetic.csv")
    config = root / f"content/{FID}/benchmark.toml"
    pinned = config.read_text(encoding="utf-8")
    config.write_text(pinned.replace("max = 10.0", "max = 20.0", 1), encoding="utf-8")
    with pytest.raises(InputError) as refused:
        build(load_config(root), out)
    assert any(p.file == f"content/{FID}/benchmark.toml" and p.path == "$.sweeps[0].settings_fingerprint" for p in refused.value.problems)
    assert rows(out / f"{FID}/sweeps/s1/arithmetic.csv") == before  # nothing written

    # The archived sweep carries the table it was computed with; a change between sweeps needs its amendment.
    own = pinned[pinned.index("[inspect]"):pinned.index("[boards]")].replace("[inspect]", "[sweeps.inspect]").replace("[[inspect.scorers]]", "[[sweeps.inspect.scorers]]")
    text = pinned.replace("max = 10.0", "max = 20.0", 1)
    s2 = text.index('[[sweeps]]\nid = "s2"')
    current = re.sub(r'(?m)^settings_fingerprint = .*\n', "", text[s2:])  # the current sweep needs no pin
    text = text[:s2] + own + "\n" + current.replace('judges = ["grader"]', 'judges = ["grader"]\namendment = "A1"', 1)
    config.write_text(text, encoding="utf-8")
    (root / f"content/{FID}/amendments").mkdir(parents=True, exist_ok=True)
    (root / f"content/{FID}/amendments/A1.md").write_text('---\nid: A1\nkind: amendment\ntitle: "Steps read on 1-20"\ndate: 2026-11-21\n---\n\nThe steps scorer is read on 1-20 from sweep s2 on.\n', encoding="utf-8")
    build(load_config(root), out)
    assert rows(out / f"{FID}/sweeps/s1/arithmetic.csv") == before  # the archived sweep as it was computed
    assert rows(out / f"{FID}/boards/arithmetic/board.csv") != before
    home = (out / f"{FID}/index.html").read_text(encoding="utf-8")
    assert "inspect.scorers changed" in home
