"""Putting a build's files on disk, in a process of its own beside the build.

Creating a file is a few system calls whose cost is the disk's, not sitegen's, and it varies
widely: on a filesystem mounted with online discard, shortly after a large deletion, a demo
build spent 1.6 s in os.open and os.mkdir for its 2,033 files and 437 folders, where the same
calls take 0.1 s on a quiet disk. The build's own process meanwhile renders pages, which is
work for the processor. Handing each file to a second process through a pipe lets the two
overlap, and that process, on the machine's other core, also makes each file's last checks:
the aggregate-field check and its SHA-256.

The build (DiskWriter) sends each file as a frame; the writer process (`serve`) puts it on
disk as a build always has (put_file): opened with O_EXCL and never through a link, with
FILE_MODE and DIR_MODE whatever the umask, and as a hard link to the previous output's file
when the bytes are the same. Before anything reads the staging directory or the files'
hashes, the build asks for them (sync): the writer answers once every file sent before has
been written, with their SHA-256 and the first failure, which the build raises as if its own
write had failed. A file is never reported written before it is on disk.

The writer process dies with the build (PR_SET_PDEATHSIG): a build killed mid-write leaves a
staging directory that the next build removes, never a writer still filling it. It imports
only the standard library, orjson, and sitegen's aggregate-field rules and errors.
"""

from __future__ import annotations

import codecs
import ctypes
import errno
import fcntl
import hashlib
import os
import signal
import stat
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson

from sitegen.aggregate import find_aggregate_fields_in_bytes, find_aggregate_fields_in_text, find_aggregate_keys, has_aggregate_key, is_aggregate_key
from sitegen.errors import BuildError

FILE_MODE = 0o644
DIR_MODE = 0o755
# Files the aggregate-field check reads as text (the others: JSON by its keys, CSV by its header)
TEXT_CHECKED = (".html", ".svg", ".xml", ".txt")

_FRAME = struct.Struct("<BIQ")  # what, the path's length, the data's length
_REPLY = struct.Struct("<Q")  # the length of the JSON reply that follows
# _WRITE: a file to check and write; _WRITE_PLAIN: one to write unchecked (no family whose protocol
# forbids an aggregate made it); _WRITE_CHECKED: one already checked (or not to be), streamed
_WRITE, _SYNC, _END, _WRITE_CHECKED, _WRITE_PLAIN = 1, 2, 3, 4, 5
_PIPE_BYTES = 1 << 20  # the pipe's buffer: the build sends up to this much ahead of the writer
# A file this large is checked by the build, which holds its text already, and streamed to disk
# by the writer as it arrives, never held whole in it (the downloads page at 1000x data is
# 64 MB: checked here it would take the writer five times that). It is not linked to the
# previous output's, which only a whole file can be compared with.
STREAM_BYTES = 8 << 20
_F_SETPIPE_SZ = 1031  # Linux's fcntl to set it


# --------------------------------------------------------------------------- on disk


def check_no_aggregate(rel: str, data: bytes, text: str | None = None) -> None:
    """The last door of the no-overall-score rule: no file of a family whose protocol forbids
    an aggregate may carry such a field (the build says which files: publish.Writer.checked).
    `text`: for a text file, the text `data` encodes (not decoded again)."""
    if rel.endswith(".json"):
        # A raw record is published byte for byte, with the byte-order mark its reader allowed.
        value = orjson.loads(data.removeprefix(codecs.BOM_UTF8))
        found = ["$" + "".join(f"[{k!r}]" for k in loc) for loc in find_aggregate_keys(value)] if has_aggregate_key(value) else []
    elif rel.endswith(".csv"):
        header = data.split(b"\n", 1)[0].decode("utf-8")
        found = [col for col in header.split(",") if is_aggregate_key(col)]
    elif rel.endswith(TEXT_CHECKED):
        # An asset is published as it is, in any encoding; the fields looked for are ASCII.
        found = find_aggregate_fields_in_text(text) if text is not None else find_aggregate_fields_in_bytes(data)
    else:
        found = []
    refuse_aggregate(rel, found)


class AggregateFieldError(BuildError):
    """A generated file carries aggregate fields (`fields`): the build, or validate, then looks
    for the input values that put them there (aggregate_scope.shown_value_problems)."""

    def __init__(self, message: str, fields: list[str]):
        super().__init__(message)
        self.fields = fields


def refuse_aggregate(rel: str, found: list) -> None:
    """The build's error for a file carrying FOUND (aggregate fields), if any."""
    if found:
        found = list(map(str, found))
        raise AggregateFieldError(f"{rel}: a generated file carries a cross-domain aggregate field: {', '.join(found)}", found)


