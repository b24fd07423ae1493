"""The machinery of the mutation corpus (tests/test_mutations.py): which mutants exist, how
one is written, and how one is run and classified. Kept apart from the test so the worker
processes import it without pytest's fixtures.

A mutant is a small picklable `Spec` (file, JSON location, kind); a worker turns it into
bytes from its own copy of the pristine file, so no 1 MB string ever crosses a process.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import os
import pickle
import shutil
import sys
import time
import traceback
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

FAMILY_IDS = ("canonic", "chronicle", "nextchapter", "vignette")

# Objects whose keys are data, not field names of the contract (a rubric's dimension ids, a
# profile's weights, free-form call parameters). Their values share one validator, so their
# keys are collapsed to `*` like list indices: `$.judgments[*].anchors.*`.
MAP_OBJECTS: dict[str, set[str]] = {
    "data/canonic/cells.jsonl": {"$.judgments[*].anchors"},
    "data/canonic/probes.json": {"$.probes[*].judgments[*].anchors"},
    "data/chronicle/cohort.json": {"$.profiles[*].weights"},
    "data/chronicle/runs.jsonl": {"$.windows[*].runs[*].dimensions", "$.calls[*].params", "$.windows[*].runs[*].evidence",
                                  "$.scoring.whole_book[*].evidence"},
    "data/chronicle/reference.jsonl": {"$.windows[*].runs[*].dimensions", "$.windows[*].runs[*].evidence"},
    "data/nextchapter/calls.jsonl": {"$.candidate.scores", "$.reference.scores", "$.author.scores"},
}

# Fields that name something defined elsewhere (in the same file or another of the family),
# with a well-formed value that names nothing. Mutated at the first occurrence that holds a
# value (a null `withdrawn_by` refers to nothing).
DANGLING: dict[str, dict[str, Any]] = {
    "data/canonic/sweep.json": {"$.tasks[*].domain": "no-such-domain", "$.tasks[*].show": "no-such-show"},
    "data/canonic/cells.jsonl": {"$.model": "no-such/model", "$.task": "no-such-task", "$.judgments[*].judge": "no-such/judge"},
    "data/canonic/outputs.jsonl": {"$.model": "no-such/model", "$.task": "no-such-task"},
    "data/canonic/probes.json": {"$.probes[*].domain": "no-such-domain", "$.probes[*].task": "no-such-task",
                                 "$.probes[*].judgments[*].judge": "no-such/judge"},
    "data/canonic/external.json": {"$.predeclared[*]": "no-such-domain", "$.entries[*].model": "no-such/model"},
    "data/canonic/freeze.json": {"$.items[*].id": "no-such-rubric",
                                 "$.items[*].path": "content/canonic/bibles/no-such-show.md"},
    "data/chronicle/cohort.json": {"$.briefs[*].profile": "no-such-profile", "$.entrants[*].cohort": "no-such-cohort",
                                   "$.entrants[*].withdrawn_by": "A99", "$.exhibit.system": "no-such/system",
                                   "$.exhibit.base_model": "no-such/model"},
    "data/chronicle/runs.jsonl": {"$.entrant": "no-such/entrant", "$.brief": "no-such-brief", "$.cohort": "no-such-cohort",
                                  "$.windows[*].runs[*].profile": "no-such-profile"},
    "data/chronicle/reference.jsonl": {"$.profile": "no-such-profile"},
    "data/chronicle/selection.json": {"$.candidates[*].duplicate_of": 999_999, "$.candidates[*].exclusion.documented_by": "A99"},
    "data/chronicle/freeze.json": {"$.items[*].id": "protocol-no-such-version"},
    "data/nextchapter/run.json": {"$.reference.model": "no-such/model", "$.audition.chosen": "no-such/judge",
                                  "$.audition.readings[*].judge": "no-such/judge", "$.audition.readings[*].item": "no-such-item",
                                  "$.audition.readings[*].writer": "no-such/writer",
                                  "$.earlier_panel.marks[*].judge": "no-such/judge", "$.earlier_panel.marks[*].model": "no-such/model",
                                  "$.models[*].starting_effort": "minimal"},
    "data/nextchapter/chapters.jsonl": {"$.model": "no-such/model", "$.item": "no-such-item"},
    "data/nextchapter/calls.jsonl": {"$.model": "no-such/model", "$.item": "no-such-item"},
    **{f"data/vignette/{sweep}": {"$.model": "no-such/model", "$.prompt": "no-such-prompt", "$.judgments[*].judge": "no-such-judge"}
       for sweep in ("sweep-s1.jsonl", "sweep-s2.jsonl")},
    "data/vignette/pairwise.jsonl": {"$.model_a": "no-such/model", "$.model_b": "no-such/model", "$.prompt": "no-such-prompt",
                                     "$.judge": "no-such-judge"},
}

EXTRA_KEY = "zz-extra"  # a valid slug, so a map refuses it for being extra, not for its spelling
HUGE = 1_000_000  # characters in the huge string

# The bad values a leaf is set to, by the JSON type it has. Each entry: kind -> the raw JSON
# text that replaces the leaf (a function of the original value). Numeric abuse (negative,
# out of range, NaN, Infinity) goes to numbers, unicode oddities are appended to strings (so
# what is tested is the character, not a changed value), and every leaf gets the kinds that
# break any field: null, an empty string, a list, an object, a 1 MB string.
def _dump(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False)


def _with_raw_suffix(orig: str, escape: str) -> str:
    """The original string with a character appended, written as a JSON escape (\\ud800 has no
    UTF-8 form, so it only exists as an escape)."""
    return _dump(orig)[:-1] + escape + '"'


ANY_LEAF = {
    "null": lambda v: "null",
    "empty-string": lambda v: '""',
    "wrong-type:list": lambda v: "[1]",
    "wrong-type:object": lambda v: '{"x": 1}',
    "huge-string": lambda v: '"' + "x" * HUGE + '"',
}
NUMBER_LEAF = {
    "wrong-type:string": lambda v: _dump(str(v)),
    "wrong-type:bool": lambda v: "true",
    "negative": lambda v: "-1",
    "out-of-range": lambda v: "1000000000" if isinstance(v, int) else "1e9",  # beyond every bound
    "nan": lambda v: "NaN",
    "infinity": lambda v: "Infinity",
}
STRING_LEAF = {
    "wrong-type:number": lambda v: "1",
    "lone-surrogate": lambda v: _with_raw_suffix(v, "\\ud800"),
    "nul": lambda v: _with_raw_suffix(v, "\\u0000"),
    "rtl-override": lambda v: _dump(v + "\u202e"),
    "zero-width-joiner": lambda v: _dump(v + "\u200d"),
}
# The two invisible characters are tried one at a time at the load, where a field's rules see
# them; a field that accepts both then goes through the rest of validate() with both appended
# (see batches).
INVISIBLE = ("rtl-override", "zero-width-joiner")
INVISIBLE_PAIR = "rtl-override+zero-width-joiner"
PAIRED_LEAF = {INVISIBLE_PAIR: lambda v: _dump(v + "\u202e\u200d")}
BOOL_LEAF = {"wrong-type:string": lambda v: _dump(str(v).lower()), "wrong-type:number": lambda v: "1"}
NULL_LEAF = {"wrong-type:number": lambda v: "1", "wrong-type:string": lambda v: '"x"', "wrong-type:bool": lambda v: "true"}


def leaf_kinds(value: Any) -> dict:
    if isinstance(value, bool):
        typed = BOOL_LEAF
    elif isinstance(value, (int, float)):
        typed = NUMBER_LEAF
    elif isinstance(value, str):
        typed = STRING_LEAF
    else:
        typed = NULL_LEAF
    kinds = {**ANY_LEAF, **typed}
    if value is None:
        kinds.pop("null")
    if value == "":
        kinds.pop("empty-string")
    return kinds


WHOLE_FILE_KINDS = ("duplicate-key", "truncated", "invalid-utf8")


@dataclass(frozen=True)
class Spec:
    """One mutant. `loc` is the concrete location (keys and indices) inside the document on
    `line` (1-based, JSONL) or the whole document (line None); `pattern` the same location
    with list indices (and map keys) collapsed."""

    family: str
    rel: str
    kind: str
    pattern: str
    line: int | None = None
    loc: tuple = ()
    arg: Any = None  # the dangling reference's value

    @property
    def label(self) -> str:
        where = f"{self.rel}:{self.line}" if self.line else self.rel
        return f"{where} {self.pattern} [{self.kind}]"


# --------------------------------------------------------------------------- generating


def data_files(root: Path) -> list[str]:
    """Every JSON/JSONL artifact of every family, as a POSIX path relative to root."""
    out = []
    for fid in FAMILY_IDS:
        for p in sorted((root / "data" / fid).iterdir()):
            if p.is_file() and p.suffix in (".json", ".jsonl"):
                out.append(p.relative_to(root).as_posix())
    return out


def _key_text(key: str) -> str:
    return f".{key}"


def walk(value: Any, maps: set[str], pattern: str = "$", loc: tuple = ()) -> Iterator[tuple[str, tuple, Any]]:
    """(pattern, loc, value) of every node, in document order."""
    yield pattern, loc, value
    if isinstance(value, dict):
        is_map = pattern in maps
        for k, v in value.items():
            yield from walk(v, maps, pattern + (".*" if is_map else _key_text(k)), loc + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk(v, maps, pattern + "[*]", loc + (i,))


def documents(root: Path, rel: str) -> list[tuple[int | None, Any]]:
    """(line, parsed value) of a .json document or every line of a .jsonl file."""
    data = (root / rel).read_bytes().decode("utf-8")
    if rel.endswith(".jsonl"):
        return [(i, json.loads(t)) for i, t in enumerate(data.split("\n"), start=1) if t.strip()]
    return [(None, json.loads(data))]


def first_occurrences(root: Path, rel: str) -> OrderedDict[str, tuple[int | None, tuple, Any]]:
    """Every path pattern of a file at its first occurrence (the first line that has it)."""
    maps = MAP_OBJECTS.get(rel, set())
    seen: OrderedDict[str, tuple[int | None, tuple, Any]] = OrderedDict()
    for line, doc in documents(root, rel):
        for pattern, loc, value in walk(doc, maps):
            seen.setdefault(pattern, (line, loc, value))
    return seen


def generate(root: Path) -> list[Spec]:
    specs: list[Spec] = []
    for rel in data_files(root):
        fid = rel.split("/")[1]
        occurrences = first_occurrences(root, rel)
        for pattern, (line, loc, value) in occurrences.items():
            if loc and isinstance(loc[-1], str):  # object keys only: a list element is no key
                specs.append(Spec(fid, rel, "drop-key", pattern, line, loc))
            if isinstance(value, dict):
                specs.append(Spec(fid, rel, "extra-key", pattern, line, loc))
            elif isinstance(value, list):
                if value:
                    specs.append(Spec(fid, rel, "empty-list", pattern, line, loc))
            else:
                specs.extend(Spec(fid, rel, kind, pattern, line, loc) for kind in leaf_kinds(value))
        for pattern, bad in DANGLING.get(rel, {}).items():
            spec = _first_with_value(root, rel, pattern, bad, fid)
            assert spec is not None, f"{rel}: no occurrence of {pattern} with a value (the corpus table is stale)"
            specs.append(spec)
        specs.extend(Spec(fid, rel, kind, "(whole file)") for kind in WHOLE_FILE_KINDS)
    return specs


def _first_with_value(root: Path, rel: str, pattern: str, bad: Any, fid: str) -> Spec | None:
    maps = MAP_OBJECTS.get(rel, set())
    for line, doc in documents(root, rel):
        for p, loc, value in walk(doc, maps):
            if p == pattern and value is not None:
                return Spec(fid, rel, "dangling-ref", pattern, line, loc, bad)
    return None


# --------------------------------------------------------------------------- writing


_MARK = "\u0001mutant-leaf\u0001"  # stands for the leaf until the raw JSON text replaces it


def _dump_doc(doc: Any, jsonl: bool) -> str:
    """The demo's own formatting (sitegen.families.demo_files): a pristine document dumps
    back to its bytes exactly, so a mutant differs from the demo only where it was mutated."""
    if jsonl:
        return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


def _parent(doc: Any, loc: tuple) -> Any:
    for part in loc[:-1]:
        doc = doc[part]
    return doc


def mutate_document(doc: Any, spec: Spec, jsonl: bool) -> str:
    """The text of one mutated document (a .json file, or one JSONL line without its LF)."""
    doc = copy.deepcopy(doc)
    raw = None
    if spec.kind == "drop-key":
        del _parent(doc, spec.loc)[spec.loc[-1]]
    elif spec.kind == "extra-key":
        target = _parent(doc, spec.loc)[spec.loc[-1]] if spec.loc else doc
        # A value of the right type for a map (a copy of its first value), so a map that
        # accepts it is accepting an extra entry, not a badly typed one.
        target[EXTRA_KEY] = copy.deepcopy(next(iter(target.values()))) if target else 1
    elif spec.kind == "empty-list":
        _parent(doc, spec.loc)[spec.loc[-1]] = []
    elif spec.kind == "dangling-ref":
        _parent(doc, spec.loc)[spec.loc[-1]] = spec.arg
    else:
        parent = _parent(doc, spec.loc)
        value = parent[spec.loc[-1]]
        raw = (PAIRED_LEAF.get(spec.kind) or leaf_kinds(value)[spec.kind])(value)
        parent[spec.loc[-1]] = _MARK
    text = _dump_doc(doc, jsonl)
    if raw is not None:
        marker = _dump(_MARK)
        assert text.count(marker) == 1
        text = text.replace(marker, raw)
    return text


def mutate_file(data: bytes, spec: Spec) -> bytes:
    """The mutated bytes of a whole file, from its pristine bytes."""
    jsonl = spec.rel.endswith(".jsonl")
    if spec.kind in WHOLE_FILE_KINDS:
        return _whole_file(data, spec.kind, jsonl)
    if not jsonl:
        return mutate_document(json.loads(data), spec, False).encode("utf-8")
    lines = data.split(b"\n")
    lines[spec.line - 1] = mutate_document(json.loads(lines[spec.line - 1]), spec, True).encode("utf-8")
    return b"\n".join(lines)


def _whole_file(data: bytes, kind: str, jsonl: bool) -> bytes:
    if kind == "truncated":
        # Cut in half, mid-line: a JSONL file cut exactly after a newline is a shorter, valid
        # file (whole records missing), which is not what this mutation is about.
        cut = len(data) // 2
        while cut > 1 and data[cut - 1:cut] == b"\n":
            cut -= 1
        return data[:cut]
    if kind == "invalid-utf8":
        mid = len(data) // 2
        return data[:mid] + b"\xff" + data[mid:]
    if kind == "duplicate-key":
        # The first object's first key, written twice with its own value: the quietest
        # duplicate there is (a parser that keeps the last one would not even change it).
        end = data.index(b"\n") if jsonl else len(data)
        first = json.loads(data[:end])
        key, value = next(iter(first.items()))
        brace = data.index(b"{") + 1
        return data[:brace] + f"{_dump(key)}: {_dump(value)}, ".encode() + data[brace:]
    raise ValueError(kind)


# --------------------------------------------------------------------------- running


@dataclass(frozen=True)
class Outcome:
    spec: Spec
    status: str  # "rejected", "accepted" or "crash"
    path: str  # "fast" (the family's load) or "full" (validate() after a clean load)
    problems: tuple  # the problems as (file, line, path, expected, found), at most MAX_KEPT
    n_problems: int
    bad_messages: tuple  # why the rejection's message is not good enough, if it is not
    error: str = ""  # the traceback of a crash
    cpu: float = 0.0  # CPU seconds the worker spent on it


MAX_KEPT = 5


class _Worker:
    root: Path
    config: Any
    pristine: dict[str, bytes]


_W = _Worker()


def init_worker(pristine_site: str, work_dir: str) -> None:
    """Each worker builds on its own copy of the site (copied once) and rewrites only the
    mutated file per mutant."""
    from sitegen.config import load_config

    root = Path(work_dir) / f"worker-{os.getpid()}"
    shutil.copytree(pristine_site, root)
    _W.root = root
    _W.config = load_config(root)
    _W.pristine = {rel: (root / rel).read_bytes() for rel in data_files(root)}
    memoize_intake()
    memoize_compute()


def _replace_everywhere(original, replacement) -> None:
    """Swap a function for its memoized form in every sitegen module that imported it by name."""
    for mod in list(sys.modules.values()):
        if getattr(mod, "__name__", "").startswith("sitegen") and getattr(mod, original.__name__, None) is original:
            setattr(mod, original.__name__, replacement)


class _Lru(OrderedDict):
    def __init__(self, size: int):
        super().__init__()
        self.size = size

    def get_or(self, key, make):
        if key in self:
            self.move_to_end(key)
        else:
            self[key] = make()
            if len(self) > self.size:
                self.popitem(last=False)
        return self[key]


def _exact_json(value) -> bytes | str:
    """A record's value as JSON text: two values give the same text only when they are equal
    and of the same types (orjson, ten times the standard library's speed; a record it cannot
    encode, such as one holding a lone surrogate, goes to the standard library, as a str that
    no orjson bytes can equal)."""
    try:
        return orjson.dumps(value)
    except TypeError:
        return json.dumps(value, ensure_ascii=False)


def _digest(lines: list[bytes]) -> bytes:
    return hashlib.sha256(b"".join(lines)).digest()


def _call_marked(flag: list, fn, *args):
    flag.append(True)
    try:
        return fn(*args)
    finally:
        flag.pop()


RECORD_CACHE_SIZE = 100_000  # validated records kept per worker, the oldest dropped first
LINE_CACHE_SIZE = 20_000  # parsed JSONL lines kept per worker (the demo's files hold about 9,000)


def memoize_intake() -> None:
    """Reuse the intake of the files a mutant did not touch.

    A mutant changes one file, but its family's load() re-reads and re-validates all of them
    (the cross-document checks need them). Three steps of that are pure functions, memoized
    here by exactly what determines their result, so an unchanged input costs a lookup:

    - sitegen.load.map_chunks runs `fn(chunk)` for every chunk of a large JSONL file, and may
      already run it in another process: a pure function of the picklable `fn` (the Canonic
      checker and the sweep it checks against) and the chunk's bytes;
    - sitegen.load.parse_chunk: the records of a chunk, line by line from each line's bytes;
    - sitegen.contract.validate_many: the models of a list of records, from those records
      (the very objects the parse memo returned, kept alive by the cache so their identity
      cannot be reused); and below that, each record's model and problems from its line and
      its exact JSON, so that in a mutated file only the mutated record is validated again
      (inside a chunk function too, whose chunk memo misses for the mutated chunk).

    Lists handed out are copies (callers extend them); records and models are not mutated by
    their consumers (the models are frozen). A renamed function is simply not memoized:
    slower, never wrong."""
    import sitegen.contract as contract_mod
    import sitegen.load as load_mod

    map_original, parse_original = load_mod.map_chunks, load_mod.parse_chunk
    validate_original = contract_mod.validate_many
    chunk_cache, line_cache, model_cache, record_cache = _Lru(6), _Lru(LINE_CACHE_SIZE), _Lru(8), OrderedDict()
    inside_map = []  # set while a chunk function runs: its own parse is cached one level up


    def map_chunks(fn, chunks, n_bytes, *args, **kwargs):
        try:
            fn_key = hashlib.sha256(pickle.dumps(fn)).digest()
        except Exception:  # noqa: BLE001 - not picklable: nothing safe to key on
            yield from map_original(fn, chunks, n_bytes, *args, **kwargs)
            return
        for chunk in chunks:
            key = (fn_key, chunk.rel, chunk.first_line, _digest(chunk.lines))
            result = chunk_cache.get_or(key, lambda chunk=chunk: _call_marked(inside_map, fn, chunk))
            yield tuple(list(x) if isinstance(x, list) else x for x in result)

    def parse_chunk(chunk, screen=None):
        # Line by line: a chunk's lines are parsed each on its own (one decoder's memory of
        # the keys it screened changes no result), so in the mutated chunk only the mutated
        # line is parsed again, also inside a chunk function whose chunk memo missed.
        records, problems = [], []
        for i, raw in enumerate(chunk.lines, start=chunk.first_line):
            key = (chunk.rel, i, raw, chunk.max_string_chars, screen)
            found = line_cache.get_or(key, lambda: parse_original(dataclasses.replace(chunk, first_line=i, lines=[raw]), screen))
            records += found[0]
            problems += found[1]
        return records, problems

    def validate_many(adapter, records, rel):
        if inside_map:  # the chunk's function missed (its chunk is the mutated one): by record
            return by_record(adapter, records, rel)
        key = (id(adapter), rel, tuple(id(r) for r in records))
        _kept_alive, (values, problems) = model_cache.get_or(key, lambda: (list(records), by_record(adapter, records, rel)))
        return list(values), list(problems)

    def by_record(adapter, records, rel):
        """validate_many, each record looked up by its line and its exact JSON (a mutant
        changes one record of a file: the others are validated once per worker, not once
        per mutant). The same models and problems, in record order."""
        keys = [(id(adapter), rel, r.line, _exact_json(r.value)) for r in records]
        found = {k: record_cache[k] for k in keys if k in record_cache}
        todo = [(r, k) for r, k in zip(records, keys) if k not in found]
        if todo:
            # The list adapters validate each element on its own (list[Model], no list-level
            # rule), so a subset validates as it would within the whole file.
            values, problems = validate_original(adapter, [r for r, _ in todo], rel)
            bad = {p.line for p in problems}
            good = iter(values)
            for r, k in todo:
                found[k] = record_cache[k] = (None if r.line in bad else next(good), [p for p in problems if p.line == r.line])
        while len(record_cache) > RECORD_CACHE_SIZE:
            record_cache.popitem(last=False)
        out_values, out_problems = [], []
        for k in keys:
            value, probs = found[k]
            if value is not None:
                out_values.append(value)
            out_problems.extend(probs)
        return out_values, out_problems

    _replace_everywhere(map_original, map_chunks)
    _replace_everywhere(parse_original, parse_chunk)
    _replace_everywhere(validate_original, validate_many)


def _resolve(module: str, name: str):
    import importlib

    return getattr(importlib.import_module(module), name)


class _PureMemo:
    """A pure function of strings, numbers and arrays, memoized by its arguments' values (an
    array by its bytes). Pickled as the function it wraps, so a process pool still works."""

    def __init__(self, fn, size: int = 4096):
        self.fn, self.cache = fn, _Lru(size)
        self.__name__ = fn.__name__

    @staticmethod
    def _key(x):
        if isinstance(x, (list, tuple)) or hasattr(x, "__array__"):
            import numpy as np

            a = np.asarray(x)
            return ("array", str(a.dtype), a.shape, a.tobytes())
        return x

    def __call__(self, *args, **kwargs):
        key = (tuple(self._key(a) for a in args), tuple(sorted((k, self._key(v)) for k, v in kwargs.items())))
        return self.cache.get_or(key, lambda: self.fn(*args, **kwargs))

    def __reduce__(self):
        return (_resolve, (self.fn.__module__, self.fn.__name__))


def memoize_compute() -> None:
    """The costliest pure functions of compute, reused across mutants that change at most one
    record: Canonic's seeded bootstraps (a row's interval depends only on its scores and seed)
    and NextChapterBench's memorisation screen (a chapter against its item's two texts).
    (A function that moved is simply not memoized: slower, never wrong.)"""
    import importlib

    for module, name in (("sitegen.stats", "percentile_bootstrap"), ("sitegen.stats", "difference_bootstrap"),
                         ("sitegen.families.nextchapter.screen", "screen")):
        fn = getattr(importlib.import_module(module), name, None)
        if callable(fn) and not isinstance(fn, _PureMemo):
            _replace_everywhere(fn, _PureMemo(fn))


LOADED = "loaded"  # the status of a mutant whose family loads cleanly: validate() decides (run_batch)


def run(spec: Spec) -> Outcome:
    """The fast path: the mutated family's load(), where every input problem is raised
    (reading, the contract, the checks across documents); families are independent, so only
    the mutated one is loaded. A mutant it rejects (or crashes on) is classified here; one it
    loads cleanly comes back LOADED, for run_batch."""
    from sitegen import collector
    from sitegen.errors import InputError
    from sitegen.site_families import for_site
    from sitegen.load import Loaded

    start = time.process_time()
    path = _W.root / spec.rel
    path.write_bytes(mutate_file(_W.pristine[spec.rel], spec))
    try:
        loaded = Loaded()
        with collector.working():  # as a build loads it
            for_site(_W.root, [spec.family])[spec.family].load(_W.root, loaded, _W.config.limits)
        if loaded.problems:
            outcome = _rejected(spec, "fast", InputError(loaded.problems).problems)
        else:
            outcome = Outcome(spec, LOADED, "fast", (), 0, ())
    except InputError as exc:
        outcome = _rejected(spec, "fast", exc.problems)
    except Exception:  # noqa: BLE001 - any other exception is what "crash" means
        outcome = Outcome(spec, "crash", "fast", (), 0, (), _short_traceback())
    finally:
        path.write_bytes(_W.pristine[spec.rel])
    return dataclasses.replace(outcome, cpu=time.process_time() - start)


# A unit is what one file of a batch carries: one mutant, or a field's two invisible-character
# mutants at once (its text then holds each one's text and one character more, which nothing
# after the load, computations or escaping, treats apart from other text).
Unit = tuple[Spec, ...]


def batches(loaded: list[Spec]) -> list[tuple[Unit, ...]]:
    """The mutants that loaded cleanly, grouped for validate(): a batch holds units of one
    family, at most one per file, so one validation decides them all when it accepts. Mutants
    of different files meet only through references, and a mutant that loaded cleanly left
    every reference whole; two mutants of one file could hide each other (one dropping the
    record the other's field is shown in), so they are never batched together. Deterministic:
    units in corpus order, each in the first batch of its family without its file."""
    units: dict[tuple, list[Spec]] = {}
    for spec in loaded:
        key = (spec.rel, spec.line, spec.loc, "invisible") if spec.kind in INVISIBLE else (spec,)
        units.setdefault(key, []).append(spec)
    out: list[list[Unit]] = []
    for unit in map(tuple, units.values()):
        head = unit[0]
        for batch in out:
            if batch[0][0].family == head.family and all(u[0].rel != head.rel for u in batch):
                batch.append(unit)
                break
        else:
            out.append([unit])
    return [tuple(b) for b in out]


def run_batch(batch: tuple[Unit, ...]) -> list[Outcome]:
    """validate() once with every unit of the batch written to its file (with their family
    alone enabled: the others' inputs are pristine). An acceptance accepts every mutant of the
    batch; anything else is decided again by each mutant's own validation."""
    specs = [spec for unit in batch for spec in unit]
    written = [dataclasses.replace(u[0], kind=INVISIBLE_PAIR) if len(u) > 1 else u[0] for u in batch]
    together = _full_with(written, specs[0])
    if together.status == "accepted" or len(specs) == 1:  # (a lone mutant's own outcome)
        return [dataclasses.replace(together, spec=spec, cpu=together.cpu / len(specs)) for spec in specs]
    return [_full_with([spec], spec) for spec in specs]


def _full_with(written: list[Spec], spec: Spec) -> Outcome:
    """_full(spec) with the mutants `written` in their files (one per file), the pristine
    bytes put back after; its cpu is the worker's CPU time for it."""
    start = time.process_time()
    try:
        for w in written:
            (_W.root / w.rel).write_bytes(mutate_file(_W.pristine[w.rel], w))
        outcome = _full(spec)
    finally:
        for w in written:
            (_W.root / w.rel).write_bytes(_W.pristine[w.rel])
    return dataclasses.replace(outcome, cpu=time.process_time() - start)


def _full(spec: Spec) -> Outcome:
    """The outcome of validate() on the site as it is on disk, with spec's family alone enabled."""
    from sitegen.build import validate
    from sitegen.errors import InputError

    try:
        validate(_W.config.model_copy(update={"families": [spec.family]}), cache=False)
        return Outcome(spec, "accepted", "full", (), 0, ())
    except InputError as exc:
        return _rejected(spec, "full", exc.problems)
    except Exception:  # noqa: BLE001 - any other exception is what "crash" means
        return Outcome(spec, "crash", "full", (), 0, (), _short_traceback())


def _short_traceback() -> str:
    lines = traceback.format_exc().strip().split("\n")
    return "\n".join(lines[-6:])


def _rejected(spec: Spec, stage: str, problems: list) -> Outcome:
    return Outcome(spec, "rejected", stage, tuple((p.file, p.line, p.path, p.expected, p.found) for p in problems[:MAX_KEPT]),
                   len(problems), tuple(message_faults(spec, problems)))


def message_faults(spec: Spec, problems: list) -> list[str]:
    """What is wrong with a rejection's report: a problem naming a file outside the mutated
    family, or no location (neither a JSON path nor a line); no problem in the mutated file.
    Problems may name another file of the family: a broken record leaves the records that
    refer to it dangling, and those are reported where the reference is."""
    faults = []
    family_dirs = (f"data/{spec.family}/", f"content/{spec.family}/")
    for p in problems:
        if not p.file.startswith(family_dirs) or not (_W.root / p.file).is_file():
            faults.append(f"names {p.file!r}, not a file of the {spec.family} inputs: {p}")
        elif not p.path.startswith("$") and p.line is None:
            faults.append(f"neither a JSON path nor a line: {p}")
    if not any(p.file == spec.rel for p in problems):
        faults.append(f"no problem names {spec.rel}")
    return faults[:MAX_KEPT]
