"""Static checks of the built pages' markup: what a strict CSP, a 320 px phone, a screen reader,
a keyboard and a printer need from it. The same properties are checked in a real browser by the
browser suite; these run on every build without one.

- no inline style anywhere (the CSP blocks it);
- every table has a caption, scoped headers and sits in a focusable, labelled scroll region;
- ids are unique per page and every board row has a stable, linkable id with a permalink;
- every table and figure has its downloads (CSV and JSON; a figure's data CSV, Vega-Lite JSON,
  SVG and PNG) right next to it, and they resolve to published files;
- the stylesheet carries a dark scheme and print rules (a weak check).
"""

from __future__ import annotations

import csv
import io
import json
import posixpath
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import copy_site, only
from sitegen.build import build, validate
from sitegen.config import load_config
from sitegen.errors import InputError
from sitegen.render import markdown_renderer, row_ids

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


# --------------------------------------------------------------------------- a small DOM


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    parent: Node | None = None
    children: list = field(default_factory=list)  # Node or str

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    @property
    def elements(self) -> list[Node]:
        return [c for c in self.children if isinstance(c, Node)]

    def iter(self):
        for c in self.elements:
            yield c
            yield from c.iter()

    def find_all(self, tag: str, cls: str | None = None) -> list[Node]:
        return [n for n in self.iter() if n.tag == tag and (cls is None or cls in n.classes)]

    def ancestors(self):
        n = self.parent
        while n is not None:
            yield n
            n = n.parent

    def raw_text(self) -> str:
        return "".join(c if isinstance(c, str) else c.raw_text() for c in self.children)

    def text(self) -> str:
        return " ".join(self.raw_text().split())

    def siblings(self) -> tuple[Node | None, Node | None]:
        """The element just before and just after this one."""
        sib = self.parent.elements
        i = next(k for k, n in enumerate(sib) if n is self)
        return (sib[i - 1] if i > 0 else None), (sib[i + 1] if i + 1 < len(sib) else None)


class Tree(HTMLParser):
    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.cur = self.root
        self.style_attrs: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if "style" in a:
            self.style_attrs.append(tag)
        node = Node(tag, a, self.cur)
        self.cur.children.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_startendtag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if "style" in a:
            self.style_attrs.append(tag)
        self.cur.children.append(Node(tag, a, self.cur))

    def handle_endtag(self, tag):
        n = self.cur
        while n is not self.root and n.tag != tag:
            n = n.parent
        if n is not self.root:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.children.append(data)


@dataclass
class Built:
    out: Path
    pages: dict[str, Tree]  # output path -> parsed page
    raw: dict[str, str]


@pytest.fixture(scope="module")
def site(built_site) -> Built:
    out = built_site.out
    raw = {p.relative_to(out).as_posix(): p.read_text(encoding="utf-8") for p in sorted(out.rglob("*.html"))}
    return Built(out, {rel: Tree(text) for rel, text in raw.items()}, raw)


def resolve(page: str, href: str) -> str:
    target = href.split("#")[0]
    path = posixpath.normpath(posixpath.join(posixpath.dirname(page), target))
    return posixpath.join(path, "index.html") if target.endswith("/") else path


def read_csv(path: Path) -> list[dict]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def is_downloads_page(tree: Tree) -> bool:
    body = tree.root.find_all("body")
    return bool(body) and body[0].attrs.get("data-page-type") == "downloads"


# --------------------------------------------------------------------------- the CSP


def test_no_inline_style_anywhere(site):
    """style-src 'self': a style attribute or a <style> element would be blocked."""
    for rel, tree in site.pages.items():
        assert tree.style_attrs == [], (rel, tree.style_attrs[:5])
        assert not tree.root.find_all("style"), rel
        assert "<style" not in site.raw[rel].lower(), rel


# --------------------------------------------------------------------------- tables


