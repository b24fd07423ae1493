"""The files of a built site against its manifest: what the build checks on its staged output
before the swap, what a no-op rebuild checks on the output it would keep, and what `sitegen
verify` checks on a downloaded copy. Only regular files found under the site are ever read,
without following a symbolic link, whatever the manifest names.
"""

from __future__ import annotations

import os
from pathlib import Path

from sitegen import folders
from sitegen.errors import BuildError
from sitegen.load import sha256_file
from sitegen.publish import json_bytes

MANIFEST = "manifest.json"


def tree(site: Path, skip: frozenset[str] = frozenset(), unread: list[str] | None = None) -> tuple[dict[str, Path], list[str]]:
    """The regular files under `site` by relative path, found without following a symbolic
    link; and one line for each entry that is not a regular file or a directory, and for each
    folder that cannot be listed or lies too deep (sitegen.folders). `skip`: entries at the top
    of `site` left out, whatever they are (and never entered). `unread`, when given, receives the
    folders that were not read, by relative path."""
    files: dict[str, Path] = {}
    odd: list[str] = []
    faults: list[folders.Fault] = []
    for _path, rel, entries in folders.walk(str(site), "", faults):
        prefix = f"{rel}/" if rel else ""
        if not rel and skip:
            entries[:] = [e for e in entries if e.name not in skip]
        for e in entries:
            name = prefix + e.name
            if e.is_symlink():
                odd.append(f"{name}: a symbolic link inside the site; not followed")
            elif e.is_dir(follow_symlinks=False):
                continue  # walked in its turn
            elif e.is_file(follow_symlinks=False):
                files[name] = Path(e.path)
            else:
                odd.append(f"{name}: not a regular file; not read")
    odd += [f"{f.rel}: expected {f.expected}; found {f.found}" for f in faults]
    if unread is not None:
        unread += [f.rel for f in faults]
    return files, sorted(odd)  # by path, whichever walk found each


def _sha256(path: Path) -> str | OSError:
    try:  # what tree found, a regular file, read without following a link
        return sha256_file(path, os.O_NOFOLLOW)
    except OSError as exc:
        return exc


def listed_checks(files: dict[str, Path], listed: dict[str, str]) -> list[str]:
    out = []
    # One file after another: a site's files are small (the demo's average 31 KB), and a
    # thread pool's handing over of each took longer than hashing it.
    for rel, sha in sorted(listed.items()):
        if rel not in files:
            out.append(f"{rel}: listed in manifest.json but missing")
            continue
        found = _sha256(files[rel])
        if isinstance(found, OSError):
            out.append(f"{rel}: cannot be read ({found.strerror or found})")
            continue
        if found != sha:
            out.append(f"{rel}: SHA-256 {found} differs from the manifest's {sha}")
    for rel in sorted(set(files) - set(listed) - {MANIFEST}):
        out.append(f"{rel}: present but not listed in manifest.json")
    return out


def file_checks(site: Path, listed: dict[str, str], skip: frozenset[str] = frozenset()) -> list[str]:
    """Every file under `site` against `listed` (path -> SHA-256, as in manifest.json's
    "files"): a listed file missing or with other bytes, a file present but not listed
    (manifest.json itself excepted), or an entry that is not a regular file. One line each,
    naming the file. Only the regular files found under `site` are read, whatever `listed` says.
    `skip`: entries at the top of `site` that are not the site's (an output's .git)."""
    files, odd = tree(site, skip)
    return odd + listed_checks(files, listed)


def check_staged(staging: Path, manifest: dict) -> None:
    """The build's verify stage, run on the staging directory just before it is swapped in:
    the bytes on disk are re-read and re-hashed against the manifest about to be published,
    and manifest.json on disk must be that manifest. A torn or corrupted write, or a file
    the manifest does not list, fails the build instead of being published."""
    problems = file_checks(staging, manifest.get("files", {}))
    mf = staging / "manifest.json"
    if not mf.is_file() or mf.read_bytes() != json_bytes(manifest):
        problems.append("manifest.json: the staged copy differs from the manifest being published")
    if problems:
        raise BuildError("the staged output does not match its manifest; nothing was published:\n" + "\n".join(problems))
