"""What the pairwise unit publishes: a page per board (ratings with intervals and rank ranges,
each model's judgments, wins, ties and losses, the parts not ranked with the rest, the pairs
never compared, position bias and ties, the win-rate matrix as a table and a figure), a page per
model of a board (its matches by opponent and by prompt), a page per prompt (every output the
judge read, and each pair's verdicts in each order with the reasoning), a page per board beside
the rubric boards (versus.py), and a CSV and JSON of every table. pages.py of the family calls
`publish`; every sentence is in templates/declared/pairwise*.html and sentences.txt.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from sitegen import render

from sitegen.families import FeedEntry, Figure, Page, first_rows
from sitegen.families.declared.pairwise.figure import draw_board, draw_matrix
from sitegen.families.declared.pairwise.versus import versus
from sitegen.families.declared.sentences import SENTENCES


# A prompt's page shows both outputs of each pair under it up to this many pairs (twelve models
# make 66); past it each output once, at the top, linked from its pairs: fifty models make 1,225
# pairs, and 2,450 copies of their outputs would be some 15 MB of one page.
SIDE_BY_SIDE_PAIRS = 100
MATRIX_ROWS = 40  # the most models the matrix figure draws (a wall of cells past it); its table has every pair


def board_path(fid: str, board: str) -> str:
    return f"{fid}/pairwise/{board}/index.html"


def model_path(fid: str, board: str, slug: str) -> str:
    return f"{fid}/pairwise/{board}/models/{slug}/index.html"


def prompt_path(fid: str, prompt: str) -> str:
    return f"{fid}/pairwise/prompts/{prompt}/index.html"


def versus_path(fid: str, board: str) -> str:
    return f"{fid}/pairwise/{board}/rubric/index.html"


@dataclass(frozen=True)
class Verdict:
    """One judgment as a prompt's page shows it."""
    index: int  # its line in the judgments file, 1-based
    first: str  # model shown first
    second: str
    verdict: str
    margin: str | None
    preferred: str | None  # the model preferred, None for a tie
    judge: str
    reasoning: str | None


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    anchor: str
    verdicts: list[Verdict]


def _dir(path: str) -> str:
    return path.removesuffix("index.html")


def common_links(res) -> dict:
    """What the family's home and method pages need of the pairwise unit: its boards' links and
    each board's comparison with the rubric boards."""
    fid = res.input.fid
    return {"pw_board_path": lambda b: _dir(board_path(fid, b)), "pw_versus_path": lambda b: _dir(versus_path(fid, b)),
            "vs": {b.id: versus(b, res.current) for b in res.pairwise.boards}}


