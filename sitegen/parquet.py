"""Parquet artifacts, read as the JSON records a harness would otherwise have written.

A harness at scale writes Parquet rather than JSONL (2.47 million cells are a 2 GB JSONL file).
Each row becomes the JSON object its line would have been, and goes through the same contract
and the same rules, so a problem still names the file, the row (in place of a line) and the
JSON path of the column: `data/canonic/cells.parquet row 17 $.judgments[0].anchors.voice`.

What JSON cannot say, Parquet is not allowed to say either, each one problem at its row and
column: a NaN or an infinity, an integer outside 64 bits, bytes, dates and other non-JSON
types, a string longer than the limit, a map holding a key twice. A null field is an absent
key (Parquet has no absent field), except below the fields named in `keep_nulls`, where null
is a value of its own. Struct field names and map keys are screened like JSON keys.

The file is read once, as every input is (a regular file inside the repository, within the
size limit), and hashed; batches of rows are decoded from those bytes, so what is validated is
what was hashed.
"""

from __future__ import annotations

import datetime
import decimal
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from sitegen.errors import Problem, short_repr
from sitegen.load import JsonRecord, Loaded, as_limits, input_target, json_path, read_bytes, rel_path

INT64 = 2**63


@dataclass(frozen=True)
class RawBatch:
    """Consecutive rows of a Parquet file as an Arrow record batch: cheap to hand to a worker
    process (Arrow pickles it as a few buffers)."""

    rel: str
    first_row: int
    batch: Any  # pyarrow.RecordBatch
    max_string_chars: int | None = None


class ParquetReader:
    """Reads a Parquet file's rows in batches (see the module docstring). `source` is set, and
    the file counted among the inputs, once raw_batches() has started."""

    def __init__(self, root: Path, path: Path, loaded: Loaded, limits) -> None:
        self.root, self.path, self.loaded, self.limits = root, path, loaded, as_limits(limits)
        self.rel = rel_path(root, path)
        self.source = None

    @property
    def size(self) -> int:
        """The file's size in bytes (map_chunks' choice), 0 when it is not an input."""
        target, _ = input_target(self.root, self.path)
        return os.stat(target).st_size if target is not None else 0

    def raw_batches(self, rows: int = 5000) -> Iterator[RawBatch]:
        import pyarrow as pa
        import pyarrow.parquet as pq

        src, data = read_bytes(self.root, self.path, self.loaded, self.limits)
        self.source = src
        if data is None:
            return
        try:
            pf = pq.ParquetFile(pa.BufferReader(data))
            total = pf.metadata.num_rows
        except (pa.ArrowException, OSError) as exc:
            self._unreadable(exc)
            return
        if total > self.limits.max_records:
            self.loaded.problems.append(Problem(self.rel, None, "", f"a file of at most {self.limits.max_records:,} records (rows)",
                                                f"{total:,} rows"))
            self.loaded.incomplete.add(self.rel)
            return
        first = 1
        try:
            for batch in pf.iter_batches(batch_size=rows):
                yield RawBatch(self.rel, first, batch, self.limits.max_string_chars)
                first += batch.num_rows
        except (pa.ArrowException, OSError) as exc:  # a damaged row group: what came before is checked
            self._unreadable(exc)

    def _unreadable(self, exc: Exception) -> None:
        self.loaded.problems.append(Problem(self.rel, None, "", "a Parquet file", f"{type(exc).__name__}: {str(exc).splitlines()[0]}"))
        self.loaded.incomplete.add(self.rel)


def parse_batch(raw: RawBatch, screen: Callable[[str], bool] | None = None,
                keep_nulls: frozenset[str] = frozenset()) -> tuple[list[JsonRecord], list[Problem]]:
    """Every row of a batch as a JsonRecord (its row number as its line), and the problems of
    the rows that are not JSON; a row with a problem is left out, as a bad JSONL line is.
    `screen(key)` marks a record whose keys (at any depth) it is true of."""
    import pyarrow as pa

    records: list[JsonRecord] = []
    problems: list[Problem] = []
    row_type = pa.struct(list(raw.batch.schema))
    fast = _Converters(screen, raw.max_string_chars, keep_nulls).of(row_type, False)
    for row, value in enumerate(raw.batch.to_pylist(), start=raw.first_row):
        try:
            records.append(JsonRecord(raw.rel, row, fast(value)))
            continue
        except _Bail:  # the row has a problem or a screened key: _Row says which, and where
            pass
        record, found = row_by_value(raw, row, value, row_type, screen, keep_nulls)
        if found:
            problems.extend(found)
        else:
            records.append(record)
    return records, problems


