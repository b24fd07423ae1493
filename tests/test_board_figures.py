"""The ranked boards' figures: every ranked table has one, drawn from the table's own rows in the
table's order, with the same ranks, its axis fitted to the data and stated, the rows that may
rank first shaded; ChronicleBench's entrants against the human band; NextChapterBench's craft
and compliance.

The figures are read back from what a reader downloads (the figure's CSV and SVG) and compared
with the table's CSV, so a figure that drifts from its table fails here."""

from __future__ import annotations

import html
import math
import re

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from sitegen.interval_chart import axis_title, fitted_axis

from test_ranks import TABLES, read_ranked, shown_range
from test_site import read_csv, svg_texts

# Ranked table (its CSV) -> its figure's stem, and the figure's columns for id, value, low, high.
FIGURES = {
    **{rel: (rel.removesuffix("board.csv") + "figure", "model_id", "score", "low", "high")
       for rel in TABLES if rel.startswith("canonic/")},
    "chronicle/boards/system.csv": ("chronicle/boards/system/figure", "entrant", "score", "ci_low", "ci_high"),
    "chronicle/boards/sustained.csv": ("chronicle/boards/sustained/figure", "entrant", "score", "ci_low", "ci_high"),
    "chronicle/boards/voluntary.csv": ("chronicle/boards/voluntary/figure", "entrant", "median_words", "median_low", "median_high"),
    "nextchapter/standings.csv": ("nextchapter/figure-craft", "model", "craft", "craft_low", "craft_high"),
    **{rel: (rel.removesuffix("board.csv") + "figure", "model", "score", "low", "high") for rel in TABLES if rel.startswith("vignette/boards/")},
    **{rel: (rel.removesuffix("board.csv") + "figure", "model", "rating", "low", "high") for rel in TABLES if rel.startswith("vignette/pairwise/")},
}


def shaded_ids(svg: str) -> list[str]:
    """The rows the figure shades: the rect marks of its first layer."""
    group = re.search(r'<g class="mark-rect role-mark layer_0_marks"[^>]*>(.*?)</g>', svg, re.S)
    return [html.unescape(i) for i in re.findall(r'aria-label="id: ([^"]*)"', group.group(1))] if group else []


def test_every_ranked_table_has_a_figure(built_site):
    assert set(FIGURES) == set(TABLES)
    for stem, *_ in FIGURES.values():
        for suffix in (".svg", ".png", ".vl.json", ".csv"):
            assert (built_site.out / f"{stem}{suffix}").is_file(), stem + suffix


@pytest.mark.parametrize("rel", sorted(FIGURES))
def test_a_board_figure_draws_the_tables_ranked_rows_in_its_order_with_its_ranks(built_site, rel):
    out, t = built_site.out, TABLES[rel]
    stem, id_col, value, low, high = FIGURES[rel]
    ranked = read_ranked(out, rel)
    drawn = read_csv(out / f"{stem}.csv")[1]
    assert [r[id_col] for r in drawn] == [r[t["id"]] for r in ranked], rel
    for d, r in zip(drawn, ranked):
        assert (d[value], d[low], d[high]) == (r[t["score"]], r[t["low"]], r[t["high"]]), (rel, r[t["id"]])
        assert (d["rank_best"], d["rank_worst"]) == (r["rank_best"], r["rank_worst"]), (rel, r[t["id"]])
    svg = (out / f"{stem}.svg").read_text(encoding="utf-8")
    # the rank ranges, on the axis at the right, in the table's order and as the table writes them
    axis = svg.split("aria-label=\"Y-axis titled 'rank'", 1)[1].split('role-axis"', 1)[0].split('role-title', 1)[0]
    ranks = [t for t in svg_texts(axis) if t != "rank"]
    assert ranks == [shown_range(r) for r in ranked], rel
    # shaded: exactly the rows that may rank first
    assert shaded_ids(svg) == [r[t["id"]] for r in ranked if r["rank_best"] == "1"], rel