def publish(res, out, table, common: dict, slugs: dict[str, str]) -> list[tuple[str, str]]:
    """Add the pairwise pages, tables and figures to OUT (table: pages.outputs' registrar);
    return the navigation's entries for the pairwise boards."""
    pw, fid, cfg = res.pairwise, res.input.fid, res.config
    pcfg, models = cfg.pairwise, common["models"]
    vs = common["vs"]
    pairs = _pairs(pw, models, slugs)
    judges = common["judges"]
    ctx = {**common, "pw": pw, "pcfg": pcfg, "vs": vs, "slugs": slugs, "pw_houses": [judges[j].house for j in pcfg.judges if judges[j].house],
           "pw_board_path": lambda b: _dir(board_path(fid, b)), "pw_model_path": lambda b, m: _dir(model_path(fid, b, slugs[m])),
           "pw_prompt_path": lambda p: _dir(prompt_path(fid, p)), "pw_versus_path": lambda b: _dir(versus_path(fid, b)),
           "pair_anchor": lambda a, b: pairs["anchors"][tuple(sorted((a, b)))]}
    for b in pw.boards:
        _tables(pw, b, table, vs[b.id], models)
        fig = _figures(fid, b, out, common["tables"])
        page = {**ctx, "board": b, "figs": fig}
        out.pages.append(Page(board_path(fid, b.id), "declared/pairwise.html", f"{b.label}: {cfg.title}", page))
        for r in b.rows:
            if r.published:
                out.pages.append(Page(model_path(fid, b.id, slugs[r.model]), "declared/pairwise_model.html",
                                      f"{r.name}, {b.label}: {cfg.title}", {**page, "row": r, "matches": _matches(pw, b, r.model)}))
        if vs[b.id]:
            out.pages.append(Page(versus_path(fid, b.id), "declared/pairwise_versus.html", f"{b.label} beside the rubric boards: {cfg.title}", page))
    for p in res.input.prompts:
        if pairs["by_prompt"].get(p.id):
            table(f"pairwise/prompts/{p.id}/judgments", SENTENCES.table_pairwise_prompt(pw, p),
                  ["pairwise", "prompt", "line", "shown_first", "shown_second", "verdict", "margin", "preferred", "judge", "reasoning"],
                  [(pw.id, p.id, v.index, v.first, v.second, v.verdict, v.margin, v.preferred, v.judge, v.reasoning)
                   for pr in pairs["by_prompt"][p.id] for v in pr.verdicts], "pairwise-judgments")
            out.pages.append(Page(prompt_path(fid, p.id), "declared/pairwise_prompt.html", f"{p.title or p.id}, {pcfg.label}: {cfg.title}",
                                  {**ctx, "prompt": p, "pairs": pairs["by_prompt"][p.id], "outputs": pairs["outputs"][p.id],
                                   "side_by_side": len(pairs["by_prompt"][p.id]) <= SIDE_BY_SIDE_PAIRS, "side_by_side_pairs": SIDE_BY_SIDE_PAIRS,
                                   "board": next(b for b in pw.boards if p.id in b.prompts)}))
    out.feed.append(FeedEntry(f"tag:sitegen,{pw.date}:{fid}/pairwise/{pw.id}", SENTENCES.pairwise_title(pcfg, pw), pw.date,
                              _dir(board_path(fid, pw.boards[0].id)), f"<p>{escape(pcfg.measures)}</p>"))
    return [(b.label, _dir(board_path(fid, b.id))) for b in pw.boards]


def _tables(pw, b, table, vs: list, models: dict) -> None:
    stem = f"pairwise/{b.id}"
    seed = str(b.seed) if b.ranked else None
    table(f"{stem}/board", SENTENCES.table_pairwise_board(pw, b),
          ["pairwise", "board", "model", "name", "house", "judgments", "wins", "ties", "losses", "published", "part", "rating", "low", "high",
           "rank_best", "rank_worst", "seed"],
          [(pw.id, b.id, r.model, r.name, r.house, r.judgments, r.wins, r.ties, r.losses, r.published, r.part, r.rating, r.low, r.high,
            r.rank_best, r.rank_worst, seed if r.part == 0 else None) for r in b.rows], "pairwise-board")
    cells = {(c.a, c.b): c for c in b.cells}
    shown = [r.model for r in b.rows if r.published]
    table(f"{stem}/matrix", SENTENCES.table_pairwise_matrix(pw, b),
          ["pairwise", "board", "model", "name", "opponent", "opponent_name", "judgments", "wins", "ties", "losses", "win_rate"],
          [(pw.id, b.id, a, models[a].name, o, models[o].name, *((c.judgments, c.wins, c.ties, c.losses, c.share) if (c := cells.get((a, o)))
                                                                 else (0, 0, 0, 0, None))) for a in shown for o in shown if a != o], "pairwise-matrix")
    table(f"{stem}/by-prompt", SENTENCES.table_pairwise_by_prompt(pw, b),
          ["pairwise", "board", "model", "name", "prompt", "judgments", "wins", "ties", "losses"],
          [(pw.id, b.id, r.model, r.name, p, sum(c), *c) for r in b.rows if r.published for p, c in _matches(pw, b, r.model)["prompts"]],
          "pairwise-by-prompt")
    x = b.bias
    table(f"{stem}/bias", SENTENCES.table_pairwise_bias(pw, b),
          ["pairwise", "board", "judgments", "ties", "tie_share", "decisive", "first_wins", "first_win_share", "swapped", "changed", "changed_share"],
          [(pw.id, b.id, x.judgments, x.ties, x.ties / x.judgments if x.judgments else None, x.decisive, x.first_wins,
            x.first_wins / x.decisive if x.decisive else None, x.swapped, x.changed, x.changed / x.swapped if x.swapped else None)],
          "pairwise-bias")
    if vs:
        table(f"{stem}/rubric", SENTENCES.table_pairwise_versus(pw, b),
              ["pairwise", "board", "rubric_board", "models", "rho", "low", "high", "draws", "left_out", "seed"],
              [(pw.id, b.id, v.board, len(v.models), v.rho, v.low, v.high, v.draws, v.left_out, seed if v.low is not None else None) for v in vs],
              "pairwise-rubric-correlation")


