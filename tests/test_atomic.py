"""Atomic publication: a build that fails anywhere, or is killed, leaves the previous output
exactly as it was (its manifest.json and every file's SHA-256), and leaves no staging or
retired directory behind, or the next build removes it.

The previous output here is a real build of slightly different inputs (its home page says
"previous edition"), so a build that wrongly got swapped in would change its bytes.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sitegen import disk_writer, publish
from sitegen.build import build
from sitegen.config import load_config
from sitegen.errors import BuildError, InputError
from sitegen.site_files import file_checks

from conftest import (CELLS_REL, COMMAND_SECONDS, copy_site, find_cell_line, hash_tree, leftovers_beside, read_sweep,
                      rewrite_cell_line, run_cli, two_standard_scores, write_sweep)

# Every stage build() reports through on_stage, written out here rather than imported so that a
# renamed or dropped stage fails this file (tests/test_build.py checks the order).
STAGES = ["load", "validate", "store", "compute", "render", "write", "figures", "index", "manifest", "verify", "swap"]


class Injected(Exception):
    """The failure a test injects into a build."""


def break_one_cell(root: Path) -> int:
    line, rec = find_cell_line(root, two_standard_scores)
    dim = next(iter(rec["judgments"][0]["anchors"]))

    def edit(r):
        r["judgments"][0]["anchors"][dim] = 0.3
        r["judgments"][0].pop("weighted_score", None)

    rewrite_cell_line(root, line, edit)
    return line


# The builds here publish Canonic alone: what is tested is how any build publishes or fails,
# and the failures injected into its inputs are Canonic's (a cell, the sweep); a site of the
# whole demo would only make every build here several times slower.
FAMILIES = ["canonic"]


@pytest.fixture(scope="module")
def sites(tmp_path_factory, built_site) -> dict[str, Path]:
    """'root': the site inputs the failing builds read (with a warm cache);
    'previous': a real build of an earlier edition of them, copied per test by `previous`."""
    base = tmp_path_factory.mktemp("atomic")
    earlier = copy_site(base / "earlier", cache_from=built_site.root, families=FAMILIES)
    home = earlier / "content" / "index.md"
    home.write_text(home.read_text(encoding="utf-8").rstrip("\n") + "\n\nThe previous edition.\n", encoding="utf-8")
    build(load_config(earlier), base / "previous")
    root = copy_site(base / "site", cache_from=built_site.root, families=FAMILIES)
    build(load_config(root), base / "warm")  # its cache filled for these inputs (pages, the home page's)
    return {"root": root, "previous": base / "previous"}


@pytest.fixture
def previous(sites, tmp_path) -> tuple[Path, dict[str, str]]:
    """A copy of the previous output at tmp_path/out, and the SHA-256 of each of its files."""
    out = tmp_path / "out"
    shutil.copytree(sites["previous"], out)
    return out, hash_tree(out)


def assert_untouched(out: Path, before: dict[str, str]) -> None:
    assert hash_tree(out) == before
    manifest = json.loads((out / "manifest.json").read_bytes())
    assert file_checks(out, manifest["files"]) == []  # still a coherent site, not just the same bytes
    assert leftovers_beside(out) == []


def test_a_build_that_succeeds_does_change_the_previous_output(sites, previous):
    """The premise of every test below: had a failing build been swapped in, it would show."""
    out, before = previous
    build(load_config(sites["root"]), out)
    after = hash_tree(out)
    assert after["index.html"] != before["index.html"] and after["manifest.json"] != before["manifest.json"]


# --------------------------------------------------------------------------- a failure at each stage


@pytest.mark.parametrize("stage", STAGES)
def test_failure_injected_at_any_stage_leaves_previous_output_untouched(sites, previous, stage):
    out, before = previous
    seen: list[str] = []

    def hook(name: str) -> None:
        seen.append(name)
        if name == stage:
            raise Injected(stage)

    with pytest.raises(Injected):
        build(load_config(sites["root"]), out, on_stage=hook)
    assert seen[-1] == stage  # the failure happened where it was meant to
    assert_untouched(out, before)


# A staged file may be a hard link to the previous output's identical file (publish.py), which
# the build never opens for writing; so a tampering gives the staged path new bytes in a new
# file, as a torn or stray write by the build itself would, rather than editing it in place.
def _replace(path: Path, data: bytes) -> None:
    path.unlink()
    path.write_bytes(data)


def tamper_flip_a_byte(staging: Path) -> str:
    page = staging / "index.html"
    data = bytearray(page.read_bytes())
    data[len(data) // 2] ^= 0x01
    _replace(page, bytes(data))
    return "index.html: SHA-256"


def tamper_truncate(staging: Path) -> str:
    """A torn write: the file holds only its first half."""
    page = staging / "canonic" / "index.html"
    _replace(page, page.read_bytes()[: page.stat().st_size // 2])
    return "canonic/index.html: SHA-256"


def tamper_remove(staging: Path) -> str:
    (staging / "SHA256SUMS").unlink()
    return "SHA256SUMS: listed in manifest.json but missing"


def tamper_add(staging: Path) -> str:
    (staging / "canonic" / "stray.html").write_text("<p>not in the manifest", encoding="utf-8")
    return "canonic/stray.html: present but not listed"


def tamper_manifest(staging: Path) -> str:
    mf = staging / "manifest.json"
    _replace(mf, mf.read_bytes().replace(b'"families"', b'"familiez"', 1))
    return "manifest.json: the staged copy differs"


TAMPERINGS = [tamper_flip_a_byte, tamper_truncate, tamper_remove, tamper_add, tamper_manifest]


def test_verify_stage_refuses_a_staging_directory_that_differs_from_its_manifest(sites, previous):
    """Whatever happens to the staged files between writing and swapping is caught by
    re-hashing them: the error names every file concerned, and nothing is published. (All
    tamperings in one build, to keep the test short: each one's line must be in the error.)"""
    out, before = previous
    expected: list[str] = []

    def hook(name: str) -> None:
        if name == "verify":
            (staging,) = out.parent.glob(f"{publish.STAGING_PREFIX}out-*")
            expected.extend(tamper(staging) for tamper in TAMPERINGS)

    with pytest.raises(BuildError) as exc:
        build(load_config(sites["root"]), out, on_stage=hook)
    message = str(exc.value)
    assert len(expected) == len(TAMPERINGS)
    assert [e for e in expected if e not in message] == []
    assert len(message.splitlines()) == 1 + len(TAMPERINGS)  # nothing else was flagged
    assert_untouched(out, before)


@pytest.mark.parametrize("streamed", [False, True], ids=["whole", "streamed"])
def test_a_file_the_writer_process_cannot_create_fails_the_build_naming_it(sites, previous, monkeypatch, streamed):
    """The files go to disk in a process of their own: a failure there (here: the path is
    taken, as by anything else writing into the staging directory) is the build's failure,
    with the file named, and nothing is published. A large file is streamed to the writer
    (every file, here): the rest of it is read and dropped, and the failure is the same."""
    out, before = previous
    if streamed:
        monkeypatch.setattr(disk_writer, "STREAM_BYTES", 1)

    def hook(name: str) -> None:
        if name == "write":  # the pages are sent; SHA256SUMS is written last of all
            (staging,) = out.parent.glob(f"{publish.STAGING_PREFIX}out-*")
            (staging / "SHA256SUMS").write_text("placed by someone else\n", encoding="utf-8")

    with pytest.raises(FileExistsError) as exc:
        build(load_config(sites["root"]), out, on_stage=hook)
    assert exc.value.filename.endswith("/SHA256SUMS")
    assert_untouched(out, before)


def test_a_writer_process_that_dies_fails_the_build(sites, previous):
    out, before = previous

    def hook(name: str) -> None:
        if name == "write":
            (staging,) = out.parent.glob(f"{publish.STAGING_PREFIX}out-*")
            (pid,) = writers_of(staging, wait=0)
            os.kill(pid, signal.SIGKILL)

    with pytest.raises(BuildError, match=r"the process writing the staging directory ended unexpectedly \(exit status -9\)"):
        build(load_config(sites["root"]), out, on_stage=hook)
    assert_untouched(out, before)


def test_a_failed_rename_during_the_swap_puts_the_previous_output_back(sites, previous, monkeypatch):
    out, before = previous
    real_rename = Path.rename

    def rename(self: Path, target):
        if self.name.startswith(publish.STAGING_PREFIX):
            raise OSError(28, "No space left on device")  # after the old output was moved aside
        return real_rename(self, target)

    monkeypatch.setattr(Path, "rename", rename)
    with pytest.raises(OSError):
        build(load_config(sites["root"]), out)
    monkeypatch.undo()
    assert_untouched(out, before)


def test_a_build_killed_between_the_swaps_two_renames_is_recovered_by_the_next(sites, previous):
    """Killed after the old output was renamed aside and before the new one took its place:
    the next build puts the old output back first, so even if that build fails, it is there."""
    out, before = previous
    out.rename(out.parent / f"{publish.RETIRED_PREFIX}out-999999")
    (out.parent / f"{publish.STAGING_PREFIX}out-999999").mkdir()

    def hook(name: str) -> None:
        if name == "verify":
            raise Injected(name)

    with pytest.raises(Injected):
        build(load_config(sites["root"]), out, on_stage=hook)
    assert_untouched(out, before)


def test_invalid_input_into_a_new_out_dir_creates_nothing(sites, tmp_path):
    site = Path(shutil.copytree(sites["root"], tmp_path / "site"))
    break_one_cell(site)
    out = tmp_path / "fresh" / "out"
    with pytest.raises(InputError):
        build(load_config(site), out)
    assert not out.exists()
    assert not out.parent.exists() or leftovers_beside(out) == []


def test_stale_staging_dir_from_a_killed_build_is_cleaned_up(sites, tmp_path):
    out = tmp_path / "out"
    stale = tmp_path / ".sitegen-staging-out-999999"
    (stale / "canonic").mkdir(parents=True)
    (stale / "canonic" / "half.html").write_text("<p>half", encoding="utf-8")
    other = tmp_path / ".sitegen-staging-elsewhere-999999"  # another output's: not ours to remove
    other.mkdir()
    build(load_config(shutil.copytree(sites["root"], tmp_path / "site")), out)
    assert leftovers_beside(out) == [other.name]
    assert (out / "index.html").is_file()


# --------------------------------------------------------------------------- through the CLI


def test_invalid_input_exits_1_and_leaves_previous_output_untouched(sites, previous, tmp_path):
    out, before = previous
    root = copy_site(tmp_path / "site", cache_from=sites["root"])
    line = break_one_cell(root)
    r = run_cli("build", "--root", str(root), "--out", str(out))
    assert r.returncode == 1
    assert f"{CELLS_REL}:{line} $.judgments[0].anchors." in r.stderr and "Traceback" not in r.stderr
    assert_untouched(out, before)


def test_failure_in_the_middle_of_writing_leaves_previous_output_untouched(sites, previous, tmp_path):
    """A model name that reads like an aggregate field passes intake (it is a value, not a key)
    but the writer's last check refuses the page that would show it: the build fails while
    files are being written, and nothing of it may reach the output."""
    out, before = previous
    root = copy_site(tmp_path / "site", cache_from=sites["root"])
    sweep = read_sweep(root)
    sweep["models"][-1]["name"] = "Model total_score"
    write_sweep(root, sweep)
    r = run_cli("build", "--root", str(root), "--out", str(out))
    assert r.returncode == 1
    assert "total_score" in r.stderr and "Traceback" not in r.stderr
    assert_untouched(out, before)


# Runs `sitegen build` with build() wrapped so that an unexpected exception (a bug, not bad
# input) is raised as stage argv[1] begins; the rest of argv is the command line.
FAIL_AT_STAGE = """
import sys
import sitegen.build
from sitegen.cli import main

stage, args = sys.argv[1], sys.argv[2:]
real_build = sitegen.build.build

def build(config, out, on_stage, **kw):
    def hook(name):
        on_stage(name)
        if name == stage:
            raise RuntimeError("injected at " + name)
    return real_build(config, out, on_stage=hook, **kw)

sitegen.build.build = build
main(args, prog_name="sitegen")
"""


def run_failing_at(stage: str, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", FAIL_AT_STAGE, stage, "build", *args], capture_output=True,
                          text=True, env={**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})}, timeout=COMMAND_SECONDS)


