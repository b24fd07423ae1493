"""Every number NextChapterBench publishes, from the validated run.

- Per judged chapter (draft 1): craft = mean of the eight dimensions; compliance = the weighted
  share of checks passed, a pass counting only with a verbatim quotation, a trap weighing 2.
- Per effort setting: the mean over its items with the standard error of those items; per
  model, the best setting that completed every item stands for it (scoring.collapse).
- A model is self-family when its house is the judge's.
- Standings by craft, then model id; each ranked row's rank range (stats.rank_ranges) is read
  from the craft bands (mean -/+ SE) pair by pair: rows whose bands overlap are tied.
- The noise gauge: the frozen reference chapter is read in every call, so each item's readings
  of it give the judge's per-call spread; the pooled spread over items, divided by sqrt(items),
  is the uncertainty that noise alone puts on a model's mean.
- Generation noise: where a model wrote its chapters twice, draft 2 minus draft 1 per item.
- The memorisation screen (screen.py) on every judged chapter.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from dataclasses import dataclass, replace

from sitegen import stats
from sitegen.families.nextchapter.scoring import Headline, VariantResult, by_effort, collapse, compliance, craft, headline
from sitegen.families.nextchapter.screen import Flags, screen
from sitegen.families.nextchapter.validate import NextChapterInput


@dataclass(frozen=True)
class ItemResult:
    model: str
    effort: str
    item: str
    draft: int
    craft: float
    compliance: float
    flags: Flags
    call: object  # models.Call
    text: str


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


@dataclass(frozen=True)
class NoiseItem:
    item: str
    n: int
    mean: float
    sd: float


@dataclass(frozen=True)
class NextChapterResults:
    input: NextChapterInput
    results: list[ItemResult]  # every judged chapter, drafts included
    standings: list[Standing]
    noise: list[NoiseItem]
    pooled_sd: float
    mean_uncertainty: float  # pooled_sd / sqrt(items): what judge noise alone puts on a ten-item mean
    generation_noise: list[tuple[str, float, float]]  # item, draft 1 craft, draft 2 craft
    author: dict[str, float]  # item -> mean of the author's five readings over all calls

    @property
    def first(self) -> list[Standing]:
        """The models whose rank range starts at 1: tied for first when there are several."""
        return [s for s in self.standings if s.rank_best == 1]


def compute(inp: NextChapterInput) -> NextChapterResults:
    run = inp.run
    items = {i.id: i for i in inp.items}
    texts = {(c.model, c.effort, c.item, c.draft): c.text for c in inp.chapters if c.outcome == "chapter"}
    results = []
    for call in inp.calls:
        item = items[call.item]
        text = texts[(call.model, call.effort, call.item, call.draft)]
        flags = screen(text, item.source_chapter, item.author_chapter, run.memorisation_threshold)
        # A refusal returned as text is judged like any chapter, and scores zero on compliance.
        score = 0.0 if flags.refusal else compliance(call.candidate_checks, text)
        results.append(ItemResult(call.model, call.effort, call.item, call.draft, craft(call.candidate.craft), score, flags, call, text))
    results.sort(key=lambda r: (r.model, by_effort(r.effort), r.item, r.draft))

    per_variant: dict[tuple[str, str], list[ItemResult]] = defaultdict(list)
    for r in results:
        if r.draft == 1:
            per_variant[(r.model, r.effort)].append(r)
    standings = []
    for m in run.models:
        variants = []
        for v in m.variants:
            rs = per_variant.get((m.id, v.effort), [])
            variants.append(VariantResult(v.effort, v.status, len(rs),
                                          headline([r.craft for r in rs]) if rs else None,
                                          headline([r.compliance for r in rs]) if rs else None))
        best, others = collapse(variants, len(items))
        standings.append(Standing(m.id, m.name, m.house, best, others, self_family=m.house == run.judge.house))
    ranks = stats.rank_ranges([stats.Interval(s.model, s.best.craft.low, s.best.craft.high) for s in standings if s.best])
    ranked = sorted((replace(s, rank_best=ranks[s.model][0], rank_worst=ranks[s.model][1]) for s in standings if s.best),
                    key=lambda s: (-s.best.craft.mean, s.model))
    standings = ranked + sorted((s for s in standings if not s.best), key=lambda s: s.model)

    readings: dict[str, list[float]] = defaultdict(list)
    author: dict[str, list[float]] = defaultdict(list)
    for call in inp.calls:
        readings[call.item].append(craft(call.reference.craft))
        author[call.item].append(statistics.fmean(call.author.values()))
    noise = [NoiseItem(i, len(v), statistics.fmean(v), statistics.stdev(v) if len(v) > 1 else 0.0)
             for i, v in sorted(readings.items())]
    pooled = math.sqrt(statistics.fmean(n.sd ** 2 for n in noise)) if noise else 0.0

    ref = (run.reference.model, run.reference.effort)
    drafts: dict[str, dict[int, float]] = defaultdict(dict)
    for r in results:
        if (r.model, r.effort) == ref:
            drafts[r.item][r.draft] = r.craft
    generation = [(i, d[1], d[2]) for i, d in sorted(drafts.items()) if 1 in d and 2 in d]

    return NextChapterResults(inp, results, standings, noise, pooled, pooled / math.sqrt(len(items)) if items else 0.0,
                              generation, {i: statistics.fmean(v) for i, v in sorted(author.items())})


__all__ = ["compute", "NextChapterResults", "Headline"]
