"""Canonic in the site's feed: one entry for the sweep, dated when its design was frozen (the
sweep record's own `frozen_at`, never the clock)."""

from __future__ import annotations

from html import escape

from sitegen.families import FeedEntry
from sitegen.families.canonic.sentences import SENTENCES


def feed_entries(res) -> list[FeedEntry]:
    sweep = res.sweep.sweep
    return [FeedEntry(f"tag:canonic,{sweep.date}:sweep/{sweep.id}", SENTENCES.feed_title(sweep),
                      sweep.frozen_at, "canonic/", f"<p>{escape(SENTENCES.feed_text(res))}</p>")]
