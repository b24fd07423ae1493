"""Atom feeds (RFC 4287) written from FeedEntry lists: the site's feed.xml and a family's own.

Dates come from the entries, never from the clock, so a feed is byte-identical across builds.
Entries are sorted newest first; entries of one date keep the order they were given in (a
family's own order, such as its amendment log's). Links are absolute when the site has an absolute
base URL (a feed reader fetches the feed on its own, far from any page); otherwise they are
relative to the feed's own location, and xml:base="./" tells readers to resolve them there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import quote

from sitegen.render import relative_url

if TYPE_CHECKING:  # families import this module while the registry loads
    from sitegen.families import FeedEntry

# Characters XML 1.0 forbids even when escaped (C0 controls but tab, LF and CR; lone surrogates;
# U+FFFE/U+FFFF). One in an amendment body would make a reader reject the whole feed, so each
# becomes U+FFFD, the replacement character, visible and harmless.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def escape(text: str, entities: dict[str, str] | None = None) -> str:
    return _xml_escape(_NOT_XML.sub("\ufffd", text), entities or {})


def _xml_escape(text: str, entities: dict[str, str]) -> str:
    """xml.sax.saxutils.escape, whose module imports urllib.request (and with it http.client,
    email and ssl: 20 ms of every build's start)."""
    text = text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")
    for char, entity in entities.items():
        text = text.replace(char, entity)
    return text


_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_UTC_TIME = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$")


@dataclass(frozen=True)
class FeedHead:
    id: str
    title: str
    author: str
    home: str  # the page the feed belongs to, as an output path ("" for the site home)


@dataclass(frozen=True)
class Category:
    """Which part of the site an entry comes from (the family, in the site's feed)."""

    term: str
    label: str


def timestamp(value: str) -> str:
    """An entry's date as an Atom date-time: a bare date is midnight UTC."""
    if _DATE.match(value):
        return f"{value}T00:00:00Z"
    if _UTC_TIME.match(value):
        return value
    raise ValueError(f"a feed date must be YYYY-MM-DD or a UTC date-time ending in Z, got {value!r}")


def _instant(value: str) -> tuple[str, str]:
    """A sort key that orders fractional seconds numerically ("…:31Z" before "…:31.5Z")."""
    m = _UTC_TIME.match(timestamp(value))
    return m.group(1), (m.group(2) or "").ljust(9, "0")


def url(target: str, at: str, base_url: str | None) -> str:
    """An output path as a feed links to it ("" is the site's home): absolute under an absolute
    base URL, else relative to the feed at output path `at`."""
    if base_url is None:
        return relative_url(target, at) if target else "../" * at.count("/") or "./"
    path, _, frag = target.partition("#")
    return base_url + quote(path) + (f"#{quote(frag)}" if frag else "")


def _attr(value: str) -> str:
    return escape(value, {'"': "&quot;"})


def _entry(e: FeedEntry, category: Category | None, at: str, base_url: str | None) -> str:
    cat = f"    <category term=\"{_attr(category.term)}\" label=\"{_attr(category.label)}\"/>\n" if category else ""
    return (f"  <entry>\n    <id>{escape(e.id)}</id>\n    <title>{escape(e.title)}</title>\n"
            f"    <updated>{timestamp(e.updated)}</updated>\n"
            f"    <link rel=\"alternate\" href=\"{_attr(url(e.href, at, base_url))}\"/>\n{cat}"
            f"    <content type=\"html\">{escape(e.html)}</content>\n  </entry>\n")


def atom_feed(head: FeedHead, entries: list[tuple[FeedEntry, Category | None]], at: str,
              base_url: str | None = None, empty_updated: str | None = None) -> bytes:
    """The feed written at output path `at`. `empty_updated` dates a feed with no entries (a
    feed needs an <updated>; the clock may not provide it)."""
    ordered = sorted(entries, key=lambda ec: _instant(ec[0].updated), reverse=True)  # stable
    if not ordered and empty_updated is None:
        raise ValueError(f"{at}: a feed with no entries needs a date from the data")
    updated = timestamp(ordered[0][0].updated if ordered else empty_updated)
    xml_base = "" if base_url else " xml:base=\"./\""
    self_href = url(at, at, base_url) if base_url else at.rsplit("/", 1)[-1]
    parts = [
        f"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\"{xml_base}>\n",
        f"  <id>{escape(head.id)}</id>\n  <title>{escape(head.title)}</title>\n  <updated>{updated}</updated>\n",
        f"  <author><name>{escape(head.author)}</name></author>\n",
        f"  <link rel=\"self\" href=\"{_attr(self_href)}\"/>\n",
        f"  <link rel=\"alternate\" type=\"text/html\" href=\"{_attr(url(head.home, at, base_url))}\"/>\n",
        *(_entry(e, cat, at, base_url) for e, cat in ordered),
        "</feed>\n",
    ]
    return "".join(parts).encode("utf-8")
