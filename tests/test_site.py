"""The built demo site, checked against numbers recomputed in the test from the raw artifact
(`conftest.reference`: json, hashlib and numpy alone, following the method page)."""

from __future__ import annotations

import csv
import hashlib
import html
import io
import json
import posixpath
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sitegen.build import build
from sitegen.config import load_config
from sitegen.render import row_ids

from conftest import (CELLS_REL, OUTPUTS_REL, SWEEP_REL, Ref, hash_tree, read_sweep, ref_fingerprint, reference, rewrite_cell_line,
                      two_standard_scores, write_sweep)


@pytest.fixture(scope="module")
def ref(built_site) -> Ref:
    return reference(built_site.root)


# --------------------------------------------------------------------------- reading HTML


class Page(HTMLParser):
    """Just enough of a page: every <th> text, every link and id, the rows of table.board and
    the cell texts of every table row."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.th: list[str] = []
        self.links: list[str] = []
        self.ids: list[str] = []
        self.board_rows: list[dict] = []
        self.all_rows: list[list[str]] = []
        self.imgs: list[dict] = []
        self._any_row: list[str] | None = None
        self._cell: list[str] | None = None
        self._cell_tag: str | None = None
        self._row: dict | None = None
        self._in_board = False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.append(a["id"])
        if tag == "tr":
            self._any_row = []
        if tag in ("a", "link") and a.get("href"):
            self.links.append(a["href"])
        if tag == "img":
            self.imgs.append(a)
            self.links.append(a.get("src", ""))
        if tag == "table" and "board" in (a.get("class") or "").split():
            self._in_board = True
        if tag == "tr" and self._in_board:
            self._row = {"attrs": a, "cells": []}
        if tag in ("td", "th"):
            self._cell, self._cell_tag = [], tag

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            text = " ".join("".join(self._cell).split())
            if tag == "th":
                self.th.append(text)
            if self._row is not None:
                self._row["cells"].append(text)
            if self._any_row is not None:
                self._any_row.append(text)
            self._cell = None
        if tag == "tr" and self._any_row is not None:
            self.all_rows.append(self._any_row)
            self._any_row = None
        if tag == "tr" and self._row is not None:
            if self._row["attrs"].get("id"):  # body rows carry an anchor id; the header row does not
                self.board_rows.append(self._row)
            self._row = None
        if tag == "table":
            self._in_board = False

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def page(out: Path, rel: str) -> tuple[str, Page]:
    text = (out / rel).read_text(encoding="utf-8")
    return text, Page(text)


def fmt_candidates(x: float, digits: int) -> set[str]:
    """How x may be displayed at `digits` decimals (allowing for an ulp on a rounding edge)."""
    return {f"{v:.{digits}f}" for v in (x, x - 1e-9, x + 1e-9)}


def read_csv(path: Path) -> tuple[list[str], list[dict]]:
    text = path.read_text(encoding="utf-8")
    reader = csv.DictReader(io.StringIO(text))
    return reader.fieldnames, list(reader)


def domains(ref: Ref) -> list[str]:
    return [d["id"] for d in ref.sweep["domains"]]


# --------------------------------------------------------------------------- structure


def test_the_demo_artifact_has_the_published_structure(ref):
    sweep = ref.sweep
    assert len(sweep["models"]) == 13
    assert len(sweep["domains"]) == 6
    assert len(sweep["tasks"]) == 190  # each model is asked every task
    per_domain = Counter(t["domain"] for t in sweep["tasks"])
    assert len(per_domain) == 6
    sitcom = [t for t in sweep["tasks"] if t.get("show")]
    assert len(sweep["shows"]) == 4 and len(sitcom) == 40
    assert sorted(Counter(t["show"] for t in sitcom).values()) == [10, 10, 10, 10]
    assert sorted(per_domain.values()) == [30, 30, 30, 30, 30, 40]
    assert ref.cells_total == 2470 == 13 * 190
    assert ref.status["counted"] == 2423
    assert len(ref.rows) == 78
    withheld = [r for r in ref.rows.values() if not r.published]
    names = {m["id"]: m["name"] for m in sweep["models"]}
    assert [(names[r.model], r.domain) for r in withheld] == [("Kimi K3", "song-lyrics")]
    assert all(r.attempted == r.total for r in ref.rows.values())


def test_the_pages_and_downloads_exist(built_site, ref):
    out = built_site.out
    expected = ["index.html", "canonic/index.html", "canonic/method/index.html", "manifest.json"]
    for d in domains(ref):
        expected += [f"canonic/{d}/index.html", f"canonic/{d}/board.csv", f"canonic/{d}/board.json"]
    missing = [p for p in expected if not (out / p).is_file()]
    assert missing == []
    boards = sorted(p.parent.name for p in out.glob("canonic/*/board.csv"))
    assert boards == sorted(domains(ref))  # one board per domain, no more


def test_every_page_says_the_data_is_synthetic(built_site):
    pages = sorted(built_site.out.rglob("*.html"))
    assert len(pages) >= 9
    for p in pages:
        text = p.read_text(encoding="utf-8")
        assert "Synthetic demo data" in text, p


def test_pages_need_no_javascript(built_site):
    for p in sorted(built_site.out.rglob("*.html")) + sorted(built_site.out.rglob("*.svg")):
        text = p.read_text(encoding="utf-8").lower()
        assert "<script" not in text, p
        assert re.search(r"<[a-z][^>]*\son[a-z]+\s*=", text) is None, p  # no event-handler attribute
        assert "javascript:" not in text, p
    assert not list(built_site.out.rglob("*.js"))


def test_ids_on_every_page_are_unique(built_site):
    for p in sorted(built_site.out.rglob("*.html")):
        ids = Page(p.read_text(encoding="utf-8")).ids
        assert len(ids) == len(set(ids)), (p, [i for i in ids if ids.count(i) > 1])


def test_no_table_heads_two_columns_alike(built_site):
    """A reader tells columns apart by their headings, so a header row never repeats one."""
    repeated = []
    for p in sorted(built_site.out.rglob("*.html")):
        text = p.read_text(encoding="utf-8")
        for head in re.findall(r"<thead>(.*?)</thead>", text, re.S):
            for row in re.findall(r"<tr>(.*?)</tr>", head, re.S):
                names = [" ".join(re.sub(r"<[^>]+>", "", th).split()) for th in re.findall(r"<th\b[^>]*>(.*?)</th>", row, re.S)]
                repeated += [(p.relative_to(built_site.out).as_posix(), n) for n, k in Counter(names).items() if k > 1]
    assert repeated == []


def test_row_anchors_stay_unique_for_similar_model_ids(cached_site_copy, tmp_path):
    """Two model ids that differ only in punctuation ('openai/gpt-5.5' and 'openai-gpt-5-5')
    share a slug; each board row keeps an anchor of its own (the documented row_ids rule), and
    the row's permalink points at it."""
    sweep = read_sweep(cached_site_copy)
    first, second = sweep["models"][0]["id"], sweep["models"][1]["id"]
    twin = first.replace("/", "-").replace(".", "-")
    assert twin != first
    sweep["models"][1]["id"] = twin
    write_sweep(cached_site_copy, sweep)
    for rel in (CELLS_REL, OUTPUTS_REL):  # every record of the renamed model follows it
        path = cached_site_copy / rel
        lines = []
        for x in path.read_text(encoding="utf-8").splitlines():
            rec = json.loads(x)
            if rec["model"] == second:
                rec["model"] = twin
            lines.append(json.dumps(rec, ensure_ascii=False))
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    build(load_config(cached_site_copy), out)
    for d in sweep["domains"]:
        board = Page((out / f"canonic/{d['id']}/index.html").read_text(encoding="utf-8"))
        assert len(board.ids) == len(set(board.ids)), d["id"]
        row_ids_shown = [r["attrs"]["id"] for r in board.board_rows]
        assert len(row_ids_shown) == len(sweep["models"]) == len(set(row_ids_shown))
        ids = row_ids("row", [first, twin])
        assert ids[first] != ids[twin] and {ids[first], ids[twin]} <= set(row_ids_shown)
        assert f"#{ids[first]}" in board.links and f"#{ids[twin]}" in board.links


