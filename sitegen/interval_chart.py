"""The ranked-board figure every family draws: one row per ranked entry, in the table's order,
a point for its value and a line for its interval, the rank range written at the right, and
the rows that may rank first (rank range starting at 1) shaded.

Drawn at the page column's width with the axis fitted to the data, not to the scale's full
range: on a 0-100 axis, boards whose values sit between 55 and 85 draw whiskers a few pixels
long. The fitted range is stated in the axis title, so no reader takes the left edge for zero.
"""

from __future__ import annotations

import math
from typing import Sequence

from sitegen.names import label_expr
from sitegen.numbers import display

# The page column is 60rem (960 px); the figure fills it, labels included, and scales down on
# narrower screens (assets/site.css keeps it legible on a phone by letting it scroll instead).
WIDTH = 900
ROW_STEP = 24
FONT_SIZE = 14
# Each with at least 3:1 contrast on the light page (white) and on the dark one (#0f1419): the
# inline SVGs follow the reader's colour scheme (assets/site.css), the marks keep these colours.
POINT = "#0077bb"
INTERVAL = "#7b8794"
# The shading of the rows that may rank first: a tint, so the marks on it keep their contrast.
FIRST_FILL = "#0077bb"
FIRST_OPACITY = 0.12
# Past this many rows a rank written beside each row costs a text mark each and reads as a
# column of numbers nobody can follow; the data table and the CSV carry it instead. No
# figure of the built-in families has more (families.FIGURE_ROWS), so their captions can say
# each row's rank is written beside it.
RANK_TEXT_ROWS = 80
# The Vega-Lite version the specs are written for: the one vl-convert renders and the other
# figures' Altair declares (tests/test_board_figures.py checks that they agree).
VEGA_LITE_SCHEMA = "https://vega.github.io/schema/vega-lite/v6.4.1.json"


def rank_text(best: int | None, worst: int | None) -> str:
    """A rank range as the tables show it: "1–4" (en dash), "3" when best and worst agree."""
    if best is None or worst is None:
        return "–"
    return str(best) if best == worst else f"{best}–{worst}"


def fitted_axis(lows: Sequence[float], highs: Sequence[float], bounds: tuple[float, float] | None) -> tuple[tuple[float, float], list[float]]:
    """The axis range and its ticks: every interval inside it with a margin, on round numbers (a
    step of 1, 2, 5, 10, ... chosen from the data's span), never past the measure's own bounds."""
    lo, hi = min(lows), max(highs)
    span = hi - lo
    if span <= 1e-6 * max(abs(lo), abs(hi), 1.0):  # one value, or a width below any digit a page shows
        span = max(abs(hi), 1.0)
    raw = span / 6
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    # rounded to the step's own digits: 6 x 0.2 in binary is 1.2000000000000002, not 1.2
    places = max(0, 2 - math.floor(math.log10(step)))
    a = round(math.floor((lo - span * 0.04) / step) * step, places)
    b = round(math.ceil((hi + span * 0.04) / step) * step, places)
    if bounds is not None:
        a, b = max(a, bounds[0]), min(b, bounds[1])
    ticks = [round(a + i * step, places) for i in range(int(round((b - a) / step)) + 1)]
    return (float(a), float(b)), [float(t) for t in ticks]


def _tick_text(x: float) -> str:
    return display(x, 0, grouped=True) if x == int(x) else f"{x:g}"  # a tick: a round number


def axis_title(measure: str, domain: tuple[float, float], bounds: tuple[float, float] | None) -> str:
    """The measure, and the fitted range whenever the axis does not start at the measure's own
    floor: a left edge at 55 must never be read as zero."""
    floor = bounds[0] if bounds is not None else 0
    if domain[0] == floor:
        return measure
    return f"{measure}; axis from {_tick_text(domain[0])} to {_tick_text(domain[1])}, not from {_tick_text(floor)}"


def quantitative(field: str, domain: tuple[float, float], **more) -> dict:
    """An x encoding of FIELD on the fitted DOMAIN (no zero, no nicing: the ticks are chosen)."""
    return {"field": field, "scale": {"domain": list(domain), "nice": False, "zero": False}, "type": "quantitative", **more}


def value_axis(ticks: Sequence[float]) -> dict:
    """The value axis of a board-width figure: its round ticks, at the labels' size, with a grid."""
    return {"grid": True, "labelFontSize": FONT_SIZE, "titleFontSize": FONT_SIZE, "titleFontWeight": "normal", "values": list(ticks)}


