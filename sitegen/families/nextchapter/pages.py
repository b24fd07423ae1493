"""What NextChapterBench publishes: the standings (every effort setting a row of its own, the
best one per model as its headline), a page per item (every judge call's readings of the
candidate, the frozen reference and the author's chapter, every check of both continuations)
and per model, the method page's generated sections (formula, worked example, noise gauge and
separability, effort history, the earlier panel and the audition), and a CSV and JSON download
of every table, so every number a page shows has a file behind it."""

from __future__ import annotations

from sitegen import amendments, render, stats
from sitegen.families import Figure, Outputs, Page, Table, first_rows
from sitegen.families.nextchapter import kept
from sitegen.families.nextchapter.audition import TOP_HOUSES
from sitegen.families.nextchapter.compute import NextChapterResults
from sitegen.families.nextchapter.feed import feed_entries
from sitegen.families.nextchapter.figure import draw_compliance, draw_craft, draw_generation_noise
from sitegen.families.nextchapter.models import AUTHOR, AUTHOR_WRITER, CRAFT, NOT_READ_IN_AUTHOR
from sitegen.families.nextchapter.scoring import TRAP_WEIGHT, by_effort, check_passes
from sitegen.families.nextchapter.sentences import SENTENCES
from sitegen.families.nextchapter.validate import CALLS_FILE, CHAPTERS_FILE, ITEMS_FILE, RUN_FILE

FLAG_NAMES = ("memorised", "refusal", "preamble", "truncated", "markdown")
MARKERS = {"judged": "", "incomplete": "✳", "not-judged": "—"}  # as the standings mark a setting


def model_path(model: str) -> str:
    return f"nextchapter/models/{model}/index.html"


def item_path(item: str) -> str:
    return f"nextchapter/items/{item}/index.html"


def item_stem(item: str, what: str) -> str:
    return f"nextchapter/items/{item}/{what}"


def model_chapters_stem(model: str) -> str:
    return f"nextchapter/models/{model}/chapters"


def chapter_key(model: str, effort: str) -> str:
    """What a chapter's anchor on its item page is made from: a model at one effort."""
    return f"{model} {effort}"


CHAPTER_COLUMNS = ["model", "effort", "item", "craft", "compliance", "reference_craft", "reference_compliance", "author_mean",
                   "candidate_shown_first", "copied_words", "copied_from", *FLAG_NAMES]


def _chapter_row(r) -> tuple:
    return (r.model, r.effort, r.item, r.craft, r.compliance, r.reference_craft, r.reference_compliance, r.author_mean,
            r.call.order[0] == "candidate", r.flags.copied_words, r.flags.copied_from, *[getattr(r.flags, f) for f in FLAG_NAMES])


def _check_rows(r, chapter: str, checks, text: str) -> list[tuple]:
    return [(r.model, r.effort, r.item, chapter, c.kind, c.index + 1, TRAP_WEIGHT if c.kind == "trap" else 1,
             "pass" if c.passed else "fail", (bool(c.quote) and check_passes(c, text)) if c.passed else None,
             "pass" if check_passes(c, text) else "fail", c.quote) for c in checks]


