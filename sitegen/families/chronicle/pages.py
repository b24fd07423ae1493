"""What ChronicleBench publishes: the frozen protocol with its amendment log, three boards that
never share a table, the controlled exhibit, the human reference band, DNF and withdrawn-model
diagnostics, the cohort changelog with costs, the v1.0 archive, run manifests with the judge's
evidence behind every score (and the reference novels' as a download) and an Atom feed.

Every ranking table is built from one board's rows only; a download carries its board's id.
"""

from __future__ import annotations

import json

from markupsafe import Markup

from sitegen import amendments, render, stats
from sitegen.families import Figure, Outputs, Page, Table, first_rows
from sitegen.families.chronicle import kept
from sitegen.families.chronicle.protocol_rules import run_plan
from sitegen.families.chronicle.compute import EXHIBIT_BASE_ARM, V11, ChronicleResults
from sitegen.families.chronicle.figure import HUMAN_ROW, draw_length_board, draw_reference, draw_score_board
from sitegen.families.chronicle.feed import FEED_PATH, atom_bytes, feed_entries
from sitegen.families.chronicle.models import DIMENSIONS, LOCATION_MAX, QUOTE_MAX_CHARS, QUOTES_MAX, QUOTES_MIN
from sitegen.families.chronicle.sentences import SENTENCES
from sitegen.families.chronicle.published import ARCHIVE_ID, ARCHIVE_KIND, ENTRY_KIND, FREEZE_FILE, entry_item_id
from sitegen.families.chronicle.validate import (
    ARCHIVE_FILE, BOOK_START, COHORT_FILE, PROTOCOL_DOC, REFERENCE_FILE, RUNS_FILE, SELECTION_FILE, latest_date,
)
from sitegen.families.chronicle.selection import STRATA


def run_path(run_id: str) -> str:
    return f"chronicle/runs/{run_id}/index.html"


def calls_stem(run_id: str) -> str:
    """The download of one run's calls, beside its page."""
    return f"chronicle/runs/{run_id}/calls"


def _figures(res: ChronicleResults, src) -> dict[str, tuple[Figure | None, Figure | None]]:
    """Board id -> (its rows with their intervals, its entrants against the human band; the
    length board has no band). Ranked rows only, in the board's order: unranked rows have no
    mark. None where a board has nothing to draw."""
    band = res.band
    novels = [(ref, s) for ref, s in res.references if ref.corpus == V11]
    out = {}
    for b in res.boards:
        ranked = [r for r in b.rows if r.rank_best is not None]
        drawn, cut = first_rows(ranked, f"chronicle/boards/{b.id}")
        name = f"chronicle/boards/{b.id}/figure"
        if b.metric == "score":
            rows = [{"entrant": r.entrant, "name": r.name, "score": r.score, "ci_low": r.low, "ci_high": r.high,
                     "rank_best": r.rank_best, "rank_worst": r.rank_worst} for r in drawn]
            alt_text = SENTENCES.score_alt(b, ranked)
            fig = Figure(name, rows, draw_score_board, alt_text, src(COHORT_FILE, RUNS_FILE, REFERENCE_FILE), "chronicle.board", cut=cut)
            ref_rows = ([{"kind": "novel", "id": ref.id, "name": ref.title, "score": s, "low": None, "high": None} for ref, s in novels]
                        + [{"kind": "band", "id": HUMAN_ROW, "name": SENTENCES.band_row(band), "score": band.median, "low": band.q1, "high": band.q3}]
                        + [{"kind": "entrant", "id": r.entrant, "name": r.name, "score": r.score, "low": r.low, "high": r.high} for r in drawn])
            inside = [r.name for r in ranked if band.q1 <= r.score <= band.q3]
            ref_alt = SENTENCES.band_alt(b, band, min((s for _, s in novels), default=None), max((s for _, s in novels), default=None),
                                         len(inside), len(ranked))
            ref = Figure(f"chronicle/boards/{b.id}/figure-human-band", ref_rows, draw_reference, ref_alt,
                         src(COHORT_FILE, RUNS_FILE, REFERENCE_FILE), "chronicle.reference", cut=cut)
            out[b.id] = (fig if ranked else None, ref if ranked and novels else None)
        else:
            rows = [{"entrant": r.entrant, "name": r.name, "median_words": r.median_words, "median_low": r.low, "median_high": r.high,
                     "rank_best": r.rank_best, "rank_worst": r.rank_worst} for r in drawn]
            alt_text = SENTENCES.length_alt(b, ranked)
            out[b.id] = (Figure(name, rows, draw_length_board, alt_text, src(COHORT_FILE, RUNS_FILE), "chronicle.board", cut=cut) if ranked else None, None)
    return out


