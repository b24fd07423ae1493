"""Every number NextChapterBench publishes, from the validated run.

- Per judged chapter: craft = mean of the eight dimensions; compliance = the weighted share of
  checks passed, a pass counting only with a verbatim quotation, a trap weighing 2 (a refusal
  returned as text scores 0). The frozen reference chapter's compliance is computed the same
  way from its own checks in every call, and the author's chapter's reading is the mean of its
  five dimensions.
- Per effort setting: the mean over its items with the standard error of those items; per
  model, the best setting that completed every item stands for it (scoring.collapse).
- A model is self-family when its house is the judge's.
- Standings by craft, then model id; each ranked row's rank range (stats.rank_ranges) is read
  from the craft bands (mean -/+ SE) pair by pair: rows whose bands overlap are tied. Every other
  complete setting gets the range it would have if it stood for its model.
- The noise gauge: the frozen reference chapter is read in every call, so each item's readings
  of it give the judge's per-call spread; the pooled spread over items, divided by sqrt(items),
  is the uncertainty that judge noise alone puts on a model's mean.
- Generation noise: the reference chapters are the reference model's first drafts; its own entry
  is a second draft of the same items, judged beside the first in the same calls. Per item, the
  second draft's craft minus the first's in that call.
- The separability margin: judge noise on a mean plus the mean generation shift; two headlines
  closer than it are not separable.
- The memorisation screen (screen.py) on every judged chapter; the audition (audition.py), the
  earlier panel and the effort history (effort.py) from the run record.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from dataclasses import dataclass, replace

from sitegen import parallel, stats
from sitegen.families.nextchapter.audition import AuditionResult, PanelResult, audition, panel
from sitegen.families.nextchapter.effort import EffortRow, effort_history
from sitegen.families.nextchapter.models import AUTHOR
from sitegen.families.nextchapter.scoring import Headline, VariantResult, by_effort, collapse, compliance, craft, headline
from sitegen.families.nextchapter.screen import Flags, screen
from sitegen.families.nextchapter.validate import NextChapterInput


@dataclass(frozen=True)
class ItemResult:
    model: str
    effort: str
    item: str
    craft: float
    compliance: float
    flags: Flags
    call: object  # models.Call
    text: str
    reference_craft: float  # the frozen reference chapter's craft, as read in this call
    reference_compliance: float  # and its compliance, from this call's checks of it
    author_mean: float  # the mean of the author's five readings in this call


@dataclass(frozen=True)
class SettingRow:
    """One effort setting as a row of the standings: the headline one, or one shown beneath it."""

    variant: VariantResult
    headline: bool
    rank_best: int | None  # the range it would have if it stood for its model; None unless complete
    rank_worst: int | None
    flags: list[Flags]  # the screen's flags on its own chapters, in item order


@dataclass(frozen=True)
class Standing:
    model: str
    name: str
    house: str
    best: VariantResult | None
    others: list[VariantResult]
    rank_best: int | None = None
    rank_worst: int | None = None
    self_family: bool = False  # the model comes from the judge's house, as run.json records both
    settings: tuple[SettingRow, ...] = ()  # every setting, headline first, then in order of effort


@dataclass(frozen=True)
class NoiseItem:
    item: str
    n: int
    mean: float
    sd: float


@dataclass(frozen=True)
class Generation:
    """The reference model's second draft against its first, item by item, in the same calls."""

    rows: list[tuple[str, float, float]]  # item, first draft's craft, second draft's craft
    mean: float  # second minus first, on average
    ahead: int  # items where the second draft scored higher
    largest: float  # the largest move of one item, either way

    @property
    def items(self) -> int:
        return len(self.rows)


@dataclass(frozen=True)
class Unjudged:
    """A chapter that never reached the judge: the attempts made and why each failed."""

    model: str
    effort: str
    item: str
    attempts: int
    outcome: str  # the last attempt's
    reason: str  # the last attempt's
    same: bool  # every attempt ended the same way


