"""ChronicleBench's figures: each board's rows with their intervals, and each scoring board's
entrants placed against the human reference band (every v1.1 novel a point, its median and
interquartile range drawn, and the range shaded across the entrants' rows)."""

from __future__ import annotations

import math

from sitegen.interval_chart import (FONT_SIZE, INTERVAL, POINT, ROW_STEP, axis_title, fitted_axis, interval_chart, layered_spec,
                                    quantitative, value_axis)
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
    "entrant" (the board's ranked rows, in its order, with their intervals). Written as the
    Vega-Lite JSON itself, as the board chart is (sitegen/interval_chart.py says why)."""
    band = next(d for d in data if d["kind"] == "band")
    entrants = [d for d in data if d["kind"] == "entrant"]
    novels = [d for d in data if d["kind"] == "novel"]
    order = [HUMAN_ROW, *(d["id"] for d in entrants)]
    labels = {HUMAN_ROW: band["name"], **{d["id"]: d["name"] for d in entrants}}
    values = [d["score"] for d in novels + entrants]
    domain, ticks = fitted_axis([*values, *(d["low"] for d in entrants)], [*values, *(d["high"] for d in entrants)], (0, 100))

    def x(field: str, **more) -> dict:
        return quantitative(field, domain, **more)

    y = {"axis": {"domain": False, "labelExpr": label_expr(labels), "labelFontSize": FONT_SIZE, "labelLimit": 0, "ticks": False},
         "field": "row", "scale": {"domain": list(order)}, "title": None, "type": "nominal"}

    def kind(name: str) -> list:
        return [{"filter": f"datum.kind == '{name}'"}]

    # The interquartile range, shaded over every row: each entrant is read against it.
    shade = {"mark": {"type": "rect", "color": BAND_FILL, "opacity": BAND_OPACITY}, "transform": kind("band"),
             "encoding": {"x": x("low", axis=value_axis(ticks), title=axis_title("score (0-100)", domain, (0, 100))),
                          "x2": {"field": "high"}}}
    novel = {"mark": {"type": "point", "color": NOVEL, "opacity": 1, "size": 50, "strokeWidth": 1.5}, "transform": kind("novel"),
             "encoding": {"x": x("score"), "y": y}}
    median = {"mark": {"type": "tick", "color": MEDIAN, "size": ROW_STEP - 4, "thickness": 3}, "transform": kind("band"),
              "encoding": {"x": x("score"), "y": y}}
    rule = {"mark": {"type": "rule", "color": INTERVAL, "strokeWidth": 2.5}, "transform": kind("entrant"),
            "encoding": {"x": x("low"), "x2": {"field": "high"}, "y": y}}
    point = {"mark": {"type": "point", "color": POINT, "filled": True, "opacity": 1, "size": 60}, "transform": kind("entrant"),
             "encoding": {"x": x("score"), "y": y}}
    return layered_spec([shade, novel, median, rule, point],
                        [{**d, "row": HUMAN_ROW if d["kind"] != "entrant" else d["id"]} for d in data])
