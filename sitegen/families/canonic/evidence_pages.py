"""The evidence pages: verification (frozen inputs and the failure record), diagnostics
(probes, sitcom transfer, external rank comparison) and the score ladders, with their
downloads, Figures 2 and 3, and the generated sentences a paper may cite."""

from __future__ import annotations

from collections import defaultdict

from sitegen.families import Figure, Outputs, Page, Table, first_rows
from sitegen.families.canonic.compute import CanonicResults
from sitegen.families.canonic.figure import TRANSFER_LABEL_ROWS, draw_exclusions, draw_probes, draw_transfer
from sitegen.families.canonic.sentences import SENTENCES
from sitegen.families.canonic.store import REASONS

EXCERPT_CHARS = 1500  # outputs longer than this are excerpted, with a page for the full text


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> tuple[str, bool]:
    """The first `limit` characters, cut at a word boundary; and whether anything was cut."""
    if len(text) <= limit:
        return text, False
    cut = text[:limit]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit * 0.6 else cut).rstrip() + " …", True


def ladder_path(task: str) -> str:
    return f"canonic/ladders/{task}/index.html"


def full_text_path(task: str, position: str) -> str:
    return f"canonic/ladders/{task}/{position}/index.html"


def evidence_outputs(res: CanonicResults, common: dict, out: Outputs) -> None:
    ev = res.evidence
    s = res.sweep
    sources = common["sources"]
    model_name = {m.id: m.name for m in s.models}
    domain_name = {d.id: d.name for d in s.domains}
    show = {sh.id: sh for sh in s.shows}
    judges = [j.id for j in s.judges]
    judge_name = {j.id: j.name for j in s.judges}
    task_of = {t.id: t for t in s.tasks}
    names = {"model_name": model_name, "domain_name": domain_name, "judge_name": judge_name, "shows": show, "judges": judges}

    inp = res.input

    def with_(*files) -> dict[str, str]:
        """The sweep definition plus the artifact files a table is computed from."""
        return {**{f.rel: f.sha256 for f in files if f is not None}}

    def table(stem: str, title: str, columns: list[str], rows: list[tuple], computation: str, srcs: dict | None = None) -> Table:
        t = Table(f"canonic/{stem}", title, columns, rows, srcs or sources, f"canonic.{computation}")
        out.tables.append(t)
        return t

    # Frozen inputs ------------------------------------------------------------------------
    frozen = res.input.freeze.checks
    table("fingerprints", SENTENCES.table_fingerprints(),
          ["kind", "id", "document", "version", "recorded", "recomputed", "frozen_at", "match"],
          [(f.kind, f.id, f.document, f.version, f.recorded, f.recomputed, f.frozen_at, f.recorded == f.recomputed) for f in frozen],
          "freeze", with_(inp.freeze.source, inp.sweep_file, *inp.freeze.documents))

    # Exclusions by model (Figure 2) -----------------------------------------------------------
    by_model: dict[str, dict[str, int]] = defaultdict(dict)
    for model, status, n in ev.exclusions_by_model:
        by_model[model][status] = n
    model_rows = [(m.id, m.name, by_model[m.id].get("counted", 0), *(by_model[m.id].get(r, 0) for r in REASONS)) for m in s.models]
    table("exclusions-by-model", SENTENCES.table_exclusions_by_model(),
          ["model", "model_name", "counted", *[r.replace(" ", "_") for r in REASONS]], model_rows, "exclusions")
    # Per row (model x domain): what a withheld row lost, and where every excluded cell is.
    by_row: dict[tuple[str, str], dict[str, int]] = defaultdict(dict)
    for model, domain, status, n in ev.exclusions_by_row:
        by_row[(model, domain)][status] = n
    withheld = {(r.model, b.domain): r.reason for b in res.boards for r in b.withheld}
    # Every row of the grid, a model with no cell in a domain too: its tasks without a record
    # are a gap the table shows, not a row it drops.
    row_rows = [(m.id, m.name, d, domain_name[d], by_row[(m.id, d)].get("counted", 0), *(by_row[(m.id, d)].get(r, 0) for r in REASONS),
                 (m.id, d) not in withheld, withheld.get((m.id, d))) for m in s.models for d in domain_name]
    # a row's tasks without a cell: its total (the domain's tasks) less those attempted
    without_record = {(r.model, b.domain): r.total - r.attempted for b in res.boards for r in b.rows if r.attempted < r.total}
    missing = [(m.id, m.name, d, domain_name[d], without_record[(m.id, d)]) for m in s.models for d in domain_name if (m.id, d) in without_record]
    table("exclusions-by-row", SENTENCES.table_exclusions_by_row(),
          ["model", "model_name", "domain", "domain_name", "counted", *[r.replace(" ", "_") for r in REASONS], "published", "withheld_reason"],
          row_rows, "exclusions")
    if missing:
        table("cells-without-record", SENTENCES.table_cells_without_record(), ["model", "model_name", "domain", "domain_name", "cells"],
              missing, "exclusions")
    by_domain = {row[0]: row for row in common["exclusion_rows"]}
    fig2_domains = Figure("canonic/figure-2-domains", [
        {"group": f"{domain_name[d]} ({by_domain[d][2]} counted)", "reason": r, "cells": by_domain[d][3 + k], "order": k, "group_id": d}
        for d in domain_name for k, r in enumerate(REASONS)], draw_exclusions,
        _exclusions_alt("domain", [(domain_name[d], by_domain[d][2], by_domain[d][3:]) for d in domain_name]), sources, "canonic.exclusions")
    # Figure 2b is read for the models that lost the most cells, so its bars run from most
    # excluded to least; no score orders them, since no score spans every domain.
    most_excluded, cut = first_rows(sorted(model_rows, key=lambda row: (-sum(row[3:]), row[1].casefold(), row[0])),
                                    "canonic/exclusions-by-model")
    fig2_models = Figure("canonic/figure-2-models", [
        {"group": f"{row[1]} ({row[2]} counted)", "reason": r, "cells": row[3 + k], "order": k, "group_id": row[0]}
        for row in most_excluded for k, r in enumerate(REASONS)], draw_exclusions,
        _exclusions_alt("model", [(row[1], row[2], row[3:]) for row in most_excluded]), sources, "canonic.exclusions", cut=cut)

    # Contamination split, calibration, reframes ----------------------------------------------
    table("contamination", SENTENCES.table_contamination(),
          ["model", "model_name", "domain", "n_novel", "n_canonical", "novel_mean", "canonical_mean", "difference", "ci_low", "ci_high", "bootstrap_seed"],
          [(r.model, model_name[r.model], r.domain, r.n_novel, r.n_canonical, r.novel, r.canonical, r.difference, r.low, r.high, r.seed) for r in ev.split],
          "contamination")
    table("contamination-by-show", SENTENCES.table_contamination_by_show(),
          ["show", "show_name", "model", "model_name", "n_novel", "n_canonical", "novel_mean", "canonical_mean", "difference"],
          [(sh, show[sh].name, m, model_name[m] if m else None, a, b, na, nb, na - nb) for sh, m, a, b, na, nb in ev.show_split],
          "contamination")
    table("calibration", SENTENCES.table_calibration(),
          ["domain", "cells", "judge_a", "judge_a_mean", "judge_b", "judge_b_mean", "offset_a_minus_b", "mean_abs_disagreement"],
          [(c.domain, c.n, c.means[0][0], c.means[0][1], c.means[1][0], c.means[1][1], c.offset, c.disagreement) for c in ev.calibration],
          "calibration")
    table("judge-orderings", SENTENCES.table_judge_orderings(),
          ["domain", "model", "model_name", *[f"mean_{j}" for j in judges], *[f"rank_{j}" for j in judges]],
          [(o.domain, m, model_name[m], *means, *ranks) for o in ev.orderings for m, means, ranks in o.rows], "orderings")
    table("judge-agreement", SENTENCES.table_judge_agreement(),
          ["domain", "models", "spearman_rho"], [(o.domain, len(o.rows), o.rho) for o in ev.orderings], "orderings")
    table("reframes", SENTENCES.table_reframes(),
          ["domain", "task", "model", "judge", "reframed_score"], list(ev.reframes), "reframes")

    # Probes, transfer, external comparison ------------------------------------------------
    table("probes", SENTENCES.table_probes(),
          ["probe", "domain", "task", "attack", "max_score", *[f"score_{j}" for j in judges], "score", "caught"],
          [(p.id, p.domain, p.task, p.attack, p.max_score, *[v for _, v in p.judge_scores], p.score, p.caught) for p in ev.probes],
          "probes", with_(inp.probes_file, inp.sweep_file))
    show_rows = [(m, model_name[m], sh, show[sh].name, show[sh].format, n, sc) for m, sh, n, sc in ev.by_show]
    table("sitcom-by-show", SENTENCES.table_sitcom_by_show(),
          ["model", "model_name", "show", "show_name", "format", "counted", "score"], show_rows, "transfer")
    table("show-dimensions", SENTENCES.table_show_dimensions(),
          ["show", "show_name", "format", "dimension", "mean_anchor", "judgments"],
          [(sh, show[sh].name, show[sh].format, d, mean, n) for sh, d, mean, n in ev.show_dimensions], "transfer")
    table("model-dimensions", SENTENCES.table_model_dimensions(),
          ["model", "model_name", "format", "dimension", "mean_anchor", "judgments"],
          [(m, model_name[m], fmt, d, mean, n) for m, fmt, d, mean, n in ev.model_dimensions], "transfer")
    show_conditioned = [d.id for dom in s.domains for d in dom.rubric.dimensions if d.scope == "show-conditioned"]
    by_show = _in_board_order(ev.by_show, res.boards, s.tasks)
    drawn, cut = first_rows(list(dict.fromkeys(m for m, *_ in by_show)), "canonic/sitcom-by-show")  # its rows: the models
    if cut:
        kept = set(drawn)
        by_show = [row for row in by_show if row[0] in kept]
    fig3 = Figure("canonic/figure-3", [{"model": model_name[m], "show": show[sh].name, "score": sc, "model_id": m, "show_id": sh}
                                       for m, sh, _n, sc in by_show],
                  draw_transfer, _transfer_alt(by_show, len(drawn), show), sources, "canonic.transfer", cut=cut)
    table("external-comparison", SENTENCES.table_external_comparison(),
          ["domain", "predeclared", "shared_models", "spearman_rho"],
          [(c.domain, c.predeclared, len(c.pairs), c.rho) for c in ev.comparisons], "external",
          with_(inp.external_file, inp.sweep_file, inp.cells_file))

    # Ladders ---------------------------------------------------------------------------
    ladder_rows = [(lad.domain, lad.task, lad.candidates, r.position, r.model, r.task_score, *[v for _, v in r.judge_scores], lad.strict)
                   for lad in ev.ladders for r in lad.rungs]
    table("ladders", SENTENCES.table_ladders(),
          ["domain", "task", "publishable_outputs", "rung", "model", "task_score", *[f"score_{j}" for j in judges], "both_judges_strict"],
          ladder_rows, "ladders")
    for d in s.domains:  # each domain's ladder table on the ladders page has its own download
        table(f"ladders/{d.id}", SENTENCES.table_ladders_each(d),
              ["domain", "task", "publishable_outputs", "rung", "model", "task_score", *[f"score_{j}" for j in judges], "both_judges_strict"],
              [row for row in ladder_rows if row[0] == d.id], "ladders")

    # Figure 2c: every probe against its frozen maximum. The verdict's words are the figure's
    # legend; they come from the sentences, like every word a page shows.
    fig2_probes = Figure("canonic/figure-2-probes", [
        {"probe_id": p.id, "probe": p.id, "score": p.score, "max_score": p.max_score, "caught": p.caught,
         "verdict": SENTENCES.probe_verdict(p.caught)} for p in ev.probes],
        draw_probes, SENTENCES.probes_alt(ev.probes), with_(inp.probes_file, inp.sweep_file), "canonic.probes") if ev.probes else None
    out.figures.extend([fig2_domains, fig2_models, fig3] + ([fig2_probes] if fig2_probes else []))
    figs = {"fig2_domains": fig2_domains, "fig2_models": fig2_models, "fig2_probes": fig2_probes, "fig3": fig3}
    row_verdicts = {"rows": row_rows, "excluded": [r for r in row_rows if any(r[5:5 + len(REASONS)]) or (r[0], r[2]) in without_record],
                    "withheld": [r for r in row_rows if not r[-2]]}
    model_dims = {(m, fmt, d): mean for m, fmt, d, mean, _n in ev.model_dimensions}
    ctx = {**common, **names, "ev": ev, "frozen": frozen, "row_verdicts": row_verdicts, "model_dims": model_dims,
           "dim_models": list(dict.fromkeys(m for m, *_ in ev.model_dimensions)), "frozen_at": inp.freeze.frozen_at, "model_rows": model_rows,
           "reasons": REASONS, "figs": figs, "task_of": task_of, "ladder_path": ladder_path, "full_text_path": full_text_path, "excerpt": excerpt,
           "show_conditioned": show_conditioned, "without_record": without_record, "missing_cells": missing}
    out.fragments["canonic.fingerprints"] = ("canonic/_fingerprints.html", ctx)
    out.pages.append(Page("canonic/verification/index.html", "canonic/verification.html", SENTENCES.page_verification(), ctx))
    out.pages.append(Page("canonic/diagnostics/index.html", "canonic/diagnostics.html", SENTENCES.page_diagnostics(), ctx))
    out.pages.append(Page("canonic/ladders/index.html", "canonic/ladders.html", SENTENCES.page_ladders(), ctx))
    rubric_of = {d.id: d.rubric for d in s.domains}
    for lad in ev.ladders:
        # Each rung's judgments, as its page shows them: one row per judge and dimension.
        table(f"ladders/{lad.task}/judgments", SENTENCES.table_ladder_judgments(lad),
              ["task", "rung", "model", "judge", "dimension", "weight", "anchor", "judge_weighted_score", "rationale"],
              [(lad.task, r.position, r.model, j, dim.id, dim.weight, r.judgments[j][0][dim.id], v, r.judgments[j][1])
               for r in lad.rungs for j, v in r.judge_scores for dim in rubric_of[lad.domain].dimensions], "ladders")
        out.pages.append(Page(ladder_path(lad.task), "canonic/ladder.html", SENTENCES.page_ladder(lad), {**ctx, "lad": lad}))
        for r in lad.rungs:
            if r.text is not None and excerpt(r.text)[1]:  # a long output gets a page of its own
                out.pages.append(Page(full_text_path(lad.task, r.position), "canonic/full_text.html",
                                      SENTENCES.page_full_text(lad, r), {**ctx, "lad": lad, "rung": r}))

    caught = sum(p.caught for p in ev.probes)
    out.texts.update({
        "canonic.probes": SENTENCES.probes(caught, len(ev.probes)),
        "canonic.ladders": SENTENCES.ladders(ev),
    })
    for c in ev.comparisons:
        if c.predeclared and c.rho is not None:
            out.texts[f"canonic.external.{c.domain}"] = SENTENCES.external(domain_name[c.domain], c)


def _in_board_order(by_show: list[tuple], boards, tasks) -> list[tuple]:
    """The per-show scores with their models in the order of the board of the shows' domain
    (published rows by score, then withheld ones), as the figure illustrates that board; a model
    missing from it comes last."""
    show_domains = {t.domain for t in tasks if t.show}
    place: dict[str, int] = {}
    for r in (r for b in boards if b.domain in show_domains for r in b.rows):
        place.setdefault(r.model, len(place))
    return sorted(by_show, key=lambda row: place.get(row[0], len(place)))


def _exclusions_alt(kind: str, rows) -> str:
    return SENTENCES.exclusions_alt(kind, rows, REASONS)


def _transfer_alt(by_show: list[tuple], models: int, show) -> str:
    """What Figure 3 shows of BY_SHOW (the rows it draws, of MODELS models)."""
    per_show: dict[str, list[float]] = defaultdict(list)
    for _m, sh, _n, sc in by_show:
        per_show[sh].append(sc)
    return SENTENCES.transfer_alt([(show[sh].name, show[sh].format, min(v), max(v)) for sh, v in sorted(per_show.items())],
                                  models <= TRANSFER_LABEL_ROWS)
