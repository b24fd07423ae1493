"""What a page costs to load, and that it loads nothing from another origin (no browser).

A page's weight is the gzip-compressed size of its HTML (inline SVG included) plus every
same-site stylesheet, script and image it references, and whatever those stylesheets load in
turn, each counted once per page, as a first visit downloads them.
"""

from __future__ import annotations

import gzip
import re
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

from .conftest import html_pages, url_path

BUDGET = 150 * 1024  # bytes, compressed, per page
LOCAL_HOST = "site.invalid"
METADATA_RELS = {"canonical", "alternate"}  # <link rel> values the browser does not load
CSS_URL = re.compile(r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)""", re.I)
CSS_IMPORT = re.compile(r"""@import\s+(?:"([^"]*)"|'([^']*)')""", re.I)


class _Resources(HTMLParser):
    """The URLs a page makes the browser load: stylesheets, scripts, images, and url()s in
    inline styles; plus every <link> (other than metadata) for the origin check."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.loads: list[tuple[str, str]] = []  # (what, url)
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        rel = set((a.get("rel") or "").lower().split())
        if tag == "link" and a.get("href") and not (rel and rel <= METADATA_RELS):
            self.loads.append((f"<link rel={' '.join(sorted(rel))}>", a["href"]))
        elif tag == "script" and a.get("src"):
            self.loads.append(("<script>", a["src"]))
        elif tag in ("img", "source", "input", "video", "audio", "iframe", "embed") and a.get("src"):
            self.loads.append((f"<{tag}>", a["src"]))
        if tag in ("img", "source") and a.get("srcset"):
            self.loads.extend((f"<{tag} srcset>", c.strip().split()[0]) for c in a["srcset"].split(",") if c.strip())
        if tag in ("image", "use", "feimage") and (a.get("href") or a.get("xlink:href")):  # SVG
            self.loads.append((f"<{tag}>", a.get("href") or a.get("xlink:href")))
        if a.get("style"):
            self.loads.extend(("style attribute", u) for u in css_urls(a["style"]))
        self._in_style = tag == "style"

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag):
        self._in_style = False

    def handle_data(self, data):
        if self._in_style:
            self.loads.extend(("<style>", u) for u in css_urls(data))


def css_urls(css: str) -> list[str]:
    """Every url() and @import of a stylesheet (font faces, background images, imports)."""
    found = [next(g for g in m.groups() if g is not None) for m in CSS_URL.finditer(css)]
    found += [m.group(1) or m.group(2) for m in CSS_IMPORT.finditer(css)]
    return [u.strip() for u in found if u.strip()]


def resolve(base: str, url: str) -> str | None:
    """The site path (no leading slash) URL names from BASE (a URL path), or None when it is
    another origin. data: URLs stay inline and count as part of their file."""
    parts = urlsplit(urljoin(f"http://{LOCAL_HOST}{base}", url))
    if parts.scheme == "data":
        return ""
    if parts.scheme not in ("http", "https") or parts.netloc != LOCAL_HOST:
        return None
    return unquote(parts.path).lstrip("/")


@lru_cache(maxsize=None)
def gzipped(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), compresslevel=6))


def page_loads(out: Path, rel: str) -> tuple[set[str], list[str]]:
    """(site files PAGE loads, directly or through its stylesheets; loads from other origins)."""
    parser = _Resources()
    parser.feed((out / rel).read_text(encoding="utf-8"))
    parser.close()
    files: set[str] = set()
    foreign: list[str] = []
    pending = [(url_path(rel), what, url) for what, url in parser.loads]
    while pending:
        base, what, url = pending.pop()
        target = resolve(base, url)
        if target is None:
            foreign.append(f"{what} {url}")
        elif target and target not in files:
            files.add(target)
            path = out / target
            if path.suffix == ".css" and path.is_file():
                pending.extend(("/" + target, "url() in " + target, u) for u in css_urls(path.read_text(encoding="utf-8")))
    return files, foreign


@pytest.fixture(scope="module")
def weights(site_out) -> dict[str, tuple[int, set[str], list[str]]]:
    """Page -> (compressed weight, the site files it loads, what it loads from other origins)."""
    out = {}
    for rel in html_pages(site_out):
        files, foreign = page_loads(site_out, rel)
        missing = sorted(f for f in files if not (site_out / f).is_file())
        assert not missing, f"{rel} loads files the site does not have: {missing}"
        out[rel] = (gzipped(site_out / rel) + sum(gzipped(site_out / f) for f in files), files, foreign)
    return out


def test_every_page_weighs_at_most_150_kb_compressed(weights):
    heaviest = max(weights, key=lambda rel: weights[rel][0])
    over = sorted(((w, rel) for rel, (w, _, _) in weights.items() if w > BUDGET), reverse=True)
    weight, files, _ = weights[heaviest]
    assert not over, (f"{len(over)} pages over {BUDGET // 1024} KB compressed; the heaviest is {heaviest} at "
                      f"{weight / 1024:.1f} KB (with {sorted(files)}); others: "
                      + ", ".join(f"{rel} {w / 1024:.1f} KB" for w, rel in over[1:10]))


def test_no_page_or_stylesheet_loads_anything_from_another_origin(weights, site_out):
    problems = [f"{rel}: {item}" for rel, (_, _, foreign) in weights.items() for item in foreign]
    # Every stylesheet of the output, linked or not (a page could gain a link to it later).
    for css in sorted(site_out.rglob("*.css")):
        rel = css.relative_to(site_out).as_posix()
        problems += [f"{rel}: {u}" for u in css_urls(css.read_text(encoding="utf-8")) if resolve("/" + rel, u) is None]
    assert not problems, "loads from another origin:\n" + "\n".join(problems[:40])


def test_the_weight_check_counts_what_a_page_loads(tmp_path):
    """The checker itself: linked CSS and what it imports count, other origins are found."""
    (tmp_path / "a.css").write_text('@import "b.css"; body{background:url(bg.png)}', encoding="utf-8")
    (tmp_path / "b.css").write_text("@font-face{src:url(https://fonts.example/f.woff2)}", encoding="utf-8")
    (tmp_path / "bg.png").write_bytes(bytes(range(256)) * 400)
    (tmp_path / "index.html").write_text('<link rel="stylesheet" href="a.css"><link rel="canonical" href="https://x.example/">'
                                         '<img src="//cdn.example/i.png">', encoding="utf-8")
    files, foreign = page_loads(tmp_path, "index.html")
    assert files == {"a.css", "b.css", "bg.png"}
    assert sorted(foreign) == ["<img> //cdn.example/i.png", "url() in b.css https://fonts.example/f.woff2"]
