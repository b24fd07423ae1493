"""What a declared benchmark publishes of each metric other than the headline (scorers.py): its
boards of every sweep, apart from the headline's and never blended with them.

The headline metric's boards keep the family's own addresses (pages.py). Another metric M's
boards of the current sweep are pages of their own, <fid>/metrics/<M>/boards/<board>/, with their
tables (board.csv, and criteria.csv for a metric of criteria) and figure beside them; an archived
sweep's are tables sweeps/<sweep>/<board>--<M> (a board's address never holds "--"), shown on the
sweep's page under the metric's label. The home lists every metric's boards under its label.
"""

from __future__ import annotations

from sitegen.families import Figure, Page, first_rows
from sitegen.families.declared.compute import DeclaredResults, SweepResult
from sitegen.families.declared.figure import draw_board
from sitegen.families.declared.sentences import SENTENCES


def board_path(fid: str, metric: str, board: str) -> str:
    return f"{fid}/metrics/{metric}/boards/{board}/index.html"


def criteria_path(fid: str, metric: str, board: str) -> str:
    return f"{fid}/metrics/{metric}/boards/{board}/criteria/index.html"


def stem(r: SweepResult, board: str, current: bool) -> str:
    """The stem (under <fid>/) of metric result R's table of BOARD: its page's, or its archived sweep's."""
    return f"metrics/{r.metric.id}/boards/{board}/board" if current else f"sweeps/{r.id}/{board}--{r.metric.id}"


def criteria_stem(r: SweepResult, board: str, current: bool) -> str:
    return f"metrics/{r.metric.id}/boards/{board}/criteria" if current else f"sweeps/{r.id}/{board}--{r.metric.id}-criteria"


def tables(res: DeclaredResults, s: SweepResult, table, columns: tuple, rows: tuple, figures: dict, used: dict, whole: bool):
    """Every other metric's tables of sweep S; for the current sweep, yields its ranked boards'
    figures, each also put in FIGURES under "<metric>/<board>". TABLE is pages.outputs' table maker; COLUMNS and
    ROWS its board and criteria columns and row makers."""
    fid, cfg = res.input.fid, res.config
    board_columns, criteria_columns = columns
    board_rows, criteria_rows = rows
    current = s is res.current
    for r in s.others:
        synthetic = r.config.synthetic
        for b in r.boards:
            st = stem(r, b.id, current)
            table(st, SENTENCES.table_metric_board(cfg, r, b), board_columns, board_rows(r, b), "board", used, synthetic)
            if r.metric.kind == "criteria":
                table(criteria_stem(r, b.id, current), SENTENCES.table_board_criteria(cfg, r, b), criteria_columns,
                      criteria_rows(r, b, r.config), "criteria-board", used, synthetic)
            if current and b.published and b.ranked:
                drawn, cut = first_rows(b.published, f"{fid}/{st}")
                data = [{"model": x.model, "name": x.name, "score": x.score, "low": x.low, "high": x.high,
                         "rank_best": x.rank_best, "rank_worst": x.rank_worst} for x in drawn]
                fig = Figure(f"{fid}/metrics/{r.metric.id}/boards/{b.id}/figure", data, draw_board, SENTENCES.board_alt(b, b.published),
                             used, f"{fid}.board", cut=cut, synthetic=synthetic and not whole)
                figures[f"{r.metric.id}/{b.id}"] = fig
                yield fig


def pages(res: DeclaredResults, common: dict, figures: dict, cells) -> list[Page]:
    """The board pages (and, for a metric of criteria, its criterion pages) of every other metric
    of the current sweep. CELLS is pages._cells."""
    fid, cfg, out = res.input.fid, res.config, []
    for r in res.current.others:
        for b in r.boards:
            here = board_path(fid, r.metric.id, b.id)
            crit = r.metric.kind == "criteria" and b.published
            ctx = {**common, "cfg": r.config, "board": b, "sweep": r, "board_here": here, "board_stem": stem(r, b.id, True),
                   "board_figure": figures.get(f"{r.metric.id}/{b.id}"), "criteria_page": crit}
            out.append(Page(here, "declared/board.html", f"{b.label}, {r.metric.label}: {cfg.title}", ctx))
            if crit:
                out.append(Page(criteria_path(fid, r.metric.id, b.id), "declared/criteria.html",
                                f"{b.label}, {r.metric.label}, criterion by criterion: {cfg.title}",
                                {**ctx, "cells": cells(r, b), "criteria_stem": criteria_stem(r, b.id, True)}))
    return out
