"""Build progress on a terminal: the stage running, how long it has run, and a count while
figures are drawn (`building: figures 12/40  3.4 s`), redrawn in place on one line.

Shown only to a person watching: when the stream is a TTY and the environment variable CI is
not set. CI logs and pipes get nothing extra, since a line redrawn with carriage returns is
noise in a log file. The line is erased when the build ends, so the command's own summary (or
its list of problems) is what stays on the screen.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Mapping, Self, TextIO

REDRAW_SECONDS = 0.2  # often enough for the elapsed time to look alive, rarely enough to cost nothing
ERASE_LINE = "\r\x1b[K"


class Silent:
    """Progress that shows nothing (not a terminal, or CI). The build calls the same hooks."""

    def stage(self, name: str) -> None:
        """build()'s on_stage hook: NAME has begun."""

    def figures(self, done: int, total: int) -> None:
        """build()'s on_figure hook: DONE of TOTAL figures are drawn or read from the cache."""

    def close(self) -> None:
        """Stop showing progress."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Live(Silent):
    """One status line on a terminal, redrawn by a background thread so that the elapsed time
    keeps moving during a long stage (the build calls the hooks only between steps)."""

    def __init__(self, stream: TextIO, redraw_seconds: float = REDRAW_SECONDS):
        self._stream = stream
        self._lock = threading.Lock()
        self._stage: str | None = None
        self._started = 0.0
        self._count = ""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._tick, args=(redraw_seconds,), name="sitegen-progress", daemon=True)
        self._thread.start()

    def stage(self, name: str) -> None:
        with self._lock:
            self._stage, self._started, self._count = name, time.perf_counter(), ""
        self._draw()

    def figures(self, done: int, total: int) -> None:
        with self._lock:
            self._count = f" {done}/{total}"
        self._draw()

    def close(self) -> None:
        if self._stop.is_set():
            return
        self._stop.set()
        self._thread.join()
        with self._lock:
            if self._stage is not None:
                self._write(ERASE_LINE)

    def _tick(self, seconds: float) -> None:
        while not self._stop.wait(seconds):
            self._draw()

    def _draw(self) -> None:
        with self._lock:
            if self._stage is None or self._stop.is_set():
                return
            elapsed = time.perf_counter() - self._started
            self._write(f"{ERASE_LINE}building: {self._stage}{self._count}  {elapsed:.1f} s")

    def _write(self, text: str) -> None:
        try:
            self._stream.write(text)
            self._stream.flush()
        except (OSError, ValueError):  # the terminal went away (or the stream was closed): progress is optional
            pass


def wanted(stream: TextIO, environ: Mapping[str, str]) -> bool:
    """Whether STREAM is a terminal someone is watching (a TTY, and not a CI job)."""
    isatty = getattr(stream, "isatty", None)
    try:
        return callable(isatty) and bool(isatty()) and "CI" not in environ
    except (OSError, ValueError):  # a closed stream
        return False


def for_terminal(stream: TextIO | None = None, environ: Mapping[str, str] | None = None) -> Silent:
    """The progress display for STREAM (default stderr): Live on an interactive terminal,
    Silent otherwise. Use it as a context manager around one build."""
    stream = sys.stderr if stream is None else stream
    return Live(stream) if wanted(stream, os.environ if environ is None else environ) else Silent()
