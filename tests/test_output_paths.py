"""Every output path is claimed once: a page, table, figure, raw copy, asset or generated file
that would take another's path, or a path that is not plain segments, is one problem naming
both claimants, found by `sitegen validate` as by `sitegen build`, and nothing is published.
Ids a family turns into its own page names are refused by its contract."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import (
    SWEEP_REL, edit_line, only, read_sweep, ref_fingerprint, run_cli, write_freeze, write_sweep,
)
from sitegen.build import build, validate
from sitegen.config import load_config
from sitegen.errors import InputError, Problem

RUNS_REL = "data/chronicle/runs.jsonl"
PLAIN = ("an output path of plain segments (none empty, '.' or '..') without a backslash, "
         "a control character or an invisible one")


def problems_of(root: Path) -> list[Problem]:
    with pytest.raises(InputError) as exc:
        validate(load_config(root))
    return exc.value.problems


def write_page(root: Path, rel: str, body: str = "Text.\n", title: str = "A page") -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\ntitle: {title}\n---\n\n{body}", encoding="utf-8")


def rename_domain(root: Path, old: str, new: str) -> None:
    """Rename a Canonic domain everywhere it is named (its tasks' ids start with it), with the
    task-set fingerprint and the freeze record made anew, so the rename is the only fault."""
    for p in (root / "data/canonic").iterdir():
        text = p.read_text(encoding="utf-8")
        p.write_text(text.replace(f'"{old}"', f'"{new}"').replace(f'"{old}-', f'"{new}-'), encoding="utf-8")
    sweep = read_sweep(root)
    sweep["task_set_fingerprint"] = ref_fingerprint(sweep["tasks"])
    write_sweep(root, sweep)
    write_freeze(root, sweep)


def first_run_id(root: Path) -> str:
    return json.loads((root / RUNS_REL).read_text(encoding="utf-8").split("\n", 1)[0])["id"]


# --------------------------------------------------------------------------- two claims of one path


BOARD_CLASH = ('content/canonic/book-opening.md: expected an output path nothing else publishes; found '
               'canonic/book-opening/index.html, claimed by both the Canonic Stage 1 page '
               '"Book Opening: Canonic Stage 1 board" and content/canonic/book-opening.md')


def test_an_authored_page_on_a_boards_path_is_refused_by_validate_and_build(cached_site_copy, tmp_path):
    """It used to replace the generated board: 'Every model scored 100.' was published."""
    root = cached_site_copy
    write_page(root, "content/canonic/book-opening.md", "Every model scored 100.\n")
    out = tmp_path / "out"
    checked = run_cli("validate", "--root", str(root))
    built = run_cli("build", "--root", str(root), "--out", str(out))
    for r in (checked, built):
        assert r.returncode == 1, r.stderr
        assert r.stderr.splitlines()[1:] == [BOARD_CLASH], r.stderr
        assert "Traceback" not in r.stderr
    assert not out.exists()


def test_a_page_and_a_folder_index_on_one_path_are_both_named(site_copy):
    """content/foo.md and content/foo/index.md used to publish one of them silently."""
    write_page(site_copy, "content/foo.md", title="Foo")
    write_page(site_copy, "content/foo/index.md", title="Foo index")
    assert str(only(problems_of(site_copy))) == (
        "content/foo/index.md: expected an output path nothing else publishes; "
        "found foo/index.html, claimed by both content/foo.md and content/foo/index.md")


def test_an_authored_page_on_the_downloads_page_is_refused_before_writing(site_copy):
    """It used to pass validate and stop the build at its write stage with no file named."""
    write_page(site_copy, "content/downloads.md")
    assert str(only(problems_of(site_copy))) == (
        "content/downloads.md: expected an output path nothing else publishes; "
        "found downloads/index.html, claimed by both the downloads page and content/downloads.md")


def test_page_names_that_differ_only_in_case_or_unicode_form_are_one_claim(site_copy):
    """Board.md and board.md, or café.md spelt NFC and NFD, are two files here and one on a
    case-insensitive checkout (macOS, Windows): they used to build, each to its own path."""
    write_page(site_copy, "content/Board.md", title="Board")
    write_page(site_copy, "content/board.md", title="Other board")
    nfc, nfd = "caf\u00e9", "cafe\u0301"
    write_page(site_copy, f"content/{nfc}.md", title="Café")
    write_page(site_copy, f"content/{nfd}.md", title="Other café")
    same = "one file where case or Unicode forms are not told apart"
    assert sorted(str(p) for p in problems_of(site_copy)) == sorted([
        f"content/board.md: expected an output path nothing else publishes; found board/index.html, claimed by "
        f"content/board.md, and Board/index.html, claimed by content/Board.md: {same}",
        f"content/{nfc}.md: expected an output path nothing else publishes; found {nfc}/index.html, claimed by "
        f"content/{nfc}.md, and {nfd}/index.html, claimed by content/{nfd}.md: {same}",
    ])


@pytest.mark.parametrize("name", ["tab\there", "line\nbreak", "bell\x07", "name\u202ereversed"])
def test_a_page_name_with_a_control_or_invisible_character_is_refused_by_validate_and_build(cached_site_copy, tmp_path, name):
    """Such a page used to build (exit 0) into a site that its own `sitegen verify` refused."""
    root, out = cached_site_copy, tmp_path / "out"
    write_page(root, f"content/{name}.md")
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in f"content/{name}.md")
    expected = [f"{shown}: expected {PLAIN}; found {f'{name}/index.html'!r}, the path of {shown}"]
    for r in (run_cli("validate", "--root", str(root)), run_cli("build", "--root", str(root), "--out", str(out))):
        assert r.returncode == 1, r.stdout + r.stderr
        assert r.stderr.splitlines()[1:] == expected, r.stderr
    assert not out.exists()


# --------------------------------------------------------------------------- paths that do not normalise


@pytest.mark.parametrize("suffix", ["/", "/."])
def test_a_run_id_that_is_not_a_plain_path_is_an_input_problem(site_copy, suffix):
    """A run id 'x/' or 'x/.' used to end the build in 'the staged output does not match its
    manifest', as if the disk were corrupt; validate passed."""
    run = first_run_id(site_copy)
    edit_line(site_copy, RUNS_REL, 1, lambda rec: rec.update(id=run + suffix))
    problems = problems_of(site_copy)
    assert problems and all(p.file.startswith("data/chronicle/") for p in problems), problems
    assert any(run + suffix in p.found for p in problems), problems
    assert not any("manifest" in str(p) for p in problems)


def test_a_file_where_another_output_needs_a_folder_is_refused(site_copy):
    """Run 'r' publishes chronicle/runs/r/calls.csv; a run 'r/calls.csv' would need that file
    to be a folder (the write used to fail with an OSError naming no input)."""
    run = first_run_id(site_copy)
    edit_line(site_copy, RUNS_REL, 1, lambda rec: rec.update(id=run + "/calls.csv"))
    edit_line(site_copy, RUNS_REL, 2, lambda rec: rec.update(id=run))
    p = only(problems_of(site_copy))
    assert p.file == "data/chronicle/" and p.expected == "an output path nothing else publishes"
    assert p.found.startswith(f"chronicle/runs/{run}/calls.csv, claimed by the ChronicleBench table ")
    assert f"the folder of chronicle/runs/{run}/calls.csv/index.html" in p.found


# --------------------------------------------------------------------------- reserved ids


@pytest.mark.parametrize("domain", ["diagnostics", "verification", "ladders/book-opening", "tasks"])
def test_a_domain_id_naming_one_of_canonics_own_pages_is_refused_at_its_json_path(site_copy, domain):
    """A domain 'diagnostics' used to replace the diagnostics page by its board: 411 pages, exit 0."""
    rename_domain(site_copy, "book-opening", domain)
    assert str(only(problems_of(site_copy))) == (
        f"{SWEEP_REL} $.domains[0].id: expected a domain id other than the names of Canonic's own pages "
        f'(bibles, diagnostics, ladders, method, tasks, verification); found "{domain}"')