def outputs(res: NextChapterResults) -> Outputs:
    inp = res.input
    run = inp.run
    sources = {rel: sf.sha256 for rel, sf in sorted(inp.files.items())}
    items = {i.id: i for i in inp.items}
    names = {m.id: m.name for m in run.models}
    out = Outputs(kept=kept.records(inp))

    def table(stem, title, columns, rows, computation):
        t = Table(f"nextchapter/{stem}" if not stem.startswith("nextchapter/") else stem, title, columns, rows, sources,
                  f"nextchapter.{computation}")
        out.tables.append(t)
        return t

    standing_rows = []
    for s in res.standings:
        for row in s.settings:
            v = row.variant
            standing_rows.append((s.model, s.name, s.house, v.effort, "headline" if row.headline else "beneath", v.status,
                                  MARKERS.get(v.status, ""), v.items,
                                  v.craft.mean if v.craft else None, v.craft.se if v.craft else None,
                                  v.craft.low if v.craft else None, v.craft.high if v.craft else None,
                                  v.compliance.mean if v.compliance else None, v.compliance.se if v.compliance else None,
                                  row.rank_best, row.rank_worst, s.self_family, sum(1 for f in row.flags if f.any)))
    table("standings", SENTENCES.table_standings(),
          ["model", "name", "house", "effort", "shown_as", "status", "marker", "items", "craft", "craft_se", "craft_low", "craft_high",
           "compliance", "compliance_se", "rank_best", "rank_worst", "self_family", "flagged_chapters"],
          standing_rows, "standings")
    table("chapters", SENTENCES.table_chapters(), CHAPTER_COLUMNS, [_chapter_row(r) for r in res.results], "chapters")
    table("unjudged", SENTENCES.table_unjudged(), ["model", "effort", "item", "attempts", "outcome", "reason"],
          [(u.model, u.effort, u.item, u.attempts, u.outcome, u.reason) for u in res.unjudged], "chapters")
    table("noise", SENTENCES.table_noise(), ["item", "readings", "mean", "sd", "reference_compliance"],
          [(n.item, n.n, n.mean, n.sd, res.reference_compliance[n.item]) for n in res.noise], "noise")
    gen = res.generation
    summary = [("pooled_sd", res.pooled_sd), ("items", len(items)), ("judge_noise_on_mean", res.mean_uncertainty)]
    if gen:
        summary += [("generation_mean", gen.mean), ("generation_items", gen.items), ("generation_ahead", gen.ahead),
                    ("generation_largest", gen.largest), ("separability_margin", res.margin)]
    table("noise-summary", SENTENCES.table_noise_summary(), ["quantity", "value"], summary, "noise")
    table("generation-noise", SENTENCES.table_generation_noise(),
          ["item", "first_draft_craft", "second_draft_craft", "difference"],
          [(i, a, b, b - a) for i, a, b in (gen.rows if gen else [])], "noise")
    table("author-readings", SENTENCES.table_author(), ["item", *AUTHOR, "mean", "calls"],
          [(i, *[res.author_dims[i][d] for d in AUTHOR], res.author[i], sum(1 for r in res.results if r.item == i))
           for i in sorted(res.author)], "chapters")
    au = res.audition
    table("audition", SENTENCES.table_audition(), ["judge_a", "judge_b", "rho", "chapters"], au.correlations, "audition")
    table("audition-leniency", SENTENCES.table_leniency(), ["judge", "house", "offset", "chapters"], au.leniency, "audition")
    table("audition-authors", SENTENCES.table_audition_authors(),
          ["judge", "item", "author", "best_model", "best_writer", "author_above_every_model"],
          [(p.judge, p.item, p.author, p.best_model, p.best_writer, p.above) for p in au.authors], "audition")
    table("audition-houses", SENTENCES.table_audition_houses(), ["judge", "mean_rho", *[f"top_house_{k + 1}" for k in range(TOP_HOUSES)]],
          [(j, au.mean_rho.get(j), *(au.top_houses.get(j, []) + [None] * TOP_HOUSES)[:TOP_HOUSES]) for j in [c.id for c in run.audition.candidates]],
          "audition")
    table("earlier-panel", SENTENCES.table_panel(run.earlier_panel), ["model", "mean_mark", "marks", "among_top", "marks_at_modal"],
          _panel_rows(run.earlier_panel, res.panel), "panel")
    table("effort", SENTENCES.table_effort(),
          ["house", "model", "effort", "status", "starting", "chapters", "craft", "craft_se", "craft_gain", "within_noise",
           "output_tokens", "reasoning_tokens", "cost_per_chapter_usd", "cost_ratio"],
          [(e.house, e.model, e.effort, e.status, e.starting, e.chapters, e.craft.mean if e.craft else None,
            e.craft.se if e.craft else None, e.gain, e.within_noise, e.output_tokens, e.reasoning_tokens, e.cost_per_chapter,
            e.cost_ratio) for e in res.effort], "effort")

    for item in inp.items:
        rs = [r for r in res.results if r.item == item.id]
        table(item_stem(item.id, "scores"), SENTENCES.table_item_scores(item), CHAPTER_COLUMNS, [_chapter_row(r) for r in rs], "chapters")
        table(item_stem(item.id, "readings"), SENTENCES.table_item_readings(item),
              ["model", "effort", "item", "chapter", "shown", *CRAFT, "mean", "worst_flaw", "best_quality"],
              [row for r in rs for row in _reading_rows(r)], "readings")
        table(item_stem(item.id, "checks"), SENTENCES.table_item_checks(item),
              ["model", "effort", "item", "chapter", "check", "number", "weight", "judge", "quotation_in_chapter", "counts_as", "quote"],
              [row for r in rs for row in _check_rows(r, "candidate", r.call.candidate_checks, r.text)
               + _check_rows(r, "reference", r.call.reference_checks, item.reference_chapter)], "chapters")
    for m in run.models:
        table(model_chapters_stem(m.id), SENTENCES.table_model_chapters(m), CHAPTER_COLUMNS,
              [_chapter_row(r) for r in res.results if r.model == m.id], "chapters")
    example = res.example
    if example is not None:
        table("worked-example", SENTENCES.table_worked_example(names, example),
              ["model", "effort", "item", "chapter", "check", "number", "weight", "judge", "quotation_in_chapter", "counts_as", "quote"],
              _check_rows(example, "candidate", example.call.candidate_checks, example.text), "worked-example")
    chapter_ids = {item.id: render.row_ids("", [chapter_key(r.model, r.effort) for r in res.results if r.item == item.id]
                                           + [chapter_key(u.model, u.effort) for u in res.unjudged if u.item == item.id])
                   for item in inp.items}

    headline = [s for s in res.standings if s.best]
    drawn, cut = first_rows(headline, "nextchapter/standings")
    standings_rows = [{"model": s.model, "label": f"{s.name} ({s.best.effort})", "effort": s.best.effort,
                       "craft": s.best.craft.mean, "craft_low": s.best.craft.low, "craft_high": s.best.craft.high,
                       "compliance": s.best.compliance.mean, "compliance_low": s.best.compliance.mean - s.best.compliance.se,
                       "compliance_high": s.best.compliance.mean + s.best.compliance.se,
                       "rank_best": s.rank_best, "rank_worst": s.rank_worst} for s in drawn]
    standing_figures = None
    if headline:
        lo_c, hi_c = min(headline, key=lambda s: s.best.compliance.mean), max(headline, key=lambda s: s.best.compliance.mean)
        standing_figures = (
            Figure("nextchapter/figure-craft", standings_rows, draw_craft, SENTENCES.craft_alt(headline, res.first),
                   sources, "nextchapter.standings", cut=cut),
            Figure("nextchapter/figure-compliance", standings_rows, draw_compliance, SENTENCES.compliance_alt(lo_c, hi_c),
                   sources, "nextchapter.standings", cut=cut))
        out.figures.extend(standing_figures)
    generation_figure = None
    if gen:
        novel = {i.id: i.novel for i in inp.items}
        generation_figure = Figure("nextchapter/figure-generation-noise", [
            {"item": novel[i], "draft": draft, "craft": v, "item_id": i}
            for i, a, b in gen.rows for draft, v in (("first draft", a), ("second draft", b))],
            draw_generation_noise, SENTENCES.generation_alt(names.get(run.reference.model, run.reference.model), gen),
            sources, "nextchapter.noise")
        out.figures.append(generation_figure)
    houses = _starting_efforts(run)
    common = {"verify_page": "downloads/#checking", "res": res, "standing_figures": standing_figures, "generation_figure": generation_figure,
              "run": run, "items": items, "names": names, "synthetic": run.synthetic, "sources": sources,
              "model_path": model_path, "item_path": item_path, "flag_names": FLAG_NAMES, "trap_weight": TRAP_WEIGHT,
              "check_passes": check_passes, "tables": {t.stem: t for t in out.tables}, "chapter_ids": chapter_ids, "chapter_key": chapter_key,
              "item_stem": item_stem, "model_chapters_stem": model_chapters_stem, "craft_dims": CRAFT, "author_dims": AUTHOR,
              "not_read_in_author": NOT_READ_IN_AUTHOR, "markers": MARKERS, "author_writer": AUTHOR_WRITER,
              "audition_names": {**{c.id: c.name for c in run.audition.candidates}, **{w.id: w.name for w in run.audition.writers}},
              "audition_items": {i.id: i for i in run.audition.items}, "panel_names": {m.id: m.name for m in run.earlier_panel.models},
              "starting_efforts": houses}
    out.pages.append(Page("nextchapter/index.html", "nextchapter/standings.html", SENTENCES.page_standings(), common))
    for item in inp.items:
        rs = [r for r in res.results if r.item == item.id]
        out.pages.append(Page(item_path(item.id), "nextchapter/item.html", SENTENCES.page_item(item),
                              {**common, "item": item, "rows": rs, "unjudged": [u for u in res.unjudged if u.item == item.id]}))
    for m in run.models:
        out.pages.append(Page(model_path(m.id), "nextchapter/model.html", SENTENCES.page_model(m), {
            **common, "model": m, "rows": [r for r in res.results if r.model == m.id],
            "unjudged": [u for u in res.unjudged if u.model == m.id],
            "retried": [c for c in inp.chapters if c.model == m.id and c.outcome == "chapter" and len(c.attempts) > 1],
            "variants": sorted(m.variants, key=lambda v: by_effort(v.effort)),
            "standing": next(s for s in res.standings if s.model == m.id)}))
    out.fragments.update({
        "nextchapter.worked-example": ("nextchapter/_worked_example.html", {**common, "ex": example}),
        "nextchapter.noise": ("nextchapter/_noise.html", common),
        "nextchapter.audition": ("nextchapter/_audition.html", common),
        "nextchapter.panel": ("nextchapter/_panel.html", common),
        "nextchapter.effort": ("nextchapter/_effort.html", common),
        "nextchapter.calls": ("nextchapter/_calls.html", common),
        "nextchapter.ranks": ("_rank_example.html", {**common, **_rank_example(res)}),
    })
    out.summary = {
        "id": "nextchapter", "title": "NextChapterBench", "href": "nextchapter/", "synthetic": run.synthetic,
        "nav": [("home", [("NextChapterBench", "nextchapter/")]), ("boards", [("Standings", "nextchapter/#standings")]),
                ("method", [("Method", "nextchapter/method/")]),
                ("evidence", [("Items", "nextchapter/#items"), ("Noise gauge", "nextchapter/method/#the-noise-gauge"),
                              ("Judge audition", "nextchapter/method/#the-judge-audition")]),
                ("data", [("Downloads", "downloads/#dl-nextchapter")])],
        "line": SENTENCES.line(res),
        "result": {"dated": "run", "date": run.date, "boards": [
            {"number": None, "name": "Standings by craft", "href": "nextchapter/", "first": [s.name for s in res.first],
             "ranked": sum(s.rank_best is not None for s in res.standings), "entrants": len(res.standings)}]},
    }
    out.raw_files = [RUN_FILE, ITEMS_FILE, CHAPTERS_FILE, CALLS_FILE]
    out.feed = feed_entries(res)
    amendments.publish(out, "nextchapter", out.summary["title"], inp.log, common)
    return out


