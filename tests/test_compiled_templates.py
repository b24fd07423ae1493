"""Compiled templates kept on disk (sitegen.render._CompiledTemplates): the templates sitegen
ships are compiled once, not in every new process; a site's own templates never leave the
process; an edited or damaged file is compiled again; PYTHONDONTWRITEBYTECODE writes nothing.

Each test stands in a temporary folder for sitegen's package folder (render.PACKAGE_DIR), and
a new cache object for a new process."""

from __future__ import annotations

import sys

import jinja2
import pytest

from sitegen import render


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A stand-in package folder with one template, as sitegen's own would be."""
    monkeypatch.setattr(render, "PACKAGE_DIR", tmp_path / "pkg")
    (tmp_path / "pkg" / "templates").mkdir(parents=True)
    (tmp_path / "pkg" / "templates" / "t.html").write_text("A {{ x }}", encoding="utf-8")
    return tmp_path / "pkg"


compiled: list[str] = []


@pytest.fixture(autouse=True)
def count_compiles(monkeypatch):
    original = jinja2.Environment.compile

    def counting(self, source, name=None, filename=None, raw=False, defer_init=False):
        compiled.append(name)
        return original(self, source, name, filename, raw, defer_init)

    compiled.clear()
    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


def new_process_render(folder, name="t.html", **context) -> str:
    """Render NAME from FOLDER with a fresh cache (as a new process has) and a fresh environment."""
    cache = render._CompiledTemplates("pages", ("test",))
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(folder)), bytecode_cache=cache)
    return env.get_template(name).render(**context)


def kept(package) -> list:
    return sorted((package / "__pycache__" / "templates").glob("*.jinja")) if (package / "__pycache__").exists() else []


def test_a_shipped_template_is_compiled_once_then_read_by_every_new_process(package):
    assert new_process_render(package / "templates", x=1) == "A 1"
    assert compiled == ["t.html"] and len(kept(package)) == 1
    assert new_process_render(package / "templates", x=2) == "A 2"
    assert compiled == ["t.html"], "a new process compiled the template again"


def test_an_edited_template_is_compiled_again(package):
    new_process_render(package / "templates", x=1)
    (package / "templates" / "t.html").write_text("B {{ x }}", encoding="utf-8")
    assert new_process_render(package / "templates", x=1) == "B 1"
    assert compiled == ["t.html", "t.html"]


def test_a_damaged_file_is_compiled_again_and_replaced(package):
    new_process_render(package / "templates", x=1)
    (entry,) = kept(package)
    entry.write_bytes(b"not compiled code")
    assert new_process_render(package / "templates", x=1) == "A 1"
    assert len(compiled) == 2 and entry.read_bytes() != b"not compiled code"


def test_a_sites_own_template_is_never_written_to_disk(package, tmp_path):
    site_templates = tmp_path / "site" / "templates"
    site_templates.mkdir(parents=True)
    (site_templates / "t.html").write_text("S {{ x }}", encoding="utf-8")
    assert new_process_render(site_templates, x=1) == "S 1"
    assert kept(package) == [] and not list(tmp_path.glob("site/**/*.jinja"))


def test_nothing_is_written_under_pythondontwritebytecode(package, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert new_process_render(package / "templates", x=1) == "A 1"
    assert kept(package) == []


def test_templates_compiled_under_other_options_are_not_reused(package):
    new_process_render(package / "templates", x=1)
    cache = render._CompiledTemplates("pages", ("other options",))
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(package / "templates")), bytecode_cache=cache)
    env.get_template("t.html")
    assert compiled == ["t.html", "t.html"] and len(kept(package)) == 2


class _Html:
    def __html__(self):
        return "<b>kept</b>"


class _Text(str):
    pass


def test_a_page_writes_every_value_as_markupsafe_escapes_it(tmp_path):
    """A page template's output escape (render._output_escape) gives markupsafe's text for any
    value: markup, text with every character that must be escaped, numbers, None, a str
    subclass, an object with __html__; in a macro, a set block and a call block too."""
    from markupsafe import Markup

    values = ["<script>alert('x')</script> & \"q\"", Markup("<i>safe</i>"), 3, -2.5, float("nan"), True, None, _Text("<t>"), _Html(), ""]
    source = ("{% macro m(v) %}[{{ v }}]{% endmacro %}{% macro c() %}<{{ caller() }}>{% endmacro %}"
              "{% for v in values %}{{ v }}|{{ m(v) }}|{% set s %}{{ v }}{% endset %}{{ s }}|{% call c() %}{{ v }}{% endcall %}{% endfor %}")
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "p.html").write_text(source, encoding="utf-8")
    ours = render.environment(tmp_path / "templates").get_template("p.html")
    assert type(ours) is render._PageTemplate and ours.root_render_func.__globals__["escape"] is render._output_escape
    reference = jinja2.Environment(autoescape=True).from_string(source)
    assert ours.render(values=values) == reference.render(values=values)
    assert "&lt;script&gt;" in ours.render(values=values) and "<i>safe</i>" in ours.render(values=values)
