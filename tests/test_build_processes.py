"""The processes a build works in besides its own, and what they must not change.

Files go to disk through a writer process (sitegen/disk_writer.py), which reports their hashes
every publish.SYNC_EVERY files and whenever the build asks. A family of many pages is rendered
half by a fork of the build (sitegen/forked.py). Their pages, the cache entry of them and the
build's failures are those of one process. The demo's largest family has 478 pages, under
forked.FORK_PAGES: these builds lower it so that the demo's Canonic pages are split."""

from __future__ import annotations

import os

import pytest

from sitegen import build as build_mod
from sitegen import disk_writer, forked, publish
from sitegen.build import build
from sitegen.config import load_config
from sitegen.errors import BuildError, InputError, Problem

from conftest import copy_site, hash_tree, leftovers_beside


@pytest.fixture(scope="module")
def canonic(tmp_path_factory, built_site):
    """A site of the demo's Canonic alone and its output built in one process, from scratch."""
    base = tmp_path_factory.mktemp("forked")
    root = copy_site(base / "site", families=["canonic"])
    build(load_config(root), base / "one", cache=False)
    return root, hash_tree(base / "one")


@pytest.fixture
def forking(monkeypatch):
    """Every family of 10 pages or more split; the number of forks made."""
    made = []
    real = forked.Fork.__init__

    def init(self, work):
        made.append(os.getpid())
        real(self, work)

    monkeypatch.setattr(forked, "FORK_PAGES", 10)
    monkeypatch.setattr(forked, "FORK_RSS_BYTES", 2**62)  # a test worker's memory grows over a run
    monkeypatch.setattr(forked.Fork, "__init__", init)
    return made


def test_pages_rendered_half_in_a_fork_are_byte_identical_and_cached_whole(canonic, forking, tmp_path):
    root, one_process = canonic
    site = copy_site(tmp_path / "site", families=["canonic"])
    build(load_config(site), tmp_path / "split", cache=False)
    assert forking, "no family was split"
    assert hash_tree(tmp_path / "split") == one_process

    # with the cache: the pages both processes rendered go into one entry, which the next
    # build (a new output folder, nothing changed) publishes as they were
    build(load_config(site), tmp_path / "first")
    assert hash_tree(tmp_path / "first") == one_process
    forks = len(forking)
    build(load_config(site), tmp_path / "second")
    assert len(forking) == forks, "the pages were rendered again instead of read from the cache"
    assert hash_tree(tmp_path / "second") == one_process


def _in_the_fork(monkeypatch, failure):
    """Make every page the fork renders fail by `failure()`; the build's own pages render."""
    build_pid = os.getpid()
    real = build_mod._page_html

    def page_html(env, site, p):
        if os.getpid() != build_pid:
            failure(p)
        return real(env, site, p)

    monkeypatch.setattr(build_mod, "_page_html", page_html)


def test_a_problem_found_in_the_fork_is_reported_as_the_build_would(canonic, forking, monkeypatch, tmp_path):
    root, _ = canonic

    def bad_number(p):
        raise InputError([Problem("data/canonic/cells.jsonl", 7, "$.judgments[0]", "a finite number", f"nan on {p.path}")])

    _in_the_fork(monkeypatch, bad_number)
    out = tmp_path / "out"
    with pytest.raises(InputError) as exc:
        build(load_config(root), out, cache=False)
    (problem,) = exc.value.problems
    assert problem.file == "data/canonic/cells.jsonl" and problem.line == 7 and problem.found.startswith("nan on canonic/")
    assert not out.exists() and leftovers_beside(out) == []


def test_a_bug_in_the_fork_keeps_its_type_and_its_traceback(canonic, forking, monkeypatch, tmp_path):
    root, _ = canonic

    def bug(p):
        raise KeyError("judge_name")

    _in_the_fork(monkeypatch, bug)
    with pytest.raises(KeyError) as exc:
        build(load_config(root), tmp_path / "out", cache=False)
    notes = "\n".join(getattr(exc.value, "__notes__", []))
    assert "in the process rendering part of the pages" in notes and "in bug" in notes  # where it was raised


def test_a_fork_that_dies_fails_the_build(canonic, forking, monkeypatch, tmp_path):
    root, _ = canonic
    _in_the_fork(monkeypatch, lambda p: os._exit(3))
    out = tmp_path / "out"
    with pytest.raises(BuildError, match=r"the process rendering part of the pages ended unexpectedly \(exit status 3\)"):
        build(load_config(root), out, cache=False)
    assert not out.exists() and leftovers_beside(out) == []


def test_no_fork_for_a_small_family_or_a_large_build(monkeypatch):
    monkeypatch.setattr(forked, "FORK_RSS_BYTES", 2**62)
    assert not forked.worth_forking(forked.FORK_PAGES - 1)
    assert forked.worth_forking(forked.FORK_PAGES)
    monkeypatch.setattr(forked, "FORK_RSS_BYTES", 1)  # a build holding more than the bound
    assert not forked.worth_forking(10**6)


def test_hashes_reported_every_few_files_and_files_streamed_give_the_same_site(canonic, monkeypatch, tmp_path):
    """Every 7 files the writer reports, and every file of 1,000 bytes or more is checked by
    the build and streamed to disk (what the downloads page at 1000x data is)."""
    root, one_process = canonic
    monkeypatch.setattr(publish, "SYNC_EVERY", 7)
    monkeypatch.setattr(disk_writer, "STREAM_BYTES", 1000)
    result = build(load_config(root), tmp_path / "out", cache=False)
    assert hash_tree(tmp_path / "out") == one_process and result.files == len(one_process)
