"""`sitegen validate --history [--since REV]`: git as a second witness of what was published.

A release is checked against the previous release (sitegen.release_checks), but a quiet edit
deployed before release records existed, or between two deploys that were never compared, left
no release behind to be the witness. The repository's history is one: every commit on the
first-parent line of HEAD that touched a family's amendment log (content/<family>/amendments/)
or its freeze record (data/<family>/freeze.json) is read as it was, and each is checked against
the one before it by the release rules for the log and the freeze record: an entry is never
edited nor deleted, nor a new one dated before the commit it follows; a frozen version is never
rewritten nor removed, and one added is frozen on or after the commit it follows and names an
entry of the log written for it. The working copy, when it differs, is checked last.

What it cannot check it says: no git, not a checkout, a shallow clone (CI fetches one commit by
default: `fetch-depth: 0` fetches the history), an unknown REV. Then nothing is claimed and the
command fails, since a check that silently checked nothing would read as a pass.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

from sitegen import amendments, clock, release_checks, releases
from sitegen.config import SiteConfig
from sitegen.errors import BuildError, Problem
from sitegen.freeze import record_rel

GIT_SECONDS = 120  # one git command on a large repository; a hung one is an error, not a wait


@dataclass(frozen=True)
class State:
    label: str  # "commit 1a2b3c4 (2026-12-03)", or "the working copy"
    date: str  # YYYY-MM-DD, UTC: the commit's committer date
    files: dict[str, bytes]  # rel (from the site's root) -> the file's bytes then


def _git(root: Path, *args: str, data: bytes | None = None) -> bytes:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], input=data, capture_output=True, timeout=GIT_SECONDS, check=False)
    except FileNotFoundError:
        raise BuildError("could not check the history: git is not installed") from None
    except subprocess.TimeoutExpired:
        raise BuildError(f"could not check the history: `git {args[0]}` ran past {GIT_SECONDS} s") from None
    if done.returncode != 0:
        raise BuildError(f"could not check the history: `git {' '.join(args[:2])}` failed: {done.stderr.decode('utf-8', 'replace').strip()}")
    return done.stdout


def watched(families) -> list[str]:
    """The site-relative paths whose history is checked."""
    return [p for fid in families for p in (amendments.log_dir(fid), record_rel(fid))]


def states(config: SiteConfig, since: str | None) -> list[State]:
    """The watched files at each commit that touched them (oldest first; with SINCE, REV first
    and then each commit after it), then in the working copy if it differs from the last."""
    root = config.root
    if shutil.which("git") is None:
        raise BuildError("could not check the history: git is not installed")
    try:
        inside = _git(root, "rev-parse", "--is-inside-work-tree").strip() == b"true"
    except BuildError:
        inside = False
    if not inside:
        raise BuildError(f"could not check the history: {root} is not a git checkout")
    if _git(root, "rev-parse", "--is-shallow-repository").strip() == b"true":
        raise BuildError("could not check the history: this clone is shallow (fetch the whole history: `git fetch --unshallow`, "
                         "or `fetch-depth: 0` in the CI checkout)")
    prefix = _git(root, "rev-parse", "--show-prefix").decode("utf-8").strip()
    paths = [prefix + p for p in watched(config.families)]
    commits = []
    if since is not None:
        try:
            base = _git(root, "rev-parse", "--verify", "--quiet", f"{since}^{{commit}}").decode().strip()
        except BuildError:
            raise BuildError(f"could not check the history: --since {since!r} is not a commit of this repository") from None
        commits.append(base)
    listed = _git(root, "rev-list", "--first-parent", "--reverse", f"{commits[0]}..HEAD" if commits else "HEAD", "--", *paths)
    commits += listed.decode().split()
    out = [_commit_state(root, c, prefix, paths) for c in commits]
    here = _working_copy(root, config.families)
    if not out or here.files != out[-1].files:
        out.append(here)
    return out


def _commit_state(root: Path, commit: str, prefix: str, paths: list[str]) -> State:
    stamp = int(_git(root, "show", "-s", "--format=%ct", commit).strip())
    date = dt.datetime.fromtimestamp(stamp, dt.timezone.utc).date().isoformat()
    names = [n for n in _git(root, "ls-tree", "-r", "--name-only", "-z", commit, "--", *paths).decode("utf-8").split("\0") if n]
    files = {}
    if names:
        batch = _git(root, "cat-file", "--batch", data="".join(f"{commit}:{n}\n" for n in names).encode("utf-8"))
        at = 0
        for name in names:
            header_end = batch.index(b"\n", at)
            size = int(batch[at:header_end].split()[2])
            files[name[len(prefix):]] = batch[header_end + 1: header_end + 1 + size]
            at = header_end + 1 + size + 1
    return State(f"commit {commit[:7]} ({date})", date, files)


def _working_copy(root: Path, families) -> State:
    files = {}
    for part in watched(families):
        path = root / part
        found = sorted(path.rglob("*")) if path.is_dir() else [path] if path.is_file() else []
        files.update({p.relative_to(root).as_posix(): p.read_bytes() for p in found if p.is_file()})
    return State("the working copy", clock.today(), files)


def _ledger(state: State, config: SiteConfig) -> dict:
    """The log and freeze parts of a release ledger (releases.ledger) of STATE's files."""
    with tempfile.TemporaryDirectory(prefix="sitegen-history-") as tmp:
        root = Path(tmp)
        for rel, data in state.files.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(data)
        sources = {rel: hashlib.sha256(data).hexdigest() for rel, data in sorted(state.files.items())}
        try:
            whole = releases.ledger(root, sources, config.families, {}, config.limits)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:  # a freeze record that was not JSON then
            raise BuildError(f"could not check the history: the freeze record in {state.label} cannot be read ({exc})") from None
    return {"log": whole["log"], "freeze": whole["freeze"]}


def check(config: SiteConfig, since: str | None = None) -> tuple[int, list[Problem]]:
    """(how many states were compared, every problem the release rules find between two
    consecutive ones, each naming the commit where it was found)."""
    found = states(config, since)
    problems: list[Problem] = []
    before = _ledger(found[0], config)
    for prev, now in zip(found, found[1:]):
        ledger = _ledger(now, config)
        last = {"label": prev.label, "date": prev.date}
        current = SimpleNamespace(ledger=ledger)
        for p in release_checks.log_rules({"ledger": before}, last, current) + release_checks.freeze_rules(before, last, current, dated=True):
            # a commit did not publish anything: it held what it held
            expected = p.expected.replace(f"{prev.label} published", f"{prev.label} held")
            problems.append(Problem(p.file, p.line, p.path, expected, f"{p.found} (in {now.label})"))
        before = ledger
    return len(found), problems