@pytest.mark.parametrize("stage", ["compute", "write"])
def test_unexpected_exception_is_one_line_and_exit_1(sites, previous, stage):
    out, before = previous
    r = run_failing_at(stage, "--root", str(sites["root"]), "--out", str(out), env={"SITEGEN_DEBUG": ""})
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "RuntimeError" in lines[0] and f"injected at {stage}" in lines[0], r.stderr
    assert "SITEGEN_DEBUG" in lines[0]  # says how to get the traceback
    assert_untouched(out, before)


@pytest.mark.parametrize("how", [("--debug",), ()], ids=["flag", "env"])
def test_debug_shows_the_traceback_of_an_unexpected_exception(sites, previous, how):
    out, before = previous
    env = {"SITEGEN_DEBUG": "" if how else "1"}
    r = run_failing_at("store", "--root", str(sites["root"]), "--out", str(out), *how, env=env)
    assert r.returncode == 1
    assert "Traceback" in r.stderr and "RuntimeError: injected at store" in r.stderr
    assert_untouched(out, before)


# --------------------------------------------------------------------------- SIGKILL while writing

# Runs `sitegen build` in a process that SIGKILLs itself when it is about to write its
# argv[1]-th file into the staging directory: no cleanup code of any kind gets to run.
KILL_AFTER_WRITES = """
import os, signal, sys
from sitegen import publish
from sitegen.cli import main

limit, args = int(sys.argv[1]), sys.argv[2:]
real_write = publish.Writer.write
written = [0]

def write(self, rel, data, text=None):
    if written[0] == limit:
        os.kill(os.getpid(), signal.SIGKILL)
    real_write(self, rel, data, text)
    written[0] += 1

publish.Writer.write = write
main(args, prog_name="sitegen")
"""