def _run_tally(inp) -> dict:
    """Section 2's run arithmetic beside the runs held: the first cohort's planned model runs
    (protocol_rules.run_plan, which the contract holds to the protocol's sentence), how many of
    them are held, each withdrawn model's runs held, and the runs outside that plan (the
    system's, the later cohorts')."""
    c = inp.cohort
    models, briefs, per = run_plan(c)
    first = c.cohorts[0].id
    kinds = {e.id: e for e in c.entrants}
    planned = [r for r in inp.runs if r.cohort == first and kinds[r.entrant].kind == "model"]
    withdrawn = [(e, sum(1 for r in planned if r.entrant == e.id)) for e in c.entrants if e.status == "withdrawn" and e.cohort == first]
    return {"models": models, "briefs": briefs, "per": per, "planned": models * briefs * per, "held": len(inp.runs),
            "first_held": len(planned), "withdrawn": withdrawn, "per_model": briefs * per,
            "system": sum(1 for r in inp.runs if kinds[r.entrant].kind == "system"),
            "later": [(k, sum(1 for r in inp.runs if r.cohort == k.id)) for k in c.cohorts[1:]]}


def outputs(res: ChronicleResults) -> Outputs:
    inp = res.input
    c = inp.cohort
    ident = c.benchmark
    files = inp.files
    src = lambda *rels: {r: files[r].sha256 for r in rels}  # noqa: E731
    run_sources = src(COHORT_FILE, RUNS_FILE)
    md = render.markdown_renderer()
    names = {e.id: e.name for e in c.entrants}
    briefs = {b.id: b for b in c.briefs}
    log = amendments.newest_first(inp.amendments)
    bodies = amendments.bodies(log)
    protocol_html = Markup(md.render(inp.protocol.body))
    out = Outputs(kept=kept.records(inp), entities={e.id: list(e.formerly) for e in c.entrants}, entities_file=COHORT_FILE)

    def table(stem, title, columns, rows, computation, sources=run_sources, archived=False):
        t = Table(f"chronicle/{stem}", title, columns, rows, sources, f"chronicle.{computation}", archived=archived)
        out.tables.append(t)
        return t

    for b in res.boards:
        if b.metric == "score":
            table(f"boards/{b.id}", SENTENCES.table_board(ident, b),
                  ["board", "rank_best", "rank_worst", "entrant", "name", "eligible_runs", "runs", "score", "ci_low", "ci_high",
                   "human_percentile", "percentile_low", "percentile_high", "capped_judge_runs", "self_family", "cohort", "bootstrap_seed",
                   "unranked_reason", "missing_runs"],
                  [(b.id, r.rank_best, r.rank_worst, r.entrant, r.name, r.eligible, r.runs, r.score, r.low, r.high, r.percentile, r.pct_low, r.pct_high,
                    r.binding_caps, r.self_family, r.cohort, r.seed, r.reason, _missing(r))
                   for r in b.rows], "board", src(COHORT_FILE, RUNS_FILE, REFERENCE_FILE))
        else:
            table(f"boards/{b.id}", SENTENCES.table_board(ident, b),
                  ["board", "rank_best", "rank_worst", "entrant", "name", "runs", "median_words", "median_low", "median_high",
                   "min_words", "max_words", "self_family", "cohort", "bootstrap_seed", "unranked_reason", "missing_runs"],
                  [(b.id, r.rank_best, r.rank_worst, r.entrant, r.name, r.runs, r.median_words, r.low, r.high, r.min_words, r.max_words,
                    r.self_family, r.cohort, r.seed, r.reason, _missing(r))
                   for r in b.rows], "board")
    dnf = [rr for rr in res.runs if not rr.eligible]
    table("dnf", SENTENCES.table_dnf(),
          ["run", "entrant", "arm", "brief", "words", "stop_reason", "score", "windows"],
          [(rr.run.id, rr.run.entrant, rr.run.arm, rr.run.brief, rr.run.words, rr.run.stop_reason, rr.score, len(rr.windows)) for rr in dnf], "dnf")
    table("runs", SENTENCES.table_runs(),
          ["run", "entrant", "arm", "brief", "replicate", "cohort", "words", "eligible", "score", *[f"window_{w}" for w in c.windows], "cost_usd", "calls", "manuscript_sha256",
           "template_sha256", "brief_sha256", "instrument"],
          [(rr.run.id, rr.run.entrant, rr.run.arm, rr.run.brief, rr.run.replicate, rr.run.cohort, rr.run.words, rr.eligible, rr.score,
            *[rr.windows.get(w) for w in c.windows], rr.cost, len(rr.run.calls), rr.run.manuscript_sha256,
            rr.run.template_sha256, rr.run.brief_sha256, rr.run.instrument) for rr in res.runs], "runs")
    table("scoring", SENTENCES.table_scoring(),
          ["run", "entrant", "score", "windows", "whole_book_composite", "sentence_cv", "type_token_ratio", "ai_tells_per_kw", "issues", "scoring_cost_usd"],
          [(rr.run.id, rr.run.entrant, rr.score, len(rr.windows), rr.whole_book, rr.run.scoring.deterministic.sentence_cv,
            rr.run.scoring.deterministic.type_token_ratio, rr.run.scoring.deterministic.ai_tells_per_kw, "; ".join(rr.run.scoring.issues),
            rr.run.scoring.cost_usd) for rr in res.runs], "runs")
    table("engagement", SENTENCES.table_engagement(),
          ["run", "entrant", "segment", "words_from", "words_to", "score", "tags"],
          [(rr.run.id, rr.run.entrant, k, seg.words_from, seg.words_to, seg.score, "; ".join(seg.tags))
           for rr in res.runs for k, seg in enumerate(rr.run.scoring.engagement, start=1)], "runs")
    table("reruns", SENTENCES.table_reruns(),
          ["run", "entrant", "failure", "message", "request_id", "timestamp", "words", "params", "documented_by", "rerun_first_call"],
          [(rr.run.id, rr.run.entrant, a.failure, a.message, a.request_id, a.timestamp, a.words, json.dumps(a.params, sort_keys=True), a.documented_by,
            rr.run.calls[0].timestamp) for rr in res.runs for a in rr.run.superseded], "runs")
    table("failed-calls", SENTENCES.table_failed_calls(),
          ["run", "entrant", "seq", "finish", "message", "timestamp", "returned_provider"],
          [(rr.run.id, rr.run.entrant, k.seq, k.finish, k.message, k.timestamp, k.returned_provider)
           for rr in res.runs for k in rr.run.calls if k.finish in ("error", "refusal")], "runs")
    table("releases", SENTENCES.table_releases(),
          ["entrant", "release", "frozen_on", "gate", "description", "min", "max", "value", "passed"],
          [(e.id, e.release.version, e.release.frozen_on, g.id, g.description, g.min, g.max, g.value, g.passed)
           for e in c.entrants if e.release is not None for g in e.release.gates], "releases", src(COHORT_FILE))
    protocol_frozen = [f for f in inp.frozen if f.kind == "protocol"]
    recorded = {f.id: f for f in inp.frozen if f.kind in (ENTRY_KIND, ARCHIVE_KIND)}  # what the site published, as recorded
    for f in protocol_frozen:  # the protocol page's version history
        table("protocol-versions", SENTENCES.table_protocol_versions(), ["document", "version", "frozen_at", "fingerprint", "note", "in_force"],
              [(f.document, v.version, v.frozen_at, v.fingerprint, v.note, k == len(f.history) - 1) for k, v in enumerate(f.history)],
              "protocol", {**src(FREEZE_FILE), PROTOCOL_DOC: inp.protocol.source.sha256})
    table("judge-runs", SENTENCES.table_judge_runs(),
          ["run", "entrant", "window", "judge_run", "profile", "weighted_composite", "cap", "cap_reason", "capped_composite", "window_composite"],
          [(rr.run.id, rr.run.entrant, w, i, jr.profile, j.weighted, jr.cap.value if jr.cap else None, jr.cap.reason if jr.cap else None, j.capped,
            rr.windows[w])
           for rr in res.runs for win in rr.run.windows for w in (win.window,)
           for i, (jr, j) in enumerate(zip(win.runs, rr.judges[w]), start=1)], "runs")
    evidence_columns = ["window", "judge_run", "dimension", "score", "chapter", "section", "quote"]
    table("evidence", SENTENCES.table_evidence(), ["run", *evidence_columns],
          [(rr.run.id, *row) for rr in res.runs for row in evidence_rows(rr.run.windows, rr.run.scoring.whole_book)], "evidence", src(RUNS_FILE))
    table("reference-evidence", SENTENCES.table_reference_evidence(), ["id", *evidence_columns],
          [(ref.id, *row) for ref, _s in res.references for row in evidence_rows(ref.windows, ())], "evidence", src(REFERENCE_FILE))
    table("window-spans", SENTENCES.table_window_spans(), ["text", "kind", "window", "first_chapter", "first_section", "last_chapter", "last_section"],
          [(text.id, kind, window, first.ch, first.sec, last.ch, last.sec)
           for kind, texts in (("run", [(rr.run, rr.run.scoring.whole_book) for rr in res.runs]), ("reference", [(ref, ()) for ref, _s in res.references]))
           for text, whole in texts for window, first, last, _runs in _evidence_texts(text.windows, whole)],
          "evidence", src(RUNS_FILE, REFERENCE_FILE))
    table("reference", SENTENCES.table_reference(),
          ["id", "title", "author", "gutenberg_id", "corpus", "stratum", "words", "recognized", "windows", "metric", "score"],
          [(ref.id, ref.title, ref.author, ref.gutenberg_id, ref.corpus, ref.stratum, ref.words, ref.recognized, len(ref.windows),
            _metric(ref), s) for ref, s in res.references],
          "reference", src(COHORT_FILE, REFERENCE_FILE))
    table("reference-corpora", SENTENCES.table_reference_corpora(), ["group", "novels", "metric", "median", "q1", "q3"],
          [("v1.1", res.band.n, "v1.1 five-window", res.band.median, res.band.q1, res.band.q3),
           ("legacy-v1.0", res.legacy.n, "v1.0 four-window", res.legacy.median, res.legacy.q1, res.legacy.q3)],
          "reference", src(COHORT_FILE, REFERENCE_FILE))
    _selection_tables(res, table, src)
    table("costs", SENTENCES.table_costs(),
          ["entrant", "name", "cost_usd"], [(e, names[e], v) for e, v in res.cost_by_entrant.items()], "costs")
    # Every table a page shows has its download beside it: the overview of the boards (each
    # board's own rows that may rank first, never a ranking across boards), the band's breakdowns, the exhibit,
    # the archived board and each run's calls.
    table("boards-overview", SENTENCES.table_boards_overview(ident),
          ["board", "number", "title", "arm", "metric", "entrants", "top"],
          [(b.id, b.number, b.title, b.arm, b.metric, len(b.rows), "; ".join(r.name for r in b.first) or None)
           for b in res.boards], "board", src(COHORT_FILE, RUNS_FILE, REFERENCE_FILE))
    band_columns = ["group", "novels", "median", "q1", "q3"]
    table("reference-strata", SENTENCES.table_reference_strata(), band_columns,
          [(k, bnd.n, bnd.median, bnd.q1, bnd.q3) for k, bnd in res.band_by_stratum.items()], "reference", src(COHORT_FILE, REFERENCE_FILE))
    table("reference-windows", SENTENCES.table_reference_windows(), band_columns,
          [(w, bnd.n, bnd.median, bnd.q1, bnd.q3) for w, bnd in res.band_by_window.items()], "reference", src(COHORT_FILE, REFERENCE_FILE))
    table("reference-recognition", SENTENCES.table_reference_recognition(), band_columns,
          [(k, bnd.n, bnd.median, bnd.q1, bnd.q3) for k, bnd in res.recognition.items()], "reference", src(COHORT_FILE, REFERENCE_FILE))
    if res.exhibit is not None:
        ex = res.exhibit
        table("exhibit", SENTENCES.table_exhibit(ident, ex),
              ["entrant", "name", "eligible_runs", "runs", "score", "ci_low", "ci_high", "difference", "difference_low", "difference_high", "bootstrap_seed"],
              [(r.entrant, r.name, r.eligible, r.runs, r.score, r.low, r.high, ex.difference, ex.low, ex.high, ex.seed) for r in (ex.system, ex.base)],
              "exhibit")
    archive = inp.archive
    table("archive-v1.0", SENTENCES.table_archive_v1_0(ident, archive),
          ["entrant", "v1_0_score", "runs"], [(r.entrant, r.score, r.runs) for r in archive.rows], "archive", src(ARCHIVE_FILE),
          archived=True)  # the v1.0 board as it was published: never rescored
    for rr in res.runs:
        table(calls_stem(rr.run.id).removeprefix("chronicle/"), SENTENCES.table_calls(rr),
              ["seq", "returned_model", "returned_provider", "request_id", "timestamp", "params", "words_from", "words_to", "finish", "message", "cost_usd"],
              [(k.seq, k.returned_model, k.returned_provider, k.request_id, k.timestamp, json.dumps(k.params, sort_keys=True),
                k.words_from, k.words_to, k.finish, k.message, k.cost_usd) for k in rr.run.calls], "runs")

    figures = _figures(res, src)
    out.figures.extend(f for pair in figures.values() for f in pair if f is not None)
    common = {"verify_page": "downloads/#checking", "res": res, "figures": figures, "c": c, "ident": ident, "names": names, "briefs": briefs, "cohorts": {k.id: k for k in c.cohorts}, "synthetic": c.synthetic,
              "run_sources": run_sources, "run_path": run_path, "calls_stem": calls_stem, "tables": {t.stem: t for t in out.tables},
              "run_ids": render.row_ids("run", [rr.run.id for rr in res.runs]), "run_evidence": run_evidence}
    pages = [
        Page("chronicle/index.html", "chronicle/home.html", ident.name, common),
        Page("chronicle/protocol/index.html", "chronicle/protocol.html", SENTENCES.page_protocol(ident, c),
             {**common, "protocol": inp.protocol_meta, "protocol_html": protocol_html, "log": log, "bodies": bodies, "frozen": protocol_frozen,
              "quotes_min": QUOTES_MIN, "quotes_max": QUOTES_MAX, "quote_max_chars": QUOTE_MAX_CHARS, "location_max": LOCATION_MAX,
              "recorded": recorded, "entry_item_id": entry_item_id, "unrecorded": inp.unrecorded, "protocol_versions": inp.protocol_versions,
              "tally": _run_tally(inp)}),
        Page("chronicle/reference/index.html", "chronicle/reference.html", SENTENCES.page_reference(ident),
             {**common, "v11_sorted": sorted(((ref, s) for ref, s in res.references if ref.corpus == V11), key=lambda p: (-p[1], p[0].id)),
              "record": inp.selection_record, "selection": inp.selection, "candidates": _candidate_order(res),
              "first_scored": min(((ref.scored_at, ref) for ref, _s in res.references if ref.corpus == V11 and ref.scored_at),
                                  key=lambda p: (p[0], p[1].id), default=None),
              "legacy_sorted": sorted(((ref, s) for ref, s in res.references if ref.corpus != V11), key=lambda p: (-p[1], p[0].id))}),
        Page("chronicle/diagnostics/index.html", "chronicle/diagnostics.html", SENTENCES.page_diagnostics(ident), {**common, "dnf": dnf}),
        Page("chronicle/cohorts/index.html", "chronicle/cohorts.html", SENTENCES.page_cohorts(ident), common),
        Page("chronicle/archive/v1.0/index.html", "chronicle/archive.html", SENTENCES.page_archive(ident),
             {**common, "archive_record": next((f for f in inp.frozen if f.kind == ARCHIVE_KIND and f.id == ARCHIVE_ID), None)}),
    ]
    for b in res.boards:
        pages.append(Page(f"chronicle/boards/{b.id}/index.html", "chronicle/board.html", SENTENCES.page_board(b),
                          {**common, "board": b, "first_run": _first_runs(res, b), **_rank_example(b)}))
    if res.exhibit is not None:
        pages.append(Page("chronicle/exhibit/index.html", "chronicle/exhibit.html", SENTENCES.page_exhibit(ident), {**common, "base_arm": EXHIBIT_BASE_ARM}))
    for rr in res.runs:
        pages.append(Page(run_path(rr.run.id), "chronicle/run.html", SENTENCES.page_run(rr, ident), {**common, "rr": rr}))
    out.pages.extend(pages)
    out.feed = feed_entries(res, log, bodies)
    out.files[FEED_PATH] = atom_bytes(res, out.feed)
    out.summary = {
        "id": "chronicle", "title": ident.name, "href": "chronicle/", "synthetic": c.synthetic,
        "dated_until": latest_date(c, inp.runs, inp.archive, (e.meta.date for e in inp.amendments), inp.selection_record, inp.references),
        "nav": [("home", [(ident.name, "chronicle/")]),
                ("boards", [*((f"Board {b.number}", f"chronicle/boards/{b.id}/") for b in res.boards),
                            *([("Exhibit", "chronicle/exhibit/")] if res.exhibit else [])]),
                ("method", [("Protocol", "chronicle/protocol/")]),
                ("evidence", [("Human band", "chronicle/reference/"), ("DNF & withdrawn", "chronicle/diagnostics/"),
                              ("Cohorts and runs", "chronicle/cohorts/"), ("v1.0 archive", "chronicle/archive/v1.0/")]),
                ("data", [("Downloads", "downloads/#dl-chronicle"), ("Feed", FEED_PATH)])],
        "line": SENTENCES.line(res),
        "result": {"dated": "latest cohort", "date": max(k.date for k in c.cohorts), "boards": [
            {"number": b.number, "name": b.title, "href": f"chronicle/boards/{b.id}/", "first": [r.name for r in b.first],
             "ranked": sum(r.rank_best is not None for r in b.rows), "entrants": len(b.rows)} for b in res.boards]},
    }
    out.raw_files = sorted([COHORT_FILE, RUNS_FILE, REFERENCE_FILE, SELECTION_FILE, ARCHIVE_FILE, FREEZE_FILE, PROTOCOL_DOC,
                            *(a.doc.source.rel for a in inp.amendments)])
    band = res.band
    out.texts["chronicle.human-band"] = SENTENCES.human_band(band)
    return out