def test_every_internal_link_resolves(built_site):
    out = built_site.out
    broken = []
    for p in sorted(out.rglob("*.html")):
        rel = p.relative_to(out).as_posix()
        for href in Page(p.read_text(encoding="utf-8")).links:
            if re.match(r"^[a-z]+:", href) or href.startswith("#") or not href:
                continue
            target = href.split("#")[0]
            # a link from the root path (the 404 page's, served at any address) resolves from the output's top
            path = posixpath.normpath(target.lstrip("/") or "." if target.startswith("/") else posixpath.join(posixpath.dirname(rel), target))
            if target.endswith("/") or path == ".":
                path = posixpath.join(path, "index.html")
            if not (out / path).is_file():
                broken.append((rel, href))
    assert broken == []


# --------------------------------------------------------------------------- the Canonic home


def test_canonic_home_shows_rows_cells_and_artifact_hash(built_site, ref):
    text, _ = page(built_site.out, "canonic/index.html")
    published = sum(r.published for r in ref.rows.values())
    assert (published, len(ref.rows)) == (77, 78)
    assert "77 of 78" in text
    assert "2,423 of 2,470" in text
    assert f"{ref.status['counted']:,} of {ref.cells_total:,}" in text
    cells_sha = hashlib.sha256((built_site.root / CELLS_REL).read_bytes()).hexdigest()
    sweep_sha = hashlib.sha256((built_site.root / SWEEP_REL).read_bytes()).hexdigest()
    assert cells_sha in text and sweep_sha in text
    assert ref.sweep["task_set_fingerprint"] in text


