"""The bootstraps draw their indices as int32 (sitegen.stats._draw_indices) for speed; the
published formula draws them with numpy's default int64. They must be the same numbers."""

import numpy as np
import pytest

from sitegen import stats


@pytest.mark.parametrize("n", [1, 2, 3, 7, 8, 9, 29, 30, 31, 32, 33, 40, 64, 100, 127, 128, 129, 1000, 65537])
def test_int32_draws_are_the_published_int64_draws(n):
    for seed in (0, 1, 12345, stats.derive_seed("sweep", "model", "domain"), 2**64 - 1):
        published = np.random.default_rng(seed).integers(0, n, size=(200, n))
        ours = stats._draw_indices(np.random.default_rng(seed), n, 200)
        assert np.array_equal(published, ours)


def test_bootstraps_match_the_documented_formulas():
    rng = np.random.default_rng(7)
    for n_a, n_b in ((1, 1), (9, 21), (30, 30), (41, 3)):
        a, b = rng.uniform(0, 100, n_a), rng.uniform(0, 100, n_b)
        seed = stats.derive_seed("s", str(n_a), str(n_b))
        r = np.random.default_rng(seed)
        idx = r.integers(0, n_a, size=(stats.RESAMPLES, n_a))
        expected = np.percentile(a[idx].mean(axis=1), [2.5, 97.5])
        assert stats.percentile_bootstrap(a, seed) == (float(expected[0]), float(expected[1]))
        r = np.random.default_rng(seed)
        ia = r.integers(0, n_a, size=(stats.RESAMPLES, n_a))
        ib = r.integers(0, n_b, size=(stats.RESAMPLES, n_b))
        expected = np.percentile(a[ia].mean(axis=1) - b[ib].mean(axis=1), [2.5, 97.5])
        assert stats.difference_bootstrap(a, b, seed) == (float(expected[0]), float(expected[1]))
        r = np.random.default_rng(seed)
        idx = r.integers(0, n_b, size=(stats.RESAMPLES, n_b))
        expected = np.percentile(np.median(b[idx], axis=1), [2.5, 97.5])
        assert stats.percentile_bootstrap(b, seed, statistic=np.median) == (float(expected[0]), float(expected[1]))


def test_a_bootstrap_after_a_larger_one_gives_its_own_interval():
    """The resampled scores go into an array each thread reuses (stats._resampled): a smaller
    bootstrap after a larger one, or a group after another in a difference, reads only its own."""
    rng = np.random.default_rng(11)
    groups = [rng.uniform(0, 100, n) for n in (50, 5, 50, 2, 17)]
    alone = []
    for g in groups:
        stats._scratch.__dict__.clear()  # a fresh scratch array for each: nothing left from another
        alone.append(stats.percentile_bootstrap(g, 3, resamples=500))
    assert [stats.percentile_bootstrap(g, 3, resamples=500) for g in groups] == alone
    stats._scratch.__dict__.clear()
    fresh = stats.difference_bootstrap(groups[1], groups[0], 5, resamples=500)
    stats.percentile_bootstrap(groups[0], 3, resamples=500)
    assert stats.difference_bootstrap(groups[1], groups[0], 5, resamples=500) == fresh
