"""Writing the site: a staging directory beside the output, a writer that refuses to write
one file twice, a manifest of every file's SHA-256, and a swap only when all went well.

The output directory is never written in place. A build that fails at any point leaves the
previous output exactly as it was; a staging directory left by a killed build is removed by
the next one (its name says whose it is, exactly: `out` never takes `out-b`'s for its own).
One build at a time writes an output: it holds a lock beside it, and a second build fails at
once. A directory is replaced only when it is empty or its own manifest.json names sitegen
as its generator.

File modes do not follow the umask: a static site is meant to be served, so every file is
written 0644 and every directory 0755 (a build under umask 077 would otherwise publish a site
its web server cannot read). Only the bytes are covered by manifest.json.

A staged file whose bytes equal the previous output's file at the same path is a hard link to
it rather than a copy. A rebuild then writes only what changed, and retiring the previous
output frees only the blocks of what changed: on a filesystem mounted with online discard,
deleting a thousand settled files costs over a second, unlinking a second name costs nothing.
The build never writes a path twice, so a linked file is never opened for writing.

The files are put on disk by a process of their own beside the build (disk_writer.py), which
also makes each file's aggregate-field check and SHA-256, so rendering never waits on the disk.

A file made from a key (a family's pages from its pages key, its table files from its family
key, an archive from its members' hashes) need not be made again when the output being
replaced was made from the same key: `take` links the previous output's file instead, once its
bytes hash to what that build's manifest lists. The key says the bytes would be the same, and that build's checks passed on
them; the hash says the file still holds them.
"""

from __future__ import annotations

import csv
import errno
import fcntl
import hashlib
import io
import itertools
import os
import re
import shutil
import stat
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Callable, Iterable, Iterator

import orjson

from sitegen import __version__, disk_writer, numbers, output_dir
from sitegen.aggregate import find_aggregate_fields_in_text
from sitegen.disk_writer import DIR_MODE, FILE_MODE, TEXT_CHECKED
from sitegen.errors import BuildError, Problem, shown_path
from sitegen.load import INPUT_FOLDERS
from sitegen.names import invisible, path_key

STAGING_PREFIX = ".sitegen-staging-"
RETIRED_PREFIX = ".sitegen-retired-"
TRASH_PREFIX = ".sitegen-trash-"  # a retired output after the swap, being deleted
LOCK_PREFIX = ".sitegen-lock-"
# What follows <prefix><output name> in each leftover's name; matched in full, so the
# leftovers of `out` are told from those of `out-b` (whose names start the same way).
PID_SUFFIX = r"-\d+"
TRASH_SUFFIX = r"-\d+-[0-9a-f]{8}"
GENERATOR = f"sitegen {__version__}"  # manifest.json's "generator": what marks a sitegen output


def json_bytes(value) -> bytes:
    """Deterministic JSON: sorted keys, two-space indent, trailing newline."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n"


# The first characters that make a spreadsheet read a cell as a formula (OWASP's list for CSV
# injection): a model named "=HYPERLINK(...)" would otherwise be a live link in whoever opens
# the download.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value):
    """VALUE as a CSV cell: a text that a spreadsheet would take for a formula gets a leading
    single quote, which shows it as text. Only text: a number (-0.5) is written as it is, so a
    numeric column stays numeric. The JSON download keeps the exact text."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


