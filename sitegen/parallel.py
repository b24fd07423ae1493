"""Work spread over the machine's cores, in the order it was given.

Results never depend on the number of workers: every job carries its own inputs and seed, and
results come back in job order. Worker processes are used only when there are enough jobs to
pay for starting them.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Callable, Sequence

MAX_WORKERS = 4
CHUNKS_PER_WORKER = 16


def workers() -> int:
    return max(1, min(os.cpu_count() or 1, MAX_WORKERS))


def _run_chunk(fn: Callable, jobs: Sequence) -> list:
    return [fn(*job) for job in jobs]


def call(fn: Callable, *args: Any) -> Any:
    """fn(*args): lets one Background run jobs of different functions, each job (fn, *args)."""
    return fn(*args)


def _chunks(jobs: Sequence, n: int) -> list[Sequence]:
    # Many chunks per worker rather than one: a worker slowed by another process (or by the
    # caller's own work meanwhile, see Background) then takes fewer chunks instead of holding
    # up the end, and the last chunk, run while the other workers may be idle, is short.
    # Order is kept.
    size = max(1, -(-len(jobs) // (n * CHUNKS_PER_WORKER)))
    return [jobs[i : i + size] for i in range(0, len(jobs), size)]


class Background:
    """Jobs started now and collected later, so that the caller can do other work while the
    workers run: submit(jobs) any number of times, then result() gives [fn(*job) for job in
    jobs], every batch in the order submitted. A batch of fewer than `min_jobs` (while no
    worker process has started) is run in this process, by result(). Use it as a context
    manager: leaving the block stops the workers (a failure does not wait for them)."""

    def __init__(self, fn: Callable[..., Any], min_jobs: int = 400):
        self._fn, self._min_jobs = fn, min_jobs
        self._pool: ProcessPoolExecutor | None = None
        self._parts: list[Future | Sequence[tuple]] = []  # a worker's chunk, or jobs to run here

    def submit(self, jobs: Sequence[tuple]) -> None:
        n = workers()
        if self._pool is None and len(jobs) >= self._min_jobs and n >= 2:
            # started by the forkserver, as the figure workers are, never forked from this
            # process: by now it holds the validated tables (2.4 GB at 1000x data), whose pages a
            # forked worker keeps alive as this process writes to them, and DuckDB's threads
            self._pool = ProcessPoolExecutor(max_workers=n, mp_context=multiprocessing.get_context("forkserver"))
        if self._pool is None:
            self._parts.append(jobs)
        else:
            self._parts.extend(self._pool.submit(_run_chunk, self._fn, chunk) for chunk in _chunks(jobs, n))

    def result(self) -> list:
        out: list = []
        for part in self._parts:
            out.extend(part.result() if isinstance(part, Future) else _run_chunk(self._fn, part))
        return out

    def __enter__(self) -> "Background":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=exc_type is None, cancel_futures=exc_type is not None)
