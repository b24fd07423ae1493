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

    def render(self, cap: int | None = SHOWN_PER_FILE) -> str:
        """Every problem counted; at most `cap` lines of them per file (None: no cap, `validate
        --all`), then how many more that file has (a runaway artifact would otherwise print a
        line per key) and how to see them. In a file of more problems than SHOWN_PER_FILE, the
        same problem on several lines (the same key, expected and found) is one line that names
        the first and counts them: 48 samples of one fault are not 48 lines hiding the others."""
        n = sum(1 + p.more for p in self.problems)
        lines = [f"{n:,} problem{'s' if n != 1 else ''} in the inputs:"]
        capped_any = False
        for file, group in itertools.groupby(self.problems, key=lambda p: p.file):
            group = list(group)
            rows = _repeats(group) if len(group) > SHOWN_PER_FILE else [[p] for p in group]
            shown = rows if cap is None else rows[:cap]
            lines += [_repeated_line(row, cap is None) for row in shown]
            capped_any = capped_any or len(shown) < len(rows)
            hidden = sum(1 + p.more for row in rows[len(shown):] for p in row) + sum(p.more for row in shown for p in row)
            if hidden:
                lines.append(f"{shown_path(file)}: {hidden:,} more problem{'s' if hidden != 1 else ''} not shown")
        if capped_any:
            lines.append(ALL_HINT)
        return "\n".join(lines)


ALL_HINT = "(run sitegen validate --all to list them all)"
LOCATIONS_SHOWN = 5  # of a repeated problem's lines, named on its one line (all with --all)


def _repeats(problems: list[Problem]) -> list[list[Problem]]:
    """One file's problems (in report order) grouped where they differ only in their line,
    each group where its first problem is."""
    groups: dict[tuple, list[Problem]] = {}
    for i, p in enumerate(problems):
        groups.setdefault((p.path, p.expected, p.found) if p.line is not None else (i,), []).append(p)
    return list(groups.values())


def _repeated_line(row: list[Problem], every: bool) -> str:
    if len(row) == 1:
        return str(row[0])
    unit = "rows" if row[0].file.endswith(".parquet") else "lines"
    named = [str(p.line) for p in (row if every else row[:LOCATIONS_SHOWN])]  # no 1,000: the list is comma-separated
    rest = ", …" if len(named) < len(row) else ""
    return f"{row[0]} ({len(row):,} {unit}: {', '.join(named)}{rest})"


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
