"""A seeded sample of the cache differential (tests/cache_differential.py, whose whole sweep
over every input file of the demo is `scripts/cache-differential`): after each edit, a warm
build gives the cold build's exit status, problems and output bytes and modes, and a warm
validation the cold build's exit status and problems."""

from __future__ import annotations

from cache_differential import BIBLE, SEED, Differential, input_files, sample


def test_a_seeded_sample_of_edits_builds_warm_exactly_as_cold(tmp_path, built_site):
    edits = sample(4, SEED)
    assert edits[0] == BIBLE and len(set(edits)) == 4
    diff = Differential(tmp_path, (built_site.root, built_site.out))  # the demo as the suite built it, with its cache
    found = {rel: diff.compare(rel)[1] for rel in edits}
    assert found == {rel: [] for rel in edits}


def test_the_sweep_edits_every_kind_of_input():
    files = input_files()
    assert BIBLE in files and "pyproject.toml" in files
    # (the demo has no templates/ or assets/ of its own: the built-in theme serves it)
    assert {rel.split("/")[0] for rel in files} == {"content", "data", "pyproject.toml"}
