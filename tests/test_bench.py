"""The benchmark's edits (`python -m sitegen.bench`): each rebuild it times must follow an
edit the build accepts, or it measures nothing. (It once appended to a published ChronicleBench
amendment, which the append-only log refuses, and no table came out.)"""

from __future__ import annotations

import json

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
