"""ChronicleBench's figures: each board's rows with their intervals, and each scoring board's
entrants placed against the human reference band (every v1.1 novel a point, its median and
interquartile range drawn, and the range shaded across the entrants' rows)."""

from __future__ import annotations

import math

from sitegen.interval_chart import FONT_SIZE, INTERVAL, POINT, ROW_STEP, WIDTH, fitted_axis, axis_title, interval_chart
from sitegen.names import label_expr

# Each with at least 3:1 contrast on the light and on the dark page (see sitegen/interval_chart.py).
NOVEL = "#d4670f"
BAND_FILL = "#d4670f"
BAND_OPACITY = 0.14
HUMAN_ROW = " human band"  # the reference row's id: entrant ids are slugs, which hold no space
MEDIAN = "#aa4499"


def draw_score_board(data: list[dict]) -> dict:
    return interval_chart(data, id_field="entrant", label_field="name", value="score", low="ci_low", high="ci_high",
                          measure="score (0-100) with 95% interval", bounds=(0, 100))


def draw_length_board(data: list[dict]) -> dict:
    return interval_chart(data, id_field="entrant", label_field="name", value="median_words", low="median_low", high="median_high",
                          measure="median voluntary length in words, with 95% interval", bounds=(0, math.inf))


def draw_reference(data: list[dict]) -> dict:
    """Rows: kind "novel" (one per v1.1 novel), "band" (median, q1 and q3 of those novels) and
    "entrant" (the board's ranked rows, in its order, with their intervals)."""
    import altair as alt  # late: only when the SVG is not cached

    band = next(d for d in data if d["kind"] == "band")
    entrants = [d for d in data if d["kind"] == "entrant"]
    novels = [d for d in data if d["kind"] == "novel"]
    order = [HUMAN_ROW, *(d["id"] for d in entrants)]
    labels = {HUMAN_ROW: band["name"], **{d["id"]: d["name"] for d in entrants}}
    values = [d["score"] for d in novels + entrants]
    domain, ticks = fitted_axis([*values, *(d["low"] for d in entrants)], [*values, *(d["high"] for d in entrants)], (0, 100))
    scale = alt.Scale(domain=list(domain), zero=False, nice=False)
    x_axis = alt.Axis(values=ticks, labelFontSize=FONT_SIZE, titleFontSize=FONT_SIZE, titleFontWeight="normal", grid=True)
    y = alt.Y("row:N", sort=order, scale=alt.Scale(domain=order), title=None,
              axis=alt.Axis(labelLimit=0, labelExpr=label_expr(labels), labelFontSize=FONT_SIZE, ticks=False, domain=False))
    src = alt.Chart(alt.NamedData(name="rows"))
    # The interquartile range, shaded over every row: each entrant is read against it.
    shade = src.transform_filter("datum.kind == 'band'").mark_rect(color=BAND_FILL, opacity=BAND_OPACITY).encode(
        x=alt.X("low:Q", scale=scale, title=axis_title("score (0-100)", domain, (0, 100)), axis=x_axis), x2="high:Q")
    novel = src.transform_filter("datum.kind == 'novel'").mark_point(color=NOVEL, size=50, strokeWidth=1.5, opacity=1).encode(
        x=alt.X("score:Q", scale=scale), y=y)
    median = src.transform_filter("datum.kind == 'band'").mark_tick(color=MEDIAN, thickness=3, size=ROW_STEP - 4).encode(
        x=alt.X("score:Q", scale=scale), y=y)
    rule = src.transform_filter("datum.kind == 'entrant'").mark_rule(strokeWidth=2.5, color=INTERVAL).encode(
        x=alt.X("low:Q", scale=scale), x2="high:Q", y=y)
    point = src.transform_filter("datum.kind == 'entrant'").mark_point(filled=True, size=60, color=POINT, opacity=1).encode(
        x=alt.X("score:Q", scale=scale), y=y)
    chart = alt.layer(shade, novel, median, rule, point).properties(
        width=WIDTH, height=alt.Step(ROW_STEP), autosize=alt.AutoSizeParams(type="fit-x", contains="padding"),
    ).configure_view(stroke=None).configure(font="sans-serif")
    spec = chart.to_dict(validate=False)  # validated by the tests, not per build (sitegen/interval_chart.py says why)
    spec["datasets"] = {"rows": [{**d, "row": HUMAN_ROW if d["kind"] != "entrant" else d["id"]} for d in data]}
    return spec
