"""A sweep of Inspect logs as the logs are: a model run again, logs that do not belong together,
and every published row traced to its log and sample.

The logs are written with Inspect's own API, as tests/test_inspect.py writes them (its task
"tales": three models, six prompts in two categories, two epochs). A model's re-run is taken from
its newer log only when the sweep names the older superseded, which stays published and marked;
logs of another task, task version or dataset are refused, one problem each, naming both files
and each differing field; a sweep is never dated before its logs.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai.log import EvalDataset  # noqa: E402
from test_inspect import FID, MODELS, PROMPTS, RERUN, edit_and_validate, expected_board, fill, logs, rows, site, write_log  # noqa: E402,F401

from conftest import run_cli  # noqa: E402
from sitegen.build import build, validate  # noqa: E402
from sitegen.config import load_config  # noqa: E402
from sitegen.errors import InputError  # noqa: E402

CONFIG = f"content/{FID}/benchmark.toml"
LATER = "2026-11-27T09:00:00+00:00"


def first_and_rerun(folder: Path) -> Path:
    """Every model's log, and model-1 run again a week later (model-1-rerun.eval)."""
    folder.mkdir()
    for m in MODELS:
        write_log(folder / f"{m.split('/')[1]}.eval", m, 1)
    write_log(folder / "model-1-rerun.eval", RERUN, 2, created=LATER)
    return folder


@pytest.fixture(scope="module")
def rerun_site(tmp_path_factory) -> Path:
    """A site `sitegen new site --from-inspect` writes from a folder holding a model's first log
    and its re-run, as a team would have it: one sweep, built as written."""
    base = tmp_path_factory.mktemp("rerun")
    root = base / "site"
    r = run_cli("new", "site", str(root), "--id", FID, "--title", "Tales", "--from-inspect", str(first_and_rerun(base / "logs")))
    assert r.returncode == 0, r.stderr
    fill(root)
    build(load_config(root), root / "_site")
    return root


def test_the_scaffold_supersedes_the_older_of_two_logs_of_one_model_and_the_site_builds_from_the_newer(rerun_site):
    text = (rerun_site / CONFIG).read_text(encoding="utf-8")
    assert re.search(r'^superseded = \[\n  "logs/model-1\.eval",  # lab-a/model-1, created 2026-11-20T10:00:00\+00:00; '
                     r'its re-run model-1-rerun\.eval, created 2026-11-27T09:00:00\+00:00\n\]$', text, re.M)
    assert 'date = "2026-11-27"' in text
    want = expected_board({m: (2 if m == RERUN else 1) for m in MODELS})
    for category in ("fiction", "poetry"):
        for r in rows(rerun_site / f"_site/{FID}/boards/{category}/board.csv"):
            assert float(r["score"]) == pytest.approx(want[(category.capitalize(), r["model"])]["score"], abs=1e-9)


def test_a_superseded_log_is_published_listed_and_marked_by_its_newer_log_and_none_of_its_samples_is_used(rerun_site):
    out = rerun_site / "_site"
    old, new = f"data/{FID}/logs/model-1.eval", f"data/{FID}/logs/model-1-rerun.eval"
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["provenance"][old]["superseded_by"] == new
    assert manifest["provenance"][new]["superseded_by"] is None
    assert old in manifest["sources"] and (out / "raw" / old).read_bytes() == (rerun_site / old).read_bytes()
    logs = {r["file"]: r for r in rows(out / f"{FID}/inspect-logs.csv")}
    assert (logs[old]["superseded_by"], logs[new]["superseded_by"]) == (new, "")
    items = rows(out / f"{FID}/sweeps/s1/items.csv")
    assert {r["log"] for r in items if r["model"] == RERUN} == {new}
    method = (out / f"{FID}/method/index.html").read_text(encoding="utf-8")
    row = re.search(r"<tr class=\"withheld\"><th scope=\"row\"><a [^>]*><code>model-1\.eval</code>.*?</tr>", method).group(0)
    assert "SUPERSEDED</strong> by <a" in row and "<code>model-1-rerun.eval</code></a>, its samples not used" in row


def test_without_superseded_a_second_log_of_one_model_is_one_problem_saying_how_to_take_the_newer(tmp_path):
    root = tmp_path / "site"
    assert run_cli("new", "site", str(root), "--id", FID, "--title", "Tales", "--from-inspect", str(first_and_rerun(tmp_path / "logs"))).returncode == 0
    fill(root)
    path = root / CONFIG
    path.write_text(re.sub(r"^superseded = \[\n.*?\n\]\n", "", path.read_text(encoding="utf-8"), flags=re.M | re.S), encoding="utf-8")
    with pytest.raises(InputError) as e:
        validate(load_config(root))
    got = [str(p) for p in e.value.problems]
    assert len(got) == 1, got  # one for the log, not one per sample and epoch
    assert got[0].startswith(f"data/{FID}/logs/model-1.eval $.eval.model: expected one log of model {RERUN} in sweep s1") \
        and 'superseded = ["logs/model-1.eval"]' in got[0] and got[0].endswith(f"found also data/{FID}/logs/model-1-rerun.eval, "
                                                                              f"created {LATER} (this log: 2026-11-20T10:00:00+00:00)")


