"""Pages to HTML: jinja2 with autoescape and StrictUndefined; markdown through markdown-it-py
with raw HTML off.

Authored markdown is untrusted in the same way model output is: `js-default` escapes raw
HTML and refuses javascript:/vbscript:/file:/data: links. Generated HTML reaches a page only
as a family's fragment, placed by a `{{< name >}}` line.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import jinja2
from markdown_it import MarkdownIt
from markupsafe import Markup

from sitegen.errors import Problem
from sitegen.load import MarkdownDoc

SHORTCODE = re.compile(r"^\{\{<\s*([a-z0-9][a-z0-9._-]*)\s*>\}\}\s*$")


def slugify(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug or "section"


def _heading_ids(md: MarkdownIt) -> None:
    """Give every heading an id from its text, so each section can be linked."""

    def rule(state) -> None:
        seen: dict[str, int] = {}
        tokens = state.tokens
        for i, tok in enumerate(tokens):
            if tok.type == "heading_open" and i + 1 < len(tokens):
                base = slugify(tokens[i + 1].content)
                n = seen.get(base, 0)
                seen[base] = n + 1
                tok.attrSet("id", base if n == 0 else f"{base}-{n + 1}")

    md.core.ruler.push("heading_ids", rule)


def markdown_renderer() -> MarkdownIt:
    md = MarkdownIt("js-default")
    _heading_ids(md)
    return md


@dataclass
class RenderedDoc:
    html: Markup
    problems: list[Problem]


def render_markdown(md: MarkdownIt, doc: MarkdownDoc, fragment: Callable[[str], Markup], known: list[str]) -> RenderedDoc:
    """Markdown to HTML, with each `{{< name >}}` line replaced by that generated fragment."""
    parts: list[str] = []
    problems: list[Problem] = []
    chunk: list[str] = []
    for offset, line in enumerate(doc.body.split("\n")):
        m = SHORTCODE.match(line)
        if not m:
            chunk.append(line)
            continue
        parts.append(md.render("\n".join(chunk)))
        chunk = []
        name = m.group(1)
        if name in known:
            parts.append(str(fragment(name)))
        else:
            names = ", ".join(known) or "none"
            problems.append(Problem(doc.source.rel, doc.body_line + offset, "", f"a known shortcode ({names})", f"{{{{< {name} >}}}}"))
    parts.append(md.render("\n".join(chunk)))
    return RenderedDoc(Markup("".join(parts)), problems)


def relative_url(target: str, from_page: str) -> str:
    """A link from one output path to another that works under any base URL.
    A target ending in '/' means that folder (its index.html); '' means this page."""
    path, _, frag = target.partition("#")
    rel = ""
    if path:
        rel = posixpath.relpath(path, posixpath.dirname(from_page) or ".")
        if path.endswith("/"):
            rel = "./" if rel == "." else rel + "/"
    return rel + (f"#{frag}" if frag else "")


FIGURE_MARK = "<!--sitegen:figure {name}-->"
_FIGURE_MARK = re.compile(r"<!--sitegen:figure ([A-Za-z0-9._/-]+)-->")


def inline_figure(name: str) -> Markup:
    """A placeholder for a figure's inline SVG. Pages render before figures are drawn (so a
    template error does not wait for the slowest stage); place_figures() fills them in.
    Untrusted text cannot forge one: it is escaped, and '<!--' does not survive escaping."""
    return Markup(FIGURE_MARK.format(name=name))


def place_figures(html: str, drawn: dict) -> str:
    from sitegen.figures import inline_svg

    def sub(m: re.Match) -> str:
        name = m.group(1)
        return inline_svg(drawn[name].svg, "f-" + re.sub(r"[^a-z0-9]+", "-", name.lower()))

    return _FIGURE_MARK.sub(sub, html)


def environment(templates_dir: Path) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["fmt1"] = lambda x: "–" if x is None else f"{x:.1f}"
    env.filters["fmt2"] = lambda x: "–" if x is None else f"{x:.2f}"
    env.filters["thousands"] = lambda n: f"{n:,}"
    env.filters["pct"] = lambda x: f"{100 * x:.1f}%"
    env.filters["short"] = lambda h, n=12: h[:n]
    env.globals["inline_figure"] = inline_figure
    return env


def render_page(env: jinja2.Environment, template: str, path: str, context: dict[str, Any]) -> str:
    # page_type names the template, so tests can pick one page of each kind
    return env.get_template(template).render(**context, page_path=path, page_type=template.removesuffix(".html"),
                                             link=lambda t: relative_url(t, path))
