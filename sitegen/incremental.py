"""The content-keyed build cache: what a rebuild may reuse, and when.

Every key is a SHA-256 over the content of what a result depends on, never a timestamp:

    code     every file of the sitegen package, the Python version and the installed
             distributions (an upgraded jinja2 or vl-convert can change output bytes)
    config   pyproject.toml, as bytes
    family   code + config + every file under the family's own folders (data/<family>/,
             content/<its content dir>/) + any file it read elsewhere    -> its computed Outputs,
             as plain data ("families/") and its page contexts apart ("contexts/")
    pages    code + templates/ + the site context + the family's key     -> its pages' HTML
    page     code + templates/ + the site context + one authored page + the keys of the
             families whose sections it places                           -> that page's HTML
    figure   its name, data and drawing code (figures.figure_key)         -> SVG, PNG, spec
    build    code + every input file (+ any file read elsewhere)          -> the whole output

A family's pages are cached as a unit because their contexts share the family's whole result:
hashing each page's context separately pickles that result once per page (1.3 GB and 9 s
for the demo's 412 pages, measured), far more than rendering them. The plain-data part of a
family's entry names no class or function of the family (figures keep their drawing function
as a DrawRef), so a rebuild that takes the family from the cache never imports it.

A no-op rebuild compares only the build key with the one recorded for the output directory,
then re-hashes the output against its manifest: a site someone edited by hand is rebuilt, not
trusted. This module imports nothing heavy, so `sitegen build` answers a no-op without
loading DuckDB, pydantic or Altair.

Entries are pickles written by this build for this build (a cache directory is as trusted
as the site repository it sits in). A damaged or unreadable entry is a miss, never an error.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import shutil
import sys
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Iterable

from sitegen.load import sha256_file, walk_inputs

CACHE_DIR = ".sitegen-cache"
# Everything a build reads from the site repository (build.py, the families' load, templates,
# assets): its folders, which no output may be put inside, and its configuration.
INPUT_FOLDERS = ("content", "data", "templates", "assets", "schemas")
INPUT_PARTS = INPUT_FOLDERS + ("pyproject.toml",)
KEY_STEP, SAVE_STEP = "inputs key", "cache save"  # their names in a build's timings
KEEP_PER_KIND = 6  # entries kept per family (and for pages), newest first: a few branches' worth


def digest_tree(root: Path, parts: Iterable[str]) -> dict[str, str]:
    """relative path -> SHA-256 of every input under each part (a folder or a file) of root,
    sorted (load.walk_inputs). An entry that is not an input (a FIFO, a symlink out of the
    repository) is never opened: it maps to what it is, so its arrival changes the key and the
    build that follows refuses it. A missing part contributes nothing."""
    inputs, others = walk_inputs(root, parts)
    # hashlib and file reads release the GIL: two threads hash a 100x site's ~300 MB in half the time
    with ThreadPoolExecutor(max_workers=2) as pool:
        hashes = dict(zip(inputs, pool.map(_hash_or_why, inputs.values())))
    hashes.update((rel, f"not an input: {what}") for rel, what in others.items())
    return dict(sorted(hashes.items()))


def _hash_or_why(path: Path) -> str:
    try:
        return sha256_file(path)
    except OSError as exc:  # unreadable: the reader that opens it reports it by name
        return f"unreadable: {exc.strerror or exc}"


def key_of(*parts: Any) -> str:
    """SHA-256 over a sequence of strings, or of JSON-able values (in order)."""
    h = hashlib.sha256()
    for part in parts:
        data = part if isinstance(part, str) else json.dumps(part, sort_keys=True, separators=(",", ":"), default=_name_of)
        h.update(data.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


def _name_of(value: Any) -> str:
    """A stable stand-in for what JSON cannot hold (a function in the site context)."""
    if callable(value):
        return f"{getattr(value, '__module__', '?')}.{getattr(value, '__qualname__', type(value).__name__)}"
    return f"{type(value).__qualname__}:{value}"


_code: list[str] = []


def code_key() -> str:
    """The generator's identity: its own files, the interpreter and every installed distribution."""
    if not _code:
        package = Path(__file__).resolve().parent
        files = {rel: sha for rel, sha in digest_tree(package, [""]).items()
                 if "__pycache__" not in rel and not rel.endswith((".pyc", ".pyo"))}
        # Package folders only: the working directory on sys.path (python -m) must not count.
        folders = [e for e in sys.path if os.path.basename(e) in ("site-packages", "dist-packages") and os.path.isdir(e)]
        dists = sorted(name for entry in folders for name in os.listdir(entry) if name.endswith((".dist-info", ".egg-info")))
        _code.append(key_of(files, sys.version, dists))
    return _code[0]


# --------------------------------------------------------------------------- entries


