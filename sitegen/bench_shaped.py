"""The real-shaped part of the build benchmark (sitegen.bench --shaped): the declared benchmark
of sitegen.families.declared.shaped (30 models, 32 prompts in 23 categories, 3 iterations, two
sweeps of 1,000-word outputs) written as a site and built cold, with what it weighs: the
output's total size, its largest page and how many pages it has.

sitegen.bench runs the builds (fresh processes, as it runs every build) and hands this module
the function that does it, so that the measuring is written once.
"""

from __future__ import annotations

import shutil
import statistics
from pathlib import Path
from typing import Callable

from sitegen.families.declared import shaped


def measure(tmp: Path, models: int, runs: int, cold: Callable[[Path, Path], dict]) -> dict:
    """`runs` cold builds of the shaped site of `models` models (`cold`: bench's build in a fresh
    process), and the sizes of its output."""
    root, out = shaped.write_site(tmp / f"shaped{models}", models), tmp / f"shaped{models}-out"
    row: dict = {"models": models, "cold": [cold(root, out) for _ in range(runs)]}
    pages = sorted(((p.stat().st_size, p.relative_to(out).as_posix()) for p in out.rglob("*.html")), reverse=True)
    row |= {"pages": len(pages), "largest": pages[0], "html": sum(n for n, _ in pages), "total": sum(p.stat().st_size for p in out.rglob("*") if p.is_file()),
            "inputs": sum(p.stat().st_size for p in (root / "data").rglob("*") if p.is_file())}
    shutil.rmtree(root, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    return row


def print_table(rows: list[dict]) -> None:
    """One line per model count: the cold build (whole process, median (min-max)), its CPU
    seconds, the output's size (the raw records and downloads included) and its pages' part,
    its largest page and its pages."""
    if not rows:
        return
    print(f"\nA real-shaped declared benchmark (sitegen.families.declared.shaped, seed {shaped.SEED}): N models, "
          f"{sum(shaped.CATEGORY_SIZES)} prompts in {len(shaped.CATEGORY_SIZES)} categories, {shaped.ITERATIONS} iterations, "
          f"two sweeps of the same {shaped.WORDS:,}-word outputs, built cold in a fresh process:")
    print("| models | items per sweep | inputs | runs | cold build | CPU | output | of it HTML | largest page | pages |")
    print("| ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- | ---: |")
    med = statistics.median
    for r in rows:
        walls = [c["process"] for c in r["cold"]]
        size, page = r["largest"]
        print(f"| {r['models']} | {r['models'] * sum(shaped.CATEGORY_SIZES) * shaped.ITERATIONS:,} | {r['inputs'] / 1e6:.1f} MB | "
              f"{len(walls)} | {med(walls):.2f} s ({min(walls):.2f}-{max(walls):.2f}) | {med(c['cpu'] for c in r['cold']):.1f} s | "
              f"{r['total'] / 1e6:.1f} MB | {r['html'] / 1e6:.1f} MB | {size / 1e3:.0f} kB (`{page}`) | {r['pages']:,} |")