def test_a_superseded_log_the_glob_does_not_match_or_that_no_newer_log_replaces_is_refused(rerun_site, tmp_path):
    def edit(entries):
        def go(root):
            path = root / CONFIG
            text = re.sub(r"^superseded = \[\n.*?\n\]", "superseded = " + json.dumps(entries), path.read_text(encoding="utf-8"), flags=re.M | re.S)
            path.write_text(text, encoding="utf-8")
        return go

    got = edit_and_validate(rerun_site, tmp_path / "a", edit(["logs/model-1.eval", "logs/model-9.eval"]))
    assert got == [f"{CONFIG} $.sweeps[0].superseded[1]: expected a log the sweep's logs glob matches under data/{FID}/ "
                   '(a superseded log is still read and published); found "logs/model-9.eval"']
    got = edit_and_validate(rerun_site, tmp_path / "b", edit(["logs/model-1-rerun.eval"]))
    assert got == [f"{CONFIG} $.sweeps[0].superseded[0]: expected a log that a newer one replaces: a log of model {RERUN} and task tales "
                   f"that the sweep reads, created after this one ({LATER}); found data/{FID}/logs/model-1.eval, created 2026-11-20T10:00:00+00:00"]


def test_a_log_of_another_task_is_refused_naming_both_files_and_each_differing_field_though_no_sample_id_collides(site, tmp_path):
    others = [(f"q{i}", "Fiction") for i in range(1, 4)]
    got = edit_and_validate(site, tmp_path, lambda root: write_log(
        root / f"data/{FID}/logs/s2/poems.eval", "lab-c/model-3", 1, prompts=others, task="poems",
        dataset=EvalDataset(name="poems", samples=3, sample_ids=[p for p, _c in others])))
    s2 = f"data/{FID}/logs/s2"
    assert got == [f"{s2}/poems.eval $.eval: expected a run of the task the sweep's other logs ran, as {s2}/model-1.eval records it (its "
                   "task, task version and dataset): the logs of one sweep are runs of one task; found "
                   f'eval.task "poems" where {s2}/model-1.eval has "tales"; eval.dataset.name "poems" where {s2}/model-1.eval has "tales"; '
                   f"eval.dataset.samples 3 where {s2}/model-1.eval has 6; eval.dataset.sample_ids: 3 (q1, q2, q3) not among "
                   f"{s2}/model-1.eval's, and 6 (p1, p2, p3, p4, p5, …) of its not here"]


def test_a_log_of_another_task_version_whose_sample_ids_collide_is_refused_as_such_not_as_a_rerun(site, tmp_path):
    got = edit_and_validate(site, tmp_path, lambda root: write_log(root / f"data/{FID}/logs/s2/model-2-v4.eval", "lab-b/model-2", 1,
                                                                   task_version=4))
    s2 = f"data/{FID}/logs/s2"
    assert got == [f"{s2}/model-2-v4.eval $.eval: expected a run of the task the sweep's other logs ran, as {s2}/model-1.eval records it "
                   "(its task, task version and dataset): the logs of one sweep are runs of one task; found "
                   f'eval.task_version "4" where {s2}/model-1.eval has "3"']


def test_logs_run_on_different_samples_of_the_dataset_are_refused_naming_the_ids(site, tmp_path):
    ids = [p for p, _c in PROMPTS]

    def edit(root):
        for m in MODELS:
            name = m.split("/")[1]
            picked = ids[:5] if name == "model-3" else ids
            write_log(root / f"data/{FID}/logs/s2/{name}.eval", m, 2 if m == RERUN else 1, created=LATER if m == RERUN else
                      "2026-11-20T10:00:00+00:00", dataset=EvalDataset(name="tales", sample_ids=picked))
    got = edit_and_validate(site, tmp_path, edit)
    s2 = f"data/{FID}/logs/s2"
    assert got == [f"{s2}/model-3.eval $.eval: expected a run of the task the sweep's other logs ran, as {s2}/model-1.eval records it "
                   "(its task, task version and dataset): the logs of one sweep are runs of one task; found "
                   f"eval.dataset.sample_ids: none not among {s2}/model-1.eval's, and 1 (p6) of its not here"]


def test_a_sweep_dated_before_a_log_was_created_is_refused_at_its_date(site, tmp_path):
    def edit(root):
        path = root / CONFIG
        path.write_text(path.read_text(encoding="utf-8").replace('date = "2026-11-27"', 'date = "2026-11-24"'), encoding="utf-8")
        write_log(root / f"data/{FID}/logs/s2/model-1.eval", RERUN, 2, created="2026-11-26T23:30:00+00:00")
    got = edit_and_validate(site, tmp_path, edit)
    assert f"{CONFIG} $.sweeps[1].date: expected a day on or after each of the sweep's logs was created " \
           f"(data/{FID}/logs/s2/model-1.eval on 2026-11-26); found 2026-11-24" in got


