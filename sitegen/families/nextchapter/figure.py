"""NextChapterBench's figures: the standings' craft and compliance, each headline setting with
its standard error; and the generation-noise figure: the reference model's first draft of each
item (the frozen reference chapter) and its second (its own entry), as read in the same call,
joined, so the spread a redraft alone causes is seen."""

from __future__ import annotations

from sitegen.interval_chart import interval_chart
from sitegen.names import label_expr

# Each with at least 3:1 contrast on the light and on the dark page (see canonic/figure.py).
LINE = "#7b8794"
DRAFTS = ["#0077bb", "#d4670f"]


def draw_generation_noise(data: list[dict]) -> dict:
    import altair as alt  # late: only when the SVG is not cached

    # Rows keyed by item id, labelled with the item's novel.
    items = {d["item_id"]: d["item"] for d in data}
    base = alt.Chart(alt.NamedData(name="rows")).encode(
        y=alt.Y("item_id:N", scale=alt.Scale(domain=list(items)), title=None, axis=alt.Axis(labelLimit=0, labelExpr=label_expr(items))),
    )
    line = base.mark_line(color=LINE).encode(x=alt.X("craft:Q", title="craft (0-100)", scale=alt.Scale(zero=False)), detail="item_id:N")
    # Opaque: Vega-Lite's default 0.7 would blend the colour into the background and lose its contrast.
    points = base.mark_point(filled=True, size=60, opacity=1).encode(
        x="craft:Q", color=alt.Color("draft:N", title=None, scale=alt.Scale(range=DRAFTS), legend=alt.Legend(orient="bottom")),
        shape=alt.Shape("draft:N", legend=None))
    chart = (line + points).properties(width=380, height=alt.Step(22)).configure_view(stroke=None)
    spec = chart.to_dict(validate=False)  # validated by the tests, not per build (sitegen/interval_chart.py says why)
    spec["datasets"] = {"rows": data}
    return spec


def draw_craft(data: list[dict]) -> dict:
    """The standings' headline settings in the table's order: craft and craft ± its standard
    error (the band the ranks are read from), the rank range at the right."""
    return interval_chart(data, id_field="model", label_field="label", value="craft", low="craft_low", high="craft_high",
                          measure="craft (0-100) ± one standard error", bounds=(0, 100))


def draw_compliance(data: list[dict]) -> dict:
    """The same rows' compliance and compliance ± its standard error (not ranked)."""
    return interval_chart(data, id_field="model", label_field="label", value="compliance", low="compliance_low",
                          high="compliance_high", measure="compliance (0-100) ± one standard error", bounds=(0, 100), ranked=False)
