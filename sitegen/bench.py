"""The build benchmark: prints tables, never asserts. Run it with

    python -m sitegen.bench [--runs N] [--scales 1,10,100] [--formats jsonl,parquet]

Each scale measurement is `sitegen build` cold in a fresh process (empty cache, new interpreter),
so start-up, imports and figure rendering are all counted; sitegen's modules and templates are
compiled once before, as an installed copy has them (_as_installed). It reports the median of N runs,
the CPU seconds of the build and of every process it started (the figure workers run under a
forkserver the build does not wait for: the benchmark adopts and reaps them), pages per second,
the peak memory of the build and of all its processes together (on Linux, the sum of their
proportional set sizes, sampled as it runs: the bootstrap, intake and figure workers run beside
the build, so no one process's peak is the build's), and the seconds the build spent writing
files beside a plain loop writing the same files after each build (the write floor; the goal
compares the two pair by pair).
Scale 1 is the committed demo site; scale k regenerates the synthetic Canonic artifact with
13 x k models (2,470 x k cells, with their outputs) in a temporary site, its cells written as
JSONL and as Parquet (--formats); the other families keep their demo data.

Two more tables use the demo site: rebuilds (a no-op rebuild, one amendment edited, one
model's cell changed; each as `sitegen build` in a fresh process with the caches warm and the
output already built, next to the goals of the incremental build, and again inside one running
process as `sitegen serve` rebuilds), and, when `hugo` is on PATH, the demo's cold build and a
plain Hugo site with as many pages of similar sizes built cold, in turn, pair by pair
(sitegen.bench_hugo). A site of --pages one-line markdown pages (10,000 by default) is built
cold, rebuilt with nothing changed and with one page edited, beside Hugo's cold build of the
same pages (sitegen.bench_pages). A declared benchmark of a real one's shape (--shaped models, 30
by default: 32 prompts, 3 iterations, two sweeps of 1,000-word outputs) is built cold, with its
output's size, largest page and pages (sitegen.bench_shaped). A pairwise benchmark at arena scale
(--pairwise models, 50 by default: 32 prompts, every pair in both orders, 78,400 judgments) is
built cold, with its peak memory, and its fit plus 1,000 bootstrap refits timed alone
(sitegen.bench_pairwise). Then what bounds the time: the CPU seconds of the build's
fixed costs (its start and imports, drawing its figures, Canonic's bootstraps), each measured
alone (sitegen.bench_floors), and what each time goal leaves for the rest. Last, each goal with its
measure, met or not met.
Everything happens in temporary directories, removed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from sitegen import bench_floors, bench_hugo, bench_pages, bench_pairwise, bench_shaped
from sitegen.build import WRITER_CHECKS, WRITING, WRITING_CPU
from sitegen.families.canonic.demo.design import BASE_MODELS

TASKS = 190  # per model, in the Canonic demo at every scale

# The child runs `sitegen build --timings` in-process, as a user would run the command, then
# reports its peak memory and that of its workers.
_CHILD = r"""
import contextlib, io, json, resource, sys, time
t0 = time.perf_counter()
from sitegen.cli import main
said = io.StringIO()
with contextlib.redirect_stdout(said):
    main(["build", "--root", sys.argv[1], "--out", sys.argv[2], "--timings"], prog_name="sitegen", standalone_mode=False)
wall = time.perf_counter() - t0
timings = next(json.loads(line) for line in said.getvalue().splitlines() if line.startswith("{"))
own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"wall": wall, "rss_kib": max(own, kids), "modules": sorted(sys.modules), **timings}))
"""

SITE_PARTS = ("content", "templates", "assets", "pyproject.toml")


def _site(repo: Path, dest: Path, scale: int, cells: str = "jsonl") -> Path:
    dest.mkdir(parents=True)
    for part in SITE_PARTS:
        src = repo / part
        if not src.exists():  # a site needs no templates/ or assets/ of its own
            continue
        (shutil.copytree if src.is_dir() else shutil.copy2)(src, dest / part)
    shutil.copytree(repo / "data", dest / "data")
    if scale > 1 or cells != "jsonl":  # the Canonic artifact grows; the other families' demo data stays as it is
        from sitegen.families.canonic.demo import generate

        generate(dest, scale=scale, cells_format=cells)
    if scale >= 1000:  # its outputs.jsonl is 2.6 GB: past the default limit on one input file
        with open(dest / "pyproject.toml", "a", encoding="utf-8") as fh:
            fh.write("\n[tool.sitegen.limits]\nmax_file_bytes = 8_000_000_000\n")
    return dest


class BuildFailed(Exception):
    pass


def _adopt_orphans() -> None:
    """Make this process the reaper of its descendants' orphans (Linux): the figure workers run
    under a forkserver that the build starts and does not wait for, so their CPU time reaches
    no one's rusage unless whoever measures adopts and reaps them (_reap)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass


