"""sitegen.stats: the seed, the bootstrap and the bands, against the method page's recipe."""

from __future__ import annotations

import hashlib
import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen.stats import Interval, derive_seed, percentile_bootstrap, rank_bands

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


# --------------------------------------------------------------------------- rank_bands


def iv(key, low, high):
    return Interval(key, float(low), float(high))


def test_disjoint_intervals_get_separate_bands_numbered_from_the_top():
    bands = rank_bands([iv("low", 10, 20), iv("top", 70, 80), iv("mid", 40, 50)])
    assert bands == {"top": 1, "mid": 2, "low": 3}


def test_touching_endpoints_share_a_band():
    assert rank_bands([iv("a", 50, 60), iv("b", 40, 50)]) == {"a": 1, "b": 1}
    # a degenerate interval sitting exactly on another's endpoint touches it too
    assert rank_bands([iv("a", 50, 60), iv("b", 60, 60), iv("c", 30, 49.999)]) == {"a": 1, "b": 1, "c": 2}


def test_a_chain_shares_one_band_even_when_its_ends_are_disjoint():
    # A overlaps B, B overlaps C, A and C are disjoint: still one band
    bands = rank_bands([iv("A", 70, 80), iv("B", 55, 72), iv("C", 40, 58), iv("D", 10, 20)])
    assert bands == {"A": 1, "B": 1, "C": 1, "D": 2}


def test_a_wide_interval_bridges_narrow_ones():
    bands = rank_bands([iv("wide", 10, 90), iv("x", 80, 85), iv("y", 15, 20), iv("z", 95, 99)])
    assert bands == {"z": 1, "wide": 2, "x": 2, "y": 2}


def test_band_order_is_by_position_not_by_input_order():
    ivs = [iv("a", 0, 1), iv("b", 2, 3), iv("c", 4, 5), iv("d", 6, 7)]
    for perm in itertools.permutations(ivs):
        assert rank_bands(list(perm)) == {"d": 1, "c": 2, "b": 3, "a": 4}


def test_no_rows_no_bands():
    assert rank_bands([]) == {}


def reference_bands(ivs: list[Interval]) -> dict[str, int]:
    """Brute force: union-find over every overlapping pair, components numbered by their top."""
    parent = list(range(len(ivs)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in itertools.combinations(range(len(ivs)), 2):
        a, b = ivs[i], ivs[j]
        if a.low <= b.high and b.low <= a.high:
            parent[find(i)] = find(j)
    comps: dict[int, list[int]] = {}
    for i in range(len(ivs)):
        comps.setdefault(find(i), []).append(i)
    ordered = sorted(comps.values(), key=lambda c: -max(ivs[i].high for i in c))
    return {ivs[i].key: n for n, comp in enumerate(ordered, start=1) for i in comp}


@st.composite
def interval_sets(draw):
    # small integer grid: touching endpoints and identical intervals happen often
    n = draw(st.integers(min_value=0, max_value=12))
    out = []
    for k in range(n):
        a = draw(st.integers(min_value=0, max_value=30))
        w = draw(st.integers(min_value=0, max_value=8))
        scale = draw(st.sampled_from([1.0, 0.5, 2.5]))
        out.append(Interval(f"m{k}", a * scale, (a + w) * scale))
    return out


@given(interval_sets())
@settings(max_examples=300, deadline=None)
def test_bands_are_the_connected_components_of_overlap(ivs):
    bands, ref = rank_bands(ivs), reference_bands(ivs)
    # two rows share a band iff they are connected through overlaps ...
    for a, b in itertools.combinations(ivs, 2):
        assert (bands[a.key] == bands[b.key]) == (ref[a.key] == ref[b.key]), (a, b)
    # ... and bands are numbered from the top
    assert bands == ref


@given(st.lists(st.tuples(st.floats(0, 100, allow_nan=False), st.floats(0, 20, allow_nan=False)), max_size=15))
@settings(max_examples=200, deadline=None)
def test_bands_match_union_find_on_arbitrary_floats(pairs):
    ivs = [Interval(f"k{i}", lo, min(lo + w, 120.0)) for i, (lo, w) in enumerate(pairs)]
    assert rank_bands(ivs) == reference_bands(ivs)
