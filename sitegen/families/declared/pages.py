"""What a declared benchmark publishes: its home, a page per board of the current sweep, a page
per earlier sweep (archived, never rescored), a page per prompt with every sweep's readings
(each output once, each sweep's reading of it under it; past PAGE_BYTES, a page per model
beside it), the method page's generated section, and a CSV and JSON of every table. A sweep's
readings are shown under the settings it was computed with, read through settings_of alone.

Every sentence on these pages is in the family's templates (templates/declared/) or comes
from the site's configuration and content; this module only arranges the numbers.
"""

from __future__ import annotations

import json

from dataclasses import dataclass, replace
from html import escape

from markupsafe import escape as markup_escape

from sitegen import amendments, render
from sitegen.families import FeedEntry, Figure, Kept, Outputs, Page, Table, first_rows
from sitegen.families.declared import drill, metric_pages, settings
from sitegen.families.declared.compare import comparisons
from sitegen.families.declared.compute import Board, DeclaredResults, ScoredItem, SweepResult
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
        elif key != "criteria" and getattr(cfg, key) is not None:  # inspect: only a site of logs has it
            rows += [(s.id, f"{key}.{k}", json.dumps(v) if isinstance(v, list) else v) for k, v in getattr(cfg, key).model_dump(mode="json").items()]
    return rows


def item_model_path(fid: str, prompt: str, slug: str) -> str:
    """The page of one model's outputs for a prompt whose page is split (see PAGE_BYTES)."""
    return f"{fid}/items/{prompt}/{slug}/index.html"


def model_slugs(models) -> dict[str, str]:
    """Each model's address segment: its id slugified ("lumen/lark-3" -> "lumen-lark-3"), with
    8 hex digits of its SHA-256 where two ids share a slug (render.row_ids). Only letters, digits
    and hyphens: never a folder of its own, never "index.html", the same for every prompt."""
    return render.row_ids("", [m.id for m in models])


# The most HTML a prompt's page may hold before its outputs go onto a page per model: 300 kB.
# About forty outputs of 1,000 words with their readings; compressed (about a quarter) it is
# 75 kB, about a second on a slow phone connection, and a page past it takes noticeably longer
# to lay out and to search in the browser. One prompt of a real benchmark (31 models, 3
# iterations) is 93 outputs, some 800 kB with two sweeps' readings: split, its page is the
# summary tables (about 20 kB a sweep) and each model's page three outputs (about 25 kB).
PAGE_BYTES = 300_000
# What the estimate (page_bytes) adds to the texts a page shows, in bytes of markup: measured on
# the rendered pages, rounded up (tests/test_declared_pages.py holds the estimate to the page).
PAGE_MARKUP = 12_000  # the page's frame: header, navigation, prompt, each sweep's heading, scales, sources
ROW_MARKUP = 110  # a summary table's row, besides the model's name and id (its link)
OUTPUT_MARKUP = 300  # an output's block, besides its text, its model's name and its attempts' messages
READING_MARKUP = 200  # one sweep's reading of an output, besides its rationale and reply
CRITERION_MARKUP = 10  # a criterion's score in a reading, besides its label


@dataclass(frozen=True)
class Reading:
    """One sweep's reading of an output: its scored item and the criteria it was read on."""
    sweep: SweepResult
    x: ScoredItem
    criteria: list


@dataclass(frozen=True)
class Shown:
    """One generation, shown once on its page with every sweep's reading of it (current first):
    the sweeps that re-judged the same text share it."""
    key: str  # the anchor's key: "model iteration", with a sweep id when the sweeps' texts differ
    model: object
    iteration: int
    readings: list[Reading]
    anchor: str = ""
    page: str = ""  # the page that shows it

    @property
    def item(self):
        return self.readings[0].x.item


@dataclass(frozen=True)
class SweepRows:
    """A sweep's section of a prompt's page: its summary rows (each with the output it links),
    the records it lacks and its settings' iterations."""
    sweep: SweepResult
    iterations: int
    rows: list[tuple[ScoredItem, Shown]]
    missing: list[tuple[object, int]]


def _generation(item) -> str:
    """What makes two sweeps' records the same output: its text and how it was generated."""
    return item.model_dump_json(include={"output", "attempts", "final"})


