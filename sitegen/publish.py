"""Writing the site: a staging directory beside the output, a writer that refuses to write
one file twice, a manifest of every file's SHA-256, and a swap only when all went well.

The output directory is never written in place. A build that fails at any point leaves the
previous output exactly as it was; a staging directory left by a killed build is removed by
the next one (its name says whose it is).

File modes do not follow the umask: a static site is meant to be served, so every file is
written 0644 and every directory 0755 (a build under umask 077 would otherwise publish a site
its web server cannot read). Only the bytes are covered by manifest.json.

A staged file whose bytes equal the previous output's file at the same path is a hard link to
it rather than a copy. A rebuild then writes only what changed, and retiring the previous
output frees only the blocks of what changed: on a filesystem mounted with online discard,
deleting a thousand settled files costs over a second, unlinking a second name costs nothing.
The build never writes a path twice, so a linked file is never opened for writing.
"""

from __future__ import annotations

import codecs
import csv
import io
import os
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import orjson

from sitegen.aggregate import find_aggregate_fields_in_text, find_aggregate_keys, is_aggregate_key
from sitegen.errors import BuildError, Problem
from sitegen.incremental import INPUT_FOLDERS
from sitegen.load import sha256_bytes

STAGING_PREFIX = ".sitegen-staging-"
RETIRED_PREFIX = ".sitegen-retired-"
TRASH_PREFIX = ".sitegen-trash-"  # a retired output after the swap, being deleted
FILE_MODE = 0o644
DIR_MODE = 0o755


def json_bytes(value) -> bytes:
    """Deterministic JSON: sorted keys, two-space indent, trailing newline."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n"


def csv_bytes(columns: list[str], rows: list[tuple]) -> bytes:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(columns)
    for row in rows:
        w.writerow(["" if v is None else repr(v) if isinstance(v, float) else v for v in row])
    return buf.getvalue().encode("utf-8")


def check_output_dir(out_dir: Path, root: Path) -> None:
    """Refuse an output directory whose replacement would destroy something else: the site
    repository itself (or a folder holding it), one of its input folders, or an existing
    directory that is not a previous sitegen output (it has no manifest.json)."""
    out, root = out_dir.resolve(), root.resolve()
    if out.exists() and not out.is_dir():
        raise BuildError(f"--out {out_dir} is a file, not a directory; sitegen will not replace it")
    if out == root or out in root.parents:
        raise BuildError(f"--out {out_dir} would replace the site repository itself; choose a folder inside it such as _site")
    for part in INPUT_FOLDERS:
        src = root / part
        if out == src or src in out.parents:
            raise BuildError(f"--out {out_dir} is inside the input folder {part}/; choose another folder")
    if out.is_dir() and any(out.iterdir()) and not (out / "manifest.json").is_file():
        raise BuildError(f"--out {out_dir} exists, is not empty and is not a sitegen output (no manifest.json); "
                         "sitegen replaces its output directory whole, so it will not touch this one")


# The files a table is published as: <stem><suffix>, the keys of table_files().
TABLE_SUFFIXES = (".csv", ".json")


def table_files(table) -> dict[str, bytes]:
    """A table's downloads, by file name: the one encoding that builds write and verify checks."""
    return {
        f"{table.stem}.csv": csv_bytes(table.columns, table.rows),
        f"{table.stem}.json": json_bytes({"title": table.title, "columns": table.columns,
                                          "rows": [dict(zip(table.columns, r)) for r in table.rows], "sources": table.sources}),
    }


# The files a figure is published as, beside the page that shows it: <name><suffix>.
FIGURE_SUFFIXES = (".svg", ".png", ".vl.json", ".csv")


def figure_data_csv(fig) -> bytes:
    """The data behind a figure, as published beside it."""
    return csv_bytes(fig.columns, [tuple(d[c] for c in fig.columns) for d in fig.data])


PLAIN_PATH = "an output path of plain segments (none empty, '.' or '..')"


def is_plain_path(rel: str) -> bool:
    """Whether `rel` is a path of plain segments, the only kind written. An empty, '.' or '..'
    segment would name on disk a file other than the one the manifest lists (or one outside
    the site), so such a path is refused rather than normalised."""
    return all(part not in ("", ".", "..") for part in rel.split("/"))


@dataclass(frozen=True)
class Claimant:
    """What produces an output file, as a problem names it."""

    file: str  # the input to correct: an authored page's markdown, or a family's input folder
    what: str  # e.g. 'content/foo.md' or 'the Canonic Stage 1 page "Method"'


class OutputPaths:
    """Every output path of one build, each claimed once, before any page or file is
    collected by its path (where a second one would silently replace the first). A second
    claim of a path, a file where another claim needs a folder, and a path that is not plain
    segments are each one Problem, at the file of the later claimant."""

    def __init__(self) -> None:
        self.files: dict[str, Claimant] = {}
        self._dirs: dict[str, str] = {}  # folder -> the first file claimed inside it
        self.problems: list[Problem] = []

    def claim(self, rel: str, who: Claimant) -> None:
        if not is_plain_path(rel):
            self.problems.append(Problem(who.file, None, "", PLAIN_PATH, f"{rel!r}, the path of {who.what}"))
            return
        parts = rel.split("/")
        folders = ["/".join(parts[:i]) for i in range(1, len(parts))]
        clash = self._clash(rel, folders, who)
        if clash is not None:
            self.problems.append(Problem(who.file, None, "", "an output path nothing else publishes", clash))
            return
        self.files[rel] = who
        for folder in folders:
            self._dirs.setdefault(folder, rel)

    def _clash(self, rel: str, folders: list[str], who: Claimant) -> str | None:
        if rel in self.files:
            return f"{rel}, claimed by both {self.files[rel].what} and {who.what}"
        if rel in self._dirs:
            inside = self._dirs[rel]
            return f"{rel}, claimed by {who.what}, and the folder of {inside}, claimed by {self.files[inside].what}"
        for folder in folders:
            if folder in self.files:
                return f"{rel}, claimed by {who.what}, inside {folder}, a file claimed by {self.files[folder].what}"
        return None


