"""Work spread over the machine's cores, in the order it was given.

Results never depend on the number of workers: every job carries its own inputs and seed, and
results come back in job order. Worker processes are started only when there are enough jobs to
pay for it; once started (pool()), they serve every kind of job of the process.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Callable, Sequence

MAX_WORKERS = 4
CHUNKS_PER_WORKER = 16


def workers() -> int:
    return max(1, min(os.cpu_count() or 1, MAX_WORKERS))


# One pool of worker processes per process, started at the first need (a build's figure workers'
# head start, or a Background with enough jobs) and kept for the life of the process, which ends
# it with retire_pool() (the command line, once its one build's figures are drawn). The figures
# and the bootstraps share it: workers hold no state from one job to the next (each job carries
# its inputs), and a build's bootstraps then run on workers already started for its figures,
# which wait idle until the pages are made.
_POOL: ProcessPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def pool(preload: Sequence[str] = ()) -> ProcessPoolExecutor:
    """The process's worker pool, started now if it is not running. Its workers are started by
    the forkserver, never forked from this process: by then this process may hold the validated
    tables (2.4 GB at 1000x data), whose pages a forked worker keeps alive as this process writes
    to them, DuckDB's threads, and vl-convert's runtime, whose threads do not survive a fork.
    `preload`: modules the server imports before it forks a worker (each worker then starts with
    them imported); it takes effect only when the server starts, with the first pool of the process."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            ctx = multiprocessing.get_context("forkserver")
            if preload:
                ctx.set_forkserver_preload(list(preload))
            _POOL = ProcessPoolExecutor(max_workers=workers(), mp_context=ctx, initializer=_exit_with_parent)
        return _POOL


def _exit_with_parent() -> None:
    """In each worker, before its first job: exit as soon as the process that started the pool
    ends, however it ends. A worker's parent is the forkserver, not that process, and neither
    outlives it by itself: the forkserver exits only once every process it forked has (each
    holds its "alive" pipe), and an idle worker waits on a job queue it holds both ends of. A
    SIGKILLed build left its workers (a vl-convert runtime each, about 190 MB) running for good.
    What a worker watches is the pipe multiprocessing keeps for it as its parent's sentinel,
    whose other end the pool's own process holds: the kernel closes it when that process dies."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_when_ended, args=(parent,), name="parent-watch", daemon=True).start()


def _exit_when_ended(parent) -> None:
    parent.join()  # returns when the sentinel is closed: the parent is gone
    os._exit(1)


def running_pool() -> ProcessPoolExecutor | None:
    """The process's worker pool if it has been started (pool()), else None."""
    return _POOL


def retire_pool(wait: bool = False, kill: bool = False) -> None:
    """End the worker pool: the next pool() starts a new one. `wait`: return once its workers
    have exited. `kill`: end them at once, as they are, and wait: for a process about to exit
    after a failure, whose workers may be still starting (vl-convert's runtime, about a second)
    or mid-job, work nobody will use."""
    global _POOL
    with _POOL_LOCK:
        old, _POOL = _POOL, None
    if old is None:
        return
    if kill:
        # ProcessPoolExecutor has no public way to stop a running job (3.14 adds kill_workers)
        for process in list((getattr(old, "_processes", None) or {}).values()):
            process.kill()
    old.shutdown(wait=wait or kill, cancel_futures=True)


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
    jobs], every batch in the order submitted. A batch goes to the worker pool when it is
    running already (a build's figure workers, started as it loads) or when it has at
    least `min_jobs` jobs, which pay for starting it; otherwise result() runs it in this
    process. Use it as a context manager: leaving the block after a failure cancels the jobs
    not started (the pool stays for the process's other work)."""

    def __init__(self, fn: Callable[..., Any], min_jobs: int = 400):
        self._fn, self._min_jobs = fn, min_jobs
        self._parts: list[Future | Sequence[tuple]] = []  # a worker's chunk, or jobs to run here

    def submit(self, jobs: Sequence[tuple]) -> None:
        n = workers()
        workers_pool = running_pool()
        if workers_pool is None and len(jobs) >= self._min_jobs and n >= 2:
            workers_pool = pool()
        if workers_pool is None or n < 2:
            self._parts.append(jobs)
        else:
            self._parts.extend(workers_pool.submit(_run_chunk, self._fn, chunk) for chunk in _chunks(jobs, n))

    def result(self) -> list:
        out: list = []
        for part in self._parts:
            out.extend(part.result() if isinstance(part, Future) else _run_chunk(self._fn, part))
        return out

    def __enter__(self) -> "Background":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is not None:
            for part in self._parts:
                if isinstance(part, Future):
                    part.cancel()
