"""What NextChapterBench publishes: the standings (effort settings folded under their model),
a page per item and per model, the method page's generated sections (formula, worked example,
noise gauge, audition), and a CSV and JSON download of every table."""

from __future__ import annotations

from sitegen import amendments, render, stats
from sitegen.families import Figure, Outputs, Page, Table
from sitegen.families.nextchapter.figure import draw_compliance, draw_craft, draw_generation_noise
from sitegen.families.nextchapter.compute import NextChapterResults
from sitegen.families.nextchapter.feed import feed_entries
from sitegen.families.nextchapter.scoring import TRAP_WEIGHT, by_effort, check_passes
from sitegen.families.nextchapter.sentences import SENTENCES
from sitegen.families.nextchapter.validate import CALLS_FILE, CHAPTERS_FILE, ITEMS_FILE, RUN_FILE

FLAG_NAMES = ("memorised", "refusal", "preamble", "truncated", "markdown")


def model_path(model: str) -> str:
    return f"nextchapter/models/{model}/index.html"


def item_path(item: str) -> str:
    return f"nextchapter/items/{item}/index.html"


def item_scores_stem(item: str) -> str:
    return f"nextchapter/items/{item}/scores"


def model_chapters_stem(model: str) -> str:
    return f"nextchapter/models/{model}/chapters"


def chapter_key(model: str, effort: str) -> str:
    """What a chapter's anchor on its item page is made from: a model at one effort."""
    return f"{model} {effort}"


