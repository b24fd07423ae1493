"""`sitegen validate` refuses exactly what `sitegen build` refuses: each kind of problem the
build can find in the inputs, made by the smallest site that shows it, is reported by both
commands in the same lines, with exit status 1. A problem about a generated page that the inputs
decide (a name it shows) is the input file's, at its key. And how many lines a report shows:
a repeated problem is one line with its count, a file's lines are capped unless `--all`."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from conftest import copy_site, read_sweep, run_cli, write_sweep
from test_input_files import problem_lines

FID = "shortbench"
ITEMS = f"data/{FID}/items-s1.jsonl"


@pytest.fixture(scope="module")
def new_site(tmp_path_factory) -> Path:
    """A small declared site as `sitegen new site` writes it (it builds as it is)."""
    site = tmp_path_factory.mktemp("new") / "bench"
    assert run_cli("new", "site", str(site), "--id", FID, "--title", "Short").returncode == 0
    return site


def _records(site: Path) -> list[dict]:
    return [json.loads(line) for line in (site / ITEMS).read_text(encoding="utf-8").splitlines()]


def _write_records(site: Path, records: list[dict]) -> None:
    (site / ITEMS).write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def bad_json(site: Path) -> None:
    lines = (site / ITEMS).read_text(encoding="utf-8").split("\n")
    lines[2] = "{oops"
    (site / ITEMS).write_text("\n".join(lines), encoding="utf-8")


def every_output_a_number(site: Path) -> None:
    _write_records(site, [{**r, "output": 5} for r in _records(site)])


def a_record_twice(site: Path) -> None:
    records = _records(site)
    _write_records(site, records + records[:1])


def a_page_on_the_familys_path(site: Path) -> None:
    (site / "content" / FID / "index.md").write_text("---\ntitle: Mine\n---\nhello\n", encoding="utf-8")


def a_page_without_a_title(site: Path) -> None:
    (site / "content" / "about.md").write_text("hello\n", encoding="utf-8")


def an_unknown_shortcode(site: Path) -> None:
    (site / "content" / "about.md").write_text("---\ntitle: About\n---\n{{< nope >}}\n", encoding="utf-8")


def an_unknown_declared_key(site: Path) -> None:
    toml = site / "content" / FID / "benchmark.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('title = "Short"', 'title = "Short"\ncolour = 1', 1), encoding="utf-8")


def a_symlink_out_of_the_repository(site: Path) -> None:
    os.symlink(os.devnull, site / "data" / FID / "link.jsonl")


# (mutation of the new site, a line the report must hold)
KINDS = [
    (bad_json, f"{ITEMS}:3: expected valid JSON; found Expecting property name enclosed in double quotes at column 2"),
    (every_output_a_number, f"{ITEMS}:1 $.output: expected a valid string; found 5 (64 lines: 1, 2, 3, 4, 5, …)"),
    (a_record_twice, f"{ITEMS}:65: expected one record per model, prompt and iteration; found example/alpha-1 p1 #1 again"),
    (a_page_on_the_familys_path, f"content/{FID}/index.md: expected an output path nothing else publishes; found "
                                 f'{FID}/index.html, claimed by both the Short page "Short" and content/{FID}/index.md'),
    (a_page_without_a_title, "content/about.md:1 title: expected a title in the front matter; found none"),
    (an_unknown_shortcode, f"content/about.md:4: expected a known shortcode ({FID}.method, site.results); found {{{{< nope >}}}}"),
    (an_unknown_declared_key, f"content/{FID}/benchmark.toml $.colour: expected no such key (the contract does not define it); "
                              'found key "colour"'),
    (a_symlink_out_of_the_repository, f"data/{FID}/link.jsonl: expected a regular file inside the repository; found a symlink to "
                                      "a path outside it"),
]


def both_refuse(site: Path, out: Path, *flags: str) -> list[str]:
    """The problem lines of validate and of build, which must be the same (both exit 1), and
    the output not written."""
    by_validate = problem_lines(run_cli("validate", "--root", str(site), *flags))
    by_build = problem_lines(run_cli("build", "--root", str(site), "--out", str(out), *flags))
    assert by_validate == by_build
    assert not out.exists()
    return by_build


@pytest.mark.parametrize(("mutate", "line"), KINDS, ids=[m.__name__ for m, _ in KINDS])
def test_each_kind_of_problem_is_refused_by_validate_and_build_alike(new_site, tmp_path, mutate, line):
    site = tmp_path / "site"
    shutil.copytree(new_site, site)
    mutate(site)
    assert line in both_refuse(site, tmp_path / "out")


def _canonic_model(root: Path) -> tuple[str, str]:
    sweep = read_sweep(root)
    sweep["models"][-1]["name"] = "Model total_score"
    write_sweep(root, sweep)
    return "data/canonic/sweep.json", f"$.models[{len(sweep['models']) - 1}].name"


def _chronicle_entrant(root: Path) -> tuple[str, str]:
    path = root / "data" / "chronicle" / "cohort.json"
    cohort = json.loads(path.read_text(encoding="utf-8"))
    cohort["entrants"][0]["name"] = "Model total_score"
    path.write_text(json.dumps(cohort, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return "data/chronicle/cohort.json", "$.entrants[0].name"


@pytest.mark.parametrize(("fid", "rename"), [("canonic", _canonic_model), ("chronicle", _chronicle_entrant)], ids=["canonic", "chronicle"])
def test_a_name_a_guarded_familys_pages_would_show_is_refused_by_validate_at_its_input_key(tmp_path, fid, rename):
    """A model named like an aggregate field passes intake (a value, not a key), but the pages
    of a family whose protocol forbids an aggregate may not show it: build refused it as its
    writer met it, naming a generated page, and validate passed it. Both now name the key."""
    root = copy_site(tmp_path / "site", families=[fid])
    rel, key = rename(root)
    assert both_refuse(root, tmp_path / "out", "--no-cache") == [
        f"{rel} {key}: expected no field-like token such as overall_x (the {fid} pages show this value, and its protocol "
        'forbids an aggregate field); found total_score, in "Model total_score"']


def _many_problems(site: Path, n: int) -> None:
    """N lines of the items file, each with a problem of its own (a different found)."""
    records = _records(site)
    _write_records(site, [{**r, "output": i} if i < n else r for i, r in enumerate(records)])


def test_a_files_lines_are_capped_and_the_report_says_how_to_see_them_all(new_site, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(new_site, site)
    _many_problems(site, 30)
    capped = both_refuse(site, tmp_path / "out")
    assert len(capped) == 22
    assert capped[20:] == [f"{ITEMS}: 10 more problems not shown", "(run sitegen validate --all to list them all)"]
    every = problem_lines(run_cli("validate", "--root", str(site), "--all"))
    assert every == [f"{ITEMS}:{i + 1} $.output: expected a valid string; found {i}" for i in range(30)]
    assert every[:20] == capped[:20]


def test_a_repeated_problem_is_one_line_that_names_its_first_location_and_counts_them(new_site, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(new_site, site)
    records = _records(site)
    _write_records(site, [{**r, "output": 5} if i % 3 == 0 else r for i, r in enumerate(records)])
    n = len(range(0, len(records), 3))
    assert both_refuse(site, tmp_path / "out") == [f"{ITEMS}:1 $.output: expected a valid string; found 5 ({n} lines: 1, 4, 7, 10, 13, …)"]
    every = problem_lines(run_cli("validate", "--root", str(site), "--all"))
    assert every == [f"{ITEMS}:1 $.output: expected a valid string; found 5 ({n} lines: {', '.join(str(i + 1) for i in range(0, len(records), 3))})"]


def test_a_file_whose_problems_all_fit_shows_each_of_them_on_its_line():
    from sitegen.errors import InputError, Problem

    problems = [Problem(ITEMS, i, "$.output", "a valid string", "5") for i in (3, 7, 12)]
    assert str(InputError(problems)).splitlines()[1:] == [f"{ITEMS}:{i} $.output: expected a valid string; found 5" for i in (3, 7, 12)]
