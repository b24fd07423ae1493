"""What a build or a paper may replace, and what it must never touch: a folder that is not a
sitegen output, another output's leftovers beside it, an output another build is writing,
a mount point, a folder it cannot write in. Each refusal is one line and exit 1, and leaves
everything as it was.
"""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import CELLS_REL, hash_tree, leftovers_beside, run_cli
from sitegen import publish
from sitegen.build import build
from sitegen.cli import main
from sitegen.config import load_config
from sitegen.errors import InputError


def web_app(path: Path) -> Path:
    """A folder that is not a sitegen output but holds a manifest.json of its own."""
    (path / "src").mkdir(parents=True)
    (path / "manifest.json").write_text("{}\n", encoding="utf-8")
    (path / "src" / "app.js").write_text("console.log('mine');\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("command", ["build", "paper"])
def test_a_folder_with_another_tools_manifest_is_refused_and_left_untouched(cached_site_copy, tmp_path, command):
    app = web_app(tmp_path / "myapp")
    before = hash_tree(app)
    r = run_cli(command, "--root", str(cached_site_copy), "--out", str(app))
    assert r.returncode == 1
    assert "is not a sitegen output" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert hash_tree(app) == before
    assert leftovers_beside(app) == []


def test_a_paper_replaces_the_paper_it_wrote_before(cached_site_copy, tmp_path):
    out = tmp_path / "paper"
    for _ in range(2):
        r = run_cli("paper", "--root", str(cached_site_copy), "--out", str(out))
        assert r.returncode == 0, r.stderr
    assert (out / "fragments.json").is_file()


def test_building_out_leaves_the_leftovers_of_out_b_alone(cached_site_copy, built_site, tmp_path):
    parent = tmp_path / "www"
    shutil.copytree(built_site.out, parent / "out-b")
    theirs = [parent / ".sitegen-staging-out-b-4242", parent / ".sitegen-retired-out-b-4242",
              parent / ".sitegen-trash-out-b-4242-0badc0de"]
    for d in theirs:
        d.mkdir()
        (d / "index.html").write_text("out-b's\n", encoding="utf-8")
    ours = parent / ".sitegen-staging-out-4242"  # left by a killed build of out: removed
    ours.mkdir()
    before = {d.name: hash_tree(d) for d in [parent / "out-b", *theirs]}

    build(load_config(cached_site_copy), parent / "out")
    assert (parent / "out" / "manifest.json").is_file()
    assert {d.name: hash_tree(d) for d in [parent / "out-b", *theirs]} == before
    assert not ours.exists()


def test_a_second_build_into_an_output_being_written_fails_at_once_touching_nothing(built_site, tmp_path):
    out = Path(shutil.copytree(built_site.out, tmp_path / "out"))
    before = hash_tree(out)
    with publish.output_lock(out):  # as a build writing it holds it
        r = run_cli("build", "--root", str(built_site.root), "--out", str(out), "--no-cache")
        assert r.returncode == 1
        assert r.stderr.strip() == (f"another sitegen build is writing {out} (pid {os.getpid()}); "
                                    "try again when it is done")
        assert hash_tree(out) == before
        assert leftovers_beside(out) == []
    r = run_cli("build", "--root", str(built_site.root), "--out", str(out))  # released, so this one runs
    assert r.returncode == 0, r.stderr
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".sitegen-lock-")]


def test_a_failed_build_into_new_folders_leaves_neither_them_nor_a_lock(cached_site_copy, tmp_path):
    (cached_site_copy / CELLS_REL).write_text("{not json\n", encoding="utf-8")
    with pytest.raises(InputError):
        build(load_config(cached_site_copy), tmp_path / "new" / "deep" / "site")
    assert list(tmp_path.iterdir()) == [cached_site_copy]


@pytest.mark.skipif(not os.path.ismount("/proc"), reason="needs /proc mounted, as on Linux")
def test_a_mount_point_as_output_is_refused_in_one_line(cached_site_copy):
    r = run_cli("build", "--root", str(cached_site_copy), "--out", "/proc")
    assert r.returncode == 1
    assert r.stderr.strip() == ("--out /proc is a mount point; sitegen replaces its output directory by renaming, "
                                "so build into a folder inside it")


def test_an_output_in_a_folder_it_cannot_write_in_is_one_line_naming_the_folder(cached_site_copy, tmp_path, monkeypatch):
    locked = tmp_path / "read-only"
    locked.mkdir()
    locked.chmod(0o555)
    if os.geteuid() == 0:
        # root writes in a 0555 folder anyway: deny it as the kernel denies anyone else
        for name in ("open", "mkdir"):
            real = getattr(os, name)

            def denied(path, *args, real=real, **kwargs):
                if Path(os.fsdecode(path)).parent == locked:
                    raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fsdecode(path))
                return real(path, *args, **kwargs)

            monkeypatch.setattr(os, name, denied)
    try:
        r = CliRunner().invoke(main, ["build", "--root", str(cached_site_copy), "--out", str(locked / "site"), "--no-cache"])
    finally:
        locked.chmod(0o755)
    assert r.exit_code == 1
    assert r.stderr.strip().splitlines() == [
        f"cannot write beside --out {locked / 'site'}: {locked} is not writable (Permission denied); "
        "sitegen stages the new output in the folder that holds it"]
    assert list(locked.iterdir()) == []
