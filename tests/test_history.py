"""`sitegen validate --history` (sitegen.history): each commit that changed an amendment log or
a freeze record checked against the one before, so a quiet edit committed before any release
was compared is found; without the history it says it could not check."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from conftest import copy_site, run_cli
from sitegen import history
from sitegen.config import load_config
from sitegen.errors import BuildError

FREEZE = "data/chronicle/freeze.json"


def git(root: Path, *args: str, date: str = "2026-12-01T12:00:00Z") -> str:
    env = {**os.environ, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date, "GIT_AUTHOR_NAME": "m", "GIT_AUTHOR_EMAIL": "m@example.org",
           "GIT_COMMITTER_NAME": "m", "GIT_COMMITTER_EMAIL": "m@example.org"}
    return subprocess.run(["git", "-C", str(root), *args], env=env, capture_output=True, text=True, check=True, timeout=60).stdout


def commit(root: Path, date: str, message: str = "a change") -> str:
    git(root, "add", "-A", date=date)
    git(root, "commit", "-q", "-m", message, date=date)
    return git(root, "rev-parse", "--short=7", "HEAD").strip()


@pytest.fixture
def repo(tmp_path) -> Path:
    root = copy_site(tmp_path / "site", families=["chronicle", "vignette"])
    git(root, "init", "-q", "-b", "main")
    commit(root, "2026-12-01T12:00:00Z", "the first release")
    return root


def new_entry(root: Path, entry_id: str, date: str) -> None:
    (root / f"content/vignette/amendments/{entry_id}.md").write_text(
        f"---\nid: {entry_id}\nkind: amendment\ntitle: \"A later change\"\ndate: {date}\n---\n\nWhat changed, and why.\n", encoding="utf-8")


def lines(root: Path) -> list[str]:
    return [str(p) for p in history.check(load_config(root))[1]]


def test_an_entry_edited_and_committed_is_found_in_its_commit(repo):
    path = repo / "content/vignette/amendments/A1.md"
    path.write_text(path.read_text(encoding="utf-8").replace("item for item", "mostly"), encoding="utf-8")
    sha = commit(repo, "2026-12-05T12:00:00Z")
    found = lines(repo)
    assert len(found) == 1 and found[0].startswith("content/vignette/amendments/A1.md: expected entry A1 byte for byte as commit ")
    assert "(2026-12-01) held it" in found[0] and found[0].endswith(f"its file was edited (in commit {sha} (2026-12-05))")


def test_an_entry_deleted_with_its_freeze_record_and_a_back_dated_one_are_found(repo):
    (repo / "content/chronicle/amendments/A6.md").unlink()
    doc = json.loads((repo / FREEZE).read_text(encoding="utf-8"))
    doc["items"] = [i for i in doc["items"] if i["id"] != "entry-a6"]
    (repo / FREEZE).write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    commit(repo, "2026-12-05T12:00:00Z")
    new_entry(repo, "A2", "2026-11-20")  # committed later, dated before the commit it follows
    sha = commit(repo, "2026-12-06T12:00:00Z")
    found = lines(repo)
    assert any(line.startswith("content/chronicle/amendments/A6.md: expected entry A6 as commit ") and "never deleted" in line for line in found)
    assert any(line.startswith(f"{FREEZE} $.items: expected the item log-entry/entry-a6 as commit ") for line in found), found
    assert any(line.startswith("content/vignette/amendments/A2.md date: expected a date on or after 2026-12-05, the date of commit ")
               and line.endswith(f"found 2026-11-20 (in commit {sha} (2026-12-06))") for line in found), found


def test_a_frozen_version_rewritten_in_the_working_copy_is_found(repo):
    doc = json.loads((repo / FREEZE).read_text(encoding="utf-8"))
    doc["items"][0]["history"][-1]["note"] = "Corrected."
    (repo / FREEZE).write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    found = lines(repo)
    assert len(found) == 1 and found[0].startswith(f"{FREEZE} $.items[0].history[1]: expected version v1.1.1 of protocol/protocol-v1.1 as commit ")
    assert found[0].endswith("found note Corrected. (in the working copy)")


def test_legitimate_changes_pass_and_the_command_line_counts_them(repo):
    new_entry(repo, "A2", "2026-12-05")
    commit(repo, "2026-12-05T12:00:00Z")
    new_entry(repo, "A3", "2026-12-06")
    commit(repo, "2026-12-06T12:00:00Z")
    assert lines(repo) == []
    done = run_cli("validate", "--root", str(repo), "--history", "--no-cache")
    assert done.returncode == 0, done.stderr
    assert "history: 3 states of the amendment logs and freeze records, each keeping what the one before held" in done.stdout


def test_without_the_history_it_says_it_could_not_check(repo, tmp_path):
    shallow = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(shallow)], check=True, capture_output=True, timeout=60)
    with pytest.raises(BuildError, match="could not check the history: this clone is shallow"):
        history.check(load_config(shallow))
    plain = copy_site(tmp_path / "plain", families=["vignette"])
    done = run_cli("validate", "--root", str(plain), "--history", "--no-cache")
    assert done.returncode == 1 and "could not check the history: " in done.stderr and "not a git checkout" in done.stderr
    with pytest.raises(BuildError, match="--since 'nosuch' is not a commit"):
        history.check(load_config(repo), "nosuch")
