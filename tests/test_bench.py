"""The benchmark's edits (`python -m sitegen.bench`): each rebuild it times must follow an
edit the build accepts, or it measures nothing. (It once appended to a published ChronicleBench
amendment, which the append-only log refuses, and no table came out.)"""

from __future__ import annotations

import json
import subprocess

from sitegen import bench
from sitegen.build import validate
from sitegen.config import load_config

from conftest import enable_only


def test_the_benchmarks_amendment_and_cell_edits_are_inputs_the_build_accepts(site_copy):
    site = enable_only(site_copy, ["canonic", "chronicle"])
    last = bench._last_amendment(site)
    entry = bench._new_amendment(site)
    assert entry is not None and entry != last and bench._last_amendment(site) == entry
    for n in (1, 2):  # the rebuilds' successive edits
        bench._append_sentence(entry, n)
        changed = bench._edit_cell(site, n)  # "<model>, <task>": the sweep's first model, another cell each time
        assert changed.split(", ")[0] == json.loads((site / bench.SWEEP).read_text(encoding="utf-8"))["models"][0]["id"]
    validate(load_config(site))  # raises InputError, naming the file, if an edit were refused
    assert "This sentence (edit 2) was appended" in entry.read_text(encoding="utf-8")


def test_the_fixed_costs_resample_every_published_canonic_interval_and_print_their_cpu(built_site):
    """The bench's floor under the build's CPU (sitegen.bench_floors) re-runs the bootstrap of
    every interval Canonic publishes, read from the published tables: one missed (a renamed
    column, a table moved) would lower the floor without a word."""
    from sitegen import bench_floors

    jobs = bench_floors.bootstrap_jobs(built_site.out)
    res = built_site.results
    rows = [r for b in res.boards for r in b.rows if r.low is not None]
    split = res.evidence.split
    assert rows and split
    assert sorted(jobs) == sorted([("mean", [r.counted], r.seed) for r in rows]
                                  + [("difference", [s.n_novel, s.n_canonical], s.seed) for s in split])
    # each part's command runs on its own and reports its CPU seconds last (here on a few jobs)
    cmd, _ = bench_floors.commands(built_site.out, [])["Canonic's bootstraps"]
    done = subprocess.run(cmd, input=json.dumps(jobs[:3]), capture_output=True, text=True, check=True)
    assert float(done.stdout.splitlines()[-1]) > 0
