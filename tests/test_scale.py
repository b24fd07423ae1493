"""Sites of many authored pages: what a build does for each page stays the same whatever the
number of pages (the speed itself is sitegen.bench's table, never a timed test)."""

from __future__ import annotations

import jinja2
import pytest

import sitegen.build
from sitegen.build import build, validate
from sitegen.config import load_config
from sitegen.scaffold_site import new_site


def notes_site(root, pages: int):
    """A new site (`sitegen new site`) with `pages` one-line markdown pages under content/notes/."""
    new_site(root, "shortbench", "Short")
    notes = root / "content" / "notes"
    notes.mkdir()
    for i in range(pages):
        (notes / f"p{i:04d}.md").write_text(f"---\ntitle: Note {i}\n---\n\nThis is note {i}, one line of text.\n", encoding="utf-8")
    return root


@pytest.fixture
def parses(monkeypatch):
    """How many times jinja2 parses a template's source (to compile it, or to inspect it)."""
    count = [0]
    original = jinja2.Environment._parse

    def counted(self, *args, **kwargs):
        count[0] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "_parse", counted)
    return count


def test_templates_are_parsed_as_often_for_ten_times_the_pages(tmp_path, parses):
    # Every authored page once parsed its template again, to find out that it places the
    # body: a build's template work grew with its pages.
    few, many = notes_site(tmp_path / "few", 3), notes_site(tmp_path / "many", 30)
    validate(load_config(few), cache=False)  # templates compiled once, as for any later build
    counts = []
    for root in (few, many):
        parses[0] = 0
        validate(load_config(root), cache=False)
        counts.append(parses[0])
    assert counts[0] == counts[1], f"templates parsed {counts[0]} times for 3 pages, {counts[1]} times for 30"


def test_editing_one_of_many_pages_renders_that_page_alone(tmp_path, monkeypatch):
    root = notes_site(tmp_path / "site", 30)
    out = tmp_path / "out"
    build(load_config(root), out)
    rendered = []
    original = sitegen.build._render_doc

    def counted(env, md, site, d, *rest):
        rendered.append(d.source.rel)
        return original(env, md, site, d, *rest)

    monkeypatch.setattr(sitegen.build, "_render_doc", counted)
    page = root / "content" / "notes" / "p0007.md"
    page.write_text(page.read_text(encoding="utf-8") + "One more line.\n", encoding="utf-8")
    build(load_config(root), out)
    assert rendered == ["content/notes/p0007.md"]
    assert "One more line." in (out / "notes" / "p0007" / "index.html").read_text(encoding="utf-8")
