"""Figure 1: score and 95% interval for every published row, one panel per domain.

Each panel is its own SVG with its own ordering and intervals: the Canonic home shows the
six together as Figure 1 and each board shows its own. No panel contributes to a total.
Withheld rows have no score, so they have no mark; the caption names them.
"""

from __future__ import annotations

from sitegen.interval_chart import interval_chart
from sitegen.names import label_expr
from sitegen.numbers import display

# Labels are never truncated: a model's name is shown whole, and Vega measures every label to
# truncate it otherwise, which halves the time of a figure with a thousand rows.
NO_LABEL_LIMIT = 0

# Data-mark colours, each with at least 3:1 contrast on the light page (white) and on the dark
# one (#0f1419): the inline SVGs follow the reader's colour scheme (assets/site.css), the marks
# keep these colours in both.
# One hue per exclusion reason (in REASONS order), told apart by hue, not only by lightness.
REASON_COLOURS = ["#0077bb", "#d4670f", "#aa4499", "#009988", "#8f7f00"]
# A cell label is black or white, whichever reads better on its cell (WCAG relative luminance:
# both reach 4.5:1 where the cell's luminance is 0.179).
LABEL_ON_CELL = "luminance(scale('color', datum.score)) < 0.179"


def draw_domain_panel(data: list[dict]) -> dict:
    """A Vega-Lite spec: one row per published model in the board's order, point = score, line =
    95% interval, the rank range at the right and the rows tied for first shaded. Rows are keyed
    by model id and labelled with the model's name."""
    return interval_chart(data, id_field="model_id", label_field="model", value="score", low="low", high="high",
                          measure="score (0-100) with 95% interval", bounds=(0, 100), title=data[0]["domain"] if data else None)


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
        y=alt.Y("group_id:N", title=None, scale=alt.Scale(domain=groups),  # the order: never a sort array (interval_chart.py)
                axis=alt.Axis(labelLimit=NO_LABEL_LIMIT, labelExpr=label_expr(labels))),
        x=alt.X("cells:Q", title="excluded cells", axis=alt.Axis(tickMinStep=1)),
        color=alt.Color("reason:N", sort=reasons, title="reason",
                        scale=alt.Scale(domain=reasons, range=REASON_COLOURS[:len(reasons)]), legend=alt.Legend(orient="bottom", columns=3)),
        order=alt.Order("order:Q"),
    ).properties(width=320, height=alt.Step(18)).configure_view(stroke=None)
    spec = chart.to_dict(validate=False)  # validated by the tests, not per build (sitegen/interval_chart.py says why)
    spec["datasets"] = {"rows": data}
    return spec


VERDICT_COLOURS = ["#0077bb", "#d4670f"]  # caught, not caught: told apart by shape too


def draw_probes(data: list[dict]) -> dict:
    """Figure 2c: every reward-hacking probe, its score (mean of the two judges) as a point and
    its frozen maximum as a tick; caught when the point sits at or left of the tick. Rows are
    keyed by the probe's id and labelled with it."""
    import altair as alt

    labels = {d["probe_id"]: d["probe"] for d in data}
    verdicts = list(dict.fromkeys(d["verdict"] for d in sorted(data, key=lambda d: not d["caught"])))
    y = alt.Y("probe_id:N", scale=alt.Scale(domain=list(labels)), title=None, axis=alt.Axis(labelLimit=NO_LABEL_LIMIT, labelExpr=label_expr(labels)))
    base = alt.Chart(alt.NamedData(name="rows"))
    limit = base.mark_tick(thickness=2, size=16, color="#6b6b6b").encode(y=y, x=alt.X("max_score:Q", title="score (0-100); tick = maximum",
                                                                                      scale=alt.Scale(domain=[0, 100])))
    score = base.mark_point(size=80, filled=True).encode(
        y=y, x=alt.X("score:Q"),
        color=alt.Color("verdict:N", sort=verdicts, title=None, scale=alt.Scale(domain=verdicts, range=VERDICT_COLOURS[:len(verdicts)]),
                        legend=alt.Legend(orient="bottom")),
        shape=alt.Shape("verdict:N", sort=verdicts, title=None, scale=alt.Scale(domain=verdicts, range=["circle", "cross"][:len(verdicts)])),
    )
    chart = (limit + score).properties(width=320, height=alt.Step(22)).configure_view(stroke=None)
    spec = chart.to_dict(validate=False)  # validated by the tests, not per build (sitegen/interval_chart.py says why)
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
        x=alt.X("show_id:N", scale=alt.Scale(domain=list(shows)), title=None,
                axis=alt.Axis(labelAngle=0, labelLimit=120, orient="top", labelExpr=label_expr(shows))),
        y=alt.Y("model_id:N", scale=alt.Scale(domain=list(models)), title=None, axis=alt.Axis(labelLimit=NO_LABEL_LIMIT, labelExpr=label_expr(models))),
    )
    rect = base.mark_rect().encode(color=alt.Color("score:Q", scale=alt.Scale(scheme="blues", domain=[0, 100]), title="score"))
    layers = rect
    if len(models) <= TRANSFER_LABEL_ROWS:  # past this, the numbers are in the data table instead
        layers = rect + base.mark_text(fontSize=11).encode(
            text=alt.Text("label:N"),
            color=alt.condition(LABEL_ON_CELL, alt.value("white"), alt.value("black")),
        )
    chart = layers.properties(width=alt.Step(110), height=alt.Step(20)).configure_view(stroke=None)
    spec = chart.to_dict(validate=False)  # validated by the tests, not per build (sitegen/interval_chart.py says why)
    # The score written in a cell is rounded by the site's rule, not by Vega's number format.
    spec["datasets"] = {"rows": [{**d, "label": display(d["score"], 1)} for d in data]}
    return spec
