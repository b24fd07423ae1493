"""The build benchmark: prints a table, never asserts. Run it with

    python -m sitegen.bench [--runs N] [--scales 1,10,100]

Each measurement is a cold build in a fresh process (empty figure cache, new interpreter),
so start-up, imports and figure rendering are all counted. It reports the median of N runs,
pages per second and the peak resident memory of the build process and its workers.
Scale 1 is the committed demo site; scale k regenerates the synthetic Canonic artifact with
13 x k models (2,470 x k cells, with their outputs) in a temporary site; the other families
keep their demo data.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_CHILD = r"""
import json, resource, sys, time
from pathlib import Path
t0 = time.perf_counter()
from sitegen.build import build
from sitegen.config import load_config
res = build(load_config(sys.argv[1]), Path(sys.argv[2]))
wall = time.perf_counter() - t0
own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"wall": wall, "pages": res.pages, "files": res.files, "rss_kib": max(own, kids), "stages": res.seconds}))
"""

SITE_PARTS = ("content", "templates", "assets", "pyproject.toml")


def _site(repo: Path, dest: Path, scale: int) -> Path:
    dest.mkdir(parents=True)
    for part in SITE_PARTS:
        src = repo / part
        (shutil.copytree if src.is_dir() else shutil.copy2)(src, dest / part)
    shutil.copytree(repo / "data", dest / "data")
    if scale > 1:  # the Canonic artifact grows; the other families' demo data stays as it is
        from sitegen.families.canonic.demo import generate

        generate(dest, scale=scale)
    return dest


def _one_build(root: Path, out: Path) -> dict:
    shutil.rmtree(root / ".sitegen-cache", ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    done = subprocess.run([sys.executable, "-c", _CHILD, str(root), str(out)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"build failed at {root}:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _write_floor(out: Path, runs: int) -> float:
    """The time to write the same output bytes, file by file: what no generator can beat."""
    files = [(p.relative_to(out), p.read_bytes()) for p in sorted(out.rglob("*")) if p.is_file()]
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            for rel, data in files:
                target = Path(tmp) / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=Path("."), help="the site repository (default: .)")
    ap.add_argument("--runs", type=int, default=5, help="cold builds per scale (median reported)")
    ap.add_argument("--scales", default="1,10,100", help="comma-separated data scales")
    args = ap.parse_args(argv)
    repo = args.root.resolve()
    scales = [int(s) for s in args.scales.split(",")]
    rows = []
    with tempfile.TemporaryDirectory(prefix="sitegen-bench-") as tmp:
        for scale in scales:
            t0 = time.perf_counter()
            root = _site(repo, Path(tmp) / f"x{scale}", scale)
            gen = time.perf_counter() - t0
            runs = args.runs if scale < 100 else max(1, min(args.runs, 3))
            results = [_one_build(root, Path(tmp) / f"out{scale}") for _ in range(runs)]
            wall = statistics.median(r["wall"] for r in results)
            cells = sum(1 for _ in open(root / "data/canonic/cells.jsonl", "rb"))
            floor = _write_floor(Path(tmp) / f"out{scale}", runs)
            stages = {k: statistics.median(r["stages"].get(k, 0.0) for r in results) for k in results[0]["stages"]}
            rows.append({
                "scale": f"{scale}x", "cells": cells, "runs": runs, "wall": wall,
                "spread": (min(r["wall"] for r in results), max(r["wall"] for r in results)),
                "pages": results[0]["pages"], "pps": results[0]["pages"] / wall,
                "rss_mib": max(r["rss_kib"] for r in results) / 1024,
                "out_mib": _size(Path(tmp) / f"out{scale}") / 2**20, "floor": floor, "gen": gen, "stages": stages,
            })
            print(f"  measured {scale}x ({runs} runs)", file=sys.stderr)

    print("\n| data | cells | runs | cold build, median (min-max) | pages | pages/s | peak RSS | output | write floor |")
    print("| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        lo, hi = r["spread"]
        print(f"| {r['scale']} | {r['cells']:,} | {r['runs']} | {r['wall']:.2f} s ({lo:.2f}-{hi:.2f}) | {r['pages']} | "
              f"{r['pps']:.1f} | {r['rss_mib']:.0f} MiB | {r['out_mib']:.1f} MiB | {r['floor'] * 1000:.0f} ms |")
    print("\nMedian seconds per stage:")
    from sitegen.build import STAGES  # one column per stage, in build order

    names = [n for n in STAGES if any(n in r["stages"] for r in rows)]
    print("| data | " + " | ".join(names) + " |")
    print("| --- |" + " ---: |" * len(names))
    for r in rows:
        print(f"| {r['scale']} | " + " | ".join(f"{r['stages'].get(n, 0.0):.2f}" for n in names) + " |")
    by = {r["scale"]: r for r in rows}
    if "10x" in by and "100x" in by:
        ratio = by["100x"]["wall"] / by["10x"]["wall"]
        print(f"\n100x / 10x build time: {ratio:.1f} (10.0 would be linear growth in the data)")


if __name__ == "__main__":
    main()
