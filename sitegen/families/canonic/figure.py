"""Figure 1: score and 95% interval for every published row, one panel per domain.

Each panel is its own SVG with its own ordering and intervals: the Canonic home shows the
six together as Figure 1 and each board shows its own. No panel contributes to a total.
Withheld rows have no score, so they have no mark; the caption names them.
"""

from __future__ import annotations

from sitegen.names import label_expr
from sitegen.numbers import display

# Labels are never truncated: a model's name is shown whole, and Vega measures every label to
# truncate it otherwise, which halves the time of a figure with a thousand rows.
NO_LABEL_LIMIT = 0

# Data-mark colours, each with at least 3:1 contrast on the light page (white) and on the dark
# one (#0f1419): the inline SVGs follow the reader's colour scheme (assets/site.css), the marks
# keep these colours in both.
POINT = "#0077bb"
INTERVAL = "#7b8794"
# One hue per exclusion reason (in REASONS order), told apart by hue, not only by lightness.
REASON_COLOURS = ["#0077bb", "#d4670f", "#aa4499", "#009988", "#8f7f00"]
# A cell label is black or white, whichever reads better on its cell (WCAG relative luminance:
# both reach 4.5:1 where the cell's luminance is 0.179).
LABEL_ON_CELL = "luminance(scale('color', datum.score)) < 0.179"


def draw_domain_panel(data: list[dict]) -> dict:
    """A Vega-Lite spec: one row per published model, point = score, rule = 95% interval.
    Rows are keyed by model id and labelled with the model's name."""
    import altair as alt  # late: ~0.5 s to import, paid only when the SVG is not cached

    title = data[0]["domain"] if data else ""
    order = [d["model_id"] for d in sorted(data, key=lambda d: (-d["score"], d["model"], d["model_id"]))]
    scale = alt.Scale(domain=[0, 100])
    # The rows go in as a named dataset after the spec is validated: Altair's schema check
    # costs time in proportion to inline data, and the data is ours, not the spec's.
    base = alt.Chart(alt.NamedData(name="rows")).encode(
        y=alt.Y("model_id:N", sort=order, title=None,
                axis=alt.Axis(labelLimit=NO_LABEL_LIMIT, labelExpr=label_expr({d["model_id"]: d["model"] for d in data}))),
    )
    rule = base.mark_rule(strokeWidth=2, color=INTERVAL).encode(
        x=alt.X("low:Q", scale=scale, title="score (0-100) with 95% interval"), x2="high:Q")
    # Opaque: Vega-Lite's default 0.7 would blend the colour into the background and lose its contrast.
    point = base.mark_point(filled=True, size=40, color=POINT, opacity=1).encode(x=alt.X("score:Q", scale=scale))
    chart = (rule + point).properties(
        title=alt.TitleParams(title, anchor="start"), width=260, height=alt.Step(16),
    ).configure_view(stroke=None).configure(font="sans-serif")
    spec = chart.to_dict()
    spec["datasets"] = {"rows": [{k: d[k] for k in ("model_id", "score", "low", "high")} for d in data]}
    return spec


def draw_exclusions(data: list[dict]) -> dict:
    """Figure 2: excluded cells, stacked by reason, one bar per group (domain or model), keyed
    by the group's id and labelled with its name."""
    import altair as alt

    labels = {d["group_id"]: d["group"] for d in data}
    groups = list(labels)
    reasons = list(dict.fromkeys(d["reason"] for d in data))
    # Zero-width segments draw nothing but cost layout time; the explicit y domain keeps every
    # group on the axis, including one with no exclusion at all.
    data = [d for d in data if d["cells"] > 0]
    # A white gap between stacked segments keeps neighbouring reasons apart (dark mode redraws it
    # in the page's background).
    chart = alt.Chart(alt.NamedData(name="rows")).mark_bar(stroke="white", strokeWidth=1).encode(
        y=alt.Y("group_id:N", sort=groups, title=None, scale=alt.Scale(domain=groups),
                axis=alt.Axis(labelLimit=NO_LABEL_LIMIT, labelExpr=label_expr(labels))),
        x=alt.X("cells:Q", title="excluded cells", axis=alt.Axis(tickMinStep=1)),
        color=alt.Color("reason:N", sort=reasons, title="reason",
                        scale=alt.Scale(domain=reasons, range=REASON_COLOURS[:len(reasons)]), legend=alt.Legend(orient="bottom", columns=3)),
        order=alt.Order("order:Q"),
    ).properties(width=320, height=alt.Step(18)).configure_view(stroke=None).configure(font="sans-serif")
    spec = chart.to_dict()
    spec["datasets"] = {"rows": data}
    return spec


TRANSFER_LABEL_ROWS = 60  # a score written in every cell reads up to here, and costs a text mark each


def draw_transfer(data: list[dict]) -> dict:
    """Figure 3: sitcom score per show per model, a heatmap with the score written in each cell.
    Columns and rows are keyed by the show's and the model's id, labelled with their names."""
    import altair as alt

    models = {d["model_id"]: d["model"] for d in data}
    shows = {d["show_id"]: d["show"] for d in data}
    base = alt.Chart(alt.NamedData(name="rows")).encode(
        x=alt.X("show_id:N", sort=list(shows), title=None,
                axis=alt.Axis(labelAngle=0, labelLimit=120, orient="top", labelExpr=label_expr(shows))),
        y=alt.Y("model_id:N", sort=list(models), title=None, axis=alt.Axis(labelLimit=NO_LABEL_LIMIT, labelExpr=label_expr(models))),
    )
    rect = base.mark_rect().encode(color=alt.Color("score:Q", scale=alt.Scale(scheme="blues", domain=[0, 100]), title="score"))
    layers = rect
    if len(models) <= TRANSFER_LABEL_ROWS:  # past this, the numbers are in the data table instead
        layers = rect + base.mark_text(fontSize=11).encode(
            text=alt.Text("label:N"),
            color=alt.condition(LABEL_ON_CELL, alt.value("white"), alt.value("black")),
        )
    chart = layers.properties(width=alt.Step(110), height=alt.Step(20)).configure_view(stroke=None).configure(font="sans-serif")
    spec = chart.to_dict()
    # The score written in a cell is rounded by the site's rule, not by Vega's number format.
    spec["datasets"] = {"rows": [{**d, "label": display(d["score"], 1)} for d in data]}
    return spec
