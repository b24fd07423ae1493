"""The pairwise unit's figures: the board (the shared interval chart, on the rating's open
scale) and the win-rate matrix (a heatmap: a row's model against a column's, its share of the
judgments between them won, a tie half, written in each cell with the number of judgments)."""

from __future__ import annotations

from sitegen.interval_chart import interval_chart
from sitegen.names import label_expr
from sitegen.numbers import display

LABEL_ON_CELL = "luminance(scale('color', datum.win_rate)) < 0.179"  # white text on a dark cell (as Canonic's heatmap)
LABEL_ROWS = 30  # past this many models a cell is too small to hold its numbers: the table has them


def draw_board(data: list[dict]) -> dict:
    """One row per rated model in the board's order: point = rating, line = 95% interval, the
    rank range at the right. Rows keyed by model id, labelled by name."""
    return interval_chart(data, id_field="model", label_field="name", value="rating", low="low", high="high",
                          measure="rating (95% interval)", bounds=None)


def draw_matrix(data: list[dict]) -> dict:
    """Rows and columns keyed by model id in the board's order, labelled by name; a cell per
    pair compared, coloured by the row model's win rate against the column's (0 to 1)."""
    import altair as alt

    rows = {d["model"]: d["name"] for d in data}
    cols = {d["opponent"]: d["opponent_name"] for d in data}
    order = list(dict.fromkeys([*rows, *cols]))
    names = {**rows, **cols}
    base = alt.Chart(alt.NamedData(name="rows")).encode(
        x=alt.X("opponent:N", scale=alt.Scale(domain=order), title="against",
                axis=alt.Axis(labelAngle=-45, labelLimit=160, orient="top", labelExpr=label_expr(names))),
        y=alt.Y("model:N", scale=alt.Scale(domain=order), title=None, axis=alt.Axis(labelLimit=0, labelExpr=label_expr(names))),
    )
    rect = base.mark_rect().encode(color=alt.Color("win_rate:Q", scale=alt.Scale(scheme="blueorange", domain=[0, 1], reverse=True),
                                                   title="win rate"))
    layers = rect
    if len(order) <= LABEL_ROWS:
        layers = rect + base.mark_text(fontSize=10).encode(
            text=alt.Text("label:N"), color=alt.condition(LABEL_ON_CELL, alt.value("white"), alt.value("black")))
    chart = layers.properties(width=alt.Step(56), height=alt.Step(30)).configure_view(stroke=None)
    spec = chart.to_dict(validate=False)
    # the rate written in a cell is rounded by the site's rule, with its judgments under it
    spec["datasets"] = {"rows": [{**d, "label": f"{display(d['win_rate'], 2)} ({d['judgments']})"} for d in data]}
    return spec
