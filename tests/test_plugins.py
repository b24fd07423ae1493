"""Families as plug-ins: a family shipped in a package of its own, registered under the
`sitegen.families` entry-point group, is built by naming it in [tool.sitegen] families; the
built-in ones register the same way.

The plug-in here is a real distribution on disk (a module and its .dist-info with an
entry_points.txt), put on the subprocess's sys.path with PYTHONPATH, which is how
importlib.metadata finds any installed package."""

from __future__ import annotations

import json
import os
from importlib.metadata import entry_points
from pathlib import Path

from conftest import copy_site, run_cli

PLUGIN = '''
"""A family from outside sitegen: one board of scores read from data/tiny/scores.json."""
from pathlib import Path

from sitegen.families import Outputs, Page, Table
from sitegen.load import read_json


class Tiny:
    id = "tiny"
    title = "Tiny bench"
    inputs = ("data/tiny/",)
    content_dir = None
    needs_store = False
    templates = str(Path(__file__).parent / "templates")

    def load(self, root, loaded, limits):
        source, record = read_json(root, root / "data/tiny/scores.json", loaded, limits)
        return None if record is None else (source, record.value)

    def store(self, db, inp):
        return None

    def compute(self, db, inp):
        source, scores = inp
        return source, sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))

    def outputs(self, results):
        source, rows = results
        sources = {source.rel: source.sha256}
        return Outputs(pages=[Page("tiny/index.html", "tiny/board.html", "Tiny board", {"rows": rows})],
                       tables=[Table("tiny/board", "Tiny board", ["model", "score"], rows, sources, "tiny.board")],
                       summary={"id": "tiny", "title": "Tiny bench", "href": "tiny/", "line": "A plug-in family.", "synthetic": True,
                                "nav": [("home", [("Tiny bench", "tiny/")])],
                                "result": {"dated": "run", "date": "2026-11-30", "boards": [
                                    {"number": None, "name": "Tiny board", "href": "tiny/", "first": [rows[0][0]]}]}},
                       raw_files=[source.rel])

    def artifact_kinds(self):
        return {}


FAMILY = Tiny()
'''

BOARD = """{% extends "base.html" %}
{% block main %}<h1>Tiny board</h1><ol>{% for model, score in rows %}<li>{{ model }}: {{ score }}</li>{% endfor %}</ol>{% endblock %}
"""


def _plugin(where: Path, name: str = "tinybench", entries: str = "tiny = tinybench:FAMILY") -> Path:
    pkg = where / name
    (pkg / "templates" / "tiny").mkdir(parents=True)
    (pkg / "__init__.py").write_text(PLUGIN, encoding="utf-8")
    (pkg / "templates" / "tiny" / "board.html").write_text(BOARD, encoding="utf-8")
    info = where / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[sitegen.families]\n{entries}\n", encoding="utf-8")
    return where


def _site(tmp_path: Path, families: str) -> Path:
    site = copy_site(tmp_path / "site")
    cfg = site / "pyproject.toml"
    text = cfg.read_text(encoding="utf-8")
    start = text.index("families = [")
    end = text.index("]", start) + 1
    cfg.write_text(text[:start] + f"families = {families}" + text[end:].split("[tool.sitegen.paper]")[0], encoding="utf-8")
    (site / "data" / "tiny").mkdir()
    (site / "data" / "tiny" / "scores.json").write_text(json.dumps({"model-b": 61.5, "model-a": 70.25}), encoding="utf-8")
    return site


def _env(path: Path) -> dict[str, str]:
    return {"PYTHONPATH": os.pathsep.join([str(path), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}


def test_the_built_in_families_are_registered_as_plug_ins():
    found = {ep.name: ep.value for ep in entry_points(group="sitegen.families")}
    assert {name: found.get(name) for name in ("canonic", "chronicle", "nextchapter")} == {
        "canonic": "sitegen.families.builtin:canonic", "chronicle": "sitegen.families.builtin:chronicle",
        "nextchapter": "sitegen.families.builtin:nextchapter"}


def test_a_family_from_another_package_builds_its_pages_from_its_own_templates(tmp_path):
    plugins = _plugin(tmp_path / "plugins")
    site = _site(tmp_path, '["nextchapter", "tiny"]')
    r = run_cli("build", "--root", str(site), "--no-cache", env=_env(plugins), process=True)
    assert r.returncode == 0, r.stderr
    page = (site / "_site" / "tiny" / "index.html").read_text(encoding="utf-8")
    assert "<li>model-a: 70.25</li><li>model-b: 61.5</li>" in page
    assert (site / "_site" / "tiny" / "board.csv").read_text(encoding="utf-8").splitlines()[:2] == ["model,score,synthetic", "model-a,70.25,True"]  # it says its data is synthetic
    assert (site / "_site" / "raw" / "data" / "tiny" / "scores.json").is_file()
    assert 'href="tiny/' in (site / "_site" / "index.html").read_text(encoding="utf-8")
    # The site's own templates/ come first: a template of the same name overrides the plug-in's.
    (site / "templates" / "tiny").mkdir(parents=True)
    (site / "templates" / "tiny" / "board.html").write_text(BOARD.replace("Tiny board</h1>", "Overridden</h1>"), encoding="utf-8")
    r = run_cli("build", "--root", str(site), env=_env(plugins), process=True)
    assert r.returncode == 0, r.stderr
    assert "Overridden</h1>" in (site / "_site" / "tiny" / "index.html").read_text(encoding="utf-8")


def test_a_family_nobody_installed_is_one_problem_naming_the_installed_ones(tmp_path):
    site = _site(tmp_path, '["nextchapter", "tiny"]')
    r = run_cli("validate", "--root", str(site))
    assert r.returncode == 1
    assert "pyproject.toml $.tool.sitegen.families: expected families from ['canonic', 'chronicle', 'nextchapter']" in r.stderr
    assert "['tiny']" in r.stderr and "Traceback" not in r.stderr


def test_an_id_registered_twice_or_under_another_name_is_a_clear_error(tmp_path):
    one = _plugin(tmp_path / "one")
    two = _plugin(tmp_path / "two", "tinyclone", "tiny = tinyclone:FAMILY")
    site = _site(tmp_path, '["nextchapter"]')
    r = run_cli("validate", "--root", str(site), env={"PYTHONPATH": f"{one}{os.pathsep}{two}"}, process=True)
    assert r.returncode == 1
    assert "the family id 'tiny' is registered by more than one plug-in (tinybench:FAMILY, tinyclone:FAMILY)" in r.stderr
    misnamed = _plugin(tmp_path / "three", "tinymis", "small = tinymis:FAMILY")
    r = run_cli("validate", "--root", str(site), env=_env(misnamed), process=True)
    assert r.returncode == 1
    assert "has id 'tiny'; an entry point's name must be its family's id" in r.stderr and "Traceback" not in r.stderr