@pytest.mark.parametrize("rel", sorted(FIGURES))
def test_a_board_figures_axis_holds_every_interval_and_says_where_it_starts(built_site, rel):
    stem, _, value, low, high = FIGURES[rel]
    drawn = read_csv(built_site.out / f"{stem}.csv")[1]
    svg = (built_site.out / f"{stem}.svg").read_text(encoding="utf-8")
    x_axis = svg.split('aria-label="X-axis titled', 1)[1].split('role-axis"', 1)[0]
    texts = svg_texts(x_axis)
    title = next(t for t in texts if "interval" in t or "standard error" in t)
    m = re.search(r"axis from ([\d,.]+) to ([\d,.]+), not from 0$", title)
    ticks = [float(x.replace(",", "")) for x in texts if re.fullmatch(r"[\d,]+(\.\d+)?", x)]
    lo, hi = min(float(d[low]) for d in drawn), max(float(d[high]) for d in drawn)
    if m:  # fitted: the stated range is the drawn one, and it holds every interval
        a, b = (float(x.replace(",", "")) for x in m.groups())
        assert a > 0 and min(ticks) == a and max(ticks) == b, (rel, title)
    else:  # starts at the floor
        a, b = 0.0, max(ticks)
        assert min(ticks) == 0.0, (rel, title)
    assert a <= lo and hi <= b, (rel, title, lo, hi)
    # fitted closely enough that the intervals fill most of the axis
    assert (hi - lo) / (b - a) > 0.6, (rel, a, b, lo, hi)


# Interval half-widths from none at all to 30 points, a width of 1e-131 included: a span below a
# millionth of the values (below any digit a page shows) is drawn as a single value is.
@given(st.lists(st.tuples(st.floats(0, 100), st.floats(0, 30)), min_size=1, max_size=30))
@example(pairs=[(0.0, 2.0106013076043888e-131)])
def test_the_fitted_axis_holds_every_interval_on_round_ticks_inside_the_scale(pairs):
    lows = [max(0.0, c - w) for c, w in pairs]
    highs = [min(100.0, c + w) for c, w in pairs]
    (a, b), ticks = fitted_axis(lows, highs, (0, 100))
    assert 0 <= a <= min(lows) and max(highs) <= b <= 100
    assert ticks[0] == a and ticks[-1] == b and len(ticks) >= 2
    steps = [y - x for x, y in zip(ticks, ticks[1:])]
    step = steps[0]
    assert all(math.isclose(d, step, rel_tol=1e-6) for d in steps)  # evenly spaced
    nominal = [m * 10 ** e for m in (1, 2, 5) for e in range(-8, 3) if math.isclose(step, m * 10 ** e, rel_tol=1e-6)]
    assert nominal  # 1, 2 or 5 x 10^e
    assert all(math.isclose(t / nominal[0], round(t / nominal[0]), rel_tol=1e-9) for t in ticks if t > 0)  # on its multiples


def test_the_axis_title_states_the_range_unless_the_axis_starts_at_the_floor():
    assert axis_title("score", (55.0, 85.0), (0, 100)) == "score; axis from 55 to 85, not from 0"
    assert axis_title("score", (0.0, 100.0), (0, 100)) == "score"
    assert axis_title("words", (0.0, 50000.0), (0, float("inf"))) == "words"
    assert axis_title("words", (5000.0, 50000.0), (0, float("inf"))) == "words; axis from 5,000 to 50,000, not from 0"


@pytest.mark.parametrize("board", ["system", "sustained"])
def test_the_human_band_figure_places_each_entrant_against_the_36_novels(built_site, board):
    out = built_site.out
    drawn = read_csv(out / f"chronicle/boards/{board}/figure-human-band.csv")[1]
    reference = read_csv(out / "chronicle/reference.csv")[1]
    novels = sorted(float(r["score"]) for r in reference if r["corpus"] == "v1.1")
    assert len(novels) == 36
    assert sorted(float(d["score"]) for d in drawn if d["kind"] == "novel") == novels
    (band,) = [d for d in drawn if d["kind"] == "band"]
    q1, med, q3 = np.percentile(novels, [25, 50, 75])
    assert (float(band["low"]), float(band["score"]), float(band["high"])) == pytest.approx((q1, med, q3), abs=1e-12)
    ranked = read_ranked(out, f"chronicle/boards/{board}.csv")
    assert [(d["id"], d["score"], d["low"], d["high"]) for d in drawn if d["kind"] == "entrant"] == [
        (r["entrant"], r["score"], r["ci_low"], r["ci_high"]) for r in ranked]
    svg = (out / f"chronicle/boards/{board}/figure-human-band.svg").read_text(encoding="utf-8")
    assert svg.count('aria-roledescription="point"') == 36 + len(ranked)
    page = (out / f"chronicle/boards/{board}/index.html").read_text(encoding="utf-8")
    assert 'id="figure-human-band"' in page
    assert f"figure-band-{board}" in (out / "chronicle/reference/index.html").read_text(encoding="utf-8")


