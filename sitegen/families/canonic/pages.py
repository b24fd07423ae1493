"""What Canonic publishes: its pages, its downloads, Figure 1 and the method-page fragments.

Every table handed to the writer is a per-domain or per-cell table: there is no column,
sort or download that combines domains into one number.
"""

from __future__ import annotations

from collections import Counter

from sitegen.families import Figure, Outputs, Page, Table
from sitegen.families.canonic.compute import CanonicResults
from sitegen.families.canonic.evidence_pages import evidence_outputs
from sitegen.families.canonic.figure import draw_domain_panel
from sitegen.families.canonic.store import REASONS
from sitegen.families.canonic.validate import CELLS_FILE, SWEEP_FILE

BOARD_COLUMNS = [
    "domain", "band", "model", "model_name", "status", "score", "ci_low", "ci_high",
    "counted", "attempted", "total", "self_family", "withheld_reason", "bootstrap_seed",
]


def row_anchor(model: str) -> str:
    """The id of a model's board row: the model id itself, which is unique and a valid id
    (slugs have no whitespace), so no two rows can share an anchor."""
    return f"row-{model}"


def _board_table(res: CanonicResults, board, sources) -> Table:
    rows = [
        (board.domain, r.band, r.model, r.name, "published" if r.published else "EXCLUDED", r.score, r.low, r.high,
         r.counted, r.attempted, r.total, r.self_family, r.reason, r.seed)
        for r in board.rows
    ]
    return Table(f"canonic/{board.domain}/board", f"Canonic Stage 1, {board.name}: board", BOARD_COLUMNS, rows, sources, "canonic.board")


def outputs(res: CanonicResults) -> Outputs:
    s = res.sweep
    inp = res.input
    sources = {SWEEP_FILE: inp.sweep_file.sha256, CELLS_FILE: inp.cells_file.sha256}
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

    figures = {
        b.domain: Figure(
            f"canonic/{b.domain}/figure",
            [{"domain": b.name, "model": r.name, "score": r.score, "low": r.low, "high": r.high} for r in b.published],
            draw_domain_panel, _panel_alt(b), sources, "canonic.board")
        for b in res.boards
    }
    withheld = [(b.name, r) for b in res.boards for r in b.withheld]

    common = {
        "sweep": s, "res": res, "sources": sources, "synthetic": synthetic,
        "sweep_sha": inp.sweep_file.sha256, "cells_sha": inp.cells_file.sha256,
    }
    tables = [_board_table(res, b, sources) for b in res.boards]
    tables.append(Table("canonic/exclusions", "Canonic Stage 1: cells counted and excluded, by domain and reason",
                        ["domain", "domain_name", "counted", *[r.replace(" ", "_") for r in REASONS]], exclusion_rows, sources,
                        "canonic.exclusions"))

    pages = [Page("canonic/index.html", "canonic/home.html", "Canonic Stage 1", {
        **common, "figures": figures, "withheld": withheld, "tasks_per_domain": tasks_per_domain,
        "exclusion_rows": exclusion_rows, "reasons": REASONS, "by_reason": by_reason,
    })]
    for b in res.boards:
        pages.append(Page(f"canonic/{b.domain}/index.html", "canonic/board.html", f"{b.name}: Canonic Stage 1 board", {
            **common, "board": b, "domain": domains[b.domain], "n_tasks": tasks_per_domain[b.domain],
            "row_anchor": row_anchor, "figure": figures[b.domain],
        }))

    fragments = {
        "canonic.identifiers": ("canonic/_identifiers.html", common),
        "canonic.rubrics": ("canonic/_rubrics.html", {**common, "domains": s.domains}),
        "canonic.worked-example": ("canonic/_worked_example.html", {**common, "ex": res.example, "domains": domains}),
        "canonic.pins": ("canonic/_pins.html", common),
    }
    summary = {
        "id": "canonic", "title": "Canonic Stage 1", "href": "canonic/", "synthetic": synthetic,
        "links": [("Boards", "canonic/"), ("Method", "canonic/method/"), ("Verification", "canonic/verification/"),
                  ("Diagnostics", "canonic/diagnostics/"), ("Ladders", "canonic/ladders/")],
        "line": f"Six creative-writing domains scored separately by two judges; {res.rows_published} of {res.rows_total} model-domain rows published; no overall score.",
    }
    raw = [SWEEP_FILE, CELLS_FILE, inp.freeze.source.rel, *(f.rel for f in (inp.probes_file, inp.external_file) if f)]
    raw += [f.rel for f in inp.freeze.documents]
    texts = {
        "canonic.public-rows": f"{res.rows_published} of {res.rows_total} model-domain rows met the publication gate.",
        "canonic.counted-cells": f"The benchmark evaluates {res.cells_total:,} cells, of which {res.cells_counted:,} counted under the two-judge rule.",
        "canonic.artifact": f"Artifact SHA-256 {inp.cells_file.sha256} (cells.jsonl); sweep definition SHA-256 {inp.sweep_file.sha256}.",
        "canonic.task-set": f"The public task-set fingerprint is {s.task_set_fingerprint}.",
    }
    if withheld:
        listed = "; ".join(f"{r.name} on {dname}" for dname, r in withheld)
        texts["canonic.withheld"] = f"Withheld by the publication gate, visibly rather than silently removed: {listed}."
    out = Outputs(pages=pages, tables=tables, figures=list(figures.values()), fragments=fragments, summary=summary,
                  raw_files=sorted(raw), texts=texts)
    evidence_outputs(res, {**common, "exclusion_rows": exclusion_rows}, out)
    return out


def _panel_alt(board) -> str:
    """The text alternative of one panel: what a sighted reader takes from it."""
    pub = board.published
    if not pub:
        return f"{board.name}: no row published."
    hi = max(pub, key=lambda r: (r.score, r.name))
    lo = min(pub, key=lambda r: (r.score, r.name))
    top = ", ".join(r.name for r in pub if r.band == 1)
    text = (f"{board.name}: score and 95% interval of {len(pub)} published models, from {lo.name} "
            f"at {lo.score:.1f} to {hi.name} at {hi.score:.1f}. Top band (tied): {top}.")
    if board.withheld:
        text += " Withheld, so not drawn: " + ", ".join(r.name for r in board.withheld) + "."
    return text