@dataclass(frozen=True)
class NextChapterResults:
    input: NextChapterInput
    results: list[ItemResult]  # every judged chapter
    standings: list[Standing]
    noise: list[NoiseItem]
    pooled_sd: float
    mean_uncertainty: float  # pooled_sd / sqrt(items): what judge noise alone puts on a ten-item mean
    generation: Generation | None
    margin: float | None  # the separability margin: mean_uncertainty + |generation.mean|
    author: dict[str, float]  # item -> mean of the author's five readings over all calls
    author_dims: dict[str, dict[str, float]]  # item -> dimension -> mean reading over all calls
    reference_compliance: dict[str, float]  # item -> mean compliance of the frozen reference over all calls
    candidate_first: int  # calls in which the judge was shown the candidate first
    unjudged: list[Unjudged]
    audition: AuditionResult
    panel: PanelResult
    effort: list[EffortRow]
    example: ItemResult | None  # the method page's worked example

    @property
    def first(self) -> list[Standing]:
        """The models whose rank range starts at 1: tied for first when there are several."""
        return [s for s in self.standings if s.rank_best == 1]

    @property
    def within_margin(self) -> list[Standing]:
        """The headline rows within the separability margin of the leader's craft, the leader
        included: every two of them are closer than the margin, so none is separable from another."""
        ranked = [s for s in self.standings if s.best]
        if not ranked or self.margin is None:
            return ranked[:1]
        top = ranked[0].best.craft.mean
        return [s for s in ranked if top - s.best.craft.mean < self.margin]


def compute(inp: NextChapterInput) -> NextChapterResults:
    run = inp.run
    items = {i.id: i for i in inp.items}
    texts = {(c.model, c.effort, c.item): c.text for c in inp.chapters if c.outcome == "chapter"}
    results = []
    with parallel.Background(parallel.call) as screens:
        # The screen is the costliest step, and each chapter's is independent: they run on the
        # build's workers when those are running, while the judges' scores are read here.
        screens.submit([(screen, texts[(c.model, c.effort, c.item)], items[c.item].source_chapter, items[c.item].author_chapter,
                         run.memorisation_threshold) for c in inp.calls])
        read = []
        for call in inp.calls:
            item = items[call.item]
            text = texts[(call.model, call.effort, call.item)]
            read.append((call, item, text, compliance(call.candidate_checks, text)))
        screened = screens.result()
    for (call, item, text, complied), flags in zip(read, screened):
        # A refusal returned as text is judged like any chapter, and scores zero on compliance.
        score = 0.0 if flags.refusal else complied
        results.append(ItemResult(call.model, call.effort, call.item, craft(call.candidate.scores), score, flags, call, text,
                                  craft(call.reference.scores), compliance(call.reference_checks, item.reference_chapter),
                                  statistics.fmean(call.author.scores[d] for d in AUTHOR)))
    results.sort(key=lambda r: (r.model, by_effort(r.effort), r.item))

    standings = _standings(inp, results)
    noise = [NoiseItem(i, len(v), statistics.fmean(v), statistics.stdev(v) if len(v) > 1 else 0.0)
             for i, v in sorted(_by_item(results, "reference_craft").items())]
    pooled = math.sqrt(statistics.fmean(n.sd ** 2 for n in noise)) if noise else 0.0
    uncertainty = pooled / math.sqrt(len(items)) if items else 0.0
    generation = _generation(inp, results)
    author_dims: dict[str, dict[str, float]] = {}
    for i in sorted({r.item for r in results}):
        calls = [r.call for r in results if r.item == i]
        author_dims[i] = {d: statistics.fmean(c.author.scores[d] for c in calls) for d in AUTHOR}
    unjudged = [Unjudged(c.model, c.effort, c.item, len(c.attempts), c.outcome, c.attempts[-1].reason,
                         len({a.outcome for a in c.attempts}) == 1) for c in inp.chapters if c.outcome != "chapter"]
    unjudged.sort(key=lambda u: (u.model, by_effort(u.effort), u.item))
    return NextChapterResults(
        inp, results, standings, noise, pooled, uncertainty, generation,
        uncertainty + abs(generation.mean) if generation else None,
        {i: statistics.fmean(v) for i, v in sorted(_by_item(results, "author_mean").items())}, author_dims,
        {i: statistics.fmean(v) for i, v in sorted(_by_item(results, "reference_compliance").items())},
        sum(1 for c in inp.calls if c.order[0] == "candidate"), unjudged,
        audition(run.audition), panel(run.earlier_panel),
        effort_history(run, inp.chapters, results), _example(standings, results))


