"""Work spread over the machine's cores, in the order it was given.

Results never depend on the number of workers: every job carries its own inputs and seed, and
results come back in job order. Worker processes are used only when there are enough jobs to
pay for starting them.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable, Sequence

MAX_WORKERS = 4


def workers() -> int:
    return max(1, min(os.cpu_count() or 1, MAX_WORKERS))


def _run_chunk(fn: Callable, jobs: Sequence) -> list:
    return [fn(*job) for job in jobs]


def pmap(fn: Callable[..., Any], jobs: Sequence[tuple], min_jobs: int = 400) -> list:
    """[fn(*job) for job in jobs], in worker processes when there are at least `min_jobs`."""
    n = workers()
    if len(jobs) < min_jobs or n < 2:
        return _run_chunk(fn, jobs)
    size = -(-len(jobs) // n)
    chunks = [jobs[i : i + size] for i in range(0, len(jobs), size)]
    with ProcessPoolExecutor(max_workers=n) as pool:
        parts = pool.map(_run_chunk, [fn] * len(chunks), chunks)
        return [r for part in parts for r in part]