def test_every_table_has_a_caption_scoped_headers_and_a_focusable_scroll_region(site):
    tables = 0
    for rel, tree in site.pages.items():
        for table in tree.root.find_all("table"):
            tables += 1
            where = (rel, table.attrs.get("class"))
            first = table.elements[0] if table.elements else None
            assert first is not None and first.tag == "caption", where
            assert first.text(), where
            cid = first.attrs.get("id")
            assert cid, where
            region = table.parent
            assert region.tag == "div" and "table-scroll" in region.classes, where
            assert region.attrs.get("role") == "region" and region.attrs.get("tabindex") == "0", where
            assert region.attrs.get("aria-labelledby") == cid, where  # named by its caption
            for th in table.find_all("th"):
                assert th.attrs.get("scope") in ("col", "row", "colgroup", "rowgroup"), (where, th.text())
            for thead in table.find_all("thead"):
                assert {th.attrs.get("scope") for th in thead.find_all("th")} <= {"col", "colgroup"}, where
            if "board" in table.classes:  # a board row is labelled by its model
                for tbody in table.find_all("tbody"):
                    for tr in tbody.find_all("tr"):
                        assert [th.attrs.get("scope") for th in tr.find_all("th") if th.parent is tr] == ["row"], where
    assert tables > 250


def test_markdown_tables_get_classes_a_caption_and_a_scroll_region():
    html = markdown_renderer().render("## Weights\n\n| dimension | weight |\n| --- | ---: |\n| hook | 0.125 |\n")
    assert "style=" not in html
    assert '<td class="align-right">0.125</td>' in html
    assert '<th class="align-right" scope="col">weight</th>' in html
    assert '<th scope="row">hook</th>' in html
    assert '<div class="table-scroll" role="region" aria-labelledby="table-weights" tabindex="0">' in html
    assert '<caption id="table-weights">Weights</caption>' in html


def test_authored_tables_on_the_protocol_page_carry_no_style(site):
    text = site.raw["chronicle/protocol/index.html"]
    assert 'class="md-table"' in text and 'class="align-right"' in text
    assert "text-align" not in text


# --------------------------------------------------------------------------- ids and row permalinks


def test_ids_are_unique_on_every_page(site):
    for rel, tree in site.pages.items():
        ids = [n.attrs["id"] for n in tree.root.iter() if n.attrs.get("id")]
        dups = sorted({i for i in ids if ids.count(i) > 1})
        assert dups == [], (rel, dups[:5])


def test_every_permalink_targets_its_own_row(site):
    seen = 0
    for rel, tree in site.pages.items():
        ids = {n.attrs["id"]: n for n in tree.root.iter() if n.attrs.get("id")}
        for a in tree.root.find_all("a", "permalink"):
            seen += 1
            target = a.attrs["href"].removeprefix("#")
            assert target in ids, (rel, target)
            assert ids[target].tag == "tr" and ids[target] in a.ancestors(), (rel, target)
            assert a.attrs.get("aria-label", "").startswith("Link to the row for "), (rel, target)
    assert seen > 100


def check_board(tree: Tree, rel: str, keys: dict[str, str]) -> None:
    """Each key (model id -> display name) has its row, with the id row_ids gives it and a
    permalink named after the model."""
    ids = row_ids("row", keys)
    rows = {tr.attrs.get("id"): tr for t in tree.root.find_all("table", "board") for tr in t.find_all("tr") if tr.attrs.get("id")}
    for key, name in keys.items():
        tr = rows.get(ids[key])
        assert tr is not None, (rel, key, ids[key])
        links = [a for a in tr.find_all("a", "permalink") if a.attrs["href"] == f"#{ids[key]}"]
        assert len(links) == 1 and name in links[0].attrs["aria-label"], (rel, key)


def test_every_board_row_is_linkable_by_its_model(site, built_site):
    sweep = json.loads((built_site.root / "data/canonic/sweep.json").read_text(encoding="utf-8"))
    models = {m["id"]: m["name"] for m in sweep["models"]}
    for d in sweep["domains"]:
        rel = f"canonic/{d['id']}/index.html"
        check_board(site.pages[rel], rel, models)
    boards = [p for p in site.pages if re.fullmatch(r"chronicle/boards/[^/]+/index\.html", p)]
    assert len(boards) == 3
    for rel in boards:
        rows = read_csv(site.out / (rel.removesuffix("/index.html") + ".csv"))
        check_board(site.pages[rel], rel, {r["entrant"]: r["name"] for r in rows})
    run = json.loads((built_site.root / "data/nextchapter/run.json").read_text(encoding="utf-8"))
    check_board(site.pages["nextchapter/index.html"], "nextchapter/index.html", {m["id"]: m["name"] for m in run["models"]})


