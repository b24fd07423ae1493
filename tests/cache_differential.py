"""The cache differential: for an input file of the demo, a small edit that still parses, then
a build warm (with the cache and output of a build of the unedited inputs) and a build cold
(`cache=False`, no cache on disk at all). Both must give the same exit status, the same
problems and the same output, file for file, byte for byte and mode for mode; and `validate`
with the cache, the cold build's exit status and problems (of the inputs): the cache may skip
work, never a check.

    python tests/cache_differential.py [--only REL ...] [--sample N --seed S]

runs every edit (or those named, or a seeded sample) and prints one line per mismatch and
the counts. tests/test_cache_differential.py runs a seeded sample on every CI run.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import stat
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

from conftest import CACHE_DIR, REPO_ROOT, SITE_INPUTS, copy_site  # noqa: E402

from sitegen.build import build, validate  # noqa: E402
from sitegen.config import load_config  # noqa: E402
from sitegen.errors import InputError, SitegenError  # noqa: E402

# The known hole: Canonic's cached result did not cover the Show Bibles. Every sample has it.
BIBLE = "content/canonic/bibles/the-office.md"
SEED = 20261201  # the CI sample's seed; any other seed is as good, this one is fixed


def input_files(root: Path = REPO_ROOT) -> list[str]:
    """Every input file of the demo (content, data, templates, assets, pyproject.toml), sorted."""
    files = []
    for part in SITE_INPUTS:
        base = root / part
        files += [base] if base.is_file() else [p for p in base.rglob("*") if p.is_file()]
    return sorted(p.relative_to(root).as_posix() for p in files)


# --------------------------------------------------------------------------- the edits


def _leaves(value: Any, loc: tuple = ()) -> list[tuple]:
    """The locations of every number and string leaf of a JSON value, in document order."""
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in _leaves(v, loc + (k,))]
    if isinstance(value, list):
        return [leaf for i, v in enumerate(value) for leaf in _leaves(v, loc + (i,))]
    return [loc] if isinstance(value, (int, float, str)) and not isinstance(value, bool) else []


def _edit_leaf(value: Any) -> Any:
    """`value` with its middle leaf changed: a number by one, a string by a word."""
    leaves = _leaves(value)
    if not leaves:
        return value
    *path, last = leaves[len(leaves) // 2]
    target = value
    for part in path:
        target = target[part]
    old = target[last]
    target[last] = old + " (edited)" if isinstance(old, str) else old + 1
    return value


def edit(root: Path, rel: str) -> str:
    """Apply the small edit for `rel` in the site at `root`; returns what it did, in words."""
    path = root / rel
    data = path.read_bytes()
    if rel == "pyproject.toml":
        text, n = re.subn(r'^(title\s*=\s*")', r"\1Edited ", data.decode("utf-8"), count=1, flags=re.M)
        assert n == 1, "no title in pyproject.toml"
        path.write_text(text, encoding="utf-8")
        return "title prefixed with 'Edited'"
    if rel.endswith(".json"):
        path.write_text(json.dumps(_edit_leaf(json.loads(data)), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        return "its middle leaf changed"
    if rel.endswith(".jsonl"):
        lines = data.decode("utf-8").split("\n")
        filled = [i for i, line in enumerate(lines) if line.strip()]
        i = filled[len(filled) // 2]
        lines[i] = json.dumps(_edit_leaf(json.loads(lines[i])), ensure_ascii=False)
        path.write_text("\n".join(lines), encoding="utf-8")
        return f"line {i + 1}'s middle leaf changed"
    if rel.endswith(".md"):  # a word, not only white space: a Show Bible's fingerprint ignores trailing space
        path.write_bytes(data.rstrip(b"\n") + b"\n\nEdited.\n")
        return "a paragraph appended"
    path.write_bytes(data + b" \n")
    return "a space and a newline appended"


# --------------------------------------------------------------------------- the builds


@dataclass
class Outcome:
    status: int
    problems: list[str]
    files: dict[str, tuple[str, int]]  # output path -> (SHA-256, mode)
    input_error: bool = False  # the problems are the inputs' (an InputError), which validate reports too


def _tree(out: Path) -> dict[str, tuple[str, int]]:
    if not out.is_dir():
        return {}
    return {p.relative_to(out).as_posix(): (hashlib.sha256(p.read_bytes()).hexdigest(), stat.S_IMODE(p.stat().st_mode))
            for p in sorted(out.rglob("*")) if p.is_file()}


def _run(root: Path, out: Path, cache: bool) -> Outcome:
    try:
        build(load_config(root), out, cache=cache)
    except InputError as exc:
        return Outcome(1, [str(p) for p in exc.problems], _tree(out), input_error=True)
    except SitegenError as exc:
        return Outcome(1, [str(exc)], _tree(out))
    except Exception as exc:  # noqa: BLE001 - a crash is an outcome to compare too
        return Outcome(1, [f"unexpected {type(exc).__name__}: {exc}"], _tree(out))
    return Outcome(0, [], _tree(out))


def _check(root: Path, cache: bool) -> Outcome:
    """`sitegen validate`: its exit status and problems (it writes nothing)."""
    try:
        validate(load_config(root), cache=cache)
    except InputError as exc:
        return Outcome(1, [str(p) for p in exc.problems], {})
    except SitegenError as exc:
        return Outcome(1, [str(exc)], {})
    except Exception as exc:  # noqa: BLE001 - a crash is an outcome to compare too
        return Outcome(1, [f"unexpected {type(exc).__name__}: {exc}"], {})
    return Outcome(0, [], {})


def _link_tree(src: Path, dest: Path) -> None:
    """A copy of a tree made of hard links: builds replace files, never write into them."""
    if src.is_dir():
        shutil.copytree(src, dest, copy_function=os.link)


class Differential:
    """The unedited demo built once with the cache (the warm state every edit starts from):
    built here, or given as (its site, its output), as the test suite's demo build is. It is
    only read: each edit's warm state is hard links to it, which a build replaces and never
    writes into."""

    def __init__(self, work: Path, base: tuple[Path, Path] | None = None):
        self.work = work
        if base is None:
            self.base, self.base_out = copy_site(work / "base"), work / "base-out"
            first = _run(self.base, self.base_out, cache=True)
            assert first.status == 0, first.problems
        else:
            self.base, self.base_out = base

    def compare(self, rel: str) -> tuple[str, list[str]]:
        """(what the edit did, the differences between the warm and the cold build: none)."""
        case = self.work / "case"
        shutil.rmtree(case, ignore_errors=True)
        root = copy_site(case / "site")
        did = edit(root, rel)
        cold = _run(root, case / "cold", cache=False)  # before any cache is there to be read
        assert not (root / CACHE_DIR).exists(), "a cold build wrote a cache"
        _link_tree(self.base / CACHE_DIR, root / CACHE_DIR)
        _link_tree(self.base_out, case / "warm")
        warm_check = _check(root, cache=True)
        warm = _run(root, case / "warm", cache=True)
        if warm.status != 0:  # a failed build leaves its output as it was: compare the failure only
            cold.files = warm.files = {}
        shutil.rmtree(case, ignore_errors=True)
        # validate with the cache against the build without it: the same exit status and problems
        # when the build succeeded or the inputs failed (a validation writes nothing, so the
        # failures of a build's writing are not expected of it)
        found = differences(warm, cold)
        if cold.status == 0 or cold.input_error:
            found += [f"validate warm, build cold: {d}" for d in differences(warm_check, Outcome(cold.status, cold.problems, {}))]
        return did, found


def differences(warm: Outcome, cold: Outcome) -> list[str]:
    out = []
    if warm.status != cold.status:
        out.append(f"exit status {warm.status} warm, {cold.status} cold")
    if warm.problems != cold.problems:
        out.append(f"problems warm {warm.problems[:3]} != cold {cold.problems[:3]}")
    for path in sorted(set(warm.files) | set(cold.files)):
        if warm.files.get(path) != cold.files.get(path):
            out.append(f"{path}: {warm.files.get(path)} warm, {cold.files.get(path)} cold")
    return out


def sample(n: int, seed: int = SEED, files: list[str] | None = None) -> list[str]:
    """The Show Bible edit and n - 1 others drawn with `seed`."""
    rest = [rel for rel in (files or input_files()) if rel != BIBLE]
    return [BIBLE] + sorted(random.Random(seed).sample(rest, n - 1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="these input files only")
    parser.add_argument("--sample", type=int, help="a seeded sample of this many edits (the Show Bible's among them)")
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    files = args.only or (sample(args.sample, args.seed) if args.sample else input_files())
    mismatches = 0
    with tempfile.TemporaryDirectory(prefix="sitegen-differential-") as tmp:
        diff = Differential(Path(tmp))
        for i, rel in enumerate(files, start=1):
            did, found = diff.compare(rel)
            mismatches += bool(found)
            print(f"[{i}/{len(files)}] {rel} ({did}): {'MISMATCH' if found else 'same'}", flush=True)
            for line in found[:20]:
                print(f"    {line}", flush=True)
    print(f"{len(files)} edits, {mismatches} mismatches")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