def test_the_standings_compliance_figure_draws_the_headline_settings_with_their_standard_error(built_site):
    out = built_site.out
    drawn = read_csv(out / "nextchapter/figure-compliance.csv")[1]
    headline = read_ranked(out, "nextchapter/standings.csv")
    assert [(d["model"], d["effort"]) for d in drawn] == [(r["model"], r["effort"]) for r in headline]
    for d, r in zip(drawn, headline):
        c, se = float(r["compliance"]), float(r["compliance_se"])
        assert (float(d["compliance"]), float(d["compliance_low"]), float(d["compliance_high"])) == (c, c - se, c + se)
    svg = (out / "nextchapter/figure-compliance.svg").read_text(encoding="utf-8")
    assert "rank" not in svg_texts(svg) and not shaded_ids(svg)  # compliance does not rank


def test_a_change_to_a_module_the_chart_reaches_only_through_another_draws_it_again(monkeypatch):
    """The board figures import the shared chart, which imports the rounding rule: a change to
    the rule changes every board figure's cache key, though no figure module imports it."""
    import inspect

    from sitegen import figures, numbers
    from sitegen.families import Figure
    from sitegen.families.chronicle.figure import draw_length_board

    fig = Figure("t/figure", [{"entrant": "a/b", "name": "A", "median_words": 1.0, "median_low": 0.5, "median_high": 2.0,
                               "rank_best": 1, "rank_worst": 1}], draw_length_board, "", {}, "test")
    before = figures.figure_key(fig)
    real = inspect.getsource
    monkeypatch.setattr(inspect, "getsource", lambda m: real(m) + ("\n# edited" if m is numbers else ""))
    assert figures.figure_key(fig) != before


def test_every_published_figure_spec_is_valid_vega_lite(built_site):
    """The build does not validate its specs (the check costs as much as the drawing, and the
    spec's shape is the drawing code's): every spec the demo publishes is validated here."""
    import json

    from altair.utils.schemapi import validate_jsonschema
    from altair.vegalite.schema import core  # the installed Altair's own Vega-Lite schema

    schema = core.load_schema()
    specs = sorted(built_site.out.rglob("*.vl.json"))
    assert len(specs) >= 17
    for path in specs:
        validate_jsonschema(json.loads(path.read_text(encoding="utf-8")), schema)


def test_the_hand_written_specs_declare_the_vega_lite_of_the_installed_altair():
    """The board charts are written as Vega-Lite JSON (no Altair); they must declare the version
    the other figures' Altair writes, so every published spec names one Vega-Lite."""
    import altair as alt

    from sitegen.interval_chart import VEGA_LITE_SCHEMA

    assert VEGA_LITE_SCHEMA == alt.SCHEMA_URL


def _gradient_chart(data: list[dict]) -> dict:
    return {"$schema": "https://vega.github.io/schema/vega-lite/v5.json", "data": {"values": data},
            "mark": "rect", "encoding": {"x": {"field": "a", "type": "nominal"},
                                         "color": {"field": "v", "type": "quantitative"}}}


def test_a_figure_drawn_after_others_in_the_same_worker_has_the_same_bytes():
    # Vega numbers gradients with a counter that lives as long as its runtime: a worker kept
    # between builds (or drawing several figures) would name the second drawing's gradient
    # gradient_1, and the same figure would change bytes with the order it was drawn in.
    from sitegen.families import Figure
    from sitegen.figures import render

    fig = Figure("t/heat", [{"a": "x", "v": 1}, {"a": "y", "v": 3}], _gradient_chart, "alt", {}, "")
    first, second = render(fig), render(fig)
    assert 'id="gradient_0"' in first.svg and "url(#gradient_0)" in first.svg
    assert second.svg == first.svg and second.png == first.png


