"""The files that index the built site: the downloads page, SHA256SUMS, canonical links, the
sitemap and robots.txt, and the site's Atom feed. Every size and hash is recomputed here from
the built files themselves (hashlib, os.stat), every URL from the page's own path."""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from decimal import ROUND_HALF_UP, Decimal
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sitegen.build import build
from sitegen.config import load_config
from sitegen.site_index import Download, Group, Section, sha256sums
from sitegen.verify import verify

from conftest import copy_site, run_cli

BASE = "https://benchmarks.example.org/"
ATOM = "{http://www.w3.org/2005/Atom}"
SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
INDEX_FILES = {"manifest.json", "SHA256SUMS", "sitemap.xml", "robots.txt"}  # describe the others


# --------------------------------------------------------------------------- helpers


def expected_downloads(out: Path) -> dict[str, bytes]:
    """Every file of the site that the downloads page must list: not a page, not an asset,
    not one of the files that list the others."""
    found = {}
    for p in sorted(out.rglob("*")):
        rel = p.relative_to(out).as_posix()
        if p.is_file() and not rel.endswith(".html") and not rel.startswith("assets/") and rel not in INDEX_FILES:
            found[rel] = p.read_bytes()
    return found


def html_pages(out: Path) -> list[str]:
    """The site's pages, but the not-found page: it is served at any missing path, so its links
    are root-relative, it is never indexed, and tests/browser/test_not_found.py checks it."""
    return sorted(rel for p in out.rglob("*.html") if (rel := p.relative_to(out).as_posix()) != "404.html")


def dir_url(rel: str) -> str:
    """The URL path a page is served at: an index.html page by its folder."""
    return rel[: -len("index.html")] if rel == "index.html" or rel.endswith("/index.html") else rel