def test_task_set_fingerprint_on_the_page_is_the_documented_hash_of_the_tasks(built_site, ref):
    fp = ref_fingerprint(ref.sweep["tasks"])
    assert fp == ref.sweep["task_set_fingerprint"]
    assert fp in page(built_site.out, "canonic/index.html")[0]


def test_canonic_home_lists_each_board_with_the_rows_tied_for_first(built_site, ref):
    _, home = page(built_site.out, "canonic/index.html")
    names = {m["id"]: m["name"] for m in ref.sweep["models"]}
    tasks = Counter(t["domain"] for t in ref.sweep["tasks"])
    for d in ref.sweep["domains"]:
        (row,) = [r for r in home.all_rows if r and r[0] == d["name"] and len(r) == 4]
        rows = [r for (m, dd), r in ref.rows.items() if dd == d["id"]]
        published = [r for r in rows if r.published]
        assert row[1] == str(tasks[d["id"]])
        assert row[2] == f"{len(published)} of {len(rows)}"
        first = sorted(names[r.model] for r in published if r.rank_best == 1)
        assert row[3].startswith("tied: ") == (len(first) > 1), row[3]
        assert sorted(x.strip() for x in row[3].removeprefix("tied: ").split(",")) == first


def test_canonic_home_exclusion_table_matches_recount(built_site, ref):
    header, rows = read_csv(built_site.out / "canonic/exclusions.csv")
    assert header[-1] == "synthetic" and {r["synthetic"] for r in rows} == {"True"}  # the demo's data is synthetic
    totals = Counter()
    for row in rows:
        for col in header[2:-1]:
            totals[col.replace("_", " ")] += int(row[col])
    assert {k: v for k, v in totals.items() if v} == dict(ref.status)


_FIGURE = re.compile(r'<figure class="chart" id="([^"]+)">(.*?)</figure>', re.S)
_INLINE_SVG = re.compile(r'<div class="svg" role="img" tabindex="0" aria-label="([^"]*)">\s*(<svg\b.*?</svg>)\s*</div>', re.S)


def inline_figures(text: str) -> dict[str, dict]:
    """figure id -> the figure's text alternative, its inline SVG, and its provenance line."""
    found = {}
    for fig_id, body in _FIGURE.findall(text):
        m = _INLINE_SVG.search(body)
        assert m, f"figure {fig_id}: no inline SVG with a text alternative"
        prov = re.search(r'<p class="prov">(.*?)</p>', body, re.S)
        found[fig_id] = {"alt": html.unescape(m.group(1)), "svg": m.group(2), "prov": prov.group(1) if prov else None}
    return found


def svg_texts(svg: str) -> list[str]:
    return [" ".join(html.unescape(t).split()) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]