def test_a_board_of_thousands_of_rows_is_drawn():
    """At 1000x data a board holds 13,000 rows. An axis ordered by a sort array became one
    nested conditional per row in the compiled Vega, whose parser ran out of stack past a few
    thousand rows and failed the build at its figures; the order is the scale's domain."""
    from sitegen import figures
    from sitegen.families import Figure
    from sitegen.families.declared.figure import draw_board

    rows = [{"model": f"m-{i:05d}", "name": f"Model {i}", "score": 50 + (i % 97) / 10, "low": 40.0, "high": 60.0,
             "rank_best": 1 + i // 50, "rank_worst": 1 + i // 50 + 3} for i in range(5000)]
    svg, spec = figures._draw(Figure("t/board", rows, draw_board, "", {}, "test"))
    assert svg.count("<path") >= 5000 and b'"sort"' not in spec


def test_no_published_figure_orders_an_axis_by_a_sort_array(built_site):
    """The same rule for every figure the demo publishes: an axis's order, which grows with the
    rows, is a scale's domain. (A legend may sort its few fixed values, such as the reasons.)"""
    import json

    def sorts(node):
        if isinstance(node, dict):
            for channel in ("x", "y"):
                enc = (node.get("encoding") or {}).get(channel)
                if isinstance(enc, dict) and isinstance(enc.get("sort"), list):
                    yield enc["sort"]
            for v in node.values():
                yield from sorts(v)
        elif isinstance(node, list):
            for v in node:
                yield from sorts(v)

    specs = sorted(built_site.out.rglob("*.vl.json"))
    assert specs
    assert [p.name for p in specs if list(sorts(json.loads(p.read_text(encoding="utf-8"))))] == []


def test_a_figure_vega_cannot_draw_is_one_error_naming_it():
    from sitegen import figures
    from sitegen.errors import BuildError
    from sitegen.families import Figure

    def broken(data):
        return {"$schema": "https://vega.github.io/schema/vega-lite/v5.json", "data": {"values": data}, "mark": "point",
                "transform": [{"calculate": "datum.x +", "as": "y"}], "encoding": {"x": {"field": "y", "type": "quantitative"}}}

    with pytest.raises(BuildError, match=r"^figure t/broken: Vega-Lite could not draw it: "):
        figures._draw(Figure("t/broken", [{"x": 1}], broken, "", {}, "test"))


# --------------------------------------------------------------------------- figures cut short

CUT = 3  # rows drawn in the build below; every board of the demo but one has more


@pytest.fixture(scope="module")
def cut_site(tmp_path_factory):
    """The demo built with figures limited to CUT rows (families.FIGURE_ROWS is 80, and no
    board of the demo reaches it), cold: a cached family would keep its figures whole."""
    from conftest import copy_site
    from sitegen import families
    from sitegen.build import build
    from sitegen.config import load_config

    from sitegen.paper import paper

    root = copy_site(tmp_path_factory.mktemp("cut") / "site")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(families, "FIGURE_ROWS", CUT)
        build(load_config(root), root.parent / "out", cache=False)
        paper(load_config(root), root.parent / "paper", cache=False)
    return root.parent / "out"


def _figure_on_page(out, stem: str, page: str | None = None) -> tuple[str, str]:
    """The <figure> element that shows STEM (on PAGE, by default the page of its folder; its name
    its id) and that page's path."""
    folder, name = stem.rsplit("/", 1)
    page = page or f"{folder}/index.html"
    found = re.search(rf'<figure class="chart" id="{name}">(.*?)</figure>', (out / page).read_text(encoding="utf-8"), re.S)
    assert found, (page, name)
    return found.group(1), page


def _says_it_is_cut(figure: str, page: str, shown: int, total: int, table: str) -> None:
    """The caption and the text alternative say how many rows are drawn of how many, and the
    caption links the table's CSV that holds every row."""
    from posixpath import dirname, normpath

    caption = re.search(r"<figcaption>(.*?)</figcaption>", figure, re.S).group(1)
    words = f"Only its first {shown} rows of {total:,} are drawn"
    assert words in html.unescape(re.sub(r"<[^>]+>", "", caption)), caption
    href = re.search(r'every row is in <a href="([^"]+)"', caption).group(1)
    assert normpath(f"{dirname(page)}/{href}") == f"{table}.csv", href
    alt = html.unescape(re.search(r'role="img" tabindex="0" aria-label="([^"]*)"', figure).group(1))
    assert words in alt and alt.endswith(f"every row is in {table.rsplit('/', 1)[1]}.csv."), alt


@pytest.mark.parametrize("rel", sorted(FIGURES))
def test_a_board_figure_past_its_row_limit_draws_the_tables_first_rows_and_says_so(cut_site, rel):
    stem, id_col, *_ = FIGURES[rel]
    ranked = read_ranked(cut_site, rel)
    figure, page = _figure_on_page(cut_site, stem)
    if len(ranked) <= CUT:  # a board within the limit (ChronicleBench's system board ranks one entrant) is drawn whole
        assert len(read_csv(cut_site / f"{stem}.csv")[1]) == len(ranked) and "Only its first" not in figure, rel
        return
    first = [r[TABLES[rel]["id"]] for r in ranked[:CUT]]
    assert [r[id_col] for r in read_csv(cut_site / f"{stem}.csv")[1]] == first, rel  # the figure's data: what it draws
    svg = (cut_site / f"{stem}.svg").read_text(encoding="utf-8")
    axis = svg.split("aria-label=\"Y-axis titled 'rank'", 1)[1].split('role-axis"', 1)[0].split('role-title', 1)[0]
    assert [t for t in svg_texts(axis) if t != "rank"] == [shown_range(r) for r in ranked[:CUT]], rel
    caption = html.unescape(re.search(r"<figcaption>(.*?)</figcaption>", figure, re.S).group(1))
    assert f"each of the first {CUT} " in caption and "each published" not in caption and "every ranked" not in caption, caption
    _says_it_is_cut(figure, page, CUT, len(ranked), rel.removesuffix(".csv"))


def test_the_other_figures_of_a_row_per_model_are_cut_in_their_own_order(cut_site):
    out = cut_site
    # Figure 2b: the models that lost the most cells first
    by_model = read_csv(out / "canonic/exclusions-by-model.csv")[1]
    lost = sorted(by_model, key=lambda r: (-sum(int(v) for k, v in r.items() if k not in ("model", "model_name", "counted", "synthetic")),
                                           r["model_name"].casefold(), r["model"]))
    drawn = list(dict.fromkeys(r["group_id"] for r in read_csv(out / "canonic/figure-2-models.csv")[1]))
    assert drawn == [r["model"] for r in lost[:CUT]]
    _says_it_is_cut(*_figure_on_page(out, "canonic/figure-2-models", "canonic/verification/index.html"), CUT, len(by_model), "canonic/exclusions-by-model")
    # Figure 3: the models of the Sitcom Scene board, in its order
    board = [r["model"] for r in read_csv(out / "canonic/sitcom-scene/board.csv")[1]]
    drawn = list(dict.fromkeys(r["model_id"] for r in read_csv(out / "canonic/figure-3.csv")[1]))
    assert drawn == board[:CUT]
    shown = len({r["model"] for r in read_csv(out / "canonic/sitcom-by-show.csv")[1]})
    _says_it_is_cut(*_figure_on_page(out, "canonic/figure-3", "canonic/diagnostics/index.html"), CUT, shown, "canonic/sitcom-by-show")
    # ChronicleBench's human band: every novel, and the board's first entrants
    rows = read_csv(out / "chronicle/boards/sustained/figure-human-band.csv")[1]
    ranked = read_ranked(out, "chronicle/boards/sustained.csv")
    assert len(ranked) > CUT and [r["id"] for r in rows if r["kind"] == "entrant"] == [r["entrant"] for r in ranked[:CUT]]
    assert sum(r["kind"] == "novel" for r in rows) == 36
    figure, page = _figure_on_page(out, "chronicle/boards/sustained/figure-human-band")
    _says_it_is_cut(figure, page, CUT, len(ranked), "chronicle/boards/sustained")
    assert f"drawn across each of the first {CUT} entrants' rows;" in html.unescape(figure)


def test_the_manifests_record_which_figures_are_cut(cut_site):
    """manifest.json, and a paper's, say of a figure cut short how many rows it draws of how
    many and which CSV holds them all; of a whole figure, nothing."""
    import json

    artifacts = json.loads((cut_site / "manifest.json").read_text(encoding="utf-8"))["artifacts"]
    cut = {name: a["drawn"] for name, a in artifacts.items() if "drawn" in a}
    assert cut["canonic/book-opening/figure"] == {"rows": CUT, "of": len(read_ranked(cut_site, "canonic/book-opening/board.csv")),
                                                  "every_row_in": "canonic/book-opening/board.csv"}
    assert "chronicle/boards/system/figure" not in cut and "canonic/figure-2-domains" not in cut  # drawn whole
    assert all(a["kind"] == "figure" for name, a in artifacts.items() if name in cut)
    items = json.loads((cut_site.parent / "paper" / "manifest.json").read_text(encoding="utf-8"))["items"]
    figures = [name for name, item in items.items() if item["kind"] == "figure"]
    assert figures and all(items[name].get("drawn") == cut.get(name) for name in figures)
    assert any(name in cut for name in figures)


def test_no_figure_of_the_demo_is_cut(built_site):
    """No board of the demo reaches the limit: every figure draws all its rows, and none says otherwise."""
    from sitegen.families import FIGURE_ROWS
    from sitegen.interval_chart import RANK_TEXT_ROWS

    assert FIGURE_ROWS == 80 and FIGURE_ROWS <= RANK_TEXT_ROWS  # every board figure writes its ranks, as its caption says
    pages = [p for p in built_site.out.rglob("*.html") if "Only its first" in p.read_text(encoding="utf-8")]
    assert pages == []