def row_by_value(raw: RawBatch, row: int, value: dict, row_type, screen: Callable[[str], bool] | None,
                 keep_nulls: frozenset[str]) -> tuple[JsonRecord | None, list[Problem]]:
    """One row converted value by value (_Row): its record, or None and its problems."""
    found: list[Problem] = []
    state = _Row(raw.rel, row, found, screen, raw.max_string_chars, keep_nulls)
    value = state.json(value, row_type, (), False)
    return (None, found) if found else (JsonRecord(raw.rel, row, value, state.screened), found)


class _Bail(Exception):
    """A row the converters of _Converters cannot pass as it is: _Row converts it again."""


class _Converters:
    """The usual row's conversion, worked out once per batch from the Arrow type (a Canonic cell:
    about 44 µs a row through _Row, which asks the type of every value again and builds its
    JSON path as it goes, 2.47 million rows at 1000x data).

    A converter returns exactly what _Row.json returns for a row in which _Row finds no problem
    and no screened key, and raises _Bail for any other row, which _Row then converts: so the
    problems, and the rows marked screened, are always _Row's own. It may bail on a row _Row
    would pass (a type it does not know, a key not of str): that costs time, never a
    difference (tests/test_parquet.py compares the two on rows of every kind)."""

    def __init__(self, screen: Callable[[str], bool] | None, max_chars: int | None, keep_nulls: frozenset[str]) -> None:
        self.screen, self.max_chars, self.keep_nulls = screen, max_chars, keep_nulls
        self.made: dict[tuple, Callable[[Any], Any]] = {}

    def key_ok(self, k: str) -> bool:
        """What _Row.key lets pass without a problem or a screened mark."""
        return ((self.max_chars is None or len(k) <= self.max_chars)
                and (self.screen is None or not self.screen(k)))

    def of(self, t, keep: bool) -> Callable[[Any], Any]:
        """The converter of a non-null value of type t (`keep`: its null fields are kept)."""
        import pyarrow as pa

        types = pa.types
        if not types.is_struct(t):
            keep = False  # only a struct's null fields depend on it
        made = self.made.get((t, keep))
        if made is not None:
            return made
        if types.is_struct(t):
            made = self._struct(t, keep)
        elif types.is_map(t):
            made = self._map(t)
        elif types.is_list(t) or types.is_large_list(t) or types.is_fixed_size_list(t):
            made = self._list(t)
        elif types.is_string(t) or types.is_large_string(t):
            made = self._text
        elif types.is_boolean(t) or types.is_int8(t) or types.is_int16(t) or types.is_int32(t) or types.is_int64(t) \
                or types.is_uint8(t) or types.is_uint16(t) or types.is_uint32(t):
            made = _same  # within 64 bits whatever its value
        elif types.is_float32(t) or types.is_float64(t):
            made = _finite
        else:
            made = self._any
        self.made[(t, keep)] = made
        return made

    def _struct(self, t, keep: bool) -> Callable[[Any], Any]:
        fields = [(f.name, self.of(f.type, f.name in self.keep_nulls), self.key_ok(f.name)) for f in t]

        def struct(v: dict) -> dict:
            out = {}
            for name, conv, ok in fields:
                x = v.get(name)
                if x is None and not keep:
                    continue
                if not ok:
                    raise _Bail
                out[name] = None if x is None else conv(x)
            return out

        return struct

    def _map(self, t) -> Callable[[Any], Any]:
        plain, kept = self.of(t.item_type, False), self.of(t.item_type, True)
        keep_nulls, checked = self.keep_nulls, {}  # key -> key_ok(key), for this batch's keys

        def mapping(v: list) -> dict:
            out = {}
            for k, x in v:
                if type(k) is not str or k in out:
                    raise _Bail
                ok = checked.get(k)
                if ok is None:
                    ok = checked[k] = self.key_ok(k)
                if not ok:
                    raise _Bail
                out[k] = None if x is None else (kept if k in keep_nulls else plain)(x)
            return out

        return mapping

    def _list(self, t) -> Callable[[Any], Any]:
        conv = self.of(t.value_type, False)
        if conv is _same:
            return list
        return lambda v: [None if x is None else conv(x) for x in v]

    def _text(self, v: str) -> str:
        if self.max_chars is not None and len(v) > self.max_chars:
            raise _Bail
        return v

    def _any(self, v: Any) -> Any:
        """A value of a type the others do not know, as _Row's last branches take it."""
        if isinstance(v, bool):
            return v
        if isinstance(v, str):
            return self._text(v)
        if isinstance(v, int) and -INT64 <= v < INT64:
            return v
        if isinstance(v, float):
            return _finite(v)
        raise _Bail