def csv_bytes(columns: list[str], rows: list[tuple]) -> bytes:
    """CSV with "\n" line ends: every CSV the site publishes is written here. The csv module
    writes None as an empty field and a float by its repr (the shortest text that reads back as
    the same float), so rows go to it as they are, but for text cells (csv_cell)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(map(csv_cell, columns))
    w.writerows(map(csv_cell, r) for r in rows)
    return buf.getvalue().encode("utf-8")


def is_sitegen_output(d: Path) -> bool:
    """d holds a manifest.json of its own (a regular file) whose "generator" names sitegen, as
    a build's and a paper's do. A web app's or a package's manifest.json does not."""
    mf = d / "manifest.json"
    try:
        if not stat.S_ISREG(mf.lstat().st_mode):
            return False
        manifest = orjson.loads(mf.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return False
    generator = manifest.get("generator") if isinstance(manifest, dict) else None
    return isinstance(generator, str) and generator.startswith("sitegen ")


def check_output_dir(out_dir: Path, root: Path, clean: bool = False) -> None:
    """Refuse an output directory whose replacement would destroy something else, or fail
    halfway: the site repository itself (or a folder holding it), one of its input folders,
    a mount point (it cannot be renamed), an existing directory that is not a previous
    sitegen output, or one that holds entries its last build did not write, unless `clean`
    (output_dir: the swap checks again, on what it replaces)."""
    out, root = out_dir.resolve(), root.resolve()
    if out.exists() and not out.is_dir():
        raise BuildError(f"--out {out_dir} is a file, not a directory; sitegen will not replace it")
    if out == root or out in root.parents:
        raise BuildError(f"--out {out_dir} would replace the site repository itself; choose a folder inside it such as _site")
    for part in INPUT_FOLDERS:
        src = root / part
        if out == src or src in out.parents:
            raise BuildError(f"--out {out_dir} is inside the input folder {part}/; choose another folder")
    if out.is_dir() and os.path.ismount(out):
        raise BuildError(f"--out {out_dir} is a mount point; sitegen replaces its output directory by renaming, "
                         "so build into a folder inside it")
    if out.is_dir() and any(out.iterdir()) and not is_sitegen_output(out):
        raise BuildError(f"--out {out_dir} exists, is not empty and is not a sitegen output (no manifest.json naming "
                         "sitegen as its generator); sitegen replaces its output directory whole, so it will not touch this one")
    if out.is_dir():
        output_dir.check_replaceable(out, out_dir, clean)


def _unwritable(out_dir: Path, exc: OSError) -> BuildError:
    parent = Path(out_dir).resolve().parent
    return BuildError(f"cannot write beside --out {out_dir}: {parent} is not writable ({exc.strerror or exc}); "
                      "sitegen stages the new output in the folder that holds it")


@contextmanager
def output_lock(out_dir: Path):
    """Hold the exclusive lock on out_dir for a build: `.sitegen-lock-<name>` beside it, locked
    with flock (released by the kernel if the process dies) and removed on release. A second
    build fails at once, naming the holder's pid, before it touches anything. Folders made to
    hold the lock are removed with it when nothing else went into them (a failed build)."""
    out = Path(out_dir).resolve()
    made = [d for d in out.parents if not d.exists()]  # deepest first
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _unwritable(out_dir, exc) from None
    path = out.parent / f"{LOCK_PREFIX}{out.name}"
    try:
        fd = _locked(path, out_dir)
    except BaseException:
        _remove_empty(made)
        raise
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        yield
    finally:
        path.unlink(missing_ok=True)  # while still holding it, so no one locks a file being removed
        os.close(fd)
        _remove_empty(made)


def _locked(path: Path, out_dir: Path) -> int:
    """A descriptor of the lock file at path, flock'ed; BuildError when another holds it."""
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE)
        except OSError as exc:
            raise _unwritable(out_dir, exc) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise _unwritable(out_dir, exc) from None
            raise BuildError(f"another sitegen build is writing {out_dir} (pid {holder}); try again when it is done") from None
        try:
            current = os.stat(path, follow_symlinks=False)
        except FileNotFoundError:
            current = None
        mine = os.fstat(fd)
        if current is not None and (current.st_dev, current.st_ino) == (mine.st_dev, mine.st_ino):
            return fd
        os.close(fd)  # its holder removed it between our open and our lock: lock the file there now


def _remove_empty(dirs: list[Path]) -> None:
    for d in dirs:
        try:
            d.rmdir()
        except OSError:  # not empty: the output (or something else) is in it now
            return


# The files a table is published as: <stem><suffix>, the keys of table_files().
TABLE_SUFFIXES = (".csv", ".json")


SYNTHETIC_COLUMN = "synthetic"  # the last column of every download of a synthetic family's data


def table_files(table) -> dict[str, bytes]:
    """A table's downloads, by file name: the one encoding that builds write and verify checks.
    A synthetic family's carry the marker: a last CSV column `synthetic` (true on every row),
    and `"synthetic": true` in the JSON."""
    rows = numbers.table_rows(table)  # a deferred table's rows are made and checked here
    doc = {"title": table.title, "columns": table.columns, "rows": [dict(zip(table.columns, r)) for r in rows],
           "sources": table.sources}
    if table.synthetic:
        doc["synthetic"] = True
    return {f"{table.stem}.csv": _marked_csv(table.columns, rows, table.synthetic), f"{table.stem}.json": json_bytes(doc)}


def _marked_csv(columns: list[str], rows: list[tuple], synthetic: bool) -> bytes:
    if not synthetic:
        return csv_bytes(columns, rows)
    return csv_bytes([*columns, SYNTHETIC_COLUMN], [(*r, True) for r in rows])