def test_the_scaffold_says_what_inspect_said_of_a_log_it_cannot_read(tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "broken.json").write_text('{"eval": 3}', encoding="utf-8")
    r = run_cli("new", "site", str(tmp_path / "site"), "--id", FID, "--title", "Tales", "--from-inspect", str(folder))
    assert r.returncode == 1
    assert "broken.json is not an Inspect log Inspect can read (ValidationError: 1 validation error for EvalLog: eval: " \
           "Input should be a valid dictionary or instance of EvalSpec" in r.stderr
    assert not (tmp_path / "site").exists()


@pytest.fixture(scope="module")
def rerun_alone(tmp_path_factory, site) -> Path:
    """The test site with its second sweep holding only the re-run of model-1, on one board of six
    prompts (ranked), as a team that swept the re-run alone would have it."""
    root = tmp_path_factory.mktemp("alone") / "tales"
    shutil.copytree(site, root, ignore=shutil.ignore_patterns("_site", ".sitegen-cache"))
    for p in (root / f"data/{FID}/logs/s2").glob("model-[23].eval"):
        p.unlink()
    path = root / CONFIG
    path.write_text(path.read_text(encoding="utf-8").replace('by = "category"', "# one board"), encoding="utf-8")
    from conftest import pin_sweeps
    pin_sweeps(root, FID)
    build(load_config(root), root / "_site")
    return root / "_site"


def test_a_sweep_of_fewer_models_says_how_many_fewer_and_which_and_never_places_a_lone_model(rerun_alone):
    home = (rerun_alone / f"{FID}/index.html").read_text(encoding="utf-8")
    said = ("Sweep s2 ran 1 model, 2 fewer than sweep s1 before it (3): model-2 and model-3 are not in it, "
            "so its boards compare its one model with no other.")
    assert said in home
    board = next((rerun_alone / f"{FID}/boards").glob("*/index.html")).read_text(encoding="utf-8")
    assert said in board and "model-1 is the only model published on this board: with no other to compare it with, it has no place to take." in board
    for page in rerun_alone.rglob("*.html"):
        assert "wholly above every other" not in page.read_text(encoding="utf-8"), page
    assert "Only entrant tested: model-1, with no competitor on this board" in (rerun_alone / "index.html").read_text(encoding="utf-8")


def test_every_board_and_item_row_of_a_logs_sweep_names_its_log_and_every_item_row_its_sample_and_epoch(site, tmp_path):
    out = tmp_path / "out"
    build(load_config(site), out)
    for sweep in ("s1", "s2"):
        items = json.loads((out / f"{FID}/sweeps/{sweep}/items.json").read_text(encoding="utf-8"))
        records = items["rows"] if isinstance(items, dict) else items
        assert records
        for r in records:
            assert r["log"] == f"data/{FID}/logs/{sweep}/{r['model'].split('/')[1]}.eval"
            assert (r["sample"], r["epoch"]) == (r["prompt"], r["iteration"])
    with (out / f"{FID}/boards/fiction/board.csv").open(encoding="utf-8") as f:
        board = list(csv.DictReader(f))
    assert {r["model"]: r["log"] for r in board} == {m: f"data/{FID}/logs/s2/{m.split('/')[1]}.eval" for m in MODELS}


def test_the_current_sweeps_note_is_on_its_pages_and_an_archived_sweep_links_its_readings_on_every_prompts_page(site, tmp_path):
    out = tmp_path / "out"
    build(load_config(site), out)
    assert "model-1 run again." in (out / f"{FID}/index.html").read_text(encoding="utf-8")
    assert "model-1 run again." in (out / f"{FID}/boards/fiction/index.html").read_text(encoding="utf-8")
    archived = (out / f"{FID}/sweeps/s1/index.html").read_text(encoding="utf-8")
    links = re.findall(r'href="\.\./\.\./items/(p\d)/#sweep-s1"', archived)
    assert links == [p for p, _c in PROMPTS]
    for p in links:
        assert 'id="sweep-s1"' in (out / f"{FID}/items/{p}/index.html").read_text(encoding="utf-8")


def test_the_method_pages_log_table_gives_each_logs_status_and_epochs(site, tmp_path):
    out = tmp_path / "out"
    build(load_config(site), out)
    method = (out / f"{FID}/method/index.html").read_text(encoding="utf-8")
    table = method[method.index(f'id="{FID}-logs-caption"'):]
    table = table[:table.index("</table>")]
    assert re.search(r"<th scope=\"col\">Sweep, status</th>.*<th scope=\"col\" class=\"n\">Epochs</th>", table)
    body = re.findall(r"<tr><th scope=\"row\">.*?</tr>", table)
    assert len(body) == 6  # three logs in each sweep
    for row in body:
        assert re.search(r"<td>s[12]: success</td>", row) and '<td class="n">2</td><td class="n">12</td>' in row
