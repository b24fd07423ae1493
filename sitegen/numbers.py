"""Published numbers: the one rounding rule every displayed number follows, and the check
that every computed number is finite before anything is written.

The rule (stated on each family's method page): a number is shown rounded half away from
zero at its decimal representation, the shortest one that reads back as the same float
(what the CSV and JSON downloads carry). 68.55 is shown as 68.6, though the float nearest
68.55 lies just below it and printf-style formatting gives 68.5.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from decimal import ROUND_HALF_UP, Context, Decimal
from itertools import chain
from typing import Any, Iterable, Iterator

from sitegen.errors import InputError, Problem, short_repr


def display(x: float | int, places: int, *, sign: bool = False, times100: bool = False, grouped: bool = False) -> str:
    """`x` with `places` decimals under the site's rule: display(68.55, 1) == "68.6",
    display(-0.05, 1) == "-0.1". `sign` writes a + before a number that is not negative (a
    difference); `times100` shows a share on the 0-100 scale, shifted in decimal so that
    0.6855 shows as 68.6 as 68.55 does; `grouped` separates thousands with commas. A number that is not finite is written as Python
    writes it ("nan"): sentences are made before check_finite runs, and it refuses them with
    the rest, naming the inputs, before anything is written."""
    if not math.isfinite(x):
        return repr(float(x))
    # repr(float(x)): the shortest digits that read back as x (numpy's own repr adds its type).
    # The text of the number, not the number, keys the memo: -0.0 == 0.0, and -0.0 with a sign
    # is "+0.0" where 0 (an int) with a sign is "+0".
    return _display(str(int(x)) if isinstance(x, int) else repr(float(x)), places, sign, times100, grouped)


@functools.lru_cache(maxsize=1 << 16)
def _display(digits: str, places: int, sign: bool, times100: bool, grouped: bool) -> str:
    # A page shows the same few values many times (a 0-20 criterion in half points has 41), and
    # the decimal rounding is the costliest step of a table cell: computed once per value.
    d = Decimal(digits)
    if times100:
        d = d.scaleb(2)
    # quantize fails (InvalidOperation) when its result has more digits than the context's
    # precision, 28 by default: a float as large as 1e30 shown to two places needs 33.
    exact = Context(prec=max(28, d.adjusted() + places + 2))
    rounded = d.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP, context=exact)
    if rounded.is_zero():  # -0.0, or -0.04 at one place: "-0.0" would read as a value below zero
        rounded = rounded.copy_abs()
    text = f"{rounded:,}" if grouped else str(rounded)
    return "+" + text if sign and not text.startswith("-") else text


EXPECTED = "finite computed numbers"


def check_finite(outputs: dict) -> "Checked":
    """Every number each family's Outputs publish (table rows, figure data, and whatever its
    pages and sections are given to show) is finite; otherwise one Problem per number,
    naming the input files it was computed from. Texts are written from the same results
    the pages are given, so they are checked through them. A table's rows or a page's context
    that its family makes only when written are checked then, through what this returns."""
    problems: list[Problem] = []
    checked = Checked()
    for fid, o in outputs.items():
        problems.extend(_problems(fid, o, checked))
    if problems:
        raise InputError(problems)
    return checked


class Checked:
    """What check_finite searched, per family: the objects it read (alive as long as the
    family's Outputs, so no id of theirs is reused) and the inputs they came from. A context
    made later is searched without entering them again: a row page's context shares its
    family's boards and tables with every other page."""

    def __init__(self) -> None:
        self.seen: dict[str, frozenset[int]] = {}
        self.sources: dict[str, dict[str, str]] = {}

    def context(self, fid: str, where: str, ctx: Any) -> None:
        """Check a context made when its page is rendered; InputError if it holds a bad number."""
        seen, named = set(), set()
        skip = self.seen.get(fid, frozenset())
        found = [_problem(self.sources.get(fid, {}), f"{short_repr(v)} in what {fid} gives {where} to show ({path.lstrip('.')})")
                 for path, v in _floats(ctx, "", seen, named, skip)]
        if found:
            raise InputError(found)


def table_rows(table) -> list[tuple]:
    """A table's rows: as given, or, for a table its family makes when written, made now and
    checked (check_finite saw only the function): InputError naming each bad number."""
    if not callable(table.rows):
        return table.rows
    rows = table.rows()
    found = list(_table_problems(table, rows))
    if found:
        raise InputError(found)
    return rows


def _table_problems(t, rows: list[tuple]) -> Iterator[Problem]:
    if _all_finite(chain.from_iterable(rows)):
        return
    for i, row in enumerate(rows, start=1):
        for col, v in zip(t.columns, row):
            if _bad(v):
                yield _problem(t.sources, f"{short_repr(v)} in table {t.stem}, row {i}, column {col}")


def _problems(fid: str, o, checked: Checked) -> Iterator[Problem]:
    every: dict[str, str] = {}
    for t in o.tables:
        every.update(t.sources)
        if not callable(t.rows):  # made when written: checked then (table_rows)
            yield from _table_problems(t, t.rows)
    for f in o.figures:
        every.update(f.sources)
        if _all_finite(chain.from_iterable(map(dict.values, f.data))):
            continue
        for i, d in enumerate(f.data, start=1):
            for col, v in d.items():
                if _bad(v):
                    yield _problem(f.sources, f"{short_repr(v)} in the data of figure {f.name}, row {i}, column {col}")
    # Pages share their family's results (and its tables): each object is read once.
    seen = {id(x) for x in (*o.tables, *o.figures)}
    contexts = [(p.path, p.context) for p in o.pages if not callable(p.context)]
    contexts += [(name, ctx) for name, (_tpl, ctx) in o.fragments.items()]
    named: set[int] = set()
    for where, ctx in contexts:
        for path, v in _floats(ctx, "", seen, named):
            yield _problem(every, f"{short_repr(v)} in what {fid} gives {where} to show ({path.lstrip('.')})")
    checked.seen[fid] = frozenset(seen)
    checked.sources[fid] = every


def _all_finite(values: Iterable[Any]) -> bool:
    """Whether the floats among `values` are all finite, in C-level passes: an infinity or a
    NaN makes their sum non-finite, and a sum of finite floats is finite unless it overflows
    (then False, and the caller looks at each value)."""
    return math.isfinite(sum(filter(float.__instancecheck__, values)))


def _problem(sources: dict[str, str], found: str) -> Problem:
    return Problem(", ".join(sorted(sources)) or "the inputs", None, "", EXPECTED, found)


def _bad(v: Any) -> bool:
    return isinstance(v, float) and not math.isfinite(v)


def _floats(value: Any, path: str, seen: set[int], named: set[int], skip: frozenset[int] = frozenset()) -> Iterator[tuple[str, float]]:
    """Every non-finite float reachable from `value` through dicts, lists, tuples and
    dataclasses, with its path, except below what `seen` holds (searched already, from an
    earlier context), `skip` (searched by an earlier check, see Checked) or `named` (reported
    already: a value shared by several contexts is reported at the first). Validated input
    records (pydantic models) are not entered: their contracts refuse infinities and NaN; nor
    are objects of a type whose numbers were checked where they were made (checked_where_made)."""
    # A page context holds hundreds of thousands of values and none is bad on a build that
    # succeeds: the search names no path until it has found a bad number below it.
    if _has_bad(value, seen, skip):
        yield from _named(value, path, named)


_LEAVES = (str, bytes, int, bool, type(None))


def _enterable(value: Any) -> bool:
    return not (isinstance(value, _LEAVES) or callable(value) or hasattr(type(value), "model_fields"))


# What _has_bad does with a value, decided by its type alone (callable(), a dataclass, a
# pydantic model and the isinstance tests all are), once per type: a row page's context is
# mostly named tuples, which tests of the exact type (type(v) is tuple) sent the slow way.
_SKIP, _FLOAT, _DICT, _ITEMS, _FIELDS = range(5)
_KINDS: dict[type, int] = {str: _SKIP, int: _SKIP, bool: _SKIP, bytes: _SKIP, type(None): _SKIP, float: _FLOAT,
                           dict: _DICT, list: _ITEMS, tuple: _ITEMS}


def checked_where_made(kind: type) -> None:
    """Declare that every float an object of type `kind` holds was checked where it was made:
    from the columns of a validated table, each checked whole (finite_column) before any object
    was made from it. check_finite and Checked.context then do not enter such objects, as they
    do not enter validated input records: a row page at 100x data holds about 60 judge calls,
    and searching the 493,000 calls field by field took 3 s of the build."""
    _KINDS[kind] = _SKIP


def finite_column(values: Any, what: str, sources: dict[str, str]) -> None:
    """Every value of an Arrow column of floats is finite (nulls allowed); otherwise InputError
    naming the inputs and, of each kind of bad value, the first one's position in the column
    (a validated table's rows are in the order of its input file)."""
    import pyarrow.compute as pc  # late: only a family that holds Arrow tables needs it

    bad = pc.invert(pc.is_finite(values))
    if not pc.any(bad).as_py():
        return
    found = pc.filter(values, bad).to_pylist()
    at = pc.indices_nonzero(pc.fill_null(bad, False)).to_pylist()
    problems, named = [], set()
    for i, v in zip(at, found):
        if repr(v) not in named:
            named.add(repr(v))
            problems.append(_problem(sources, f"{short_repr(v)} in {what} (number {i + 1} of them, in the file's order)"))
    raise InputError(problems)


def _kind(value: Any) -> int:
    if isinstance(value, float):  # a float's subclass (numpy's)
        return _FLOAT
    if not _enterable(value):
        return _SKIP
    if isinstance(value, dict):
        return _DICT
    if isinstance(value, (list, tuple)):
        return _ITEMS
    return _FIELDS if dataclasses.is_dataclass(value) else _SKIP


def _has_bad(value: Any, seen: set[int], skip: frozenset[int] = frozenset()) -> bool:
    """Whether a non-finite float is reachable from `value` (an explicit stack: contexts nest
    deeper than recursion should go, and a call per value is the cost), not entering what
    `seen` or `skip` holds."""
    stack = [value]
    isfinite, kinds = math.isfinite, _KINDS
    while stack:
        v = stack.pop()
        kind = kinds.get(type(v))
        if kind is None:
            kind = kinds[type(v)] = _kind(v)
        if kind == _SKIP:
            continue
        if kind == _FLOAT:
            if not isfinite(v):
                return True
            continue
        if id(v) in seen or id(v) in skip:
            continue
        seen.add(id(v))
        if kind == _DICT:
            stack.extend(v.values())
        elif kind == _ITEMS:
            stack.extend(v)
        else:
            stack.extend(getattr(v, f.name) for f in dataclasses.fields(v))
    return False


def _named(value: Any, path: str, seen: set[int]) -> Iterator[tuple[str, float]]:
    """The bad floats below `value`, each with its path (only on the way to a failure)."""
    if isinstance(value, float):
        if not math.isfinite(value):
            yield path, value
        return
    if not _enterable(value) or id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _named(v, f"{path}[{short_repr(k)}]", seen)
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            yield from _named(v, f"{path}[{i}]", seen)
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            yield from _named(getattr(value, f.name), f"{path}.{f.name}", seen)
