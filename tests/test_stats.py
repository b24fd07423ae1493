"""sitegen.stats: the seed and the bootstrap, against the method page's recipe (the rank ranges: test_ranks.py)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen.stats import derive_seed, percentile_bootstrap

scores_st = st.lists(st.floats(min_value=0, max_value=100, allow_nan=False, allow_infinity=False),
                     min_size=1, max_size=40)
seed_st = st.integers(min_value=0, max_value=2**64 - 1)
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def recipe(scores, seed: int, resamples: int = 10_000) -> tuple[float, float]:
    """The method page's recipe, verbatim."""
    scores = np.asarray(scores, dtype=np.float64)
    n = len(scores)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(resamples, n))
    low, high = np.percentile(scores[idx].mean(axis=1), [2.5, 97.5])
    return float(low), float(high)


# --------------------------------------------------------------------------- derive_seed


def test_derive_seed_matches_documented_formula_on_a_canonic_key():
    text = "full-001|anthropic/claude-opus-5|book-opening"
    expected = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
    assert derive_seed("full-001", "anthropic/claude-opus-5", "book-opening") == expected


def test_derive_seed_is_a_64_bit_unsigned_integer_that_depends_on_every_part():
    a = derive_seed("s", "m", "d")
    assert 0 <= a < 2**64
    assert len({a, derive_seed("s", "m", "e"), derive_seed("s", "n", "d"), derive_seed("t", "m", "d")}) == 4
    # the separator is part of the hashed text: moving it changes the seed
    assert derive_seed("ab", "c") != derive_seed("a", "bc")


@given(st.lists(st.text(min_size=0, max_size=20), min_size=1, max_size=4))
@settings(max_examples=100, deadline=None)
def test_derive_seed_formula_property(parts):
    expected = int.from_bytes(hashlib.sha256("|".join(parts).encode("utf-8")).digest()[:8], "big")
    assert derive_seed(*parts) == expected


# --------------------------------------------------------------------------- percentile_bootstrap


def test_bootstrap_default_is_the_published_recipe_with_10000_resamples():
    scores = np.array([61.25, 70.0, 55.5, 80.0, 72.5, 66.0, 59.75, 90.0])
    seed = derive_seed("full-001", "x/model", "song-lyrics")
    assert percentile_bootstrap(scores, seed) == recipe(scores, seed)


@pytest.mark.parametrize("n, seed", [(30, 0), (29, 2**64 - 1), (1, 12345)])
def test_bootstrap_full_10000_resamples_equals_recipe(n, seed):
    scores = np.random.default_rng(n).uniform(0, 100, size=n).round(2)
    assert percentile_bootstrap(scores, seed, resamples=10_000) == recipe(scores, seed)


def test_bootstrap_rejects_an_empty_row():
    with pytest.raises(ValueError):
        percentile_bootstrap(np.array([]), seed=1)


@given(scores_st, seed_st)
@FAST
def test_bootstrap_equals_recipe_exactly(scores, seed):
    assert percentile_bootstrap(np.array(scores), seed, resamples=2000) == recipe(scores, seed, resamples=2000)


@given(scores_st, seed_st)
@FAST
def test_interval_contains_the_point_estimate(scores, seed):
    arr = np.array(scores)
    mean = float(arr.mean())
    low, high = percentile_bootstrap(arr, seed, resamples=2000)
    assert low <= high
    assert low <= mean <= high


@given(scores_st, seed_st)
@FAST
def test_same_inputs_give_the_same_interval(scores, seed):
    first = percentile_bootstrap(np.array(scores), seed, resamples=2000)
    # a fresh array (a copy, a list) and an interleaved unrelated draw must not matter
    np.random.default_rng(0).random(10)
    second = percentile_bootstrap(np.array(list(scores)), seed, resamples=2000)
    assert first == second


def test_interval_contains_point_estimate_full_resamples():
    for seed in (7, 2**63 + 5):
        scores = np.random.default_rng(seed % 1000).choice([0.0, 25.0, 50.0, 75.0, 100.0], size=30)
        low, high = percentile_bootstrap(scores, seed)
        assert low <= scores.mean() <= high
        assert (low, high) == percentile_bootstrap(scores.copy(), seed)


def test_different_seeds_give_different_intervals():
    scores = np.random.default_rng(3).uniform(0, 100, size=30)
    assert percentile_bootstrap(scores, 1) != percentile_bootstrap(scores, 2)
