"""The content-keyed incremental build: a rebuild reuses only what its inputs leave unchanged,
and its output is the cold build's, byte for byte and mode for mode.

Each test edits a copy of the demo the way a maintainer would (an amendment, a cell, a
template, an authored page, the generator's own cache files) and compares the incremental
output with a build from scratch (`cache=False`) of the same inputs."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
from dataclasses import replace
from pathlib import Path

import pytest

from sitegen import incremental
from sitegen.load import INPUT_FOLDERS
from sitegen.build import build
from sitegen.errors import BuildError, InputError
from sitegen.config import load_config
from sitegen.site_families import FAMILIES

from conftest import (COMMAND_SECONDS, STARTUP_SECONDS, copy_site, find_cell_line, hash_tree, override_template, rewrite_cell_line,
                      two_standard_scores)

# A new entry of a family's amendment log: the edits here are a maintainer's work on it. (A
# published ChronicleBench entry cannot change without a recorded correction.)
AMENDMENT = "content/vignette/amendments/A2.md"
CHRONICLE_AMENDMENT = "content/chronicle/amendments/A7.md"
NEW_ENTRIES = {
    AMENDMENT: "---\nid: A2\nkind: amendment\ntitle: \"A new entry\"\ndate: 2026-10-21\n---\n\nThe text of a new entry.\n",
    CHRONICLE_AMENDMENT: ("---\nid: A7\nkind: amendment\ntitle: \"A new entry\"\ndate: 2026-09-05\ntiming: post-scoring\n"
                          "directed_by: owner\nscope: reporting\n---\n\nThe text of a new entry.\n"),
}
AMENDMENTS_PAGE = "vignette/amendments/index.html"  # where the log's entries are published


def tree(out: Path) -> dict[str, tuple[str, int]]:
    """Every file's SHA-256 and mode."""
    hashes = hash_tree(out)
    return {rel: (sha, stat.S_IMODE((out / rel).stat().st_mode)) for rel, sha in hashes.items()}


def html_pages(out: Path) -> int:
    """The pages a build wrote: every HTML file of its output."""
    return sum(1 for _ in out.rglob("*.html"))


