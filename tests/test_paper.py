"""`sitegen paper --out DIR`: the figures, tables and sentences a paper cites, for the items
declared in `[tool.sitegen.paper] required`; and its two refusals (a missing item, an
overall-score phrase), which leave a previous paper output exactly as it was."""

from __future__ import annotations

import hashlib
import json
import shutil
import tomllib
from pathlib import Path

import pytest

from sitegen.build import validate
from sitegen.config import load_config

from conftest import (CELLS_REL, copy_site, hash_tree, leftovers_beside, read_sweep, ref_ladders, ref_probes,
                      reference, run_cli, write_sweep)


def required_items(root: Path) -> list[str]:
    with open(root / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["tool"]["sitegen"]["paper"]["required"]


@pytest.fixture(scope="module")
def paper_run(built_site, tmp_path_factory):
    """The paper of a copy of the demo repository (with the demo build's figure cache)."""
    base = tmp_path_factory.mktemp("paper")
    root = copy_site(base / "site", cache_from=built_site.root)
    out = base / "paper"
    r = run_cli("paper", "--root", str(root), "--out", str(out))
    assert r.returncode == 0, r.stderr
    return root, out


def test_paper_writes_every_required_item(paper_run, built_site):
    root, out = paper_run
    artifacts = json.loads((built_site.out / "manifest.json").read_text(encoding="utf-8"))["artifacts"]
    fragments = json.loads((out / "fragments.json").read_text(encoding="utf-8"))
    required = required_items(root)
    kinds = {name: artifacts[name]["kind"] if name in artifacts else "text" for name in required}
    assert set(kinds.values()) == {"figure", "table", "text"}  # the demo asks for each kind
    for name, kind in kinds.items():
        if kind == "figure":
            for suffix in (".svg", ".png", ".vl.json"):
                # the same picture the site publishes
                assert (out / "figures" / f"{name}{suffix}").read_bytes() == (built_site.out / f"{name}{suffix}").read_bytes(), name
        elif kind == "table":
            assert (out / "tables" / f"{name}.csv").read_bytes() == (built_site.out / f"{name}.csv").read_bytes(), name
        else:
            text = (out / "text" / f"{name}.txt").read_text(encoding="utf-8")
            assert text.strip() and fragments[name] == text.strip(), name
    assert sorted(fragments) == sorted(n for n, k in kinds.items() if k == "text")


def test_a_paper_from_the_build_cache_is_the_paper_from_scratch(paper_run, tmp_path):
    """The module's paper read Canonic's, ChronicleBench's... results from the demo build's
    cache (as `validate` reads it); --no-cache checks and computes everything again: the same
    bytes, and the cache is not written."""
    root, warm = paper_run
    cache = root / ".sitegen-cache"
    before = hash_tree(cache)
    r = run_cli("paper", "--root", str(root), "--out", str(tmp_path / "cold"), "--no-cache")
    assert r.returncode == 0, r.stderr
    assert hash_tree(tmp_path / "cold") == hash_tree(warm)
    assert hash_tree(cache) == before


def test_the_paper_manifest_binds_every_item_to_its_source_artifacts(paper_run, built_site):
    """Each required item names the SHA-256 of every artifact it came from: a figure or a table
    exactly as the site's manifest does, a sentence every artifact of its family's tables."""
    root, out = paper_run
    items = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["items"]
    artifacts = json.loads((built_site.out / "manifest.json").read_text(encoding="utf-8"))["artifacts"]
    assert sorted(items) == sorted(required_items(root))
    cells_sha = hashlib.sha256((root / CELLS_REL).read_bytes()).hexdigest()
    for name, item in items.items():
        if name in artifacts:
            assert (item["kind"], item["computation"], item["sources"]) == (artifacts[name]["kind"], artifacts[name]["computation"],
                                                                           artifacts[name]["sources"]), name
        else:
            assert item["kind"] == "text" and item["sources"]["data/canonic/cells.jsonl"] == cells_sha, name
    for sha_of in ("data/canonic/sweep.json", "data/canonic/probes.json"):
        assert items["canonic/figure-2-probes"]["sources"][sha_of] == hashlib.sha256((root / sha_of).read_bytes()).hexdigest()


def test_the_demo_requires_every_panel_and_figure_the_paper_shows(paper_run):
    root, _out = paper_run
    required = set(required_items(root))
    domains = [d["id"] for d in json.loads((root / "data/canonic/sweep.json").read_text())["domains"]]
    assert {f"canonic/{d}/figure" for d in domains} <= required and {f"canonic/{d}/board" for d in domains} <= required
    assert {"canonic/figure-2-domains", "canonic/figure-2-models", "canonic/figure-2-probes", "canonic/figure-3"} <= required


def test_paper_sentences_state_the_recomputed_numbers(paper_run):
    root, out = paper_run
    fragments = json.loads((out / "fragments.json").read_text(encoding="utf-8"))
    ref = reference(root)
    published = sum(r.published for r in ref.rows.values())
    assert (published, len(ref.rows)) == (77, 78)
    assert "77 of 78 model-domain rows met the publication gate" in fragments["canonic.public-rows"]
    assert f"{ref.cells_total:,}" in fragments["canonic.counted-cells"] and f"{ref.status['counted']:,}" in fragments["canonic.counted-cells"]
    probes = ref_probes(root, ref.sweep)
    caught = sum(p.caught for p in probes)
    assert f"{caught} of {len(probes)} probes were caught" in fragments["canonic.probes"]
    ladders = ref_ladders(ref)
    n, strict = len(ladders), sum(lad.strict for lad in ladders)
    assert f"{n} of {len(ref.sweep['tasks'])} tasks are eligible" in fragments["canonic.ladders"]
    assert f"order on {strict} of these {n} tasks" in fragments["canonic.ladders"]
    names = {m["id"]: m["name"] for m in ref.sweep["models"]}
    domains = {d["id"]: d["name"] for d in ref.sweep["domains"]}
    for r in ref.rows.values():
        if not r.published:
            assert f"{names[r.model]} on {domains[r.domain]}" in fragments["canonic.withheld"]
    assert hashlib.sha256((root / CELLS_REL).read_bytes()).hexdigest() in fragments["canonic.artifact"]
    assert "predeclared" in fragments["canonic.external.book-opening"]


def test_a_required_item_that_does_not_exist_fails_naming_it(built_site, tmp_path):
    root = copy_site(tmp_path / "site", cache_from=built_site.root)
    cfg = root / "pyproject.toml"
    text = cfg.read_text(encoding="utf-8")
    assert 'required = [\n' in text
    cfg.write_text(text.replace('required = [\n', 'required = [\n  "canonic/figure-9",\n', 1), encoding="utf-8")
    out = tmp_path / "paper"
    r = run_cli("paper", "--root", str(root), "--out", str(out))
    assert r.returncode == 1
    assert "canonic/figure-9" in r.stderr and "Traceback" not in r.stderr
    assert not out.exists()


def test_an_overall_score_phrase_fails_the_paper_and_leaves_the_previous_one_untouched(paper_run, built_site, tmp_path):
    """The route: the withheld row's model is renamed "Overall score leader" in a copy's
    sweep.json. A name is a value, not a key, and has no field-like spelling, so the site still
    validates; but the paper's "canonic.withheld" sentence names each withheld model
    ("Withheld by the publication gate ...: Overall score leader on Song Lyrics."), and the
    paper refuses any generated text carrying an overall-score phrase."""
    _root, previous = paper_run
    out = tmp_path / "paper"
    shutil.copytree(previous, out)
    before = hash_tree(out)

    root = copy_site(tmp_path / "site", cache_from=built_site.root)
    ref = reference(root)
    (withheld,) = [r.model for r in ref.rows.values() if not r.published]
    sweep = read_sweep(root)
    next(m for m in sweep["models"] if m["id"] == withheld)["name"] = "Overall score leader"
    write_sweep(root, sweep)
    validate(load_config(root))  # the site itself is fine with the name

    r = run_cli("paper", "--root", str(root), "--out", str(out))
    assert r.returncode == 1
    assert "text/canonic.withheld.txt" in r.stderr and "Overall score" in r.stderr
    assert "Traceback" not in r.stderr
    assert hash_tree(out) == before
    assert leftovers_beside(out) == []