def test_row_ids_are_slugs_that_depend_on_the_keys_alone():
    keys = ["openai/gpt-5.5", "anthropic/claude-opus-5", "openai-gpt-5-5"]
    ids = row_ids("row", keys)
    assert ids == row_ids("row", list(reversed(keys)))  # not on the order the rows are shown in
    assert ids["anthropic/claude-opus-5"] == "row-anthropic-claude-opus-5"
    assert ids["openai-gpt-5-5"] == "row-openai-gpt-5-5"  # first in sorted order keeps the slug
    assert re.fullmatch(r"row-openai-gpt-5-5-[0-9a-f]{8}", ids["openai/gpt-5.5"])
    assert all(re.fullmatch(r"[a-z0-9-]+", i) for i in ids.values())
    assert row_ids("", ["a b"]) == {"a b": "a-b"}


# --------------------------------------------------------------------------- downloads


def download_links(rel: str, prov: Node) -> set[str]:
    spans = prov.find_all("span", "downloads")
    assert len(spans) == 1, (rel, prov.text())
    return {resolve(rel, a.attrs["href"]) for a in spans[0].find_all("a")}


def covering_provenance(region: Node) -> Node | None:
    """The provenance line with a table's downloads: right before or after its scroll region,
    or heading the group of tables it belongs to (a rubric's dimension tables, say)."""
    for sib in region.siblings():
        if sib is not None and sib.tag == "p" and "prov" in sib.classes:
            return sib
    for anc in region.ancestors():
        if "table-group" in anc.classes:
            provs = [c for c in anc.elements if c.tag == "p" and "prov" in c.classes]
            return provs[0] if provs else None
    return None


def test_every_table_and_figure_has_its_downloads_next_to_it(site):
    tables = figures = 0
    for rel, tree in site.pages.items():
        if is_downloads_page(tree):  # a table of the downloads themselves
            continue
        for fig in tree.root.find_all("figure", "chart"):
            figures += 1
            provs = [c for c in fig.elements if c.tag == "p" and "prov" in c.classes]
            assert len(provs) == 1, (rel, fig.attrs.get("id"))
            links = download_links(rel, provs[0])
            stems = {t.removesuffix(".svg") for t in links if t.endswith(".svg")}
            assert len(stems) == 1, (rel, links)
            (stem,) = stems
            assert {f"{stem}{s}" for s in (".csv", ".vl.json", ".svg", ".png")} == links, (rel, links)
            for t in links:
                assert (site.out / t).is_file(), (rel, t)
        for table in tree.root.find_all("table"):
            region = table.parent
            if "md-table" in table.classes or any(a.tag == "figure" for a in region.ancestors()):
                continue  # authored prose tables; a figure's data table is its figure's CSV
            tables += 1
            prov = covering_provenance(region)
            caption = table.elements[0].text()
            assert prov is not None, (rel, caption)
            links = download_links(rel, prov)
            csvs = [t for t in links if t.endswith(".csv")]
            assert len(csvs) == 1 and links == {csvs[0], csvs[0].removesuffix(".csv") + ".json"}, (rel, caption, links)
            for t in links:
                assert (site.out / t).is_file(), (rel, caption, t)
    assert tables > 250 and figures >= 14


def test_download_links_name_what_they_download(site):
    """A screen reader lists links out of context: each 'CSV' says whose."""
    tree = site.pages["canonic/book-opening/index.html"]
    names = {a.text() for span in tree.root.find_all("span", "downloads") for a in span.find_all("a")}
    assert "CSV of Canonic Stage 1, Book Opening: board" in names
    assert any(n.startswith("Vega-Lite JSON of ") for n in names)


# --------------------------------------------------------------------------- headings


def test_one_h1_and_no_skipped_heading_level(site):
    for rel, tree in site.pages.items():
        levels = [int(n.tag[1]) for n in tree.root.iter() if re.fullmatch(r"h[1-6]", n.tag)]
        assert levels.count(1) == 1, (rel, levels[:5])
        for a, b in zip(levels, levels[1:]):
            assert b <= a + 1, (rel, a, b)


# --------------------------------------------------------------------------- the stylesheet (weak)


