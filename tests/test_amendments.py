"""The amendment log of any family (sitegen.amendments): `sitegen new amendment` in any site, the
log validated and published newest first with its feed entries, and a change of judge in a
declared benchmark recorded as an amendment and a new sweep, never silently."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest
from conftest import copy_site, one_family, run_cli

from sitegen.build import build, validate
from sitegen.config import load_config
from sitegen.errors import InputError

EPOCH = str(int(dt.datetime(2026, 11, 20, 9, 0, tzinfo=dt.timezone.utc).timestamp()))


def problems(root: Path) -> list:
    with pytest.raises(InputError) as ei:
        validate(load_config(root))
    return ei.value.problems


def test_the_judge_change_of_the_demo_is_an_amendment_every_page_of_its_sweep_links(built_site):
    out = built_site.out / "vignette"
    log = (out / "amendments" / "index.html").read_text(encoding="utf-8")
    assert '<section class="amendment" id="A1"' in log and "Juniper 2 retired" in log
    assert 'sweep <a href="../">s2</a> follows <a href="#A1">A1</a>' in log
    for page in ("index.html", "boards/noir/index.html"):  # the current sweep's home and a board
        html = (out / page).read_text(encoding="utf-8")
        assert re.search(r'[Ss]weep (s2 )?follows <a href="(\.\./)*amendments/#A1">amendment A1</a>', html), page
    # the earlier sweep was not run by an amendment and says nothing of one
    assert "follows" not in (out / "sweeps" / "s1" / "index.html").read_text(encoding="utf-8")
    feed = (built_site.out / "feed.xml").read_text(encoding="utf-8")
    assert "A1: Juniper 2 retired" in feed and "vignette/amendments/#A1" in feed
    assert (built_site.out / "raw" / "content" / "vignette" / "amendments" / "A1.md").is_file()
    assert not (built_site.out / "content").exists()  # an entry is the family's input, not a page of its own
    # what A1 says of the data holds: sweep s2 judged sweep s1's outputs again, item for item
    sweeps = {}
    for sid in ("s1", "s2"):
        rows = [json.loads(x) for x in (built_site.root / "data" / "vignette" / f"sweep-{sid}.jsonl").read_text(encoding="utf-8").split("\n") if x]
        sweeps[sid] = {(r["model"], r["prompt"], r["iteration"]): (r.get("output"), r["attempts"]) for r in rows}
    assert sweeps["s1"] == sweeps["s2"] and "the same outputs judged again" in log


def test_a_change_of_judge_without_an_amendment_is_refused_and_a_named_entry_must_fit(tmp_path):
    root = one_family(tmp_path / "site", "vignette")
    config = root / "content" / "vignette" / "benchmark.toml"
    text = config.read_text(encoding="utf-8")
    line = next(x for x in text.split("\n") if x.startswith("amendment = "))
    config.write_text(text.replace(line + "\n", ""), encoding="utf-8")
    [p] = problems(root)
    assert (p.file, p.path) == ("content/vignette/benchmark.toml", "$.sweeps[1].amendment")
    assert "change of judges from sweep s1 (judge-a) to sweep s2 (judge-b)" in p.expected and p.found == "none"

    for value, expected in (('"A2"', "an entry of the amendment log"), ('"C1"', "an amendment (a clarification")):
        config.write_text(text.replace(line, f"amendment = {value}"), encoding="utf-8")
        (root / "content" / "vignette" / "amendments" / "C1.md").write_text(
            "---\nid: C1\nkind: clarification\ntitle: A word\ndate: 2026-10-21\n---\n\nA clarification.\n", encoding="utf-8")
        [p] = problems(root)
        assert p.path == "$.sweeps[1].amendment" and p.expected.startswith(expected), p
    entry = root / "content" / "vignette" / "amendments" / "A1.md"
    entry.write_text(entry.read_text(encoding="utf-8").replace("date: 2026-10-20", "date: 2026-11-05"), encoding="utf-8")
    config.write_text(text, encoding="utf-8")
    [p] = problems(root)
    assert p.path == "$.sweeps[1].amendment" and p.found == "A1 of 2026-11-05"


def test_every_family_reads_its_log_and_reports_every_broken_entry_at_once(tmp_path):
    root = one_family(tmp_path / "site", "nextchapter")
    folder = root / "content" / "nextchapter" / "amendments"
    folder.mkdir(parents=True)
    (folder / "A2.md").write_text("---\nid: A2\nkind: amendment\ntitle: \"FILL IN: a title\"\ndate: 2026-11-20\n---\n\nFILL IN: what changed.\n", encoding="utf-8")
    (folder / "C1.md").write_text("---\nid: A1\nkind: clarification\ntitle: Wrong letter\ndate: 2026-11-20\n---\n\nText.\n", encoding="utf-8")
    found = sorted((p.file, p.path, p.expected) for p in problems(root))
    assert found == sorted([
        ("content/nextchapter/amendments", "", "gap-free ids A1 to A2"),
        ("content/nextchapter/amendments/A2.md", "", "the entry's own text, not the scaffold's placeholder"),
        ("content/nextchapter/amendments/A2.md", "title", "the entry's own text, not the scaffold's placeholder"),
        ("content/nextchapter/amendments/C1.md", "id", "an id starting with C for a clarification"),
        ("content/nextchapter/amendments/C1.md", "id", "the file's name (A1.md)"),  # reported at once, not after the first fix
    ]), found

    (folder / "A2.md").unlink()
    (folder / "C1.md").write_text("---\nid: C1\nkind: clarification\ntitle: \"Draft two's calls\"\ndate: 2026-11-20\n---\n\n"
                                  "The second draft is judged <script>alert(1)</script> in calls of its own.\n", encoding="utf-8")
    out = tmp_path / "out"
    build(load_config(root), out)
    page = (out / "nextchapter" / "amendments" / "index.html").read_text(encoding="utf-8")
    assert '<section class="amendment" id="C1"' in page and "<script>alert" not in page
    assert 'href="amendments/"' in (out / "nextchapter" / "index.html").read_text(encoding="utf-8")  # in the family's navigation
    assert "<title>NextChapterBench: C1: Draft two's calls</title>" in (out / "feed.xml").read_text(encoding="utf-8")


def test_new_amendment_works_in_any_site_and_asks_which_family_when_there_are_several(tmp_path):
    site = tmp_path / "bench"
    assert run_cli("new", "site", str(site), "--id", "shortbench").returncode == 0
    r = run_cli("new", "amendment", "--root", str(site), "--title", "Judge replaced", env={"SOURCE_DATE_EPOCH": EPOCH})
    assert r.returncode == 0, r.stderr
    entry = site / "content" / "shortbench" / "amendments" / "A1.md"
    assert entry.read_text(encoding="utf-8").startswith('---\nid: A1\nkind: amendment\ntitle: "Judge replaced"\ndate: 2026-11-20\n---\n')
    r = run_cli("build", "--root", str(site))
    assert r.returncode == 1 and "content/shortbench/amendments/A1.md" in r.stderr and "placeholder" in r.stderr
    assert not (site / "_site").exists()
    entry.write_text(entry.read_text(encoding="utf-8").replace("FILL IN: what changed, why, and what did not change with it.",
                                                               "The judge was replaced."), encoding="utf-8")
    r = run_cli("build", "--root", str(site))
    assert r.returncode == 0, r.stderr
    assert "The judge was replaced." in (site / "_site" / "shortbench" / "amendments" / "index.html").read_text(encoding="utf-8")

    demo = copy_site(tmp_path / "demo")
    r = run_cli("new", "amendment", "--root", str(demo), "--title", "A change")
    assert r.returncode == 1 and r.stderr.count("\n") == 1
    assert r.stderr.startswith("--family: expected one of the site's families (canonic, chronicle, nextchapter, vignette)")
    r = run_cli("new", "amendment", "--root", str(demo), "--family", "chronicle", "--kind", "clarification", "--title", "A word")
    assert r.returncode == 0, r.stderr
    text = (demo / "content" / "chronicle" / "amendments" / "C2.md").read_text(encoding="utf-8")  # C1 is taken
    assert "kind: clarification" in text and 'scope: "FILL IN' in text  # with the fields ChronicleBench records
    r = run_cli("new", "amendment", "--root", str(demo), "--family", "vignette", "--title", "Gate raised")
    assert r.returncode == 0, r.stderr
    assert "scope:" not in (demo / "content" / "vignette" / "amendments" / "A2.md").read_text(encoding="utf-8")