def _candidate_order(res: ChronicleResults) -> list:
    """The candidate pool as published: by stratum, then the drawn works in draw order, the
    eligible works not drawn in draw order, and the excluded works by Gutenberg id."""
    return sorted(res.input.selection.outcomes,
                  key=lambda o: (STRATA.index(o.candidate.stratum), o.rank is None, o.rank or 0, o.candidate.gutenberg_id))


def _selection_tables(res: ChronicleResults, table, src) -> None:
    """The selection record as computed (protocol section 7): every candidate with its status,
    the exclusions by reason, each stratum's draw, and the length-sensitivity analysis."""
    sel = res.input.selection
    sources = src(COHORT_FILE, SELECTION_FILE, REFERENCE_FILE)
    table("reference-candidates", SENTENCES.table_reference_candidates(),
          ["stratum", "gutenberg_id", "title", "author", "words", "original_language", "translator", "form", "cleanly_extractable",
           "duplicate_of", "content_exclusion_by", "manuscript_sha256", "draw_key_sha256", "draw_rank", "status", "extended_ceiling",
           "exclusion_reasons"],
          [(o.candidate.stratum, o.candidate.gutenberg_id, o.candidate.title, o.candidate.author, o.candidate.words,
            o.candidate.original_language, o.candidate.translator, o.candidate.form, o.candidate.cleanly_extractable,
            o.candidate.duplicate_of, o.candidate.exclusion.documented_by if o.candidate.exclusion else None, o.candidate.manuscript_sha256,
            o.key, o.rank, o.status, o.extended, "; ".join(r.code for r in o.reasons) or None) for o in _candidate_order(res)],
          "selection", sources)
    table("reference-exclusions", SENTENCES.table_reference_exclusions(), ["reason", "candidates"],
          sel.reason_counts(), "selection", sources)
    table("reference-selection-strata", SENTENCES.table_reference_selection_strata(),
          ["stratum", "candidates", "eligible_in_band", "short", "ceiling_words", "eligible_over_band", "selected", "selected_over_band"],
          [(d.stratum, d.candidates, d.in_band, d.short, d.ceiling, d.extended, len(d.drawn), d.drawn_extended) for d in sel.strata],
          "selection", sources)
    sens = res.sensitivity
    if sens is None:
        return
    sources = src(COHORT_FILE, RUNS_FILE, SELECTION_FILE, REFERENCE_FILE)
    band_rows = [("v1.1", res.band.n, res.band.median, res.band.q1, res.band.q3)]
    if sens.without is not None:
        band_rows.append(("v1.1-within-band", sens.without.n, sens.without.median, sens.without.q1, sens.without.q3))
    table("reference-length-sensitivity", SENTENCES.table_reference_length_sensitivity(), ["group", "novels", "median", "q1", "q3"],
          band_rows, "reference", sources)
    table("reference-length-sensitivity-percentiles", SENTENCES.table_reference_length_sensitivity_percentiles(),
          ["board", "entrant", "name", "score", "human_percentile", "percentile_within_band", "difference"],
          [(b.id, r.entrant, r.name, r.score, pct_all, pct_kept, pct_kept - pct_all) for b, r, pct_all, pct_kept in sens.rows],
          "reference", sources)


