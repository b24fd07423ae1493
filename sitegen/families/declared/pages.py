"""What a declared benchmark publishes: its home, a page per board of the current sweep, a page
per earlier sweep (archived, never rescored), a page per prompt with every output and every
judge's reading, the method page's generated section, and a CSV and JSON of every table.

Every sentence on these pages is in the family's templates (templates/declared/) or comes
from the site's configuration and content; this module only arranges the numbers.
"""

from __future__ import annotations

import json

from html import escape

from sitegen import amendments, render
from sitegen.families import FeedEntry, Figure, Outputs, Page, Table, first_rows
from sitegen.families.declared import settings
from sitegen.families.declared.compare import comparisons
from sitegen.families.declared.compute import Board, DeclaredResults, SweepResult
from sitegen.families.declared.figure import draw_board
from sitegen.families.declared.sentences import SENTENCES
from sitegen.families.declared.validate import config_rel, freeze_rel


def board_path(fid: str, board: str) -> str:
    return f"{fid}/boards/{board}/index.html"


def sweep_path(fid: str, sweep: str) -> str:
    return f"{fid}/sweeps/{sweep}/index.html"


def item_path(fid: str, prompt: str) -> str:
    return f"{fid}/items/{prompt}/index.html"


def criteria_path(fid: str, board: str) -> str:
    return f"{fid}/boards/{board}/criteria/index.html"


def compare_path(fid: str, before: str, after: str) -> str:
    return f"{fid}/compare/{before}/{after}/index.html"


def settings_of(res: DeclaredResults, sweep: SweepResult):
    """The configuration SWEEP was computed with (its criteria, boards, repeats, gate, synthetic):
    the top level's, its own tables in place. A sweep's readings are shown under these."""
    return sweep.config or res.config


def settings_rows(s: SweepResult, cfg) -> list[tuple]:
    """Sweep S's settings as (sweep, setting, value) rows: each criterion's fields, then each
    other table's, dotted ("criteria.voice.weight", "gate.min_scored_share"); lists as JSON."""
    rows = []
    for c in cfg.criteria:
        rows += [(s.id, f"criteria.{c.id}.{k}", v) for k, v in c.model_dump(mode="json").items() if k != "id"]
    for key in settings.SWEEP_SETTINGS:
        if key == "synthetic":
            rows.append((s.id, key, cfg.synthetic))
        elif key != "criteria":
            rows += [(s.id, f"{key}.{k}", json.dumps(v) if isinstance(v, list) else v) for k, v in getattr(cfg, key).model_dump(mode="json").items()]
    return rows


