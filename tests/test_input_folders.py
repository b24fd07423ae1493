"""Every folder of the inputs is walked or named: a folder that cannot be read and a tree of
folders nested too deep are each one problem naming the folder, exit 1 and never a traceback,
in `build`, `validate`, `verify` (the built site's folders) and `serve` (its watcher) alike;
none of them drops the pages below it silently.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
from pathlib import Path
from typing import Iterator

import pytest

from sitegen.folders import MAX_FOLDER_DEPTH
from sitegen.serve import Preview, input_signature

from conftest import copy_site, hash_tree, run_cli

UNREADABLE_FOLDER = "expected a folder that can be read; found Permission denied (not read)"
UNREADABLE_FILE = "expected a readable regular file; found Permission denied"


def build_cli(root: Path, out: Path):
    return run_cli("build", "--root", str(root), "--out", str(out))


def failed(r) -> list[str]:
    """The lines of a run that must have failed (exit 1, no traceback), the header and the
    count excepted."""
    text = r.stdout + r.stderr
    assert r.returncode == 1, text
    assert "Traceback" not in text and "unexpected" not in text, text
    return [line for line in text.splitlines() if not line.endswith(("in the inputs:", "does not match its records"))]


@contextlib.contextmanager
def unreadable(monkeypatch: pytest.MonkeyPatch, *paths: Path) -> Iterator[None]:
    """PATHS made unreadable (mode 000) while the block runs. Root reads through any mode, and
    the tests run as root: then, in this process (the commands run in it), os.scandir, os.open
    and os.access refuse those paths with EACCES as the kernel refuses them to any other user, which is
    what the walks and readers meet on a checkout they may not read. As another user, the
    modes alone do it and nothing is patched."""
    for p in paths:
        p.chmod(0)
    if os.geteuid() == 0:
        refused = {os.path.realpath(p) for p in paths}
        real_scandir, real_open, real_access = os.scandir, os.open, os.access

        def refuse(path: object) -> None:
            if isinstance(path, (str, os.PathLike)) and os.path.realpath(path) in refused:
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))

        def scandir(path: object = ".") -> object:
            refuse(path)
            return real_scandir(path)

        def open_(path: object, *args: object, **kwargs: object) -> int:
            refuse(path)
            return real_open(path, *args, **kwargs)

        def access(path: object, mode: int, **kwargs: object) -> bool:
            return os.path.realpath(path) not in refused and real_access(path, mode, **kwargs)

        monkeypatch.setattr(os, "scandir", scandir)
        monkeypatch.setattr(os, "access", access)
        monkeypatch.setattr(os, "open", open_)
    try:
        yield
    finally:
        monkeypatch.undo()
        for p in paths:
            p.chmod(0o755 if p.is_dir() else 0o644)


def nested(top: Path, depth: int) -> Path:
    """`depth` folders named d, one inside the other, under `top`; the deepest returned. One
    at a time: Path.mkdir(parents=True), os.makedirs and shutil.rmtree recurse once a level."""
    path = str(top)
    for _ in range(depth):
        path += "/d"
        os.mkdir(path)
    return Path(path)


def remove_nested(top: Path) -> None:
    """The tree `nested` made under `top`, if it is there, removed from the bottom up (pytest's
    own clean-up recurses too, and would fail on it at exit)."""
    path = str(top / "d")
    if not os.path.isdir(path):
        return
    while os.path.isdir(path + "/d"):
        path += "/d"
    while path != str(top):
        for name in os.listdir(path):
            if not os.path.isdir(f"{path}/{name}"):
                os.unlink(f"{path}/{name}")
        os.rmdir(path)
        path = os.path.dirname(path)


def too_deep(base: str) -> str:
    """The problem of a tree under `base` (a relative path of one segment, or "") nested past
    the limit: the first folder beyond it is named, and nothing below it is read."""
    segments = [base] * bool(base) + ["d"] * (MAX_FOLDER_DEPTH + 1 - bool(base))
    return (f"{'/'.join(segments)}: expected folders nested at most {MAX_FOLDER_DEPTH} deep; "
            f"found a folder {MAX_FOLDER_DEPTH + 1} deep (not read)")


@pytest.fixture
def site(tmp_path: Path, built_site) -> Path:
    return copy_site(tmp_path / "site", cache_from=built_site.root, families=["nextchapter"])


def test_an_unreadable_folder_or_file_of_the_inputs_is_a_problem_naming_it_in_build_and_validate(site, tmp_path, monkeypatch):
    """(As root, the refusal is simulated in this process: see `unreadable`.) Before, os.walk
    passed over the folder without a word and its pages were not published, exit 0."""
    out = tmp_path / "out"
    assert build_cli(site, out).returncode == 0
    before = hash_tree(out)
    notes = site / "content" / "notes"
    notes.mkdir()
    for i in range(3):
        (notes / f"n{i}.md").write_text(f"---\ntitle: Note {i}\n---\nA note.\n", encoding="utf-8")
    page = site / "content" / "about-us.md"
    page.write_text("---\ntitle: About\n---\nUs.\n", encoding="utf-8")
    asset = site / "assets" / "extra.css"
    asset.parent.mkdir(exist_ok=True)
    asset.write_text("body { color: black }\n", encoding="utf-8")
    with unreadable(monkeypatch, notes, page, asset):
        for r in (build_cli(site, out), run_cli("validate", "--root", str(site))):
            assert failed(r) == [f"assets/extra.css: {UNREADABLE_FILE}",
                                 f"content/about-us.md: {UNREADABLE_FILE}",
                                 f"content/notes: {UNREADABLE_FOLDER}"]
    assert hash_tree(out) == before


def test_an_unreadable_folder_inside_a_site_given_to_verify_is_one_line_naming_it(site, tmp_path, monkeypatch):
    """(As root, simulated in this process: see `unreadable`.) Before, os.scandir's
    PermissionError ended verify in a traceback."""
    out = tmp_path / "out"
    assert build_cli(site, out).returncode == 0
    figures = next(p for p in sorted(out.rglob("*")) if p.is_dir() and any(p.iterdir()))
    rel = figures.relative_to(out).as_posix()
    with unreadable(monkeypatch, figures):
        lines = failed(run_cli("verify", str(out)))
    # the folder is the problem: each file it holds is not reported again as missing
    assert lines == [f"{rel}: {UNREADABLE_FOLDER}"]


def test_folders_nested_a_thousand_deep_are_one_line_naming_the_folder_in_build_validate_and_verify(site, tmp_path):
    """Before, os.walk (and verify's own walk) recursed once per folder: a RecursionError."""
    out = tmp_path / "out"
    assert build_cli(site, out).returncode == 0
    before = hash_tree(out)
    try:
        (nested(site / "content", 1000) / "deep.md").write_text("---\ntitle: Deep\n---\nDown here.\n", encoding="utf-8")
        for r in (build_cli(site, out), run_cli("validate", "--root", str(site))):
            assert failed(r) == [too_deep("content")]
        assert hash_tree(out) == before

        (nested(out, 1000) / "page.html").write_text("<p>hidden</p>\n", encoding="utf-8")
        assert failed(run_cli("verify", str(out))) == [too_deep("")]
    finally:
        remove_nested(site / "content")
        remove_nested(out)


def test_folders_nested_to_the_limit_are_read(site, tmp_path):
    (nested(site / "content", MAX_FOLDER_DEPTH - 1) / "deep.md").write_text("---\ntitle: Deep\n---\nDown here.\n", encoding="utf-8")
    r = build_cli(site, tmp_path / "out")
    assert r.returncode == 0, r.stdout + r.stderr
    assert any(rel.endswith("/deep/index.html") or rel.endswith("/deep.html") for rel in hash_tree(tmp_path / "out")), r.stdout


def test_serve_keeps_watching_a_tree_a_thousand_folders_deep_and_shows_its_problem(site, tmp_path):
    """Before, the watcher's Path.rglob ended in a RecursionError and the thread died: the
    preview went on serving, never to rebuild again."""
    stderr = io.StringIO()
    preview = Preview(site, tmp_path / "out", "127.0.0.1", 0, stdout=io.StringIO(), stderr=stderr)
    try:
        assert preview.rebuild(), stderr.getvalue()
        before = input_signature(site)
        deepest = nested(site / "data", 1000)
        (deepest / "x.json").write_text("{}", encoding="utf-8")
        assert input_signature(site) != before  # a change the watcher sees, and rebuilds after
        assert not preview.rebuild()
        assert preview.generations.status.problems.splitlines()[1:] == [too_deep("data")]
        remove_nested(site / "data")
        assert input_signature(site) == before
        assert preview.rebuild(), stderr.getvalue()
    finally:
        preview.close()
        remove_nested(site / "data")