def resolve(page: str, href: str) -> str:
    """The output file a relative href of the page at `page` points to."""
    target = href.split("#")[0]
    path = posixpath.normpath(posixpath.join(posixpath.dirname(page), target))
    return posixpath.join(path, "index.html") if target.endswith("/") or path == "." else path


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def my_human_size(n: int) -> str:
    value, unit = float(n), "B"
    for u in ("KiB", "MiB", "GiB"):
        if value < 1024:
            break
        value, unit = value / 1024, u
    # one decimal, half away from zero (the site's rounding rule): 30,976 bytes are 30.3 KiB
    rounded = Decimal(repr(value)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    return f"{n} B" if unit == "B" else f"{rounded} {unit}"


class DownloadRows(HTMLParser):
    """The rows of the downloads page's tables: (href, size cell text, SHA-256 cell text), and
    whether every such table has a caption and scoped headers."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.rows: list[tuple[str, str, str]] = []
        self.captions = 0
        self.tables = 0
        self.scopes: set[str] = set()
        self._in_table = False
        self._row: list | None = None
        self._cell: list[str] | None = None
        self._href = ""
        self._where = ""
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and "download-list" in (a.get("class") or "").split():
            self._in_table, self.tables = True, self.tables + 1
        if not self._in_table:
            return
        if tag == "caption":
            self.captions += 1
        elif tag == "tr":
            self._row, self._href = [], ""
        elif tag in ("th", "td") and self._row is not None:
            self._cell = []
            if a.get("scope"):
                self.scopes.add(a["scope"])
        elif tag == "a" and a.get("href"):
            self._href = a["href"]

    def handle_endtag(self, tag):
        if tag == "table":
            self._in_table = False
        elif tag in ("th", "td") and self._cell is not None and self._row is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            if len(self._row) == 3 and self._href:
                self.rows.append((self._href, self._row[1], self._row[2]))
            self._row = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def downloads_page(out: Path) -> DownloadRows:
    return DownloadRows((out / "downloads/index.html").read_text(encoding="utf-8"))


def set_base_url(root: Path, value: str) -> None:
    cfg = root / "pyproject.toml"
    text, n = re.subn(r"(?m)^base_url = .*$", f"base_url = {json.dumps(value)}", cfg.read_text(encoding="utf-8"))
    assert n == 1
    cfg.write_text(text, encoding="utf-8")


# --------------------------------------------------------------------------- the downloads page


def test_the_demo_publishes_under_an_absolute_base_url(built_site):
    assert load_config(built_site.root).base_url == BASE


def test_downloads_page_lists_every_download_with_its_size_and_sha256(built_site):
    out = built_site.out
    page = downloads_page(out)
    expected = expected_downloads(out)
    listed = {resolve("downloads/index.html", href): (size, digest) for href, size, digest in page.rows}
    assert len(listed) == len(page.rows)  # no file listed twice
    assert sorted(listed) == sorted(expected)
    for rel, data in expected.items():
        size_text, digest = listed[rel]
        assert digest == sha(data), rel
        assert size_text.startswith(my_human_size(len(data))), (rel, size_text)
        if len(data) >= 1024:  # the exact byte count beside the rounded one
            assert f"{len(data):,} bytes" in size_text, (rel, size_text)
    for kind in ("raw/", "feed.xml", "chronicle/feed.xml"):
        assert any(rel.startswith(kind) for rel in listed), kind


def test_downloads_page_is_a_real_table_per_family_with_captions_and_scoped_headers(built_site):
    page = downloads_page(built_site.out)
    config = load_config(built_site.root)
    assert page.tables >= len(config.families) and page.captions == page.tables
    assert {"col", "row", "rowgroup"} <= page.scopes
    text = (built_site.out / "downloads/index.html").read_text(encoding="utf-8")
    for fid in config.families:
        assert f'id="dl-{fid}"' in text
    assert 'href="../SHA256SUMS"' in text and "sha256sum -c SHA256SUMS" in text
    assert 'href="../manifest.json"' in text


def test_every_table_and_figure_in_the_manifest_is_on_the_downloads_page(built_site):
    out = built_site.out
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    listed = {resolve("downloads/index.html", href) for href, _, _ in downloads_page(out).rows}
    text = (out / "downloads/index.html").read_text(encoding="utf-8")
    kinds = set()
    for name, art in manifest["artifacts"].items():
        kinds.add(art["kind"])
        assert set(art["files"]) <= listed, name
        if art["kind"] == "table":
            assert f"Table: {art['title']}".replace("'", "&#39;") in text, name
    assert kinds == {"table", "figure"}
    # the manifest lists the index files too, so `sitegen verify` finds nothing unlisted
    for rel in ("downloads/index.html", "SHA256SUMS", "feed.xml", "sitemap.xml", "robots.txt"):
        assert rel in manifest["files"], rel


def test_every_page_links_to_the_downloads_page_and_the_feed(built_site):
    out = built_site.out
    for rel in html_pages(out):
        text = (out / rel).read_text(encoding="utf-8")
        hrefs = re.findall(r'<a href="([^"]+)"', text)
        assert "downloads/index.html" in {resolve(rel, h) for h in hrefs}, rel
        alt = re.findall(r'<link rel="alternate" type="application/atom\+xml" title="[^"]*" href="([^"]+)">', text)
        assert [resolve(rel, h) for h in alt] == ["feed.xml"], rel


# --------------------------------------------------------------------------- SHA256SUMS


def test_sha256sums_lists_exactly_the_downloads_in_sha256sum_format(built_site):
    out = built_site.out
    lines = (out / "SHA256SUMS").read_text(encoding="utf-8").split("\n")
    assert lines[-1] == ""  # ends with a newline
    pairs = []
    for line in lines[:-1]:
        m = re.fullmatch(r"([0-9a-f]{64})  (\S.*)", line)
        assert m, line
        pairs.append((m.group(2), m.group(1)))
    paths = [p for p, _ in pairs]
    assert paths == sorted(paths)
    assert dict(pairs) == {rel: sha(data) for rel, data in expected_downloads(out).items()}


@pytest.mark.skipif(shutil.which("sha256sum") is None, reason="needs coreutils sha256sum")
def test_sha256sum_check_passes_in_the_site_root(built_site):
    r = subprocess.run(["sha256sum", "-c", "--strict", "SHA256SUMS"], cwd=built_site.out, capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert r.stdout.count(": OK\n") == len(expected_downloads(built_site.out))


@pytest.mark.skipif(shutil.which("sha256sum") is None, reason="needs coreutils sha256sum")
def test_sha256sums_escapes_names_the_way_sha256sum_reads_them(tmp_path):
    names = ["plain.csv", "with space.csv", "back\\slash.csv", "new\nline.csv"]
    files = []
    for name in names:
        data = name.encode("utf-8") * 3
        (tmp_path / name).write_bytes(data)
        files.append(Download(name, len(data), sha(data)))
    (tmp_path / "SHA256SUMS").write_bytes(sha256sums([Section("s", "test", (Group("Files", "test", tuple(files)),))]))
    r = subprocess.run(["sha256sum", "-c", "--strict", "SHA256SUMS"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stdout + r.stderr


# --------------------------------------------------------------------------- canonical links, sitemap, robots


def test_every_page_has_one_canonical_link_to_the_base_url_plus_its_path(built_site):
    out = built_site.out
    for rel in html_pages(out):
        found = re.findall(r'<link rel="canonical" href="([^"]*)">', (out / rel).read_text(encoding="utf-8"))
        assert found == [BASE + dir_url(rel)], rel
    assert BASE + "canonic/" in (out / "canonic/index.html").read_text(encoding="utf-8")


def test_sitemap_lists_exactly_the_html_pages_sorted_without_dates(built_site):
    out = built_site.out
    root = ET.parse(out / "sitemap.xml").getroot()
    assert root.tag == f"{SITEMAP_NS}urlset"
    urls = [u.findtext(f"{SITEMAP_NS}loc") for u in root.findall(f"{SITEMAP_NS}url")]
    assert urls == sorted(urls)
    assert urls == sorted(BASE + dir_url(rel) for rel in html_pages(out))
    assert BASE + "downloads/" in urls
    assert root.find(f".//{SITEMAP_NS}lastmod") is None
    robots = (out / "robots.txt").read_text(encoding="utf-8")
    assert f"Sitemap: {BASE}sitemap.xml\n" in robots and robots.startswith("User-agent: *\n")


# --------------------------------------------------------------------------- the site feed


def parse_feed(path: Path) -> ET.Element:
    root = ET.parse(path).getroot()  # well-formed, or this raises
    assert root.tag == f"{ATOM}feed"
    return root


def test_site_feed_has_entries_from_every_family_newest_first(built_site):
    out = built_site.out
    feed = parse_feed(out / "feed.xml")
    entries = feed.findall(f"{ATOM}entry")
    families = {e.find(f"{ATOM}category").get("term") for e in entries}
    assert families == {*load_config(built_site.root).families, "releases"}  # and the site's own releases
    dates = [e.findtext(f"{ATOM}updated") for e in entries]
    assert dates == sorted(dates, reverse=True)
    assert feed.findtext(f"{ATOM}updated") == dates[0]
    ids = [e.findtext(f"{ATOM}id") for e in entries]
    assert len(ids) == len(set(ids))
    for e in entries:
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z", e.findtext(f"{ATOM}updated"))
        href = e.find(f"{ATOM}link").get("href")
        assert href.startswith(BASE), href
        assert (out / resolve("index.html", href.removeprefix(BASE))).is_file(), href
    links = {link.get("rel"): link.get("href") for link in feed.findall(f"{ATOM}link")}
    assert links["self"] == BASE + "feed.xml"


def test_site_feed_dates_come_from_the_data(built_site):
    feed = parse_feed(built_site.out / "feed.xml")
    by_family = {}
    for e in feed.findall(f"{ATOM}entry"):
        by_family.setdefault(e.find(f"{ATOM}category").get("term"), []).append(e.findtext(f"{ATOM}updated"))
    sweep = json.loads((built_site.root / "data/canonic/sweep.json").read_text(encoding="utf-8"))
    run = json.loads((built_site.root / "data/nextchapter/run.json").read_text(encoding="utf-8"))
    assert by_family["canonic"] == [sweep["sweep"]["frozen_at"]]
    assert by_family["nextchapter"] == [run["date"] + "T00:00:00Z"]
    chronicle = parse_feed(built_site.out / "chronicle/feed.xml")
    assert sorted(by_family["chronicle"]) == sorted(e.findtext(f"{ATOM}updated") for e in chronicle.findall(f"{ATOM}entry"))


def test_chronicles_own_feed_keeps_its_links_relative_to_itself(built_site):
    feed = parse_feed(built_site.out / "chronicle/feed.xml")
    for e in feed.findall(f"{ATOM}entry"):
        href = e.find(f"{ATOM}link").get("href")
        assert not href.startswith(("http:", "https:", "/")), href
        assert (built_site.out / resolve("chronicle/feed.xml", href)).is_file(), href


# --------------------------------------------------------------------------- other base URLs


def test_a_path_base_url_gives_no_canonical_links_and_no_sitemap(built_site, tmp_path):
    # One family: the base URL is in every page's context, so every family's pages render again.
    root = copy_site(tmp_path / "site", cache_from=built_site.root, families=["nextchapter"])
    set_base_url(root, "/bench/")
    out = tmp_path / "out"
    build(load_config(root), out)
    assert (out / "feed.xml").read_text(encoding="utf-8").count("<entry>") >= 1
    for rel in html_pages(out):
        assert 'rel="canonical"' not in (out / rel).read_text(encoding="utf-8"), rel
    assert not (out / "sitemap.xml").exists() and not (out / "robots.txt").exists()
    feed = ET.parse(out / "feed.xml").getroot()
    assert feed.get("{http://www.w3.org/XML/1998/namespace}base") == "./"
    for e in feed.findall(f"{ATOM}entry"):
        href = e.find(f"{ATOM}link").get("href")
        assert not href.startswith(("http:", "https:", "/")) and (out / resolve("feed.xml", href)).is_file(), href
    # the downloads page and SHA256SUMS do not depend on the base URL
    assert {resolve("downloads/index.html", h) for h, _, _ in downloads_page(out).rows} == set(expected_downloads(out))
    assert verify(out) == []


@pytest.mark.parametrize("bad", ["benchmarks.example.org/", "https://benchmarks.example.org", "ftp://benchmarks.example.org/",
                                 "//benchmarks.example.org/", "bench/", "https://benchmarks.example.org/?page=1"])
def test_a_bad_base_url_is_an_input_error_naming_the_setting(tmp_path, bad):
    (tmp_path / "pyproject.toml").write_text(f"[tool.sitegen]\nbase_url = {json.dumps(bad)}\n", encoding="utf-8")
    r = run_cli("build", "--root", str(tmp_path), "--out", str(tmp_path / "out"))
    assert r.returncode == 1, r.stderr
    assert "pyproject.toml $.tool.sitegen.base_url: expected an absolute http(s) URL or a path starting with '/'" in r.stderr
    assert json.dumps(bad) in r.stderr
    assert not (tmp_path / "out").exists()


# --------------------------------------------------------------------------- determinism and escaping


def test_a_second_build_writes_the_same_index_files_byte_for_byte(built_site, cached_site_copy, tmp_path):
    out = tmp_path / "out"
    build(load_config(cached_site_copy), out)
    for rel in ("feed.xml", "chronicle/feed.xml", "sitemap.xml", "robots.txt", "SHA256SUMS", "downloads/index.html"):
        assert (out / rel).read_bytes() == (built_site.out / rel).read_bytes(), rel


def test_untrusted_titles_stay_escaped_in_the_feed_and_the_downloads_page(built_site, tmp_path):
    # ChronicleBench alone: the site's title is in every page's context, so its pages render again.
    cached_site_copy = copy_site(tmp_path / "site", cache_from=built_site.root, families=["chronicle"])
    evil = '<script>alert(1)</script> & "quoted"'
    cfg = cached_site_copy / "pyproject.toml"
    text, n = re.subn(r'(?m)^title = .*$', f"title = {json.dumps(evil)}", cfg.read_text(encoding="utf-8"), count=1)
    assert n == 1
    cfg.write_text(text, encoding="utf-8")
    # a new entry of the log (a published one is recorded and cannot change)
    (cached_site_copy / "content/chronicle/amendments/C2.md").write_text(
        f"---\nid: C2\nkind: clarification\ntitle: {evil}\ndate: 2026-09-02\ntiming: post-scoring\ndirected_by: owner\n"
        "scope: reporting\n---\n\nA clarification.\n", encoding="utf-8")
    out = tmp_path / "out"
    build(load_config(cached_site_copy), out)

    feed = parse_feed(out / "feed.xml")
    assert feed.findtext(f"{ATOM}title") == f"Updates · {evil}"
    titles = [e.findtext(f"{ATOM}title") for e in feed.findall(f"{ATOM}entry")]
    assert f"ChronicleBench: C2: {evil}" in titles
    own = parse_feed(out / "chronicle/feed.xml")
    assert f"C2: {evil}" in [e.findtext(f"{ATOM}title") for e in own.findall(f"{ATOM}entry")]
    page = (out / "downloads/index.html").read_text(encoding="utf-8")
    assert "<script" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_a_site_of_more_pages_than_one_sitemap_may_list_gets_a_sitemap_index(monkeypatch):
    """At 1000x data the demo has 78,650 pages; one sitemap may list 50,000 URLs. Past the
    limit, sitemap.xml is the index of parts that list every page once, in order."""
    from sitegen import site_index

    monkeypatch.setattr(site_index, "SITEMAP_MAX_URLS", 3)
    pages = [f"p{i}/index.html" for i in range(7)]
    files = site_index.sitemaps(BASE, pages)
    assert sorted(files) == ["sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml", "sitemap.xml"]
    index = ET.fromstring(files["sitemap.xml"])
    assert index.tag == f"{SITEMAP_NS}sitemapindex"
    assert [s.findtext(f"{SITEMAP_NS}loc") for s in index] == [BASE + f"sitemap-{n}.xml" for n in (1, 2, 3)]
    listed = []
    for n in (1, 2, 3):
        part = ET.fromstring(files[f"sitemap-{n}.xml"])
        assert part.tag == f"{SITEMAP_NS}urlset" and len(part) <= 3
        listed += [u.findtext(f"{SITEMAP_NS}loc") for u in part]
    assert listed == sorted(BASE + f"p{i}/" for i in range(7))
    assert not any(site_index.is_download(name) for name in files)  # described with the site's other index files
    assert list(site_index.sitemaps(BASE, pages[:3])) == ["sitemap.xml"]  # within the limit: one file, as before


def test_a_downloads_path_wraps_at_its_parts_and_shows_its_characters_as_they_are():
    """On a phone a long path breaks after '/', '-' and '_' and before '.', never inside an
    escaped character, and a name with markup characters shows them as text."""
    shown = str(Download("raw/a&b/c-d_e.f<g>'.csv", 1, "0" * 64).path_html)
    assert shown == "raw/<wbr>a&amp;b/<wbr>c-<wbr>d_<wbr>e<wbr>.f&lt;g&gt;&#39;<wbr>.csv"
    assert str(Download(".x/", 1, "0" * 64).path_html) == "<wbr>.x/<wbr>"