def _by_item(results: list[ItemResult], field: str) -> dict[str, list[float]]:
    out: dict[str, list[float]] = defaultdict(list)
    for r in results:
        out[r.item].append(getattr(r, field))
    return out


def _standings(inp: NextChapterInput, results: list[ItemResult]) -> list[Standing]:
    run = inp.run
    n_items = len(inp.items)
    per_variant: dict[tuple[str, str], list[ItemResult]] = defaultdict(list)
    for r in results:
        per_variant[(r.model, r.effort)].append(r)
    standings = []
    for m in run.models:
        variants = []
        for v in m.variants:
            rs = per_variant.get((m.id, v.effort), [])
            variants.append(VariantResult(v.effort, v.status, len(rs),
                                          headline([r.craft for r in rs]) if rs else None,
                                          headline([r.compliance for r in rs]) if rs else None))
        best, others = collapse(variants, n_items)
        standings.append(Standing(m.id, m.name, m.house, best, others, self_family=m.house == run.judge.house))
    bands = {s.model: stats.Interval(s.model, s.best.craft.low, s.best.craft.high) for s in standings if s.best}
    ranks = stats.rank_ranges(list(bands.values()))
    out = []
    for s in standings:
        rows = []
        for v in ([s.best] if s.best else []) + s.others:
            rank = (None, None)
            if v is s.best:
                rank = ranks[s.model]
            elif v.status == "judged" and v.items == n_items and v.craft is not None:
                # Where this setting would rank if it stood for its model: its band among the other models' headlines.
                board = [iv for key, iv in bands.items() if key != s.model] + [stats.Interval(s.model, v.craft.low, v.craft.high)]
                rank = stats.rank_ranges(board)[s.model]
            flags = [r.flags for r in per_variant.get((s.model, v.effort), [])]
            rows.append(SettingRow(v, v is s.best, *rank, flags))
        out.append(replace(s, rank_best=ranks[s.model][0] if s.best else None, rank_worst=ranks[s.model][1] if s.best else None,
                           settings=tuple(rows)))
    ranked = sorted((s for s in out if s.best), key=lambda s: (-s.best.craft.mean, s.model))
    return ranked + sorted((s for s in out if not s.best), key=lambda s: s.model)


def _generation(inp: NextChapterInput, results: list[ItemResult]) -> Generation | None:
    ref = (inp.run.reference.model, inp.run.reference.effort)
    rows = [(r.item, r.reference_craft, r.craft) for r in results if (r.model, r.effort) == ref]
    if not rows:
        return None
    diffs = [second - first for _i, first, second in rows]
    return Generation(rows, statistics.fmean(diffs), sum(1 for d in diffs if d > 0), max(abs(d) for d in diffs))


def _example(standings: list[Standing], results: list[ItemResult]) -> ItemResult | None:
    """The chapter the method page works through: the first, in standings order and then item
    order, whose checks show both rules that change a judge's verdict or its weight: a failed
    trap (counted double) and a pass whose quotation is not in the chapter (counted a fail).
    Failing that, one that shows either; failing that, the leader's first chapter."""
    from sitegen.families.nextchapter.scoring import check_passes

    order = {s.model: n for n, s in enumerate(standings)}
    headline = {(s.model, s.best.effort) for s in standings if s.best}
    candidates = sorted((r for r in results if (r.model, r.effort) in headline and not r.flags.refusal),
                        key=lambda r: (order[r.model], r.item))

    def shows(r: ItemResult) -> tuple[bool, bool]:
        checks = r.call.candidate_checks
        return (any(c.kind == "trap" and not check_passes(c, r.text) for c in checks),
                any(c.passed and not check_passes(c, r.text) for c in checks))

    for wanted in (lambda t, q: t and q, lambda t, q: t or q, lambda t, q: True):
        found = next((r for r in candidates if wanted(*shows(r))), None)
        if found is not None:
            return found
    return None


__all__ = ["compute", "NextChapterResults", "Headline"]