class Cache:
    """Pickled results by kind and key under ROOT/.sitegen-cache/<kind>/<key>.pickle.

    put() only queues an entry; save() writes the queue, and the build calls it only once the
    inputs are found unchanged since their keys were taken, so a file edited mid-build can
    never leave a result filed under the key of its earlier content."""

    def __init__(self, root: Path):
        self.dir = root / CACHE_DIR
        self.pending: dict[tuple[str, str], Any] = {}

    def get(self, kind: str, key: str) -> Any | None:
        path = self.dir / kind / f"{key}.pickle"
        try:
            with open(path, "rb") as f:
                value = pickle.load(f)
            os.utime(path)  # recently used, for prune's order only: the key, not a time, decides a hit
            return value
        except FileNotFoundError:
            return None
        except Exception:  # noqa: BLE001 - a torn or stale entry is only a miss
            return None

    def put(self, kind: str, key: str, value: Any, keep: int = KEEP_PER_KIND) -> None:
        """Queue an entry; `keep`: how many entries of its kind survive the save."""
        self.pending[(kind, key)] = (value, keep)

    def save(self) -> None:
        for (kind, key), (value, keep) in sorted(self.pending.items(), key=lambda kv: kv[0]):
            folder = self.dir / kind
            folder.mkdir(parents=True, exist_ok=True)
            tmp = folder / f"{key}.{os.getpid()}.tmp"
            with open(tmp, "wb") as f:
                pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
            tmp.replace(folder / f"{key}.pickle")  # a killed build never leaves a half-written entry
            self._prune(folder, keep)
        self.pending.clear()

    @staticmethod
    def _prune(folder: Path, keep: int) -> None:
        entries = sorted(folder.glob("*.pickle"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in entries[keep:]:
            old.unlink(missing_ok=True)


class DrawRef:
    """A figure's drawing function by module and name. A cached family's figures hold this
    instead of the function, so reading them imports nothing; it is called (and the module
    imported) only when the figure cache has no drawing for the figure."""

    def __init__(self, module: str, qualname: str):
        self.module, self.qualname = module, qualname

    def __call__(self, data: list[dict]) -> dict:
        import importlib

        fn: Any = importlib.import_module(self.module)
        for part in self.qualname.split("."):
            fn = getattr(fn, part)
        return fn(data)


def code_dir(root: Path, kind: str) -> Path:
    """A cache folder for this code only (jinja2's compiled templates: its own key knows the
    template's source but not the environment's options, which are sitegen's code). Folders
    left by other versions of the code are removed."""
    base = root / CACHE_DIR / kind
    mine = base / code_key()[:32]
    if base.is_dir():
        for other in base.iterdir():
            if other != mine:
                shutil.rmtree(other, ignore_errors=True)
    return mine


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


def family_parts(fid: str, content_dir: str | None) -> tuple[str, ...]:
    """The folders a family owns: everything in them is its input, read or not."""
    return (f"data/{fid}/",) + ((f"content/{content_dir}/",) if content_dir else ())


def family_key(digest: dict[str, str], fid: str, content_dir: str | None) -> str:
    own = family_parts(fid, content_dir)
    return key_of("family", fid, code_key(), digest.get("pyproject.toml", ""),
                  {rel: sha for rel, sha in digest.items() if rel.startswith(own)})


def family_entry(digest: dict[str, str], fid: str, content_dir: str | None, files: list, outputs: Any) -> dict | None:
    """The cache entry for a family computed from `files` (the SourceFiles its load read), or
    None when one of them no longer has the hash its key was made from (edited mid-build)."""
    own = family_parts(fid, content_dir)
    reads = {}
    for f in files:
        if not f.rel.startswith(own):
            reads[f.rel] = f.sha256  # read outside its folders: checked on every hit
        elif digest.get(f.rel) != f.sha256:
            return None
    return {"outputs": outputs, "files": files, "reads": reads}


def reads_unchanged(root: Path, reads: dict[str, str]) -> bool:
    """Whether every file a cached family read outside its own folders still has its hash."""
    for rel, sha in reads.items():
        try:
            if sha256_file(root / rel) != sha:
                return False
        except OSError:
            return False
    return True


# --------------------------------------------------------------------------- no-op rebuilds


def build_key(digest: dict[str, str]) -> str:
    return key_of("build", code_key(), digest)


def _records_path(root: Path) -> Path:
    return root / CACHE_DIR / "builds.json"


def _records(root: Path) -> dict:
    try:
        return json.loads(_records_path(root).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def outside_inputs(files: Iterable) -> dict[str, str]:
    """rel -> SHA-256 of the files read (SourceFiles) that lie outside INPUT_PARTS, which the
    build key does not cover: a family may read a file that a document names."""
    folders = tuple(p + "/" for p in INPUT_FOLDERS)
    return {f.rel: f.sha256 for f in files if f.rel not in INPUT_PARTS and not f.rel.startswith(folders)}


def record_build(root: Path, out_dir: Path, key: str, pages: int, files: int, reads: dict[str, str]) -> None:
    """Note that out_dir now holds the build of `key`, which also read `reads` (rel -> SHA-256,
    files outside INPUT_PARTS). Called after the swap."""
    records = _records(root)
    manifest = sha256_file(out_dir / "manifest.json")
    records[str(out_dir.resolve())] = {"key": key, "manifest": manifest, "pages": pages, "files": files, "reads": reads}
    path = _records_path(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"builds.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(records, sort_keys=True, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)


def up_to_date(root: Path, out_dir: Path, key: str) -> dict | None:
    """The record of the build out_dir holds, when building `key` again would change nothing:
    the same key, and every output file (no more, no fewer) as its manifest says."""
    record = _records(root).get(str(out_dir.resolve()))
    if not record or record.get("key") != key or not reads_unchanged(root, record.get("reads", {})):
        return None
    return record if output_intact(out_dir, record.get("manifest", "")) else None


def output_intact(out_dir: Path, manifest_sha: str) -> bool:
    """out_dir's manifest.json is the recorded one and its files are as it lists, no more and
    no fewer: the check the build's verify stage makes on the staged output."""
    from sitegen.verify import file_checks

    manifest_path = out_dir / "manifest.json"
    try:
        if sha256_file(manifest_path) != manifest_sha:
            return False
        return file_checks(out_dir, json.loads(manifest_path.read_bytes())["files"]) == []
    except (OSError, ValueError, KeyError, TypeError):
        return False
