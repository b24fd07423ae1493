"""Figure 1: score and 95% interval for every published row, one panel per domain.

Each panel has its own ordering and its own intervals; no panel contributes to a total.
Withheld rows have no score, so they have no mark: the caption names them.
"""

from __future__ import annotations


def draw_figure_1(data: list[dict]) -> dict:
    import altair as alt  # late: ~0.5 s to import, paid only when the SVG is not cached

    panels = []
    domains = list(dict.fromkeys(d["domain"] for d in data))
    for domain in domains:
        rows = [d for d in data if d["domain"] == domain]
        order = [d["model"] for d in sorted(rows, key=lambda d: (-d["score"], d["model"]))]
        base = alt.Chart(alt.Data(values=rows)).encode(
            y=alt.Y("model:N", sort=order, title=None, axis=alt.Axis(labelLimit=150)),
        )
        scale = alt.Scale(domain=[0, 100])
        rule = base.mark_rule(strokeWidth=2, color="#4b6a88").encode(
            x=alt.X("low:Q", scale=scale, title="score (0-100), 95% interval"), x2="high:Q")
        point = base.mark_point(filled=True, size=40, color="#1d3557").encode(x=alt.X("score:Q", scale=scale))
        panels.append((rule + point).properties(title=domain, width=230, height=alt.Step(14)))
    chart = alt.concat(*panels, columns=2).properties(
        title=alt.TitleParams("Figure 1. Score by domain with 95% bootstrap intervals (synthetic demo data)" if data and data[0].get("synthetic") else "Figure 1. Score by domain with 95% bootstrap intervals", anchor="start"),
    ).configure_view(stroke=None).configure(font="sans-serif")
    return chart.to_dict()