class Writer:
    """Collects files for one build into a staging directory."""

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir.resolve()
        parent = self.out_dir.parent
        parent.mkdir(parents=True, exist_ok=True)
        for stale in parent.glob(f"{STAGING_PREFIX}{self.out_dir.name}-*"):
            shutil.rmtree(stale, ignore_errors=True)
        for stale in sorted(parent.glob(f"{RETIRED_PREFIX}{self.out_dir.name}-*")):
            if not self.out_dir.exists():  # a build killed mid-swap: this is the previous output
                stale.rename(self.out_dir)
            else:
                shutil.rmtree(stale, ignore_errors=True)
        for stale in parent.glob(f"{TRASH_PREFIX}{self.out_dir.name}-*"):
            _discard(stale)  # a deletion cut short (its process killed): finish it
        self.staging = parent / f"{STAGING_PREFIX}{self.out_dir.name}-{os.getpid()}"
        self.staging.mkdir()
        self.staging.chmod(DIR_MODE)
        self._dirs: set[Path] = {self.staging}  # directories made so far, each with DIR_MODE
        self.files: dict[str, str] = {}  # output path -> SHA-256
        self.sizes: dict[str, int] = {}  # output path -> bytes (the downloads page shows them)

    def write(self, rel: str, data: bytes) -> None:
        if not is_plain_path(rel):
            raise BuildError(f"refusing to write {rel!r}: not {PLAIN_PATH}")
        if rel in self.files:
            raise BuildError(f"two outputs claim the same file: {rel}")
        _check_no_aggregate(rel, data)
        target = self.staging / rel
        self._make_dir(target.parent)
        if not self._link_unchanged(rel, data, target):
            target.write_bytes(data)
        target.chmod(FILE_MODE)
        self.files[rel] = sha256_bytes(data)
        self.sizes[rel] = len(data)

    def _link_unchanged(self, rel: str, data: bytes, target: Path) -> bool:
        """Hard-link target to the previous output's rel when its bytes are `data` (compared
        in full, never trusted from a manifest or a timestamp). False when there is none, it
        differs, or the filesystem cannot link."""
        previous = self.out_dir / rel
        try:
            st = previous.lstat()  # a symlink someone left in the output is never followed
            if not stat.S_ISREG(st.st_mode) or st.st_size != len(data) or previous.read_bytes() != data:
                return False
            os.link(previous, target, follow_symlinks=False)
        except OSError:
            return False
        return True

    def _make_dir(self, d: Path) -> None:
        """mkdir -p with DIR_MODE whatever the umask (mkdir's own mode is masked by it)."""
        if d in self._dirs:
            return
        self._make_dir(d.parent)
        d.mkdir(exist_ok=True)
        d.chmod(DIR_MODE)
        self._dirs.add(d)

    def write_text(self, rel: str, text: str) -> None:
        self.write(rel, text.encode("utf-8"))

    def commit(self) -> None:
        """Swap the staging directory into place. Each rename is atomic; between them the old
        output is still on disk under its retired name, and removed only after the swap."""
        retired = None
        if self.out_dir.exists():
            retired = self.out_dir.parent / f"{RETIRED_PREFIX}{self.out_dir.name}-{os.getpid()}"
            self.out_dir.rename(retired)
        try:
            self.staging.rename(self.out_dir)
        except BaseException:
            if retired is not None:  # put the previous output back before reporting the failure
                retired.rename(self.out_dir)
            raise
        if retired is not None:  # the swap is done: the old output is never needed again
            trash = self.out_dir.parent / f"{TRASH_PREFIX}{self.out_dir.name}-{os.getpid()}-{os.urandom(4).hex()}"
            retired.rename(trash)  # first out of the retired name, so a half-deleted tree is never restored
            _discard(trash)

    def abort(self) -> None:
        shutil.rmtree(self.staging, ignore_errors=True)


def _discard(tree: Path) -> None:
    """Delete a directory tree in a detached process, so the build does not wait for it.
    Removing a site's thousand files and hundreds of folders takes over a second on a
    filesystem mounted with online discard, longer than a whole incremental rebuild; nothing
    reads the tree any more, and the next build finishes a deletion that was cut short."""
    subprocess.Popen([sys.executable, "-c", "import shutil, sys; shutil.rmtree(sys.argv[1], ignore_errors=True)", str(tree)],
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     start_new_session=True, close_fds=True)


def _check_no_aggregate(rel: str, data: bytes) -> None:
    """The last door of the no-overall-score rule: nothing written may carry such a field."""
    if rel.endswith(".json"):
        # A raw record is published byte for byte, with the byte-order mark its reader allowed.
        found = ["$" + "".join(f"[{k!r}]" for k in loc) for loc in find_aggregate_keys(orjson.loads(data.removeprefix(codecs.BOM_UTF8)))]
    elif rel.endswith(".csv"):
        header = data.split(b"\n", 1)[0].decode("utf-8")
        found = [col for col in header.split(",") if is_aggregate_key(col)]
    elif rel.endswith((".html", ".svg", ".xml", ".txt")):
        # An asset is published as it is, in any encoding; the fields looked for are ASCII.
        found = find_aggregate_fields_in_text(data.decode("utf-8", errors="replace"))
    else:
        found = []
    if found:
        raise BuildError(f"{rel}: a generated file carries a cross-domain aggregate field: {', '.join(map(str, found))}")
