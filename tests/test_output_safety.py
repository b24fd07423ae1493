"""What a build or a paper may replace, and what it must never touch: a folder that is not a
sitegen output, another output's leftovers beside it, an output another build is writing,
a mount point, a folder it cannot write in. Each refusal is one line and exit 1, and leaves
everything as it was.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import CELLS_REL, copy_site, hash_tree, leftovers_beside, run_cli
from sitegen import publish
from sitegen.build import build
from sitegen.cli import main
from sitegen.config import load_config
from sitegen.errors import BuildError, InputError


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


# --------------------------------------------------------------------------- what the output holds besides the build's files


@pytest.fixture(scope="module")
def small(tmp_path_factory, built_site) -> tuple[Path, Path]:
    """A site of one small family, with its cache, and its output built once."""
    base = tmp_path_factory.mktemp("foreign")
    root = copy_site(base / "site", cache_from=built_site.root, families=["vignette"])
    build(load_config(root), base / "out")
    return root, base / "out"


def _output(small, tmp_path: Path) -> Path:
    out = tmp_path / "out"
    shutil.copytree(small[1], out)
    return out


def _added(out: Path) -> None:
    """What a maintainer adds to a site's output by hand: a CNAME, notes, a file in a folder
    the build writes, and a gh-pages worktree's .git at its top."""
    (out / "CNAME").write_text("bench.example.org\n", encoding="utf-8")
    (out / "notes").mkdir()
    (out / "notes" / "todo.md").write_text("- publish\n", encoding="utf-8")
    (out / "vignette" / "extra.txt").write_text("mine\n", encoding="utf-8")
    (out / ".git").write_text("gitdir: ../.git/worktrees/site\n", encoding="utf-8")


def test_files_the_last_build_did_not_write_are_named_and_kept_unless_clean(small, tmp_path):
    """A CNAME or a note added to the output used to vanish silently with the next build. The
    build is refused, one line each, the output untouched; --clean deletes them; a .git at the
    top of the output (a gh-pages worktree) is kept by every build, --clean or not."""
    root, out = small[0], _output(small, tmp_path)
    _added(out)
    (root / "content" / "index.md").write_text((root / "content" / "index.md").read_text(encoding="utf-8") + "\nMore.\n",
                                               encoding="utf-8")
    before = hash_tree(out)
    r = run_cli("build", "--root", str(root), "--out", str(out))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.splitlines() == [
        f"--out {out} holds 3 entries the last build did not write (its manifest.json does not list them), "
        "which replacing it would delete:",
        f"{out}/CNAME", f"{out}/notes/", f"{out}/vignette/extra.txt",
        f"move them out of {out}, or pass --clean to delete them (a .git at the top of {out} is kept either way); "
        "nothing was published"]
    assert hash_tree(out) == before and leftovers_beside(out) == []

    r = run_cli("build", "--root", str(root), "--out", str(out), "--clean")
    assert r.returncode == 0, r.stderr
    assert not (out / "CNAME").exists() and not (out / "notes").exists() and not (out / "vignette" / "extra.txt").exists()
    assert (out / ".git").read_text(encoding="utf-8") == "gitdir: ../.git/worktrees/site\n"
    manifest = json.loads((out / "manifest.json").read_bytes())
    assert set(hash_tree(out)) == {*manifest["files"], "manifest.json", ".git"}
    assert "More." in (out / "index.html").read_text(encoding="utf-8")
    assert run_cli("verify", str(out)).returncode == 0  # the .git is not the site's: not a file the manifest misses

    r = run_cli("build", "--root", str(root), "--out", str(out))  # nothing changed: the .git is not the build's to check
    assert r.returncode == 0 and r.stdout.startswith("up to date"), r.stdout + r.stderr
    (root / "content" / "index.md").write_text((root / "content" / "index.md").read_text(encoding="utf-8") + "\nAgain.\n",
                                               encoding="utf-8")
    r = run_cli("build", "--root", str(root), "--out", str(out))
    assert r.returncode == 0 and r.stdout.startswith("built"), r.stdout + r.stderr
    assert (out / ".git").read_text(encoding="utf-8") == "gitdir: ../.git/worktrees/site\n"