def shown_outputs(res: DeclaredResults, prompt: str, by_prompt: dict, models: dict) -> list[Shown]:
    """Every output of PROMPT in any sweep, each text once, by model name and iteration."""
    pairs: dict[tuple[str, int], list[tuple[SweepResult, ScoredItem]]] = {}
    for s in res.sweeps:
        for x in by_prompt.get((s.id, prompt), []):
            pairs.setdefault((x.item.model, x.item.iteration), []).append((s, x))
    shown = []
    for (m, it), got in sorted(pairs.items(), key=lambda kv: (models[kv[0][0]].name, kv[0][0], kv[0][1])):
        groups: dict[str, list[Reading]] = {}
        for s, x in got:
            groups.setdefault(_generation(x.item), []).append(Reading(s, x, settings_of(res, s).criteria))
        for readings in groups.values():
            key = f"{m} {it}" if len(groups) == 1 else f"{m} {it} {readings[0].sweep.id}"
            shown.append(Shown(key, models[m], it, readings))
    return shown


def _text_bytes(text: str | None) -> int:
    return len(str(markup_escape(text)).encode("utf-8")) if text else 0


def output_bytes(o: Shown) -> int:
    """The estimated HTML of an output's block: its texts as escaped, and the markup around them."""
    it = o.item
    n = OUTPUT_MARKUP + _text_bytes(o.model.name) + _text_bytes(it.output) + sum(_text_bytes(a.detail) + 40 for a in it.attempts or [])
    n += _text_bytes(it.final.detail) + 40 if it.final else 0
    for r in o.readings:
        n += READING_MARKUP + sum(CRITERION_MARKUP + _text_bytes(c.label) for c in r.criteria)
        n += sum(_text_bytes(j.rationale) + _text_bytes(j.reply) for j in r.x.item.judgments)
    return n


def page_bytes(prompt, shown: list[Shown], sweeps: int) -> int:
    """The estimated HTML of a prompt's page holding every output: its text, each sweep's summary
    rows and each output's block."""
    return PAGE_MARKUP + _text_bytes(prompt.text) + sum(sweeps * (ROW_MARKUP + _text_bytes(o.model.name) + len(o.model.id)) + output_bytes(o) for o in shown)


def prompt_pages(res: DeclaredResults, p, by_prompt: dict, common: dict, slugs: dict[str, str]) -> list[Page]:
    """A prompt's page: a section per sweep (current first) with its summary table, then every
    output with each sweep's reading. Past PAGE_BYTES the outputs go onto a page per model,
    and the prompt's page keeps the summary tables, linking them."""
    fid, models = res.input.fid, common["models"]
    shown = shown_outputs(res, p.id, by_prompt, models)
    split = page_bytes(p, shown, len(res.sweeps)) > PAGE_BYTES
    anchors = render.row_ids("out", [o.key for o in shown])
    here = item_path(fid, p.id)
    shown = [replace(o, anchor=anchors[o.key], page=item_model_path(fid, p.id, slugs[o.model.id]) if split else here) for o in shown]
    sections = [SweepRows(s, settings_of(res, s).repeats.iterations,
                          [(r.x, o) for o in shown for r in o.readings if r.sweep is s],
                          [(models[m], k) for m, q, k in s.missing if q == p.id]) for s in res.sweeps]
    scales: dict[str, tuple[list[str], list]] = {}  # the sweeps read on the same criteria share one line
    for s in res.sweeps:
        criteria = settings_of(res, s).criteria
        scales.setdefault(json.dumps([c.model_dump() for c in criteria], sort_keys=True), ([], criteria))[0].append(s.id)
    title = p.title or p.id
    page = {**common, "synthetic": any(settings_of(res, s).synthetic for s in res.sweeps), "prompt": p, "sections": sections, "scales": list(scales.values()), "split": split,
            "page_bytes": PAGE_BYTES, "iterations": max(x.iterations for x in sections)}
    by_model: dict[str, list[Shown]] = {}
    for o in shown:
        by_model.setdefault(o.model.id, []).append(o)
    parts = [(models[m], item_model_path(fid, p.id, slugs[m])) for m in by_model]
    out = [Page(here, "declared/item.html", f"{title}: {res.config.title}",
                {**page, "outputs": [] if split else shown, "parts": parts if split else []})]
    if split:
        out += [Page(path, "declared/item_model.html", f"{title}, {model.name}: {res.config.title}",
                     {**page, "model": model, "outputs": by_model[model.id]}) for model, path in parts]
    return out