class Disk:
    """The staging directory as the writer process fills it: the folders made so far, and the
    previous output whose unchanged files are linked rather than written again."""

    def __init__(self, staging: str, previous: str | None, masked: bool):
        self.staging, self.previous, self.masked = staging, previous, masked
        self.dirs: set[str] = {staging}  # each made with DIR_MODE

    def put_file(self, rel: str, data: bytes) -> None:
        target = f"{self.staging}/{rel}"
        self.make_dir(os.path.dirname(target))
        if self.previous is not None and self._link_unchanged(rel, data, target):
            os.chmod(target, FILE_MODE)  # a link shares the previous file's mode, whatever someone set it to
            return
        fd = self.create(target)
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)

    def stream_file(self, rel: str, inp, n: int) -> str:
        """Write the next n bytes of `inp` at rel as they arrive: their SHA-256. All n are read
        whatever happens, so that a failure to write leaves the next frame where it begins."""
        target = f"{self.staging}/{rel}"
        error: OSError | None = None
        fd = None
        try:
            self.make_dir(os.path.dirname(target))
            fd = self.create(target)
        except OSError as exc:
            error = exc
        sha = hashlib.sha256()
        try:
            while n:
                chunk = inp.read(min(n, _PIPE_BYTES))
                if not chunk:
                    raise _Ended
                n -= len(chunk)
                if error is None:
                    sha.update(chunk)
                    try:
                        _write_all(fd, chunk)
                    except OSError as exc:
                        error = exc
        finally:
            if fd is not None:
                os.close(fd)
        if error is not None:
            raise error
        return sha.hexdigest()

    def create(self, target: str) -> int:
        # O_EXCL: a path is written once, and never through a link someone placed there
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE)
        if self.masked:
            os.fchmod(fd, FILE_MODE)
        return fd

    def _link_unchanged(self, rel: str, data: bytes, target: str) -> bool:
        """Hard-link target to the previous output's rel when its bytes are `data` (compared
        in full, never trusted from a manifest or a timestamp). False when there is none, it
        differs, or the filesystem cannot link."""
        previous = f"{self.previous}/{rel}"
        try:
            st = os.lstat(previous)  # a symlink someone left in the output is never followed
            if not stat.S_ISREG(st.st_mode) or st.st_size != len(data):
                return False
            with open(previous, "rb", buffering=0, opener=_no_follow) as fh:
                if fh.read(len(data) + 1) != data:
                    return False
            os.link(previous, target, follow_symlinks=False)
        except OSError:
            return False
        return True

    def make_dir(self, d: str) -> None:
        """mkdir -p with DIR_MODE whatever the umask (mkdir's own mode is masked by it)."""
        if d in self.dirs:
            return
        self.make_dir(os.path.dirname(d))
        try:
            os.mkdir(d, DIR_MODE)
        except FileExistsError:
            pass
        if self.masked:
            os.chmod(d, DIR_MODE)
        self.dirs.add(d)


def _no_follow(path: str, flags: int) -> int:
    return os.open(path, flags | os.O_NOFOLLOW)


# --------------------------------------------------------------------------- the writer process


def serve(config: dict) -> None:
    """The writer process: frames from stdin, replies on stdout, until the end frame."""
    _die_with_parent(config["parent"])
    disk = Disk(config["staging"], config["previous"], config["masked"])
    inp = open(0, "rb", buffering=_PIPE_BYTES)
    out = open(1, "wb", buffering=0)
    done: list[tuple[str, str]] = []
    failure: dict | None = None
    # Seconds putting files on disk, and the processor's part of them (this process's CPU time:
    # beside the build's busy processes, its wall time also counts its waits for a core);
    # seconds checking and hashing them.
    disk_s = disk_cpu = checks_s = 0.0
    while True:
        head = inp.read(_FRAME.size)
        if len(head) < _FRAME.size:
            return  # the build is gone: nothing more will be asked
        what, n_rel, n_data = _FRAME.unpack(head)
        rel = inp.read(n_rel).decode("utf-8")
        if what == _WRITE_CHECKED:
            started, started_cpu = time.perf_counter(), time.process_time()
            try:
                if failure is not None:  # the build stops at the next sync: the rest is never published
                    if not _drain(inp, n_data):
                        return
                    continue
                done.append((rel, disk.stream_file(rel, inp, n_data)))
            except _Ended:
                return
            except OSError as exc:
                failure = {"os": [exc.errno, exc.strerror, exc.filename]}
            disk_s += time.perf_counter() - started
            disk_cpu += time.process_time() - started_cpu
            continue
        data = inp.read(n_data)
        if len(data) < n_data:
            return
        if what in (_WRITE, _WRITE_PLAIN):
            if failure is not None:
                continue  # the build stops at the next sync: the rest is never published
            started = time.perf_counter()
            try:
                if what == _WRITE:
                    check_no_aggregate(rel, data)
                sha = hashlib.sha256(data).hexdigest()
                checked, checked_cpu = time.perf_counter(), time.process_time()
                checks_s += checked - started
                disk.put_file(rel, data)
                disk_s += time.perf_counter() - checked
                disk_cpu += time.process_time() - checked_cpu
                done.append((rel, sha))
            except BuildError as exc:
                failure = {"build": str(exc), "fields": getattr(exc, "fields", None)}
            except OSError as exc:
                failure = {"os": [exc.errno, exc.strerror, exc.filename]}
            except Exception as exc:  # noqa: BLE001 - a bug, reported by the build with its name
                failure = {"bug": f"{type(exc).__name__}: {exc}"}
        else:
            reply = orjson.dumps({"files": done, "failure": failure, "disk": disk_s, "disk_cpu": disk_cpu, "checks": checks_s})
            out.write(_REPLY.pack(len(reply)) + reply)
            done, disk_s, disk_cpu, checks_s = [], 0.0, 0.0, 0.0
            if what == _END:
                return


