"""Part of a build's work done by a fork of the build's process, on the machine's other core.

At 100x data Canonic has 8,200 pages, which jinja2 renders at about 4 ms each in one process:
32 s of a 77 s build, while the other core has only the files to write. A fork has every page
context already (the fork shares the build's memory, copy-on-write), so it can render half of
them without anything being sent to it; it writes its pages through a writer process of its
own and hands back only what the build records of them. A page's bytes are the same whichever
process renders it.

A fork copies each memory page that either process writes afterwards, so it is made only while
the build is small enough for that copy to fit beside it (FORK_RSS_BYTES): at 1000x data the
build renders in one process, in the memory it had.
"""

from __future__ import annotations

import gc
import os
import pickle
import signal
import traceback
from typing import Any, Callable

from sitegen.errors import BuildError

FORK_PAGES = 1_000  # a family with fewer pages than this renders them in one process
FORK_RSS_BYTES = 1536 * 2**20  # and so does a build holding more than this


def worth_forking(n_pages: int) -> bool:
    return n_pages >= FORK_PAGES and hasattr(os, "fork") and _resident_bytes() <= FORK_RSS_BYTES


def _resident_bytes() -> int:
    """This process's resident memory (Linux); a size no fork is made at elsewhere."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return FORK_RSS_BYTES + 1


class Fork:
    """`work()` run in a fork of this process; join() returns what it returned, or raises what
    it raised. The value and the exception go back pickled, so they must pickle."""

    def __init__(self, work: Callable[[], Any]):
        r, w = os.pipe()
        # Every object made so far out of the collector's sight (collector.working() unfreezes
        # them at the build's end): a full collection writes to each object it scans, and in
        # either process that would copy every memory page the two still share.
        gc.freeze()
        pid = os.fork()
        if pid == 0:  # the fork: it never returns into the build's code
            code = 1
            try:
                os.close(r)
                try:
                    payload = pickle.dumps(("value", work()), protocol=pickle.HIGHEST_PROTOCOL)
                except BaseException as exc:  # noqa: BLE001 - every failure goes back to the build
                    payload = _failure(exc)
                view = memoryview(payload)
                while view:
                    view = view[os.write(w, view):]
                code = 0
            finally:
                os._exit(code)
        os.close(w)
        self._pid: int | None = pid
        self._r = r

    def join(self) -> Any:
        chunks = []
        try:
            while chunk := os.read(self._r, 1 << 20):
                chunks.append(chunk)
        finally:
            os.close(self._r)
            _, status = os.waitpid(self._pid, 0)
            self._pid = None
        if not chunks:
            raise BuildError(f"the process rendering part of the pages ended unexpectedly ({_status(status)})")
        kind, value = pickle.loads(b"".join(chunks))
        if kind == "value":
            return value
        raise value

    def cancel(self) -> None:
        """Stop the fork (the build failed): nothing it made is used."""
        if self._pid is None:
            return
        try:
            os.kill(self._pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(self._pid, 0)
        os.close(self._r)
        self._pid = None


def _failure(exc: BaseException) -> bytes:
    """The exception, pickled with its traceback as a note (shown by --debug); one that does
    not pickle goes back as a BuildError naming it."""
    text = "".join(traceback.format_exception(exc))
    try:
        exc.add_note(f"in the process rendering part of the pages:\n{text}")
        return pickle.dumps(("error", exc), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001
        return pickle.dumps(("error", BuildError(f"{type(exc).__name__}: {exc}")), protocol=pickle.HIGHEST_PROTOCOL)


def _status(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"
