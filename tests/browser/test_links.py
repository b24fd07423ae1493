"""Every link of the built site, checked without a browser (standard library html.parser).

Every href/src resolves to a file of the output (a directory URL to its index.html), every
#fragment names an id (or an <a name>) of its target, no URL runs script or embeds data, and
every HTML page can be reached from the home page by following links.
"""

from __future__ import annotations

import warnings
from collections import deque
from dataclasses import dataclass, field
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

from .conftest import html_pages, url_path

URL_ATTRS = {"href", "src", "xlink:href", "poster", "action", "formaction", "data", "cite", "srcset"}
LOCAL_HOST = "site.invalid"  # stands for the site's own origin when resolving relative URLs
# <link rel> values that may name another origin: they are metadata, the browser loads nothing.
METADATA_RELS = {"canonical", "alternate"}


@dataclass
class Link:
    tag: str
    attr: str
    value: str
    rel: frozenset[str]


@dataclass
class Parsed:
    ids: set[str] = field(default_factory=set)
    links: list[Link] = field(default_factory=list)


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.result = Parsed()

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if values.get("id"):
            self.result.ids.add(values["id"])
        if tag == "a" and values.get("name"):
            self.result.ids.add(values["name"])
        rel = frozenset((values.get("rel") or "").lower().split())
        for attr, value in attrs:
            if attr in URL_ATTRS and value is not None:
                urls = [c.strip().split()[0] for c in value.split(",") if c.strip()] if attr == "srcset" else [value]
                self.result.links.extend(Link(tag, attr, u.strip(), rel) for u in urls)

    handle_startendtag = handle_starttag


def parse(path: Path) -> Parsed:
    collector = _Collector()
    collector.feed(path.read_text(encoding="utf-8"))
    collector.close()
    return collector.result


@dataclass
class Target:
    """Where a link points: a file of the site (relative path) and a fragment, or elsewhere."""
    rel: str | None  # the file it resolves to, None when it is not on the site
    fragment: str
    external: str | None = None  # the absolute URL, for a link to another origin
    scheme: str = ""


def resolve(page_rel: str, value: str, out: Path) -> Target:
    """Resolve VALUE as the browser would from the page at PAGE_REL (served at its directory
    URL); a path that is a directory resolves to its index.html."""
    url = urlsplit(urljoin(f"http://{LOCAL_HOST}{url_path(page_rel)}", value))
    fragment = unquote(url.fragment)
    if url.scheme not in ("http", "https") or url.netloc != LOCAL_HOST:
        return Target(None, fragment, external=value, scheme=url.scheme.lower())
    rel = unquote(url.path).lstrip("/")
    if rel == "" or rel.endswith("/") or (out / rel).is_dir():
        rel = (rel.rstrip("/") + "/index.html").lstrip("/")
    return Target(rel, fragment)


@pytest.fixture(scope="module")
def site(site_out) -> dict[str, Parsed]:
    """Relative path -> parsed ids and links, for every HTML page."""
    return {rel: parse(site_out / rel) for rel in html_pages(site_out)}


def fragment_ids(out: Path, rel: str, site: dict[str, Parsed]) -> set[str]:
    if rel in site:
        return site[rel].ids
    return _file_ids(out / rel)


@lru_cache(maxsize=None)
def _file_ids(path: Path) -> set[str]:
    # A fragment into a non-HTML file: an SVG's ids are fragment targets too; others have none.
    return parse(path).ids if path.suffix in (".svg", ".xhtml") else set()


def test_every_link_and_source_resolves_to_a_file_and_fragment(site, site_out):
    problems, external = [], []
    for page, parsed in site.items():
        for link in parsed.links:
            where = f"{page}: <{link.tag} {link.attr}={link.value!r}>"
            if link.value == "":
                problems.append(f"{where}: empty URL")
                continue
            target = resolve(page, link.value, site_out)
            if target.scheme in ("javascript", "data", "vbscript", "file"):
                problems.append(f"{where}: {target.scheme}: URL")
            elif target.external is not None:
                # Another origin: only a plain link or link metadata (the canonical URL, a feed)
                # may point there; the browser must load nothing from elsewhere.
                if link.tag == "a" and link.attr == "href":
                    external.append(f"{page}: {link.value}")
                elif not (link.tag == "link" and link.attr == "href" and link.rel and link.rel <= METADATA_RELS):
                    problems.append(f"{where}: loads from another origin")
            elif not (site_out / target.rel).is_file():
                problems.append(f"{where}: no file {target.rel}")
            elif target.fragment and target.fragment not in fragment_ids(site_out, target.rel, site):
                problems.append(f"{where}: no id {target.fragment!r} in {target.rel}")
    if external:
        # Not an error, but worth seeing in every run: each one is a promise about another site.
        warnings.warn(f"{len(external)} links to other sites: " + "; ".join(external[:20]), stacklevel=1)
    assert not problems, f"{len(problems)} broken links, the first:\n" + "\n".join(problems[:40])


def test_every_page_is_reachable_from_the_home_page(site, site_out):
    assert "index.html" in site, "the site has no home page"
    seen, queue = {"index.html"}, deque(["index.html"])
    while queue:
        page = queue.popleft()
        for link in site[page].links:
            target = resolve(page, link.value, site_out)
            if target.rel in site and target.rel not in seen:
                seen.add(target.rel)
                queue.append(target.rel)
    orphans = sorted(set(site) - seen - {"404.html"})  # the host serves it for an address with no file; no page links it
    assert not orphans, f"{len(orphans)} pages no link leads to: {orphans[:20]}"


def test_the_link_checker_catches_what_it_claims(tmp_path):
    """The checker itself, on a two-page site with one of each fault."""
    (tmp_path / "a").mkdir()
    (tmp_path / "index.html").write_text('<a href="a/#x">ok</a><a href="a/#nope">x</a><a href="gone.html">x</a>'
                                         '<a href="javascript:alert(1)">x</a>'
                                         '<script src="https://cdn.example/x.js"></script>', encoding="utf-8")
    (tmp_path / "a" / "index.html").write_text('<h2 id="x">x</h2>', encoding="utf-8")
    (tmp_path / "orphan.html").write_text("<p>alone</p>", encoding="utf-8")
    site = {rel: parse(tmp_path / rel) for rel in html_pages(tmp_path)}
    with pytest.raises(AssertionError) as caught:
        test_every_link_and_source_resolves_to_a_file_and_fragment(site, tmp_path)
    report = str(caught.value)
    assert "no id 'nope'" in report and "no file gone.html" in report
    assert "javascript: URL" in report and "loads from another origin" in report
    assert "'x'" not in report  # the good fragment is not reported
    with pytest.raises(AssertionError, match="orphan.html"):
        test_every_page_is_reachable_from_the_home_page(site, tmp_path)
