"""What Canonic publishes: its pages, its downloads, Figure 1 and the method-page fragments.

Every table handed to the writer is a per-domain or per-cell table: there is no column,
sort or download that combines domains into one number.
"""

from __future__ import annotations

from collections import Counter

from sitegen import amendments, stats
from sitegen.families import Figure, Outputs, Page, Table, first_rows
from sitegen.families.canonic import kept
from sitegen.families.canonic.compute import CanonicResults
from sitegen.families.canonic.evidence_pages import evidence_outputs
from sitegen.families.canonic.feed import feed_entries
from sitegen.families.canonic.figure import draw_domain_panel
from sitegen.families.canonic.sentences import SENTENCES
from sitegen.families.canonic.store import REASONS
from sitegen.families.canonic.row_pages import row_outputs, row_path
from sitegen.families.canonic.task_pages import task_outputs
from sitegen.families.canonic.validate import SWEEP_FILE

BOARD_COLUMNS = [
    "domain", "rank_best", "rank_worst", "model", "model_name", "status", "score", "ci_low", "ci_high",
    "counted", "attempted", "total", "self_family", "withheld_reason", "bootstrap_seed",
]


def _board_table(res: CanonicResults, board, sources) -> Table:
    rows = [
        (board.domain, r.rank_best, r.rank_worst, r.model, r.name, "published" if r.published else "EXCLUDED", r.score, r.low, r.high,
         r.counted, r.attempted, r.total, r.self_family, r.reason, r.seed)
        for r in board.rows
    ]
    return Table(f"canonic/{board.domain}/board", SENTENCES.table_board(board), BOARD_COLUMNS, rows, sources, "canonic.board")


def outputs(res: CanonicResults) -> Outputs:
    s = res.sweep
    inp = res.input
    sources = {SWEEP_FILE: inp.sweep_file.sha256, inp.cells_file.rel: inp.cells_file.sha256}
    synthetic = s.synthetic
    domains = {d.id: d for d in s.domains}
    tasks_per_domain = Counter(t.domain for t in s.tasks)

    exclusions: dict[str, dict[str, int]] = {d.id: {} for d in s.domains}
    for domain, status, n in res.exclusions:
        exclusions[domain][status] = n
    exclusion_rows = [
        (d.id, d.name, exclusions[d.id].get("counted", 0), *(exclusions[d.id].get(r, 0) for r in REASONS))
        for d in s.domains
    ]
    by_reason = {r: sum(exclusions[d][r] for d in exclusions if r in exclusions[d]) for r in REASONS}

    figures = {b.domain: _panel(b, sources) for b in res.boards}
    withheld = [(b.name, r) for b in res.boards for r in b.withheld]

    # Every page's `tables` (stem -> Table), filled in once the evidence pages have added theirs,
    # so that each table a page shows can put its downloads beside it.
    by_stem: dict[str, Table] = {}
    common = {
        "sweep": s, "res": res, "sources": sources, "synthetic": synthetic,
        "sweep_sha": inp.sweep_file.sha256, "cells_sha": inp.cells_file.sha256, "cells_rel": inp.cells_file.rel, "tables": by_stem,
    }
    tables = [_board_table(res, b, sources) for b in res.boards]
    tables.append(Table("canonic/exclusions", SENTENCES.table_exclusions(),
                        ["domain", "domain_name", "counted", *[r.replace(" ", "_") for r in REASONS]], exclusion_rows, sources,
                        "canonic.exclusions"))
    tables.extend(_reference_tables(res, sources, tasks_per_domain))

    pages = [Page("canonic/index.html", "canonic/home.html", SENTENCES.page_home(), {
        **common, "figures": figures, "withheld": withheld, "tasks_per_domain": tasks_per_domain,
        "exclusion_rows": exclusion_rows, "reasons": REASONS, "by_reason": by_reason,
    })]
    for b in res.boards:
        pages.append(Page(f"canonic/{b.domain}/index.html", "canonic/board.html", SENTENCES.page_board(b), {
            **common, "board": b, "domain": domains[b.domain], "n_tasks": tasks_per_domain[b.domain], "row_path": row_path,
            "figure": figures[b.domain],
        }))

    fragments = {
        "canonic.identifiers": ("canonic/_identifiers.html", common),
        "canonic.rubrics": ("canonic/_rubrics.html", {**common, "domains": s.domains}),
        "canonic.worked-example": ("canonic/_worked_example.html", {**common, "ex": res.example, "domains": domains}),
        "canonic.pins": ("canonic/_pins.html", common),
        "canonic.ranks": ("_rank_example.html", {**common, **_rank_example(res)}),
    }
    summary = {
        "id": "canonic", "title": "Canonic Stage 1", "href": "canonic/", "synthetic": synthetic,
        "nav": [("home", [("Canonic Stage 1", "canonic/")]), ("boards", [("Boards", "canonic/#domains")]),
                ("method", [("Method", "canonic/method/"), ("Tasks", "canonic/tasks/")]),
                ("evidence", [("Verification", "canonic/verification/"), ("Diagnostics", "canonic/diagnostics/"), ("Ladders", "canonic/ladders/")]),
                ("data", [("Downloads", "downloads/#dl-canonic")])],
        "line": SENTENCES.line(res),
        "result": {"dated": "sweep", "date": s.sweep.date, "boards": [
            {"number": None, "name": b.name, "href": f"canonic/{b.domain}/", "first": [r.name for r in b.first],
             "ranked": sum(r.rank_best is not None for r in b.rows), "entrants": len(b.rows)} for b in res.boards]},
    }
    raw = [SWEEP_FILE, inp.cells_file.rel, inp.freeze.source.rel, *(f.rel for f in (inp.probes_file, inp.external_file) if f)]
    raw += [f.rel for f in inp.freeze.documents]
    texts = {
        "canonic.public-rows": SENTENCES.public_rows(res),
        "canonic.counted-cells": SENTENCES.counted_cells(res),
        "canonic.artifact": SENTENCES.artifact(inp),
        "canonic.task-set": SENTENCES.task_set(s),
    }
    if withheld:
        texts["canonic.withheld"] = SENTENCES.withheld(withheld)
    out = Outputs(pages=pages, tables=tables, figures=list(figures.values()), fragments=fragments, summary=summary,
                  raw_files=sorted(raw), texts=texts, feed=feed_entries(res), kept=kept.records(inp))
    evidence_outputs(res, {**common, "exclusion_rows": exclusion_rows}, out)
    task_outputs(res, common, out)
    row_outputs(res, common, out)
    if inp.log is not None:
        amendments.publish(out, "canonic", summary["title"], inp.log, common)
    by_stem.update({t.stem: t for t in out.tables})
    return out