WHOLE_BOOK = "whole-book"  # the evidence rows of the whole-book judge runs, after the windows'


def _evidence_texts(windows, whole_book):
    """(window, its first and last locations, its judge runs) of each window in order, then of
    the whole book (from chapter 1 section 1 to the ending window's last section) when there are
    whole-book judge runs."""
    for w in windows:
        yield w.window, w.span.first, w.span.last, w.runs
    if whole_book and windows:
        yield WHOLE_BOOK, BOOK_START, windows[-1].span.last, whole_book


def evidence_rows(windows, whole_book):
    """The evidence download's rows of one text: one per quote, in the order of the windows (then
    the whole book), judge runs (from 1), DIMENSIONS and the quotes as cited. The spans the
    quotes are checked against are the window-spans download's."""
    for window, _first, _last, runs in _evidence_texts(windows, whole_book):
        for k, jr in enumerate(runs, start=1):
            ev = jr.evidence
            for d in DIMENSIONS:
                score = jr.dimensions[d]
                for q in getattr(ev, d):
                    yield (window, k, d, score, q.ch, q.sec, q.quote)


def run_evidence(windows, whole_book) -> list[tuple]:
    """What a run page shows of the evidence (built as the page renders, so a page the build
    cache holds costs nothing): for each window (then the whole book), its span
    and, per dimension, each judge run's score with its quotes as (location, quote), the location
    written chapter.section (one value for the page to escape, not two: a run page shows some
    170 quotes)."""
    out = []
    for window, first, last, runs in _evidence_texts(windows, whole_book):
        evs = [jr.evidence for jr in runs]
        rows = [(d, [(jr.dimensions[d], [(f"{q.ch}.{q.sec}", q.quote) for q in getattr(ev, d)]) for jr, ev in zip(runs, evs)])
                for d in DIMENSIONS]
        out.append((window, first, last, rows))
    return out