def _reading_rows(r) -> list[tuple]:
    """One row per chapter the judge read in this call: the candidate and the reference (their
    place in the shuffled order) and the author's (declared), on the dimensions each was read on."""
    call = r.call
    rows = []
    for chapter, reading in (("candidate", call.candidate), ("reference", call.reference), ("author", call.author)):
        shown = str(call.order.index(chapter) + 1) if chapter in call.order else "declared"
        scores = [reading.scores.get(d) for d in CRAFT]
        mean = sum(reading.scores.values()) / len(reading.scores)
        rows.append((r.model, r.effort, r.item, chapter, shown, *scores, mean, reading.worst_flaw, reading.best_quality))
    return rows


def _panel_rows(panel, result) -> list[tuple]:
    top_means = dict(result.top)
    marks: dict[str, list[int]] = {}
    for m in panel.marks:
        marks.setdefault(m.model, []).append(m.mark)
    rows = []
    for m in panel.models:
        got = marks.get(m.id, [])
        rows.append((m.id, sum(got) / len(got) if got else None, len(got), m.id in top_means,
                     sum(1 for x in got if x == result.modal) if m.id in top_means else None))
    return sorted(rows, key=lambda r: (-(r[1] or 0), r[0]))


def _starting_efforts(run) -> list[tuple[str, list]]:
    """Each house with its models' starting settings and reasons, houses and models by id."""
    by_house: dict[str, list] = {}
    for m in sorted(run.models, key=lambda m: (m.house, m.id)):
        by_house.setdefault(m.house, []).append(m)
    return sorted(by_house.items())


def _rank_example(res: NextChapterResults) -> dict:
    """The method page's worked rank range, on the standings' headline rows."""
    ranked = [s for s in res.standings if s.best]
    return {"rank_ex": stats.rank_example([stats.Interval(s.model, s.best.craft.low, s.best.craft.high) for s in ranked]),
            "rank_names": {s.model: s.name for s in ranked}, "rank_where": "the standings",
            "rank_interval": "craft band (craft ± SE)", "rank_fmt": {"places": 2}}