def _reference_tables(res: CanonicResults, sources: dict[str, str], tasks_per_domain) -> list[Table]:
    """The downloads of the tables that show the boards' overview, the pins, the rubrics and the
    worked example (each a table on the site, so each a CSV and JSON beside it). The overview
    lists each board's own first rows; it ranks nothing across domains."""
    s = res.sweep
    sweep_only = {SWEEP_FILE: sources[SWEEP_FILE]}
    judge_families = {j.family for j in s.judges}
    out = [
        Table("canonic/boards", SENTENCES.table_boards(res),
              ["domain", "domain_name", "tasks_per_model", "rows_published", "rows", "first"],
              [(b.domain, b.name, tasks_per_domain[b.domain], len(b.published), len(b.rows),
                "; ".join(r.name for r in b.first)) for b in res.boards], sources, "canonic.board"),
        Table("canonic/pins", SENTENCES.table_pins(),
              ["role", "id", "name", "family", "shares_family_with_judge"],
              [("judge", j.id, j.name, j.family, None) for j in s.judges]
              + [("model", m.id, m.name, m.family, m.family in judge_families) for m in s.models], sweep_only, "canonic.pins"),
    ]
    for d in s.domains:
        out.append(Table(f"canonic/{d.id}/rubric", SENTENCES.table_rubric(d),
                         ["domain", "rubric_version", "dimension", "weight", "scope", "question", "anchor", "descriptor"],
                         [(d.id, d.rubric.version, dim.id, dim.weight, dim.scope, dim.question, a.value, a.descriptor)
                          for dim in d.rubric.dimensions for a in dim.anchors], sweep_only, "canonic.rubric"))
    ex = res.example
    if ex is not None:
        out.append(Table("canonic/worked-example", SENTENCES.table_worked_example(ex),
                         ["model", "task", "domain", "judge", "dimension", "weight", "anchor", "weighted_term", "judge_weighted_score", "task_score"],
                         [(ex.model, ex.task, ex.domain, j["id"], dim, w, a, term, j["score"], ex.task_score)
                          for j in ex.judges for dim, w, a, term in j["terms"]], sources, "canonic.worked-example"))
    return out


def _rank_example(res: CanonicResults) -> dict:
    """The method page's worked rank range: on the first board (in domain order) that ranks a row."""
    board = next((b for b in res.boards if b.published), None)
    rows = board.published if board else []
    return {"rank_ex": stats.rank_example([stats.Interval(r.model, r.low, r.high) for r in rows]),
            "rank_names": {r.model: r.name for r in rows}, "rank_where": f"the {board.name} board" if board else "",
            "rank_interval": "95% interval", "rank_fmt": {"places": 2}}


def _panel(b, sources: dict[str, str]) -> Figure:
    """Figure 1's panel of board B: its published rows in the board's order (the first
    FIGURE_ROWS of them; the board's table lists every one)."""
    drawn, cut = first_rows(b.published, f"canonic/{b.domain}/board")
    return Figure(f"canonic/{b.domain}/figure",
                  [{"domain": b.name, "model": r.name, "score": r.score, "low": r.low, "high": r.high, "rank_best": r.rank_best,
                    "rank_worst": r.rank_worst, "model_id": r.model} for r in drawn],
                  draw_domain_panel, _panel_alt(b), sources, "canonic.board", cut=cut)


def _panel_alt(board) -> str:
    """The text alternative of one panel: what a sighted reader takes from it."""
    pub = board.published
    hi = max(pub, key=lambda r: (r.score, r.name)) if pub else None
    lo = min(pub, key=lambda r: (r.score, r.name)) if pub else None
    return SENTENCES.panel_alt(board, lo, hi)