def _same(v: Any) -> Any:
    return v


def _finite(v: float) -> float:
    if not math.isfinite(v):
        raise _Bail
    return v


class _Row:
    """One row's conversion, led by the Arrow type of each value: the problems it finds, and
    whether a screened key occurs."""

    def __init__(self, rel: str, row: int, problems: list[Problem], screen, max_chars: int | None, keep_nulls: frozenset[str]):
        self.rel, self.row, self.problems, self.screen = rel, row, problems, screen
        self.max_chars, self.keep_nulls = max_chars, keep_nulls
        self.screened = False

    def bad(self, loc: tuple, expected: str, found: str) -> None:
        self.problems.append(Problem(self.rel, self.row, json_path(loc), expected, found))

    def key(self, k: Any, loc: tuple) -> str | None:
        if not isinstance(k, str):
            self.bad(loc, "text keys (JSON's)", short_repr(k))
            return None
        if self.max_chars is not None and len(k) > self.max_chars:
            self.bad(loc, f"a key of at most {self.max_chars:,} characters", f"{len(k):,} characters")
        if self.screen is not None and self.screen(k):
            self.screened = True
        return k

    def json(self, v: Any, t, loc: tuple, keep: bool) -> Any:
        import pyarrow as pa

        if v is None:
            return None
        if pa.types.is_struct(t):  # an object: a null field is an absent key, unless kept
            out = {}
            for f in t:
                x = v.get(f.name)
                if x is None and not keep:
                    continue
                k = self.key(f.name, (*loc, f.name))
                if k is not None:
                    out[k] = self.json(x, f.type, (*loc, k), k in self.keep_nulls)
            return out
        if pa.types.is_map(t):  # an object too, from its (key, value) pairs
            out = {}
            for k, x in v:
                k = self.key(k, (*loc, k))
                if k is None:
                    continue
                if k in out:
                    self.bad((*loc, k), "each key of a map once", f"{short_repr(k)} again")
                    continue
                out[k] = self.json(x, t.item_type, (*loc, k), k in self.keep_nulls)
            return out
        if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
            return [self.json(x, t.value_type, (*loc, i), False) for i, x in enumerate(v)]
        if isinstance(v, bool):
            return v
        if isinstance(v, str):
            if self.max_chars is not None and len(v) > self.max_chars:
                self.bad(loc, f"a string of at most {self.max_chars:,} characters", f"{len(v):,} characters")
            return v
        if isinstance(v, int):
            if not -INT64 <= v < INT64:
                self.bad(loc, "an integer between -2^63 and 2^63-1", str(v))
            return v
        if isinstance(v, float):
            if not math.isfinite(v):
                self.bad(loc, "a finite number (JSON has no NaN or infinity)", repr(v))
            return v
        kind = ("a date or time" if isinstance(v, (datetime.date, datetime.time, datetime.timedelta))
                else "a decimal" if isinstance(v, decimal.Decimal) else "bytes" if isinstance(v, (bytes, bytearray))
                else type(v).__name__)
        self.bad(loc, "a string, number, boolean, list, struct or map (what JSON can hold)", f"{kind} ({t})")
        return None
