"""The pairwise part of the build benchmark (sitegen.bench --pairwise): the arena-sized pairwise
benchmark of sitegen.families.declared.pairwise.scale (50 models x 32 prompts, every pair in both
orders: 78,400 judgments) written as a site and built cold in a fresh process, with its peak
memory; and, in this process, the pairwise computation alone (validation excluded): the full
Bradley-Terry fit plus its 1,000 bootstrap refits, against the budget PAIRWISE_BUDGET.

sitegen.bench runs the builds (fresh processes, as it runs every build) and hands this module the
function that does it, so that the measuring is written once.
"""

from __future__ import annotations

import shutil
import statistics
import time
from pathlib import Path
from typing import Callable

from sitegen.families.declared.pairwise import scale

PAIRWISE_BUDGET = 10.0  # seconds for the fit and 1,000 refits of 50 models on one core


def _compute_seconds(root: Path) -> tuple[float, int, int]:
    """(seconds of the pairwise computation, judgments, resamples) for the site at ROOT, its
    records loaded and validated first, untimed."""
    from sitegen import build, collector
    from sitegen.config import load_config
    from sitegen.families.declared.pairwise.compute import compute

    config = load_config(root)
    with collector.working():
        inp = build._load(config, None, None).inputs[scale.FID]
    t0 = time.perf_counter()
    compute(inp)
    return time.perf_counter() - t0, len(inp.pairwise.judgments), inp.config.pairwise.resamples


def measure(tmp: Path, models: int, prompts: int, runs: int, cold: Callable[[Path, Path], dict]) -> dict:
    """`runs` cold builds of the arena site (`cold`: bench's build in a fresh process), and as many
    timings of its pairwise computation alone."""
    root, out = scale.write_site(tmp / f"arena{models}", models, prompts), tmp / f"arena{models}-out"
    row: dict = {"models": models, "prompts": prompts, "cold": [cold(root, out) for _ in range(runs)]}
    fits = [_compute_seconds(root) for _ in range(runs)]
    row |= {"fit": [f[0] for f in fits], "judgments": fits[0][1], "resamples": fits[0][2],
            "inputs": sum(p.stat().st_size for p in (root / "data").rglob("*") if p.is_file()),
            "pages": sum(1 for _ in out.rglob("*.html"))}
    shutil.rmtree(root, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    return row


def print_table(rows: list[dict]) -> None:
    """One line per size: judgments, the cold build (median (min-max)), its CPU and peak memory,
    its pages, and the fit with its refits against the budget."""
    if not rows:
        return
    print(f"\nA pairwise benchmark at arena scale (sitegen.families.declared.pairwise.scale, seed {scale.SEED}): every pair of N models "
          "on every prompt in both orders, built cold in a fresh process; then the Bradley-Terry fit and its bootstrap refits alone:")
    print("| models x prompts | judgments | inputs | runs | cold build | CPU | peak memory | pages | fit + refits | budget |")
    print("| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- | --- |")
    med = statistics.median
    for r in rows:
        walls = [c["process"] for c in r["cold"]]
        mib = med(c["rss_kib"] for c in r["cold"]) / 1024
        fit = med(r["fit"])
        print(f"| {r['models']} x {r['prompts']} | {r['judgments']:,} | {r['inputs'] / 1e6:.1f} MB | {len(walls)} | "
              f"{med(walls):.2f} s ({min(walls):.2f}-{max(walls):.2f}) | {med(c['cpu'] for c in r['cold']):.1f} s | {mib:,.0f} MiB | "
              f"{r['pages']:,} | {fit:.2f} s (1 fit + {r['resamples']:,} refits) | under {PAIRWISE_BUDGET:g} s: {'met' if fit < PAIRWISE_BUDGET else 'NOT met'} |")