def writers_of(staging: Path, wait: float = 10.0) -> list[int]:
    """The pids of processes still writing into `staging` (their command line names it),
    after giving a killed one up to `wait` seconds to be gone."""
    deadline = time.monotonic() + wait
    while True:
        found = []
        for proc in Path("/proc").iterdir():
            try:
                if proc.name.isdigit() and str(staging).encode() in (proc / "cmdline").read_bytes():
                    if b"State:\tZ" not in (proc / "status").read_bytes():  # a zombie writes nothing
                        found.append(int(proc.name))
            except OSError:
                continue
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def test_sigkill_in_the_middle_of_writing_loses_nothing_and_the_next_build_cleans_up(sites, previous):
    out, before = previous
    n = 400  # of ~970 files
    r = subprocess.run([sys.executable, "-c", KILL_AFTER_WRITES, str(n), "build", "--root", str(sites["root"]),
                        "--out", str(out)], capture_output=True, text=True, timeout=COMMAND_SECONDS)
    assert r.returncode == -signal.SIGKILL, r.stderr
    # killed mid-write: a staging directory with at most the files sent so far (the process
    # writing them dies with the build), and the previous output exactly as it was
    (staging,) = [out.parent / name for name in leftovers_beside(out)]
    assert staging.name.startswith(publish.STAGING_PREFIX)
    assert not writers_of(staging), "the writer process outlived the build"
    assert 0 < sum(1 for p in staging.rglob("*") if p.is_file()) <= n
    assert hash_tree(out) == before

    result = build(load_config(sites["root"]), out)
    assert leftovers_beside(out) == []
    manifest = json.loads((out / "manifest.json").read_bytes())
    assert file_checks(out, manifest["files"]) == [] and result.files == len(manifest["files"]) + 1
    assert hash_tree(out) != before
