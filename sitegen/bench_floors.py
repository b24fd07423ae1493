"""What bounds a cold build's time: the CPU seconds it spends on work whose amount sitegen does
not choose, each part measured alone in a fresh process (python -m sitegen.bench prints them
beside the build's own CPU seconds):

- start and imports: an interpreter importing every module the build's process imported (the
  list that process reports when it ends);
- drawing the figures: vl-convert, once imported, drawing every figure of the built site from
  the Vega-Lite spec the site publishes beside it, as SVG and then PNG at the build's scale, in
  one process (its runtime started once, where each of the build's figure workers starts its own);
- Canonic's bootstraps: once numpy is imported, the resampling behind every interval its boards
  and contamination split publish, with the published number of scores and seed, through
  sitegen.stats as the build runs it. The scores are placeholders: the work depends on how many
  there are and on the resamples, not on their values.

Together they are a floor under the build's CPU seconds that no faster code of sitegen's own
can go below, short of another figure renderer or fewer resamples than the published formula's.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

# Each child prints, as its last line, its CPU seconds since `since` (getrusage: itself and any
# process it started). The figures and the bootstraps count from after their imports, which the
# first part counts already.
_CPU = """
r = resource.getrusage(resource.RUSAGE_SELF); k = resource.getrusage(resource.RUSAGE_CHILDREN)
print(r.ru_utime + r.ru_stime + k.ru_utime + k.ru_stime - since)
"""
_SINCE = """
r = resource.getrusage(resource.RUSAGE_SELF); k = resource.getrusage(resource.RUSAGE_CHILDREN)
since = r.ru_utime + r.ru_stime + k.ru_utime + k.ru_stime
"""

_IMPORTS = r"""
import importlib, json, resource, sys
since = 0.0
for name in json.loads(sys.stdin.read()):
    try:
        importlib.import_module(name)
    except Exception:  # a module that only its importer can load (a test shim, a platform stub)
        pass
""" + _CPU

_FIGURES = r"""
import json, resource, sys
from pathlib import Path
import vl_convert as vlc
from sitegen import figure_fonts
from sitegen.figures import _png_scale
""" + _SINCE + r"""
figure_fonts.ready()  # the font and time zone the build draws with, as its workers start
for spec in sorted(Path(sys.argv[1]).rglob("*.vl.json")):
    svg = vlc.vegalite_to_svg(json.loads(spec.read_bytes()))
    vlc.svg_to_png(svg, scale=_png_scale(svg))
""" + _CPU

_BOOTSTRAPS = r"""
import json, resource, sys
import numpy as np
from sitegen import stats
""" + _SINCE + r"""
for kind, sizes, seed in json.loads(sys.stdin.read()):
    groups = [np.linspace(0.0, 100.0, n) for n in sizes]
    (stats.percentile_bootstrap if kind == "mean" else stats.difference_bootstrap)(*groups, seed)
""" + _CPU

# The published Canonic tables that give each interval's number of scores and seed.
BOARDS, SPLIT = "canonic/*/board.csv", "canonic/contamination.csv"


def bootstrap_jobs(out: Path) -> list[tuple[str, list[int], int]]:
    """Every bootstrap behind a published Canonic interval: ("mean", [n], seed) for a board
    row, ("difference", [n_novel, n_canonical], seed) for a contamination split's row."""
    jobs: list[tuple[str, list[int], int]] = []
    for path in sorted(out.glob(BOARDS)):
        with open(path, newline="", encoding="utf-8") as fh:
            jobs += [("mean", [int(r["counted"])], int(r["bootstrap_seed"])) for r in csv.DictReader(fh) if r["ci_low"]]
    split = out / SPLIT
    if split.is_file():
        with open(split, newline="", encoding="utf-8") as fh:
            jobs += [("difference", [int(r["n_novel"]), int(r["n_canonical"])], int(r["bootstrap_seed"]))
                     for r in csv.DictReader(fh) if r["ci_low"]]
    return jobs


def commands(out: Path, modules: list[str]) -> dict[str, tuple[list[str], str]]:
    """Each part's command and what it reads on its standard input."""
    return {
        "start and imports": ([sys.executable, "-c", _IMPORTS], json.dumps(modules)),
        "drawing the figures": ([sys.executable, "-c", _FIGURES, str(out)], ""),
        "Canonic's bootstraps": ([sys.executable, "-c", _BOOTSTRAPS], json.dumps(bootstrap_jobs(out))),
    }
