"""What an output directory holds besides the files its last build wrote, and what replacing it
may do with them.

A build replaces its output directory whole (publish.Writer.commit), so whatever else is in it
would go with it: a CNAME added by hand, notes, another tool's files. Such an entry (one the
manifest.json of the output does not list) is "foreign", and the output is replaced only when
it holds none, or when the build is told to delete them (`--clean`). The refusal names each
one, and the output is left as it was.

A `.git` at the top of the output is the exception: it is the repository the site is published
from (a `gh-pages` worktree, or a clone), never a file of the site. It is not foreign, and each
build carries it over into the new output, with or without `--clean`. A `.git` anywhere else
would be deleted with what holds it, and sitegen deletes no repository: the build refuses,
even with `--clean`, until it is moved.

It imports only the standard library, orjson and sitegen's errors (the no-op check imports it too).
"""

from __future__ import annotations

import os
from pathlib import Path

import orjson

from sitegen.errors import BuildError

GIT = ".git"
MANIFEST = "manifest.json"
SHOWN = 20  # foreign entries named one per line; past them, how many more


def foreign(out: Path) -> tuple[list[str], list[str]]:
    """The entries of `out` its manifest.json does not list, each the topmost of what is not
    the build's (a folder with a trailing "/": nothing in it was written by the build), in
    name order; and the git repositories (`.git`) among them or inside them. Both empty when
    `out` does not exist. Nothing is followed through a symbolic link: a link is an entry."""
    try:
        manifest = orjson.loads((out / MANIFEST).read_bytes())
    except (OSError, orjson.JSONDecodeError):  # none (an empty folder), or not one to trust: nothing is listed
        manifest = {}
    files = manifest.get("files") if isinstance(manifest, dict) else None
    listed = {MANIFEST, *(files if isinstance(files, dict) else ())}
    folders: set[str] = set()
    for rel in listed:  # every folder holding a listed file; a folder met before has its own added already
        cut = rel.rfind("/")
        while cut > 0 and rel[:cut] not in folders:
            folders.add(rel[:cut])
            cut = rel.rfind("/", 0, cut)
    entries: list[str] = []
    gits: list[str] = []

    def walk(d: str, prefix: str) -> None:
        with os.scandir(d) as it:
            found = list(it)
        for e in found:
            rel = prefix + e.name
            if rel == GIT:
                continue
            is_dir = e.is_dir(follow_symlinks=False)
            if rel in listed and not is_dir:
                continue
            if is_dir and rel in folders:
                walk(e.path, rel + "/")
                continue
            entries.append(rel + "/" if is_dir else rel)
            if e.name == GIT:
                gits.append(rel)
            elif is_dir:
                gits.extend(_repositories(e.path, rel))

    if out.is_dir():
        walk(str(out), "")
    return sorted(entries), sorted(gits)


def _repositories(top: str, rel_top: str) -> list[str]:
    """Every `.git` below the folder `top` (at `rel_top`), not following links."""
    found = []
    for dirpath, dirnames, filenames in os.walk(top):
        rel = rel_top + dirpath[len(top):]
        for name in sorted([*dirnames, *filenames]):
            if name == GIT:
                found.append(f"{rel}/{name}")
        dirnames[:] = sorted(d for d in dirnames if d != GIT)
    return found


def refusal(given: Path, entries: list[str], gits: list[str], clean: bool) -> str | None:
    """Why the output at `given` (as the user named it) cannot be replaced, or None: it holds
    foreign entries and `clean` is not set; or, with `clean`, a git repository it would delete."""
    if clean and gits:
        return "\n".join([f"--out {given} holds a git repository that --clean would delete, and sitegen deletes none "
                          f"(only {given}/{GIT}, at its top, is kept):", *_listed(given, gits),
                          f"move {'it' if len(gits) == 1 else 'them'} out of {given}; nothing was published"])
    if clean or not entries:
        return None
    n = len(entries)
    return "\n".join([f"--out {given} holds {n:,} {'entry' if n == 1 else 'entries'} the last build did not write "
                      f"(its manifest.json does not list {'it' if n == 1 else 'them'}), which replacing it would delete:",
                      *_listed(given, entries),
                      f"move {'it' if n == 1 else 'them'} out of {given}, or pass --clean to delete "
                      f"{'it' if n == 1 else 'them'} (a {GIT} at the top of {given} is kept either way); nothing was published"])


def _listed(given: Path, rels: list[str]) -> list[str]:
    lines = [f"{given}/{rel}" for rel in rels[:SHOWN]]
    if len(rels) > SHOWN:
        lines.append(f"and {len(rels) - SHOWN:,} more")
    return lines


def check_replaceable(out: Path, given: Path, clean: bool) -> None:
    """BuildError (see refusal) unless the output at `out` may be replaced."""
    entries, gits = foreign(out)
    message = refusal(given, entries, gits, clean)
    if message is not None:
        raise BuildError(message)


def move_git(source: Path, target: Path) -> bool:
    """Move source/.git to target/.git (a rename, on the same filesystem): True when it was
    moved, False when source has none. A target that has one of its own is never replaced."""
    if not os.path.lexists(source / GIT):
        return False
    if os.path.lexists(target / GIT):
        raise BuildError(f"{target / GIT} exists already; {source / GIT} was left where it is")
    os.rename(source / GIT, target / GIT)
    return True


def is_git(rel: str) -> bool:
    """Whether an output path lies in the output's own `.git`, which no build writes."""
    return rel == GIT or rel.startswith(GIT + "/")
