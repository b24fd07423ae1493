"""The Atom feed of the amendment log and the cohort changelog (chronicle/feed.xml).

Dates come from the entries themselves, never from the clock, so the feed is byte-identical
across builds. Entry ids are tag URIs that do not depend on where the site is hosted.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

TAG = "tag:chroniclebench,2026:"


def _entry(entry_id: str, title: str, date: str, href: str, html: str) -> str:
    return (f"  <entry>\n    <id>{TAG}{escape(entry_id)}</id>\n    <title>{escape(title)}</title>\n"
            f"    <updated>{date}T00:00:00Z</updated>\n    <link rel=\"alternate\" href=\"{escape(href)}\"/>\n"
            f"    <content type=\"html\">{escape(html)}</content>\n  </entry>\n")


def atom_feed(res, log, bodies) -> bytes:
    c = res.input.cohort
    entries = [(a.meta.date, _entry(f"amendment/{a.meta.id}", f"{a.meta.id}: {a.meta.title}", a.meta.date,
                                    f"protocol/#{a.meta.id}", str(bodies[a.meta.id]))) for a in log]
    entries += [(k.date, _entry(f"cohort/{k.id}", f"Cohort {k.id}", k.date, f"cohorts/#{k.id}", f"<p>{escape(k.changelog)}</p>")) for k in c.cohorts]
    entries.sort(key=lambda e: e[0], reverse=True)
    updated = entries[0][0] if entries else c.protocol_frozen_on
    head = (f"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:base=\"./\">\n"
            f"  <id>{TAG}feed</id>\n  <title>{escape(c.benchmark.name)}: amendments and cohort changes</title>\n"
            f"  <updated>{updated}T00:00:00Z</updated>\n  <author><name>{escape(c.benchmark.name)} maintainers</name></author>\n"
            f"  <link rel=\"self\" href=\"feed.xml\"/>\n")
    return (head + "".join(e for _, e in entries) + "</feed>\n").encode("utf-8")
