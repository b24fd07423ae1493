"""The files that index the site, written after every other file so their bytes are known:

- feed.xml: one Atom feed of every family's dated events (each family's `Outputs.feed`);
- sitemap.xml and robots.txt, only when the base URL is absolute (a sitemap lists full URLs);
- SHA256SUMS: every download in `sha256sum` format, so `sha256sum -c SHA256SUMS` checks a copy;
- downloads/<family>.zip: every download of one family in one archive, deterministic;
- downloads/index.html: the same downloads by family, table and figure, with size and SHA-256.

Data flows one way: build.py hands over the outputs and the writer's record of what it wrote,
and this module only adds files. A download is every file a build writes except the pages
(.html), the stylesheet and other assets/, and the files that describe the others
(manifest.json, SHA256SUMS, sitemap.xml, robots.txt).
"""

from __future__ import annotations

import os
import re
import shutil
import uuid
import zipfile
from dataclasses import dataclass, replace
from typing import BinaryIO, Callable, Iterable
from urllib.parse import quote, urlsplit

from markupsafe import Markup
from markupsafe import escape as escape_html

from sitegen.atom import Category, FeedHead, atom_feed, escape
from sitegen.config import SiteConfig
from sitegen.families import Outputs, Page
from sitegen.load import sha256_bytes
from sitegen.numbers import display
from sitegen.publish import FIGURE_SUFFIXES, TABLE_SUFFIXES, Writer, json_bytes

DOWNLOADS_PAGE = "downloads/index.html"
NOT_FOUND_PAGE = "404.html"  # served by the host for an address with no file
SUMS_FILE = "SHA256SUMS"
FEED_FILE = "feed.xml"
SITEMAP_FILE = "sitemap.xml"
ROBOTS_FILE = "robots.txt"
RELEASES_FILE = "releases.json"  # sitegen.releases
_DESCRIBE_OTHERS = frozenset({"manifest.json", SUMS_FILE, SITEMAP_FILE, ROBOTS_FILE})
SITEMAP_MAX_URLS = 50_000  # the sitemaps.org limit for one file
SITEMAP_PART = re.compile(r"sitemap-[1-9][0-9]*\.xml")  # the parts of a sitemap too long for one file
_BREAKS = re.compile(r"(?<=[/_-])|(?=\.)")  # where a download's path may wrap (Download.path_html)


# --------------------------------------------------------------------------- URLs and the head


def page_url(path: str) -> str:
    """An output page's URL path from the site root, URL-escaped: an index.html page is its
    folder ("canonic/index.html" -> "canonic/", "index.html" -> "")."""
    if path == "index.html" or path.endswith("/index.html"):
        path = path.removesuffix("index.html")
    return quote(path)


def head_context(config: SiteConfig, outputs: dict[str, Outputs]) -> dict:
    """What base.html's <head> needs: the canonical base (None unless base_url is absolute),
    page_url() to add a page's path to it, and the site feed's path (every build has one: it
    announces its release, sitegen.releases)."""
    return {"canonical_base": config.absolute_base_url, "page_url": page_url, "feed": FEED_FILE}


# --------------------------------------------------------------------------- feed, sitemap, robots


def site_feed(config: SiteConfig, outputs: dict[str, Outputs], extra: Iterable[tuple] = ()) -> bytes | None:
    """Every family's entries in one feed, each titled and categorised by its family, and the
    EXTRA (entry, category) pairs of the site itself (its releases); None when there is no entry."""
    entries = []
    for fid, o in outputs.items():
        cat = Category(fid, o.summary.get("title", fid))
        entries += [(replace(e, title=f"{cat.label}: {e.title}"), cat) for e in o.feed]
    entries += [(replace(e, title=f"{cat.label}: {e.title}"), cat) for e, cat in extra]
    if not entries:
        return None
    base = config.absolute_base_url
    # The feed's id must not change between builds: its URL when the site has one, else a
    # name-based UUID of the site's title.
    feed_id = base + FEED_FILE if base else f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, 'sitegen-feed:' + config.title)}"
    head = FeedHead(feed_id, f"Updates · {config.title}", config.title, "")
    return atom_feed(head, entries, FEED_FILE, base)


