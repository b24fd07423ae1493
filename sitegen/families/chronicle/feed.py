"""ChronicleBench in the feeds: each amendment and each cohort change is a dated entry, in the
site's feed.xml and in its own chronicle/feed.xml.

Dates come from the entries themselves, never from the clock, so the feed is byte-identical
across builds. Entry ids are tag URIs that do not depend on where the site is hosted.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from sitegen.atom import FeedHead, atom_feed
from sitegen.families import FeedEntry
from sitegen.families.chronicle.sentences import SENTENCES

TAG = "tag:chroniclebench,2026:"
FEED_PATH = "chronicle/feed.xml"


def feed_entries(res, log, bodies) -> list[FeedEntry]:
    """The amendment log (bodies: each amendment's rendered markdown) and the cohort changelog."""
    entries = [FeedEntry(f"{TAG}amendment/{a.meta.id}", f"{a.meta.id}: {a.meta.title}", a.meta.date,
                         f"chronicle/protocol/#{a.meta.id}", str(bodies[a.meta.id])) for a in log]
    entries += [FeedEntry(f"{TAG}cohort/{k.id}", SENTENCES.cohort_title(k), k.date, f"chronicle/cohorts/#{k.id}",
                          f"<p>{escape(k.changelog)}</p>") for k in res.input.cohort.cohorts]
    return entries


def atom_bytes(res, entries: list[FeedEntry]) -> bytes:
    """chronicle/feed.xml: links relative to itself, since a family does not know the base URL."""
    c = res.input.cohort
    head = FeedHead(f"{TAG}feed", SENTENCES.feed_title(c.benchmark.name), SENTENCES.feed_author(c.benchmark.name), "chronicle/")
    return atom_feed(head, [(e, None) for e in entries], FEED_PATH, empty_updated=c.protocol_frozen_on)