def _metric(ref) -> str:
    """Which ChronicleBench Score a reference novel's is: the v1.1 five-window one, or the v1.0
    four-window one of the legacy anchors (a different metric object, labelled wherever shown)."""
    return "v1.0 four-window" if ref.corpus == "legacy-v1.0" else "v1.1 five-window"


def _missing(row) -> str | None:
    """A partial entrant's missing runs in a download cell: arm/brief/replicate, by semicolons."""
    return "; ".join(f"{arm}/{brief}/{rep}" for arm, brief, rep in row.missing) or None


def _first_runs(res: ChronicleResults, board) -> dict[str, str]:
    """Each entrant's first run on a board's arm, in the runs table's order: where its runs start."""
    first: dict[str, str] = {}
    for rr in res.runs:
        if rr.run.arm == board.arm:
            first.setdefault(rr.run.entrant, rr.run.id)
    return first


def _rank_example(board) -> dict:
    """The board page's rank rule worked through one of its own rows."""
    ranked = [r for r in board.rows if r.rank_best is not None]
    score = board.metric == "score"
    return {"rank_ex": stats.rank_example([stats.Interval(r.entrant, r.low, r.high) for r in ranked]),
            "rank_names": {r.entrant: r.name for r in ranked}, "rank_where": "this board",
            "rank_interval": SENTENCES.rank_interval(score),
            "rank_fmt": {"places": 2} if score else {"places": 1, "grouped": True}}
