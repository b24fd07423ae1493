"""The content-keyed incremental build: a rebuild reuses only what its inputs leave unchanged,
and its output is the cold build's, byte for byte and mode for mode.

Each test edits a copy of the demo the way a maintainer would (an amendment, a cell, a
template, an authored page, the generator's own cache files) and compares the incremental
output with a build from scratch (`cache=False`) of the same inputs."""

from __future__ import annotations

import json
import os
import pickle
import stat
from pathlib import Path

import pytest

from sitegen import incremental
from sitegen.build import build
from sitegen.config import load_config
from sitegen.families import FAMILIES

from conftest import COMMAND_SECONDS, STARTUP_SECONDS, copy_site, find_cell_line, hash_tree, rewrite_cell_line, two_standard_scores

AMENDMENT = "content/chronicle/amendments/A6.md"


def tree(out: Path) -> dict[str, tuple[str, int]]:
    """Every file's SHA-256 and mode."""
    hashes = hash_tree(out)
    return {rel: (sha, stat.S_IMODE((out / rel).stat().st_mode)) for rel, sha in hashes.items()}


def append(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.write_text(path.read_text(encoding="utf-8").rstrip("\n") + text + "\n", encoding="utf-8")


def assert_same_as_cold(root: Path, out: Path, tmp: Path) -> None:
    cold = tmp / f"cold-{len(list(tmp.glob('cold-*')))}"
    build(load_config(root), cold, cache=False)
    assert tree(out) == tree(cold)


@pytest.fixture
def site(tmp_path, built_site) -> Path:
    """A copy of the demo with its figure cache, built once into site/../out (cache warm)."""
    root = copy_site(tmp_path / "site", cache_from=built_site.root)
    build(load_config(root), tmp_path / "out")
    return root


class Counting:
    """Counts each family's load calls (a cached family is not read again)."""

    def __init__(self, monkeypatch):
        self.calls: list[str] = []
        for fid, fam in list(FAMILIES.items()):
            monkeypatch.setitem(FAMILIES, fid, _Proxy(fam, self._wrap(fid, fam.load)))

    def _wrap(self, fid, real):
        def load(*args, **kw):
            self.calls.append(fid)
            return real(*args, **kw)
        return load


class _Proxy:
    """A family with its load replaced (the registered families are frozen)."""

    def __init__(self, family, load):
        self._family, self.load = family, load

    def __getattr__(self, name):
        return getattr(self._family, name)


def test_a_no_op_rebuild_does_nothing_and_says_so(site, tmp_path):
    out = tmp_path / "out"
    before = tree(out)
    stages: list[str] = []
    result = build(load_config(site), out, on_stage=stages.append)
    assert result.up_to_date and stages == []  # no stage entered, nothing staged or swapped
    assert (result.pages, result.files) == (412, len(before))
    assert tree(out) == before


def test_the_command_answers_a_no_op_and_rebuilds_after_an_edit(site, tmp_path):
    from conftest import run_cli

    out = tmp_path / "out"
    first = run_cli("build", "--root", str(site), "--out", str(out))
    assert first.returncode == 0 and first.stdout.startswith("up to date: 412 pages"), first.stdout + first.stderr
    append(site, AMENDMENT, " A sentence added.")
    second = run_cli("build", "--root", str(site), "--out", str(out))
    assert second.returncode == 0 and second.stdout.startswith("built 412 pages"), second.stdout + second.stderr


def test_an_output_edited_by_hand_is_rebuilt_not_trusted(site, tmp_path):
    out = tmp_path / "out"
    before = tree(out)
    (out / "index.html").write_text("defaced", encoding="utf-8")
    (out / "stray.html").write_text("not ours", encoding="utf-8")
    result = build(load_config(site), out)
    assert not result.up_to_date
    assert tree(out) == before


def test_an_edited_amendment_reloads_only_its_family_and_equals_a_cold_build(site, tmp_path, monkeypatch):
    counting = Counting(monkeypatch)
    append(site, AMENDMENT, " One sentence more, to be published.")
    build(load_config(site), tmp_path / "out")
    assert counting.calls == ["chronicle"]
    assert "One sentence more, to be published." in (tmp_path / "out/chronicle/protocol/index.html").read_text(encoding="utf-8")
    monkeypatch.undo()
    assert_same_as_cold(site, tmp_path / "out", tmp_path)


def test_a_changed_cell_template_and_page_each_rebuild_to_the_cold_output(site, tmp_path):
    out = tmp_path / "out"
    line, rec = find_cell_line(site, two_standard_scores)
    dim = next(iter(rec["judgments"][0]["anchors"]))

    def edit(r):
        r["judgments"][0]["anchors"][dim] = 0.25 if r["judgments"][0]["anchors"][dim] != 0.25 else 0.5
        r["judgments"][0].pop("weighted_score", None)

    rewrite_cell_line(site, line, edit)
    build(load_config(site), out)
    assert_same_as_cold(site, out, tmp_path)

    base = site / "templates" / "base.html"
    base.write_text(base.read_text(encoding="utf-8").replace("</footer>", "<p>Edited footer.</p></footer>", 1), encoding="utf-8")
    build(load_config(site), out)
    assert "Edited footer." in (out / "canonic/index.html").read_text(encoding="utf-8")
    assert_same_as_cold(site, out, tmp_path)

    append(site, "content/index.md", "\n\nA new closing paragraph.")
    build(load_config(site), out)
    assert_same_as_cold(site, out, tmp_path)


def test_reverting_an_edit_gives_back_the_first_output(site, tmp_path):
    out = tmp_path / "out"
    first = tree(out)
    original = (site / AMENDMENT).read_bytes()
    append(site, AMENDMENT, " Briefly published.")
    build(load_config(site), out)
    assert tree(out) != first
    (site / AMENDMENT).write_bytes(original)
    assert not build(load_config(site), out).up_to_date  # the output holds the edited build
    assert tree(out) == first


def test_an_input_edited_during_the_build_is_neither_cached_nor_recorded(site, tmp_path):
    """The keys are taken before the inputs are read: a file saved mid-build must not leave
    its new result filed under its old content's key."""
    out = tmp_path / "out"
    append(site, AMENDMENT, " Edit one.")

    def hook(name: str) -> None:
        if name == "render":
            append(site, AMENDMENT, " Edit two, saved while the build ran.")

    build(load_config(site), out, on_stage=hook)
    result = build(load_config(site), out)  # not a no-op: the output predates edit two
    assert not result.up_to_date
    assert "Edit two, saved while the build ran." in (out / "chronicle/protocol/index.html").read_text(encoding="utf-8")
    assert_same_as_cold(site, out, tmp_path)


def test_damaged_cache_entries_are_misses_not_errors(site, tmp_path):
    out = tmp_path / "out"
    entries = sorted((site / incremental.CACHE_DIR).glob("*/**/*.pickle"))
    assert {p.relative_to(site / incremental.CACHE_DIR).parts[0] for p in entries} == {"families", "contexts", "pages"}
    for i, p in enumerate(entries):
        p.write_bytes(b"" if i % 2 else pickle.dumps({"not": "an entry"})[:7])
    append(site, "content/index.md", "\n\nAnother paragraph.")
    build(load_config(site), out)
    assert_same_as_cold(site, out, tmp_path)


def test_a_cached_family_that_read_a_file_outside_its_folders_is_reloaded_when_it_changes(site, tmp_path, monkeypatch):
    """A family's key covers its own folders; any other file it read is re-hashed on each hit."""
    (site / "shared.txt").write_text("v1", encoding="utf-8")
    entry_dir = site / incremental.CACHE_DIR / "families" / "nextchapter"
    (entry,) = entry_dir.glob("*.pickle")
    value = pickle.loads(entry.read_bytes())
    value["reads"] = {"shared.txt": incremental.sha256_file(site / "shared.txt")}
    entry.write_bytes(pickle.dumps(value))
    counting = Counting(monkeypatch)
    append(site, "content/index.md", "\n\nA paragraph.")
    build(load_config(site), tmp_path / "out")
    assert "nextchapter" not in counting.calls  # the recorded read is unchanged: a hit
    (site / "shared.txt").write_text("v2", encoding="utf-8")
    append(site, "content/index.md", "\n\nAnother paragraph.")
    build(load_config(site), tmp_path / "out")
    assert counting.calls.count("nextchapter") == 1


def test_unchanged_files_are_linked_not_copied_and_the_previous_output_survives(site, tmp_path):
    """Staged files equal to the previous output's are hard links to them; a failed build
    still leaves the previous output as it was."""
    out = tmp_path / "out"
    before = tree(out)
    append(site, AMENDMENT, " Linked rebuild.")
    seen = {}

    def hook(name: str) -> None:
        if name == "verify":
            (staging,) = out.parent.glob(".sitegen-staging-out-*")
            seen["linked"] = (staging / "canonic/index.html").stat().st_ino == (out / "canonic/index.html").stat().st_ino
            seen["copied"] = (staging / "chronicle/protocol/index.html").stat().st_ino != (out / "chronicle/protocol/index.html").stat().st_ino
            raise RuntimeError("stop before the swap")

    with pytest.raises(RuntimeError):
        build(load_config(site), out, on_stage=hook)
    assert seen == {"linked": True, "copied": True}
    assert tree(out) == before


def test_the_code_key_covers_the_installed_distributions_and_the_package(monkeypatch, tmp_path):
    before = incremental.code_key()
    fake = tmp_path / "site-packages"
    (fake / "somelib-1.0.dist-info").mkdir(parents=True)
    monkeypatch.setattr(incremental, "_code", [])
    monkeypatch.syspath_prepend(str(fake))
    one = incremental.code_key()
    (fake / "somelib-1.0.dist-info").rename(fake / "somelib-1.1.dist-info")
    monkeypatch.setattr(incremental, "_code", [])
    assert len({before, one, incremental.code_key()}) == 3


def test_builds_json_names_the_output_and_its_manifest(site, tmp_path):
    records = json.loads((site / incremental.CACHE_DIR / "builds.json").read_text(encoding="utf-8"))
    record = records[str((tmp_path / "out").resolve())]
    assert record["manifest"] == incremental.sha256_file(tmp_path / "out" / "manifest.json")
    assert os.path.isabs(next(iter(records)))


def test_the_registry_knows_each_familys_content_folder_without_importing_it():
    """The registry names each family's content folder so the cache can key it unimported;
    it must say what the family package itself says."""
    import importlib

    for fid, fam in FAMILIES.items():
        real = importlib.import_module(fam.module).FAMILY
        assert (fam.id, fam.content_dir) == (real.id, real.content_dir) == (fid, real.content_dir)


def test_the_retired_output_is_deleted_in_the_background(site, tmp_path):
    """After the swap the previous output is renamed aside and deleted by a detached process:
    nothing of it is left beside the output for long, and nothing of it is ever restored."""
    import time

    out = tmp_path / "out"
    append(site, AMENDMENT, " Retire the old output.")
    build(load_config(site), out)
    deadline = time.monotonic() + STARTUP_SECONDS
    while list(out.parent.glob(".sitegen-trash-*")) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert sorted(p.name for p in out.parent.iterdir() if p.name.startswith(".sitegen-")) == []
    assert_same_as_cold(site, out, tmp_path)


FIGURES_AFTER_ONE = r"""
from sitegen.families import Figure
from sitegen.figures import render_all

def draw(data):
    return {"$schema": "https://vega.github.io/schema/vega-lite/v5.json", "data": {"values": data},
            "mark": "bar", "encoding": {"x": {"field": "k", "type": "nominal"}, "y": {"field": "v", "type": "quantitative"}}}

def fig(name, n):
    return Figure(name, [{"k": str(i), "v": i} for i in range(n)], draw, "alt", {}, "test")

if __name__ == "__main__":  # workers start from a fresh interpreter and import this file
    render_all([fig("one", 3)], None)  # a single figure: drawn in this process
    done = render_all([fig("a", 4), fig("b", 5), fig("c", 6)], None)  # several: in worker processes
    print(sorted(done))
"""


def test_figures_are_drawn_after_a_single_one_was_drawn_in_process(tmp_path):
    """`sitegen serve` may draw one changed figure in its own process and, at a later rebuild,
    several in workers: the workers must not inherit vl-convert's state (they used to hang)."""
    import subprocess
    import sys

    script = tmp_path / "figs.py"
    script.write_text(FIGURES_AFTER_ONE, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=COMMAND_SECONDS, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['a', 'b', 'c']"


def test_a_file_read_outside_the_input_folders_is_checked_before_answering_up_to_date(site, tmp_path):
    """The build key covers content/, data/, templates/, assets/, schemas/ and pyproject.toml;
    a file a family read elsewhere is recorded with its hash and re-hashed by the no-op check."""
    from sitegen.load import SourceFile

    out = tmp_path / "out"
    shared = site / "shared" / "bible.md"
    shared.parent.mkdir()
    shared.write_text("v1", encoding="utf-8")
    reads = incremental.outside_inputs([SourceFile("shared/bible.md", incremental.sha256_file(shared), 2),
                                        SourceFile("data/canonic/sweep.json", "x", 1), SourceFile("pyproject.toml", "y", 1)])
    assert reads == {"shared/bible.md": incremental.sha256_file(shared)}
    records_path = site / incremental.CACHE_DIR / "builds.json"
    records = json.loads(records_path.read_text(encoding="utf-8"))
    records[str(out.resolve())]["reads"] = reads
    records_path.write_text(json.dumps(records), encoding="utf-8")
    assert build(load_config(site), out).up_to_date
    shared.write_text("v2", encoding="utf-8")
    assert not build(load_config(site), out).up_to_date


def test_a_cached_family_whose_page_contexts_are_unreadable_is_computed_again(site, tmp_path, monkeypatch):
    """A cached family's pages are rendered again from its cached contexts (a template
    changed); when those cannot be read, the family is computed afresh, never published stale."""
    out = tmp_path / "out"
    for entry in (site / incremental.CACHE_DIR / "contexts").glob("*/*.pickle"):
        entry.write_bytes(b"torn")
    base = site / "templates" / "base.html"
    base.write_text(base.read_text(encoding="utf-8").replace("</footer>", "<p>Footer, again.</p></footer>", 1), encoding="utf-8")
    counting = Counting(monkeypatch)
    build(load_config(site), out)
    assert sorted(counting.calls) == ["canonic", "chronicle", "nextchapter"]  # each read once, for its contexts
    monkeypatch.undo()
    assert_same_as_cold(site, out, tmp_path)


def test_a_rebuild_from_the_cache_imports_no_family_it_does_not_compute(site, tmp_path):
    """An amendment rebuild reads Canonic's and NextChapterBench's results from the cache
    without importing their packages (nor DuckDB)."""
    import subprocess
    import sys

    append(site, AMENDMENT, " Imports checked.")
    probe = ("import sys; from pathlib import Path; from sitegen.build import build; from sitegen.config import load_config; "
             f"build(load_config({str(site)!r}), Path({str(tmp_path / 'out')!r})); "
             "import json; print(json.dumps(sorted(m for m in sys.modules if m.startswith(('sitegen.families.', 'duckdb')))))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=COMMAND_SECONDS)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert [m for m in loaded if m.startswith(("sitegen.families.canonic", "sitegen.families.nextchapter", "duckdb"))] == []
    assert "sitegen.families.chronicle" in loaded