def sitemaps(base: str, pages: list[str]) -> dict[str, bytes]:
    """sitemaps.org protocol: every page's URL, sorted; no <lastmod> (a build has no date of
    its own that is not the clock). One file, sitemap.xml, while the URLs fit the protocol's
    limit for one; past it, the sorted URLs go into sitemap-1.xml, sitemap-2.xml... of at most
    SITEMAP_MAX_URLS each, and sitemap.xml is the index of those parts (what robots.txt names
    either way). Output path -> bytes."""
    urls = sorted(base + page_url(p) for p in pages)
    if len(urls) <= SITEMAP_MAX_URLS:
        return {SITEMAP_FILE: _sitemap_file("urlset", "url", urls)}
    parts = {f"sitemap-{n}.xml": urls[i:i + SITEMAP_MAX_URLS] for n, i in enumerate(range(0, len(urls), SITEMAP_MAX_URLS), start=1)}
    return {SITEMAP_FILE: _sitemap_file("sitemapindex", "sitemap", [base + name for name in parts]),
            **{name: _sitemap_file("urlset", "url", part) for name, part in parts.items()}}


def _sitemap_file(root: str, item: str, urls: list[str]) -> bytes:
    lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", f"<{root} xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">",
             *(f"  <{item}><loc>{escape(u)}</loc></{item}>" for u in urls), f"</{root}>", ""]
    return "\n".join(lines).encode("utf-8")


def robots(base: str) -> bytes:
    return f"User-agent: *\nDisallow:\n\nSitemap: {base}{SITEMAP_FILE}\n".encode()


# --------------------------------------------------------------------------- downloads


@dataclass(frozen=True)
class Download:
    path: str
    size: int
    sha256: str

    @property
    def size_text(self) -> str:
        return human_size(self.size)

    @property
    def path_html(self) -> Markup:
        """The path with line-break opportunities after '/', '-' and '_' and before '.', so a
        long path wraps at its parts on a phone instead of squeezing the table. Escaped first,
        then broken: no escape sequence holds one of those characters, so the breaks fall where
        they would in the raw path, at one escape per path instead of one per part."""
        return Markup(_BREAKS.sub("<wbr>", str(escape_html(self.path))))


@dataclass(frozen=True)
class Group:
    """What a set of files is: a table, a figure, raw records, other files."""

    kind: str
    title: str
    files: tuple[Download, ...]


@dataclass(frozen=True)
class Section:
    """The downloads of one family, or of the site as a whole."""

    id: str
    title: str
    groups: tuple[Group, ...]

    @property
    def files(self) -> list[Download]:
        return [f for g in self.groups for f in g.files]

    @property
    def size(self) -> int:
        return sum(f.size for f in self.files)

    @property
    def kinds(self) -> list["Kind"]:
        """The groups by kind (archive, tables, figures, files, raw records), in their order."""
        by_kind: dict[str, list[Group]] = {}
        for g in self.groups:
            by_kind.setdefault(g.kind, []).append(g)
        return [Kind(kind, groups) for kind, groups in by_kind.items()]


@dataclass(frozen=True)
class Kind:
    """A section's groups of one kind, with their files counted once (a family at 1000x data
    has 78,000 tables: summing their files' tuples in the template took quadratic time)."""

    name: str
    groups: list[Group]

    @property
    def n_files(self) -> int:
        return sum(len(g.files) for g in self.groups)

    @property
    def size(self) -> int:
        return sum(f.size for g in self.groups for f in g.files)


def human_size(n: int) -> str:
    """Bytes in binary units, one decimal: "812 B", "12.3 KiB", "1.4 MiB"."""
    units = ("B", "KiB", "MiB", "GiB", "TiB")
    value, i = float(n), 0
    while value >= 1024 and i < len(units) - 1:
        value, i = value / 1024, i + 1
    return f"{n} B" if i == 0 else f"{display(value, 1)} {units[i]}"


