"""The content-keyed build cache: what a rebuild may reuse, and when.

Every key is a SHA-256 over the content of what a result depends on, never a timestamp:

    code     every file of the sitegen package, the Python version and the installed
             distributions (an upgraded jinja2 or vl-convert can change output bytes)
    limits   pyproject.toml's [tool.sitegen.limits], the only configuration a family is given
    family   code + limits + every file its declared inputs match (Family.inputs: folders
             and globs such as data/canonic/ and content/canonic/bibles/*.md)
                                                                         -> its computed Outputs,
             without page contexts ("families/")
    pages    code + templates/ + the site context (the site's title, base URL, families...
             from pyproject.toml) + the family's key                     -> its pages' HTML
    page     code + templates/ + the site context + one authored page + the keys of the
             families whose sections it places                           -> that page's HTML
    figure   its name, data and drawing code (figures.figure_key)         -> SVG, PNG, spec
    build    code + every input file                                      -> the whole output
    made     a family's pages key -> its pages as written (figures placed); its family key ->
             its table and figure-data files; code + an archive's members' hashes -> the
             archive. Not stored here: taken from the output being replaced, whose build
             recorded the keys (publish.Writer.take)

The cache may skip work, never a check. A family's load may read only files its declaration
matches (build.py refuses any other read as a bug in the family), so every file behind its
validation and its freeze fingerprints is in its key: a cached result is one that passed all
of them for these very bytes, and any change to one of them loads and checks the family again.

A family's pages are cached as a unit because their contexts share the family's whole result:
hashing each page's context separately pickles that result once per page (1.3 GB and 9 s
for the demo's 412 pages, measured), far more than rendering them. A unit larger than
build.PAGE_CACHE_BYTES is not kept (Canonic's pages at 100x data are 2.4 GB of HTML): a
rebuild that needs those pages takes them from the output it replaces when that was made from
the same key ("made"), and otherwise computes and renders the family again. Page contexts (validated
models, the family's own classes) are not cached at all: a cached family whose pages must be
rendered again (the templates, the site context or the code changed, or an authored page
placing its sections did) is loaded and computed afresh. Its cached entry names no class or
function of the family (figures keep their drawing function as a DrawRef), so a rebuild that
takes the family from the cache never imports it.

A no-op rebuild compares only the build key with the one recorded for the output directory,
then re-hashes the output against the manifest that build wrote, and checks every mode: a
site someone edited by hand, or that another build replaced meanwhile, is rebuilt, not
trusted. This module imports nothing heavy, so `sitegen build` answers a no-op without
loading DuckDB, pydantic or Altair.

Entries are data, never code: JSON in which tuples, bytes and sitegen's own result classes
are tagged and nothing else is accepted, behind a header line naming the entry's kind and key
and the SHA-256 of its payload. An entry written for another key, failing its checksum or not
decoding is a miss, never an error; a drawing function is stored by name and only a function
of a family package is ever called by it. A checksum catches damage, not forgery: whoever can
write .sitegen-cache/ can write an entry with a correct checksum, as whoever can write the
repository can change what it publishes. The cache is therefore an input of the same trust
as the repository it sits in, and it holds no code at all (jinja2's compiled templates are
kept beside sitegen's own code, never here: see render.environment): CI restores it only by
its exact key, never another branch's by a prefix, and `sitegen verify --source` rebuilds a
published site from scratch to compare every byte.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import importlib
import json
import math
import os
import stat
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any, Callable, Iterable

import orjson

from sitegen import clock
from sitegen.errors import BuildError
from sitegen.families import FeedEntry, Figure, Kept, Outputs, Page, Table
from sitegen.load import INPUT_PARTS, SourceFile, sha256_bytes, sha256_file, walk_inputs
from sitegen.output_dir import GIT

CACHE_DIR = ".sitegen-cache"
KEY_STEP, SAVE_STEP = "inputs key", "cache save"  # their names in a build's timings
KEEP_PER_KIND = 6  # entries kept per family (and for pages), newest first: a few branches' worth


def digest_tree(root: Path, parts: Iterable[str]) -> dict[str, str]:
    """relative path -> SHA-256 of every input under each part (a folder or a file) of root,
    sorted (load.walk_inputs). An entry that is not an input (a FIFO, a symlink out of the
    repository) is never opened: it maps to what it is, so its arrival changes the key and the
    build that follows refuses it. A missing part contributes nothing."""
    inputs, others = walk_inputs(root, parts)
    # hashlib and file reads release the GIL: two threads hash a 100x site's ~300 MB in half the
    # time. A task per file cost more than hashing a small one: 10,000 one-line pages took 2.3 s
    # (0.8 CPU-s) against 0.8 s in one loop; a large file is a task of its own, small ones go
    # HASH_BATCH to a task.
    with ThreadPoolExecutor(max_workers=2) as pool:
        hashed = [h for batch in pool.map(_hash_batch, _batches(list(inputs.values()))) for h in batch]
    hashes = dict(zip(inputs, hashed))
    hashes.update((rel, f"not an input: {p.found}") for rel, p in others.items())
    return dict(sorted(hashes.items()))


HASH_BATCH, LARGE_INPUT = 256, 1 << 20  # files to a hashing task; bytes of a file hashed alone


def _batches(paths: list[Path]) -> list[list[Path]]:
    """`paths` in consecutive batches (their order kept): each file of LARGE_INPUT bytes or more
    alone, the others up to HASH_BATCH together."""
    batches: list[list[Path]] = []
    small: list[Path] = []
    for path in paths:
        try:
            large = os.stat(path).st_size >= LARGE_INPUT
        except OSError:  # hashed as any file: _hash_or_why says why it cannot be read
            large = False
        if large or len(small) == HASH_BATCH:
            if small:
                batches.append(small)
            small = []
        if large:
            batches.append([path])
        else:
            small.append(path)
    if small:
        batches.append(small)
    return batches


def _hash_batch(paths: list[Path]) -> list[str]:
    return [_hash_or_why(p) for p in paths]


def _hash_or_why(path: Path) -> str:
    try:
        return sha256_file(path)
    except OSError as exc:  # unreadable: the reader that opens it reports it by name
        return f"unreadable: {exc.strerror or exc}"


def key_of(*parts: Any) -> str:
    """SHA-256 over a sequence of values (strings, numbers, lists, tuples, dicts with string
    keys, sitegen's result classes, functions by name), in order. Two different values never
    share an encoding: every container is tagged by its type (see _tree)."""
    h = hashlib.sha256()
    for part in parts:
        h.update(json.dumps(_tree(part, named=True), separators=(",", ":"), ensure_ascii=False).encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


_code: list[str] = []
PACKAGE = Path(__file__).resolve().parent  # what code_key hashes of sitegen's own files


def in_code(path: Path) -> bool:
    """Whether every file under PATH is one that code_key hashes (it lies in sitegen's package)."""
    return path.resolve().is_relative_to(PACKAGE)


def code_key() -> str:
    """The generator's identity: its own files, the interpreter and every installed distribution."""
    if not _code:
        paths: dict[str, str] = {}
        for dirpath, dirnames, filenames in os.walk(PACKAGE):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]  # compiled code: what the sources say
            for name in filenames:
                if not name.endswith((".pyc", ".pyo")):
                    path = os.path.join(dirpath, name)
                    paths[os.path.relpath(path, PACKAGE).replace(os.sep, "/")] = path
        with ThreadPoolExecutor(max_workers=2) as pool:
            files = dict(sorted(zip(paths, pool.map(_hash_or_why, paths.values()))))
        # Package folders only: the working directory on sys.path (python -m) must not count.
        folders = [e for e in sys.path if os.path.basename(e) in ("site-packages", "dist-packages") and os.path.isdir(e)]
        dists = sorted(name for entry in folders for name in os.listdir(entry) if name.endswith((".dist-info", ".egg-info")))
        _code.append(key_of(files, sys.version, dists))
    return _code[0]


# --------------------------------------------------------------------------- entries


ENTRY_SUFFIX = ".entry"


def write_entry(path: Path, kind: str, key: str, parts: list[bytes]) -> None:
    """Write an entry: a JSON header line (kind, key, each part's size, the SHA-256 of the
    parts) and then the parts. Written aside and renamed, so a killed build never leaves a
    half-written entry."""
    body = b"".join(parts)
    header = {"kind": kind, "key": key, "sizes": [len(x) for x in parts], "sha256": sha256_bytes(body)}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(orjson.dumps(header) + b"\n" + body)
    tmp.replace(path)


def read_entry(path: Path, kind: str, key: str) -> list[bytes] | None:
    """An entry's parts, or None when there is none, or it was written for another kind or key,
    or its parts are not the bytes its header hashed."""
    try:
        head, _, body = path.read_bytes().partition(b"\n")
        header = orjson.loads(head)
    except (OSError, orjson.JSONDecodeError):
        return None
    if not isinstance(header, dict) or header.get("kind") != kind or header.get("key") != key:
        return None
    sizes = header.get("sizes")
    if (not isinstance(sizes, list) or not all(type(n) is int and n >= 0 for n in sizes) or sum(sizes) != len(body)
            or header.get("sha256") != sha256_bytes(body)):
        return None
    parts, at = [], 0
    for n in sizes:
        parts.append(body[at:at + n])
        at += n
    return parts


class Cache:
    """Results by kind and key under ROOT/.sitegen-cache/<kind>/<key>.entry, as data (encode).

    put() only queues an entry; save() writes the queue, and the build calls it only once the
    inputs are found unchanged since their keys were taken, so a file edited mid-build can
    never leave a result filed under the key of its earlier content."""

    def __init__(self, root: Path):
        self.dir = root / CACHE_DIR
        self.pending: dict[tuple[str, str], tuple[Any, int]] = {}

    def _path(self, kind: str, key: str) -> Path:
        return self.dir / kind / f"{key}{ENTRY_SUFFIX}"

    def get(self, kind: str, key: str) -> Any | None:
        path = self._path(kind, key)
        parts = read_entry(path, kind, key)
        if parts is None or len(parts) != 1:
            return None
        try:
            value = decode(parts[0])
        except (ValueError, TypeError):  # not an entry this code wrote: only a miss
            return None
        try:
            os.utime(path)  # recently used, for prune's order only: the key, not a time, decides a hit
        except OSError:
            pass
        return value

    def put(self, kind: str, key: str, value: Any, keep: int = KEEP_PER_KIND) -> None:
        """Queue an entry; `keep`: how many entries of its kind survive the save."""
        self.pending[(kind, key)] = (value, keep)

    def save(self) -> None:
        keep: dict[str, int] = {}
        for (kind, key), (value, n) in sorted(self.pending.items(), key=lambda kv: kv[0]):
            write_entry(self._path(kind, key), kind, key, [encode(value)])
            keep[kind] = max(n, keep.get(kind, 0))
        for kind, n in keep.items():  # each folder once, after its entries: linear in the entries
            prune(self.dir, kind, n)
        self.pending.clear()


def prune(cache_dir: Path, kind: str, keep: int) -> None:
    """Delete all but the `keep` most recently used entries of a kind's folder (one listing).
    Only what the cache wrote is deleted: a regular file of that folder whose header names the
    kind and the key its name holds. The folder is reached from the cache folder one segment at
    a time, never through a symbolic link: one placed there since the build found none
    (unusable) is not followed either, so nothing outside the cache is ever deleted."""
    fd = _open_folder(cache_dir, kind)
    if fd is None:
        return
    try:
        with os.scandir(fd) as it:
            entries = sorted(((e.stat(follow_symlinks=False).st_mtime_ns, e.name) for e in it
                              if e.name.endswith(ENTRY_SUFFIX) and e.is_file(follow_symlinks=False)), reverse=True)
        for _, name in entries[keep:]:
            if _written_by_cache(fd, name, kind):
                os.unlink(name, dir_fd=fd)
    finally:
        os.close(fd)


_FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
HEADER_BYTES = 4096  # an entry's header line is far shorter: kind, key, a size per part, a SHA-256


def _open_folder(cache_dir: Path, kind: str) -> int | None:
    """A descriptor of cache_dir/<kind>, every segment opened without following a link; None
    when one is missing or is not a folder."""
    try:
        fd = os.open(cache_dir, _FOLDER_FLAGS)
    except OSError:
        return None
    for part in kind.split("/"):
        try:
            inner = os.open(part, _FOLDER_FLAGS, dir_fd=fd)
        except OSError:
            inner = None
        os.close(fd)
        if inner is None:
            return None
        fd = inner
    return fd


def _written_by_cache(folder_fd: int, name: str, kind: str) -> bool:
    """Whether `name` in the folder is an entry the cache wrote there: a regular file (opened
    without following a link, and without waiting on a FIFO) whose header line names `kind`
    and the key its name holds."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder_fd)
    except OSError:
        return False
    with open(fd, "rb") as fh:
        try:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                return False
            header = orjson.loads(fh.readline(HEADER_BYTES))
        except (OSError, orjson.JSONDecodeError):
            return False
    return isinstance(header, dict) and header.get("kind") == kind and header.get("key") == name.removesuffix(ENTRY_SUFFIX)


@dataclasses.dataclass(frozen=True)
class DrawRef:
    """A figure's drawing function by module and name. A cached family's figures hold this
    instead of the function, so reading them imports nothing; it is called (and the module
    imported) only when the figure cache has no drawing for the figure. Only a function of a
    family package, defined there under that very name, is ever called: a cache entry cannot
    name os.system, or a function a family module merely imported."""

    module: str
    qualname: str

    def __post_init__(self) -> None:
        if not self.module.startswith("sitegen.families."):
            raise ValueError(f"not a family's module: {self.module!r}")

    def __call__(self, data: list[dict]) -> dict:
        fn: Any = importlib.import_module(self.module)
        for part in self.qualname.split("."):
            fn = getattr(fn, part)
        if getattr(fn, "__module__", None) != self.module or getattr(fn, "__qualname__", None) != self.qualname:
            raise ValueError(f"{self.module}.{self.qualname} is not a function defined in {self.module}")
        return fn(data)


@dataclasses.dataclass(frozen=True)
class CachedRows:
    """A cached table's rows as the entry holds them (JSON text), made into rows only when the
    table is written (numbers.table_rows calls it): a rebuild takes most tables' files from
    the output it replaces, and decoding the rows of every family read from the cache was most
    of the time it took to read them."""

    text: str

    def __call__(self) -> list[tuple]:
        try:
            rows = _value(orjson.loads(self.text))
        except (ValueError, TypeError, KeyError, orjson.JSONDecodeError, RecursionError) as exc:
            raise BuildError(f"a table's rows in the build cache ({CACHE_DIR}/) cannot be read ({exc}): build with --no-cache") from None
        if type(rows) is not list:
            raise BuildError(f"a table's rows in the build cache ({CACHE_DIR}/) are not rows: build with --no-cache")
        return rows


# The only classes an entry may hold, by name: the results a family hands the build.
_CLASSES = {c.__name__: c for c in (Outputs, Page, Table, Figure, FeedEntry, Kept, SourceFile, DrawRef)}
_INT64 = range(-(2 ** 63), 2 ** 64)  # what orjson holds as a JSON number


def _tree(value: Any, named: bool = False) -> Any:
    """`value` as JSON in which no two values look alike: a JSON object only ever stands for a
    tag, {"t": tuple}, {"r": a list of tuples of plain values}, {"l": a table's rows as JSON
    text (CachedRows), outside keys}, {"d": [[key, value], ...]},
    {"b": base64 bytes}, {"c": [class, fields]},
    {"n": a NaN or infinity}, {"i": a large int}, and with `named` (keys) {"f": a function's
    name}, so a string cannot pass for a function nor a list for a tuple. Anything else is a
    TypeError, never a stand-in that might equal another value's."""
    kind = type(value)
    if value is None or kind in (str, bool):
        return value
    if kind is int:
        return value if value in _INT64 else {"i": str(value)}
    if kind is float:
        return value if math.isfinite(value) else {"n": repr(value)}
    if kind is list:
        if _plain(value):
            return value
        if value and _rows(value):
            return {"r": list(map(list, value))}
        return [_tree(v, named) for v in value]
    if kind is tuple:
        return {"t": list(value) if _plain(value) else [_tree(v, named) for v in value]}
    if kind is dict:
        if _TEXT.issuperset(map(type, value)) and _plain(list(value.values())):  # a record: a figure's datum, a summary
            pairs = list(map(list, value.items()))
        else:
            pairs = [[_tree(k, named), _tree(v, named)] for k, v in value.items()]
        if named:  # a key does not depend on the order a dict was filled in
            if not all(type(k) is str for k in value):
                raise TypeError("a dict with keys other than strings in a cache key")
            pairs.sort(key=lambda kv: kv[0])
        return {"d": pairs}
    if kind is bytes:
        return {"b": base64.b64encode(value).decode("ascii")}
    if kind is Table and not named:  # its rows as JSON text, decoded when written (CachedRows)
        rows = value.rows
        text = rows.text if type(rows) is CachedRows else orjson.dumps(_tree(rows)).decode("utf-8") if type(rows) is list else None
        if text is not None:
            fields = {f.name: {"l": text} if f.name == "rows" else _tree(getattr(value, f.name)) for f in dataclasses.fields(value)}
            return {"c": [kind.__name__, fields]}
    if _CLASSES.get(kind.__name__) is kind:
        return {"c": [kind.__name__, {f.name: _tree(getattr(value, f.name), named) for f in dataclasses.fields(value)}]}
    if named and callable(value):
        return {"f": f"{value.__module__}.{value.__qualname__}"}
    raise TypeError(f"a {kind.__module__}.{kind.__qualname__} cannot go into the build cache")


# What JSON holds as itself: a list of only these (a table's row, a figure's column) is taken
# whole, one C-level pass over its types instead of a call per value.
_PLAIN = frozenset({str, bool, int, float, type(None)})
_TEXT = frozenset({str, bool, type(None)})  # of those, the ones held as themselves whatever their value


def _rows(items: list) -> bool:
    """Whether `items` is a list of tuples of plain values (_plain): a table's rows, tagged
    {"r": [[...], ...]} as a whole rather than one {"t": ...} a row."""
    return set(map(type, items)) == {tuple} and _plain([x for row in items for x in row])


def _plain(items: list | tuple) -> bool:
    """Whether _tree() writes each of `items` as itself: a string, boolean or None, a finite
    float, an int orjson holds as a number. Checked for the whole list at once (a table's rows
    hold thousands), instead of a call of _tree per value."""
    kinds = set(map(type, items))
    if kinds <= _TEXT:
        return True
    if not kinds <= _PLAIN:
        return False
    ints = [v for v in items if type(v) is int]
    if ints and (min(ints) < _INT64.start or max(ints) >= _INT64.stop):
        return False
    return all(map(math.isfinite, [v for v in items if type(v) is float]))


def _value(tree: Any) -> Any:
    """The value _tree() encoded; ValueError or TypeError for anything it would not write."""
    if type(tree) in _PLAIN:
        return tree
    if type(tree) is list:
        return tree if _PLAIN.issuperset(map(type, tree)) else [_value(v) for v in tree]
    if type(tree) is not dict or len(tree) != 1:
        raise ValueError("not a tagged value")
    ((tag, inner),) = tree.items()
    if tag == "t":
        inner = _list(inner)
        return tuple(inner) if _PLAIN.issuperset(map(type, inner)) else tuple(_value(v) for v in inner)
    if tag == "d":
        pairs = _list(inner)
        if all(type(p) is list and len(p) == 2 and type(p[0]) is str and type(p[1]) in _PLAIN for p in pairs):
            return dict(pairs)  # string keys and plain values: a page's HTML by path, a record
        return {_value(k): _value(v) for k, v in (_pair(p) for p in pairs)}
    if tag == "r":
        rows = _list(inner)
        if not all(type(r) is list and _PLAIN.issuperset(map(type, r)) for r in rows):
            raise ValueError("not rows of plain values")
        return list(map(tuple, rows))
    if tag == "l":
        return CachedRows(_str(inner))
    if tag == "b":
        return base64.b64decode(_str(inner), validate=True)
    if tag == "n":
        return float({"nan": "nan", "inf": "inf", "-inf": "-inf"}[_str(inner)])
    if tag == "i":
        return int(_str(inner))
    if tag == "c":
        name, fields = _pair(inner)
        cls = _CLASSES[_str(name)]
        if type(fields) is not dict or set(fields) != {f.name for f in dataclasses.fields(cls)}:
            raise ValueError(f"not the fields of {name}")
        return cls(**{k: _value(v) for k, v in fields.items()})
    raise ValueError(f"unknown tag {tag!r}")


def _list(x: Any) -> list:
    if type(x) is not list:
        raise ValueError("not a list")
    return x


def _pair(x: Any) -> tuple:
    if type(x) is not list or len(x) != 2:
        raise ValueError("not a pair")
    return x[0], x[1]


def _str(x: Any) -> str:
    if type(x) is not str:
        raise ValueError("not a string")
    return x


def encode(value: Any) -> bytes:
    return orjson.dumps(_tree(value))


def decode(data: bytes) -> Any:
    try:
        return _value(orjson.loads(data))
    except (KeyError, orjson.JSONDecodeError, RecursionError) as exc:
        raise ValueError(str(exc)) from None


# --------------------------------------------------------------------------- family inputs


def digest_inputs(root: Path) -> dict[str, str]:
    return digest_tree(root, INPUT_PARTS)


def digest_inputs_later(root: Path) -> Future:
    """digest_inputs(root) in a background thread (the build's last check, run while it
    verifies the staged output)."""
    pool = ThreadPoolExecutor(max_workers=1)
    try:
        return pool.submit(digest_inputs, root)
    finally:
        pool.shutdown(wait=False)


def covers(inputs: Iterable[str], rel: str) -> bool:
    """Whether a family's declared inputs match `rel` (relative to the root, forward slashes):
    a folder ("data/canonic/") everything under it, a glob ("content/canonic/bibles/*.md") a
    path of as many segments, each matching its own, so `*` never crosses a "/"."""
    parts = rel.split("/")
    if any(p in ("", ".", "..") for p in parts):
        return False
    for pattern in inputs:
        if pattern.endswith("/"):
            if rel.startswith(pattern):
                return True
        else:
            want = pattern.split("/")
            if len(want) == len(parts) and all(fnmatchcase(p, w) for p, w in zip(parts, want)):
                return True
    return False


def family_key(digest: dict[str, str], fid: str, inputs: Iterable[str], limits: dict[str, Any], fronts: dict[str, str] | None = None) -> str:
    """What a family's result depends on: the generator's code, every file its declared inputs
    cover, and the input limits of the configuration, the one part of pyproject.toml a family
    is given (its load's `limits`). The rest of pyproject.toml is the site's (its title, base
    URL, which families it publishes, what the paper requires): it keys the pages that show
    it, not the families. Editing a setting no page shows (what the paper requires) computes
    no family again; one the pages show renders them again, and rendering a family's pages
    loads and computes it afresh (page contexts are not cached).

    `fronts`: for the entries of amendment logs, what keys each instead of its bytes (the hash
    of its front matter: a family is given no entry's text, sitegen.amendments)."""
    inputs, fronts = tuple(inputs), fronts or {}
    return key_of("family", fid, code_key(), limits, {rel: fronts.get(rel, sha) for rel, sha in digest.items() if covers(inputs, rel)})


def family_entry(digest: dict[str, str], files: list[SourceFile], outputs: Outputs) -> dict | None:
    """The cache entry for a family computed from `files` (the SourceFiles its load read), or
    None when one of them no longer has the hash its key was made from (edited mid-build)."""
    if any(digest.get(f.rel) != f.sha256 for f in files):
        return None
    return {"outputs": outputs, "files": files}


def unusable(root: Path) -> str | None:
    """Why ROOT/.sitegen-cache cannot hold the cache, or None (also when it does not exist yet:
    the first save makes it). A symbolic link anywhere in it is refused: pruning deletes, and
    saving writes, inside whatever it points to; and anything but a folder or a regular file
    (a FIFO would hang the read of an entry)."""
    path = root / CACHE_DIR
    try:
        st = path.lstat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if stat.S_ISLNK(st.st_mode):
        return "is a symbolic link"
    if not stat.S_ISDIR(st.st_mode):
        return "is not a directory"
    if not os.access(path, os.R_OK | os.W_OK | os.X_OK):
        return "is not readable and writable"
    try:
        return _odd_entry(str(path), "")
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"


def _odd_entry(folder: str, prefix: str) -> str | None:
    """Why the cache cannot be used, for the first entry under `folder`, in name order, that is
    a symbolic link or neither a folder nor a regular file; None when there is none. (The cache
    is a few folders of small files: listing them costs a few milliseconds.)"""
    with os.scandir(folder) as it:
        entries = sorted(it, key=lambda e: e.name)
    for e in entries:
        rel = prefix + e.name
        if e.is_symlink():
            return f"holds a symbolic link, {rel}"
        if e.is_dir(follow_symlinks=False):
            if (found := _odd_entry(e.path, rel + "/")) is not None:
                return found
        elif not e.is_file(follow_symlinks=False):
            return f"holds {rel}, which is neither a folder nor a regular file"
    return None


# --------------------------------------------------------------------------- no-op rebuilds


def build_key(digest: dict[str, str], review: bool = False, release: list | None = None) -> str:
    """The key of a whole build: the code and every input, whether it is a review build (whose
    pages differ from the published build's), and what its release is made from besides the
    inputs (build._release_key: the previous release, SOURCE_DATE_EPOCH)."""
    return key_of("build", code_key(), digest, *(("review",) if review else ()), *((release,) if release is not None else ()))


def _records_path(root: Path) -> Path:
    return root / CACHE_DIR / "builds.json"


def _records(root: Path) -> dict:
    try:
        records = json.loads(_records_path(root).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return records if isinstance(records, dict) else {}


def record_build(root: Path, out_dir: Path, key: str, pages: int, files: int, manifest: bytes, dated_until: str = "",
                 written: Iterable[str] = (), made: dict[str, str] | None = None) -> None:
    """Note that out_dir now holds the build of `key`, whose manifest.json is `manifest` (the
    bytes this build wrote: whatever is on disk may already be another build's). Called after
    the swap. `dated_until`: the latest date its inputs hold (the families' summaries).
    `written`: the files the build wrote, whose identities (stat_index) let the next no-op
    check skip hashing the files nothing has touched since. `made`: the key each group of its
    files was made from (publish.Writer.take), for the next build to take them (made_before)."""
    records = _records(root)
    records[str(out_dir.resolve())] = {"key": key, "manifest": sha256_bytes(manifest), "pages": pages, "files": files,
                                       "dated_until": dated_until, "stat": stat_index(out_dir, written),
                                       "made": dict(sorted((made or {}).items()))}
    path = _records_path(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"builds.{os.getpid()}.tmp")
    # orjson: json.dumps with an indent is the pure-Python encoder, 30 ms for the demo's record
    tmp.write_bytes(orjson.dumps(records, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n")
    tmp.replace(path)


def made_before(root: Path, out_dir: Path) -> tuple[dict[str, str], dict[str, str], Callable[[str, os.stat_result], bool]] | None:
    """The key each group of out_dir's files was made from (group -> key), as the build that
    wrote them recorded it, each file's SHA-256 as its manifest.json lists them, and
    `unchanged(rel, st)`: whether a file is, by its identity, the one that build wrote (its
    stat_index); None when there is no such record, or the manifest.json there is not the one
    that build wrote. A rebuild takes a file from there only once the file is unchanged, or
    hashes as listed (publish.Writer.take)."""
    record = _records(root).get(str(out_dir.resolve()))
    made = record.get("made") if isinstance(record, dict) else None
    if not isinstance(made, dict) or not all(isinstance(v, str) for v in made.values()):
        return None
    try:
        fd = os.open(out_dir / "manifest.json", os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        with open(fd, "rb") as fh:
            data = fh.read()
        if sha256_bytes(data) != record.get("manifest"):
            return None
        files = json.loads(data)["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        return None
    index = record.get("stat")
    return made, files, lambda rel, st: unchanged(index, rel, st)


def unchanged(index: Any, rel: str, st: os.stat_result) -> bool:
    """Whether the file at REL, as lstat found it (`st`), has the identity the stat_index
    `index` recorded for it, and was not written so close to when the index was taken that a
    later edit could keep its times (then only its hash can tell)."""
    if not (isinstance(index, dict) and isinstance(index.get("taken_ns"), int) and isinstance(index.get("racy_ns"), int)
            and isinstance(index.get("files"), dict)):
        return False
    known = index["files"].get(rel)
    if not (isinstance(known, list) and len(known) == NLINK + 1 and all(type(v) is int for v in known)):
        return False
    return stat.S_ISREG(st.st_mode) and _same(_identity(st), known) and _settled(index, known)


def up_to_date(root: Path, out_dir: Path, key: str) -> dict | None:
    """The record of the build out_dir holds, when building `key` again would change nothing:
    the same key, and every output file (no more, no fewer) as its manifest says."""
    record = _records(root).get(str(out_dir.resolve()))
    if not isinstance(record, dict) or record.get("key") != key:
        return None
    # inputs dated after the build's date (SOURCE_DATE_EPOCH set back) must meet the check again
    if not isinstance(record.get("dated_until", ""), str) or record.get("dated_until", "") > clock.today():
        return None
    return record if output_intact(out_dir, record.get("manifest", ""), record.get("stat")) else None


# A file's identity as the no-op check reads it: what no write can leave as it was. Writing a
# file moves its change time (ctime), which no program can set back; replacing it gives a new
# inode. What was changed within a clock tick of the identities being taken could still show
# the same times (the kernel stamps files from a clock of a few milliseconds' grain): such a
# file is hashed as if unknown, as git treats a file as racily clean. The tick is taken as
# RACY_NS, or RACY_COARSE_NS on a filesystem that keeps whole seconds only (FAT keeps two).
RACY_NS = 50_000_000
RACY_COARSE_NS = 2_000_000_000
CTIME, NLINK = 3, 6  # the places in an identity of the change time and the link count


def _identity(st: os.stat_result) -> list[int]:
    return [stat.S_IFMT(st.st_mode) | stat.S_IMODE(st.st_mode), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev,
            st.st_nlink]


def _same(now: list[int], known: list[int]) -> bool:
    """Whether an identity is unchanged. A file a rebuild linked from the previous output loses
    that second name when the retired output is deleted, after the identities were taken, and
    dropping a link moves the change time: a file with fewer links than it had is the same
    when all but its change time and link count are."""
    if now == known:
        return True
    rest = [i for i in range(len(known)) if i not in (CTIME, NLINK)]
    return len(now) == len(known) and now[NLINK] < known[NLINK] and all(now[i] == known[i] for i in rest)


def stat_index(out_dir: Path, written: Iterable[str]) -> dict | None:
    """The identity of every file the build wrote and of every folder holding one (a folder's
    times move when an entry is added or removed), and when they were taken; None when one
    cannot be read (the next no-op then hashes everything)."""
    files: dict[str, list[int]] = {}
    folders: dict[str, list[int]] = {}
    try:
        for rel in sorted(written):
            files[rel] = _identity(os.lstat(out_dir / rel))
            parts = rel.split("/")
            for i in range(len(parts)):
                folder = "/".join(parts[:i])
                if folder not in folders:
                    folders[folder] = _identity(os.lstat(out_dir / folder if folder else out_dir))
    except OSError:
        return None
    fine = any(known[2] % 1_000_000_000 or known[CTIME] % 1_000_000_000 for known in files.values())
    return {"taken_ns": time.time_ns(), "racy_ns": RACY_NS if fine else RACY_COARSE_NS, "files": files, "folders": folders}


def _untouched(out_dir: Path, index: Any, manifest_files: dict) -> bool:
    """Whether every folder and file of `index` is as it was when the index was taken, the
    racy ones (RACY_NS) hashed against the manifest: then out_dir is the output that build
    wrote and nothing was added, removed or changed since."""
    if not (isinstance(index, dict) and isinstance(index.get("taken_ns"), int) and isinstance(index.get("racy_ns"), int)
            and isinstance(index.get("files"), dict)
            and isinstance(index.get("folders"), dict) and index["files"].keys() == manifest_files.keys() | {"manifest.json"}):
        return False
    base = str(out_dir)
    for group in ("folders", "files"):
        for rel, known in index[group].items():
            path = f"{base}/{rel}" if rel else base
            now = _identity(os.lstat(path))
            if not _same(now, known):
                return False
            # (manifest.json itself is hashed by the caller, against the record)
            if group == "files" and rel in manifest_files and not _settled(index, known) and sha256_file(path) != manifest_files[rel]:
                return False
    return True


def _settled(index: dict, known: list[int]) -> bool:
    """Whether a file's times in the stat index `index` are older than when it was taken, by
    more than RACY_NS: an edit since would have moved them (a racy one is hashed instead)."""
    racy = index["taken_ns"] - max(index["racy_ns"], RACY_NS)
    return known[2] < racy and known[CTIME] < racy


def output_intact(out_dir: Path, manifest_sha: str, index: Any = None) -> bool:
    """out_dir's manifest.json is the recorded one, its files are as it lists, no more and no
    fewer (the check the build's verify stage makes on the staged output), and every file and
    folder has the mode a build gives it. With the build's stat_index, files and folders whose
    identity has not changed since are not read again; anything else is checked in full."""
    from sitegen.publish import DIR_MODE, FILE_MODE
    from sitegen.site_files import file_checks

    manifest_path = out_dir / "manifest.json"
    try:
        if sha256_file(manifest_path) != manifest_sha:
            return False
        listed = json.loads(manifest_path.read_bytes())["files"]
        if index is not None and _untouched(out_dir, index, listed):
            # the identities hold the modes too: every one as a build gives it
            return all(stat.S_IMODE(m[0]) == FILE_MODE for m in index["files"].values()) and \
                all(stat.S_IMODE(m[0]) == DIR_MODE for m in index["folders"].values())
        if not modes_as_built(out_dir):
            return False
        return file_checks(out_dir, listed, frozenset([GIT])) == []
    except (OSError, ValueError, KeyError, TypeError):
        return False


def modes_as_built(out_dir: Path) -> bool:
    """Whether every file and folder of out_dir has the mode a build gives it (its .git, the
    repository it is published from, aside: sitegen.output_dir)."""
    from sitegen.publish import DIR_MODE, FILE_MODE

    for dirpath, dirnames, filenames in os.walk(out_dir):
        if dirpath == str(out_dir):
            dirnames[:] = [d for d in dirnames if d != GIT]
            filenames = [n for n in filenames if n != GIT]
        if stat.S_IMODE(os.stat(dirpath).st_mode) != DIR_MODE:
            return False
        if any(stat.S_IMODE(os.stat(os.path.join(dirpath, n)).st_mode) != FILE_MODE for n in filenames):
            return False
    return True