class _Ended(Exception):
    """The build's end of the pipe closed mid-file: the build is gone."""


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _drain(inp, n: int) -> bool:
    """Read and drop n bytes of a file not written; False when the input ends first."""
    while n:
        chunk = inp.read(min(n, _PIPE_BYTES))
        if not chunk:
            return False
        n -= len(chunk)
    return True


def _die_with_parent(parent: int) -> None:
    """Be killed when the build's process ends, however it ends (Linux; elsewhere the writer
    ends at the end of its input)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # it ended before the line above: do not outlive it
        os._exit(1)


_CHILD = "import sys; sys.path.insert(0, sys.argv[1]); import orjson; from sitegen.disk_writer import serve; serve(orjson.loads(sys.argv[2]))"


class DiskWriter:
    """The build's end of the writer process: put() sends a file, sync() waits until all sent
    are on disk and returns their SHA-256 by path, finish() ends the process, kill() stops it."""

    def __init__(self, staging: str, previous: str | None, masked: bool):
        config = {"staging": staging, "previous": previous, "masked": masked, "parent": os.getpid()}
        package_parent = str(Path(__file__).resolve().parent.parent)
        # -I: the site repository (the working directory) is never on the writer's import path
        self._proc = subprocess.Popen([sys.executable, "-I", "-c", _CHILD, package_parent, orjson.dumps(config).decode()],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, close_fds=True, bufsize=0)
        self._in = self._proc.stdin.fileno()
        try:
            fcntl.fcntl(self._in, _F_SETPIPE_SZ, _PIPE_BYTES)
        except OSError:
            pass  # the system's default buffer: only more waits
        self.seconds = 0.0  # the writer process's time putting the files on disk
        self.cpu_seconds = 0.0  # the processor's part of it
        self.check_seconds = 0.0  # and checking and hashing them
        self.ended = False

    def put(self, rel: str, data: bytes, text: str | None = None, checked: bool = True) -> None:
        """Send a file; `text`: for a text file, the text `data` encodes; `checked`: whether the
        aggregate-field check reads it. A file of STREAM_BYTES or more is checked here and
        streamed (see STREAM_BYTES)."""
        path = rel.encode("utf-8")
        what = _WRITE if checked else _WRITE_PLAIN
        if len(data) >= STREAM_BYTES:
            if checked:
                check_no_aggregate(rel, data, text)
            what = _WRITE_CHECKED
        self._send([_FRAME.pack(what, len(path), len(data)) + path, data])

    def sync(self) -> dict[str, str]:
        """Wait until every file sent so far is on disk: their SHA-256 by path, in the order
        sent. Raises the writer's first failure as the write itself would have."""
        return self._ask(_SYNC)

    def finish(self) -> dict[str, str]:
        """sync(), and end the writer process."""
        files = self._ask(_END)
        self.ended = True
        self._proc.stdin.close()
        self._proc.stdout.close()
        self._proc.wait()
        return files

    def kill(self) -> None:
        if self._proc.poll() is None:
            self._proc.kill()
        self._proc.wait()
        for f in (self._proc.stdin, self._proc.stdout):
            try:
                f.close()
            except OSError:
                pass
        self.ended = True

    def _send(self, parts: list[bytes]) -> None:
        try:
            for part in parts:
                _write_all(self._in, part)
        except BrokenPipeError:
            raise self._gone() from None

    def _ask(self, what: int) -> dict[str, str]:
        self._send([_FRAME.pack(what, 0, 0)])
        head = _read_exactly(self._proc.stdout, _REPLY.size)
        body = _read_exactly(self._proc.stdout, _REPLY.unpack(head)[0]) if len(head) == _REPLY.size else b""
        if not body:
            raise self._gone()
        reply: dict[str, Any] = orjson.loads(body)
        self.seconds += reply["disk"]
        self.cpu_seconds += reply["disk_cpu"]
        self.check_seconds += reply["checks"]
        failure = reply["failure"]
        if failure is not None:
            if "build" in failure:
                raise AggregateFieldError(failure["build"], failure["fields"]) if failure.get("fields") else BuildError(failure["build"])
            if "os" in failure:
                code, message, filename = failure["os"]
                raise OSError(code or errno.EIO, message, filename)
            raise BuildError(f"the process writing the staging directory failed: {failure['bug']}")
        return dict(reply["files"])

    def _gone(self) -> BuildError:
        code = self._proc.wait()
        return BuildError(f"the process writing the staging directory ended unexpectedly (exit status {code})")


def _read_exactly(f, n: int) -> bytes:
    chunks, left = [], n
    while left:
        chunk = f.read(left)
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