def outputs(res: NextChapterResults) -> Outputs:
    inp = res.input
    run = inp.run
    sources = {rel: sf.sha256 for rel, sf in sorted(inp.files.items())}
    items = {i.id: i for i in inp.items}
    names = {m.id: m.name for m in run.models}
    out = Outputs()

    def table(stem, title, columns, rows, computation):
        t = Table(f"nextchapter/{stem}", title, columns, rows, sources, f"nextchapter.{computation}")
        out.tables.append(t)
        return t

    standing_rows = []
    for s in res.standings:
        for shown, v in ([("headline", s.best)] if s.best else []) + [("beneath", v) for v in s.others]:
            standing_rows.append((s.model, s.name, s.house, v.effort, shown, v.status, v.marker, v.items,
                                  v.craft.mean if v.craft else None, v.craft.se if v.craft else None,
                                  v.craft.low if v.craft else None, v.craft.high if v.craft else None,
                                  v.compliance.mean if v.compliance else None, v.compliance.se if v.compliance else None,
                                  *((s.rank_best, s.rank_worst) if shown == "headline" else (None, None)), s.self_family))
    table("standings", SENTENCES.table_standings(),
          ["model", "name", "house", "effort", "shown_as", "status", "marker", "items", "craft", "craft_se", "craft_low", "craft_high",
           "compliance", "compliance_se", "rank_best", "rank_worst", "self_family"],
          standing_rows, "standings")
    table("chapters", SENTENCES.table_chapters(),
          ["model", "effort", "item", "draft", "craft", "compliance", "copied_words", "copied_from", *FLAG_NAMES],
          [(r.model, r.effort, r.item, r.draft, r.craft, r.compliance, r.flags.copied_words, r.flags.copied_from,
            *[getattr(r.flags, f) for f in FLAG_NAMES]) for r in res.results], "chapters")
    table("noise", SENTENCES.table_noise(),
          ["item", "readings", "mean", "sd"], [(n.item, n.n, n.mean, n.sd) for n in res.noise], "noise")
    table("generation-noise", SENTENCES.table_generation_noise(),
          ["item", "draft_1_craft", "draft_2_craft", "difference"], [(i, a, b, b - a) for i, a, b in res.generation_noise], "noise")
    table("audition", SENTENCES.table_audition(),
          ["judge_a", "judge_b", "rho"], [(c.a, c.b, c.rho) for c in run.audition.correlations], "audition")

    # Each item's and each model's table, and the method page's worked example, as downloads of
    # their own beside them (chapters.csv holds every row of the first two).
    chapter_columns = ["model", "effort", "item", "draft", "craft", "compliance", "copied_words", "copied_from", *FLAG_NAMES]

    def chapter_row(r):
        return (r.model, r.effort, r.item, r.draft, r.craft, r.compliance, r.flags.copied_words, r.flags.copied_from,
                *[getattr(r.flags, f) for f in FLAG_NAMES])

    for item in inp.items:
        table(item_scores_stem(item.id).removeprefix("nextchapter/"), SENTENCES.table_item_scores(item), chapter_columns,
              [chapter_row(r) for r in res.results if r.item == item.id and r.draft == 1], "chapters")
    for m in run.models:
        table(model_chapters_stem(m.id).removeprefix("nextchapter/"), SENTENCES.table_model_chapters(m), chapter_columns,
              [chapter_row(r) for r in res.results if r.model == m.id], "chapters")
    top = next((s for s in res.standings if s.best), None)
    example = next((r for r in res.results if top and r.model == top.model and r.effort == top.best.effort and r.draft == 1), None)
    if example is not None:
        table("worked-example", SENTENCES.table_worked_example(names, example),
              ["model", "effort", "item", "check", "number", "weight", "judge", "quotation_in_chapter", "counts_as"],
              [(example.model, example.effort, example.item, c.kind, c.index + 1, TRAP_WEIGHT if c.kind == "trap" else 1,
                "pass" if c.passed else "fail", (True if c.quote and check_passes(c, example.text) else (False if c.passed else None)),
                "pass" if check_passes(c, example.text) else "fail") for c in example.call.candidate_checks], "worked-example")
    chapter_ids = {item.id: render.row_ids("", [chapter_key(r.model, r.effort) for r in res.results if r.item == item.id]) for item in inp.items}

    headline = [s for s in res.standings if s.best]
    standings_rows = [{"model": s.model, "label": f"{s.name} ({s.best.effort})", "effort": s.best.effort,
                       "craft": s.best.craft.mean, "craft_low": s.best.craft.low, "craft_high": s.best.craft.high,
                       "compliance": s.best.compliance.mean, "compliance_low": s.best.compliance.mean - s.best.compliance.se,
                       "compliance_high": s.best.compliance.mean + s.best.compliance.se,
                       "rank_best": s.rank_best, "rank_worst": s.rank_worst} for s in headline]
    standing_figures = None
    if headline:
        lo_c, hi_c = min(headline, key=lambda s: s.best.compliance.mean), max(headline, key=lambda s: s.best.compliance.mean)
        standing_figures = (
            Figure("nextchapter/figure-craft", standings_rows, draw_craft,
                   SENTENCES.craft_alt(headline, res.first),
                   sources, "nextchapter.standings"),
            Figure("nextchapter/figure-compliance", standings_rows, draw_compliance,
                   SENTENCES.compliance_alt(lo_c, hi_c),
                   sources, "nextchapter.standings"))
        out.figures.extend(standing_figures)
    novel = {i.id: i.novel for i in inp.items}
    fig = Figure("nextchapter/figure-generation-noise", [
        {"item": novel[i], "draft": f"draft {k}", "craft": v, "item_id": i} for i, a, b in res.generation_noise for k, v in ((1, a), (2, b))],
        draw_generation_noise, _generation_alt(res, novel, names.get(run.reference.model, run.reference.model)), sources, "nextchapter.noise")
    if res.generation_noise:
        out.figures.append(fig)
    common = {"verify_page": "downloads/#checking", "res": res, "standing_figures": standing_figures, "generation_figure": fig if res.generation_noise else None, "run": run, "items": items, "names": names, "synthetic": run.synthetic, "sources": sources,
              "model_path": model_path, "item_path": item_path, "flag_names": FLAG_NAMES, "trap_weight": TRAP_WEIGHT,
              "check_passes": check_passes, "tables": {t.stem: t for t in out.tables}, "chapter_ids": chapter_ids, "chapter_key": chapter_key,
              "item_scores_stem": item_scores_stem, "model_chapters_stem": model_chapters_stem}
    out.pages.append(Page("nextchapter/index.html", "nextchapter/standings.html", SENTENCES.page_standings(), common))
    for item in inp.items:
        rs = [r for r in res.results if r.item == item.id and r.draft == 1]
        out.pages.append(Page(item_path(item.id), "nextchapter/item.html", SENTENCES.page_item(item), {**common, "item": item, "rows": rs}))
    for m in run.models:
        rs = [r for r in res.results if r.model == m.id]
        out.pages.append(Page(model_path(m.id), "nextchapter/model.html", SENTENCES.page_model(m), {**common, "model": m, "rows": rs,
                                                                                                            "variants": sorted(m.variants, key=lambda v: by_effort(v.effort)),
                                                                                                            "standing": next(s for s in res.standings if s.model == m.id)}))
    out.fragments.update({
        "nextchapter.worked-example": ("nextchapter/_worked_example.html", {**common, "ex": example}),
        "nextchapter.noise": ("nextchapter/_noise.html", common),
        "nextchapter.audition": ("nextchapter/_audition.html", common),
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
            {"number": None, "name": "Standings by craft", "href": "nextchapter/", "first": [s.name for s in res.first]}]},
    }
    out.raw_files = [RUN_FILE, ITEMS_FILE, CHAPTERS_FILE, CALLS_FILE]
    out.feed = feed_entries(res)
    amendments.publish(out, "nextchapter", out.summary["title"], inp.log, render.markdown_renderer(), common)
    return out


def _rank_example(res: NextChapterResults) -> dict:
    """The method page's worked rank range, on the standings' headline rows."""
    ranked = [s for s in res.standings if s.best]
    return {"rank_ex": stats.rank_example([stats.Interval(s.model, s.best.craft.low, s.best.craft.high) for s in ranked]),
            "rank_names": {s.model: s.name for s in ranked}, "rank_where": "the standings",
            "rank_interval": "craft band (craft ± SE)", "rank_fmt": {"places": 2}}


def _generation_alt(res: NextChapterResults, novel: dict, model: str) -> str:
    return SENTENCES.generation_alt(model, [b - a for _i, a, b in res.generation_noise])
