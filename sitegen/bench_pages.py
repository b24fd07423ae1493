"""The authored-pages part of the build benchmark (sitegen.bench): a site of N one-line
markdown pages, as `sitegen new site` writes a site (one small declared family) with the pages
under content/notes/, built cold, rebuilt with nothing changed and with one page edited; and
next to it, when `hugo` is on PATH, a plain Hugo site of the same pages built cold.

sitegen.bench runs the builds (fresh processes, as it runs every build) and hands this module
the functions that do it, so that the measuring is written once.
"""

from __future__ import annotations

import shutil
import statistics
from pathlib import Path
from typing import Callable

from sitegen import bench_hugo

NOTES = "content/notes"


def page_text(i: int) -> str:
    """Page i's markdown: a title and one line."""
    return f"---\ntitle: Note {i}\n---\n\nThis is note {i}, one line of text.\n"


def write_site(dest: Path, pages: int) -> Path:
    """A new site (`sitegen new site`) with `pages` one-line pages under content/notes/."""
    from sitegen.scaffold_site import new_site

    new_site(dest, "shortbench", "Short notes")
    notes = dest / NOTES
    notes.mkdir(parents=True)
    for i in range(pages):
        (notes / f"p{i:05d}.md").write_text(page_text(i), encoding="utf-8")
    return dest


def write_hugo_site(dest: Path, pages: int) -> Path:
    """The same pages as a plain Hugo site (bench_hugo's layouts, no theme), at the same addresses."""
    (dest / "layouts/_default").mkdir(parents=True)
    for name, text in (("baseof.html", bench_hugo.BASEOF), ("single.html", bench_hugo.SINGLE), ("list.html", bench_hugo.LIST)):
        (dest / "layouts/_default" / name).write_text(text, encoding="utf-8")
    (dest / "hugo.toml").write_text('baseURL = "https://benchmarks.example.org/"\ntitle = "Short notes"\nrelativeURLs = true\n'
                                    'disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]\n', encoding="utf-8")
    notes = dest / "content" / "notes"
    notes.mkdir(parents=True)
    (dest / "content" / "_index.md").write_text("---\ntitle: Short notes\n---\n\nThe home page.\n", encoding="utf-8")
    for i in range(pages):
        (notes / f"p{i:05d}.md").write_text(page_text(i), encoding="utf-8")
    return dest


def _edit(root: Path, pages: int, n: int) -> None:
    """Append a line to one page, a different one each run (so no run finds it cached)."""
    page = root / NOTES / f"p{(pages // 2 + n) % pages:05d}.md"
    page.write_text(page.read_text(encoding="utf-8") + f"A line added to measure a rebuild (edit {n}).\n", encoding="utf-8")


def measure(tmp: Path, pages: int, runs: int, cold: Callable[[Path, Path], dict], rebuild: Callable[[Path, Path], dict],
            timed: Callable[[list[str]], tuple], hugo: str | None) -> dict:
    """Cold builds, no-op rebuilds and one-page edits of a site of `pages` one-line pages, `runs`
    of each (`cold`, `rebuild`: bench's builds in a fresh process), then Hugo's cold builds of
    the same pages (`timed`: bench's timed command), each a dict of its runs' measures."""
    root, out = write_site(tmp / f"pages{pages}", pages), tmp / f"pages{pages}-out"
    row: dict = {"pages": pages, "cold": [cold(root, out) for _ in range(runs)]}
    row["built"] = row["cold"][0]["pages"]
    row["noop"] = [rebuild(root, out) for _ in range(runs)]
    row["edit"] = []
    for n in range(runs):
        _edit(root, pages, n)
        row["edit"].append(rebuild(root, out))
    if hugo:
        site, work = write_hugo_site(tmp / f"hugo-pages{pages}", pages), tmp / f"hugo-pages{pages}-work"
        bench_hugo.cold_build(hugo, site, work)  # warm-up, as sitegen's first build
        row["hugo"] = []
        for _ in range(runs):
            shutil.rmtree(work, ignore_errors=True)
            done, wall, cpu, _ = timed(bench_hugo.command(hugo, site, work))
            if done.returncode != 0:
                raise SystemExit(f"hugo failed:\n{done.stdout}\n{done.stderr}")
            row["hugo"].append({"process": wall, "cpu": cpu})
        row["hugo_pages"] = len(bench_hugo.html_sizes(work / "public"))
        shutil.rmtree(site, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(root, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    return row


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} s ({min(values):.2f}-{max(values):.2f})"


def print_table(rows: list[dict]) -> None:
    """One line per site size: sitegen's cold build (whole process), its CPU seconds per page,
    pages per second, the no-op and one-edit rebuilds; Hugo's cold build of the same pages."""
    if not rows:
        return
    print("\nAuthored pages: a new site (`sitegen new site`) with N one-line markdown pages, each build in a fresh "
          "process (whole command; medians (min-max)); one edit appends a line to one page; Hugo: the same pages, "
          "cold (--ignoreCache, a fresh --cacheDir):")
    print("| pages | runs | cold build | CPU | CPU per page | render stage | pages/s | no-op | one edit | Hugo cold build | Hugo CPU | Hugo pages/s |")
    print("| ---: | ---: | --- | ---: | ---: | ---: | ---: | --- | --- | --- | ---: | ---: |")
    med = statistics.median
    for r in rows:
        wall = med(c["process"] for c in r["cold"])
        cpu = med(c["cpu"] for c in r["cold"])
        render = med(c["stages"].get("render", 0.0) for c in r["cold"])
        hugo = r.get("hugo")
        theirs = (f"{_spread([h['process'] for h in hugo])} | {med(h['cpu'] for h in hugo):.2f} s | "
                  f"{r['hugo_pages'] / med(h['process'] for h in hugo):.0f}") if hugo else "- | - | -"
        print(f"| {r['built']:,} | {len(r['cold'])} | {_spread([c['process'] for c in r['cold']])} | {cpu:.1f} s | "
              f"{cpu / r['built'] * 1e3:.2f} ms | {render:.2f} s | {r['built'] / wall:.0f} | {_spread([c['process'] for c in r['noop']])} | "
              f"{_spread([c['process'] for c in r['edit']])} | {theirs} |")
    if not any(r.get("hugo") for r in rows):
        print(f"Hugo skipped: `hugo` is not on PATH; {bench_hugo.INSTALL_HINT}.")