def outputs(res: DeclaredResults) -> Outputs:
    inp, cfg, fid = res.input, res.config, res.input.fid
    sources = {rel: sf.sha256 for rel, sf in sorted(inp.files.items())}
    out = Outputs()
    tables: dict[str, Table] = {}
    # Synthetic is each sweep's: a family wholly synthetic is marked everywhere (published());
    # one only some of whose sweeps are marks those sweeps' tables, figures and pages alone.
    whole = all(settings_of(res, s).synthetic for s in res.sweeps)

    def table(stem, title, columns, rows, computation, used=None, synthetic=False):
        # an earlier sweep's tables (sweeps/<id>/, the current one's aside) are archived: never rescored
        archived = stem.startswith("sweeps/") and not stem.startswith(f"sweeps/{res.current.id}/")
        t = Table(f"{fid}/{stem}", title, columns, rows, used or sources, f"{fid}.{computation}", synthetic and not whole, archived)
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
        logged = drill.reads_logs(res, s.id)  # its rows name the log each came from
        for b in s.boards:
            stem = f"boards/{b.id}/board" if s is current else f"sweeps/{s.id}/{b.id}"
            table(stem, f"{cfg.title}, {b.label}, sweep {s.id}", board_columns + (drill.BOARD_COLUMNS if logged else []),
                  drill.board_rows(res, s.id, board_rows(s, b)) if logged else board_rows(s, b), "board", used, scfg.synthetic)
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
        out.figures.extend(metric_pages.tables(res, s, table, (board_columns, criteria_columns), (board_rows, criteria_rows), figures, used, whole))
        criteria = [c.id for r in [s, *s.others] for c in r.config.criteria]  # every metric's, so any board recomputes from it
        table(f"sweeps/{s.id}/items", SENTENCES.table_sweeps_each_items(scfg, s),
              ["sweep", "model", "prompt", "iteration", "state", "attempts", "outcome", "reason", "judge", "score", *criteria,
               *(drill.ITEM_COLUMNS if logged else [])],
              drill.item_rows(res, s.id, item_rows(s, criteria)) if logged else item_rows(s, criteria), "items", used, scfg.synthetic)
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
               "generation_config", "samples", "dataset", "epochs", "superseded_by"],
              [(sid, g.file, g.sha256, g.status, g.eval_id, g.run_id, g.task, g.task_id, g.task_version, g.model, g.created,
                json.dumps(g.generation_config, sort_keys=True, ensure_ascii=False), g.samples,
                json.dumps(g.dataset, sort_keys=True, ensure_ascii=False), g.epochs, g.superseded_by) for sid, g in logs], "inspect")
        out.provenance = {g.file: {k: v for k, v in g.as_dict().items() if k not in ("file", "sha256")} for _sid, g in logs}
        # A superseded log stays published, marked superseded: a later release never hides a re-run.
        out.kept.update({f"sweeps/{sid}/superseded/{g.file}": Kept(g.file, f"the log {g.file} of sweep {sid}, superseded by {g.superseded_by}",
                                                                    f"SHA-256 {g.sha256}, superseded by {g.superseded_by}")
                         for sid, g in logs if g.superseded_by})
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
              "freeze_rel": freeze_rel(fid), "logs": logs, "comparisons": compared, "fewer": lambda s: drill.fewer(res, s),
              "compare_link": lambda c: compare_path(fid, c.before.id, c.after.id).removesuffix("index.html"),
              "metric_board_link": lambda r, b: (board_path(fid, b) if r.metric.headline else metric_pages.board_path(fid, r.metric.id, b)).removesuffix("index.html")}
    pw_links = {}
    if res.pairwise is not None:  # what the home and method pages say of the pairwise unit
        from sitegen.families.declared.pairwise.pages import common_links

        pw_links = common_links(res)
    common = {**common, "pw": res.pairwise, "pcfg": cfg.pairwise, **pw_links}
    out.pages.append(Page(f"{fid}/index.html", "declared/home.html", cfg.title, common))
    for b in current.boards:
        out.pages.append(Page(board_path(fid, b.id), "declared/board.html", f"{b.label}: {cfg.title}",
                              {**common, "board": b, "sweep": current, "board_here": board_path(fid, b.id), "board_stem": f"boards/{b.id}/board",
                               "board_figure": figures.get(b.id), "criteria_page": b.published and current.metric.kind == "criteria"}))
    out.pages += metric_pages.pages(res, common, figures, _cells)
    for b in current.boards:
        if b.published and current.metric.kind == "criteria":
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
    slugs = model_slugs(inp.models)
    by_prompt: dict[tuple[str, str], list[ScoredItem]] = {}
    for s in res.sweeps:
        for x in s.items:
            by_prompt.setdefault((s.id, x.item.prompt), []).append(x)
    split = []
    for p in inp.prompts:
        made = prompt_pages(res, p, by_prompt, common, slugs)
        split += [p] if len(made) > 1 else []
        out.pages.extend(made)
    nav_pairwise = []
    if res.pairwise is not None:  # the pairwise unit's pages (pairwise/pages.py), beside the rubric's
        from sitegen.families.declared.pairwise.pages import publish as publish_pairwise

        nav_pairwise = publish_pairwise(res, out, table, common, slugs)
    out.fragments[f"{fid}.method"] = ("declared/_method.html", {**common, "page_bytes": PAGE_BYTES, "split_prompts": split})
    nav_boards = [(b.label, board_path(fid, b.id).removesuffix("index.html")) for b in current.boards]
    nav_boards += [(f"{b.label}, {r.metric.label}", metric_pages.board_path(fid, r.metric.id, b.id).removesuffix("index.html"))
                   for r in current.others for b in r.boards]
    nav_boards += nav_pairwise
    out.summary = {
        "id": fid, "title": cfg.title, "href": f"{fid}/", "synthetic": whole, "line": cfg.description,
        "nav": [("home", [(cfg.title, f"{fid}/")]), ("boards", nav_boards), ("method", [("Method", f"{fid}/method/")]),
                ("evidence", [("Items", f"{fid}/#items")] + [(f"Sweep {s.id}", sweep_path(fid, s.id).removesuffix("index.html")) for s in res.sweeps[1:]]
                 + [(f"{c.before.id} vs {c.after.id}", compare_path(fid, c.before.id, c.after.id).removesuffix("index.html")) for c in compared]),
                ("data", [("Downloads", f"downloads/#dl-{fid}")])],
        "result": {"dated": "sweep", "date": current.date, "boards": [
            {"number": None, "name": b.label, "href": board_path(fid, b.id).removesuffix("index.html"), "first": [r.name for r in b.first],
             "ranked": sum(r.rank_best is not None for r in b.rows), "entrants": len(b.rows),
             **({} if b.ranked or not b.published else {"unranked": SENTENCES.too_few(b)})}
            for b in current.boards] + _pairwise_results(res)},
    }
    out.raw_files = sorted(inp.files)
    out.feed += [FeedEntry(f"tag:sitegen,{s.date}:{fid}/sweep/{s.id}", SENTENCES.sweep_title(s), s.date,
                          f"{fid}/" if s is current else sweep_path(fid, s.id).removesuffix("index.html"),
                          f"<p>{escape(s.note or cfg.description)}</p>") for s in res.sweeps]
    out.feed += [FeedEntry(f"tag:sitegen,{c.after.date}:{fid}/compare/{c.slug}", SENTENCES.compare_title(c), c.after.date,
                           compare_path(fid, c.before.id, c.after.id).removesuffix("index.html"), f"<p>{escape(SENTENCES.compare_line(c))}</p>")
                 for c in compared]
    amendments.publish(out, fid, cfg.title, inp.log,
                       {**common, "amended_sweeps": [s for s in res.sweeps if s.amendment]}, "declared/amendments.html")
    return out


def _pairwise_results(res: DeclaredResults) -> list[dict]:
    """The pairwise boards' headline for the site's home: who may rank first on each."""
    if res.pairwise is None:
        return []
    from sitegen.families.declared.pairwise.pages import board_path as pairwise_path

    return [{"number": None, "name": b.label, "href": pairwise_path(res.input.fid, b.id).removesuffix("index.html"),
             "first": [r.name for r in b.first], "ranked": sum(r.rank_best is not None for r in b.rows), "entrants": len(b.rows),
             **({} if b.ranked or not b.rated else {"unranked": SENTENCES.too_few(b)})} for b in res.pairwise.boards]


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