def outputs(res: DeclaredResults) -> Outputs:
    inp, cfg, fid = res.input, res.config, res.input.fid
    sources = {rel: sf.sha256 for rel, sf in sorted(inp.files.items())}
    out = Outputs()
    tables: dict[str, Table] = {}
    # Synthetic is each sweep's: a family wholly synthetic is marked everywhere (published());
    # one only some of whose sweeps are marks those sweeps' tables, figures and pages alone.
    whole = all(settings_of(res, s).synthetic for s in res.sweeps)

    def table(stem, title, columns, rows, computation, used=None, synthetic=False):
        t = Table(f"{fid}/{stem}", title, columns, rows, used or sources, f"{fid}.{computation}", synthetic and not whole)
        out.tables.append(t)
        tables[t.stem] = t
        return t

    def sweep_sources(s: SweepResult) -> dict[str, str]:
        """Every file the family read but the other sweeps' items: what this sweep's tables come from."""
        others = {f for x in inp.sweeps if x.id != s.id for f in x.files}
        return {r: h for r, h in sources.items() if r not in others}

    board_columns = ["sweep", "board", "model", "name", "house", "expected", "scored", "failed", "missing", "unscored", "published",
                     "score", "low", "high", "prompts", "rank_best", "rank_worst", "seed"]

    criteria_columns = ["sweep", "board", "criterion", "label", "direction", "min", "max", "model", "name", "mean", "low", "high", "prompts", "seed"]

    def criteria_rows(s: SweepResult, b: Board, scfg):
        crit, names = {c.id: c for c in scfg.criteria}, {r.model: r.name for r in b.rows}
        return [(s.id, b.id, x.criterion, crit[x.criterion].label, crit[x.criterion].direction, crit[x.criterion].min, crit[x.criterion].max,
                 x.model, names[x.model], x.mean, x.low, x.high, x.prompts, None if x.seed is None else str(x.seed)) for x in s.criteria.get(b.id, [])]

    def board_rows(s: SweepResult, b: Board):
        return [(s.id, b.id, r.model, r.name, r.house, r.expected, r.scored, r.failed, r.missing, r.unscored, r.published,
                 r.score, r.low, r.high, r.prompts, r.rank_best, r.rank_worst, None if r.seed is None else str(r.seed)) for r in b.rows]

    judges = {j.id: j for j in cfg.judges}
    current = res.current
    figures = {}
    for s in res.sweeps:
        used, scfg = sweep_sources(s), settings_of(res, s)
        for b in s.boards:
            stem = f"boards/{b.id}/board" if s is current else f"sweeps/{s.id}/{b.id}"
            table(stem, f"{cfg.title}, {b.label}, sweep {s.id}", board_columns, board_rows(s, b), "board", used, scfg.synthetic)
            cstem = f"boards/{b.id}/criteria" if s is current else f"sweeps/{s.id}/{b.id}-criteria"
            table(cstem, SENTENCES.table_board_criteria(cfg, s, b), criteria_columns, criteria_rows(s, b, scfg), "criteria-board", used, scfg.synthetic)
            if s is current and b.published and b.ranked:  # an unranked board has no interval to draw
                drawn, cut = first_rows(b.published, f"{fid}/{stem}")
                data = [{"model": r.model, "name": r.name, "score": r.score, "low": r.low, "high": r.high,
                         "rank_best": r.rank_best, "rank_worst": r.rank_worst} for r in drawn]
                figures[b.id] = Figure(f"{fid}/boards/{b.id}/figure", data, draw_board,
                                       SENTENCES.board_alt(b, b.published),
                                       used, f"{fid}.board", cut=cut, synthetic=scfg.synthetic and not whole)
                out.figures.append(figures[b.id])
        criteria = [c.id for c in scfg.criteria]
        table(f"sweeps/{s.id}/items", SENTENCES.table_sweeps_each_items(scfg, s),
              ["sweep", "model", "prompt", "iteration", "state", "attempts", "outcome", "reason", "judge", "score", *criteria],
              item_rows(s, criteria), "items", used, scfg.synthetic)
        table(f"sweeps/{s.id}/settings", SENTENCES.table_settings(s), ["sweep", "setting", "value"], settings_rows(s, scfg), "settings",
              {config_rel(fid): sources[config_rel(fid)]}, scfg.synthetic)

    compared = comparisons(res)
    for c in compared:
        synthetic = settings_of(res, c.before).synthetic or settings_of(res, c.after).synthetic
        table(f"compare/{c.slug}/shifts", SENTENCES.table_shifts(cfg, c),
              ["before", "after", "board", "model", "name", "score_before", "rank_best_before", "rank_worst_before",
               "score_after", "rank_best_after", "rank_worst_after", "shift", "low", "high", "prompts", "seed"],
              [(c.before.id, c.after.id, bc.id, x.model, x.name, x.before.score, x.before.rank_best, x.before.rank_worst, x.after.score,
                x.after.rank_best, x.after.rank_worst, x.shift, x.low, x.high, x.prompts, None if x.seed is None else str(x.seed))
               for bc in c.boards for x in bc.shifts], "shift", None, synthetic)
        table(f"compare/{c.slug}/correlation", SENTENCES.table_correlation(cfg, c),
              ["before", "after", "board", "models", "prompts", "rho", "low", "high", "seed"],
              [(c.before.id, c.after.id, bc.id, len(bc.shifts), bc.rho_prompts, bc.rho, bc.rho_low, bc.rho_high,
                None if bc.rho_seed is None else str(bc.rho_seed)) for bc in c.boards], "rank-correlation", None, synthetic)
    logs = [(s.id, log) for s in inp.sweeps for log in s.logs]
    if logs:
        table("inspect-logs", SENTENCES.table_logs(cfg),
              ["sweep", "file", "sha256", "status", "eval_id", "run_id", "task", "task_id", "task_version", "model", "created",
               "generation_config", "samples"],
              [(sid, g.file, g.sha256, g.status, g.eval_id, g.run_id, g.task, g.task_id, g.task_version, g.model, g.created,
                json.dumps(g.generation_config, sort_keys=True, ensure_ascii=False), g.samples) for sid, g in logs], "inspect")
        out.provenance = {g.file: {k: v for k, v in g.as_dict().items() if k not in ("file", "sha256")} for _sid, g in logs}
    table("criteria", SENTENCES.table_criteria(cfg), ["id", "label", "min", "max", "direction", "weight", "optional"],
          [(c.id, c.label, c.min, c.max, c.direction, c.weight, c.optional) for c in cfg.criteria], "criteria",
          {config_rel(fid): sources[config_rel(fid)]})
    prompts = {p.id: p for p in inp.prompts}
    models = {m.id: m for m in inp.models}
    cfg = settings_of(res, current)  # the home, boards, method and prompt pages show the current sweep
    common = {"cfg": cfg, "res": res, "fid": fid, "judges": judges, "prompts": prompts, "models": models,
              "synthetic": cfg.synthetic, "sources": sources, "settings_of": lambda s: settings_of(res, s),
              "sweep_changes": lambda a, b: settings.changes(settings_of(res, a), settings_of(res, b)), "tables": tables, "figures": figures,
              "board_path": lambda b: board_path(fid, b), "sweep_path": lambda s: sweep_path(fid, s),
              "item_path": lambda p: item_path(fid, p), "log_link": amendments.page_path(fid).removesuffix("index.html") if inp.log.entries else None,
              "sweep_link": lambda sid: f"{fid}/" if sid == current.id else sweep_path(fid, sid).removesuffix("index.html"),
              "judges_of": lambda s: [judges[j] for j in s.judges], "verify_page": "downloads/#checking", "config_rel": config_rel(fid),
              "freeze_rel": freeze_rel(fid), "logs": logs, "comparisons": compared,
              "compare_link": lambda c: compare_path(fid, c.before.id, c.after.id).removesuffix("index.html")}
    out.pages.append(Page(f"{fid}/index.html", "declared/home.html", cfg.title, common))
    for b in current.boards:
        out.pages.append(Page(board_path(fid, b.id), "declared/board.html", f"{b.label}: {cfg.title}", {**common, "board": b, "sweep": current}))
    for b in current.boards:
        if b.published:
            out.pages.append(Page(criteria_path(fid, b.id), "declared/criteria.html", f"{b.label}, criterion by criterion: {cfg.title}",
                                  {**common, "board": b, "sweep": current, "cells": _cells(current, b)}))
    for s in res.sweeps[1:]:
        own = settings_of(res, s)
        out.pages.append(Page(sweep_path(fid, s.id), "declared/sweep.html", f"Sweep {s.id}: {cfg.title}",
                              {**common, "sweep": s, "cfg": own, "synthetic": own.synthetic}))
    for c in compared:
        shown = settings_of(res, c.after)
        out.pages.append(Page(compare_path(fid, c.before.id, c.after.id), "declared/compare.html",
                              f"Sweep {c.before.id} and sweep {c.after.id}: {cfg.title}",
                              {**common, "cmp": c, "synthetic": shown.synthetic or settings_of(res, c.before).synthetic}))
    by_prompt: dict[str, list] = {}
    for x in current.items:
        by_prompt.setdefault(x.item.prompt, []).append(x)
    for p in inp.prompts:
        xs = sorted(by_prompt.get(p.id, []), key=lambda x: (models[x.item.model].name, x.item.model, x.item.iteration))
        anchors = render.row_ids("out", [f"{x.item.model} {x.item.iteration}" for x in xs])
        out.pages.append(Page(item_path(fid, p.id), "declared/item.html", f"{p.title or p.id}: {cfg.title}",
                              {**common, "prompt": p, "items": xs, "anchors": anchors,
                               "missing": [(models[m], k) for m, q, k in current.missing if q == p.id]}))
    out.fragments[f"{fid}.method"] = ("declared/_method.html", common)
    nav_boards = [(b.label, board_path(fid, b.id).removesuffix("index.html")) for b in current.boards]
    out.summary = {
        "id": fid, "title": cfg.title, "href": f"{fid}/", "synthetic": whole, "line": cfg.description,
        "nav": [("home", [(cfg.title, f"{fid}/")]), ("boards", nav_boards), ("method", [("Method", f"{fid}/method/")]),
                ("evidence", [("Items", f"{fid}/#items")] + [(f"Sweep {s.id}", sweep_path(fid, s.id).removesuffix("index.html")) for s in res.sweeps[1:]]
                 + [(f"{c.before.id} and {c.after.id} compared", compare_path(fid, c.before.id, c.after.id).removesuffix("index.html")) for c in compared]),
                ("data", [("Downloads", f"downloads/#dl-{fid}")])],
        "result": {"dated": "sweep", "date": current.date, "boards": [
            {"number": None, "name": b.label, "href": board_path(fid, b.id).removesuffix("index.html"), "first": [r.name for r in b.first],
             "ranked": sum(r.rank_best is not None for r in b.rows), "entrants": len(b.rows),
             **({} if b.ranked or not b.published else {"unranked": SENTENCES.too_few(b)})}
            for b in current.boards]},
    }
    out.raw_files = sorted(inp.files)
    out.feed = [FeedEntry(f"tag:sitegen,{s.date}:{fid}/sweep/{s.id}", SENTENCES.sweep_title(s), s.date,
                          f"{fid}/" if s is current else sweep_path(fid, s.id).removesuffix("index.html"),
                          f"<p>{escape(s.note or cfg.description)}</p>") for s in res.sweeps]
    out.feed += [FeedEntry(f"tag:sitegen,{c.after.date}:{fid}/compare/{c.slug}", SENTENCES.compare_title(c), c.after.date,
                           compare_path(fid, c.before.id, c.after.id).removesuffix("index.html"), f"<p>{escape(SENTENCES.compare_line(c))}</p>")
                 for c in compared]
    amendments.publish(out, fid, cfg.title, inp.log,
                       {**common, "amended_sweeps": [s for s in res.sweeps if s.amendment]}, "declared/amendments.html")
    return out


def _cells(s: SweepResult, b: Board) -> dict[tuple[str, str], object]:
    """(criterion id, model id) -> its per-criterion cell on board B."""
    return {(x.criterion, x.model): x for x in s.criteria.get(b.id, [])}


def item_rows(s: SweepResult, criteria: list[str]) -> list[tuple]:
    """The items table of sweep S: a row per judgment of each judged item (a judgment without
    scores has none), one per item that failed generation, one per missing record. Its
    attempts column is empty where the harness did not record attempts, never a count it
    did not make."""
    def head(x, state):
        it = x.item
        return (s.id, it.model, it.prompt, it.iteration, state, None if it.attempts is None else len(it.attempts), it.last.outcome, it.last.reason)

    judged = [(*head(x, x.state), j.judge, x.judge_scores.get(j.judge), *[(j.scores or {}).get(c) for c in criteria])
              for x in s.items for j in x.item.judgments]
    failed = [(*head(x, x.state), None, None, *[None for _ in criteria]) for x in s.failures]
    missing = [(s.id, m, p, k, "missing", None, None, None, None, None, *[None for _ in criteria]) for m, p, k in s.missing]
    return judged + failed + missing
