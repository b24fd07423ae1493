"""The exception hierarchy. The CLI maps each to an exit status::

    SitegenError                 exit 1, message printed
    ├── InputError               exit 1: one line per Problem (file, JSON path, expected, found)
    └── BuildError               exit 1: a stage failed for a reason that is not the input's

A stage never prints; it raises. Validation collects every problem it can find before
raising one InputError, so a maintainer fixes all of them in one pass.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import Callable, Iterable, TypeVar

T = TypeVar("T")


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with one input, located precisely enough to find it in an editor."""

    file: str  # path relative to the site root, with forward slashes
    line: int | None  # 1-based line for JSONL and markdown, row for Parquet; None for a whole document
    path: str  # JSON path such as $.judgments[0].anchors.voice, or "" for the whole file
    expected: str
    found: str
    # Further problems of the same document that were counted but not itemised (see
    # capped): the report says how many, without a million lines.
    more: int = 0

    def __str__(self) -> str:
        file = shown_path(self.file)
        if self.line is None:
            where = file
        else:  # a Parquet file has rows, not lines
            where = f"{file} row {self.line}" if file.endswith(".parquet") else f"{file}:{self.line}"
        path = f" {self.path}" if self.path else ""
        return f"{where}{path}: expected {self.expected}; found {self.found}"


def shown_path(path: str) -> str:
    """A file's path as a report shows it, on its one line: a character that does not print (a
    line break or a tab in a file name, a bidi override) written as its escape."""
    return path if path.isprintable() else "".join(c if c.isprintable() else repr(c)[1:-1] for c in path)


SHOWN_PER_FILE = 20  # problem lines an InputError shows per file: enough to see the pattern
KEPT_PER_DOCUMENT = 1000  # problems made of one document's faults; the rest only counted


class SitegenError(Exception):
    """Base of every error sitegen raises on purpose."""


class InputError(SitegenError):
    """The site repository's inputs break the contract. Carries every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(set(problems), key=_problem_key)
        super().__init__(self.render())

    def render(self) -> str:
        """Every problem counted; at most SHOWN_PER_FILE lines of them per file, then how many
        more that file has (a runaway artifact would otherwise print a line per key)."""
        n = sum(1 + p.more for p in self.problems)
        lines = [f"{n:,} problem{'s' if n != 1 else ''} in the inputs:"]
        for file, group in itertools.groupby(self.problems, key=lambda p: p.file):
            group = list(group)
            lines += [str(p) for p in group[:SHOWN_PER_FILE]]
            hidden = sum(1 + p.more for p in group[SHOWN_PER_FILE:]) + sum(p.more for p in group[:SHOWN_PER_FILE])
            if hidden:
                lines.append(f"{shown_path(file)}: {hidden:,} more problem{'s' if hidden != 1 else ''} not shown")
        return "\n".join(lines)


class BuildError(SitegenError):
    """A stage could not complete for a reason other than invalid input."""


def capped(faults: Iterable[T], make: Callable[[T], Problem]) -> list[Problem]:
    """The problems of one document's faults: make(fault) for the first KEPT_PER_DOCUMENT,
    the last of them counting the rest (`more`), which are never made. One line of a million
    unknown keys is a million faults; as many Problems would take gigabytes to report twenty."""
    faults = iter(faults)
    out = [make(f) for f in itertools.islice(faults, KEPT_PER_DOCUMENT)]
    rest = sum(1 for _ in faults)
    if rest:
        out[-1] = replace(out[-1], more=out[-1].more + rest)
    return out


def _problem_key(p: Problem) -> tuple:
    return (p.file, p.line if p.line is not None else -1, p.path, p.expected, p.found)


def short_repr(value: object, limit: int = 60) -> str:
    """A value as it appears in an error message: JSON-ish, truncated, one line."""
    if isinstance(value, str):
        text = '"' + value.replace("\n", "\\n") + '"'
    elif value is None:
        text = "null"
    elif value is True:
        text = "true"
    elif value is False:
        text = "false"
    elif isinstance(value, dict):
        text = "an object" if value else "an empty object"
    elif isinstance(value, list):
        text = f"a list of {len(value)}" if value else "an empty list"
    else:
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