# The files a figure is published as, beside the page that shows it: <name><suffix>.
FIGURE_SUFFIXES = (".svg", ".png", ".vl.json", ".csv")


def figure_data_csv(fig) -> bytes:
    """The data behind a figure, as published beside it."""
    return _marked_csv(fig.columns, [tuple(d[c] for c in fig.columns) for d in fig.data], fig.synthetic_note is not None)


PLAIN_PATH = ("an output path of plain segments (none empty, '.' or '..') without a backslash, "
              "a control character or an invisible one")


def is_plain_path(rel: str) -> bool:
    """Whether `rel` is a path of plain segments, the only kind written. An empty, '.' or '..'
    segment would name on disk a file other than the one the manifest lists (or one outside
    the site), so such a path is refused rather than normalised; a backslash is a separator on
    some systems, and a tab, a line break or a bidi override in a file name breaks every listing
    of it (manifest.json's, `sitegen verify`'s, a terminal's)."""
    if "\\" in rel or not (rel.isascii() and rel.isprintable()) and any(c < " " or c == "\x7f" or invisible(c) for c in rel):
        return False
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
    segments are each one Problem, at the file of the later claimant. Paths that differ only in
    case or Unicode form (names.path_key) are one path: a case-insensitive checkout or host
    holds one file for both."""

    def __init__(self) -> None:
        self.files: dict[str, Claimant] = {}
        self._keys: dict[str, str] = {}  # path_key -> the path claimed
        self._dirs: dict[str, str] = {}  # path_key of a folder -> the first file claimed inside it
        self.problems: list[Problem] = []

    def claim(self, rel: str, who: Claimant) -> None:
        if not is_plain_path(rel):
            self.problems.append(Problem(who.file, None, "", PLAIN_PATH, f"{rel!r}, the path of {shown_path(who.what)}"))
            return
        key = rel.lower() if rel.isascii() else path_key(rel)  # the same, for an ASCII path
        parts = key.split("/")
        folders = ["/".join(parts[:i]) for i in range(1, len(parts))]
        clash = self._clash(rel, key, folders, who)
        if clash is not None:
            self.problems.append(Problem(who.file, None, "", "an output path nothing else publishes", clash))
            return
        self.files[rel] = who
        self._keys[key] = rel
        for folder in folders:
            self._dirs.setdefault(folder, rel)

    def _clash(self, rel: str, key: str, folders: list[str], who: Claimant) -> str | None:
        if key in self._keys:
            other = self._keys[key]
            if other == rel:
                return f"{rel}, claimed by both {self.files[rel].what} and {who.what}"
            return (f"{rel}, claimed by {who.what}, and {other}, claimed by {self.files[other].what}: "
                    "one file where case or Unicode forms are not told apart")
        if key in self._dirs:
            inside = self._dirs[key]
            return f"{rel}, claimed by {who.what}, and the folder of {inside}, claimed by {self.files[inside].what}"
        for folder in folders:
            if folder in self._keys:
                file = self._keys[folder]
                return f"{rel}, claimed by {who.what}, inside {file}, a file claimed by {self.files[file].what}"
        return None


@dataclass(frozen=True)
class Made:
    """What a previous build of the output was made from: each group's key (Writer.take), and
    each file's SHA-256 as its manifest lists them. `unchanged(rel, st)`: whether the file at
    rel, as lstat found it, is by its identity (inode, size, times) the file that build wrote,
    untouched since (incremental.unchanged); then its bytes are taken to be the manifest's
    without hashing them. Either way the verify stage hashes every staged file again."""

    keys: dict[str, str]
    files: dict[str, str]
    unchanged: Callable[[str, os.stat_result], bool] | None = None


# Files sent to the writer process between two reports of their hashes: what it holds of them
# at 1000x data (236,000 files) stays a few MB, for a wait of milliseconds every so many files.
SYNC_EVERY = 8192


class Writer:
    """Collects files for one build into a staging directory. The files go to disk in a
    process of its own (disk_writer) while the build goes on: `files`, and every step that
    reads the staging directory, wait for all that was sent before them."""

    def __init__(self, out_dir: Path, previous: Made | None = None, clean: bool = False):
        self.out_dir = out_dir.resolve()
        # `clean`: the output may hold entries its last build did not write, deleted with it
        self._given, self._clean = out_dir, clean
        # What the output being replaced was made from, and this build's own record of it
        self._previous = previous if previous is not None and self.out_dir.is_dir() else None
        self.made: dict[str, str] = {}  # group -> the key its files were made from (take)
        parent = self.out_dir.parent
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _unwritable(out_dir, exc) from None
        for stale in _leftovers(parent, STAGING_PREFIX, self.out_dir.name, PID_SUFFIX):
            # killed mid-swap with the output's .git moved in: it goes back to the output it came from
            retired = parent / f"{RETIRED_PREFIX}{stale.name.removeprefix(STAGING_PREFIX)}"
            if os.path.lexists(stale / output_dir.GIT) and retired.is_dir():
                output_dir.move_git(stale, retired)
            if not os.path.lexists(stale / output_dir.GIT):  # a repository is never deleted
                shutil.rmtree(stale, ignore_errors=True)
        for stale in _leftovers(parent, RETIRED_PREFIX, self.out_dir.name, PID_SUFFIX):
            if not self.out_dir.exists():  # a build killed mid-swap: this is the previous output
                stale.rename(self.out_dir)
            else:
                shutil.rmtree(stale, ignore_errors=True)
        for stale in _leftovers(parent, TRASH_PREFIX, self.out_dir.name, TRASH_SUFFIX):
            _discard(stale)  # a deletion cut short (its process killed): finish it
        self.staging = parent / f"{STAGING_PREFIX}{self.out_dir.name}-{os.getpid()}"
        try:
            self.staging.mkdir()
        except OSError as exc:
            raise _unwritable(out_dir, exc) from None
        self.staging.chmod(DIR_MODE)
        # Whether the umask takes bits from the modes: only then is a file or folder chmod'ed
        # after it is made (a call per file that the usual umask, 022, makes a no-op).
        masked = bool(_umask() & (FILE_MODE | DIR_MODE))
        previous = str(self.out_dir) if self.out_dir.is_dir() else None  # a rebuild: unchanged files are linked
        self._disk = disk_writer.Disk(str(self.staging), previous, masked)  # write_from and write_pieces write with it, in this process
        try:
            self._writer = disk_writer.DiskWriter(str(self.staging), previous, masked)
        except BaseException:
            shutil.rmtree(self.staging, ignore_errors=True)
            raise
        self._claimed: set[str] = set()  # every path written or sent to be
        self._unsynced = 0  # files sent since the writer process last reported
        self._files: dict[str, str] = {}  # output path -> SHA-256, of the files known to be on disk
        self.sizes: dict[str, int] = {}  # output path -> bytes (the downloads page shows them)
        # Seconds spent writing files, whatever stage wrote them (pages are written as they
        # render): handing them over here, and putting them on disk in the writer process.
        # That is what compares with a plain loop writing the same tree; the writer process's
        # checks (aggregate fields, SHA-256) are counted apart.
        self._seconds = 0.0
        self._cpu_seconds = 0.0  # the processor's part of _seconds: not the waits for the writer process or a core
        self._check_seconds = 0.0
        # Which files the aggregate-field check reads, by output path: the build makes it those
        # of the families whose protocol forbids an aggregate. Every file, until it is set.
        self.checked: Callable[[str], bool] = lambda rel: True

    @property
    def files(self) -> dict[str, str]:
        """Output path -> SHA-256 of every file written, in the order written, once all are on disk."""
        self._sync()
        return self._files

    def _sync(self) -> None:
        """Wait until every file sent is on disk, and take in their hashes."""
        if not self._writer.ended:
            self._files.update(self._writer.sync())
            self._unsynced = 0

    @property
    def seconds(self) -> float:
        return self._seconds + self._writer.seconds

    @property
    def cpu_seconds(self) -> float:
        return self._cpu_seconds + self._writer.cpu_seconds

    @property
    def check_seconds(self) -> float:
        return self._check_seconds + self._writer.check_seconds

    def write(self, rel: str, data: bytes, text: str | None = None) -> None:
        """Write DATA at REL: sent to the writer process, which checks it for aggregate fields
        (when `checked` says so) and puts it on disk. A failure there is raised by the next
        step that waits for it. `text`: for a text file, the text DATA encodes (write_text)."""
        started, started_cpu = time.perf_counter(), time.thread_time()
        self._claim(rel)
        self._writer.put(rel, data, text, self.checked(rel))
        self.sizes[rel] = len(data)
        self._unsynced += 1
        if self._unsynced == SYNC_EVERY:  # the writer process holds the hashes until asked
            self._sync()
        self._seconds += time.perf_counter() - started
        self._cpu_seconds += time.thread_time() - started_cpu

    def write_text(self, rel: str, text: str) -> None:
        """Write TEXT as UTF-8."""
        self.write(rel, text.encode("utf-8"), text)

    def _claim(self, rel: str) -> None:
        if not is_plain_path(rel):
            raise BuildError(f"refusing to write {rel!r}: not {PLAIN_PATH}")
        if rel in self._claimed:
            raise BuildError(f"two outputs claim the same file: {rel}")
        if output_dir.is_git(rel):
            raise BuildError(f"refusing to write {rel}: the output's {output_dir.GIT} is the repository it is published from")
        self._claimed.add(rel)

    def take(self, group: str, key: str | None, rel: str) -> bool:
        """Put at REL the previous output's file, when that output's files of `group` were
        made from `key` too and the file's bytes still hash to what its manifest lists; False
        (nothing written) otherwise, and the caller makes the file. Either way REL is made
        from `key`, as the next build will read in `made`."""
        if rel in self._claimed or not is_plain_path(rel):
            self._claim(rel)  # refused, as writing it would be
        if key is None:
            return False
        self.made[group] = key
        previous = self._previous
        if previous is None or previous.keys.get(group) != key or rel not in previous.files:
            return False
        started, started_cpu = time.perf_counter(), time.thread_time()
        target, source = f"{self.staging}/{rel}", f"{self.out_dir}/{rel}"
        try:
            self._disk.make_dir(os.path.dirname(target))
            before = os.lstat(source)
            os.link(source, target, follow_symlinks=False)
        except OSError:
            return False
        try:
            # What is checked is what was linked: a symbolic link or anything but a file fails
            # here. It is hashed unless it is, by its identity, the file the previous build
            # wrote (linking it moved its change time: the identity is the one found before).
            fd = os.open(target, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
            with open(fd, "rb") as fh:
                st = os.fstat(fh.fileno())
                same = stat.S_ISREG(st.st_mode) and (
                    (previous.unchanged is not None and previous.unchanged(rel, before)
                     and (st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns) == (before.st_ino, before.st_dev, before.st_size, before.st_mtime_ns))
                    or hashlib.file_digest(fh, "sha256").hexdigest() == previous.files[rel])
        except OSError:
            same = False
        if not same:
            os.unlink(target)
            return False
        if stat.S_IMODE(st.st_mode) != FILE_MODE:  # a link shares the previous file's mode, whatever someone set it to
            os.chmod(target, FILE_MODE)
        self._claim(rel)
        self._files[rel] = previous.files[rel]
        self.sizes[rel] = st.st_size
        self._seconds += time.perf_counter() - started
        self._cpu_seconds += time.thread_time() - started_cpu
        return True

    def mark(self, group: str, key: str) -> None:
        """Record that this build's files of `group` are made from `key`, as take() does: for a
        group some of whose files are made, not taken (pages rendered or read from the cache)."""
        self.made[group] = key

    def write_from(self, rel: str, fill: Callable[[BinaryIO], None]) -> None:
        """Write REL by `fill(fh)`, for a file made in pieces that is too large to hold as bytes
        (a family's archive of every download): written by this process and hashed as it is
        read back. Its name must not be one of those checked for aggregate fields (it is never
        parsed)."""
        if rel.endswith((".json", ".csv", *TEXT_CHECKED)):
            raise BuildError(f"{rel}: a file that is checked for aggregate fields is written whole, not in pieces")
        target = f"{self.staging}/{rel}"
        with self._created(rel) as fh:
            fill(fh)
        # what fill() spends making the pieces (an archive's compression) is not writing
        started, started_cpu = time.perf_counter(), time.thread_time()
        with open(target, "rb") as fh:
            self._files[rel] = hashlib.file_digest(fh, "sha256").hexdigest()
        self.sizes[rel] = os.stat(target).st_size
        self._seconds += time.perf_counter() - started
        self._cpu_seconds += time.thread_time() - started_cpu

    def write_pieces(self, rel: str, pieces: Iterable[str]) -> None:
        """Write the text made of PIECES as UTF-8, for a page too large to hold whole (the
        downloads page at 1000x data is 64 MB of HTML, and its text, its lower-cased copy for
        the check and its bytes were each held at once): written by this process as the pieces
        come, checked for aggregate fields and hashed on the way. The check runs on whole
        lines, cut after a line break: no field-like token spans one, so it finds what it
        would in the whole text. A file with such a field fails the build, as write() does."""
        sha, size, found, carry = hashlib.sha256(), 0, set(), ""
        scan = self.checked(rel)
        with self._created(rel) as fh:
            for piece in itertools.chain(pieces, [None]):  # None: the end, where the last line is taken whole
                text = carry + piece if piece is not None else carry
                cut = len(text) if piece is None else text.rfind("\n") + 1
                lines, carry = text[:cut], text[cut:]
                if not lines:
                    continue
                started = time.perf_counter()
                if scan:
                    found.update(find_aggregate_fields_in_text(lines))
                data = lines.encode("utf-8")
                sha.update(data)
                checked, checked_cpu = time.perf_counter(), time.thread_time()
                self._check_seconds += checked - started
                fh.write(data)
                size += len(data)
                self._seconds += time.perf_counter() - checked
                self._cpu_seconds += time.thread_time() - checked_cpu
        disk_writer.refuse_aggregate(rel, sorted(found))
        self._files[rel] = sha.hexdigest()
        self.sizes[rel] = size

    @contextmanager
    def _created(self, rel: str) -> Iterator[BinaryIO]:
        """REL, created by this process in the staging directory as the writer process creates a
        file (Disk.create: once, never through a link, FILE_MODE whatever the umask), once
        every file sent before it is on disk, so that it is listed after them."""
        self._sync()
        self._claim(rel)
        target = f"{self.staging}/{rel}"
        self._disk.make_dir(os.path.dirname(target))
        with open(self._disk.create(target), "wb") as fh:
            yield fh

    def finish(self) -> None:
        """Wait until every file is on disk and end the writer process: the staging directory
        is then complete, to be checked and swapped in."""
        if not self._writer.ended:
            self._files.update(self._writer.finish())

    def commit(self) -> None:
        """Swap the staging directory into place. Each rename is atomic; between them the old
        output is still on disk under its retired name, and removed only after the swap. What
        it holds besides what its build wrote is checked there, where nothing more can be
        added to it by its path (output_dir); its .git is moved into the new output."""
        self.finish()
        retired, moved = None, False
        if self.out_dir.exists():
            retired = self.out_dir.parent / f"{RETIRED_PREFIX}{self.out_dir.name}-{os.getpid()}"
            self.out_dir.rename(retired)
        try:
            if retired is not None:
                output_dir.check_replaceable(retired, self._given, self._clean)
                moved = output_dir.move_git(retired, self.staging)
            self.staging.rename(self.out_dir)
        except BaseException:
            if moved:
                output_dir.move_git(self.staging, retired)
            if retired is not None:  # put the previous output back before reporting the failure
                retired.rename(self.out_dir)
            raise
        if retired is not None:  # the swap is done: the old output is never needed again
            trash = self.out_dir.parent / f"{TRASH_PREFIX}{self.out_dir.name}-{os.getpid()}-{os.urandom(4).hex()}"
            retired.rename(trash)  # first out of the retired name, so a half-deleted tree is never restored
            _discard(trash)

    def stop(self) -> None:
        """End the writer process at once, whatever it has not written yet."""
        self._writer.kill()

    def abort(self) -> None:
        self.stop()  # before the staging directory goes: nothing may be written into it after
        shutil.rmtree(self.staging, ignore_errors=True)


def _umask() -> int:
    """The process's umask, read without changing it where the kernel tells it (Linux), since
    setting it to read it back races with any thread creating a file meanwhile."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    old = os.umask(0o022)
    os.umask(old)
    return old


def _leftovers(parent: Path, prefix: str, name: str, suffix: str) -> list[Path]:
    """The directories in parent named exactly <prefix><name><suffix>, in name order."""
    pattern = re.compile(re.escape(prefix + name) + suffix)
    return sorted(p for p in parent.iterdir() if pattern.fullmatch(p.name) and stat.S_ISDIR(p.lstat().st_mode))


def _discard(tree: Path) -> None:
    """Delete a directory tree in a detached process, so the build does not wait for it.
    Removing a site's thousand files and hundreds of folders takes over a second on a
    filesystem mounted with online discard, longer than a whole incremental rebuild; nothing
    reads the tree any more, and the next build finishes a deletion that was cut short."""
    subprocess.Popen([sys.executable, "-c", "import shutil, sys; shutil.rmtree(sys.argv[1], ignore_errors=True)", str(tree)],
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     start_new_session=True, close_fds=True)