def _figures(fid: str, b, out, tables: dict) -> dict:
    figs = {}
    stem = f"{fid}/pairwise/{b.id}"
    t = tables[f"{stem}/board"]
    if b.ranked and b.rated:
        drawn, cut = first_rows(b.rated, f"{stem}/board")
        data = [{"model": r.model, "name": r.name, "rating": r.rating, "low": r.low, "high": r.high,
                 "rank_best": r.rank_best, "rank_worst": r.rank_worst} for r in drawn]
        figs["board"] = Figure(f"{stem}/figure", data, draw_board, SENTENCES.pairwise_board_alt(b), t.sources, t.computation, cut=cut)
    shown = [r for r in b.rows if r.published][:MATRIX_ROWS]
    names = {r.model: r.name for r in shown}
    data = [{"model": c.a, "name": names[c.a], "opponent": c.b, "opponent_name": names[c.b], "win_rate": c.share, "judgments": c.judgments}
            for r in shown for c in b.cells if c.a == r.model and c.b in names]
    if data:
        figs["matrix"] = Figure(f"{stem}/matrix-figure", data, draw_matrix, SENTENCES.pairwise_matrix_alt(b, shown), t.sources,
                                f"{fid}.pairwise-matrix")
    out.figures.extend(figs.values())
    return figs


def _matches(pw, b, model: str) -> dict:
    """A model's matches on board B: by opponent (its cells) and by prompt (wins, ties, losses)."""
    by_prompt: dict[str, list[int]] = {}
    for k in b.judged:
        j = pw.judgments[k]
        if model not in (j.model_a, j.model_b):
            continue
        side = "a" if j.model_a == model else "b"
        c = by_prompt.setdefault(j.prompt, [0, 0, 0])
        c[1 if j.winner is None else 0 if j.winner == side else 2] += 1
    order = {r.model: k for k, r in enumerate(b.rows)}  # opponents in the board's order
    return {"opponents": sorted((c for c in b.cells if c.a == model), key=lambda c: order[c.b]), "prompts": [(p, by_prompt[p]) for p in b.prompts if p in by_prompt]}


def _pairs(pw, models: dict, slugs: dict[str, str]) -> dict:
    """Per prompt: each pair's verdicts (pairs by their names), and each output once."""
    by_prompt: dict[str, dict[tuple[str, str], list[Verdict]]] = {}
    outputs: dict[str, dict[tuple[str, str], str]] = {}
    for k, (j, (ta, tb)) in enumerate(zip(pw.judgments, pw.texts)):
        first, second = (j.model_a, j.model_b) if j.shown_first == "a" else (j.model_b, j.model_a)
        preferred = None if j.winner is None else j.model_a if j.winner == "a" else j.model_b
        key = tuple(sorted((j.model_a, j.model_b)))
        by_prompt.setdefault(j.prompt, {}).setdefault(key, []).append(
            Verdict(k + 1, first, second, j.verdict, j.margin, preferred, j.judge, j.reasoning))
        outs = outputs.setdefault(j.prompt, {})
        outs.setdefault(j.model_a, ta)
        outs.setdefault(j.model_b, tb)
    keys = sorted({key for got in by_prompt.values() for key in got})
    anchors = render.row_ids("pair", [f"{a} {b}" for a, b in keys])
    anchor_of = {key: anchors[f"{key[0]} {key[1]}"] for key in keys}

    def named(key):  # a pair's two models in the order of their names
        return tuple(sorted(key, key=lambda m: (models[m].name, m)))

    return {"anchors": anchor_of,
            "by_prompt": {p: [Pair(*named(key), anchor_of[key], got[key]) for key in sorted(got, key=lambda k: [models[m].name for m in named(k)])]
                          for p, got in by_prompt.items()},
            "outputs": {p: sorted(((m, t) for m, t in outs.items()), key=lambda mt: (models[mt[0]].name, mt[0])) for p, outs in outputs.items()}}