def check_figure_files(out: Path, name: str, inline_svg: str) -> None:
    """<name>.svg, .png, .vl.json and .csv exist; the SVG file is the picture shown inline."""
    svg = (out / f"{name}.svg").read_text(encoding="utf-8")
    assert "<svg" in svg[:500] and "<script" not in svg.lower(), name
    assert svg_texts(svg) == svg_texts(inline_svg), f"{name}: the page shows another picture than {name}.svg"
    assert (out / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
    spec = json.loads((out / f"{name}.vl.json").read_text(encoding="utf-8"))
    assert "vega-lite" in spec["$schema"], name
    header, rows = read_csv(out / f"{name}.csv")
    assert header and rows, name


def test_figure_1_is_build_time_svg_with_a_text_alternative_for_every_domain(built_site, ref):
    out = built_site.out
    text, _ = page(out, "canonic/index.html")
    assert "Figure 1" in text
    figs = inline_figures(text)
    assert sorted(figs) == sorted(f"figure-1-{d}" for d in domains(ref)), "one panel per domain on the Canonic home"
    for d in ref.sweep["domains"]:
        fig = figs[f"figure-1-{d['id']}"]
        assert fig["alt"].startswith(d["name"]), fig["alt"]
        assert "<script" not in fig["svg"].lower()
        check_figure_files(out, f"canonic/{d['id']}/figure", fig["svg"])
        # each board shows its own panel too, the same picture
        (own,) = inline_figures(page(out, f"canonic/{d['id']}/index.html")[0]).values()
        assert svg_texts(own["svg"]) == svg_texts(fig["svg"]) and own["alt"] == fig["alt"]


def test_each_figure_panel_draws_exactly_its_published_rows(built_site, ref):
    names = {m["id"]: m["name"] for m in ref.sweep["models"]}
    figs = inline_figures(page(built_site.out, "canonic/index.html")[0])
    for d in domains(ref):
        fig = figs[f"figure-1-{d}"]
        texts, alt = svg_texts(fig["svg"]), fig["alt"]
        rows = [r for (m, dd), r in ref.rows.items() if dd == d]
        drawn = {names[r.model] for r in rows if r.published}
        withheld = {names[r.model] for r in rows if not r.published}
        assert drawn <= set(texts), d
        assert not (withheld & set(texts)), f"{d}: a withheld row is drawn"
        # the text alternative says the same as the picture: range of scores and the rows tied for first
        pub = [r for r in rows if r.published]
        lo, hi = min(r.score for r in pub), max(r.score for r in pub)
        assert any(x in alt for x in fmt_candidates(lo, 1)) and any(x in alt for x in fmt_candidates(hi, 1)), alt
        for r in pub:
            if r.rank_best == 1:
                assert names[r.model] in alt.split("irst: ", 1)[1], (d, names[r.model])  # "Tied for first: " or "First: "
        for name in withheld:
            assert name in alt  # named as withheld, in words
        # the figure's data download holds exactly the drawn rows, with the recomputed numbers
        _, data = read_csv(built_site.out / f"canonic/{d}/figure.csv")
        by_name = {names[r.model]: r for r in pub}
        assert sorted(x["model"] for x in data) == sorted(by_name)
        for x in data:
            r = by_name[x["model"]]
            assert (float(x["score"]), float(x["low"]), float(x["high"])) == pytest.approx((r.score, r.low, r.high), abs=1e-9)


def test_figures_2_and_3_are_inline_svg_with_their_files(built_site, ref):
    out = built_site.out
    ver = inline_figures(page(out, "canonic/verification/index.html")[0])
    diag = inline_figures(page(out, "canonic/diagnostics/index.html")[0])
    assert {"figure-2-domains", "figure-2-models"} <= set(ver) and "figure-3" in diag
    for fig, name in ((ver["figure-2-domains"], "canonic/figure-2-domains"), (ver["figure-2-models"], "canonic/figure-2-models"),
                      (diag["figure-3"], "canonic/figure-3")):
        assert fig["alt"].strip(), name
        check_figure_files(out, name, fig["svg"])
    for d in ref.sweep["domains"]:
        assert d["name"] in ver["figure-2-domains"]["alt"]
    for m in ref.sweep["models"]:
        assert m["name"] in ver["figure-2-models"]["alt"]
    for sh in ref.sweep["shows"]:
        assert sh["name"] in diag["figure-3"]["alt"] and sh["name"] in svg_texts(diag["figure-3"]["svg"])


def row_labels(svg: str) -> list[str]:
    """A figure's row labels (its y axis: labels ending left of the plot), from top to bottom."""
    labels = re.findall(r'<text text-anchor="end" transform="translate\(-[\d.]+,([-\d.]+)\)"[^>]*>([^<]*)</text>', svg)
    return [html.unescape(t) for _y, t in sorted(labels, key=lambda yt: float(yt[0]))]


def test_figure_3_rows_follow_the_sitcom_board_and_figure_2b_runs_from_most_excluded(built_site):
    out = built_site.out
    diag = inline_figures(page(out, "canonic/diagnostics/index.html")[0])
    ver = inline_figures(page(out, "canonic/verification/index.html")[0])
    _, board = read_csv(out / "canonic/sitcom-scene/board.csv")
    drawn = row_labels(diag["figure-3"]["svg"])
    assert drawn == [r["model_name"] for r in board if r["model_name"] in drawn] and len(drawn) >= 10
    _, cells = read_csv(out / "canonic/exclusions-by-model.csv")
    excluded = {r["model_name"]: sum(int(v) for k, v in r.items() if k not in ("model", "model_name", "counted", "synthetic")) for r in cells}
    bars = [label.rsplit(" (", 1)[0] for label in row_labels(ver["figure-2-models"]["svg"])]
    assert sorted(bars) == sorted(excluded)
    totals = [excluded[b] for b in bars]
    assert totals == sorted(totals, reverse=True) and totals[0] > totals[-1]


# --------------------------------------------------------------------------- the boards


def test_board_csv_numbers_equal_the_independent_recomputation(built_site, ref):
    names = {m["id"]: m["name"] for m in ref.sweep["models"]}
    for d in domains(ref):
        header, rows = read_csv(built_site.out / f"canonic/{d}/board.csv")
        assert sorted(r["model"] for r in rows) == sorted(m for (m, dom) in ref.rows if dom == d)
        for row in rows:
            r = ref.rows[(row["model"], d)]
            assert row["domain"] == d and row["model_name"] == names[r.model]
            assert (int(row["counted"]), int(row["attempted"]), int(row["total"])) == (r.counted, r.attempted, r.total)
            if r.published:
                assert row["status"] == "published"
                assert float(row["score"]) == pytest.approx(r.score, abs=1e-9)
                assert float(row["ci_low"]) == pytest.approx(r.low, abs=1e-9)
                assert float(row["ci_high"]) == pytest.approx(r.high, abs=1e-9)
                assert int(row["bootstrap_seed"]) == r.seed
                assert (int(row["rank_best"]), int(row["rank_worst"])) == (r.rank_best, r.rank_worst)
            else:
                assert row["status"] == "EXCLUDED"
                assert row["score"] == row["ci_low"] == row["ci_high"] == row["rank_best"] == row["rank_worst"] == ""
                assert row["withheld_reason"]


def test_board_json_carries_the_same_rows_as_the_csv(built_site, ref):
    for d in domains(ref):
        _, rows = read_csv(built_site.out / f"canonic/{d}/board.csv")
        doc = json.loads((built_site.out / f"canonic/{d}/board.json").read_text(encoding="utf-8"))
        assert [r["model"] for r in doc["rows"]] == [r["model"] for r in rows]
        for j in doc["rows"]:
            r = ref.rows[(j["model"], d)]
            if r.published:
                assert j["score"] == pytest.approx(r.score, abs=1e-9)
                assert (j["ci_low"], j["ci_high"]) == pytest.approx((r.low, r.high), abs=1e-9)
                assert (j["rank_best"], j["rank_worst"], j["bootstrap_seed"]) == (r.rank_best, r.rank_worst, r.seed)
            else:
                assert j["score"] is None and j["rank_best"] is None and j["rank_worst"] is None
        cells_sha = hashlib.sha256((built_site.root / CELLS_REL).read_bytes()).hexdigest()
        assert doc["sources"][CELLS_REL] == cells_sha


def test_board_page_shows_every_published_row_with_recomputed_score_interval_and_rank_range(built_site, ref):
    names = {m["id"]: m["name"] for m in ref.sweep["models"]}
    for d in domains(ref):
        _, board = page(built_site.out, f"canonic/{d}/index.html")
        shown = {row["cells"][1]: row for row in board.board_rows}
        expected_rows = [r for (m, dom), r in ref.rows.items() if dom == d]
        assert sorted(shown) == sorted(names[r.model] for r in expected_rows)
        for r in expected_rows:
            if not r.published:
                continue
            rank, _name, score, interval, counted, _flags = shown[names[r.model]]["cells"]
            assert rank == (str(r.rank_best) if r.rank_best == r.rank_worst else f"{r.rank_best}–{r.rank_worst}")
            assert score in fmt_candidates(r.score, 1), (d, r.model, score, r.score)
            lo, hi = (x.strip() for x in interval.split("–"))
            assert lo in fmt_candidates(r.low, 1) and hi in fmt_candidates(r.high, 1), (d, r.model, interval)
            assert counted == f"{r.counted} / {r.total}"


def test_published_rows_are_listed_by_score_then_withheld_rows(built_site, ref):
    names = {m["id"]: m["name"] for m in ref.sweep["models"]}
    for d in domains(ref):
        _, board = page(built_site.out, f"canonic/{d}/index.html")
        rows = [r for (m, dom), r in ref.rows.items() if dom == d]
        published = sorted((r for r in rows if r.published), key=lambda r: (-r.score, r.model))
        listed = [row["cells"][1] for row in board.board_rows]
        assert listed[:len(published)] == [names[r.model] for r in published]
        # withheld rows come after every ranked row, with no rank
        assert all(row["cells"][0] == "–" for row in board.board_rows[len(published):])


def test_self_family_flag_shown_for_models_sharing_a_judge_family(built_site, ref):
    judge_families = {j["family"] for j in ref.sweep["judges"]}
    flagged = {m["name"] for m in ref.sweep["models"] if m["family"] in judge_families}
    for d in domains(ref):
        _, board = page(built_site.out, f"canonic/{d}/index.html")
        for row in board.board_rows:
            assert ("self-family" in row["cells"][-1]) == (row["cells"][1] in flagged)
        _, rows = read_csv(built_site.out / f"canonic/{d}/board.csv")
        for row in rows:
            model = next(m for m in ref.sweep["models"] if m["id"] == row["model"])
            assert row["self_family"] == str(model["family"] in judge_families)


def test_every_board_of_every_family_flags_the_judges_house_alike(built_site, ref):
    """A row whose model comes from a judge's house is flagged self-family on every board, in
    the page (the same flag and legend everywhere) and in its CSV and JSON downloads. Houses as
    the data records them: Canonic's and NextChapterBench's contracts name them; ChronicleBench
    pins models by vendor/model slugs, whose vendor is the house."""
    out = built_site.out
    cohort = json.loads((built_site.root / "data/chronicle/cohort.json").read_text(encoding="utf-8"))
    run = json.loads((built_site.root / "data/nextchapter/run.json").read_text(encoding="utf-8"))
    judge_families = {j["family"] for j in ref.sweep["judges"]}
    vendor = cohort["instrument"]["judge_slug"].split("/")[0]
    boards = [(f"canonic/{d}/index.html", f"canonic/{d}/board", "model", "model_name",
               {m["id"] for m in ref.sweep["models"] if m["family"] in judge_families}) for d in domains(ref)]
    boards += [(f"chronicle/boards/{b['id']}/index.html", f"chronicle/boards/{b['id']}", "entrant", "name",
                {e["id"] for e in cohort["entrants"] if e["id"].split("/")[0] == vendor}) for b in cohort["boards"]]
    boards += [("nextchapter/index.html", "nextchapter/standings", "model", "name",
                {m["id"] for m in run["models"] if m["house"] == run["judge"]["house"]})]
    legend = re.compile(r'<span class="flag">self-family</span>: the model comes from the same house as [^<]+, '
                        r"who may favour its own house's writing; the risk is disclosed, not corrected\.")
    flagged_boards = 0
    for rel, stem, key, name, flagged in boards:
        _, rows = read_csv(out / f"{stem}.csv")
        doc = json.loads((out / f"{stem}.json").read_text(encoding="utf-8"))
        flagged &= {r[key] for r in rows}  # the house's entrants that are on this board
        assert {r[key] for r in rows if r["self_family"] == "True"} == flagged, stem
        assert {r[key] for r in doc["rows"] if r["self_family"]} == flagged, stem
        names = {r[name] for r in rows if r[key] in flagged}
        text, board = page(out, rel)
        for row in board.board_rows:
            shown = "self-family" in row["cells"][-1]
            assert shown == any(row["cells"][1].startswith(n) for n in names), (rel, row["cells"][1])
        assert text.count('title="This model comes from the same house as a judge">self-family</span>') == \
            sum(r[key] in flagged for r in doc["rows"] if r.get("shown_as", "headline") == "headline"), rel
        assert bool(legend.search(text)) == bool(flagged), rel
        flagged_boards += bool(flagged)
    assert flagged_boards >= 3 + 2 + 1  # Canonic's boards, two ChronicleBench boards, the standings


def test_withheld_row_is_rendered_excluded_with_reason_and_no_score(built_site, ref):
    (r,) = [r for r in ref.rows.values() if not r.published]
    name = next(m["name"] for m in ref.sweep["models"] if m["id"] == r.model)
    _, board = page(built_site.out, f"canonic/{r.domain}/index.html")
    (row,) = [x for x in board.board_rows if x["cells"][1] == name]
    text = " ".join(row["cells"])
    assert "EXCLUDED" in text
    _, csv_rows = read_csv(built_site.out / f"canonic/{r.domain}/board.csv")
    reason = next(x["withheld_reason"] for x in csv_rows if x["model"] == r.model)
    assert reason in text
    assert f"{r.counted} of {r.total}" in reason  # the reason states the count that failed the gate
    assert row["cells"][0] in ("", "–", "-")  # no rank
    # no score anywhere on the row: the only numbers are the counted / total
    rest = " ".join(c for i, c in enumerate(row["cells"]) if i != 1).replace(reason, "")
    numbers = re.findall(r"\d+(?:\.\d+)?", rest)
    assert sorted(numbers) == sorted([str(r.counted), str(r.total)])


# --------------------------------------------------------------------------- no overall score


AGGREGATE_WORDS = ("overall", "aggregate", "grandmean", "totalscore", "crossdomain", "meanofdomains")


def aggregate_like(key: str) -> bool:
    norm = re.sub(r"[^a-z0-9]", "", key.lower())
    return any(w in norm for w in AGGREGATE_WORDS)


def json_keys(value, loc="$"):
    if isinstance(value, dict):
        for k, v in value.items():
            yield f"{loc}.{k}", k
            yield from json_keys(v, f"{loc}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from json_keys(v, f"{loc}[{i}]")


def test_no_download_carries_an_overall_field_or_column(built_site):
    out = built_site.out
    csvs = sorted(out.rglob("*.csv"))
    jsons = sorted(out.rglob("*.json"))
    assert len(csvs) >= 7 and len(jsons) >= 8
    bad = []
    for p in csvs:
        header, _ = read_csv(p)
        bad += [(p.name, c) for c in header if aggregate_like(c)]
    for p in jsons:
        doc = json.loads(p.read_text(encoding="utf-8"))
        keys = json_keys({k: v for k, v in doc.items() if k != "files"} if p.name == "manifest.json" else doc)
        bad += [(p.name, loc) for loc, k in keys if aggregate_like(k)]
    assert bad == []


def test_no_table_header_reads_overall(built_site):
    for p in sorted(built_site.out.rglob("*.html")):
        ths = Page(p.read_text(encoding="utf-8")).th
        assert [t for t in ths if "overall" in t.lower() or "aggregate" in t.lower()] == []


def test_no_board_mixes_domains(built_site, ref):
    for d in domains(ref):
        _, rows = read_csv(built_site.out / f"canonic/{d}/board.csv")
        assert {r["domain"] for r in rows} == {d}
        assert len(rows) == len(ref.sweep["models"])


# --------------------------------------------------------------------------- the method page


def test_method_page_worked_example_matches_recomputation(built_site, ref):
    text, _ = page(built_site.out, "canonic/method/index.html")
    m = re.search(r'<div class="worked[" ][^>]*>(.*?)(<h2|</main>)', text, re.S)
    assert m, "worked example missing"
    worked = m.group(1)
    model, task, domain = ref.first_counted
    names = {x["id"]: x["name"] for x in ref.sweep["models"]}
    judge_names = {j["id"]: j["name"] for j in ref.sweep["judges"]}
    assert names[model] in worked and f"<code>{task}</code>" in worked
    for judge, w in ref.judge_scores[(model, task)]:
        assert judge_names[judge] in worked
        assert any(f"weighted score {s}" in worked for s in fmt_candidates(w, 2)), (judge, w)
    task_score = ref.rows[(model, domain)].task_scores[task]
    assert any(f"<strong>{s}</strong>" in worked for s in fmt_candidates(task_score, 2))
    row = ref.rows[(model, domain)]
    assert f"{row.counted} of {row.total}" in worked
    if row.published:
        assert any(f"<strong>{s}</strong>" in worked for s in fmt_candidates(row.score, 2))
        assert f"{ref.sweep['sweep']['id']}|{model}|{domain}" in worked
        assert f"<code>{row.seed}</code>" in worked
        assert any(f"[{lo}, {hi}]" in worked for lo in fmt_candidates(row.low, 2) for hi in fmt_candidates(row.high, 2))


def test_method_page_documents_the_recipe_and_the_rubrics(built_site, ref):
    text, _ = page(built_site.out, "canonic/method/index.html")
    for needle in ("sha256", "digest()[:8]", '"big"', "default_rng(seed)", "size=(10000, n)", "[2.5, 97.5]"):
        assert needle in text.replace("&quot;", '"'), needle
    assert "There is no overall score" in text
    for d in ref.sweep["domains"]:
        for dim in d["rubric"]["dimensions"]:
            assert f"<code>{dim['id']}</code>" in text
            for a in dim["anchors"]:
                assert a["descriptor"].replace("&", "&amp;").replace("'", "&#39;").replace('"', "&#34;") in text


# --------------------------------------------------------------------------- the manifest


def test_manifest_lists_every_output_file_with_its_sha256(built_site):
    out = built_site.out
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    actual = hash_tree(out)
    del actual["manifest.json"]
    assert manifest["files"] == actual
    for rel in (SWEEP_REL, CELLS_REL):
        assert manifest["sources"][rel] == hashlib.sha256((built_site.root / rel).read_bytes()).hexdigest()


# --------------------------------------------------------------------------- untrusted text


def test_untrusted_text_is_escaped_everywhere(site_copy, tmp_path):
    evil_name = "<script>alert(1)</script>"
    evil_rationale = '<script>alert(2)</script><img src=x onerror="alert(3)">'
    sweep = read_sweep(site_copy)
    victim = sweep["models"][0]
    victim["name"] = evil_name
    write_sweep(site_copy, sweep)
    line = next(i for i, x in enumerate((site_copy / CELLS_REL).read_text(encoding="utf-8").splitlines(), 1)
                if two_standard_scores(json.loads(x)))
    rewrite_cell_line(site_copy, line, lambda r: r["judgments"][0].__setitem__("rationale", evil_rationale))
    index = site_copy / "content" / "index.md"
    index.write_text(index.read_text(encoding="utf-8")
                     + "\n<script>alert(4)</script>\n\nSee [this](javascript:alert(5)) and <b onclick=alert(6)>x</b>.\n",
                     encoding="utf-8")

    out = tmp_path / "out"
    build(load_config(site_copy), out)

    markup = sorted(out.rglob("*.html")) + sorted(out.rglob("*.svg"))
    for p in markup:
        text = p.read_text(encoding="utf-8")
        assert "<script" not in text.lower(), p
        assert re.search(r"<[a-z][^>]*\son[a-z]+\s*=", text, re.I) is None, p  # no live event handler
        assert 'href="javascript:' not in text.lower(), p
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;"
    for d in sweep["domains"]:
        text, board = page(out, f"canonic/{d['id']}/index.html")
        assert escaped in text
        assert evil_name in [row["cells"][1] for row in board.board_rows]  # shown as text, intact
    assert "&lt;script&gt;alert(4)&lt;/script&gt;" in (out / "index.html").read_text(encoding="utf-8")
    # the data downloads carry the name as data, unmangled
    _, rows = read_csv(out / f"canonic/{sweep['domains'][0]['id']}/board.csv")
    assert evil_name in [r["model_name"] for r in rows]


def test_every_download_of_synthetic_data_says_so(built_site):
    """A table's CSV (a last column `synthetic`) and JSON (`"synthetic": true`), a figure's data
    CSV, SVG and PNG (the note drawn in): a file passed on without its page still says it."""
    manifest = json.loads((built_site.out / "manifest.json").read_text(encoding="utf-8"))
    note = "Synthetic demo data: no real model was evaluated."
    kinds = Counter()
    for name, art in manifest["artifacts"].items():
        for rel in art["files"]:
            data = (built_site.out / rel).read_bytes()
            if rel.endswith(".csv"):
                header, rows = read_csv(built_site.out / rel)
                assert header[-1] == "synthetic" and all(r["synthetic"] == "True" for r in rows), rel
            elif rel.endswith(".vl.json"):
                assert note in json.dumps(json.loads(data)["title"]), rel
            elif rel.endswith(".json"):
                assert json.loads(data)["synthetic"] is True, rel
            elif rel.endswith(".svg"):
                assert note in data.decode("utf-8"), rel
            kinds[rel.rsplit(".", 1)[-1]] += 1
    assert kinds["csv"] and kinds["json"] and kinds["svg"] and kinds["png"]