def is_download(rel: str) -> bool:
    return not (rel.endswith(".html") or rel.startswith("assets/") or rel in _DESCRIBE_OTHERS or SITEMAP_PART.fullmatch(rel))


def _figure_title(fig) -> str:
    """Figures carry no title; the first sentence of their text alternative says what they show."""
    first = fig.alt.split(". ", 1)[0].rstrip(".")
    if len(first) > 90:
        first = first[:90].rsplit(" ", 1)[0] + "…"
    return first or fig.name


def archive_path(fid: str) -> str:
    return f"downloads/{fid}.zip"


# What makes an archive's bytes depend on its files alone: the earliest time a zip can hold, one
# file mode, one compression level, entries in path order.
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)
_ZIP_LEVEL = 3  # 0.09 s for the demo's three archives where 6 took 0.24 s, for 13% more bytes
_ZIP_PIECE = 1 << 20  # bytes of a member read at a time


def archive(out: BinaryIO, files: list[tuple[str, str]]) -> None:
    """A zip of (path, the file on disk that holds its bytes) written to OUT, under the paths
    the site publishes them at, so that unpacked beside SHA256SUMS it checks with `sha256sum -c
    --ignore-missing`. Each member is copied through in pieces: a raw record of hundreds of
    megabytes (the cells at 1000x data) is never held whole, nor is the family's every download."""
    with zipfile.ZipFile(out, "w") as zf:
        for rel, source in sorted(files, key=lambda f: f[0]):
            info = zipfile.ZipInfo(rel, date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            _set_level(info, _ZIP_LEVEL)
            info.create_system = 3  # Unix, so the mode below is read as one
            info.external_attr = 0o100644 << 16
            with open(source, "rb") as src:
                # the size before the bytes, as writestr sets it: it decides whether the member's
                # header is ZIP64, so the archive is the same bytes as one written whole
                info.file_size = os.fstat(src.fileno()).st_size
                with zf.open(info, "w") as dst:
                    shutil.copyfileobj(src, dst, _ZIP_PIECE)


def _set_level(info: zipfile.ZipInfo, level: int) -> None:
    """The member's compression level. ZipFile.open takes it from the ZipInfo only; the
    attribute is public from Python 3.13 (compress_level) and private before (_compresslevel)."""
    if hasattr(zipfile.ZipInfo, "compress_level"):
        info.compress_level = level
    else:
        info._compresslevel = level


def _family_groups(fid: str, o: Outputs) -> list[tuple[str, str, list[str]]]:
    groups = [("Archive", "every file below in one zip", [archive_path(fid)])]
    groups += [("Table", t.title, [t.stem + s for s in TABLE_SUFFIXES]) for t in sorted(o.tables, key=lambda t: t.stem)]
    groups += [("Figure", _figure_title(f), [f.name + s for s in FIGURE_SUFFIXES]) for f in sorted(o.figures, key=lambda f: f.name)]
    if o.files:
        groups.append(("Files", "feeds and other generated files", sorted(o.files)))
    if o.raw_files:
        groups.append(("Raw records", "the inputs every number is recomputed from", [f"raw/{r}" for r in sorted(o.raw_files)]))
    return groups


def downloads(outputs: dict[str, Outputs], hashes: dict[str, str], sizes: dict[str, int]) -> list[Section]:
    """Every download the writer holds, grouped by family (in the configured order) and then by
    table and figure. A file no family claims still appears, under the whole site."""
    present = {rel for rel in hashes if is_download(rel)}
    claimed: set[str] = set()

    def group(kind: str, title: str, paths: list[str]) -> Group | None:
        mine = [p for p in paths if p in present and p not in claimed]
        claimed.update(mine)
        return Group(kind, title, tuple(Download(p, sizes[p], hashes[p]) for p in mine)) if mine else None

    plan = [(f"dl-{fid}", o.summary.get("title", fid), _family_groups(fid, o)) for fid, o in outputs.items()]
    plan.append(("dl-site", "The whole site", [("Feed", "every benchmark's updates (Atom)", [FEED_FILE]),
                                               ("Releases", "every release of the site and what changed", [RELEASES_FILE])]))
    sections = []
    for sid, title, groups in plan:
        made = [g for g in (group(*spec) for spec in groups) if g]
        if sid == "dl-site" and present - claimed:
            made.append(group("Files", "other generated files", sorted(present - claimed)))
        if made:
            sections.append(Section(sid, title, tuple(made)))
    return sections


def _sums_line(d: Download) -> str:
    # GNU sha256sum's own escaping: a name with a backslash or newline gets a leading backslash
    if any(c in d.path for c in "\\\n\r"):
        name = d.path.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
        return f"\\{d.sha256}  {name}\n"
    return f"{d.sha256}  {d.path}\n"


def sha256sums(sections: list[Section]) -> bytes:
    files = sorted((f for s in sections for f in s.files), key=lambda f: f.path)
    return "".join(_sums_line(f) for f in files).encode("utf-8")


def downloads_page(sections: list[Section]) -> Page:
    files = [f for s in sections for f in s.files]
    total = sum(f.size for f in files)
    return Page(DOWNLOADS_PAGE, "downloads.html", "Downloads and checksums", {
        "sections": sections, "n_files": len(files), "total_bytes": total, "total_text": human_size(total),
        "sums_file": SUMS_FILE, "human_size": human_size,
    })


# --------------------------------------------------------------------------- the write stage


def write_index(writer: Writer, config: SiteConfig, outputs: dict[str, Outputs], pages: list[str],
                render_parts: Callable[[Page], Iterable[str]], code: str | None = None, feed_extra: Iterable[tuple] = ()) -> list[str]:
    """Write the feed, the sitemap and robots.txt, each family's archive, then SHA256SUMS and
    the downloads page from the bytes already written. `pages`: every HTML page written so far;
    `render_parts` renders a Page as the site's other pages are rendered, in consecutive parts
    of its text (render.render_parts): the downloads page lists every file, 64 MB at 1000x
    data, and is written part by part. Returns the pages it wrote. `code`: the
    generator's identity, with the build cache: an archive is made from it and its members'
    hashes, and taken from the output it replaces when that one was made from the same."""
    feed = site_feed(config, outputs, feed_extra)
    if feed is not None:
        writer.write(FEED_FILE, feed)
    base = config.absolute_base_url
    if base:
        for rel, data in sitemaps(base, sorted({*pages, DOWNLOADS_PAGE})).items():
            writer.write(rel, data)
        writer.write(ROBOTS_FILE, robots(base))
    by_id = {sec.id: sec for sec in downloads(outputs, writer.files, writer.sizes)}
    for fid in outputs:
        if (sec := by_id.get(f"dl-{fid}")) is not None:
            rel = archive_path(fid)
            key = sha256_bytes(json_bytes([code, [[f.path, f.sha256] for f in sec.files]])) if code else None
            if writer.take(rel, key, rel):
                continue
            members = [(f.path, f"{writer.staging}/{f.path}") for f in sec.files]
            writer.write_from(rel, lambda out, members=members: archive(out, members))
    sections = downloads(outputs, writer.files, writer.sizes)
    writer.write(SUMS_FILE, sha256sums(sections))
    writer.write_pieces(DOWNLOADS_PAGE, render_parts(downloads_page(sections)))
    writer.write_pieces(NOT_FOUND_PAGE, render_parts(not_found_page(config)))
    return [DOWNLOADS_PAGE, NOT_FOUND_PAGE]


def not_found_page(config: SiteConfig) -> Page:
    """The page a host serves for an address the site has no file at (Netlify and GitHub Pages
    serve /404.html): the site's navigation, its links from the site's root path, since it is
    served at whatever address was asked for; kept out of the sitemap and of search indexes."""
    return Page(NOT_FOUND_PAGE, "404.html", "Page not found", {"link_root": urlsplit(config.base_url).path, "noindex": True})
