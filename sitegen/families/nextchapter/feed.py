"""NextChapterBench in the site's feed: one entry for the run, dated by the run record's own
`date` (never the clock)."""

from __future__ import annotations

from html import escape

from sitegen.families import FeedEntry
from sitegen.families.nextchapter.sentences import SENTENCES


def feed_entries(res) -> list[FeedEntry]:
    run = res.input.run
    return [FeedEntry(f"tag:nextchapterbench,{run.date}:run/{run.run}", SENTENCES.feed_title(run), run.date, "nextchapter/",
                      f"<p>{escape(SENTENCES.feed_text(res))}</p>")]