def test_the_stylesheet_has_a_dark_scheme_print_rules_and_figure_overrides(site):
    css = (site.out / "assets/site.css").read_text(encoding="utf-8")
    flat = " ".join(css.split())
    assert "color-scheme: light dark" in flat
    assert re.search(r"@media[^{]*prefers-color-scheme: dark", flat)
    assert "@media print" in flat
    print_block = flat[flat.index("@media print"):]
    assert "thead { display: table-header-group; }" in print_block
    assert ".site-header" in print_block and ".synthetic" in print_block
    for selector in ('.chart .svg svg > rect:first-child', 'text[fill="#000"]', '[stroke="#ddd"]', '[stroke="#888"]'):
        assert selector in flat, selector
    assert "overflow-wrap: anywhere" in flat and "max-width: 100%; height: auto" in flat
    assert ":focus-visible" in flat


# --------------------------------------------------------------------------- authored pages

FENCE = "`" * 3
AUTHORED = f"""---
title: Ids
---

# Main

## Identifiers

{{{{< canonic.pins >}}}}

## Identifiers

{FENCE}text
{{{{< canonic.rubrics >}}}}
{FENCE}

~~~
{{{{< canonic.worked-example >}}}}
~~~

## Pins caption
"""


@pytest.fixture(scope="module")
def authored(tmp_path_factory, built_site) -> Tree:
    """The demo site with one more authored page, built; that page, parsed."""
    base = tmp_path_factory.mktemp("authored")
    root = copy_site(base / "site", cache_from=built_site.root)
    (root / "content/ids.md").write_text(AUTHORED, encoding="utf-8")
    build(load_config(root), base / "out")
    return Tree((base / "out/ids/index.html").read_text(encoding="utf-8"))


def test_authored_headings_never_take_an_id_of_the_template_a_section_or_each_other(authored):
    """A heading "Main" used to get the id of the <main> element, the same heading on both
    sides of a section the same id twice, and a heading the id of an element of the section."""
    ids = [n.attrs["id"] for n in authored.root.iter() if n.attrs.get("id")]
    assert sorted({i for i in ids if ids.count(i) > 1}) == []
    headings = [n.attrs["id"] for n in authored.root.iter() if n.tag in ("h1", "h2") and n.parent.tag == "article"]
    assert headings == ["main-2", "identifiers", "identifiers-2", "pins-caption-2"]


def test_a_shortcode_line_inside_a_code_fence_is_shown_not_expanded(authored):
    """It used to split the fence in two and place the section between the halves."""
    code = [n.text() for n in authored.root.find_all("code")]
    assert "{{< canonic.rubrics >}}" in code and "{{< canonic.worked-example >}}" in code
    assert not any(i.startswith(("rubric-", "ex-")) for n in authored.root.iter() if (i := n.attrs.get("id")))


def problems_of(root: Path) -> list:
    with pytest.raises(InputError) as exc:
        validate(load_config(root))
    return exc.value.problems


def test_a_section_placed_twice_on_a_page_is_refused(site_copy):
    """Its ids would be on the page twice."""
    (site_copy / "content/twice.md").write_text("---\ntitle: T\n---\n\n{{< canonic.pins >}}\n\n{{< canonic.pins >}}\n", encoding="utf-8")
    assert str(only(problems_of(site_copy))) == (
        "content/twice.md:7: expected each section placed once on a page (first at line 5); found {{< canonic.pins >}}")


def test_a_generated_pages_template_in_front_matter_is_one_problem_naming_the_page(site_copy):
    """It used to end in "unexpected UndefinedError: 'board' is undefined" (a traceback under validate)."""
    (site_copy / "content/t.md").write_text("---\ntitle: T\ntemplate: canonic/board.html\n---\n\nText.\n", encoding="utf-8")
    assert str(only(problems_of(site_copy))) == (
        'content/t.md:3 template: expected a template for authored pages, one that places the body (home.html, page.html); '
        'found "canonic/board.html"')


def test_a_template_asking_for_what_the_page_lacks_is_one_problem_naming_the_page(site_copy):
    (site_copy / "templates").mkdir(exist_ok=True)
    (site_copy / "templates/essay.html").write_text(
        '{% extends "page.html" %}{% block footer %}<p>By {{ meta.author }}</p>{% endblock %}', encoding="utf-8")
    (site_copy / "content/t.md").write_text("---\ntitle: T\ntemplate: essay.html\n---\n\nText.\n", encoding="utf-8")
    p = only(problems_of(site_copy))
    assert str(p).startswith("content/t.md:3 template: expected a template that needs only what an authored page has "
                             '(body, meta, source, title, site); found "essay.html": ')
    assert "author" in p.found
