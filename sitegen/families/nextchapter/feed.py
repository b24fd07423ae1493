"""NextChapterBench in the site's feed: one entry for the run, dated by the run record's own
`date` (never the clock)."""

from __future__ import annotations

from html import escape

from sitegen.families import FeedEntry


def feed_entries(res) -> list[FeedEntry]:
    run = res.input.run
    variants = sum(len(m.variants) for m in run.models)
    html = (f"<p>Run <code>{escape(run.run)}</code> of {run.date}: {len(run.models)} models ({variants} effort settings) "
            f"continue {len(res.input.items)} public-domain novels, judged by {escape(run.judge.name)} against a frozen "
            f"reference chapter.</p>")
    return [FeedEntry(f"tag:nextchapterbench,{run.date}:run/{run.run}", f"Run {run.run} published", run.date, "nextchapter/", html)]