def layered_spec(layers: list[dict], rows: list[dict], **more) -> dict:
    """The Vega-Lite spec around LAYERS that every board-width figure shares: the column's width,
    one step per row, the rows as the named dataset "rows"."""
    return {
        "$schema": VEGA_LITE_SCHEMA,
        "config": {"view": {"continuousWidth": 300, "continuousHeight": 300}},  # its font: figure_fonts.pinned
        "layer": layers,
        "autosize": {"contains": "padding", "type": "fit-x"},
        "data": {"name": "rows"},
        "height": {"step": ROW_STEP},
        "width": WIDTH,
        **more,
        "datasets": {"rows": rows},
    }


def interval_chart(rows: list[dict], *, id_field: str, label_field: str, value: str, low: str, high: str,
                   measure: str, bounds: tuple[float, float] | None, title: str | None = None, ranked: bool = True) -> dict:
    """A Vega-Lite spec for ROWS (already in the table's order; when `ranked`, each with
    rank_best and rank_worst). `measure` names the value and its interval for the axis;
    `bounds` is the measure's own scale (0-100 for a score), or None for an open one.

    Written as the Vega-Lite JSON itself rather than through Altair: Altair's chart objects
    copy and check every layer as they are combined, ~0.09 s a board, more than drawing it.
    The tests validate every published spec against the Vega-Lite schema instead
    (tests/test_board_figures.py)."""
    order = [r[id_field] for r in rows]
    names = {r[id_field]: r[label_field] for r in rows}
    ranks = {r[id_field]: rank_text(r["rank_best"], r["rank_worst"]) for r in rows} if ranked else {}
    domain, ticks = fitted_axis([r[low] for r in rows], [r[high] for r in rows], bounds) if rows else ((0.0, 1.0), [0.0, 1.0])

    def x(field: str, **more) -> dict:
        return quantitative(field, domain, **more)

    def y(**more) -> dict:
        # The order is the scale's domain, never a sort array: Vega-Lite turns a sort array into one
        # nested conditional per row, and past a few thousand rows (a 1000x board has 13,000; the
        # built-in families draw at most families.FIGURE_ROWS of them, a plug-in may draw all) its
        # expression parser runs out of stack.
        return {"field": "id", "scale": {"domain": list(order)}, "type": "nominal", **more}

    names_axis = {"axis": {"domain": False, "labelExpr": label_expr(names), "labelFontSize": FONT_SIZE, "labelLimit": 0,
                           "ticks": False}, "title": None}
    # Ranked, the names' axis is drawn by one layer only: the axes are independent, so that the
    # ranks can have their own, and each layer with an axis would draw it again.
    other_y = y(axis=None) if ranked else y(**names_axis)
    # The shading spans the plot's width, behind the marks.
    first = {"mark": {"type": "rect", "color": FIRST_FILL, "opacity": FIRST_OPACITY},
             "encoding": {"x": {"value": 0}, "x2": {"value": "width"}, "y": other_y},
             "transform": [{"filter": "datum.rank_best == 1"}]}
    rule = {"mark": {"type": "rule", "color": INTERVAL, "strokeWidth": 2.5},
            "encoding": {"x": x("low", axis=value_axis(ticks), title=axis_title(measure, domain, bounds)),
                         "x2": {"field": "high"}, "y": y(**names_axis)}}
    # Opaque: Vega-Lite's default 0.7 would blend the colour into the background and lose its contrast.
    point = {"mark": {"type": "point", "color": POINT, "filled": True, "opacity": 1, "size": 60},
             "encoding": {"x": x("value"), "y": other_y}}
    layers = [first, rule, point] if ranked else [rule, point]
    if ranked and len(rows) <= RANK_TEXT_ROWS:
        # The rank range, on a second axis at the right of the plot, headed like the table.
        layers.append({"mark": {"type": "tick", "opacity": 0}, "encoding": {"x": x("value"), "y": y(
            axis={"domain": False, "labelExpr": label_expr(ranks), "labelFontSize": FONT_SIZE, "labelPadding": 6,
                  "orient": "right", "ticks": False, "titleAlign": "left", "titleAnchor": "start", "titleAngle": 0,
                  "titleBaseline": "bottom", "titleFontSize": FONT_SIZE, "titleFontWeight": "normal", "titleX": 6,
                  "titleY": -6},
            title="rank")}})
    more = {}
    if ranked:  # independent: the names on the left, the ranks on the right, one scale for both
        more["resolve"] = {"axis": {"y": "independent"}}
    if title:
        more["title"] = {"text": title, "anchor": "start", "fontSize": FONT_SIZE + 1}
    return layered_spec(layers, [{"id": r[id_field], "value": r[value], "low": r[low], "high": r[high],
                                  "rank_best": r["rank_best"] if ranked else None} for r in rows], **more)