def append(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.write_text(path.read_text(encoding="utf-8").rstrip("\n") + text + "\n", encoding="utf-8")


# A cold build's output by the SHA-256 of every input it read (incremental.digest_inputs): the
# same inputs build to the same bytes wherever the site is (tests/test_reproducible.py), so the
# tests here that make the same edit compare with one cold build of it.
_COLD: dict[str, dict[str, tuple[str, int]]] = {}


def assert_same_as_cold(root: Path, out: Path, tmp: Path) -> None:
    key = incremental.key_of(incremental.digest_inputs(root))
    if key not in _COLD:
        cold = tmp / f"cold-{len(list(tmp.glob('cold-*')))}"
        build(load_config(root), cold, cache=False)
        _COLD[key] = tree(cold)
    assert tree(out) == _COLD[key]


# The edits several tests make (each then compares with the cold build of the same inputs).
SENTENCE = " One sentence more, to be published."  # appended to AMENDMENT
PARAGRAPH = "\n\nA new closing paragraph."  # appended to content/index.md
FOOTER = "<p>Edited footer.</p></footer>"  # in place of base.html's </footer>


def refused_warm_as_cold(site: Path, tmp_path: Path) -> InputError:
    """Build SITE into tmp_path/out (built, cache warm) and, from scratch, into tmp_path/cold:
    both must be refused with the same problems, and out/ left as it was. The warm refusal."""
    out = tmp_path / "out"
    before = tree(out)
    with pytest.raises(InputError) as warm:
        build(load_config(site), out)
    with pytest.raises(InputError) as cold:
        build(load_config(site), tmp_path / "cold", cache=False)
    assert str(warm.value) == str(cold.value)
    assert tree(out) == before
    return warm.value


def _built_once(base: Path, built_site, fids: list[str]) -> tuple[Path, Path]:
    root = copy_site(base / "site", cache_from=built_site.root, families=fids)
    for rel, entry in NEW_ENTRIES.items():
        if rel.split("/")[1] in fids:
            (root / rel).write_text(entry, encoding="utf-8")
    build(load_config(root), base / "out")
    return root, base / "out"


# What is cached is the same for every family (tests/test_cache_differential.py edits every
# input of the demo, each family's), so most tests here run on the two families that build
# fastest, one of them with an amendment log; those about Canonic's own inputs (cells, Show
# Bibles, its pages) run on a site with it too. A cold build of the demo's Canonic alone costs
# several times both others together, and each test here compares with at least one cold build.
SMALL = ["nextchapter", "vignette"]
WITH_CANONIC = ["canonic", "chronicle", "nextchapter"]


@pytest.fixture(scope="module")
def built_once(tmp_path_factory, built_site) -> tuple[Path, Path]:
    """The site of SMALL with its cache, built once into site/../out (cache warm)."""
    return _built_once(tmp_path_factory.mktemp("incremental"), built_site, SMALL)


@pytest.fixture(scope="module")
def built_once_with_canonic(tmp_path_factory, built_site) -> tuple[Path, Path]:
    return _built_once(tmp_path_factory.mktemp("incremental-canonic"), built_site, WITH_CANONIC)


def _site_from(built: tuple[Path, Path], tmp_path: Path) -> Path:
    """A copy of a built site at site/ and out/: the site with its whole cache, the output with
    its modes, and the cache's record of which build out/ holds moved to the new out/. That is
    the state building the copy here would leave (builds do not depend on where they run:
    tests/test_reproducible.py), at the cost of a copy instead of a build per test."""
    src_root, src_out = built
    root, out = tmp_path / "site", tmp_path / "out"
    shutil.copytree(src_root, root, symlinks=True)
    shutil.copytree(src_out, out, symlinks=True)
    records_path = root / incremental.CACHE_DIR / "builds.json"
    records = json.loads(records_path.read_text(encoding="utf-8"))
    records = {str(out.resolve()): records[str(src_out.resolve())]}
    records_path.write_text(json.dumps(records, sort_keys=True, indent=1) + "\n", encoding="utf-8")
    return root


@pytest.fixture
def site(tmp_path, built_once) -> Path:
    """The SMALL site, built, with its cache (see _site_from)."""
    return _site_from(built_once, tmp_path)


@pytest.fixture
def canonic_site(tmp_path, built_once_with_canonic) -> Path:
    """The WITH_CANONIC site, built, with its cache (see _site_from)."""
    return _site_from(built_once_with_canonic, tmp_path)


class Counting:
    """Counts each family's load calls (a cached family is not read again): the installed
    families' and the declared ones' (families/declared, made per site from its configuration)."""

    def __init__(self, monkeypatch):
        from sitegen.families.declared import Declared

        self.calls: list[str] = []
        for fid, fam in list(FAMILIES.items()):
            monkeypatch.setitem(FAMILIES, fid, _Proxy(fam, self._wrap(fid, fam.load)))
        real = Declared.load

        def declared_load(family, *args, **kw):
            self.calls.append(family.id)
            return real(family, *args, **kw)
        monkeypatch.setattr(Declared, "load", declared_load)

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
    assert (result.pages, result.files) == (html_pages(out), len(before))
    assert tree(out) == before


def test_the_command_answers_a_no_op_and_rebuilds_after_an_edit(site, tmp_path):
    from conftest import run_cli

    out = tmp_path / "out"
    pages = html_pages(out)
    first = run_cli("build", "--root", str(site), "--out", str(out))
    assert first.returncode == 0 and first.stdout.startswith(f"up to date: {pages} pages"), first.stdout + first.stderr
    append(site, AMENDMENT, " A sentence added.")
    second = run_cli("build", "--root", str(site), "--out", str(out))
    assert second.returncode == 0 and second.stdout.startswith(f"built {pages} pages"), second.stdout + second.stderr


def test_an_output_edited_by_hand_is_rebuilt_not_trusted(site, tmp_path):
    out = tmp_path / "out"
    before = tree(out)
    (out / "index.html").write_text("defaced", encoding="utf-8")
    (out / "stray.html").write_text("not ours", encoding="utf-8")  # refused without --clean (tests/test_output_safety.py)
    result = build(load_config(site), out, clean=True)
    assert not result.up_to_date
    assert tree(out) == before


def test_an_edited_amendment_text_loads_no_family_and_equals_a_cold_build(site, tmp_path, monkeypatch):
    """A family is given its log's front matter, not its text: editing an entry's text loads,
    computes and renders no family again, and the page, the feeds and the manifest show the text
    as it is now."""
    counting = Counting(monkeypatch)
    append(site, AMENDMENT, SENTENCE)
    build(load_config(site), tmp_path / "out")
    assert counting.calls == []
    out = tmp_path / "out"
    assert SENTENCE.strip() in (out / AMENDMENTS_PAGE).read_text(encoding="utf-8")
    assert SENTENCE.strip() in (out / "feed.xml").read_text(encoding="utf-8")
    sha = hashlib.sha256((site / AMENDMENT).read_bytes()).hexdigest()
    assert json.loads((out / "manifest.json").read_text(encoding="utf-8"))["sources"][AMENDMENT] == sha
    assert sha in (out / AMENDMENTS_PAGE).read_text(encoding="utf-8")  # the page lists each entry's file by its hash
    monkeypatch.undo()
    assert_same_as_cold(site, out, tmp_path)


def test_a_rebuild_after_an_entry_text_edit_renders_only_the_pages_that_show_the_log(site, tmp_path, monkeypatch):
    """Only the log's page is made again (from the small entry of the pages that show the log);
    every other page of its family, and its tables, are taken from the previous output."""
    out = tmp_path / "out"
    append(site, AMENDMENT, SENTENCE)
    making = Making(monkeypatch)
    build(load_config(site), out)
    from sitegen.build import doc_output_path

    authored = {doc_output_path(p.relative_to(site).as_posix()) for p in (site / "content").rglob("*.md")}  # written every build
    family_pages = [rel for rel in making.written if rel.startswith("vignette/") and rel.endswith(".html") and rel not in authored]
    assert family_pages == [AMENDMENTS_PAGE]
    assert making.tables == [] and making.archives == ["vignette"]  # its raw/ copy of the entry changed
    monkeypatch.undo()
    assert_same_as_cold(site, out, tmp_path)


@pytest.mark.parametrize("text, expected", [
    ("FILL IN: what changed.", "the entry's own text, not the scaffold's placeholder"),
    ("", "the entry's text after the front matter"),
])
def test_an_entry_text_the_log_rules_refuse_is_refused_warm_as_it_is_cold(site, tmp_path, text, expected):
    """The rules on an entry's text are checked on every build, its family's result cached or not."""
    path = site / AMENDMENT
    head, _, _body = path.read_text(encoding="utf-8").partition("\n---\n")
    path.write_text(f"{head}\n---\n\n{text}\n" if text else f"{head}\n---\n", encoding="utf-8")
    refused = refused_warm_as_cold(site, tmp_path)
    assert [(p.file, p.expected) for p in refused.problems] == [(AMENDMENT, expected)]


def test_an_edited_published_entry_is_refused_warm_as_it_is_cold(canonic_site, tmp_path):
    """A published entry of ChronicleBench's log is recorded by its text's fingerprint: an edit
    is refused with the family's result cached (keyed on the front matter) as without it."""
    append(canonic_site, "content/chronicle/amendments/A2.md", "\nA sentence added after it was published.")
    [p] = refused_warm_as_cold(canonic_site, tmp_path).problems
    assert p.file == "content/chronicle/amendments/A2.md" and "fingerprint" in p.expected and "entry-a2" in p.expected


def retitle(root: Path) -> None:
    """Edit AMENDMENT's front matter (its title)."""
    path = root / AMENDMENT
    text = path.read_text(encoding="utf-8")
    assert 'title: "A new entry"' in text
    path.write_text(text.replace('title: "A new entry"', 'title: "A renamed entry"'), encoding="utf-8")


def test_an_edited_amendment_front_matter_reloads_only_its_family(site, tmp_path, monkeypatch):
    counting = Counting(monkeypatch)
    retitle(site)
    build(load_config(site), tmp_path / "out")
    assert counting.calls == ["vignette"]
    assert "A renamed entry" in (tmp_path / "out" / AMENDMENTS_PAGE).read_text(encoding="utf-8")
    monkeypatch.undo()
    assert_same_as_cold(site, tmp_path / "out", tmp_path)


def test_an_edit_of_the_sites_own_settings_computes_no_family(site, tmp_path, monkeypatch):
    """What the paper requires is the site's setting, not a family's input: a rebuild after
    editing it loads no family, and its output is the cold build's. (A setting the pages show,
    such as the title, renders them again, which computes their families afresh: page contexts
    are not cached.)"""
    counting = Counting(monkeypatch)
    config = site / "pyproject.toml"
    text = config.read_text(encoding="utf-8")
    assert '  "canonic.task-set",\n' in text
    config.write_text(text.replace('  "canonic.task-set",\n', ""), encoding="utf-8")
    build(load_config(site), tmp_path / "out")
    assert counting.calls == []
    monkeypatch.undo()
    assert_same_as_cold(site, tmp_path / "out", tmp_path)


def test_a_changed_input_limit_loads_every_family_again(site, tmp_path, monkeypatch):
    """A limit is what a family's load is given: a family's key holds it."""
    counting = Counting(monkeypatch)
    config = site / "pyproject.toml"
    config.write_text(config.read_text(encoding="utf-8") + "\n[tool.sitegen.limits]\nmax_records = 9000000\n", encoding="utf-8")
    build(load_config(site), tmp_path / "out")
    assert sorted(counting.calls) == sorted(SMALL)


def test_a_changed_cell_rebuilds_to_the_cold_output(canonic_site, tmp_path):
    site = canonic_site
    out = tmp_path / "out"
    line, rec = find_cell_line(site, two_standard_scores)
    dim = next(iter(rec["judgments"][0]["anchors"]))

    def edit(r):
        r["judgments"][0]["anchors"][dim] = 0.25 if r["judgments"][0]["anchors"][dim] != 0.25 else 0.5
        r["judgments"][0].pop("weighted_score", None)

    rewrite_cell_line(site, line, edit)
    build(load_config(site), out)
    assert_same_as_cold(site, out, tmp_path)


def test_a_changed_template_and_page_each_rebuild_to_the_cold_output(site, tmp_path):
    out = tmp_path / "out"
    base = override_template(site, "base.html")
    base.write_text(base.read_text(encoding="utf-8").replace("</footer>", FOOTER, 1), encoding="utf-8")
    build(load_config(site), out)
    assert "Edited footer." in (out / "vignette/index.html").read_text(encoding="utf-8")
    assert_same_as_cold(site, out, tmp_path)

    append(site, "content/index.md", PARAGRAPH)
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
    assert "Edit two, saved while the build ran." in (out / AMENDMENTS_PAGE).read_text(encoding="utf-8")
    assert_same_as_cold(site, out, tmp_path)


def test_damaged_cache_entries_are_misses_not_errors(site, tmp_path):
    """Emptied, truncated, edited under an intact header, or filed under another key: every
    kind of entry (families, pages, figures) is then a miss, and the output is the cold one."""
    out = tmp_path / "out"
    entries = sorted((site / incremental.CACHE_DIR).glob("*/**/*.entry"))
    assert {p.relative_to(site / incremental.CACHE_DIR).parts[0] for p in entries} == {"families", "pages", "pages-log", "figures"}
    originals = [p.read_bytes() for p in entries]
    for i, p in enumerate(entries):
        data = originals[i]
        if i % 4 == 0:
            p.write_bytes(b"")
        elif i % 4 == 1:
            p.write_bytes(data[: len(data) // 2])
        elif i % 4 == 2:  # one byte of the payload changed, the header left as it was
            p.write_bytes(data[:-2] + bytes([data[-2] ^ 1]) + data[-1:])
        else:  # a sound entry, but written for another key
            p.write_bytes(originals[i - 1])
    append(site, "content/index.md", PARAGRAPH)
    build(load_config(site), out)
    assert_same_as_cold(site, out, tmp_path)


def test_an_edited_pages_entry_is_not_published(site, tmp_path):
    """A pages entry whose HTML was changed (its header's checksum then fails) is a miss."""
    out = tmp_path / "out"
    entries = sorted((site / incremental.CACHE_DIR / "pages" / "vignette").glob("*.entry"))
    assert entries and all(b"Vignette" in e.read_bytes() for e in entries)
    for entry in entries:  # whichever of them this build's key names
        entry.write_bytes(entry.read_bytes().replace(b"Vignette", b"Wignette"))
    append(site, "content/index.md", PARAGRAPH)
    build(load_config(site), out)
    assert b"Wignette" not in (out / "vignette/index.html").read_bytes()
    assert_same_as_cold(site, out, tmp_path)


def test_an_edited_show_bible_is_refused_warm_as_it_is_cold(canonic_site, tmp_path):
    """Canonic's cached result was keyed on its data alone: with a warm cache, an edited Show
    Bible was published while its verification page said the recorded fingerprint matched."""
    append(canonic_site, "content/canonic/bibles/the-office.md", "\nA sentence added after the freeze.")
    assert "content/canonic/bibles/the-office.md" in str(refused_warm_as_cold(canonic_site, tmp_path))


def test_a_family_that_reads_outside_its_declared_inputs_fails_the_build(site, tmp_path, monkeypatch):
    """A read its declaration does not cover would escape its cache key: a bug in the family,
    refused by name even when the cache is not used."""
    from sitegen.load import read_markdown

    real = FAMILIES["nextchapter"].load

    def load(root, loaded, limits):
        read_markdown(root, root / "content/index.md", loaded, limits)
        return real(root, loaded, limits)

    monkeypatch.setitem(FAMILIES, "nextchapter", _Proxy(FAMILIES["nextchapter"], load))
    shutil.rmtree(site / incremental.CACHE_DIR / "families")  # so that the family is loaded
    for cache in (True, False):
        with pytest.raises(BuildError, match=r"the nextchapter family read content/index\.md, outside its declared inputs"):
            build(load_config(site), tmp_path / f"out-{cache}", cache=cache)


def test_a_freeze_record_naming_a_show_bible_outside_the_bibles_folder_is_a_problem(canonic_site, tmp_path):
    """Canonic reads the Show Bible its freeze record names: one outside its declared inputs is
    the record's problem, by JSON path, not a failed build."""
    site = canonic_site
    freeze_path = site / "data/canonic/freeze.json"
    freeze = json.loads(freeze_path.read_text(encoding="utf-8"))
    i = next(k for k, item in enumerate(freeze["items"]) if item["kind"] == "show-bible")
    freeze["items"][i]["path"] = "content/index.md"
    freeze_path.write_text(json.dumps(freeze, indent=1) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        build(load_config(site), tmp_path / "out")
    assert any(p.file == "data/canonic/freeze.json" and p.path == f"$.items[{i}].path" and "content/canonic/bibles/" in p.expected
               for p in exc.value.problems), str(exc.value)


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
            seen["linked"] = (staging / "nextchapter/index.html").stat().st_ino == (out / "nextchapter/index.html").stat().st_ino
            seen["copied"] = (staging / AMENDMENTS_PAGE).stat().st_ino != (out / AMENDMENTS_PAGE).stat().st_ino
            raise RuntimeError("stop before the swap")

    with pytest.raises(RuntimeError):
        build(load_config(site), out, on_stage=hook)
    assert seen == {"linked": True, "copied": True}
    assert tree(out) == before


class Making:
    """Which table files and archives a build makes, and which files it sends to be written,
    rather than takes from the previous output."""

    def __init__(self, monkeypatch):
        from sitegen import publish, site_index

        self.tables: list[str] = []
        self.archives: list[str] = []
        self.written: list[str] = []
        real_tables, real_archive, real_write = publish.table_files, site_index.archive, publish.Writer.write

        def write(writer, rel, data, text=None):
            self.written.append(rel)
            return real_write(writer, rel, data, text)
        monkeypatch.setattr(publish.Writer, "write", write)

        def table_files(table):
            self.tables.append(table.stem)
            return real_tables(table)

        def archive(out, files):
            self.archives.append(files[0][0].split("/")[0])  # every member of a family's archive is under its folder
            return real_archive(out, files)
        monkeypatch.setattr(publish, "table_files", table_files)
        monkeypatch.setattr(site_index, "archive", archive)


def test_files_made_from_an_unchanged_key_are_taken_from_the_previous_output(site, tmp_path, monkeypatch):
    """An amendment of one family (its front matter, which the family reads): the other
    family's tables and archive are linked from the output being replaced (same family key,
    same members), the edited family's are made again, and the result is the cold build's,
    modes too (a taken file someone made private)."""
    out = tmp_path / "out"
    retitle(site)
    making = Making(monkeypatch)
    inodes = {rel: (out / rel).stat().st_ino for rel in ("downloads/nextchapter.zip", "downloads/vignette.zip")}
    next(out.glob("nextchapter/**/*.csv")).chmod(0o600)
    build(load_config(site), out)
    assert making.tables and all(stem.startswith("vignette/") for stem in making.tables), making.tables
    assert making.archives == ["vignette"]
    pages = [rel for rel in making.written if rel.endswith(".html")]
    assert AMENDMENTS_PAGE in pages, pages
    assert "nextchapter/index.html" not in pages, pages  # (an authored page is written)
    assert (out / "downloads/nextchapter.zip").stat().st_ino == inodes["downloads/nextchapter.zip"]
    assert (out / "downloads/vignette.zip").stat().st_ino != inodes["downloads/vignette.zip"]
    assert_same_as_cold(site, out, tmp_path)


def test_a_previous_file_that_no_longer_holds_its_bytes_is_made_again(site, tmp_path, monkeypatch):
    """A table and a page edited by hand in the output, another table replaced by a symbolic
    link to a copy of its right bytes, and the archive edited: each is made again (never
    linked, never followed), and the rebuild is the cold build's."""
    out = tmp_path / "out"
    page = out / "nextchapter/index.html"
    page.write_bytes(page.read_bytes() + b"\n")
    csvs = sorted(p.relative_to(out).as_posix() for p in (out / "nextchapter").rglob("*.csv")
                  if (out / p.relative_to(out).with_suffix(".json")).exists())
    edited, linked = csvs[0], csvs[1]
    (out / edited).write_bytes((out / edited).read_bytes().replace(b"\n", b"\r\n", 1))
    outside = tmp_path / "outside.csv"
    outside.write_bytes((out / linked).read_bytes())
    (out / linked).unlink()
    (out / linked).symlink_to(outside)
    with open(out / "downloads/nextchapter.zip", "ab") as f:
        f.write(b"\0")
    append(site, AMENDMENT, SENTENCE)
    making = Making(monkeypatch)
    build(load_config(site), out)
    assert {edited[:-4], linked[:-4]} <= set(making.tables), making.tables
    assert "nextchapter" in making.archives and "nextchapter/index.html" in making.written
    assert not (out / linked).is_symlink() and outside.read_bytes() == (out / linked).read_bytes()
    assert_same_as_cold(site, out, tmp_path)


def test_nothing_is_taken_from_an_output_another_build_replaced(site, tmp_path, monkeypatch):
    """An output that a build without the cache replaced, from other inputs, is not the one the
    record describes (its manifest differs): nothing is taken from it."""
    out = tmp_path / "out"
    append(site, AMENDMENT, " Built without the cache.")
    build(load_config(site), out, cache=False)
    append(site, AMENDMENT, SENTENCE)
    making = Making(monkeypatch)
    build(load_config(site), out)
    assert any(stem.startswith("nextchapter/") for stem in making.tables) and "nextchapter" in making.archives
    assert_same_as_cold(site, out, tmp_path)


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


def test_the_registry_knows_each_familys_inputs_without_importing_it():
    """The registry declares each family's inputs, content folder and log check so the cache can
    key it, and a build check its log, unimported; it must say what the family package itself says, and every input it declares
    must lie where the build key looks (INPUT_PARTS)."""
    import importlib

    for fid, fam in FAMILIES.items():
        real = importlib.import_module(fam.module).FAMILY
        assert (fam.id, fam.inputs, fam.content_dir) == (real.id, real.inputs, real.content_dir) == (fid, real.inputs, real.content_dir)
        assert fam._log_check == getattr(real, "_log_check", None)  # run on every build, cached or not: declared here too
        assert all(p.split("/")[0] in INPUT_FOLDERS for p in fam.inputs), fam.inputs


def test_declared_inputs_match_folders_and_globs_segment_by_segment():
    inputs = ("data/canonic/", "content/canonic/bibles/*.md")
    assert incremental.covers(inputs, "data/canonic/sweep.json") and incremental.covers(inputs, "data/canonic/a/b.json")
    assert incremental.covers(inputs, "content/canonic/bibles/friends.md")
    assert not incremental.covers(inputs, "content/canonic/bibles/old/friends.md")  # * stops at a "/"
    assert not incremental.covers(inputs, "content/canonic/method.md")
    assert not incremental.covers(inputs, "data/canonic/../chronicle/cohort.json")
    assert not incremental.covers(inputs, "data/canonical/x.json")


def test_two_different_values_never_share_a_key():
    def f():
        return None

    name = f"{f.__module__}.{f.__qualname__}"
    values = [[1, 2], (1, 2), {"a": f}, {"a": name}, "Decimal:1", 1, 1.0, True, "1", None, "null", {"1": 1}, [[1, 2]],
              {"d": [["a", 1]]}, {"a": 1}, b"x", "x", float("nan"), "NaN"]
    keys = [incremental.key_of(v) for v in values]
    assert len(set(keys)) == len(values)
    assert incremental.key_of("a", "b") != incremental.key_of("a\0b") != incremental.key_of(["a", "b"])
    assert incremental.key_of({"a": 1, "b": 2}) == incremental.key_of({"b": 2, "a": 1})
    with pytest.raises(TypeError):
        incremental.key_of({1: "a"})  # would share a key with {"1": "a"}


def test_an_entry_holds_data_only_and_round_trips_exactly():
    """An entry is JSON: it can name no class but sitegen's result classes, and no drawing
    function outside a family package."""
    from sitegen.families import Figure, Outputs, Page, Table

    o = Outputs(pages=[Page("a/index.html", "t.html", "A", {})], tables=[Table("a/t", "T", ["x"], [(1, None, 2.5, "s", True)], {"f": "0"}, "c")],
                figures=[Figure("a/f", [{"k": 1.0}], incremental.DrawRef("sitegen.families.canonic.figure", "draw_transfer"), "alt", {}, "c", "k")],
                fragments={"s": ("t.html", {})}, summary={"t": (1, 2), "big": 2 ** 70, "inf": float("inf")}, files={"f.xml": b"\x00\xff"})
    back = incremental.decode(incremental.encode(o))
    # a table's rows come back as a function that makes them, when the table is written
    assert isinstance(back.tables[0].rows, incremental.CachedRows) and back.tables[0].rows() == o.tables[0].rows
    assert replace(back, tables=[replace(t, rows=t.rows()) for t in back.tables]) == o
    assert incremental.decode(incremental.encode(back)) == back  # and go back into an entry as they were
    with pytest.raises(BuildError, match="--no-cache"):
        incremental.CachedRows('{"t": [1]}')()
    # rows are tagged as a whole only when every one is a tuple of plain values
    for rows in ([(1, "a"), (None, 2.5)], [()], [(1,), [2]], [(float("nan"),)], [(2 ** 70,)], [((1,),)], [{"k": (1,)}, {"k": 1.5}]):
        assert repr(incremental.decode(incremental.encode(rows))) == repr(rows)
    assert incremental.decode(incremental.encode([(1, "a")])) != [[1, "a"]]
    with pytest.raises(TypeError):
        incremental.encode({"x": object()})
    with pytest.raises(ValueError):
        incremental.decode(b'{"r": [[1, {"t": [2]}]]}')
    forged = incremental.encode(incremental.DrawRef("sitegen.families.canonic.figure", "draw_transfer")).replace(b"sitegen.families.canonic.figure", b"os")
    with pytest.raises(ValueError):
        incremental.decode(forged)
    with pytest.raises(ValueError, match="not a function defined in"):
        incremental.DrawRef("sitegen.families.canonic.figure", "annotations")([])  # imported there, not defined


def test_a_warm_build_into_a_new_output_writes_the_cached_tables_as_a_cold_build_does(site, tmp_path, monkeypatch):
    """Nothing to take: every family's tables are written from the rows the cache holds."""
    counting = Counting(monkeypatch)
    making = Making(monkeypatch)
    out = tmp_path / "elsewhere"
    build(load_config(site), out)
    assert counting.calls == [] and making.tables
    monkeypatch.undo()
    assert_same_as_cold(site, out, tmp_path)


def test_the_retired_output_is_deleted_in_the_background(site, tmp_path):
    """After the swap the previous output is renamed aside and deleted by a detached process:
    nothing of it is left beside the output for long, and nothing of it is ever restored."""
    import time

    out = tmp_path / "out"
    append(site, AMENDMENT, SENTENCE)
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


def test_a_changed_template_renders_cached_families_from_a_fresh_computation(site, tmp_path, monkeypatch):
    """Page contexts are not cached: a template edit loads and computes each cached family
    again to render its pages, and the output is the cold build's."""
    out = tmp_path / "out"
    base = override_template(site, "base.html")
    base.write_text(base.read_text(encoding="utf-8").replace("</footer>", FOOTER, 1), encoding="utf-8")
    counting = Counting(monkeypatch)
    build(load_config(site), out)
    assert sorted(counting.calls) == SMALL  # each read once, for its pages
    monkeypatch.undo()
    assert_same_as_cold(site, out, tmp_path)


def test_a_rebuild_from_the_cache_imports_no_family_it_does_not_compute(canonic_site, tmp_path):
    """An amendment rebuild reads Canonic's and NextChapterBench's results from the cache
    without importing their packages (nor DuckDB)."""
    site = canonic_site
    import subprocess
    import sys

    append(site, CHRONICLE_AMENDMENT, " Imports checked.")
    probe = ("import sys; from pathlib import Path; from sitegen.build import build; from sitegen.config import load_config; "
             f"build(load_config({str(site)!r}), Path({str(tmp_path / 'out')!r})); "
             "import json; print(json.dumps(sorted(m for m in sys.modules if m.startswith(('sitegen.families.', 'duckdb')))))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=COMMAND_SECONDS)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert [m for m in loaded if m.startswith(("sitegen.families.canonic", "sitegen.families.nextchapter", "duckdb"))] == []
    assert "sitegen.families.chronicle" in loaded


def test_no_cache_neither_reads_nor_writes_the_cache(site, tmp_path):
    """`--no-cache` used to draw from .sitegen-cache/figures: a cached SVG with a swapped label
    was published, inline in its page too. A forged entry (its checksum made to match) must
    not be read, and nothing under .sitegen-cache may change."""
    from conftest import run_cli

    cache = site / incremental.CACHE_DIR
    entry = max((cache / "figures").glob("*.entry"), key=lambda p: p.stat().st_size)
    key = entry.name.removesuffix(incremental.ENTRY_SUFFIX)
    svg, png, spec = incremental.read_entry(entry, "figures", key)
    label = next(t for t in re.findall(rb">([A-Za-z][^<>]{3,})</text>", svg))
    incremental.write_entry(entry, "figures", key, [svg.replace(label, b"FORGED LABEL"), png, spec])
    before = {p.relative_to(cache).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns) for p in cache.rglob("*") if p.is_file()}
    done = run_cli("build", "--root", str(site), "--out", str(tmp_path / "cold"), "--no-cache")
    assert done.returncode == 0, done.stderr
    assert not any(b"FORGED LABEL" in p.read_bytes() for p in (tmp_path / "cold").rglob("*") if p.is_file())
    assert tree(tmp_path / "cold") == tree(tmp_path / "out")
    after = {p.relative_to(cache).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns) for p in cache.rglob("*") if p.is_file()}
    assert after == before


def test_a_cache_path_that_is_a_file_is_built_without_and_said_so(site, tmp_path):
    """A .sitegen-cache that is not a folder: --no-cache builds as usual, a cached build builds
    without the cache and says so in one line on stderr; the file is left as it was."""
    from conftest import run_cli

    shutil.rmtree(site / incremental.CACHE_DIR)
    (site / incremental.CACHE_DIR).write_text("not a folder\n", encoding="utf-8")
    cold = run_cli("build", "--root", str(site), "--out", str(tmp_path / "cold"), "--no-cache")
    assert cold.returncode == 0 and cold.stderr == "", cold.stderr
    warm = run_cli("build", "--root", str(site), "--out", str(tmp_path / "warm"))
    assert warm.returncode == 0, warm.stderr
    assert warm.stderr == "warning: the build cache .sitegen-cache/ is not a directory: built without it\n"
    assert warm.stdout.startswith(f"built {html_pages(tmp_path / 'cold')} pages")
    assert tree(tmp_path / "warm") == tree(tmp_path / "cold") == tree(tmp_path / "out")
    assert (site / incremental.CACHE_DIR).read_text(encoding="utf-8") == "not a folder\n"


def test_validate_reads_the_cache_never_writes_it_and_says_when_it_cannot(site, tmp_path):
    """`sitegen validate` takes what the cache holds for unchanged inputs, as a build does, and
    checks the rest; it adds no entry. Its problems are a cold validation's
    (tests/cache_differential.py compares them for every input). A cache it cannot read is one
    warning; --no-cache reads none."""
    from conftest import run_cli

    cache, entry = site / incremental.CACHE_DIR, site / AMENDMENT
    published = entry.read_bytes()
    entry.write_bytes(published.replace(b"kind: amendment", b"kind: no-such-kind"))  # an entry the log refuses
    before = tree(cache)
    warm = run_cli("validate", "--root", str(site))
    cold = run_cli("validate", "--root", str(site), "--no-cache")
    assert warm.returncode == cold.returncode == 1, warm.stdout + warm.stderr
    assert AMENDMENT in warm.stderr and warm.stderr == cold.stderr
    assert tree(cache) == before, "validate wrote into the cache"
    shutil.rmtree(cache)
    cache.write_text("not a folder\n", encoding="utf-8")
    entry.write_bytes(published)
    checked = run_cli("validate", "--root", str(site))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stderr == "warning: the build cache .sitegen-cache/ is not a directory: checked without it\n"
    assert run_cli("validate", "--root", str(site), "--no-cache").stderr == ""


def test_a_cache_save_failure_after_the_swap_is_a_warning_not_a_failure(site, tmp_path):
    """The swap has published the site: a cache that cannot be saved then must not make the
    build say that nothing was published, nor exit 1."""
    from conftest import run_cli

    out = tmp_path / "out"
    shutil.rmtree(site / incremental.CACHE_DIR / "families")
    (site / incremental.CACHE_DIR / "families").write_text("in the way\n", encoding="utf-8")
    append(site, AMENDMENT, SENTENCE)
    done = run_cli("build", "--root", str(site), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("warning: published; the build cache could not be saved: ") and done.stderr.count("\n") == 1, done.stderr
    assert "nothing was published" not in done.stderr
    assert SENTENCE.strip() in (out / AMENDMENTS_PAGE).read_text(encoding="utf-8")
    assert_same_as_cold(site, out, tmp_path)


def test_a_build_that_another_swapped_out_during_its_save_is_not_up_to_date(site, tmp_path, monkeypatch):
    """A race: an older build commits its output while a newer one saves its cache. The record
    used to hash whatever manifest was on disk (the older build's), so the next build said
    `up to date` over an output that lacked the edit."""
    out = tmp_path / "out"
    older = tmp_path / "older"
    shutil.copytree(out, older)  # the output of the inputs before the edit
    append(site, AMENDMENT, " The newer build's edit.")
    real_save = incremental.Cache.save

    def save_while_another_build_commits(self):
        shutil.rmtree(out)
        shutil.copytree(older, out)
        real_save(self)

    monkeypatch.setattr(incremental.Cache, "save", save_while_another_build_commits)
    build(load_config(site), out)
    monkeypatch.undo()
    assert "The newer build's edit." not in (out / AMENDMENTS_PAGE).read_text(encoding="utf-8")
    again = build(load_config(site), out)
    assert not again.up_to_date
    assert "The newer build's edit." in (out / AMENDMENTS_PAGE).read_text(encoding="utf-8")


def test_an_output_whose_modes_were_changed_is_rebuilt(site, tmp_path):
    """The no-op check compared bytes only: a `chmod 600` page stayed 600."""
    out = tmp_path / "out"
    before = tree(out)
    (out / "index.html").chmod(0o600)
    assert not build(load_config(site), out).up_to_date
    assert tree(out) == before
    (out / "vignette").chmod(0o700)
    assert not build(load_config(site), out).up_to_date
    assert stat.S_IMODE((out / "vignette").stat().st_mode) == 0o755 and tree(out) == before


def test_saving_lists_each_cache_folder_once_whatever_the_number_of_entries(tmp_path, monkeypatch):
    """Saving used to list and stat a folder once per entry it wrote (1,000 authored pages: 5 s,
    3,000: 37 s). It lists each folder once, and keeps the newest entries."""
    cache = incremental.Cache(tmp_path)
    n = 1500
    for i in range(n):
        cache.put("pages/authored", f"{i:064x}", {f"p{i}/index.html": "<p>x</p>"}, keep=n)
    listed = []
    real = os.scandir
    monkeypatch.setattr(os, "scandir", lambda path: (listed.append(path), real(path))[1])
    cache.save()
    assert len(listed) == 1
    folder = tmp_path / incremental.CACHE_DIR / "pages" / "authored"
    assert len(list(folder.iterdir())) == n
    monkeypatch.undo()
    for entry in folder.iterdir():  # older than what comes next, whatever the clock's resolution
        os.utime(entry, ns=(10**18, 10**18))
    for i in range(3):
        cache.put("pages/authored", f"new{i}", {"x": "y"}, keep=3)
    cache.save()
    assert sorted(p.name for p in folder.iterdir()) == [f"new{i}{incremental.ENTRY_SUFFIX}" for i in range(3)]


def test_a_figure_worker_imports_the_drawing_code_alone():
    """A figure is drawn in a worker process that unpickles its drawing function, importing that
    function's module and so its family's package: the package must not pull in the family's
    models, validation, pages or DuckDB (about half a second per worker for Canonic)."""
    import subprocess
    import sys

    modules = ["sitegen.families.canonic.figure", "sitegen.families.chronicle.figure",
               "sitegen.families.nextchapter.figure", "sitegen.families.declared.figure"]
    probe = (f"import sys, json; [__import__(m) for m in {modules!r}]; "
             "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('sitegen.families.', 'duckdb', 'pydantic')))))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=COMMAND_SECONDS)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    heavy = [m for m in loaded if m.rsplit(".", 1)[-1] in ("models", "validate", "compute", "pages", "store") or m.startswith(("duckdb", "pydantic"))]
    assert heavy == []


def test_a_family_whose_pages_outgrow_the_page_cache_renders_them_again_and_builds_as_cold(site, tmp_path, monkeypatch):
    """A family's rendered pages larger than PAGE_CACHE_BYTES are not kept (at 100x data
    Canonic's are 2.4 GB): a rebuild into a new output computes and renders the family again;
    one into the output made from the same key takes its pages from there, without computing
    it. Either output is the cold build's, byte for byte."""
    import sitegen.build as build_mod

    cache = site / incremental.CACHE_DIR
    shutil.rmtree(cache / "pages", ignore_errors=True)
    monkeypatch.setattr(build_mod, "PAGE_CACHE_BYTES", 1)
    out = tmp_path / "elsewhere"  # a new output: built, not up to date
    build(load_config(site), out)
    assert not list((cache / "pages").glob("nextchapter/*")) and list((cache / "pages").glob("authored/*"))
    append(site, AMENDMENT, " Rendered again.")
    counting = Counting(monkeypatch)
    build(load_config(site), tmp_path / "new")
    assert sorted(counting.calls) == ["nextchapter", "vignette"]
    counting.calls.clear()
    build(load_config(site), out)
    assert counting.calls == ["vignette"]
    monkeypatch.undo()
    assert_same_as_cold(site, out, tmp_path)
    assert_same_as_cold(site, tmp_path / "new", tmp_path)


def test_a_page_edited_by_hand_with_its_size_and_times_kept_is_rebuilt(site, tmp_path):
    """The no-op check trusts a file it wrote only while its identity holds (size, times, inode,
    mode): an edit that keeps the size and sets the modification time back still moves the
    change time, and the file is read and found changed."""
    import time

    out = tmp_path / "fresh"
    build(load_config(site), out)
    time.sleep(incremental.RACY_NS / 1e9 * 2)
    page = out / "index.html"
    st = page.stat()
    data = page.read_bytes()
    page.write_bytes(data.replace(b"<title>", b"<TITLE>", 1))
    os.utime(page, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert page.stat().st_size == st.st_size and page.stat().st_mtime_ns == st.st_mtime_ns
    assert not build(load_config(site), out).up_to_date
    assert page.read_bytes() == data


def test_a_no_op_reads_only_the_manifest_when_nothing_was_touched(site, tmp_path, monkeypatch):
    """What the last build wrote and nothing has changed since is known by its identity: a no-op
    hashes the manifest against the record, not the output's every file."""
    import time

    from sitegen import site_files

    out = tmp_path / "fresh"
    build(load_config(site), out)
    time.sleep(incremental.RACY_NS / 1e9 * 2)  # past the clock tick of the identities
    read: list[str] = []
    real = incremental.sha256_file
    def hashing(path):
        if Path(path).is_relative_to(out):  # not the inputs, which every build hashes for its key
            read.append(Path(path).relative_to(out).as_posix())
        return real(path)

    monkeypatch.setattr(incremental, "sha256_file", hashing)
    monkeypatch.setattr(site_files, "file_checks", lambda *a: pytest.fail("every file read again"))
    assert build(load_config(site), out).up_to_date
    # Files written within a clock tick of the identities being taken (the last few: the
    # downloads page, SHA256SUMS) are hashed as racy, as many as the machine's speed puts there.
    index = incremental._records(site)[str(out.resolve())]["stat"]
    racy = {rel for rel, known in index["files"].items() if not incremental._settled(index, known)}
    assert "manifest.json" in read and set(read) <= racy | {"manifest.json"} and len(read) <= 5, read


@pytest.mark.parametrize("linked", ["families", "pages/vignette"])
def test_a_symbolic_link_inside_the_cache_is_built_without_the_cache_and_nothing_it_points_to_is_deleted(site, tmp_path, linked):
    """A folder of .sitegen-cache that is a symbolic link to a folder outside the repository:
    saving the cache used to prune entries there (all but the newest few *.entry files of each
    kind's folder), deleting files outside the repository. The cache is not used at all, with a
    warning, as for a cache folder that cannot be used; whatever the link points to is left
    as it was, and the output is the cold build's."""
    from conftest import run_cli

    cache, outside = site / incremental.CACHE_DIR, tmp_path / "outside"
    shutil.move(cache / linked, outside)
    for kind in ("vignette", "nextchapter", ""):  # entries by the name a kind's folder there would prune
        (outside / kind).mkdir(exist_ok=True)
        for i in range(10):
            (outside / kind / f"{i:064x}{incremental.ENTRY_SUFFIX}").write_text(f"someone else's {i}\n", encoding="utf-8")
    (cache / linked).symlink_to(outside, target_is_directory=True)
    before = hash_tree(outside)
    # every family computed and its pages rendered again: their entries saved, their folders pruned
    config = site / "pyproject.toml"
    config.write_text(config.read_text(encoding="utf-8") + "\n[tool.sitegen.limits]\nmax_records = 9000000\n", encoding="utf-8")
    out = tmp_path / "out"
    done = run_cli("build", "--root", str(site), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert hash_tree(outside) == before, "the build wrote or deleted files outside the repository"
    assert done.stderr == f"warning: the build cache .sitegen-cache/ holds a symbolic link, {linked}: built without it\n"
    assert (cache / linked).is_symlink()
    assert_same_as_cold(site, out, tmp_path)
    checked = run_cli("validate", "--root", str(site))
    assert checked.returncode == 0 and checked.stderr == (f"warning: the build cache .sitegen-cache/ holds a symbolic link, "
                                                          f"{linked}: checked without it\n"), checked.stderr


def test_pruning_deletes_only_regular_files_the_cache_wrote(tmp_path):
    """Of a kind's folder, prune deletes only entries the cache wrote (a regular file whose
    header names the kind and the key its name holds): not a symbolic link, nor what it points
    to, nor a file merely named like an entry."""
    cache = incremental.Cache(tmp_path)
    folder = tmp_path / incremental.CACHE_DIR / "pages" / "authored"
    for i in range(4):
        cache.put("pages/authored", f"{i:064x}", {"x": str(i)}, keep=2)
    cache.save()
    victim = tmp_path / "victim.txt"
    victim.write_text("outside the cache\n", encoding="utf-8")
    (folder / f"{'a' * 64}{incremental.ENTRY_SUFFIX}").symlink_to(victim)
    (folder / f"{'b' * 64}{incremental.ENTRY_SUFFIX}").write_text("not an entry\n", encoding="utf-8")
    for p in folder.iterdir():  # older than what comes next
        os.utime(p, ns=(10**18, 10**18), follow_symlinks=False)
    cache.put("pages/authored", "c" * 64, {"x": "new"}, keep=1)
    cache.save()
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"{k}{incremental.ENTRY_SUFFIX}" for k in ("a" * 64, "b" * 64, "c" * 64))
    assert victim.read_text(encoding="utf-8") == "outside the cache\n"
