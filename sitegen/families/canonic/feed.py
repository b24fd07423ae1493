"""Canonic in the site's feed: one entry for the sweep, dated when its design was frozen (the
sweep record's own `frozen_at`, never the clock)."""

from __future__ import annotations

from html import escape

from sitegen.families import FeedEntry


def feed_entries(res) -> list[FeedEntry]:
    s = res.sweep
    sweep = s.sweep
    names = ", ".join(d.name for d in s.domains)
    html = (f"<p>Sweep <code>{escape(sweep.id)}</code> of {sweep.date}: {len(s.models)} models on "
            f"{len(s.domains)} domains scored separately ({escape(names)}), {len(s.tasks)} tasks, two judges. "
            f"{res.rows_published} of {res.rows_total} model-domain rows met the publication gate; "
            f"{res.cells_counted:,} of {res.cells_total:,} cells counted.</p>")
    return [FeedEntry(f"tag:canonic,{sweep.date}:sweep/{sweep.id}", f"Sweep {sweep.id} frozen and published",
                      sweep.frozen_at, "canonic/", html)]
