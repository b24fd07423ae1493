"""sitegen.parallel.Background: results in submission order, the same in worker processes as
in this process; a few jobs run on the process's workers when they are running already."""

import os

import numpy as np
import pytest

from sitegen import stats
from sitegen import parallel
from sitegen.parallel import Background, call


def _jobs():
    rng = np.random.default_rng(3)
    boards = [(stats.percentile_bootstrap, rng.uniform(0, 100, 5 + i % 7), stats.derive_seed("b", str(i)), 200) for i in range(30)]
    split = [(stats.difference_bootstrap, rng.uniform(0, 100, 4), rng.uniform(0, 100, 6), stats.derive_seed("s", str(i)), 200) for i in range(25)]
    return boards, split


def _run(min_jobs):
    boards, split = _jobs()
    with Background(call, min_jobs=min_jobs) as bg:
        bg.submit(boards)
        bg.submit(split)
        return bg.result()


def test_background_matches_serial_in_order():
    boards, split = _jobs()
    expected = [fn(*args) for fn, *args in boards + split]
    assert _run(min_jobs=10**9) == expected  # in this process
    assert _run(min_jobs=1) == expected  # in worker processes (on a machine with two cores or more)


def test_a_few_jobs_run_here_unless_the_workers_are_running_already():
    """Too few jobs to pay for starting workers run in this process; once the process's pool is
    running (a build's figure workers, started before it loads), they run there, and the
    caller's own work goes on meanwhile."""
    if parallel.workers() < 2:
        pytest.skip("one worker: every job runs in this process")
    jobs = [(os.getpid,)] * 3
    parallel.retire_pool(wait=True)
    with Background(call) as bg:
        bg.submit(jobs)
        assert bg.result() == [os.getpid()] * 3
    parallel.pool()
    try:
        with Background(call) as bg:
            bg.submit(jobs)
            assert os.getpid() not in bg.result()
    finally:
        parallel.retire_pool(wait=True)