def _reap(deadline: float = 30.0) -> None:
    """Wait for every adopted descendant to exit (the forkserver and its workers end once the
    build that started them has), so their CPU time is in RUSAGE_CHILDREN."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            time.sleep(0.01)


def _cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


class _TreeMemory(threading.Thread):
    """The peak, while it runs, of the summed proportional set size (PSS) of this process's
    descendants: the memory the build and every worker it started hold together, each shared
    page counted once (forked workers share their parent's pages). Read from /proc every
    SAMPLE seconds; `peak_kib` stays None where /proc has no smaps_rollup (not Linux)."""

    SAMPLE = 0.2

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.peak_kib: int | None = None
        self._done = threading.Event()

    def run(self) -> None:
        me = os.getpid()
        while not self._done.wait(self.SAMPLE):
            total = _tree_pss_kib(me)
            if total is not None:
                self.peak_kib = max(self.peak_kib or 0, total)

    def stop(self) -> int | None:
        self._done.set()
        self.join()
        return self.peak_kib


def _tree_pss_kib(root: int) -> int | None:
    """The summed PSS, in KiB, of ROOT's descendants (ROOT itself left out); None without /proc."""
    parent: dict[int, int] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return None
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:  # gone meanwhile
            continue
        parent[int(name)] = int(stat[stat.rindex(b")") + 2:].split()[1])  # after "(comm) state": the ppid
    below: set[int] = set()
    frontier = [root]
    while frontier:
        p = frontier.pop()
        for child in (c for c, pp in parent.items() if pp == p):
            below.add(child)
            frontier.append(child)
    total, read = 0, False
    for pid in below:
        try:
            with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
                for line in f:
                    if line.startswith(b"Pss:"):
                        total += int(line.split()[1])
                        read = True
                        break
        except OSError:
            continue
    return total if read or not below else None


def _timed(cmd: list[str]) -> tuple[subprocess.CompletedProcess, float, float, int | None]:
    """Run cmd in a fresh process: (the run, its wall seconds, the CPU seconds of it and of all
    its descendants, figure workers included, and their peak memory together in KiB, or None
    where it cannot be read)."""
    _reap(0)
    memory = _TreeMemory()
    cpu0, t0 = _cpu_children(), time.perf_counter()
    memory.start()
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    peak = memory.stop()
    _reap()
    return done, wall, _cpu_children() - cpu0, peak


def _run_build(root: Path, out: Path) -> dict:
    """One build in a fresh process, as the cache and output directory are. "process" is the
    whole process's wall time (interpreter start-up included), "wall" the time from its start,
    "cpu" the CPU seconds of the process and every process it started."""
    done, wall, cpu, tree_kib = _timed([sys.executable, "-c", _CHILD, str(root), str(out)])
    if done.returncode != 0:
        raise BuildFailed(done.stderr)
    result = {**json.loads(done.stdout.strip().splitlines()[-1]), "process": wall, "cpu": cpu}
    if tree_kib is not None:  # all processes together; else the largest single one's peak
        result["rss_kib"] = max(result["rss_kib"], tree_kib)
    return result


def _one_build(root: Path, out: Path) -> dict:
    """A cold build: no figure cache, no output directory."""
    shutil.rmtree(root / ".sitegen-cache", ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    try:
        return _run_build(root, out)
    except BuildFailed as e:
        raise SystemExit(f"build failed at {root}:\n{e}") from None


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _write_floor(out: Path) -> tuple[float, float]:
    """The time to write the same output bytes, file by file, what no generator can beat: its
    wall and CPU seconds."""
    files = [(p.relative_to(out), p.read_bytes()) for p in sorted(out.rglob("*")) if p.is_file()]
    with tempfile.TemporaryDirectory() as tmp:
        t0, c0 = time.perf_counter(), time.process_time()
        for rel, data in files:
            target = Path(tmp) / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        return time.perf_counter() - t0, time.process_time() - c0


def _fixed_costs(out: Path, modules: list[str], runs: int) -> dict[str, float]:
    """Each part of what bounds the build's CPU seconds (sitegen.bench_floors), the median CPU
    seconds of `runs` fresh processes."""
    found: dict[str, float] = {}
    for part, (cmd, given) in bench_floors.commands(out, modules).items():
        seconds = []
        for _ in range(runs):
            done = subprocess.run(cmd, input=given, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                raise SystemExit(f"measuring {part} failed:\n{done.stderr}")
            seconds.append(float(done.stdout.strip().splitlines()[-1]))
        found[part] = statistics.median(seconds)
    return found


def _measure_scale(repo: Path, tmp: Path, scale: int, runs: int, cells: str = "jsonl") -> dict:
    t0 = time.perf_counter()
    root = _site(repo, tmp / f"x{scale}-{cells}", scale, cells)
    gen = time.perf_counter() - t0
    runs = runs if scale < 100 else max(1, min(runs, 3))
    out = tmp / f"out{scale}-{cells}"
    # The write floor is measured after each build, on its output, and set against that build's
    # writing: the same files at the same moment of a shared machine, whose disk and page cache
    # change from one minute to the next (a floor measured apart varied sixfold between runs).
    results, floors = [], []
    for _ in range(runs):
        results.append(_one_build(root, out))
        if scale <= 100:
            floors.append(_write_floor(out))
    wall = statistics.median(r["wall"] for r in results)
    n_cells = len(BASE_MODELS) * scale * TASKS
    print(f"  measured {scale}x, cells as {cells} ({runs} runs)", file=sys.stderr)
    row = {
        "scale": f"{scale}x", "format": cells, "cells": n_cells, "runs": runs, "wall": wall,
        "spread": (min(r["wall"] for r in results), max(r["wall"] for r in results)),
        "cpu": statistics.median(r["cpu"] for r in results),
        "pages": results[0]["pages"], "pps": results[0]["pages"] / wall,
        "rss_mib": max(r["rss_kib"] for r in results) / 1024, "out": out, "process": [r["process"] for r in results],
        "out_mib": _size(out) / 2**20, "gen": gen,
        "floor": (statistics.median(f[0] for f in floors), statistics.median(f[1] for f in floors)) if floors else None,
        # pair by pair: a build's writing (its wall and CPU seconds) over the floor measured after it
        "floor_ratio": (statistics.median(r["stages"].get(WRITING, 0.0) / f[0] for r, f in zip(results, floors)),
                        statistics.median(r["stages"].get(WRITING_CPU, 0.0) / f[1] for r, f in zip(results, floors))) if floors else None,
        "stages": _stages(results), "fixed": _fixed_costs(out, results[0]["modules"], runs) if scale <= 100 else None,
    }
    if scale > 1:  # the inputs and output of a large scale are not kept for later tables
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)
    return row


def _stages(results: list[dict]) -> dict[str, float]:
    return {k: statistics.median(r["stages"].get(k, 0.0) for r in results) for k in results[0]["stages"]}


# --- rebuilds of the demo ----------------------------------------------------------------

AMENDMENTS = "content/chronicle/amendments"
FALLBACK_PAGE = "content/index.md"  # an authored page: not frozen, not a family's input
CELLS, SWEEP = "data/canonic/cells.jsonl", "data/canonic/sweep.json"
GOALS = {"noop": 0.3, "amendment": 1.0}  # seconds, whole command: the incremental build's targets


def _append_sentence(path: Path, n: int) -> None:
    """Append one sentence to the last paragraph of a markdown document's body."""
    text = path.read_text(encoding="utf-8").rstrip("\n")
    path.write_text(text + f" This sentence (edit {n}) was appended to measure a rebuild.\n", encoding="utf-8")


def _last_amendment(root: Path) -> Path | None:
    """The highest-numbered entry of kind amendment (A<n>.md) in the amendment log."""
    found = sorted(root.glob(f"{AMENDMENTS}/A*.md"), key=lambda p: int(p.stem[1:]) if p.stem[1:].isdigit() else -1)
    return found[-1] if found else None


def _new_amendment(root: Path) -> Path | None:
    """A new entry at the end of the amendment log, dated as the last one and not yet recorded
    in the freeze record: what a maintainer edits (an entry published and recorded cannot
    change without a recorded correction). None when the demo has no log."""
    last = _last_amendment(root)
    if last is None or not last.stem[1:].isdigit():
        return None
    date = re.search(r"^date: *(\S+) *$", last.read_text(encoding="utf-8"), re.M)
    n = int(last.stem[1:]) + 1
    entry = last.with_name(f"A{n}.md")
    entry.write_text(f"---\nid: A{n}\nkind: amendment\ntitle: \"A new entry\"\ndate: {date.group(1) if date else '2026-01-01'}\n"
                     "timing: post-scoring\ndirected_by: owner\nscope: reporting\n---\n\nThe text of a new entry.\n", encoding="utf-8")
    return entry


def _edit_cell(root: Path, n: int) -> str:
    """Move one anchor of a scored judgment by 0.25 in the n-th scored cell of the sweep's first
    model, and its stated weighted score by 100 x weight x change (the build recomputes and checks
    it), so the data stays valid. Returns what changed."""
    sweep = json.loads((root / SWEEP).read_text(encoding="utf-8"))
    domain = {t["id"]: t["domain"] for t in sweep["tasks"]}
    dims = {d["id"]: d["rubric"]["dimensions"] for d in sweep["domains"]}
    model = sweep["models"][0]["id"]
    lines = (root / CELLS).read_text(encoding="utf-8").splitlines()
    scored = 0
    for i, line in enumerate(lines):
        cell = json.loads(line)
        j = next((j for j in cell.get("judgments") or [] if j.get("outcome") == "score" and j.get("anchors")), None)
        if cell["model"] != model or j is None:
            continue
        scored += 1
        if scored < n:
            continue
        dim = dims[domain[cell["task"]]][0]
        old = j["anchors"][dim["id"]]
        new = old + 0.25 if old < 1.0 else old - 0.25
        j["anchors"][dim["id"]] = new
        if j.get("weighted_score") is not None:
            j["weighted_score"] += 100.0 * dim["weight"] * (new - old)
        lines[i] = json.dumps(cell, ensure_ascii=False, separators=(",", ":"))
        (root / CELLS).write_text("\n".join(lines) + "\n", encoding="utf-8")
        return f"{model}, {cell['task']}"
    raise SystemExit(f"no scored cell number {n} for {model} in {CELLS}")


def _edited_builds(root: Path, out: Path, runs: int, edit) -> list[dict]:
    """`runs` rebuilds, each after one more edit (a different one each time, so no run finds
    its result already cached by an earlier one)."""
    results = []
    for n in range(1, runs + 1):  # each run's edit stays: the next run adds one more
        edit(n)
        results.append(_run_build(root, out))
    return results


# The same three rebuilds inside one long-lived process, as `sitegen serve` runs them on each
# save: the libraries are imported and the first build done before any timing.
_WARM_CHILD = r"""
import json, sys, time
from pathlib import Path
from sitegen.bench import _append_sentence, _edit_cell, _last_amendment
from sitegen.build import build
from sitegen.config import load_config
root, out, runs, first = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
build(load_config(root), out)
def timed(edit):
    times = []
    for n in range(first, first + runs):
        edit(n)
        t0 = time.perf_counter()
        build(load_config(root), out)
        times.append(time.perf_counter() - t0)
    return times
doc = _last_amendment(root)
print(json.dumps({"no-op": timed(lambda n: None), "one amendment": timed(lambda n: _append_sentence(doc, n)),
                  "one model's cell": timed(lambda n: _edit_cell(root, n))}))
"""


def _warm_rebuilds(root: Path, out: Path, runs: int) -> dict[str, list[float]]:
    """Rebuild times inside one running process (edits numbered past the fresh-process ones,
    so none is already cached)."""
    done = subprocess.run([sys.executable, "-c", _WARM_CHILD, str(root), str(out), str(runs), str(runs + 1)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"warm rebuilds failed:\n{done.stderr}")
    print("  measured rebuilds in one running process", file=sys.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _rebuild_row(label: str, note: str, goal: float | None, results: list[dict]) -> dict:
    times = [r["process"] for r in results]
    print(f"  measured rebuild: {label}", file=sys.stderr)
    return {"scale": label, "note": note, "goal": goal, "runs": len(times), "process": statistics.median(times),
            "spread": (min(times), max(times)), "wall": statistics.median(r["wall"] for r in results), "stages": _stages(results)}


def _rebuilds(repo: Path, tmp: Path, runs: int) -> list[dict]:
    """No-op, one amendment, one cell: each a fresh process on the built demo with a warm cache."""
    root, out = _site(repo, tmp / "rebuild", 1), tmp / "rebuild-out"
    doc = _new_amendment(root)  # the entry the amendment rebuilds edit, published by the first build
    _one_build(root, out)  # untimed: the built site and warm figure cache every rebuild starts from
    rows = [_rebuild_row("no-op", "nothing changed", GOALS["noop"], [_run_build(root, out) for _ in range(runs)])]
    original = doc.read_text(encoding="utf-8") if doc else ""
    try:
        if doc is None:
            raise BuildFailed("the demo has no amendment")
        results = _edited_builds(root, out, runs, lambda n: _append_sentence(doc, n))
        rows.append(_rebuild_row("one amendment", f"a sentence appended to {doc.relative_to(root).as_posix()}, a new entry of the log",
                                 GOALS["amendment"], results))
    except BuildFailed as e:  # e.g. if amendments were ever frozen: edit a page that may change
        if doc:
            doc.write_text(original, encoding="utf-8")
        page = root / FALLBACK_PAGE
        why = (str(e).strip().splitlines() or ["?"])[-1]
        results = _edited_builds(root, out, runs, lambda n: _append_sentence(page, n))
        rows.append(_rebuild_row("one page (amendment refused)", f"a sentence appended to {FALLBACK_PAGE}, as the build refused "
                                 f"an edited amendment ({why})", GOALS["amendment"], results))
    changed = []
    results = _edited_builds(root, out, runs, lambda n: changed.append(_edit_cell(root, n)))
    rows.append(_rebuild_row("one model's cell", f"one judge's anchor and its stated weighted score changed in one cell of "
                             f"{changed[0].split(',')[0]} ({len(changed)} runs, a different cell each)", None, results))
    warm = _warm_rebuilds(root, out, runs)
    for r in rows:
        times = warm.get(r["scale"].split(" (")[0], [])
        r["warm"] = (statistics.median(times), min(times), max(times)) if times else None
    return rows


# --- printing ----------------------------------------------------------------------------


def _print_scales(rows: list[dict]) -> None:
    print("\n| data | cells as | cells | runs | cold build, median (min-max) | CPU | pages | pages/s | peak memory | output | writing (CPU) | write floor (CPU) | writer's checks |")
    print("| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        lo, hi = r["spread"]
        floor = "-" if r["floor"] is None else f"{r['floor'][0]:.2f} s ({r['floor'][1]:.2f} s)"
        print(f"| {r['scale']} | {r['format']} | {r['cells']:,} | {r['runs']} | {r['wall']:.2f} s ({lo:.2f}-{hi:.2f}) | {r['cpu']:.1f} s | "
              f"{r['pages']} | {r['pps']:.1f} | {r['rss_mib']:,.0f} MiB | {r['out_mib']:,.1f} MiB | "
              f"{r['stages'].get(WRITING, 0.0):.2f} s ({r['stages'].get(WRITING_CPU, 0.0):.2f} s) | {floor} | "
              f"{r['stages'].get(WRITER_CHECKS, 0.0):.2f} s |")
    print("CPU: the build process and every process it started (figure workers included). peak memory: of all those "
          "processes together (their summed proportional set sizes, sampled every 0.2 s; where that cannot be read, the "
          "largest one process's peak). writing: the seconds spent writing files, in whichever stage (handing "
          "them to the writer process, and its putting them on disk), and in brackets the CPU seconds of it; write floor: "
          "a plain loop writing the same files after each build, its wall and CPU seconds (medians); "
          "writer's checks: the writer process's aggregate-field checks and SHA-256 of the same files.")


def _print_fixed_costs(rows: list[dict], versus: dict | None) -> None:
    measured = [r for r in rows if r["fixed"]]
    if not measured:
        return
    parts = list(measured[0]["fixed"])
    print("\nWhat bounds the time: CPU seconds of work whose amount sitegen does not choose, each part alone in a "
          "fresh process (medians; sitegen.bench_floors says what each part is):")
    print("| data | cells as | the build's CPU | " + " | ".join(parts) + " | these together | the rest, sitegen's own work |")
    print("| --- | --- | ---: |" + " ---: |" * (len(parts) + 2))
    for r in measured:
        fixed = sum(r["fixed"].values())
        print(f"| {r['scale']} | {r['format']} | {r['cpu']:.1f} s | " + " | ".join(f"{r['fixed'][p]:.1f} s" for p in parts)
              + f" | {fixed:.1f} s | {r['cpu'] - fixed:.1f} s |")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    demo = next((r for r in measured if r["scale"] == "1x"), None)
    if versus and demo:
        hugo_cpu = statistics.median(t["cpu"] for t in versus["theirs"])
        hugo_wall = statistics.median(t["process"] for t in versus["theirs"])
        print(f"- Hugo's build took {hugo_cpu:.2f} CPU-s: {HUGO_CPU:g}x it is {HUGO_CPU * hugo_cpu:.2f} CPU-s, and the demo's "
              f"fixed costs alone are {sum(demo['fixed'].values()) / hugo_cpu:.1f}x it.")
        _print_budget(f"demo within {HUGO_WALL:g}x Hugo's wall time ({hugo_wall:.2f} s)", HUGO_WALL * hugo_wall, cores, demo)
    for r in measured:
        goal = SCALE_GOALS.get(r["scale"], (None, None))[0]
        if goal is not None:
            _print_budget(f"{r['scale']} under {goal:g} s", goal, cores, r)


def _print_budget(goal: str, seconds: float, cores: int, r: dict) -> None:
    """What a wall-time goal leaves for sitegen's own work: on `cores` cores, `seconds` hold at
    most seconds x cores CPU-s, whatever runs in parallel."""
    fixed = sum(r["fixed"].values())
    left = seconds * cores - fixed
    print(f"- {goal}: {seconds:.1f} s on this machine's {cores} cores hold at most {seconds * cores:.1f} CPU-s; less the "
          f"fixed costs, {left:.1f} CPU-s are left for sitegen's own work, which took {r['cpu'] - fixed:.1f}.")


def _print_stages(rows: list[dict], first: str) -> None:
    from sitegen.build import KEY_STEP, SAVE_STEP, STAGES  # one column per stage, in build order

    names = [n for n in (KEY_STEP, *STAGES, SAVE_STEP) if any(n in r["stages"] for r in rows)]
    print(f"| {first} | " + " | ".join(names) + " |")
    print("| --- |" + " ---: |" * len(names))
    for r in rows:
        label = r["scale"] + (f" ({r['format']})" if r.get("format", "jsonl") != "jsonl" else "")
        print(f"| {label} | " + " | ".join(f"{r['stages'].get(n, 0.0):.2f}" for n in names) + " |")


def _print_rebuilds(rows: list[dict]) -> None:
    print("\nRebuilds of the demo, each in a fresh process with the output already built and the figure cache warm "
          "(whole command, interpreter start-up included; medians):")
    print("| rebuild | runs | whole command, median (min-max) | build() alone | goal | in a running process (serve) |")
    print("| --- | ---: | --- | ---: | --- | --- |")
    for r in rows:
        lo, hi = r["spread"]
        goal = "-" if r["goal"] is None else f"< {r['goal']:g} s ({'met' if r['process'] < r['goal'] else 'not met'})"
        warm = "-" if not r.get("warm") else "{:.2f} s ({:.2f}-{:.2f})".format(*r["warm"])
        print(f"| {r['scale']} | {r['runs']} | {r['process']:.2f} s ({lo:.2f}-{hi:.2f}) | {r['wall']:.2f} s | {goal} | {warm} |")
    for r in rows:
        print(f"- {r['scale']}: {r['note']}.")
    print("\nMedian seconds per stage, rebuilds:")
    _print_stages(rows, "rebuild")


# The issue-19 goals the benchmark reports on, each as met or not met.
SCALE_GOALS = {"100x": (30.0, 2048), "1000x": (None, 4096)}  # seconds (None: no time goal), peak MiB
HUGO_WALL, HUGO_CPU, WRITE_FLOOR = 3.0, 1.5, 2.0  # at most these multiples


def _met(ok: bool) -> str:
    return "met" if ok else "not met"


def _print_goals(rows: list[dict], rebuilds: list[dict], versus: dict | None) -> None:
    print("\nGoals:")
    print("| goal | measured | |")
    print("| --- | --- | --- |")
    if versus:
        print(f"| demo cold build at most {HUGO_WALL:g}x Hugo's wall time, pair by pair | {versus['wall_ratio']:.1f}x | {_met(versus['wall_ratio'] <= HUGO_WALL)} |")
        print(f"| ... and at most {HUGO_CPU:g}x its CPU time | {versus['cpu_ratio']:.1f}x | {_met(versus['cpu_ratio'] <= HUGO_CPU)} |")
    for r in rows:
        if r["scale"] == "1x" and r["floor"]:
            # By CPU seconds: the writer process runs beside the build's busy processes, so its
            # wall time also counts the waits for a core that the floor, run alone, never has.
            wall, ratio = r["floor_ratio"]
            print(f"| writing within {WRITE_FLOOR:g}x the write floor, CPU seconds, pair by pair (demo, {r['format']}) | {ratio:.1f}x "
                  f"(wall seconds: {wall:.1f}x) | {_met(ratio <= WRITE_FLOOR)} |")
        if r["scale"] in SCALE_GOALS:
            seconds, mib = SCALE_GOALS[r["scale"]]
            if seconds is not None:
                print(f"| {r['scale']} ({r['format']}) under {seconds:g} s | {r['wall']:.1f} s | {_met(r['wall'] < seconds)} |")
            print(f"| {r['scale']} ({r['format']}) under {mib / 1024:g} GB | {r['rss_mib']:,.0f} MiB | {_met(r['rss_mib'] < mib)} |")
    for r in rebuilds:
        if r["goal"] is not None:
            print(f"| {r['scale']} rebuild under {r['goal']:g} s | {r['process']:.2f} s | {_met(r['process'] < r['goal'])} |")


def _versus_hugo(hugo: str, repo: Path, tmp: Path, runs: int) -> dict:
    """The demo's cold build and Hugo's on a site of as many pages, in turn, pair by pair."""
    root = _site(repo, tmp / "versus", 1)
    out = tmp / "versus-out"
    _one_build(root, out)  # the Hugo site is shaped from this output; also the warm-up
    site, work = bench_hugo.prepare(out, tmp / "hugo")
    bench_hugo.cold_build(hugo, site, work)  # warm-up
    ours, theirs = [], []
    for _ in range(runs):
        ours.append(_one_build(root, out))
        shutil.rmtree(work, ignore_errors=True)
        done, wall, cpu, _ = _timed(bench_hugo.command(hugo, site, work))
        if done.returncode != 0:
            raise SystemExit(f"hugo failed:\n{done.stdout}\n{done.stderr}")
        theirs.append({"process": wall, "cpu": cpu})
    print("  measured sitegen against Hugo", file=sys.stderr)
    med = statistics.median
    return {
        "version": bench_hugo.version(hugo), "runs": runs, "pages": ours[0]["pages"], "hugo_pages": len(bench_hugo.html_sizes(work / "public")),
        "ours": ours, "theirs": theirs, "sizes": bench_hugo.html_sizes(work / "public"), "demo_sizes": bench_hugo.html_sizes(out),
        "wall_ratio": med(a["process"] / b["process"] for a, b in zip(ours, theirs)),
        "cpu_ratio": med(a["cpu"] / b["cpu"] for a, b in zip(ours, theirs)),
    }


def _as_installed(repo: Path, tmp: Path) -> None:
    """Run every measured build as an installed sitegen runs: Python keeps the compiled modules
    (pip compiles them when it installs a package) and sitegen keeps its compiled templates
    (see render._CompiledTemplates). Where PYTHONDONTWRITEBYTECODE is set, each build would
    compile all of sitegen's modules and templates again, about 0.6 s of the demo's build that
    no installed copy spends: it is unset for the builds, and one untimed build first leaves
    the compiled code in place."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    _one_build(_site(repo, tmp / "first", 1), tmp / "first-out")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=Path("."), help="the site repository (default: .)")
    ap.add_argument("--runs", type=int, default=5, help="builds per measurement (median reported)")
    ap.add_argument("--scales", default="1,10,100", help="comma-separated data scales (1000 takes about half an hour)")
    ap.add_argument("--formats", default="jsonl,parquet",
                    help="how Canonic's cells are written above scale 1: jsonl, parquet or both (the demo itself is JSONL)")
    ap.add_argument("--no-rebuilds", action="store_true", help="skip the rebuild measurements")
    ap.add_argument("--pages", default="10000",
                    help="comma-separated sizes of the authored-pages site (one-line markdown pages; 0: none)")
    ap.add_argument("--shaped", default="30",
                    help="comma-separated model counts of the real-shaped declared benchmark (0: none)")
    ap.add_argument("--pairwise", default="50",
                    help="comma-separated model counts of the arena-scale pairwise benchmark, 32 prompts each (0: none)")
    ap.add_argument("--no-hugo", action="store_true", help="skip the Hugo comparison")
    args = ap.parse_args(argv)
    repo = args.root.resolve()
    scales = [int(s) for s in args.scales.split(",") if s]  # none: only the authored-pages table, say
    formats = [f for f in args.formats.split(",") if f]
    if not set(formats) <= {"jsonl", "parquet"}:
        ap.error("--formats takes jsonl, parquet or both")
    hugo = None if args.no_hugo else bench_hugo.available()
    _adopt_orphans()
    with tempfile.TemporaryDirectory(prefix="sitegen-bench-") as tmp:
        _as_installed(repo, Path(tmp))
        rows = [_measure_scale(repo, Path(tmp), scale, args.runs, cells)
                for scale in scales for cells in (["jsonl"] if scale == 1 else formats)]
        rebuilds = [] if args.no_rebuilds else _rebuilds(repo, Path(tmp), args.runs)
        versus = _versus_hugo(hugo, repo, Path(tmp), args.runs) if hugo else None
        pages = [bench_pages.measure(Path(tmp), n, args.runs, _one_build, _run_build, _timed, hugo)
                 for n in (int(p) for p in args.pages.split(",") if p) if n > 0]
        shaped = [bench_shaped.measure(Path(tmp), n, args.runs, _one_build)
                  for n in (int(m) for m in args.shaped.split(",") if m) if n > 0]
        pairwise = [bench_pairwise.measure(Path(tmp), n, 32, args.runs, _one_build)
                    for n in (int(m) for m in args.pairwise.split(",") if m) if n > 0]

    _print_scales(rows)
    print("\nMedian seconds per stage:")
    _print_stages(rows, "data")
    by = {(r["scale"], r["format"]): r for r in rows}
    for cells in formats:
        if ("10x", cells) in by and ("100x", cells) in by:
            ratio = by[("100x", cells)]["wall"] / by[("10x", cells)]["wall"]
            print(f"\n100x / 10x build time ({cells}): {ratio:.1f} (10.0 would be linear growth in the data)")
    if rebuilds:
        _print_rebuilds(rebuilds)
    if versus:
        bench_hugo.print_table(versus)
    elif not args.no_hugo:
        print(f"\nHugo comparison skipped: `hugo` is not on PATH; {bench_hugo.INSTALL_HINT}.")
    bench_pages.print_table(pages)
    bench_shaped.print_table(shaped)
    bench_pairwise.print_table(pairwise)
    _print_fixed_costs(rows, versus)
    _print_goals(rows, rebuilds, versus)


if __name__ == "__main__":
    main()