def test_past_twenty_foreign_entries_the_rest_are_counted(small, tmp_path):
    root, out = small[0], _output(small, tmp_path)
    for i in range(25):
        (out / f"page-{i:02}.html").write_text("mine\n", encoding="utf-8")
    r = run_cli("build", "--root", str(root), "--out", str(out), "--no-cache")
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    assert lines[0].startswith(f"--out {out} holds 25 entries the last build did not write")
    assert lines[1:22] == [*(f"{out}/page-{i:02}.html" for i in range(20)), "and 5 more"]
    assert len(lines) == 23


def test_a_git_repository_below_the_top_of_the_output_is_never_deleted_even_with_clean(small, tmp_path):
    root, out = small[0], _output(small, tmp_path)
    (out / "notes" / ".git").mkdir(parents=True)
    (out / "notes" / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    before = hash_tree(out)
    r = run_cli("build", "--root", str(root), "--out", str(out), "--clean")
    assert r.returncode == 1
    assert r.stderr.splitlines() == [
        f"--out {out} holds a git repository that --clean would delete, and sitegen deletes none (only {out}/.git, at its top, is kept):",
        f"{out}/notes/.git", f"move it out of {out}; nothing was published"]
    assert hash_tree(out) == before and leftovers_beside(out) == []


def test_a_file_added_to_the_output_while_the_build_runs_is_refused_at_the_swap(small, tmp_path):
    """The check before the build began is made again on the output being replaced, once it is
    moved aside (where nothing can be added to it by its path): the previous output is put back."""
    root, out = small[0], _output(small, tmp_path)

    def hook(name: str) -> None:
        if name == "verify":
            (out / "CNAME").write_text("bench.example.org\n", encoding="utf-8")

    before = hash_tree(out)
    with pytest.raises(BuildError, match=r"holds 1 entry the last build did not write") as exc:
        build(load_config(root), out, on_stage=hook, cache=False)
    assert f"\n{out}/CNAME\n" in str(exc.value)
    assert hash_tree(out) == {**before, "CNAME": hash_tree(out)["CNAME"]} and leftovers_beside(out) == []


def test_a_build_killed_after_moving_the_git_into_its_staging_is_recovered_by_the_next(small, tmp_path):
    """Killed mid-swap, after the previous output's .git was moved into the new output and
    before that took the output's place: the next build puts the .git back, never deletes it."""
    root, out = small[0], _output(small, tmp_path)
    (out / ".git").mkdir()
    (out / ".git" / "HEAD").write_text("ref: refs/heads/gh-pages\n", encoding="utf-8")
    staging = out.parent / f"{publish.STAGING_PREFIX}out-999999"
    staging.mkdir()
    (out / ".git").rename(staging / ".git")
    out.rename(out.parent / f"{publish.RETIRED_PREFIX}out-999999")
    build(load_config(root), out)
    assert (out / ".git" / "HEAD").read_text(encoding="utf-8") == "ref: refs/heads/gh-pages\n"
    assert leftovers_beside(out) == []


def test_serve_refuses_and_cleans_as_build_does(small, tmp_path):
    """`sitegen serve` starts only on an output it may replace, and each rebuild refuses a file
    added meanwhile (shown as the build's problems), unless it was started with --clean."""
    import io

    from sitegen.errors import BuildError as Refused
    from sitegen.serve import Preview

    root, out = small[0], _output(small, tmp_path)
    (out / "CNAME").write_text("bench.example.org\n", encoding="utf-8")
    with pytest.raises(Refused, match="holds 1 entry the last build did not write"):
        Preview(root, out, "127.0.0.1", 0, stdout=io.StringIO(), stderr=io.StringIO())
    (out / "CNAME").unlink()
    stderr = io.StringIO()
    preview = Preview(root, out, "127.0.0.1", 0, stdout=io.StringIO(), stderr=stderr)
    try:
        assert preview.rebuild(), stderr.getvalue()
        (out / "CNAME").write_text("bench.example.org\n", encoding="utf-8")
        assert not preview.rebuild()
        assert f"{out}/CNAME" in preview.generations.status.problems and (out / "CNAME").is_file()
    finally:
        preview.close()
    cleaning = Preview(root, out, "127.0.0.1", 0, stdout=io.StringIO(), stderr=stderr, clean=True)
    try:
        assert cleaning.rebuild(), stderr.getvalue()
        assert not (out / "CNAME").exists()
    finally:
        cleaning.close()
