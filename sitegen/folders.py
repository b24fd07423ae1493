"""Walking a folder tree: without recursion, to a bounded depth, naming what cannot be listed.

Every walk of the build (the inputs, the watcher of `sitegen serve`) and of `sitegen verify`
(a built site's files) goes through `walk`. os.walk and Path.rglob recurse once per level in
Python 3.11, so a tree 1,000 folders deep ended them in a RecursionError naming nothing, and
both skip a folder they cannot list without a word, so its files were silently left out.
Here a folder that cannot be listed and a folder nested deeper than MAX_FOLDER_DEPTH are each
one fault naming the folder, and the walk goes on with the rest.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable, Iterator

# Segments of a relative path to a folder: far deeper than any site (the demo's deepest input
# is 4), far short of Python's recursion limit and of PATH_MAX for folders of any name length.
MAX_FOLDER_DEPTH = 64


@dataclass(frozen=True)
class Fault:
    """A folder the walk could not go into: its path relative to the walk's base, what a walk
    expects of a folder and what it found."""

    rel: str
    expected: str
    found: str


def walk(top: str, rel_top: str, faults: list[Fault], skip: Callable[[str], bool] = lambda name: False
         ) -> Iterator[tuple[str, str, list[os.DirEntry]]]:
    """(folder path, its relative path, its entries sorted by name) for `top` (whose relative path
    is `rel_top`, "" for the base itself) and every folder below it, parents before children,
    in sorted order. A symlinked folder is listed among its parent's entries and not entered;
    an entry whose name `skip` accepts is left out (and not entered). A folder that cannot be
    listed, or one deeper than MAX_FOLDER_DEPTH, is appended to `faults` and not entered. As
    with os.walk's dirnames, a caller may remove entries from the list it is given to keep the
    walk out of them."""
    stack = [(top, rel_top)]
    while stack:
        path, rel = stack.pop()
        depth = rel.count("/") + 1 if rel else 0
        if depth > MAX_FOLDER_DEPTH:
            faults.append(Fault(rel, f"folders nested at most {MAX_FOLDER_DEPTH} deep", f"a folder {depth} deep (not read)"))
            continue
        try:
            with os.scandir(path) as it:
                entries = sorted((e for e in it if not skip(e.name)), key=lambda e: e.name)
        except OSError as exc:
            faults.append(Fault(rel or ".", "a folder that can be read", f"{exc.strerror or exc} (not read)"))
            continue
        yield path, rel, entries
        prefix = f"{rel}/" if rel else ""
        stack.extend((e.path, prefix + e.name) for e in reversed(entries) if _is_folder(e))


def _is_folder(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:  # gone since the listing
        return False
